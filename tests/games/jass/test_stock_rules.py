"""Worked examples of Smousjas (seed 000:428) and Vijfhonderden (seed 000:380).

Each test cites the seed lines or the ruling (S1.., V1..) of
``games/jass/RULES.md`` it pins.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import PIQUET
from games.jass.smousjas import SMOUSJAS, Smousjas
from games.jass.stock import DECLS, StockState, StockView
from games.jass.vijfhonderden import VIJFHONDERDEN, Vijfhonderden
from harness import IllegalActionError

SMOUS = Smousjas()
VIJF = Vijfhonderden()


def view(state: StockState, seat: int) -> StockView:
    v = state.view(seat)
    assert isinstance(v, StockView)
    return v


def play(state: StockState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


# -- deal, ranks and points -----------------------------------------------------


@pytest.mark.parametrize(("game", "size", "stock"), [(SMOUS, 8, 15), (VIJF, 9, 13)])
def test_deal_sizes_and_turned_trump(game: Smousjas, size: int, stock: int) -> None:
    """000:440 (8 each, 3-2-3) and 000:389 (9 each, 3-3-3): the first card of
    the rest is turned for trump and lies open; the non-dealer leads (S1)."""
    state = game.new_match(2, 5)
    v = view(state, 0)
    assert v.hand_sizes == (size, size)
    assert v.stock == stock
    assert v.open_card is not None and v.trump == v.open_card[1]
    assert v.dealer == 1 and v.to_act == 0


def test_card_points_add_up() -> None:
    """000:444: Smousjas J 20, 9 14, A 11, K 4, Q 3, J 2, 10 10: 152 + 10 last;
    000:393: Vijfhonderden K 3, Q 2, J 1: 141 + 5 last."""
    smous = SMOUSJAS.tables[0].points
    vijf = VIJFHONDERDEN.tables[0].points
    assert sum(smous) == 152 and SMOUSJAS.last_trick == 10
    assert sum(vijf) == 141 and VIJFHONDERDEN.last_trick == 5
    assert smous[PIQUET.index["JC"]] == 20 and smous[PIQUET.index["JD"]] == 2
    assert vijf[PIQUET.index["KD"]] == 3 and vijf[PIQUET.index["JD"]] == 1


def test_ten_ranks_below_the_court_cards() -> None:
    """000:444 "de 10 ... onder de hofkaarten": the jack of a plain suit takes
    the ten; in trumps J 9 A K Q 10 8 7, the nine takes the ace."""
    state = StockState.from_cards(SMOUS, ["TH 8C", "JH 7C"], "7S")
    play(state, "TH", "JH")
    assert state._tricks[-1][2] == 1
    state = StockState.from_cards(SMOUS, ["AS 8C", "9S 7C"], "8S")
    play(state, "AS", "9S")
    assert state._tricks[-1][2] == 1


# -- phase 1 ---------------------------------------------------------------------


def test_phase_one_free_play_and_drawing() -> None:
    """000:450: no duty to follow; the winner draws first, then the other."""
    state = StockState.from_cards(SMOUS, ["AH 8C", "7H 9D"], "7S", ["KC", "KD", "QC"])
    assert set(state.legal_actions()) >= {"AH", "8C"}
    play(state, "AH")
    assert "9D" in state.legal_actions()  # need not follow hearts
    play(state, "9D")
    assert view(state, 0).hand == ("8C", "KC")  # the winner drew the first card
    assert view(state, 1).hand == ("KD", "7H")


def test_exchange_of_the_trump_seven() -> None:
    """000:440: while the turned card lies open, the holder of the trump 7 may
    exchange it; the card taken is known to both (S3)."""
    state = StockState.from_cards(SMOUS, ["7S 8C", "7H 9D"], "JS", ["KC", "KD", "QC"])
    assert "exchange" in state.legal_actions()
    play(state, "exchange")
    v = view(state, 1)
    assert v.open_card == "7S"
    assert v.known[0] == ("JS",)
    assert "exchange" not in state.legal_actions()


def test_a_declared_trump_seven_is_not_exchanged_before_it_is_shown() -> None:
    """000:410 / 000:462: "Nadat de tegenspeler ook een kaart aan de slag heeft
    gespeeld, moet de declarant de kaarten behorende tot de roem laten zien":
    declared cards are shown from the hand, so a trump 7 in a declaration
    announced for the trick on the table may not be exchanged before the trick
    is complete (S3; issue 28 item 4: it was swapped and the run shown with
    the 7 lying open). Once shown and scored, it may be exchanged again."""
    state = StockState.from_cards(
        SMOUS, ["7H 8H 9H AS 7C", "9S 8S 7S AC KC"], "KH", ["8D", "TD", "JD"]
    )
    assert "exchange" in state.legal_actions()
    play(state, "roem:9H3")
    assert "exchange" not in state.legal_actions()
    play(state, "AS", "7S")
    v = view(state, 1)
    assert (v.open_card, v.roem) == ("KH", (20, 0))
    assert v.events[-1] == (0, "roem:9H3", ("7H", "8H", "9H"), 20)
    assert state.to_act == 0 and "exchange" in state.legal_actions()


def test_a_trump_seven_in_four_sevens_or_a_challenge_stays_in_hand() -> None:
    """000:410 / 000:462 (S3, S7): the same for four sevens and for a run the
    other seat challenges with (afkeuren); it must show them too."""
    four = StockState.from_cards(
        SMOUS, ["7H 7C 7D 7S AS", "9S 8S KS AC KC"], "KH", ["8D", "TD", "JD"]
    )
    play(four, "roem:7777")
    assert "exchange" not in four.legal_actions()
    challenge = StockState.from_cards(
        SMOUS, ["8C 9C TC AS 7D", "7H 8H 9H TH 7S"], "KH", ["8D", "TD", "JD"]
    )
    play(challenge, "roem:TC3", "AS")
    assert {"afkeuren:TH4", "exchange"} <= set(challenge.legal_actions())
    play(challenge, "afkeuren:TH4")
    assert "exchange" not in challenge.legal_actions()
    play(challenge, "7S")
    assert view(challenge, 0).events[-1][2] == ("7H", "8H", "9H", "TH")


def test_last_hidden_card_shown_and_shared() -> None:
    """000:472: with one hidden card beside the open trump the winner chooses;
    the hidden card is shown, the other player takes the other (S4)."""
    state = StockState.from_cards(SMOUS, ["AH 8C", "7H 9D"], "JS", ["KC"])
    play(state, "AH", "7H")
    assert view(state, 0).phase == "draw"
    assert view(state, 0).legal_actions == ("draw:stock", "draw:open")
    play(state, "draw:open")
    v = view(state, 1)
    assert v.known == (("JS",), ("KC",))
    assert v.phase == "final" and v.open_card is None


# -- declarations ----------------------------------------------------------------


def run_state() -> StockState:
    """Seat 0 holds a run of 3 to the queen of spades, seat 1 nothing."""
    return StockState.from_cards(
        SMOUS,
        ["QS JS TS 8C AH", "7H 9D KC 8D 7D"],
        "7C",
        ["KD", "QD", "8H", "9H", "TH"],
    )


def test_declaration_cards_hidden_until_the_opponent_played() -> None:
    """000:462: only the kind is announced ("3 op de vrouw"); the cards are
    shown after the opponent has played to the trick (S5)."""
    state = run_state()
    assert "roem:QS3" in state.legal_actions()
    play(state, "roem:QS3", "8C")
    theirs = view(state, 1)
    assert theirs.announced == ("3Q",)
    assert theirs.known == ((), ())
    assert "QS" not in theirs.to_json() and "JS" not in theirs.to_json()
    # Two states that differ only in where the run is (spades or hearts) give
    # seat 1 the same view: the information set holds the kind alone.
    twin = StockState.from_cards(
        SMOUS,
        ["QH JH TH 8C AS", "7H 9D KC 8D 7D"],
        "7C",
        ["KD", "QD", "8H", "9H", "TS"],
    )
    play(twin, "roem:QH3", "8C")
    assert view(twin, 1) == theirs
    assert view(twin, 0) != view(state, 0)
    assert view(state, 0).own_pending == ("roem:QS3",)
    play(state, "7H")
    v = view(state, 1)
    assert v.known[0] == ("TS", "JS", "QS")
    assert v.events[-1] == (0, "roem:QS3", ("TS", "JS", "QS"), 20)
    assert v.roem == (20, 0)


def test_carre_announced_without_its_rank() -> None:
    """000:462 "alleen maar 'carré' voor iedere willekeurige carré": the
    opponent hears "four", not which four, until the trick is complete (S5)."""
    hands = ["JC JD JH JS 8C", "QC QD QH 7S 7D"]
    state = StockState.from_cards(SMOUS, hands, "7H", ["AD", "KD", "9H"])
    play(state, "roem:JJJJ", "8C")
    theirs = view(state, 1)
    assert theirs.announced == ("four",)
    assert "JJJJ" not in theirs.to_json() and "JC" not in theirs.to_json()
    play(state, "7D")
    assert view(state, 1).events[-1] == (0, "roem:JJJJ", ("JC", "JD", "JH", "JS"), 200)


def test_sampler_keeps_announced_kind_and_shown_cards() -> None:
    """S15: the other's announced run is given cards of that kind; shown cards
    stay where they are shown."""
    state = run_state()
    play(state, "roem:QS3", "8C")
    sampler = SMOUS.sampler(view(state, 1))
    rng = random.Random(3)
    for _ in range(20):
        world = sampler.sample(rng)
        assert isinstance(world, StockState)
        assert world.view(1) == view(state, 1)
        (i,) = world._announced
        assert DECLS[i].kind == "3Q"
        assert world.hands[0] & DECLS[i].cards == DECLS[i].cards


def test_challenge_with_a_longer_run() -> None:
    """000:462: the opponent challenges with a higher declaration; his counts,
    the leader's stays hidden and may be declared again (S7, S8)."""
    state = StockState.from_cards(
        SMOUS,
        ["QS JS TS 8C AH", "KH QH JH TH 7D"],
        "7C",
        ["KD", "QD", "8H", "9H", "7H"],
    )
    play(state, "roem:QS3", "8C")
    assert "afkeuren:KH4" in state.legal_actions()
    assert "afkeuren:KH3" in state.legal_actions()  # 3 to the king > 3 to the queen
    assert "afkeuren:QH3" not in state.legal_actions()  # equal, not in trump
    play(state, "afkeuren:KH4", "7D")
    v = view(state, 1)
    assert v.roem == (0, 50)
    assert v.known == ((), ("TH", "JH", "QH", "KH"))
    assert (0, "afgekeurd:3Q", (), 0) in v.events
    # The challenged run comes back: seat 0 won the trick and leads again.
    assert view(state, 0).to_act == 0
    assert "roem:QS3" in state.legal_actions()


