"""The ``dicetable`` command line."""
