"""The IS-MCTS and PIMC bots (issue 18): any game through the contracts alone,
deterministic for a fixed budget, exact endings, strategy fusion shown."""

from __future__ import annotations

import random
import time

import pytest

from bots.ismcts import ISMCTSBot
from bots.pimc import AlphaBeta, PIMCBot, _key, endgame_cards, no_more_cards
from bots.searchkit import Deadline, seat_margins
from games.jass.declarations import ROEM
from games.jass.smousjas import Smousjas
from games.jass.stock import StockState
from games.tricks import TrickState
from harness import Game, OptionError, State, View
from harness.plugins import load_plugins
from tests.plugins.fusion_game import FusionGame

REGISTRY = load_plugins()
GAMES = sorted(REGISTRY.games)


def _walk(game: Game, n: int, seed: int, steps: int) -> State:
    """A state ``steps`` random actions into a match (or its last before the end)."""
    state = game.new_match(n, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        if state.is_over():
            break
        action = rng.choice(legal)
        probe = state.clone()
        probe.apply(action)
        if probe.is_over():
            break
        state = probe
    return state


@pytest.mark.parametrize("name", GAMES)
def test_both_bots_play_legal_moves_in_every_game(name: str) -> None:
    game = REGISTRY.game_class(name).for_checks()
    n = min(game.seat_counts)
    for steps in (0, 7, 19):
        state = _walk(game, n, 11, steps)
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        mcts = ISMCTSBot(game, seat, 3, {"iterations": 40})
        assert mcts.act(view) in view.legal_actions
        pimc = PIMCBot(game, seat, 3, {"worlds": 2, "rollouts": 1})
        assert pimc.act(view) in view.legal_actions


def test_ismcts_is_deterministic_for_a_fixed_iteration_budget() -> None:
    game = REGISTRY.game("klaverjassen")
    state = _walk(game, 4, 5, 4)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert len(view.legal_actions) > 1
    picks = {ISMCTSBot(game, seat, 9, {"iterations": 300}).act(view) for _ in range(3)}
    assert len(picks) == 1
    bot = ISMCTSBot(game, seat, 9, {"iterations": 300})
    bot.act(view)
    assert bot.last_iterations == 300


def test_ismcts_availability_counts() -> None:
    """Every root child was available at least as often as it was chosen, and
    the root's children share out exactly the iterations."""
    game = REGISTRY.game("klaverjassen")
    state = _walk(game, 4, 5, 9)  # in a trick: what may be played varies by world
    seat = state.to_act
    assert seat is not None
    bot = ISMCTSBot(game, seat, 1, {"iterations": 500})
    bot.act(state.view(seat))
    root = bot.last_root
    assert root is not None
    assert sum(c.visits for c in root.children.values()) == 500
    for child in root.children.values():
        assert 1 <= child.visits <= child.avail <= 500


def test_a_time_budget_stops_the_search() -> None:
    game = REGISTRY.game("klaverjassen")
    state = _walk(game, 4, 5, 1)
    seat = state.to_act
    assert seat is not None
    bot = ISMCTSBot(game, seat, 1, {"iterations": 10_000_000, "seconds": 0.05})
    bot.act(state.view(seat))
    assert 0 < bot.last_iterations < 10_000_000
    # The referee's limit wins when it is shorter: half of it is spent.
    bot = ISMCTSBot(game, seat, 1, {"iterations": 10_000_000})
    bot.act_within(state.view(seat), 0.1)
    assert 0 < bot.last_iterations < 10_000_000
    assert Deadline(0.0, None).bounded is False


def test_the_own_budget_counts_cpu_seconds_and_the_referee_limit_wall_seconds() -> None:
    # Sleeping spends wall time but almost no CPU time: the bot's own budget
    # is not spent by a machine busy with other work, the referee's limit is.
    began = time.thread_time()
    own = Deadline(0.05, None)
    time.sleep(0.1)
    assert own.bounded and not own.passed()
    while not own.passed():
        pass
    assert time.thread_time() - began >= 0.05  # spent in CPU seconds
    referee = Deadline(60.0, 0.1)  # stops at 0.5 * 0.1 - 0.02 wall seconds
    time.sleep(0.05)
    assert referee.passed()


def test_an_unknown_rollout_policy_is_refused() -> None:
    game = REGISTRY.game("klaverjassen")
    with pytest.raises(OptionError, match="names no registered bot"):
        ISMCTSBot(game, 0, 1, {"rollout": "no-such-bot"})
    with pytest.raises(OptionError, match="does not play"):
        PIMCBot(game, 0, 1, {"rollout": "tarot"})


def test_a_heuristic_bot_plays_the_rollouts() -> None:
    game = REGISTRY.game("klaverjassen")
    state = _walk(game, 4, 5, 3)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    bot = ISMCTSBot(game, seat, 1, {"iterations": 20, "rollout": "jass"})
    assert bot.act(view) in view.legal_actions
    bot2 = PIMCBot(game, seat, 1, {"worlds": 2, "rollout": "jass"})
    assert bot2.act(view) in view.legal_actions


def _choices(game: Game, n: int, least: int) -> list[tuple[int, View]]:
    """(seat, view) of random positions with at least ``least`` legal actions."""
    found = []
    for walk_seed in range(12):
        for steps in (3, 9, 14):
            state = _walk(game, n, walk_seed, steps)
            seat = state.to_act
            if seat is not None and len(state.legal_actions()) >= least:
                found.append((seat, state.view(seat)))
    return found


def test_a_prior_bot_is_explored_first_and_favoured_at_the_root() -> None:
    """Issue 18 item 3: with the jass bot as prior, IS-MCTS expands the jass
    bot's move first, and with a heavy bias and a small budget plays it."""
    from bots.jass import JassBot

    game = REGISTRY.game("klaverjassen")
    checked = 0
    for seat, view in _choices(game, 4, 3):
        jass = {JassBot(game, seat, s).act(view) for s in range(4)}
        if len(jass) > 1:
            continue  # the heuristic's own choice depends on its seed here
        options = {"iterations": 30, "prior": "jass", "prior_weight": 100.0}
        bot = ISMCTSBot(game, seat, 7, options)
        played = bot.act(view)
        root = bot.last_root
        assert root is not None
        assert next(iter(root.children)) == played == jass.pop()
        checked += 1
    assert checked >= 3


def test_no_prior_searches_exactly_as_before() -> None:
    game = REGISTRY.game("klaverjassen")
    seat, view = _choices(game, 4, 2)[0]
    plain = ISMCTSBot(game, seat, 4, {"iterations": 200})
    none = ISMCTSBot(game, seat, 4, {"iterations": 200, "prior": "none"})
    assert plain.act(view) == none.act(view)
    assert plain.last_root is not None and none.last_root is not None
    visits = {a: c.visits for a, c in plain.last_root.children.items()}
    assert visits == {a: c.visits for a, c in none.last_root.children.items()}
    with pytest.raises(OptionError, match="option 'prior' = 'nobody'"):
        ISMCTSBot(game, 0, 1, {"prior": "nobody"})
    with pytest.raises(OptionError, match="prior bot 'tarot' does not play"):
        ISMCTSBot(game, 0, 1, {"prior": "tarot"})


def _minimax(game: Game, state: State, seat: int, deal: int) -> float:
    """Plain minimax (no pruning, no table): the reference for alpha-beta."""
    if state.to_act is None or state.deal != deal:
        return AlphaBeta(game, seat, deal).value(state, -1e12, 1e12)
    teams = game.teams(state.n_seats)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(_minimax(game, child, seat, deal))
    return max(values) if teams[state.to_act] == teams[seat] else min(values)


@pytest.mark.parametrize("name", GAMES)
def test_alpha_beta_with_its_table_is_exact(name: str) -> None:
    """Over trick-play endings of every trick game: alpha-beta with the
    transposition table = without it = plain minimax (5 cards or fewer)."""
    game = REGISTRY.game_class(name).for_checks()
    n = min(game.seat_counts)
    state = game.new_match(n, 21)
    rng = random.Random(4)
    checked = 0
    for _ in range(5000):
        if state.is_over() or checked == 2:
            break
        cards = endgame_cards(state)
        if cards is not None and cards <= 6 and no_more_cards(state, rng):  # type: ignore[arg-type]
            seat = state.to_act
            assert seat is not None
            with_table = AlphaBeta(game, seat, state.deal)
            without = AlphaBeta(game, seat, state.deal, table=False)
            a = with_table.value(state.clone(), -1e12, 1e12)
            b = without.value(state.clone(), -1e12, 1e12)
            assert a == b == _minimax(game, state.clone(), seat, state.deal)
            checked += 1
            deal = state.deal
            while not state.is_over() and state.deal == deal:
                state.apply(rng.choice(state.legal_actions()))
            continue
        state.apply(rng.choice(state.legal_actions()))
    if endgame_cards(game.new_match(n, 21)) is None and checked == 0:
        pytest.skip(f"{name} reached no trick-play ending (not a trick game)")
    assert checked > 0


def test_pimc_searches_the_ending_exactly() -> None:
    game = REGISTRY.game("klaverjassen")
    state = game.new_match(4, 8)
    rng = random.Random(8)
    while (endgame_cards(state) or 99) > 12:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act
    assert seat is not None
    bot = PIMCBot(game, seat, 1, {"worlds": 3})
    bot.act(state.view(seat))
    assert bot.last_worlds == bot.last_exact == 3


def test_pimc_counts_a_declaration_in_its_exact_ending() -> None:
    """Issue 35: PIMC with exact endings played TC over ``roem:AD3``. Phase 2's
    first trick of Smousjas, spades trump: seat 0 may declare A K Q of
    diamonds (20, 000:459; declarations only in this trick, 000:476, S9). One
    table serves every root action; the positions after "roem:AD3, card"
    carried the key of those after the card alone, roem unseen, so the
    declaration was valued as its best card and lost the tie to the first
    card. Each action's value with the shared table is now its value
    searched alone, and the bot declares."""
    game = Smousjas()
    state = StockState.from_cards(game, ["AD KD QD TC 7H", "8C 9C 8H 9H JS"], "7S")
    legal = state.legal_actions()
    assert legal[-1] == "roem:AD3"
    shared = AlphaBeta(game, 0, 0)
    for action in legal:
        child = state.clone()
        child.apply(action)
        alone = AlphaBeta(game, 0, 0, table=False).value(child.clone(), -1e12, 1e12)
        assert shared.value(child, -1e12, 1e12) == alone, action
    bot = PIMCBot(game, 0, 1, {"worlds": 2})
    assert bot.act(state.view(0)) == "roem:AD3"
    assert bot.last_exact == 2


def test_strategy_fusion_fools_pimc_not_ismcts() -> None:
    """The toy of docs/SEARCH.md: the safe line always wins the deal, the
    gamble needs a guess of a hidden coin. PIMC, searching each world as if
    it saw the coin, gambles; IS-MCTS plays safe."""
    game = FusionGame()
    for seed in range(3):
        view = game.new_match(2, seed).view(0)
        pimc = PIMCBot(game, 0, seed, {"worlds": 16, "exact_nodes": 100})
        assert pimc.act(view) == "gamble"
        assert pimc.last_exact == 16
        mcts = ISMCTSBot(game, 0, seed, {"iterations": 2000})
        assert mcts.act(view) == "safe"


def test_seat_margins_follow_the_points_order() -> None:
    game = REGISTRY.game("klaverjassen")
    state = game.new_match(4, 1)
    rng = random.Random(1)
    while state.deal == 0 and not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    margins = seat_margins(game, result, 0)
    assert margins[0] == -margins[1] == margins[2] == -margins[3]
    assert seat_margins(game, result, 5) == [0.0] * 4


def test_pimc_combines_worlds_by_vote_too() -> None:
    """Every world of the fusion toy votes ``gamble``, as the mean chose."""
    game = FusionGame()
    view = game.new_match(2, 0).view(0)
    bot = PIMCBot(game, 0, 1, {"worlds": 5, "exact_nodes": 100, "combine": "vote"})
    assert bot.act(view) == "gamble"
    assert bot.last_worlds == 5


def test_the_table_tells_a_declaration_in_hand_from_none() -> None:
    """Klapper, two seats, seed 0: seat 0 may declare its roem in hand before
    its first card (seeds/002 line 131: roem in hand during the first
    trick). "roem" plays no card, so the position after
    "roem, QC" has the hands, trick and seat of the one after "QC" alone; the
    key of PIMC's transposition table must still tell them apart."""
    game = REGISTRY.game("klapper")
    state = game.new_match(2, 0)
    assert isinstance(state, TrickState)
    rng = random.Random(0)
    while ROEM not in state.legal_actions():
        state.apply(rng.choice(state.legal_actions()))
    declared, plain = state.clone(), state.clone()
    declared.apply(ROEM)
    declared.apply("QC")
    plain.apply("QC")
    assert declared.hands == plain.hands and declared.to_act == plain.to_act
    assert _key(declared) != _key(plain)


def test_search_kinds_leaves_the_other_decisions_to_the_prior() -> None:
    """Gin rummy with ``search_kinds = "<card>"``: the search takes the plain
    discards, the gin-rummy bot draws and knocks (docs/SEARCH.md, gin rummy)."""
    from bots.gin_rummy import GinRummyBot

    game = REGISTRY.game("gin-rummy")
    options = {"iterations": 40, "prior": "gin-rummy", "search_kinds": "<card>"}
    state = game.new_match(2, 11)
    kinds = {"draw": 0, "discard": 0, "other": 0}
    while not state.is_over() and sum(kinds.values()) < 60:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        legal = view.legal_actions
        bot = ISMCTSBot(game, seat, 3, options)
        played = bot.act(view)
        assert played in legal
        if len(legal) > 1 and all(":" not in a for a in legal):
            kinds["discard"] += 1
            assert bot.last_iterations == 40  # searched
        elif len(legal) > 1:
            kinds["draw" if legal[0].startswith("draw") else "other"] += 1
            assert bot.last_iterations == 0  # the prior's, unsearched
            assert played == GinRummyBot(game, seat, 0).act(view)
        state.apply(played)
    assert kinds["discard"] >= 10 and kinds["draw"] >= 10


def test_search_kinds_names_what_it_accepts() -> None:
    game = REGISTRY.game("gin-rummy")
    with pytest.raises(OptionError, match="set option 'prior'"):
        ISMCTSBot(game, 0, 1, {"search_kinds": "<card>"})
    with pytest.raises(
        OptionError,
        match=r"'<cards>' is not an action kind of 'gin-rummy'.*'knock:<card>'",
    ):
        ISMCTSBot(game, 0, 1, {"prior": "gin-rummy", "search_kinds": "<cards>"})
    bot = ISMCTSBot(
        game, 0, 1, {"prior": "gin-rummy", "search_kinds": "<card>, knock:<card>"}
    )
    assert bot._kinds is not None and bot._kinds.fullmatch("knock:QS")
    assert not bot._kinds.fullmatch("draw:stock")


def test_pimc_leaves_the_same_decisions_to_its_prior() -> None:
    from bots.gin_rummy import GinRummyBot

    game = REGISTRY.game("gin-rummy")
    options = {"worlds": 3, "prior": "gin-rummy", "search_kinds": "<card>"}
    state = game.new_match(2, 5)
    seen: set[bool] = set()
    while len(seen) < 2:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        bot = PIMCBot(game, seat, 3, options)
        played = bot.act(view)
        if len(view.legal_actions) > 1:
            plain = all(":" not in a for a in view.legal_actions)
            seen.add(plain)
            assert bot.last_worlds == (3 if plain else 0)
            if not plain:
                assert played == GinRummyBot(game, seat, 0).act(view)
        state.apply(played)
    with pytest.raises(OptionError, match="set option 'prior'"):
        PIMCBot(game, 0, 1, {"search_kinds": "<card>"})
