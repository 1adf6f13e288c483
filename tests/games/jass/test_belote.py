"""Worked examples of belote, each citing the rule text (seed 002, "Belote /
Piekjas", from line 57) or a ruling B1, B2, ... of games/jass/RULES.md.

Most positions are one deal 0 at three seats built with
``BeloteState.from_deal``: seat 2 deals, seat 0 is voorhand; the 10 of hearts
is turned.
"""

from __future__ import annotations

import random

import pytest

from bots.jass import JassBot
from bots.random_bot import RandomBot
from games.cards import PIQUET
from games.jass import Belote, troef_games
from games.jass.belote import BELOTE_ROEM, BeloteState, BeloteView
from games.jass.declarations import best_declarations
from games.jass.scoring import beat_each_or_reserve
from harness import IllegalActionError, SeatCountError
from harness.match.referee import make_bots, play_match
from tests.games.playing import play as apply

GAME = Belote()

#: Three seats (line 64): six cards each, the 10 of hearts turned, thirteen left.
HANDS3 = [
    "7H AH KH QH JD 8S",
    "JC JS 9C 9D 9S 7S",
    "AD KD QD TC AC 8C",
]
#: Three more each from voorhand (line 78), then the last card is the Fille.
STOCK3 = "JH 7C 7D  9H 8D QC  KC TD 8H  TS QS KS AS"


def deal3(**kw: object) -> BeloteState:
    return BeloteState.from_deal(GAME, HANDS3, "TH", STOCK3, **kw)  # type: ignore[arg-type]


def bview(state: BeloteState, seat: int) -> BeloteView:
    view = state.view(seat)
    assert isinstance(view, BeloteView)
    return view


# -- seats, dealing, options ------------------------------------------------------


def test_registered_each_for_himself_with_targets_by_seats() -> None:
    """Lines 59, 61-63, 99 and B1, B15: 2 to 4 players, always without partners;
    the match targets are 500 for two, 700 for three, 1000 for four (options)."""
    assert Belote in troef_games()
    assert GAME.seat_counts == frozenset({2, 3, 4})
    assert GAME.teams(3) == (0, 1, 2) and GAME.teams(4) == (0, 1, 2, 3)
    assert [GAME.target(n) for n in (2, 3, 4)] == [500, 700, 1000]
    assert Belote(target=1000).target(3) == 1000
    with pytest.raises(SeatCountError):
        GAME.new_match(5, 1)


@pytest.mark.parametrize(("seats", "first", "later"), [(2, 6, 9), (3, 6, 9), (4, 5, 8)])
def test_dealing_first_cards_turned_card_then_the_rest(
    seats: int, first: int, later: int
) -> None:
    """Lines 64, 69, 78-79 and B2, B7: six cards (five at four), the next card
    turned; after the bidding three more each, or at four the maker takes the
    turned card and two more; every card is somewhere."""
    state = GAME.new_match(seats, 4)
    views = [bview(state, s) for s in range(seats)]
    assert all(len(v.hand) == first for v in views)
    assert views[0].table == (views[0].turned,)
    state.apply("take")
    while state._phase == "dix":
        state.apply("keep")
    views = [bview(state, s) for s in range(seats)]
    assert [len(v.hand) for v in views] == [later] * seats
    places = state.card_locations()
    assert sorted(c for cards in places.values() for c in cards) == sorted(PIQUET.cards)
    if seats == 4:  # no Fille: all cards are dealt; the turned card is the maker's
        assert places["table"] == () and places["stock"] == ()
        assert views[0].turned in views[0].hand
    else:
        assert len(places["table"]) == 2  # the turned card and the Fille, face up
        assert len(places["stock"]) == 32 - seats * 9 - 2


# -- bidding ---------------------------------------------------------------------


def test_first_round_takes_the_turned_suit() -> None:
    """Line 72 and B3: from voorhand each takes the turned suit or passes; the
    first take ends the bidding and makes that seat the maker."""
    state = deal3()
    assert state.legal_actions() == ("take", "pass")
    apply(state, "pass take")
    view = bview(state, 0)
    assert (view.player, view.trump, view.phase) == (1, "H", "dix")
    assert view.to_act == 0  # the holder of the 7 of hearts may exchange (B6)