def test_exact_tie_goes_to_trump() -> None:
    """000:462: an exactly equal declaration wins only in trump (S7)."""
    state = StockState.from_cards(
        SMOUS,
        ["QS JS TS 8D AH", "QC JC TC 8H 7D"],
        "7C",
        ["KD", "QD", "AC", "9H", "7H"],
    )
    play(state, "roem:QS3", "8D")
    assert "afkeuren:QC3" in state.legal_actions()


def test_carre_challenged_only_when_surely_higher() -> None:
    """000:462: "carré" names no rank, so four queens challenge only when no
    higher carré is possible for the leader: the aces and kings seen (S7)."""
    hands = ["JC JD JH JS 8C", "QC QD QH QS 7D"]
    state = StockState.from_cards(SMOUS, hands, "7H", ["AD", "KD", "9H"])
    play(state, "roem:JJJJ", "8C")
    assert not any(a.startswith("afkeuren") for a in state.legal_actions())
    hands = ["JC JD JH JS 8C 7D", "QC QD QH QS AS KS"]
    state = StockState.from_cards(SMOUS, hands, "7H", ["AD", "KD", "9H"])
    play(state, "roem:JJJJ", "8C")
    # Seat 1 holds an ace and a king: the leader's carré is below the queens.
    assert "afkeuren:QQQQ" in state.legal_actions()
    play(state, "afkeuren:QQQQ", "QC")
    assert view(state, 0).roem == (0, 100)


