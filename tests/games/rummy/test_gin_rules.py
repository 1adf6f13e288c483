"""Worked examples of Gin Rummy (Oklahoma) as troef plays it.

The rule text is seeds/000_f1f8b277f898f51f.txt, lines 484-551; "ruling N"
is the numbered ruling in games/rummy/RULES.md. Hands are in card notation
(rank+suit, ``T`` = ten, suits C D H S); positions are built with
:func:`position`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.random_bot import RandomBot
from games.cards import FULL52, iter_bits
from games.rummy import melds
from games.rummy.gin import MAX_PILE_DRAWS, PHASE_NAMES, GinRummy, GinRummyState
from harness.contracts.errors import (
    IllegalActionError,
    InvalidActionError,
    OptionError,
    SeatCountError,
)
from harness.match.conformance import check_game
from harness.match.referee import make_bots, play_match, replay


def cards(text: str) -> int:
    """The mask of space-separated cards."""
    return FULL52.mask(text.split())


def position(
    hand0: str,
    hand1: str,
    *,
    pile: str = "",
    to_act: int = 0,
    phase: str = "discard",
    taken: str | None = None,
    variant: str = "standard",
    target: int = 150,
    knock_card: str = "top",
    scores: tuple[int, int] = (0, 0),
    stock_size: int | None = None,
    pile_draws: int = 0,
) -> GinRummyState:
    """A hand in progress, set up card by card.

    ``pile`` is the discard pile bottom to top; every other card is in the
    stock (in deck order, the king of spades on top). With ``stock_size`` the
    stock keeps only that many cards and the rest go under the discard pile.
    ``taken`` is the card the seat to act just took from the discard pile.
    Seat 1 is the dealer of hand 0. The bottom card of the pile is the upcard.
    """
    game = GinRummy(variant=variant, target=target, knock_card=knock_card)
    state = game.new_match(2, 0)
    h0, h1 = cards(hand0), cards(hand1)
    top = [FULL52.index[c] for c in pile.split()]
    rest = list(iter_bits(FULL52.full & ~(h0 | h1 | cards(pile))))
    if stock_size is not None:
        cut = len(rest) - stock_size
        top = rest[:cut] + top
        rest = rest[cut:]
    state.hands = [h0, h1]
    state.pile = top
    state.stock = rest
    state.phase = PHASE_NAMES.index(phase)
    state.to_act = to_act
    state.upcard = top[0] if top else -1
    state.taken = FULL52.index[taken] if taken else -1
    state.known = [0, 0]
    if taken:
        state.known[to_act] = cards(taken)
    state.pile_draws = pile_draws
    state.scores = list(scores)
    state.history = ([], [])
    state._legal = None
    state._fixed = None
    held = Counter(c for place in state.card_locations().values() for c in place)
    assert held == Counter(FULL52.cards), "position() needs 52 distinct cards"
    return state


# A knocker and three defenders used by several tests. Seat 0 holds eleven
# cards: A-2-3 of clubs, three fives, three nines, 2H and KD. Discarding KD
# leaves deadwood 2 (the 2H).
KNOCKER = "AC 2C 3C 5D 5H 5S 9H 9S 9C 2H KD"
#: No melds, nothing to lay off: 10+10+10+10+7+8+6+6+10+3 = 80 deadwood.
LOOSE = "KC KH QS JD 7C 8D 6S 6H TD 3H"


# -- the deal ------------------------------------------------------------------


def test_dealer_gives_eleven_and_seat_one_deals_first() -> None:
    """Line 498 and ruling 1: seat 1 deals hand 0; seat 0 gets 11 cards."""
    state = GinRummy().new_match(2, 7)
    where = state.card_locations()
    assert (len(where["hand:0"]), len(where["hand:1"])) == (11, 10)
    assert len(where["stock"]) == 31 and where["discard"] == ()
    assert state.dealer == 1 and state.to_act == 0
    assert state.legal_actions() == where["hand:0"]


def test_opening_discard_starts_the_pile_and_the_dealer_draws_first() -> None:
    """Lines 496-498 and ruling 2: the non-dealer's discard is the upcard."""
    state = GinRummy().new_match(2, 7)
    first = state.legal_actions()[3]
    state.apply(first)
    view = state.view(1)
    assert view.discard_pile == (first,) and view.upcard == first
    assert state.to_act == 1
    assert state.legal_actions() == ("draw:stock", "draw:discard")


def test_no_going_out_on_the_opening_discard() -> None:
    """Ruling 2: even eleven melded cards only make a plain opening discard."""
    state = position(
        "AC 2C 3C 4C 5D 5H 5S 9H 9S 9C 9D",
        "KC KH QS JD 7C 8D 6S 6H TD 3H",
        phase="opening",
        variant="grote-gin",
    )
    assert state.legal_actions() == FULL52.names(
        cards("AC 2C 3C 4C 5D 5H 5S 9H 9S 9C 9D")
    )


def test_deal_alternates_from_hand_to_hand() -> None:
    """Line 529: after hand 0 (dealt by seat 1) seat 0 deals hand 1."""
    state = position(KNOCKER, LOOSE, pile="4D")
    state.apply("knock:KD")
    assert state.deal == 1 and state.dealer == 0
    assert state.to_act == 1 and state.view(1).phase == "opening"
    assert len(state.view(1).hand) == 11


