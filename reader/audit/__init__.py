"""Fairness audits of physical dice: pictures of their face counts (the statistics are in :mod:`rules.audit`)."""