def test_run_of_five_beats_a_carre_and_scores() -> None:
    """000:453-458: more cards beat fewer: a run of 5 beats any carré; a run of
    5 to the ace is 120, of 5 or more 100 (a longer run to the ace 120: S6)."""
    hands = ["8C 8D 8H 8S 7C", "AD KD QD JD TD"]
    state = StockState.from_cards(SMOUS, hands, "7H", ["AS", "KS", "9H"])
    play(state, "roem:8888", "7C")
    legal = state.legal_actions()
    assert "afkeuren:AD5" in legal and "afkeuren:KD3" not in legal
    # Seat 1 sees every ace down to ten in its own hand: the carré is 9s or
    # lower, so a run of 4 to the ace surely beats it too (S7).
    assert "afkeuren:AD4" in legal
    points = {d.code: p for d, p in zip(DECLS, SMOUSJAS.points, strict=True)}
    assert points["AH5"] == 120 and points["KH5"] == 100 and points["AH6"] == 120
    assert points["KH7"] == 100 and points["QH4"] == 50 and points["QH3"] == 20
    assert points["JJJJ"] == 200 and points["9999"] == 140 and points["7777"] == 100


def test_vijfhonderden_fours() -> None:
    """000:402-403: four jacks 200; four aces, kings, tens or queens 100; no
    other four counts (V1)."""
    points = {d.code: p for d, p in zip(DECLS, VIJFHONDERDEN.points, strict=True)}
    assert points["JJJJ"] == 200 and points["AAAA"] == 100 and points["TTTT"] == 100
    assert points["9999"] == 0 and points["8888"] == 0