def test_second_round_any_suit_then_the_koe() -> None:
    """Line 72 and B3, B5: all passing, a second round of pass or any suit;
    all passing again, voorhand must play on a suit of his choice (the Koe)."""
    state = apply(deal3(), "pass pass pass")
    assert state.legal_actions() == ("pass", "clubs", "diamonds", "hearts", "spades")
    apply(state, "pass pass pass")
    assert state.to_act == 0 and state.legal_actions() == (
        "clubs",
        "diamonds",
        "hearts",
        "spades",
    )
    apply(state, "spades")
    view = bview(state, 0)
    assert (view.player, view.trump, view.phase) == (0, "S", "play")


def test_smous_for_two_accepted_or_redealt() -> None:
    """Line 74 and B4: with two players a Smous bid asks the opponent to choose:
    the bidder plays, or a new deal (the deal scores nothing)."""
    state = GAME.new_match(2, 3)
    assert state.legal_actions() == ("take", "pass", "smous")
    apply(state, "smous")
    assert state.to_act == 1 and state.legal_actions() == ("accept", "redeal")
    twin = state.clone()
    apply(state, "accept")
    assert state.player == 0 and state.trump == PIQUET.suit_of(state._turned)
    apply(twin, "redeal")
    assert twin.deal == 1 and twin._deal_scores == ((0, 0),)
    # In the second round Smous names its suit.
    other = apply(GAME.new_match(2, 3), "pass pass smous:clubs accept")
    assert (other.player, other.trump) == (0, 0)
    assert "smous" not in deal3().legal_actions()  # two players only


def test_dix_exchanges_the_trump_seven_for_the_turned_card() -> None:
    """Line 76 and B6: the turned suit made, the holder of its 7 may exchange it
    for the turned card before the first trick; the 7 lies open in its place."""
    state = apply(deal3(), "take")
    assert state.legal_actions() == ("dix", "keep")
    apply(state, "dix")
    view = bview(state, 0)
    assert "TH" in view.hand and "7H" not in view.hand
    assert view.table == ("7H", "AS")  # the Dix and the Fille (line 78)
    kept = apply(deal3(), "take keep keep keep")
    assert "7H" in bview(kept, 0).hand and bview(kept, 0).table == ("TH", "AS")
    # Another suit made: no Dix.
    assert apply(deal3(), "pass pass pass clubs")._phase == "play"


# -- declarations (B8, B9) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("JC JD JH JS", 200),
        ("9C 9D 9H 9S", 150),
        ("AC AD AH AS", 100),
        ("QC QD QH QS", 100),
        ("8C 8D 8H 8S", 0),
        ("AH KH QH JH TH", 100),
        ("AH KH QH JH TH 9H 8H", 100),
        ("KS QS JS TS", 50),
        ("9D 8D 7D", 20),
        ("JC JD JH JS QH KH", 220),
    ],
)
def test_declaration_values(cards: str, points: int) -> None:
    """Lines 83-86: four jacks 200, nines 150, A K 10 Q 100; runs of 5 or more
    100, of 4 50, of 3 20 in the order A K Q J 10 9 8 7; a card counts once in
    a four and once in a run (the last: four jacks and K Q J of hearts)."""
    found = best_declarations(PIQUET.mask(cards.split()), BELOTE_ROEM)
    assert sum(d.points for d in found) == points


def test_declared_kind_and_top_card_shown_cards_after_the_first_trick() -> None:
    """Line 82 and B8: a declaration names its kind and highest card, not its
    suit; the cards are shown after the first trick."""
    state = apply(deal3(), "take dix roem")
    seen_by_1 = bview(state, 1)
    assert seen_by_1.declared == ((0, ("run:5:A",), 100),)
    assert seen_by_1.shown == ()
    assert bview(state, 0).shown == ((0, ("TH", "JH", "QH", "KH", "AH")),)
    apply(state, "JH roem 9H roem 8H")
    view = bview(state, 2)
    assert view.shown[0] == (0, ("TH", "JH", "QH", "KH", "AH"))
    assert [e[1] for e in view.declared] == [("run:5:A",), ("four:9",), ("run:3:A",)]


def test_only_the_highest_declaration_scores() -> None:
    """Lines 82, 87 and B9: four nines (150) beat a run of five (100) and a run
    of three: only seat 1's declaration scores. The stuk (K and Q of hearts,
    seat 0's) counts apart (B10)."""
    state = apply(deal3(), "take dix roem JH roem 9H roem 8H")
    assert state._roem_seat == 1
    _, roem, _, _ = state.deal_points()
    assert roem == [20, 150, 0]