# -- drawing -------------------------------------------------------------------


def test_drawing_from_the_discard_pile_shows_the_card_to_the_opponent() -> None:
    """Line 508 and ruling 15: a card taken from the pile is known to be held."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D 9C", phase="draw")
    state.apply("draw:discard")
    assert "9C" in state.view(0).hand
    assert state.view(1).opponent_known == ("9C",)
    assert state.view(1).history[-1] == "0:draw:discard:9C"
    state.apply("KD")
    assert state.view(1).opponent_known == ("9C",)


def test_a_stock_draw_is_seen_only_by_the_drawer() -> None:
    """Ruling 15: the opponent sees that the stock was drawn, not the card."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D", phase="draw")
    on_top = state.stock[-1]
    state.apply("draw:stock")
    assert state.view(0).history[-1] == f"0:draw:stock:{FULL52.cards[on_top]}"
    assert state.view(1).history[-1] == "0:draw:stock"
    assert FULL52.cards[on_top] not in state.view(1).opponent_known


def test_the_card_taken_from_the_pile_cannot_go_straight_back() -> None:
    """Ruling 5: 9C, just taken, is no discard, plain or going out."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D 9C", phase="draw")
    state.apply("draw:discard")
    legal = state.legal_actions()
    assert "9C" not in legal and not any(a.endswith(":9C") for a in legal)
    with pytest.raises(IllegalActionError):
        state.apply("9C")


def test_a_plain_discard_after_the_fiftieth_pile_draw_voids_the_hand() -> None:
    """Ruling 7, line 508: no draw is refused; after the 50th draw from the pile
    in a hand, a plain discard voids the hand (0-0), as the stock rule does."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S KD 2H",
        LOOSE,
        pile="3D",
        phase="draw",
        pile_draws=MAX_PILE_DRAWS - 1,
    )
    assert state.legal_actions() == ("draw:stock", "draw:discard")
    state.apply("draw:discard")
    assert state.pile_draws == MAX_PILE_DRAWS
    narration = state.clone().narrate("KD")
    assert "50 draws from the discard pile this hand: hand void" in narration
    state.apply("KD")
    assert state.deal == 1 and state.deal_points == [(0, 0)]
    assert state.view(0).last_end == "void"


def test_after_fifty_pile_draws_the_pile_is_still_offered() -> None:
    """Ruling 7, line 508: the cap ends a cycling hand, it takes no draw away:
    with 60 pile draws behind them the seat to draw may still take the 3D."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D", phase="draw", pile_draws=60
    )
    assert state.legal_actions() == ("draw:stock", "draw:discard")


def test_stock_down_to_two_cards_voids_the_hand() -> None:
    """Rulings 6, 16: a plain discard with two cards left in the stock: 0-0."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, phase="draw", stock_size=3)
    state.apply("draw:stock")
    assert len(state.stock) == 2
    state.apply("KD")
    assert state.deal_points == [(0, 0)] and state.scores == [0, 0]
    assert state.deal == 1 and state.dealer == 0
    view = state.view(1)
    assert view.last_end == "void" and view.last_hands == ()


def test_going_out_is_still_allowed_on_the_last_discard() -> None:
    """Ruling 6: the void applies only to a discard that does not go out."""
    state = position(KNOCKER, LOOSE, pile="4D", stock_size=2)
    assert "knock:KD" in state.legal_actions()
    state.apply("knock:KD")
    assert state.deal_points == [(78, 0)]


# -- the knock limit -------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "can_knock"),
    [("2D", True), ("4D", True), ("JH", True), ("AD", False)],
)
def test_knock_limit_is_the_top_card_before_the_discard(
    top: str, can_knock: bool
) -> None:
    """Line 516 and ruling 3: deadwood 2 may knock on a 2, 4 or king, not an ace."""
    state = position(KNOCKER, LOOSE, pile=top)
    assert ("knock:KD" in state.legal_actions()) is can_knock
    assert state.view(0).knock_limit == melds.VALUE[FULL52.index[top]]


def test_knock_limit_is_the_card_under_the_one_just_taken() -> None:
    """Ruling 3: after taking 9C from the pile the 3D below sets the limit."""
    hand = "AC 2C 3C 5D 5H 5S 9H 9S KD 2H"
    state = position(hand, LOOSE, pile="3D 9C", phase="draw")
    state.apply("draw:discard")
    assert state.view(0).knock_limit == 3
    assert "knock:KD" in state.legal_actions()
    state = position(hand, LOOSE, pile="AD 9C", phase="draw")
    state.apply("draw:discard")
    assert state.view(0).knock_limit == 1
    assert "knock:KD" not in state.legal_actions()


def test_empty_pile_allows_gin_but_no_knock() -> None:
    """Ruling 3: with the pile's only card taken, gin is possible, knock not."""
    state = position(
        LOOSE, "AC 2C 3C 5D 5H 5S 9H 9S 2H KD", pile="9C", phase="draw", to_act=1
    )
    state.apply("draw:discard")
    assert state.view(1).knock_limit == 0
    assert not any(a.startswith(("knock:", "gin")) for a in state.legal_actions())
    state = position(
        LOOSE, "AC 2C 3C 4C 5D 5H 5S 9H 9S KD", pile="9C", phase="draw", to_act=1
    )
    state.apply("draw:discard")
    assert [a for a in state.legal_actions() if ":" in a] == ["gin:KD"]
    state.apply("gin:KD")
    # Not doubled: there was no card on the pile. 20 + 80.
    assert state.deal_points == [(0, 100)]


