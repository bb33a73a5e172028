"""The README's example commands run as written (with a seed, so they are repeatable)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from cli_run import dicetable

README = Path(__file__).resolve().parents[1] / "README.md"


def _examples() -> list[list[str]]:
    """Every ``dicetable ...`` line of the README's "One example per system" block."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## One example per system", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line.split("#", 1)[0])[1:] for line in block.splitlines() if line.startswith("dicetable ")]


EXAMPLES = _examples()


def test_the_readme_has_an_example_for_every_system() -> None:
    systems = {argv[1] for argv in EXAMPLES if argv[0] in ("check", "attack")}
    assert {"true20", "opend6", "osr", "d20", "d6pool"} <= systems


@pytest.mark.parametrize("argv", EXAMPLES, ids=" ".join)
def test_each_example_runs(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    extra = [] if argv[0] == "odds" else ["--seed", "1"]
    code, out, err = dicetable(capsys, *argv, *extra)
    assert code == 0, err
    assert out.strip()
