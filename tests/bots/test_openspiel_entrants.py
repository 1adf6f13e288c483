"""Other frameworks' bots as troef entrants (``bots/openspiel.py``): OpenSpiel's
ISMCTSBot (``bot = "openspiel:ismcts"``) and a masked policy (``bot =
"policy"``) play a real tournament into SQLite under the referee, the IS-MCTS
bot in its own process under a time control."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from harness import Bot, api
from harness.contracts.errors import OptionError
from harness.match.referee import make_bot, play_match
from harness.plugins import load_plugins

pyspiel = pytest.importorskip("pyspiel")

from bots.openspiel import load_policy  # noqa: E402 - after the skip
from harness.interop import openspiel  # noqa: E402

REGISTRY = load_plugins()

POLICY = '''
import numpy as np

def first_legal(observation, mask):
    """The lowest legal id: a deterministic policy on the mask alone."""
    assert observation.dtype == np.float32 and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[0])
'''


def test_the_search_starts_from_a_world_behind_the_view_only() -> None:
    """The adapter state the bot searches from shows the bot's own View: the
    world is the sampler's, never the referee's State."""
    game = REGISTRY.game("bezique", {"target": 200})
    state = game.new_match(2, 8)
    view = state.view(state.to_act or 0)
    world = game.sampler(view).sample(random.Random(1))
    spiel = openspiel.adapter_game(game, 2)
    searched = openspiel.adapter_state(spiel, world)
    assert searched.information_state_string() == view.to_json()
    assert searched.current_player() == view.seat


def test_openspiel_ismcts_plays_a_match_under_the_referee() -> None:
    game = REGISTRY.game("klaverjassen", {"target": 300})

    def bots() -> list[Bot]:
        ismcts, plain = (
            REGISTRY.bot_class("openspiel:ismcts"),
            REGISTRY.bot_class("random"),
        )
        return [
            make_bot(game, ismcts, seat, 5, {"simulations": 8})
            if seat % 2 == 0
            else make_bot(game, plain, seat, 5, {})
            for seat in range(4)
        ]

    result = play_match(game, bots(), seed=5)
    assert result.forfeit is None and result.ended is None
    # Seeded: the bot draws from its own stream only, so a replay is the same.
    assert play_match(game, bots(), seed=5).scores == result.scores


def test_an_openspiel_bot_and_a_policy_play_a_tournament(tmp_path: Path) -> None:
    policy = tmp_path / "policy.py"
    policy.write_text(POLICY)
    database = api.run_tournament(
        {
            "game": "marjolet",
            "matches": 1,
            "seed": 4,
            "executor": "inline",
            "database": str(tmp_path / "interop.sqlite"),
            "options": {"target": 100},
            "time_control": {"move": 60},
            "entrants": {
                "os-ismcts": {
                    "bot": "openspiel:ismcts",
                    "options": {"simulations": 4},
                    "isolation": "process",
                },
                "policy": {
                    "bot": "policy",
                    "options": {"policy": f"{policy}:first_legal"},
                },
                "random": {"bot": "random"},
            },
        }
    )
    records = api.results(database)
    assert len(records) == 6  # three pairs, each seating both ways
    for record in records:
        assert record["forfeit"] is None and "void" not in record, record
    seated = {name for record in records for name in record["seating"]}
    assert seated == {"os-ismcts", "policy", "random"}


def test_a_policy_that_does_not_load_names_the_option() -> None:
    with pytest.raises(OptionError, match=r"option 'policy' = 'first_legal'; expected"):
        load_policy("first_legal")
    with pytest.raises(OptionError, match=r"harness has no callable 'nothing'"):
        load_policy("harness:nothing")
    with pytest.raises(OptionError, match=r"no_such_module does not load"):
        load_policy("no_such_module:policy")


def test_troef_play_takes_a_bot_name_with_a_colon(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``openspiel:ismcts:simulations=4`` is that bot with that option, not a bot
    called ``openspiel``; other names still end at their first ``:``."""
    from harness.cli import main

    argv = ["play", "belote", "--option", "target=100", "--seed", "3", "--bots"]
    code = main([*argv, "openspiel:ismcts:simulations=4,random"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert any(line.split()[1:2] == ["openspiel:ismcts"] for line in out.splitlines())
    code = main([*argv, "openspiel:ismcts:simulations=0,random"])
    _, err = capsys.readouterr()
    assert code != 0 and "option 'simulations' = 0" in err