def test_gin_is_never_offered_as_a_knock() -> None:
    """Ruling 4: no deadwood after the discard is gin, not a knock."""
    state = position("AC 2C 3C 4C 5D 5H 5S 9H 9S 9C KD", LOOSE, pile="8C")
    legal = state.legal_actions()
    assert "gin:KD" in legal and "knock:KD" not in legal
    assert "KD" in legal  # he need not go out


# -- scoring ---------------------------------------------------------------------


def test_knock_scores_the_difference() -> None:
    """Line 522: knocker 2 against 80 scores 78."""
    state = position(KNOCKER, LOOSE, pile="4D")
    state.apply("knock:KD")
    assert state.deal_points == [(78, 0)] and state.scores == [78, 0]
    view = state.view(1)
    assert view.last_end == "knock" and view.last_out == 0
    assert view.last_deadwood == (2, 80) and view.last_top == "4D"


def test_undercut_scores_ten_plus_the_difference() -> None:
    """Line 522: knocker 4 against 2 (three sevens, eights, jacks + 2D): 10 + 2."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S 9C 4H KD",
        "7C 7D 7S 8H 8D 8S JC JD JS 2D",
        pile="6D",
    )
    state.apply("knock:KD")
    assert state.deal_points == [(0, 12)]


def test_equal_deadwood_scores_nothing() -> None:
    """Ruling 11: knocker 4 against 4 scores nothing for either side."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S 9C 4H KD",
        "7C 7D 7S 8H 8D 8S JC JD JS 4D",
        pile="6D",
    )
    state.apply("knock:KD")
    assert state.deal_points == [(0, 0)]


def test_gin_scores_twenty_plus_deadwood_after_layoffs() -> None:
    """Line 520 and ruling 10: against gin the defender lays off 5C then 6C.

    Gin: A-2-3-4 of clubs, three fives, three nines. The defender melds three
    sevens, lays 5C and 6C onto A-4 of clubs and keeps JD QD KH 2H 3H = 35.
    """
    state = position(
        "AC 2C 3C 4C 5D 5H 5S 9H 9S 9C KD",
        "5C 6C 7D 7S 7H JD QD KH 2H 3H",
        pile="8C",
    )
    state.apply("gin:KD")
    assert state.deal_points == [(55, 0)]
    view = state.view(0)
    assert view.last_end == "gin"
    assert view.last_layoffs == ("5C", "6C")
    assert view.last_melds[1] == (("7D", "7H", "7S"),)


def test_spade_on_top_of_the_pile_doubles() -> None:
    """Line 526 and rulings 3, 12: the 4S on top doubles 78 to 156."""
    state = position(KNOCKER, LOOSE.replace("6S", "6C"), pile="4S")
    state.apply("knock:KD")
    assert state.deal_points == [(156, 0)]


def test_undercut_doubles_too() -> None:
    """Ruling 12: the undercut bonus and difference double on a spade."""
    state = position(
        "AC 2C 3C 5D 5H 5S 9H 9S 9C 4H KD",
        "7C 7D 7S 8H 8D 8S JC JD JS 2D",
        pile="6S",
    )
    state.apply("knock:KD")
    assert state.deal_points == [(0, 24)]


def test_a_spade_discarded_to_knock_does_not_double() -> None:
    """Ruling 3: the knocking discard lies face down; the 4D under it counts."""
    state = position(KNOCKER.replace("KD", "KS"), LOOSE.replace("6S", "6C"), pile="4D")
    state.apply("knock:KS")
    assert state.deal_points == [(78, 0)]


def test_knocker_chooses_the_melds_that_block_layoffs() -> None:
    """Ruling 8: four sevens + 8-9-T of clubs, so the defender's 6C stays dead.

    Knocker: 7C 8C 9C TC 7D 7H 7S, deadwood AH 2S 3H = 6 after discarding KD
    (limit 9 from the 9D). Both layouts leave 6; he chooses. Laid down as
    7-8-9-T of clubs + three sevens (offered first, the fixed order) the
    defender lays off 6C and counts 74, so the knocker scores 74 - 6 = 68; as
    four sevens + 8-9-T the defender keeps 80 and the knocker scores 74.
    """
    state = position(
        "7C 8C 9C TC 7D 7H 7S AH 2S 3H KD",
        "6C KC KH QH QD JD JS 4D 8H 2C",
        pile="9D",
    )
    state.apply("knock:KD")
    assert state.view(0).phase == "layout" and state.to_act == 0
    assert state.legal_actions() == ("lay:7C-TC+7D7H7S", "lay:7C7D7H7S+8C-TC")
    default = state.clone()
    default.apply("lay:7C-TC+7D7H7S")
    assert default.deal_points == [(68, 0)]
    assert default.view(1).last_layoffs == ("6C",)
    state.apply("lay:7C7D7H7S+8C-TC")
    assert state.deal_points == [(74, 0)]
    assert state.view(0).last_melds[0] == (("7C", "7D", "7H", "7S"), ("8C", "9C", "TC"))
    assert state.view(1).last_history[-2:] == ("0:knock", "0:lay:7C7D7H7S+8C-TC")


