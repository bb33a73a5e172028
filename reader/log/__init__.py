"""The roll log: every throw, its evidence and the outcome it led to (see :mod:`reader.log.store`)."""
