"""Command-line actions of the true20 system (placeholder until the resolver lands)."""

from reader.cli.actions import Action

ACTIONS: list[Action] = []