#: Issue 13's worked example (ruling 8): after discarding KC the knocker holds
#: three nines, 2-3-4-5 of diamonds and AC AS 2S; the defender holds 6D 7D.
LAYOUT_KNOCKER = "AC 9C 2D 3D 4D 5D 9D 9H AS 2S KC"
LAYOUT_DEFENDER = "2C JC QC 6D 7D 8H KH 5S 6S QS"


def test_a_layout_with_more_deadwood_can_score_more() -> None:
    """Ruling 8, lines 516-522 (issue 13: 65 instead of 57). Knock limit 10
    (TH on the pile). Least deadwood: 9C-9D-9H and 2D-5D, deadwood AC AS 2S =
    4; the defender lays off 6D 7D onto the run and keeps 2+10+10+8+10+5+6+10
    = 61: the knocker scores 61 - 4 = 57. Keeping 5D as deadwood (2D-4D, deadwood
    9, within the limit) leaves the run without an end for 6D 7D: the defender
    keeps 74, the knocker scores 74 - 9 = 65. Every legal layout is offered,
    least deadwood first."""
    state = position(LAYOUT_KNOCKER, LAYOUT_DEFENDER, pile="TH")
    state.apply("knock:KC")
    assert state.legal_actions() == (
        "lay:9C9D9H+2D-5D",  # deadwood 4
        "lay:9C9D9H+3D-5D",  # deadwood 6: AC 2D AS 2S
        "lay:9C9D9H+2D-4D",  # deadwood 9: AC 5D AS 2S
    )
    scores = {}
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action)
        scores[action] = world.deal_points[-1][0]
        assert world.view(1).last_out == 0
    assert scores == {
        "lay:9C9D9H+2D-5D": 57,
        "lay:9C9D9H+3D-5D": 55,
        "lay:9C9D9H+2D-4D": 65,
    }
    state.apply("lay:9C9D9H+2D-4D")
    view = state.view(1)
    assert view.last_deadwood == (9, 74) and view.last_layoffs == ()
    assert view.last_melds[0] == (("9C", "9D", "9H"), ("2D", "3D", "4D"))


def test_layouts_stay_within_the_knock_limit() -> None:
    """Ruling 8: with 9D on the pile (limit 9) the 2D-4D layout (deadwood 9)
    is still legal; with 8D (limit 8) it is not offered and cannot be played."""
    state = position(LAYOUT_KNOCKER, LAYOUT_DEFENDER, pile="8D")
    state.apply("knock:KC")
    assert state.legal_actions() == ("lay:9C9D9H+2D-5D", "lay:9C9D9H+3D-5D")
    with pytest.raises(IllegalActionError):
        state.apply("lay:9C9D9H+2D-4D")
    with pytest.raises(InvalidActionError):
        state.apply("lay 2D-4D")


def test_gin_layouts_meld_every_card() -> None:
    """Ruling 8: going gin, only layouts without deadwood are legal; here four
    sevens with 8-9-T of clubs or 7-T of clubs with three sevens (2-4 of hearts
    in both); the defender has nothing to lay off and keeps 81."""
    loose = LOOSE.replace("7C", "8S").replace("3H", "3S")
    state = position("7C 8C 9C TC 7D 7H 7S 2H 3H 4H KD", loose, pile="5D")
    state.apply("gin:KD")
    assert state.legal_actions() == (
        "lay:7C-TC+7D7H7S+2H-4H",
        "lay:7C7D7H7S+8C-TC+2H-4H",
    )
    state.apply("lay:7C7D7H7S+8C-TC+2H-4H")
    assert state.deal_points == [(20 + 81, 0)]
    assert state.view(1).last_end == "gin"


def test_a_single_legal_layout_is_laid_down_without_a_decision() -> None:
    """Ruling 8: KNOCKER has one layout within the limit 4: no layout phase."""
    state = position(KNOCKER, LOOSE, pile="4D")
    state.apply("knock:KD")
    assert state.deal_points == [(78, 0)]
    assert state.view(0).phase == "opening" and state.deal == 1
    assert state.view(1).last_history[-1] == "0:knock"  # no "lay:" move


def test_the_layout_decision_hides_the_knock_discard() -> None:
    """Rulings 8 and 19: while the knocker chooses, the defender's view says
    only that he knocked; the limit is still that of the TH; sampled worlds
    from the defender's view agree with it and vary the face-down card, while
    the knocker's own samples keep his KC."""
    state = position(LAYOUT_KNOCKER, LAYOUT_DEFENDER, pile="TH")
    state.apply("knock:KC")
    defender, knocker = state.view(1), state.view(0)
    assert defender.phase == "layout" and defender.to_act == 0
    assert defender.legal_actions == () and defender.history[-1] == "0:knock"
    assert knocker.history[-1] == "0:knock:KC"
    assert defender.discard_pile == ("TH",) and defender.knock_limit == 10
    assert defender.opponent_cards == 10
    game = GinRummy()
    rng = random.Random(5)
    face_down = set()
    for _ in range(30):
        world = game.sample_state(defender, rng)
        assert world.view(1) == defender
        face_down |= set(world.card_locations()["face-down:0"])
        mine = game.sample_state(knocker, rng)
        assert mine.view(0) == knocker
        assert mine.card_locations()["face-down:0"] == ("KC",)
        assert mine.legal_actions() == state.legal_actions()
    assert len(face_down) > 5 and "KC" in face_down | {"KC"}