def test_omhoog_roemen() -> None:
    """000:470: no lower run later in the same suit; a longer or higher one may
    be declared; several kinds at once, but one run a suit (S8)."""
    state = StockState.from_cards(
        SMOUS,
        ["KS QS JS TS 9S 8C", "7H 9D KC 8D 7D 8H"],
        "7C",
        ["KD", "QD", "9H", "AH", "7S", "9C", "8S"],
    )
    legal = state.legal_actions()
    assert {"roem:QS3", "roem:KS4", "roem:KS5"} <= set(legal)
    play(state, "roem:QS3")
    assert not any(
        a.startswith("roem:") and "S" in a[5:7] for a in state.legal_actions()
    )
    play(state, "8C", "7H")
    legal = state.legal_actions()
    assert "roem:JS3" not in legal and "roem:QS3" not in legal
    assert "roem:QS4" in legal and "roem:KS3" in legal


# -- mariages ----------------------------------------------------------------------


def test_smousjas_mariages() -> None:
    """000:464-468: stuk 40, dubbel 40, brok 20, by either player when playing a
    card, never challenged; shown at the end of the trick (S10)."""
    state = StockState.from_cards(
        SMOUS,
        ["KC QC QD QS KH 8C", "7H 9D 8D 7D 8H 9H"],
        "7C",
        ["KD", "JD", "9C", "AH", "7S", "9S", "8S"],
    )
    legal = state.legal_actions()
    assert {"stuk", "dubbel", "brok:KHQC", "brok:KHQS", "brok:KCQD"} <= set(legal)
    play(state, "stuk", "dubbel", "brok:KHQS")
    assert view(state, 1).mariages == ((0, "stuk"), (0, "dubbel"), (0, "brok"))
    assert view(state, 1).known == ((), ())
    play(state, "8C", "7H")
    v = view(state, 1)
    assert v.roem == (100, 0)
    assert set(v.known[0]) == {"KC", "QC", "QD", "QS", "KH"}
    assert "stuk" not in state.legal_actions()
    assert "brok:KHQC" not in state.legal_actions()  # KH served in a brok (S10)


