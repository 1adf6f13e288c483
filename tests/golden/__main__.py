"""``python -m tests.golden [--write] [GAME ...]``: see ``tests/golden/__init__.py``."""

from tests.golden import main

raise SystemExit(main())