def test_equal_points_longer_then_stronger_top_card() -> None:
    """Line 87 and B9: at equal points the longer declaration wins (a run of
    five over four aces), then the one whose highest card takes tricks higher
    (a trump run over a plain one)."""
    state = apply(deal3(), "take dix")
    trump_run = best_declarations(PIQUET.mask(["9H", "8H", "7H"]), BELOTE_ROEM)
    plain_run = best_declarations(PIQUET.mask(["AC", "KC", "QC"]), BELOTE_ROEM)
    assert state._best_key(trump_run) > state._best_key(plain_run)
    run5 = best_declarations(PIQUET.mask("9C 8C TC JC QC".split()), BELOTE_ROEM)
    aces = best_declarations(PIQUET.mask("AC AD AH AS".split()), BELOTE_ROEM)
    assert state._best_key(run5) > state._best_key(aces)


# -- play ------------------------------------------------------------------------------


def test_follow_trump_over_trump_under_trump() -> None:
    """Line 89: follow suit; else trump and over-trump if possible; else
    under-trump; with neither, any card. Hearts trump, seat 0 leads the jas:
    seat 1's only heart is the 9, which must follow though it cannot beat."""
    state = apply(deal3(), "take dix JH")
    assert state.legal_actions() == ("9H", "roem")
    apply(state, "9H")
    assert state.legal_actions() == ("8H", "roem")
    apply(state, "8H")
    # Seat 0 led clubs? seat 0 won; it leads 7C: seat 1 follows with a club.
    apply(state, "7C")
    assert set(state.legal_actions()) == {"9C", "JC", "QC"}


def test_stuk_and_brok_said_when_played() -> None:
    """Line 91 and B10: the holder of the trump K and Q says "stuk" with the
    first and "brok" with the second; it is worth 20 to him."""
    state = apply(deal3(), "take dix")
    assert state._stuk_seat == 0
    lines = state.narrate("KH")
    assert lines[0] == 'seat 0 plays KH: "stuk"'
    assert bview(state, 1).stuk == 0


# -- scoring -----------------------------------------------------------------------


def test_maker_must_beat_every_other_player() -> None:
    """Line 95: the maker above all: everyone scores his own; below one:
    the maker scores nothing and his points go to the best; tied with the
    maker, or a tie for his points: into the reserve."""
    assert beat_each_or_reserve(0, [80, 50, 32]) == ((80, 50, 32), 0)
    assert beat_each_or_reserve(0, [50, 80, 32]) == ((0, 130, 32), 0)
    assert beat_each_or_reserve(0, [60, 60, 42]) == ((0, 60, 42), 60)
    assert beat_each_or_reserve(2, [60, 60, 42]) == ((60, 60, 0), 42)


def finish(
    state: BeloteState, won: list[tuple[int, int]], *, maker: int = 0
) -> tuple[int, ...]:
    """Score the deal as if seat ``w`` won tricks worth ``p`` for each pair."""
    state.player = maker
    state._tricks = tuple((0, (), w, p, 0) for w, p in won)
    state._score_deal()
    return state._deal_scores[-1]


def test_scores_rounded_to_tens() -> None:
    """Line 94 and B12: each score to the nearest ten, a five up."""
    state = apply(deal3(), "take dix")
    state._stuk_seat = -1
    assert finish(state, [(0, 85), (1, 44), (2, 33)]) == (90, 40, 30)


def test_reserve_goes_to_the_winner_of_the_next_deal() -> None:
    """Line 95 and B12: a maker tied at 60 puts his 60 in reserve; the best of
    the next deal takes it."""
    state = apply(deal3(), "take dix")
    state._stuk_seat = -1
    assert finish(state, [(0, 60), (1, 60), (2, 42)]) == (0, 60, 40)
    assert state._reserve == 60
    apply(state, "take")
    while state._phase != "play":
        state.apply(state.legal_actions()[0])
    state._stuk_seat = -1
    assert finish(state, [(1, 50), (2, 70), (0, 40)], maker=2) == (40, 50, 70 + 60)
    assert state._reserve == 0