def test_dubbel_needs_no_king() -> None:
    """000:466: "Dubbel; Ruiten vrouw & schoppen vrouw": the dubbel is two
    queens, so it is offered to a hand without a king (issue 28 item 3; S10)."""
    state = StockState.from_cards(
        SMOUS, ["QD QS 9H 7C", "8D 9D TD 7H"], "8H", ["7D", "JD", "AD"]
    )
    assert "dubbel" in state.legal_actions()
    play(state, "dubbel", "9H", "8D")
    assert view(state, 1).roem == (40, 0)
    assert set(view(state, 1).known[0]) == {"QD", "QS"}


def test_vijfhonderden_only_stuk() -> None:
    """000:412: Vijfhonderden knows only the stuk, 20."""
    state = StockState.from_cards(
        VIJF,
        ["KC QC QD QS KH 8C", "7H 9D 8D 7D 8H 9H"],
        "7C",
        ["KD", "JD", "9C", "AH", "7S", "9S", "8S"],
    )
    extras = [a for a in state.legal_actions() if a not in PIQUET.index]
    assert extras == ["stuk"]
    play(state, "stuk", "8C", "7H")
    assert view(state, 0).roem == (20, 0)


# -- phase 2 -----------------------------------------------------------------------


def test_phase_two_duties_and_declarations_only_in_its_first_trick() -> None:
    """000:476: follow suit, else trump; trump led: over-trump if possible,
    else a lower trump; declarations only in phase 2's first trick (S9)."""
    state = StockState.from_cards(SMOUS, ["9S 8H QD JD TD", "JS TS 8D 7H AC"], "7S")
    assert "roem:QD3" in state.legal_actions()
    play(state, "9S")
    assert state.legal_actions() == ("JS",)
    play(state, "JS")
    play(state, "AC")  # seat 1 leads clubs: seat 0 has none, no trump: any card
    assert set(state.legal_actions()) == {"8H", "QD", "JD", "TD"}
    play(state, "8H")
    assert not any(a.startswith("roem:") for a in state.legal_actions())


def test_sampled_worlds_know_phase_two_first_trick_of_a_short_example() -> None:
    """S9, S15: a world allows the extra moves in the trick its view does. A
    worked example is shorter than a deal, so the trick phase 2 starts at is
    read from the view (the draws left, or trick 0 when the hand starts in
    phase 2), not from the full deal's 8: a world of this position refused
    the ``roem:AD3`` its view offers (issue 35)."""
    state = StockState.from_cards(SMOUS, ["AD KD QD TC 7H", "8C 9C 8H 9H JS"], "7S")
    short = StockState.from_cards(
        SMOUS, ["AD KD QD TC 7H", "8C 9C 8H 9H JS"], "7S", ["AC", "KC", "QC"]
    )
    rng = random.Random(2)
    for position in (state, short):
        v = view(position, 0)
        world = SMOUS.sampler(v).sample(rng)
        assert isinstance(world, StockState)
        assert world.view(0) == v
        assert world._phase2_from == position._phase2_from


def test_sampler_knows_every_card_in_phase_two() -> None:
    """000:476: "De oplettende speler weet exact welke kaarten de tegenstander
    op handen heeft": every sample gives the other hand exactly (S15)."""
    state = SMOUS.new_match(2, 11)
    rng = random.Random(1)
    while view(state, 0).phase != "final":
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act
    assert seat is not None
    sampler = SMOUS.sampler(view(state, seat))
    for _ in range(5):
        world = sampler.sample(rng)
        assert isinstance(world, StockState) and world.hands == state.hands


