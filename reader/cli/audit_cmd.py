"""Placeholder: this command module is being written."""

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    """Register nothing yet."""