def test_kapot_bonuses() -> None:
    """Line 97 and B11: all tricks +100; a player without a trick: the others
    share 100 (50 each at three)."""
    state = apply(deal3(), "take dix")
    state._stuk_seat = -1
    assert finish(state, [(0, 100), (0, 62)]) == (260, 0, 0)
    state = apply(deal3(), "take dix")
    state._stuk_seat = -1
    assert finish(state, [(0, 100), (1, 62)]) == (150, 110, 0)


def test_kapot_with_two_players_without_tricks_at_four() -> None:
    """Line 97 and B11: two of four without a trick: the other two share 200."""
    state = GAME.new_match(4, 2)
    apply(state, "take")
    while state._phase != "play":
        state.apply(state.legal_actions()[0])
    state._stuk_seat = -1
    maker = state.player
    other = (maker + 1) % 4
    scores = finish(state, [(maker, 100), (other, 62)], maker=maker)
    assert scores[maker] == 200 and scores[other] == 160


def test_roem_without_tricks_counts_unless_it_wins_the_match() -> None:
    """Line 97 and B13: a player who took no trick and did not make trump still
    scores his roem, but not when it would win him the match."""
    state = apply(deal3(), "take dix")  # seat 0 holds the stuk: 20 roem
    state._stuk_seat = 2
    assert finish(state, [(0, 100), (1, 62)]) == (150, 110, 20)
    state = apply(deal3(), "take dix")
    state._stuk_seat = 2
    state._totals = (0, 0, 690)  # 20 more would reach 700
    assert finish(state, [(0, 100), (1, 62)]) == (150, 110, 0)


def test_match_ends_at_the_target() -> None:
    """Line 99 and B15: the match ends after the deal in which someone reaches
    the target; the highest total ranks first."""
    game = Belote(target=100)
    state = BeloteState.from_deal(game, HANDS3, "TH", STOCK3)
    apply(state, "take dix")
    state._stuk_seat = -1
    finish(state, [(0, 100), (1, 62)])
    assert state.is_over() and state.result().ranks == (1, 2, 3)


# -- views, sampling, bot ------------------------------------------------------------


def test_samples_keep_what_the_table_showed() -> None:
    """B16: the Dix's turned card, declared fours and announced runs are in
    their holders' hands in every sample; the Fille and Dix stay face up."""
    state = apply(deal3(), "take dix roem JH roem")
    view = bview(state, 2)
    rng = random.Random(4)
    suits = set()
    for _ in range(30):
        sample = GAME.sample_state(view, rng)
        assert sample.view(2) == view
        places = sample.card_locations()
        assert {"9C", "9D", "9S"} <= set(places["hand:1"])  # four nines, 9H played
        hand0 = set(places["hand:0"])
        assert "TH" in hand0  # the Dix took it
        runs = [s for s in "CDHS" if {f"A{s}", f"K{s}", f"Q{s}", f"T{s}"} <= hand0]
        assert runs  # a run of five to the ace, the JH played
        suits.add(runs[0])
        assert places["table"] == ("7H", "AS")
    # Seat 2 holds the A K Q of diamonds and the A 10 of clubs, the AS is the
    # Fille: the run can only be in hearts, whose jack seat 0 led.
    assert suits == {"H"}


def test_illegal_actions_are_refused() -> None:
    """The bidding words only when legal."""
    state = deal3()
    with pytest.raises(IllegalActionError):
        state.apply("dix")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_jass_bot_beats_random(seats: int) -> None:
    """The heuristic bot wins most short matches against random players at
    every seat count (the tournaments in tournaments/belote-*.toml measure it)."""
    game = Belote(target=300)
    # A random player wins 1/2, 1/3, 1/4 of the matches; the bot needs clearly
    # more (at four seats, 10 of 24 lies two standard deviations above 6).
    matches, needed = {2: (12, 9), 3: (12, 7), 4: (24, 10)}[seats]
    wins = 0
    for seed in range(matches):
        classes = [JassBot] + [RandomBot] * (seats - 1)
        result = play_match(game, make_bots(game, classes, seed=seed), seed=seed)
        wins += result.ranks[0] == 1
    assert wins >= needed


