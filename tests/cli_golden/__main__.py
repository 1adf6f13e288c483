"""``python -m tests.cli_golden [--write] [CASE ...]``: see the package docstring."""

from tests.cli_golden import main

raise SystemExit(main())
