"""Command-line actions of the d20 core rules."""

from __future__ import annotations

import argparse

from reader.cli.actions import Action
from rules import d20


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--modifier", type=int, default=0, help="sum of all modifiers added to the d20 (default 0)")
    parser.add_argument("--difficulty", type=int, required=True, metavar="TARGET",
                        help="target number: the total must equal or exceed it")


ACTIONS = [
    Action("check", "d20", "d20 core check: d20 + modifiers against a target number",
           _configure_check, lambda a: d20.D20Check(a.modifier, a.difficulty), d20.check),
]