def test_from_cards_refuses_a_position_no_deal_makes() -> None:
    """S2: pairs are drawn until the last hidden card is shared against the open
    card, so the hidden stock is odd (15 in Smousjas's deal, 000:440; 13 in
    Vijfhonderden's, 000:389). An even one (the stock-jass bot test's old
    position, six hidden cards) left the last draw nothing to take, and search
    bots played into ``IndexError: pop from empty list`` (issue 35). Both hands
    hold the same number of cards at a hand's first card."""
    with pytest.raises(ValueError, match=r"a stock of 6 hidden cards; it must be odd"):
        StockState.from_cards(
            SMOUS,
            ["QS JS TS 8C AH", "KH QH JH TH 7D"],
            "7C",
            ["KD", "QD", "8H", "9H", "7H", "9D"],
        )
    with pytest.raises(ValueError, match=r"hands of \[4, 3\] cards"):
        StockState.from_cards(SMOUS, ["QD QS 9H 7C", "8D 9D TD"], "8H", ["7D"])


def playout(world: StockState, rng: random.Random) -> None:
    """Random legal moves to the end of the world's hand (every draw made)."""
    deal = world.deal
    while world.to_act is not None and world.deal == deal:
        world.apply(rng.choice(world.legal_actions()))


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from([Smousjas.for_checks(), Vijfhonderden.for_checks()]),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_every_world_has_the_sizes_its_view_implies(
    game: Smousjas, seed: int, data: st.DataObject
) -> None:
    """S15 over random hands: at every decision, a world sampled for either
    seat holds the stock and hands the view counts, and plays out to the end
    of its hand; a real match never gives the sampler an impossible stock."""
    state = game.new_match(2, seed)
    rng = random.Random(seed)
    while state.deal == 0 and state.to_act is not None:
        for seat in (0, 1):
            v = view(state, seat)
            world = game.sampler(v).sample(rng)
            assert isinstance(world, StockState)
            assert len(world._stock) == v.stock == len(state._stock)
            assert tuple(h.bit_count() for h in world.hands) == v.hand_sizes
            assert world.view(seat) == v
            playout(world, rng)
        legal = state.legal_actions()
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])


# -- scoring -----------------------------------------------------------------------


def test_onder_jan_and_the_kip() -> None:
    """000:480: the loser under 250 is onder Jan and loses two lives; the first
    to run out gets one more life on the kip, only once (S13)."""
    state = SMOUS.new_match(2, 1)
    state._totals = [510, 240]
    state._end_round(0, "500")
    assert state._lives == [3, 1] and state._rounds[-1] == (0, 2, "500")
    state._totals = [510, 300]
    state._end_round(0, "500")
    assert state._lives == [3, 1] and state._kip == 1  # 0, back to 1 on the kip
    state._totals = [510, 300]
    state._end_round(0, "500")
    assert state.is_over() and state.result().ranks == (1, 2)


def test_kip_worthless_when_onder_jan_at_one() -> None:
    """000:480: a loser on 1 who is onder Jan goes down 2: the kip is worthless."""
    state = Smousjas(lives=1).new_match(2, 1)
    state._totals = [520, 100]
    state._end_round(0, "500")
    assert state.is_over()


def test_kip_not_given_to_a_player_it_cannot_save() -> None:
    """000:480: the kip "die waardeloos is als een verliezende speler op 1 staat
    en 'onder Jan' is, en dus 2 punten naar beneden gaat": the loser goes to -1,
    is out, and is not the seat that got the kip's extra life (S13, issue 28
    item 10): the view's ``kip`` stays None, its ``lives`` show him out at 0."""
    state = StockState.from_cards(
        Smousjas(lives=1), ["AH", "7H"], "7S", totals=(490, 100)
    )
    play(state, "AH", "7H")  # 490 + 21: seat 0 wins; seat 1 on 100 is onder Jan
    v = view(state, 1)
    assert v.rounds == ((0, 2, "500"),)
    assert (v.kip, v.lives) == (None, (1, 0))
    assert state.is_over() and state.result().ranks == (1, 2)


def test_tie_above_the_target_replays_the_hand() -> None:
    """000:480 "Bij gelijkspel moet de hand opnieuw worden gespeeld" (S12)."""
    state = StockState.from_cards(SMOUS, ["AH", "7H"], "7S", totals=(480, 501))
    play(state, "AH", "7H")  # 11 and the last trick's 10: 501-501
    assert state._hand_scores == ((21, 0),)
    assert state._totals == [480, 501] and state._rounds == ()
    assert state.deal == 1