def test_action_order() -> None:
    """B17: the bidding words in a fixed order, then cards in deck order and
    `roem` last."""
    two = GAME.new_match(2, 3)
    assert two.legal_actions() == ("take", "pass", "smous")
    apply(two, "pass pass")
    assert two.legal_actions() == (
        "pass", "clubs", "diamonds", "hearts", "spades",
        "smous:clubs", "smous:diamonds", "smous:hearts", "smous:spades",
    )  # fmt: skip
    state = apply(deal3(), "take dix")
    assert state.legal_actions()[-1] == "roem"
    cards = state.legal_actions()[:-1]
    assert list(cards) == sorted(cards, key=PIQUET.index.__getitem__)


def test_what_a_seat_knows() -> None:
    """B14: its own hand, the face-up table, the bids and decisions, trump and
    maker, the phase; not the other hands nor the stock."""
    state = apply(deal3(), "take dix")
    view = bview(state, 1)
    assert view.hand == PIQUET.names(state.hands[1])
    assert view.table == ("7H", "AS") and view.turned == "TH"
    assert view.bids == ((0, "take"), (0, "dix"))
    assert (view.trump, view.player, view.phase, view.reserve) == ("H", 0, "play", 0)
    assert state.hidden_from(1) == {"hand:0", "hand:2", "stock"}
    assert view.to_json() == bview(state, 1).to_json()


def test_stuk_then_brok_in_the_narration() -> None:
    """B10: the first stuk card is said "stuk", the second "brok"."""
    state = apply(deal3(), "take dix")
    lines: list[str] = []
    while state.deal == 0:
        legal = state.legal_actions()
        pick = [a for a in legal if a in ("KH", "QH")] or [legal[0]]
        lines += state.narrate(pick[0])
    said = [line for line in lines if line.startswith("seat 0 plays") and "H:" in line]
    assert said == ['seat 0 plays QH: "stuk"', "seat 0 plays KH: brok"]
    assert any(line.startswith("deal points: seat 0 ") for line in lines)
    assert any(line.startswith("deal 0 scores ") for line in lines)


def test_reserve_waits_when_the_next_deal_ties() -> None:
    """B12: a reserve goes to the one best player of the next deal; if the
    best tie, it waits for the deal after."""
    state = apply(deal3(), "take dix")
    state._stuk_seat = -1
    finish(state, [(0, 60), (1, 60), (2, 42)])
    apply(state, "take")
    while state._phase != "play":
        state.apply(state.legal_actions()[0])
    state._stuk_seat = -1
    assert finish(state, [(2, 80), (1, 80), (0, 2)], maker=0) == (0, 80, 80)
    assert state._reserve == 60


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sampled_worlds_play_on_to_the_end_of_the_deal(seats: int) -> None:
    """B16: a world sampled at any decision of a deal can be played on (a
    search bot does so): at every phase, Smous and Dix included."""
    rng = random.Random(seats)
    for seed in range(6):
        state = GAME.new_match(seats, seed)
        while state.deal == 0:
            seat = state.to_act
            assert seat is not None
            world = GAME.sample_state(state.view(seat), rng)
            twin = world.clone()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            twin.apply(action)  # the same action leads to the same public state
            if state.deal == 0:
                ours, theirs = bview(state, seat), twin.view(seat)
                assert isinstance(theirs, BeloteView)
                # Not the phase (whether someone holds the trump seven is
                # hidden) nor the table (the Fille comes from the unseen stock).
                assert (ours.trump, ours.player) == (theirs.trump, theirs.player)
            while world.deal == 0:
                world.apply(rng.choice(world.legal_actions()))


def test_jass_bot_declares_only_what_can_win() -> None:
    """B8, B9: declaring is the bot's decision. After a run of five (100) is
    announced, four nines (150) are worth declaring, a run of three (20) is
    not: only the best declarer scores (line 82)."""
    state = apply(deal3(), "take dix roem JH")
    bot = JassBot(GAME, 1, 0, None)
    assert bot.act(state.view(1)) == "roem"
    apply(state, "roem 9H")
    seat2 = JassBot(GAME, 2, 0, None)
    assert "roem" in state.legal_actions()
    assert seat2.act(state.view(2)) != "roem"


