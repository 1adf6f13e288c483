"""Gin rummy's deal estimate (``GinRummy.deal_estimate``), for cut-off search.

The hand is scored as if the seat with less expected deadwood (loose cards
discounted by their outs in the stock) went out now, as the game scores a
hand (seeds/000_f1f8b277f898f51f.txt lines 520-526); the rulings of the
estimate are in ``GinRummyState.estimate``'s docstring. Positions are built
with :func:`tests.games.rummy.test_gin_rules.position`.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.gin_rummy import GinRummyBot
from bots.ismcts import ISMCTSBot
from games.bezique.bezique import Bezique
from games.rummy.gin import GIN_BONUS, GinRummy, GinRummyState
from tests.games.rummy.test_gin_rules import KNOCKER, LOOSE, position

#: With ``stock_size=1`` the stock is the king of spades alone: against
#: KNOCKER, LOOSE's KC and KH then have one out each (KS; KD is in seat 0's
#: hand), 10 x (1 - 0.15) = 8.5, so LOOSE expects 80 - 2 x 1.5 = 77 deadwood.
LOOSE_EXPECTS = 77.0


def test_the_lower_deadwood_scores_the_difference() -> None:
    """Seed 000 line 522: "is het brandhout van de klopper minder dan het
    brandhout van de tegenspeler, dan wint hij het verschil ertussen aan
    punten". Seat 0's best discard (KD) leaves the 2H, whose outs 2D and 2S are
    not in the stock: 2 against 77."""
    state = position(KNOCKER, LOOSE, pile="4D", stock_size=1)
    assert GinRummy().deal_estimate(state) == (LOOSE_EXPECTS - 2, 0.0)


def test_loose_cards_count_less_by_their_outs_in_the_stock() -> None:
    """The whole stock: each loose card's value times 1 - 0.15 per card of the
    stock that would meld it (bots/gin_rummy.py's rule of thumb). Seat 0's 2H
    has two (2D, 2S): 1.4. Seat 1: KC, KH one each (KS) 8.5 + 8.5; QS none 10;
    JD and TD two each (9D, QD) 7 + 7; 7C none 7; 8D one (9D) 6.8; 6S and 6H
    two each (6C, 6D) 4.2 + 4.2; 3H none 3: 66.2."""
    state = position(KNOCKER, LOOSE, pile="4D")
    assert GinRummy().deal_estimate(state) == pytest.approx((66.2 - 1.4, 0.0))


def test_no_deadwood_scores_gin() -> None:
    """Seed 000 line 520: gin "scoort hij 20 punten, plus nog de punten op de
    kaarten van de tegenspeler": 20 + 77, whatever the knock limit."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S 9C 4C KD", LOOSE, pile="AD", stock_size=1)
    assert GinRummy().deal_estimate(state) == (GIN_BONUS + LOOSE_EXPECTS, 0.0)


def test_the_seat_not_to_act_may_hold_the_lower_deadwood() -> None:
    """Seat 1 to draw with 2 deadwood (10 cards) against seat 0's 77: seat 1's
    75, as line 522 scores a knock."""
    state = position(
        LOOSE,
        "AC 2C 3C 5D 5H 5S 9H 9S 9C 2H",
        pile="4D",
        phase="draw",
        stock_size=1,
    )
    assert GinRummy().deal_estimate(state) == (0.0, LOOSE_EXPECTS - 2)


def test_equal_deadwood_scores_nothing() -> None:
    """Ruling 11: equal deadwood scores nothing. Seat 0 throws a ten-card
    (80 + 2 - 10 = 72), seat 1 holds 72, no melds on either side, and the one
    card of the stock (JS) melds nobody's loose card."""
    state = position(
        LOOSE + " 2S", "KS QD JC TC 9D 7D 4C 2C 8S 2D", pile="4H", stock_size=1
    )
    assert state.card_locations()["stock"] == ("JS",)
    assert GinRummy().deal_estimate(state) == (0.0, 0.0)


def test_the_card_just_taken_is_not_the_discard() -> None:
    """Ruling 5: KD taken from the pile this turn cannot go at once, so seat 0's
    least deadwood is after discarding 2H: 10 (KD, no out), against 77."""
    state = position(KNOCKER, LOOSE, pile="4D", taken="KD", stock_size=1)
    assert GinRummy().deal_estimate(state) == (LOOSE_EXPECTS - 10, 0.0)


def test_nothing_doubles_on_a_spade() -> None:
    """A ruling of the estimate: the marker when the hand ends is not known, so
    a spade on the pile now (line 526 doubles at the end) does not double it."""
    game = GinRummy()
    spade = game.deal_estimate(position(KNOCKER, LOOSE, pile="4S"))
    assert spade == game.deal_estimate(position(KNOCKER, LOOSE, pile="4D"))


def test_an_estimate_is_asked_of_a_gin_rummy_state_only() -> None:
    with pytest.raises(TypeError, match="estimates a GinRummyState, not"):
        GinRummy().deal_estimate(Bezique().new_match(2, 1))


def test_a_search_cut_off_after_one_action_keeps_its_melds() -> None:
    """With rollouts cut off at once, only the estimate tells the discards apart:
    IS-MCTS throws a loose face card (KD or QH), not a card of its melds."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S 9C KD QH", LOOSE, pile="AD")
    view = state.view(0)
    options = {"iterations": 200, "max_rollout": 1, "evaluation": "game"}
    bot = ISMCTSBot(GinRummy(), 0, 3, options)
    assert bot.act(view) in ("KD", "QH")


def _decisions(seed: int) -> list[GinRummyState]:
    """Clones of a random match's states at every decision of its first hand
    (and the first of the next), including the layout phase when it comes."""
    rng = random.Random(seed)
    state = GinRummy(target=1).new_match(2, seed)
    out: list[GinRummyState] = []
    while state.deal == 0 and state.to_act is not None:
        out.append(state.clone())
        legal = state.legal_actions()
        # Go out whenever possible, so hands end and layouts are reached.
        outs = [a for a in legal if a.startswith(("knock:", "gin"))]
        state.apply(outs[0] if outs else rng.choice(legal))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_estimates_are_one_hands_score_and_change_nothing(seed: int) -> None:
    """At every decision of a random hand: non-negative points for at most one
    seat (a hand scores for one side, lines 520-522); the state is unchanged;
    a seat that may go gin now expects at least the gin bonus; in the layout
    phase the estimate is what laying the first layout scores."""
    game = GinRummy(target=1)
    for state in _decisions(seed):
        before = (state.card_locations(), state.legal_actions(), state.phase)
        estimate = game.deal_estimate(state)
        assert (state.card_locations(), state.legal_actions(), state.phase) == before
        assert len(estimate) == 2 and min(estimate) == 0.0
        seat = state.to_act
        assert seat is not None
        if any(a.startswith("gin:") for a in state.legal_actions()):
            assert estimate[seat] >= GIN_BONUS
        if state.view(seat).phase == "layout":
            twin = state.clone()
            twin.apply(twin.legal_actions()[0])
            assert estimate == tuple(float(p) for p in twin.deal_points[0])


def test_a_seat_choosing_its_layout_is_scored_exactly() -> None:
    """Ruling 8: the seat that went out chooses its layout; the estimate scores
    the one the legal actions list first (least deadwood), as laying it down
    does. The layout phase comes from the gin-rummy bot's own play (it goes
    out as soon as it may), in the first hands of seeds 0 to 99."""
    game = GinRummy(target=1)
    found = 0
    for seed in range(100):
        state = game.new_match(2, seed)
        bots = [GinRummyBot(game, s, seed + s) for s in (0, 1)]
        while state.deal == 0 and state.to_act is not None:
            view = state.view(state.to_act)
            if view.phase == "layout":
                twin = state.clone()
                twin.apply(twin.legal_actions()[0])
                assert game.deal_estimate(state) == tuple(
                    float(p) for p in twin.deal_points[0]
                )
                assert max(twin.deal_points[0]) > 0
                found += 1
            state.apply(bots[state.to_act].act(view))
        if found >= 3:
            break
    assert found >= 3
