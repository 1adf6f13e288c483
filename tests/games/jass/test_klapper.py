"""Worked examples of klapper, each citing the rule text (seed 002, "Klapper /
Klapperjas", from line 101) or a ruling K1, K2, ... of games/jass/RULES.md.

Positions are built with ``KlapperState.from_hands`` in deal 4 of a table of
four: seat 3 deals (its last listed card is the open card), seat 0 is
voorhand and leads; seats 0 and 2 are team 0, seats 1 and 3 team 1.
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET24
from games.jass import Klapper, troef_games
from games.jass.declarations import best_declarations
from games.jass.klapper import (
    KLAPPER_ROEM,
    SUIT_ACTIONS,
    KlapperState,
    KlapperView,
    omboeren,
)
from games.jass.scoring import beat_every_side
from harness import IllegalActionError, SeatCountError
from harness.contracts.seeding import derive_seed
from tests.games.playing import play as apply

GAME = Klapper()


def position(hands: list[str], trump: str = "H", **kw: object) -> KlapperState:
    return KlapperState.from_hands(GAME, hands, trump=trump, deal=4, **kw)  # type: ignore[arg-type]


def kview(state: KlapperState, seat: int) -> KlapperView:
    view = state.view(seat)
    assert isinstance(view, KlapperView)
    return view


# -- seats, teams, dealing -------------------------------------------------------


def test_registered_with_its_tables() -> None:
    """Lines 105, 151, 153, 155 and K1, K12: 4 seats in two pairs, 6 in two
    teams of three alternately, 2 and 3 each for himself; no other count."""
    assert Klapper in troef_games()
    assert GAME.seat_counts == frozenset({2, 3, 4, 6})
    assert GAME.teams(4) == (0, 1, 0, 1)
    assert GAME.teams(6) == (0, 1, 0, 1, 0, 1)
    assert GAME.teams(3) == (0, 1, 2)
    assert GAME.teams(2) == (0, 1)
    with pytest.raises(SeatCountError):
        GAME.new_match(5, 1)


@pytest.mark.parametrize(("seats", "cards"), [(3, 8), (4, 6), (6, 4)])
def test_every_card_dealt_dealers_last_card_open(seats: int, cards: int) -> None:
    """Lines 109, 115, 151, 155 and K2: 24 cards A-9, all dealt; the dealer's
    last card is dealt open, proposes trump and is the dealer's."""
    state = GAME.new_match(seats, 3)
    views = [kview(state, s) for s in range(seats)]
    assert all(len(v.hand) == cards for v in views)
    assert sorted(c for v in views for c in v.hand) == sorted(PIQUET24.cards)
    dealer = views[0].dealer
    assert dealer == omboeren(3, seats) and views[0].to_act == (dealer + 1) % seats
    assert views[0].open_card in views[dealer].hand
    assert views[0].turned == (views[0].open_card[1],)


def _first_jack_seat(seed: int, seats: int) -> int:
    """Line 111 read as a person does it: hand out the omboeren pack's cards
    face up round the table from seat 0, skipping a seat that has a jack, until
    everyone has one; the first to get a jack deals."""
    pack = [
        PIQUET24.cards[c]
        for c in PIQUET24.shuffled(random.Random(derive_seed("omboeren", seed)))
    ]
    jacks: list[int] = []
    seat = 0
    for card in pack:
        while seat in jacks:
            seat = (seat + 1) % seats
        if card[0] == "J":
            jacks.append(seat)
            if len(jacks) == min(seats, 4):
                break
        seat = (seat + 1) % seats
    return jacks[0]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_omboeren_draws_the_first_dealer_from_the_seed(seats: int) -> None:
    """Line 111 ("Gebruik omboeren om partners en deler te bepalen; deel
    iedereen kaarten toe tot ze een boer krijgen, de eerste boer wordt deler")
    and K2: the first dealer is the seat dealt the first jack of a pack shuffled
    from the match seed, not always the last seat (issue 28 item 2); the deal
    then passes clockwise, and voorhand is the seat after the dealer."""
    firsts = set()
    for seed in range(40):
        state = GAME.new_match(seats, seed)
        first = _first_jack_seat(seed, seats)
        assert state.dealer == omboeren(seed, seats) == first
        assert state.to_act == (first + 1) % seats
        firsts.add(first)
    assert firsts == set(range(seats))  # every seat deals first for some seed
    state = apply(GAME.new_match(4, 9), "pass " * 8)  # all pass twice: thrown in
    assert (state.deal, state.dealer) == (1, (omboeren(9, 4) + 1) % 4)


