"""The command line prints what its golden files say (``tests/cli_golden``):
the words byte for byte, decimal numbers to ten significant digits
(``tests/textmatch.py``: a fitted rating's last bits differ between CPUs).

A difference fails with a unified diff; remake a file after a deliberate change
with ``python -m tests.cli_golden --write CASE`` and read the diff.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

import pytest

from tests.cli_golden import CASES, Tournament, golden_path, output, write_command
from tests.textmatch import mismatch


@pytest.fixture(scope="module")
def tournament() -> Iterator[Tournament]:
    played = Tournament()
    yield played
    played.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_command_prints_its_golden_output(
    name: str, tournament: Tournament
) -> None:
    path = golden_path(name)
    if not path.exists():
        pytest.fail(f"no golden output {path}: make it with `{write_command(name)}`")
    expected = path.read_text()
    printed = output(name, tournament)
    if mismatch(expected, printed) is not None:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                printed.splitlines(keepends=True),
                f"{path.name} (golden)",
                f"{name} (printed now)",
            )
        )
        pytest.fail(
            f"`troef {' '.join(CASES[name])}` no longer prints its golden output:\n"
            f"{diff}\nif the change is meant, run `{write_command(name)}`"
        )
