"""``python -m drumlin``: the ``drumlin`` command (drumlin/cli.py)."""

import sys

from .cli import main

sys.exit(main())
