"""Issue 25, item 3: common plugin mistakes are errors that name the file and
line, the hook or class, what was found and what is accepted; never a
traceback, never a wrong message.

Each case is a real plugin file written to ``tmp_path`` and loaded by the real
``troef`` command line (``troef --plugin FILE bots``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import TOY_PLUGIN

#: A plugin file's head: the toy game's module, to subclass a working game.
TOY_IMPORT = f"""\
import importlib.util, sys
from harness import Bot, Game, Option, hookimpl
_spec = importlib.util.spec_from_file_location("toy_for_mistakes", {str(TOY_PLUGIN)!r})
toy = importlib.util.module_from_spec(_spec)
sys.modules["toy_for_mistakes"] = toy
_spec.loader.exec_module(toy)
"""

FIRST_LEGAL = """\
class FirstLegal(Bot):
    name = "first-legal"

    def act(self, view):
        return view.legal_actions[0]
"""


def troef_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, body: str
) -> tuple[Path, str]:
    """Run ``troef --plugin FILE bots`` on a plugin made of ``body``; its error."""
    path = tmp_path / "mistake.py"
    path.write_text(TOY_IMPORT + textwrap.dedent(body))
    code = main(["--plugin", str(path), "bots"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", out
    assert err.startswith("troef: error: ") and err.count("\n") == 1, err
    return path, err.removeprefix("troef: error: ").rstrip("\n")


def line_of(path: Path, text: str) -> int:
    """The number of the line of ``path`` that starts with ``text``."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


# -- troef_bots ---------------------------------------------------------------


def test_a_bot_class_returned_bare_asks_for_a_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys,
        tmp_path,
        FIRST_LEGAL + "@hookimpl\ndef troef_bots():\n    return FirstLegal\n",
    )
    assert err == (
        f"{path}:{line_of(path, '@hookimpl')}: troef_bots() of plugin {str(path)!r} "
        "returned the class FirstLegal itself, not a list; expected a list of Bot "
        "subclasses: return [FirstLegal]"
    )


def test_a_hook_without_a_return_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys,
        tmp_path,
        FIRST_LEGAL + "@hookimpl\ndef troef_bots():\n    [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, '@hookimpl')}: troef_bots() of plugin {str(path)!r} "
        "returned None (no return?); expected a list of Bot subclasses, e.g. "
        "return [MyBot] (or return [] for none)"
    )


def test_a_class_that_does_not_subclass_bot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = FIRST_LEGAL.replace("(Bot)", "")
    path, err = troef_error(
        capsys,
        tmp_path,
        body + "@hookimpl\ndef troef_bots():\n    return [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, 'class FirstLegal')}: class FirstLegal, returned by "
        f"troef_bots() of plugin {str(path)!r}, does not subclass harness.Bot; "
        "expected Bot subclasses: from harness import Bot, then "
        "class FirstLegal(Bot): ..."
    )


def test_games_as_a_string_is_not_read_letter_by_letter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = FIRST_LEGAL.replace(
        '    name = "first-legal"\n', '    name = "first-legal"\n    games = "belote"\n'
    )
    path, err = troef_error(
        capsys,
        tmp_path,
        body + "@hookimpl\ndef troef_bots():\n    return [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, 'class FirstLegal')}: bot class FirstLegal (from "
        f"troef_bots() of plugin {str(path)!r}): games = 'belote' is a string, which "
        "would be read letter by letter; expected None (any game) or a frozenset of "
        "game names: games = frozenset({'belote'})"
    )


def test_a_bot_without_act_names_the_missing_method(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = FIRST_LEGAL.replace("def act(", "def play(")
    path, err = troef_error(
        capsys,
        tmp_path,
        body + "@hookimpl\ndef troef_bots():\n    return [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, 'class FirstLegal')}: bot class FirstLegal (from "
        f"troef_bots() of plugin {str(path)!r}): it does not define act; expected "
        "every abstract method of harness.Bot to be implemented"
    )


def test_a_bot_named_by_a_string_asks_for_the_class(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys,
        tmp_path,
        FIRST_LEGAL + '@hookimpl\ndef troef_bots():\n    return ["first-legal"]\n',
    )
    assert err == (
        f"{path}:{line_of(path, '@hookimpl')}: troef_bots() of plugin {str(path)!r} "
        "returned 'first-legal' (a str) in its list (a name; return the class "
        "itself); expected Bot subclasses"
    )


# -- troef_games --------------------------------------------------------------


def test_a_game_class_returned_bare_asks_for_a_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys, tmp_path, "@hookimpl\ndef troef_games():\n    return toy.ToyGame\n"
    )
    assert err == (
        f"{path}:{line_of(path, '@hookimpl')}: troef_games() of plugin "
        f"{str(path)!r} returned the class ToyGame itself, not a list; expected a "
        "list of Game subclasses: return [ToyGame]"
    )


