"""Driving a resolver with scripted faces, shared by the rule tests."""

from __future__ import annotations

from reader.sources.scripted import ScriptedDice
from rules.errors import RulesError, ThrowMismatch
from rules.protocol import Resolution, drive


def run(resolution: Resolution, *faces: int):
    """Drive ``resolution`` with exactly ``faces`` (leftovers are an error)."""
    dice = ScriptedDice(faces)
    result = drive(resolution, dice.throw_now)
    dice.finish()
    return result


def drive_or_refuse(resolution: Resolution, faces: list[int]):
    """The result, or None when the rules refuse the parameters or the faces run out."""
    try:
        return drive(resolution, ScriptedDice(faces).throw_now)
    except (RulesError, ThrowMismatch):
        return None