# -- bidding ------------------------------------------------------------------------


def test_first_play_ends_the_bidding() -> None:
    """Line 119 and K3: from voorhand, play or pass on the proposed suit; the
    first play ends the bidding; voorhand leads the first trick (line 123)."""
    state = GAME.new_match(4, 3)
    voorhand = state.to_act
    assert voorhand == (state.dealer + 1) % 4
    assert state.legal_actions() == ("play", "pass")
    apply(state, "pass play")
    view = kview(state, 0)
    assert view.player == (voorhand + 1) % 4 and view.trump == view.turned[0]
    assert view.to_act == voorhand


def test_second_round_any_suit_then_new_deal() -> None:
    """Line 119 and K3: when all passed, a round where each may pass or name any
    suit; all passing again throws the deal in: it scores 0 and the next dealer
    deals."""
    state = apply(GAME.new_match(4, 3), "pass pass pass pass")
    first = state.dealer
    assert state.legal_actions() == ("pass", *SUIT_ACTIONS)
    apply(state, "pass pass pass pass")
    view = kview(state, 0)
    assert (view.deal, view.dealer, view.to_act) == (
        1,
        (first + 1) % 4,
        (first + 2) % 4,
    )
    assert view.deal_scores == ((0, 0),) and view.bids == ()
    assert state.legal_actions() == ("play", "pass")  # a new first round


# -- play ---------------------------------------------------------------------------

HANDS = [
    "AS TS KS 9C JD 9H",
    "QS JS 9S TC QD JH",
    "AC KC QC JC 9D AD",
    "AH TD KD TH KH QH",
]


def test_trick_ranks_and_points() -> None:
    """Line 125: plain A 10 K Q J 9; trumps J 9 A 10 K Q; Jas 20, Nel 14, A 11,
    10 10, K 4, Q 3, J 2. Spades led, hearts trump: AS TS QS KC -> AS wins
    11 + 10 + 3 + 4 = 28."""
    state = apply(position(HANDS), "AS QS KC")
    # Seat 3 has no spade: it must trump (line 127), any trump as none lies.
    assert state.legal_actions()[:4] == ("TH", "QH", "KH", "AH")
    apply(state, "TH")
    assert state.view(0).tricks[0][2:4] == (3, 11 + 3 + 4 + 10)


def test_must_over_trump_and_under_trump() -> None:
    """Line 127: when trump is led, a higher trump if you have one; if you cannot
    over-trump you must still play a (lower) trump."""
    state = apply(position(HANDS), "9H")  # Nel led
    assert state.legal_actions() == ("JH",)  # only the Jas beats the Nel
    apply(state, "JH AC")  # seat 2 has no trump: any card
    legal = [a for a in state.legal_actions() if a != "roem"]
    assert legal == ["TH", "QH", "KH", "AH"]  # none beats the Jas: any trump


def test_points_of_a_deal_add_up_to_162() -> None:
    """Line 125: 152 on the cards (the 24-card pack) and 10 for the last trick."""
    state = position(HANDS)
    while state.deal == 4:
        state.apply(state.legal_actions()[0])
    points = [0, 0]
    view = kview(state, 0)
    assert view.deal_scores  # the deal was scored
    for record in state._last_tricks:
        points[record[2] % 2] += record[3]
    assert sum(points) == 162


# -- declarations -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("JC JD JH JS", 200),  # line 133
        ("9C 9D 9H 9S", 100),  # line 135: any other four
        ("9S TS JS QS KS", 100),  # line 137
        ("9S TS JS QS KS AS", 100),  # K4: a run of six is a run of five
        ("TS JS QS KS", 50),  # line 139
        ("TS JS QS", 30),  # line 141
        ("TS JS AD", 0),
    ],
)
def test_declaration_values(cards: str, points: int) -> None:
    """Lines 131-141 and K4: the values of declarations in hand."""
    found = best_declarations(PIQUET24.mask(cards.split()), KLAPPER_ROEM)
    assert sum(d.points for d in found) == points


