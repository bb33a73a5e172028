"""Dice sources: each answers a :class:`rules.dice.DiceRequest` with a :class:`rules.dice.Throw`."""
