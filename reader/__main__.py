"""``python -m reader`` runs the ``dicetable`` command line."""

import sys

from reader.cli.main import main

sys.exit(main())
