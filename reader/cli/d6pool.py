"""Command-line actions of the d6pool system (placeholder until the resolver lands)."""

from reader.cli.actions import Action

ACTIONS: list[Action] = []
