"""``python -m harness`` runs the ``troef`` command line."""

from __future__ import annotations

import sys

from harness.cli import main

sys.exit(main())