DECLARING = [
    "KH QH JH 9C TC 9D",  # seat 0: run J Q K of hearts 30 + stuk 20 = 50
    "9S TS JS QS AC AD",  # seat 1: run of 4 in spades, 50
    "AS KS TD JD QD KD",  # seat 2: run 10 J Q K of diamonds, 50
    "JC QC KC 9H TH AH",  # seat 3 (dealer; AH open): run J Q K of clubs, 30
]


def test_declaring_is_a_decision_in_the_first_trick() -> None:
    """Line 131 and K5: in the first trick, before its card, a seat with
    declarations may say "roem"; the stuk may share its cards with a run."""
    state = position(DECLARING)
    assert state.legal_actions()[-1] == "roem"
    apply(state, "roem")
    assert kview(state, 1).declared == ((0, ("JH", "QH", "KH"), 50),)
    assert "roem" not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply("roem")


def test_only_the_individually_highest_declaration_scores_with_partners() -> None:
    """Line 131 and K6: seats 0 and 2 and 1 declare 50 each, seat 3 30. At equal
    points the strongest declared card decides: seat 0's JH is the Jas (hearts
    trump), so team 0 scores seat 0's 50 and its partner's 50; team 1's
    declarations count for nothing."""
    # 9D led: seat 1 must follow with AD, seat 2 with a diamond, seat 3 trumps.
    state = apply(position(DECLARING), "roem 9D roem AD roem KD roem 9H")
    view = kview(state, 0)
    assert [d[2] for d in view.declared] == [50, 50, 50, 30]
    assert view.roem_team == 0
    assert state.team_points()[1] == [100, 0]


# -- scoring, match ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("playing", "totals", "made", "scores"),
    [
        (0, (100, 62), True, (100, 62)),  # line 147: each its own
        (0, (81, 81), False, (0, 81)),  # line 147: equal is not enough
        (1, (100, 62), False, (100, 0)),
        (1, (50, 60, 52), True, (50, 60, 52)),  # line 151: beat both others
        (1, (50, 60, 62), False, (50, 0, 62)),
    ],
)
def test_playing_side_must_score_more_than_every_other(
    playing: int, totals: tuple[int, ...], made: bool, scores: tuple[int, ...]
) -> None:
    """Lines 147, 151 and K7: no rounding, no bonus for all tricks."""
    assert beat_every_side(playing, totals) == (made, scores)


def test_match_to_500_and_result_by_team() -> None:
    """Line 147 and K8: played to 500 by default; every seat shows its team's
    total; the higher team ranks first."""
    state = GAME.new_match(4, 11)
    rng = random.Random(4)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    assert max(result.scores) >= 500
    assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]


# -- views and sampling --------------------------------------------------------------


def test_samples_keep_the_open_card_and_declared_cards_where_they_are() -> None:
    """K9, K10: the dealer's open card and declared cards not yet played are in
    their holders' hands in every sampled state; voids shown are kept."""
    state = apply(position(DECLARING), "roem 9C")
    view = kview(state, 1)
    rng = random.Random(2)
    for _ in range(30):
        sample = GAME.sample_state(view, rng)
        assert sample.view(1) == view
        hands = sample.card_locations()
        assert "AH" in hands["hand:3"]
        assert {"JH", "QH", "KH"} <= set(hands["hand:0"])


def test_narration_tells_bids_declarations_and_deal_scores() -> None:
    """`troef play klapper`: bids, declarations, tricks and the deal's verdict."""
    state = position(DECLARING)
    lines: list[str] = []
    while state.deal == 4:
        lines += state.narrate(state.legal_actions()[-1 if not lines else 0])
    assert lines[0] == "seat 0 declares run of 3 + stuk (JH QH KH), 50"
    assert any(line.startswith("team 0 (makers): team 0 ") for line in lines)
    assert any(line.startswith("deal 4 scores ") for line in lines)
