"""Command-line actions of the osr system (placeholder until the resolver lands)."""

from reader.cli.actions import Action

ACTIONS: list[Action] = []