def test_a_bot_returned_as_a_game_is_sent_to_its_hook(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys,
        tmp_path,
        FIRST_LEGAL + "@hookimpl\ndef troef_games():\n    return [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, 'class FirstLegal')}: class FirstLegal, returned by "
        f"troef_games() of plugin {str(path)!r}, does not subclass harness.Game: it "
        "is a bot class; return it from troef_bots(), or give troef_games() Game "
        "subclasses"
    )


@pytest.mark.parametrize(
    ("attribute", "problem"),
    [
        (
            "seat_counts = 4",
            "seat_counts = 4 is not allowed; expected a frozenset of seat counts "
            "(integers >= 1): seat_counts = frozenset({4})",
        ),
        (
            "title = None",
            "title = None is not allowed; expected a non-empty string, e.g. "
            'title = "Klaverjassen (4 players, fixed partnerships)"',
        ),
        (
            # The comma forgotten: a lone Option, not a tuple of one.
            'option_specs = (Option("target", 100))',
            "option_specs = Option('target', 100) is not allowed; expected a tuple of "
            "harness.Option, e.g. option_specs = (Option(...),)",
        ),
        (
            'points_higher_is_better = "no"',
            "points_higher_is_better = 'no' is not allowed; expected True or False",
        ),
        (
            "max_actions = 0",
            "max_actions = 0 is not allowed; expected an integer >= 1",
        ),
        (
            'check_options = ["target"]',
            "check_options = ['target'] is not allowed; expected a dict of option "
            'names to values, e.g. {"target": 100}',
        ),
    ],
)
def test_wrong_game_metadata_names_the_attribute(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, attribute: str, problem: str
) -> None:
    body = (
        f'class Mine(toy.ToyGame):\n    name = "mine"\n    {attribute}\n\n\n'
        "@hookimpl\ndef troef_games():\n    return [Mine]\n"
    )
    path, err = troef_error(capsys, tmp_path, body)
    assert err == (
        f"{path}:{line_of(path, 'class Mine')}: game class Mine (from troef_games() "
        f"of plugin {str(path)!r}): {problem}"
    )


def test_a_game_without_a_sampler_is_named_at_registration(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = """\
    class Mine(Game):
        name = "mine"
        title = "Mine"
        seat_counts = frozenset({2})
        new_match = toy.ToyGame.new_match


    @hookimpl
    def troef_games():
        return [Mine]
    """
    path, err = troef_error(capsys, tmp_path, body)
    assert err == (
        f"{path}:{line_of(path, 'class Mine')}: game class Mine (from troef_games() "
        f"of plugin {str(path)!r}): it implements neither sample_state nor sampler; "
        "expected one of them, or sampler_class (with view_class) naming a "
        "harness.Sampler subclass"
    )


def test_a_string_returned_for_the_list_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, err = troef_error(
        capsys,
        tmp_path,
        FIRST_LEGAL + '@hookimpl\ndef troef_bots():\n    return "FirstLegal"\n',
    )
    assert err == (
        f"{path}:{line_of(path, '@hookimpl')}: troef_bots() of plugin {str(path)!r} "
        "returned 'FirstLegal' (a str); expected a list of Bot subclasses, e.g. "
        "return [MyBot] (or return [] for none)"
    )


@pytest.mark.parametrize(
    "returned", ["(FirstLegal,)", "{FirstLegal}", "(c for c in [FirstLegal])"]
)
def test_any_collection_of_classes_still_registers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, returned: str
) -> None:
    """Not only lists: what loaded before these checks still loads."""
    path = tmp_path / "fine.py"
    path.write_text(
        TOY_IMPORT
        + FIRST_LEGAL
        + f"@hookimpl\ndef troef_bots():\n    return {returned}\n"
    )
    code = main(["--plugin", str(path), "bots"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert [line.split()[:2] for line in out.splitlines() if "first-legal" in line] == [
        ["first-legal", "any"]
    ]


def test_a_bot_without_a_name_asks_for_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = FIRST_LEGAL.replace('    name = "first-legal"\n', "")
    path, err = troef_error(
        capsys,
        tmp_path,
        body + "@hookimpl\ndef troef_bots():\n    return [FirstLegal]\n",
    )
    assert err == (
        f"{path}:{line_of(path, 'class FirstLegal')}: bot class FirstLegal (from "
        f"troef_bots() of plugin {str(path)!r}): name = None is not allowed; "
        'expected a non-empty string, its registry name (e.g. name = "my-bot")'
    )
