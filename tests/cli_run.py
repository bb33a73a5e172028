"""Running the ``dicetable`` command line in-process, shared by the command-line tests."""

from __future__ import annotations

import argparse
import json

import pytest

from reader.cli.actions import Action
from reader.cli.main import main


def dicetable(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line; returns (exit code, stdout, stderr). argparse's exits count too."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def resolved(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    """The JSON object ``dicetable argv --json`` prints; the command must succeed."""
    code, out, err = dicetable(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def options_without_help(actions: list[Action]) -> list[str]:
    """Every option of these actions that has no help text."""
    missing = []
    for action in actions:
        parser = argparse.ArgumentParser()
        action.configure(parser)
        missing += [f"{action.name} {action.system} {opt.dest}" for opt in parser._actions if not opt.help]
    return missing


def assert_one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str] | tuple[str, ...], message: str) -> None:
    """``dicetable argv`` must fail as a user mistake does: exit code 2, nothing on stdout, and
    exactly one line on stderr, naming the program and containing ``message`` (no traceback)."""
    code, out, err = dicetable(capsys, *argv)
    assert code == 2, err
    assert out == "" or out.startswith("odds:")  # the odds line may precede a source that fails
    assert err.count("\n") == 1 and err.startswith("dicetable") and message in err, err