def test_narration_tells_the_layout_choice() -> None:
    """narrate(): the knock, the choice, then the melds as laid down."""
    state = position(LAYOUT_KNOCKER, LAYOUT_DEFENDER, pile="TH")
    first = "\n".join(state.narrate("knock:KC"))
    assert "seat 0 knocks, discarding KC" in first
    assert "seat 0 chooses one of 3 ways to lay down his cards" in first
    text = "\n".join(state.narrate("lay:9C9D9H+2D-4D"))
    assert "knocks" not in text
    assert "seat 0 melds 9C-9D-9H 2D-3D-4D; deadwood 9" in text
    assert "scores 65-0" in text


def test_grote_gin_scores_thirty() -> None:
    """Line 551 and ruling 13: all eleven melded, no discard: 30 + 80."""
    hand = "AC 2C 3C 4C 5D 5H 5S 9H 9S 9C 9D"
    state = position(hand, LOOSE, pile="8C", variant="grote-gin")
    legal = state.legal_actions()
    assert legal[-1] == "gin" and "gin:AC" in legal
    state.apply("gin")
    assert state.deal_points == [(110, 0)]
    assert state.view(1).last_end == "grote-gin"
    assert len(state.view(1).last_hands[0]) == 11


def test_grote_gin_is_not_played_in_the_standard_game() -> None:
    """Ruling 13: without the variant ``gin`` is illegal (and ``gin:C`` stays)."""
    state = position("AC 2C 3C 4C 5D 5H 5S 9H 9S 9C 9D", LOOSE, pile="8C")
    assert "gin" not in state.legal_actions() and "gin:AC" in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply("gin")


# -- the match -------------------------------------------------------------------


def test_match_ends_when_a_player_reaches_the_target() -> None:
    """Line 528 and ruling 14: 140 + 78 passes 150: the match is over."""
    state = position(KNOCKER, LOOSE, pile="4D", scores=(140, 120))
    state.apply("knock:KD")
    assert state.is_over() and state.to_act is None
    assert state.legal_actions() == ()
    result = state.result()
    assert result.scores == (218, 120) and result.ranks == (1, 2)
    assert state.view(1).phase == "over"


def test_the_target_is_an_option() -> None:
    """Ruling 14: ``target`` sets the points that end the match."""
    state = position(KNOCKER, LOOSE, pile="4D", target=300, scores=(140, 0))
    state.apply("knock:KD")
    assert not state.is_over()


def test_bad_options_and_seat_counts_are_clear_errors() -> None:
    """The Game's boundary: options name the allowed values; two seats only."""
    with pytest.raises(OptionError, match=r"variant.*'standard', 'grote-gin'"):
        GinRummy(variant="groot")
    with pytest.raises(OptionError, match="target"):
        GinRummy(target=0)
    with pytest.raises(OptionError, match="unknown option 'knock'"):
        GinRummy(knock=10)
    with pytest.raises(SeatCountError, match="takes 2 seats, not 3"):
        GinRummy().new_match(3, 0)


def test_bad_notation_and_illegal_actions_are_told_apart() -> None:
    """Invalid notation vs a well-formed action not legal now."""
    state = position(KNOCKER, LOOSE, pile="4D")
    with pytest.raises(InvalidActionError, match="not gin-rummy notation"):
        state.apply("1H")
    with pytest.raises(IllegalActionError, match="'draw:stock'"):
        state.apply("draw:stock")
    with pytest.raises(IllegalActionError):
        state.apply("knock:2H")
    with pytest.raises(IllegalActionError):
        state.apply("QS")  # not in his hand


def test_the_next_hand_shows_what_the_last_one_revealed() -> None:
    """Ruling 15: earlier hands as points; the last one as laid down."""
    state = position(KNOCKER, LOOSE, pile="4D")
    state.apply("knock:KD")
    view = state.view(0)
    assert view.deal_points == ((78, 0),) and view.scores == (78, 0)
    assert view.history == () and view.hand_index == 1
    assert view.last_hands[1] == FULL52.names(cards(LOOSE))
    assert view.last_melds[0] == (
        ("AC", "2C", "3C"),
        ("9C", "9H", "9S"),
        ("5D", "5H", "5S"),
    )
    assert view.last_points == (78, 0)
    assert type(view).from_json(view.to_json()) == view


def test_narration_tells_the_showdown() -> None:
    """narrate(): the knock, both hands' melds, deadwood and the scores."""
    state = position(KNOCKER, LOOSE.replace("6S", "6C"), pile="4S", target=300)
    lines = state.narrate("knock:KD")
    text = "\n".join(lines)
    assert "seat 0 knocks, discarding KD" in text
    assert "a spade: points double" in text
    assert "seat 0 melds AC-2C-3C 9C-9H-9S 5D-5H-5S; deadwood 2" in text
    assert "seat 1 melds none; deadwood 80" in text
    assert "hand 1: dealer seat 0, seat 1 gets 11 cards" in text
    assert "scores 156-0; match 156-0" in text


