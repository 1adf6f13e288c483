"""The pin comparison: words exact, decimal numbers to ten significant digits."""

from __future__ import annotations

from tests.textmatch import mismatch

PIN = 'rating 572.7470184618915, p 1.71e-05, 22 games\n{"score": 0.0}\n'


def test_the_last_bits_of_a_float_may_differ() -> None:
    printed = (
        "rating 572.7470184618913, p 1.7100000000004e-05, 22 games\n"
        '{"score": 1.3877787807814457e-17}\n'
    )
    assert mismatch(PIN, printed) is None


def test_a_number_off_in_its_ninth_digit_fails_and_is_shown() -> None:
    printed = PIN.replace("572.7470184618915", "572.7470194618915")
    found = mismatch(PIN, printed)
    assert found is not None and found.startswith("line 1:")
    assert "572.7470194618915" in found


def test_a_number_rounded_for_display_is_exact() -> None:
    assert mismatch("score 7.8 %\n", "score 7.80 %\n") is not None
    assert mismatch("score 7.8 %\n", "score 7.9 %\n") is not None


def test_integers_and_words_are_exact() -> None:
    assert mismatch(PIN, PIN.replace("22 games", "23 games")) is not None
    assert mismatch(PIN, PIN.replace("rating", "Rating")) is not None
    assert mismatch(PIN, PIN.replace("1.71e-05", "1.71e-5")) is not None


def test_a_missing_or_extra_line_fails() -> None:
    found = mismatch(PIN, PIN + "more\n")
    assert found == "2 lines pinned, 3 printed; the first 2 agree"
    assert mismatch(PIN, PIN.splitlines(keepends=True)[0]) is not None