def test_uit_with_stuk_at_480() -> None:
    """000:482: a player on 480 or more who declares stuk wins at once (S14)."""
    state = StockState.from_cards(
        SMOUS, ["KS QS 8C", "7H 9D 8D"], "7S", ["AH"], totals=(480, 200)
    )
    play(state, "stuk")
    assert state._rounds == ((0, 2, "uit"),)
    assert state._lives == [3, 1]


def test_illegal_extra_move() -> None:
    state = run_state()
    with pytest.raises(IllegalActionError):
        state.apply("stuk")


def test_draw_choice_is_blind() -> None:
    """S2: the winner chooses before the last hidden card is shown: nothing of
    it is in either view until it is taken."""
    state = StockState.from_cards(SMOUS, ["AH 8C", "7H 9D"], "JS", ["KC"])
    play(state, "AH", "7H")
    for seat in (0, 1):
        v = view(state, seat)
        assert "KC" not in v.to_json() and v.stock == 1


def test_hand_score_worked_example() -> None:
    """S11, 000:480: card points, roem and the last trick's 10. Spades trump;
    seat 0 declares stuk (40) in phase 2's first trick and takes every trick:
    AH 7H 11, KS TS 14, QS 8H 3 + 10: 78."""
    state = StockState.from_cards(SMOUS, ["KS QS AH", "7H 8H TS"], "7S")
    play(state, "stuk", "AH", "7H", "KS")
    assert state.legal_actions() == ("TS",)
    play(state, "TS", "QS", "8H")
    assert state._hand_scores == ((78, 0),)


def test_perfect_recall_and_alternating_dealer() -> None:
    """S16: every finished trick of the hand stays in the view; S1: the deal
    alternates."""
    state = SMOUS.new_match(2, 4)
    rng = random.Random(2)
    deal = state.deal
    while state.deal == deal:
        before = len(state._tricks)
        state.apply(rng.choice(state.legal_actions()))
        if state.deal == deal:
            assert len(view(state, 1).tricks) >= before
    assert view(state, 0).dealer == 0 and view(state, 0).to_act in (0, 1)


def test_one_card_in_a_carre_and_a_run_at_once() -> None:
    """000:470 "Een kaart mag onderdeel zijn van meerdere soorten roem bij
    gelijktijdig declareren": the QS counts in four queens and in a run (S8)."""
    state = StockState.from_cards(
        SMOUS,
        ["QC QD QH QS JS TS", "7H 9D 8D 7D 8H 9H"],
        "7C",
        ["KD", "JD", "9C", "AH", "7S", "9S", "8S"],
    )
    play(state, "roem:QQQQ", "roem:QS3")
    assert "roem:JS3" not in state.legal_actions()  # one run a suit per trick
    play(state, "TS", "7H")
    assert view(state, 1).roem == (120, 0)


def test_sampler_fits_several_announcements_into_the_hand() -> None:
    """S15: three runs announced at once get three different suits, and no more
    unseen cards than the hand can hold (its card in the trick may be one)."""
    state = StockState.from_cards(
        VIJF,
        ["QS JS TS QH JH TH QD JD TD", "7H 9D 8D 7D 8H 9H 7C 8C 9C"],
        "7S",
        ["KD", "AD", "AC"],
    )
    play(state, "roem:QS3", "roem:QH3", "roem:QD3", "TS")
    theirs = view(state, 1)
    assert theirs.announced == ("3Q", "3Q", "3Q")
    sampler = VIJF.sampler(theirs)
    rng = random.Random(5)
    for _ in range(30):
        world = sampler.sample(rng)
        assert isinstance(world, StockState)
        assert world.view(1) == theirs
        suits = {DECLS[i].suit for i in world._announced}
        assert len(suits) == 3 and 3 in suits  # spades: the TS led is one