def test_sampled_states_keep_the_known_cards_in_the_opponents_hand() -> None:
    """sample_state: the 9C taken from the pile stays with the opponent."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D 9C", phase="draw")
    state.apply("draw:discard")
    state.apply("KD")
    view = state.view(1)
    rng = random.Random(3)
    hands = set()
    for _ in range(20):
        sample = GinRummy().sample_state(view, rng)
        assert sample.view(1) == view
        assert "9C" in sample.card_locations()["hand:0"]
        hands.add(sample.card_locations()["hand:0"])
    assert len(hands) > 1


# -- knock_card="upcard": the classic reading (ruling 17) ---------------------------


def upcard_position(hand0: str, hand1: str, **kwargs: Any) -> GinRummyState:
    """:func:`position` with ``knock_card="upcard"``: the pile's bottom card rules."""
    return position(hand0, hand1, knock_card="upcard", **kwargs)


@pytest.mark.parametrize(
    ("pile", "by_upcard", "by_top"),
    [
        # upcard ace, jack on top: deadwood 2 is over the upcard's limit of 1.
        ("AD JH", False, True),
        # upcard 4, ace on top: the upcard allows deadwood 2.
        ("4D AH", True, False),
        # upcard 2, ace on top: "evenveel of minder", 2 against 2.
        ("2D 7H AH", True, False),
        # upcard queen, ace on top.
        ("QH 4D AH", True, False),
    ],
)
def test_upcard_sets_the_knock_limit_whatever_lies_on_top(
    pile: str, by_upcard: bool, by_top: bool
) -> None:
    """Ruling 17: deadwood 2 knocks against the upcard's value, not the top card's."""
    state = upcard_position(KNOCKER, LOOSE, pile=pile)
    assert ("knock:KD" in state.legal_actions()) is by_upcard
    upcard = pile.split()[0]
    view = state.view(0)
    assert view.knock_card == "upcard" and view.upcard == upcard
    assert view.knock_limit == melds.VALUE[FULL52.index[upcard]]
    # The same cards under the default reading (ruling 3) go the other way.
    state = position(KNOCKER, LOOSE, pile=pile)
    assert ("knock:KD" in state.legal_actions()) is by_top
    assert state.view(0).knock_card == "top"


def test_an_ace_upcard_allows_a_knock_with_one() -> None:
    """Ruling 17: an ace upcard means limit 1 (the text's arithmetic), not gin only.

    Discarding KD leaves A-2-3 of clubs, three fives, three nines and the AH:
    deadwood 1 against the defender's 80 scores 79.
    """
    hand = KNOCKER.replace("2H", "AH")
    state = upcard_position(hand, LOOSE, pile="AD QH")
    assert state.view(0).knock_limit == 1
    assert "knock:KD" in state.legal_actions()
    # Deadwood 2 is refused against the same ace.
    refused = upcard_position(KNOCKER, LOOSE, pile="AD QH")
    assert "knock:KD" not in refused.legal_actions()
    state.apply("knock:KD")
    assert state.deal_points == [(79, 0)]
    assert state.view(1).last_top == "AD"


def test_a_spade_upcard_doubles_with_a_red_card_on_top() -> None:
    """Ruling 17: upcard 4S, 7D on top when he knocks: 78 doubles to 156."""
    state = upcard_position(KNOCKER, LOOSE, pile="4S 7D")
    assert state.view(0).spades_double
    state.apply("knock:KD")
    assert state.deal_points == [(156, 0)]
    assert state.view(1).last_top == "4S"
    # The default reads the 7D on top: not doubled.
    state = position(KNOCKER, LOOSE, pile="4S 7D")
    assert not state.view(0).spades_double
    state.apply("knock:KD")
    assert state.deal_points == [(78, 0)]


def test_a_spade_on_top_does_not_double_without_a_spade_upcard() -> None:
    """Ruling 17: upcard 4D, 7S on top when he knocks: 78 stays 78."""
    state = upcard_position(KNOCKER, LOOSE, pile="4D 7S")
    assert not state.view(0).spades_double
    state.apply("knock:KD")
    assert state.deal_points == [(78, 0)]
    # The default reads the 7S on top: doubled.
    state = position(KNOCKER, LOOSE, pile="4D 7S")
    state.apply("knock:KD")
    assert state.deal_points == [(156, 0)]


def test_a_spade_upcard_doubles_gin_and_undercut() -> None:
    """Rulings 12 and 17: gin 20 + 80 and undercut 10 + 2 double on a spade upcard."""
    state = upcard_position("AC 2C 3C 4C 5D 5H 5S 9H 9S 9C KD", LOOSE, pile="8S 2D")
    state.apply("gin:KD")
    assert state.deal_points == [(200, 0)]
    state = upcard_position(
        "AC 2C 3C 5D 5H 5S 9H 9S 9C 4H KD",
        "7C 7D 7S 8H 8D 8S JC JD JS 2D",
        pile="6S 9D",
    )
    state.apply("knock:KD")
    assert state.deal_points == [(0, 24)]