#: Issue 27's example: seat 0 takes the turned QH; the 7H lies with seat 1,
#: with seat 2 or in the undealt stock (after the three cards each).
DIX_DEALS = {
    "seat 1": (
        ["8C 9C TC JC QC KC", "7H 8D 9D TD JD QD", "KD AD 8H 9H TH JH"],
        "7C AC 7D  KH AH 7S  8S 9S TS  JS QS KS AS",
    ),
    "seat 2": (
        ["8C 9C TC JC QC KC", "JH 8D 9D TD JD QD", "KD AD 8H 9H TH 7H"],
        "7C AC 7D  KH AH 7S  8S 9S TS  JS QS KS AS",
    ),
    "stock": (
        ["8C 9C TC JC QC KC", "JS 8D 9D TD JD QD", "KD AD 8H 9H TH JH"],
        "7C AC 7D  KH AH 7S  8S 9S TS  7H QS KS AS",
    ),
}


def _dix_views(where: str, seat: int) -> list[BeloteView]:
    """``seat``'s view after each decision from the first bid to the first
    card: seat 0 takes, every seat asked about the Dix keeps."""
    hands, stock = DIX_DEALS[where]
    state = BeloteState.from_deal(GAME, hands, "QH", stock)
    views = [bview(state, seat)]
    state.apply("take")
    views.append(bview(state, seat))
    while state._phase == "dix":
        state.apply("keep")
        views.append(bview(state, seat))
    assert state._phase == "play"
    return views


def test_the_dix_does_not_tell_who_holds_the_trump_seven() -> None:
    """Seed 002 line 76 and B6: the holder of the trump 7 *mag ruilen*; keeping
    it is not public. Every seat is asked in turn from voorhand, so seat 0's
    views are the same whether the 7H is with seat 1, with seat 2 or in the
    stock (issue 27 item 2); and seat 2's whether it is with seat 1 or in the
    stock."""
    views = {where: _dix_views(where, 0) for where in DIX_DEALS}
    assert views["seat 1"] == views["seat 2"] == views["stock"]
    asked = [(v.phase, v.to_act) for v in views["stock"]]
    assert asked == [("bid", 0), ("dix", 0), ("dix", 1), ("dix", 2), ("play", 0)]
    assert views["stock"][-1].bids == (
        (0, "take"),
        (0, "keep"),
        (1, "keep"),
        (2, "keep"),
    )
    assert _dix_views("seat 1", 2) == _dix_views("stock", 2)
    # Only the holder may exchange: seat 1 with the 7H, not seat 1 without.
    for where, legal in (("seat 1", ("dix", "keep")), ("stock", ("keep",))):
        hands, stock = DIX_DEALS[where]
        state = apply(BeloteState.from_deal(GAME, hands, "QH", stock), "take keep")
        assert state.to_act == 1 and state.legal_actions() == legal


def test_the_dix_asks_every_seat_but_the_maker_at_four() -> None:
    """B6 at four seats: the maker is not asked (he takes the turned card, B7);
    the three others are, in turn from voorhand, whoever holds the seven; a
    turned seven is exchanged by nobody."""
    state = GAME.new_match(4, 0)
    state.apply("pass")
    state.apply("take")  # seat 1 makes the turned suit
    asked = []
    while state._phase == "dix":
        asked.append(state.to_act)
        state.apply("keep")
    assert asked == [0, 2, 3]
    hands = ["8C 9C TC JC QC", "KC AC 8D 9D TD", "JD QD KD AD 8H", "9H TH JH QH KH"]
    stock = "AH 8S 9S  TS JS QS  KS AS 7C  7D 7S"
    turned = apply(BeloteState.from_deal(GAME, hands, "7H", stock), "take")
    assert turned._phase == "play"


def test_samples_place_the_trump_seven_anywhere_it_can_be() -> None:
    """B6, B16: neither being asked about the Dix nor keeping tells where the
    trump 7 is: seat 0's worlds put it with seat 1, with seat 2 and in the
    stock."""
    hands, stock = DIX_DEALS["seat 1"]
    state = apply(BeloteState.from_deal(GAME, hands, "QH", stock), "take keep keep")
    sampler = GAME.sampler(bview(state, 0))
    seven = 1 << PIQUET.index["7H"]
    rng = random.Random(5)
    places = set()
    for _ in range(200):
        world = sampler.sample(rng)
        assert isinstance(world, BeloteState)
        holders = [s for s in range(3) if world.hands[s] & seven]
        places.add(holders[0] if holders else "stock")
        assert world.view(0) == bview(state, 0)
    assert places == {1, 2, "stock"}
