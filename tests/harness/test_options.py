from __future__ import annotations

from typing import Any

import pytest

from harness.contracts.errors import OptionError
from harness.contracts.options import Option, resolve_options

SPECS = (
    Option("target", 1500, "play to this many points", minimum=100),
    Option("variant", "standard", choices=("standard", "utrechts")),
    Option("clubs_first", True),
    Option("weight", 0.5, minimum=0.0, maximum=1.0),
)


def test_defaults_are_filled_in() -> None:
    assert dict(resolve_options(SPECS, {"target": 500}, "game 'x'")) == {
        "target": 500,
        "variant": "standard",
        "clubs_first": True,
        "weight": 0.5,
    }


def test_resolved_options_are_read_only() -> None:
    opts = resolve_options(SPECS, {}, "game 'x'")
    with pytest.raises(TypeError):
        opts["target"] = 1  # type: ignore[index]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"targt": 5}, "unknown option 'targt'; did you mean 'target'?"),
        (
            {"variant": "leids"},
            "option 'variant' = 'leids' is not allowed; "
            "expected one of 'standard', 'utrechts'",
        ),
        (
            {"target": "500"},
            "option 'target' = '500' is not allowed; expected int >= 100",
        ),
        ({"target": 50}, "expected int >= 100"),
        ({"target": True}, "option 'target' = True"),
        (
            {"clubs_first": 1},
            "option 'clubs_first' = 1 is not allowed; expected a bool",
        ),
        ({"weight": 2}, "expected float from 0.0 to 1.0"),
    ],
)
def test_bad_options_name_the_option_and_what_is_allowed(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError) as info:
        resolve_options(SPECS, given, "game 'klaverjassen'")
    assert str(info.value).startswith("game 'klaverjassen': ")
    assert message in str(info.value)


def test_an_int_is_accepted_for_a_float_option() -> None:
    assert resolve_options(SPECS, {"weight": 1}, "x")["weight"] == 1.0


def test_choice_docs_describe_choices_and_name_a_wrong_one() -> None:
    option = Option(
        "variant", "a", choices=("a", "b"), choice_docs={"a": "the first rule set"}
    )
    assert (
        option.choice_doc("a") == "the first rule set" and option.choice_doc("b") == ""
    )
    assert hash(option) == hash(Option("variant", "a", choices=("a", "b")))
    with pytest.raises(ValueError, match=r"option 'variant': choice_docs names 'c'"):
        Option("variant", "a", choices=("a", "b"), choice_docs={"c": "no such"})


def test_an_outside_plugins_description_falls_back_to_its_docstring() -> None:
    """A bot or game class without ``description`` is described by the first
    line of its own docstring; without either, by nothing (not its base's)."""
    from harness.contracts.bot import Bot

    class Documented(Bot):
        """Plays the first legal action.

        More that troef bots does not show.
        """

        name = "documented"

        def act(self, view: Any) -> str:
            return str(view.legal_actions[0])

    class Described(Documented):
        description = "  Plays   the first\n legal action, said once. "

    class Silent(Documented):
        pass

    assert Documented.describe() == "Plays the first legal action."
    assert Described.describe() == "Plays the first legal action, said once."
    assert Silent.describe() == ""