def test_the_upcard_counts_after_the_dealer_takes_it() -> None:
    """Ruling 17: the pile is empty, yet the taken 9C upcard still allows 9.

    Under the default the empty pile allows gin only (ruling 3).
    """
    hand = "AC 2C 3C 5D 5H 5S 9H 9S 2H KD"
    state = upcard_position(LOOSE, hand, pile="9C", phase="draw", to_act=1)
    state.apply("draw:discard")
    view = state.view(1)
    assert view.discard_pile == () and view.upcard == "9C"
    assert (view.knock_limit, view.spades_double) == (9, False)
    assert "knock:KD" in state.legal_actions()
    assert "knock:9C" not in state.legal_actions()  # ruling 5 still holds
    state.apply("knock:KD")
    # The limit stays 9 while he chooses: AC-2C-3C may stay deadwood (6 + 2).
    assert state.view(1).knock_limit == 9
    assert state.legal_actions() == ("lay:AC-3C+9C9H9S+5D5H5S", "lay:9C9H9S+5D5H5S")
    state.apply("lay:AC-3C+9C9H9S+5D5H5S")
    assert state.deal_points == [(0, 78)]
    assert state.view(0).last_top == "9C"


def test_the_upcard_is_fixed_for_the_whole_hand() -> None:
    """Ruling 17: from the opening discard on, the view's limit never moves."""
    game = GinRummy(knock_card="upcard", target=40)
    state = game.new_match(2, 11)
    view = state.view(0)
    assert view.knock_card == "upcard"
    assert (view.knock_limit, view.spades_double) == (0, False)
    rng = random.Random(4)
    deal = state.deal
    state.apply(state.legal_actions()[0])
    upcard = state.view(1).upcard
    assert upcard is not None
    index = FULL52.index[upcard]
    while state.deal == deal and not state.is_over():
        for seat in (0, 1):
            view = state.view(seat)
            assert view.upcard == upcard
            assert view.knock_limit == melds.VALUE[index]
            assert view.spades_double is (index // 13 == 3)
        state.apply(rng.choice(state.legal_actions()))


def test_upcard_narration_names_the_upcard() -> None:
    """Ruling 17: the showdown tells which card set the limit and doubled."""
    state = upcard_position(KNOCKER, LOOSE, pile="4S 7D", target=300)
    text = "\n".join(state.narrate("knock:KD"))
    assert "upcard 4S (knock limit 4), a spade: points double" in text
    assert "scores 156-0" in text


def test_upcard_views_round_trip_and_sample() -> None:
    """Ruling 17: the option travels in the view; sampled worlds keep it."""
    state = upcard_position(
        "AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="4S 3D 9C", phase="draw"
    )
    state.apply("draw:discard")
    state.apply("KD")
    view = state.view(1)
    assert type(view).from_json(view.to_json()) == view
    rng = random.Random(3)
    for game in (GinRummy(knock_card="upcard"), GinRummy()):
        for _ in range(5):
            sample = game.sample_state(view, rng)
            assert sample.view(1) == view
            assert sample.legal_actions() == state.legal_actions()


def test_the_knock_card_option_is_checked() -> None:
    """The option takes 'top' (default) or 'upcard' only."""
    assert GinRummy().options["knock_card"] == "top"
    with pytest.raises(OptionError, match=r"knock_card.*'top', 'upcard'"):
        GinRummy(knock_card="first")


def test_upcard_reading_passes_the_conformance_suite() -> None:
    """Ruling 17: the option keeps views, sampling and replay sound."""
    report = check_game(GinRummy(knock_card="upcard", target=20), matches=1, seed=5)
    assert report.passed, report.summary()


# -- whole matches -----------------------------------------------------------------


def test_random_bots_finish_and_replay() -> None:
    """Random play ends (ruling 6 ends hands) and replays; ruling 16: points add up."""
    game = GinRummy(variant="grote-gin")
    for seed in (1, 2):
        result = play_match(
            game, make_bots(game, [RandomBot, RandomBot], seed), seed, keep_log=True
        )
        assert result.forfeit is None and max(result.scores) >= 150
        assert sum(map(sum, result.deal_points)) == sum(result.scores)
        assert result.log is not None
        assert replay(game, 2, seed, result.log) == result


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), grote=st.booleans())
def test_random_play_conserves_the_pack(
    data: st.DataObject, seed: int, grote: bool
) -> None:
    """Conservation: all 52 cards in exactly one place after every action."""
    game = GinRummy(variant="grote-gin" if grote else "standard", target=40)
    state = game.new_match(2, seed)
    for _ in range(300):
        if state.is_over():
            break
        legal = state.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        state.apply(action)
        held = Counter(c for place in state.card_locations().values() for c in place)
        assert held == Counter(FULL52.cards)
        sizes = sorted(len(state.card_locations()[f"hand:{s}"]) for s in (0, 1))
        assert sizes in ([10, 10], [10, 11])


def test_the_last_hand_record_ends_with_the_knock() -> None:
    """Ruling 15: perfect recall of the last hand up to its final move."""
    state = position("AC 2C 3C 5D 5H 5S 9H 9S KD 2H", LOOSE, pile="3D 9C", phase="draw")
    state.apply("draw:discard")
    state.apply("knock:KD")
    assert state.view(0).last_history == ("0:draw:discard:9C", "0:knock:KD")
    assert state.view(1).last_history == ("0:draw:discard:9C", "0:knock")
    view = state.view(1)
    sample = GinRummy().sample_state(view, random.Random(1))
    assert sample.view(1) == view


