"""Exact odds of checks before any die is thrown.

:mod:`rules.odds.dist` is a small exact distribution engine (integer counts, censored tails
for exploding dice); :mod:`rules.odds.tree` enumerates any resolver's tree of requests;
one module per rule system computes its checks' odds from their parameter dataclasses, and
:mod:`rules.odds.dispatch` picks the module by the parameters' type.
"""
