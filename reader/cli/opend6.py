"""Command-line actions of the opend6 system (placeholder until the resolver lands)."""

from reader.cli.actions import Action

ACTIONS: list[Action] = []