def test_one_sampler_gives_many_independent_worlds() -> None:
    """GinRummy.sampler reads the view once; each world is consistent and its own."""
    game = GinRummy()
    state = game.new_match(2, 11)
    rng = random.Random(2)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    assert state.to_act is not None
    view = state.view(state.to_act)
    sampler = game.sampler(view)
    worlds = [sampler.sample(rng) for _ in range(10)]
    assert all(world.view(view.seat) == view for world in worlds)
    # Playing one world to its end leaves the others and the sampler alone.
    first = worlds[0]
    while not first.is_over():
        first.apply(rng.choice(first.legal_actions()))
    assert all(world.view(view.seat) == view for world in worlds[1:])
    assert sampler.sample(rng).view(view.seat) == view
    assert len({world.card_locations()["stock"] for world in worlds}) > 1


# -- face up, face down (ruling 19, issue 13 item 10) --------------------------


def test_the_gin_discard_lies_face_up_and_the_opponent_sees_it() -> None:
    """Ruling 19, lines 510 and 514: seat 0 holds A-4 of clubs, three fives,
    three nines and the king of diamonds; he discards KD and goes gin. The KD is
    an ordinary face-up discard: the opponent's history names it and it tops
    the pile of the final view."""
    state = position("AC 2C 3C 4C 5D 5H 5S 9H 9S 9C KD", LOOSE, pile="4D", target=1)
    state.apply("gin:KD")
    assert state.is_over()
    for seat in (0, 1):
        view = state.view(seat)
        assert view.last_end == "gin"
        assert view.last_history[-1] == "0:gin:KD"
        assert view.discard_pile == ("4D", "KD")


def test_the_knock_discard_lies_face_down_and_no_opponent_view_names_it() -> None:
    """Ruling 19, line 516: the knock discard is laid face down. After seat 0
    knocks with KD, the final views list only the face-up 4D in the pile; the
    opponent's history says only that seat 0 knocked; the card is located apart
    (``face-down:0``) and hidden from seat 1."""
    state = position(KNOCKER, LOOSE, pile="4D", target=1)
    state.apply("knock:KD")
    assert state.is_over() and state.view(1).last_end == "knock"
    assert state.view(1).last_history[-1] == "0:knock"
    assert state.view(0).last_history[-1] == "0:knock:KD"
    for seat in (0, 1):
        assert state.view(seat).discard_pile == ("4D",)
        assert "KD" not in state.view(seat).discard_pile
    assert state.card_locations()["face-down:0"] == ("KD",)
    assert "face-down:0" in state.hidden_from(1)
    assert "face-down:0" not in state.hidden_from(0)


def _knock_when_possible(seed: int, choices: int) -> GinRummyState:
    """A ``target=1`` match (one hand) of ``seed``: the first knock offered is
    taken, every other decision drawn by ``random.Random(choices)``."""
    state = GinRummy(target=1).new_match(2, seed)
    rng = random.Random(choices)
    while not state.is_over():
        legal = state.legal_actions()
        knocks = [a for a in legal if a.startswith("knock:")]
        state.apply(knocks[0] if knocks else rng.choice(legal))
    return state


def _card_names(view: Any) -> set[str]:
    """Every card a gin view names, in any field."""
    names = {*view.hand, *view.opponent_known, *view.discard_pile}
    names |= {view.upcard} if view.upcard else set()
    for entry in (*view.history, *view.last_history):
        names |= set(entry.split(":"))
    return names


def test_the_last_view_keeps_the_knock_discard_face_down() -> None:
    """Line 516 and ruling 19 (issue 27 item 5): the knock discard lies face
    down, also once the match is over. ``target=1``, seed 1, knocking when
    possible: seat 0 knocks with the TC; every view's knock limit and doubling
    come from the visible top, the 5H (not 10 from the TC), and the defender's
    view names no TC."""
    state = _knock_when_possible(1, 1)
    assert state.out_seat == 0 and FULL52.cards[state.face_down] == "TC"
    for seat in (0, 1):
        view = state.view(seat)
        assert view.phase == "over" and view.discard_pile[-1] == "5H"
        assert (view.knock_limit, view.spades_double) == (5, False)
    assert "TC" not in _card_names(state.view(1))


def test_no_view_of_the_defender_shows_the_face_down_discard() -> None:
    """Ruling 19: in every match ended by a knock, the defender's last view has
    the knock discard neither on the pile nor in its history (``0:knock``),
    and its knock limit and doubling are those of the top card it sees."""
    knocks = 0
    for seed in range(12):
        state = _knock_when_possible(seed, seed)
        if state.face_down < 0:  # ended by gin
            continue
        knocks += 1
        knocker = state.out_seat
        view = state.view(1 - knocker)
        card = FULL52.cards[state.face_down]
        assert card not in view.discard_pile
        assert f"{knocker}:knock" in view.last_history
        assert f"{knocker}:knock:{card}" not in view.last_history
        assert f"{knocker}:knock:{card}" in state.view(knocker).last_history
        top = view.discard_pile[-1] if view.discard_pile else None
        assert view.knock_limit == (melds.VALUE[FULL52.index[top]] if top else 0)
        assert view.spades_double == (top is not None and top.endswith("S"))
    assert knocks >= 6
