"""Worked examples of Rubicon Bezique, each citing the rule text or a RULES.md ruling.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt from line 40 (cited as
"seed 000 line N"); rulings: games/bezique/RULES.md (RU1, RU2, ...). Positions
are built with ``RubiconState.from_cards`` in deal 0: seat 1 deals, seat 0
leads. The stock is given in drawing order (no card is turned); cards not named
are out of the example.
"""

from __future__ import annotations

import random

import pytest

from games.bezique import Rubicon, troef_games
from games.bezique.rubicon import (
    RubiconState,
    _distinct_names,
    _names,
    declarable,
    rubicon_kinds,
)
from games.cards import RUBICON
from harness import IllegalActionError, InvalidActionError, OptionError
from tests.games.bezique.playing import play

GAME = Rubicon()
QUEEN = Rubicon(variant="trump-queen")

# Nine low cards of diamonds and spades: a hand that wins nothing that clubs or
# hearts lead before trump is set, and holds no combination.
LOW = "7D 8D 9D 7S 8S 9S 7D 8D 9D"


def position(seat0: str, seat1: str, stock: str, game: Rubicon = GAME) -> RubiconState:
    state = RubiconState.from_cards(game, [seat0, seat1], stock.split())
    assert isinstance(state, RubiconState)
    # from_cards takes each hand's copies alone: keep the hands' faces apart.
    assert not state.hands[0] & state.hands[1]
    return state


def test_plugin_registers_rubicon() -> None:
    assert Rubicon in troef_games()


def test_bad_options_and_actions_are_named() -> None:
    with pytest.raises(OptionError, match="variant"):
        Rubicon(variant="hartendame")
    state = GAME.new_match(2, 1)
    with pytest.raises(InvalidActionError, match="rubicon action"):
        state.apply("meld:sevens")
    with pytest.raises(IllegalActionError, match="may not"):
        state.apply("meld:carte-blanche")
    with pytest.raises(InvalidActionError, match="rubicon action"):
        state.apply("dix")  # line 85: no dix in Rubicon


def test_a_new_match_deals_nine_each_and_turns_no_trump() -> None:
    """Seed 000 lines 44-49, RU2: 128 cards, nine each, no card turned; the
    non-dealer leads (line 55)."""
    state = GAME.new_match(2, 3)
    view = state.view(0)
    assert len(state.deck()) == 128
    assert view.hand_sizes == (9, 9) and view.stock == 110
    assert view.trump is None and view.turned is None
    assert view.to_act == 0 and view.dealer == 1 and view.phase == "stock"
    assert len(view.legal_actions) == len(set(view.hand))


def test_without_trump_the_suit_led_wins_and_cards_score_nothing() -> None:
    """Line 53 (RU3): no trump before the first marias, so the highest card of
    the suit led wins; line 59 (RU9): aces and tens won score nothing."""
    state = position("8C AC TC 7C 9C 7H 8H 9H JC", "AH " + LOW[3:], "7C 8C 7C 8C")
    play(state, "8C AH")
    view = state.view(0)
    assert view.tricks[-1][2] == 0  # an ace of hearts does not trump clubs
    assert view.points == (0, 0)
    play(state, "AC 7D")
    assert state.view(0).points == (0, 0)


def test_the_first_marias_sets_trump_and_is_not_a_stuk_again() -> None:
    """Line 53, RU3: the first marias declared (20, line 72) makes its suit
    trump; its K Q count as the stuk already declared, so they score no stuk;
    from the next trick hearts trump."""
    state = position("KH QH 9C 7H 7C 8C 9C 8H 9H", LOW, "7C 8C 7C 8C")
    play(state, "9C 7D")
    assert state.legal_actions() == (
        "meld:marias:H",
        "pass",
    )
    play(state, "meld:marias:H")
    view = state.view(1)
    assert view.trump == "H" and view.points == (20, 0)
    assert dict(view.shown[0]) == {
        "KH": ("stuk", "marias:H"),
        "QH": ("stuk", "marias:H"),
    }
    assert view.phase == "stock"  # nothing more: no stuk with the same pair


def test_after_trump_a_trump_beats_an_ace() -> None:
    """RU3: once hearts is trump, the 7 of hearts takes a led ace of clubs."""
    state = position(
        "KH QH 9C 7H 7C 8C 9C 8H 9H",
        "AC 7D 8D 9D 7S 8S 9S 7D 8D",
        "8S 9S 7S 8S",
    )
    play(state, "9C 7D meld:marias:H")
    play(state, "7C AC")  # seat 0 led; seat 1's ace of clubs wins
    assert state.view(0).tricks[-1][2] == 1
    play(state, "pass")  # seat 1 holds no court card: it passes carte blanche
    play(state, "7D 7H")  # seat 1 leads a diamond, seat 0 trumps
    assert state.view(0).tricks[-1][2] == 0


def test_a_stuk_of_the_other_pair_and_the_five_trumps_reuse_the_open_cards() -> None:
    """Lines 64, 71, 84 and the re-use rule (line 61): with hearts trump, a
    second K Q of hearts is a stuk (40); then A 10 K Q J of hearts are the
    five trumps (250), re-using the open king and queen."""
    state = position("KH QH KH QH AH TH JH 9C 8C", LOW, "7C 8C 7C 8C")
    play(state, "9C 7D meld:marias:H")
    assert state.legal_actions() == ("meld:trumps", "meld:stuk", "pass")
    play(state, "meld:stuk meld:trumps")
    view = state.view(1)
    assert view.points == (20 + 40 + 250, 0)
    assert [m[1:] for m in view.melds] == [
        ("marias:H", ("KH", "QH"), 20),
        ("stuk", ("KH", "QH"), 40),
        ("trumps", ("AH", "TH", "KH", "QH", "JH"), 250),
    ]


def test_several_combinations_at_once() -> None:
    """Lines 61 and 82, RU6: after one trick, four aces (100) and four kings
    (80) one after the other, then pass, then both draw."""
    state = position("AC AD AH AS KC KD KH KS 9C", LOW, "7C 8C 7C 8C")
    play(state, "9C 7D")
    assert state.legal_actions() == ("meld:aces", "meld:kings", "pass")
    play(state, "meld:aces")
    assert state.legal_actions() == ("meld:kings", "pass")
    play(state, "meld:kings")
    view = state.view(0)
    assert view.points == (180, 0) and view.stock == 2 and view.phase == "stock"


def test_a_card_may_serve_twice_in_one_turn_only_upwards() -> None:
    """RU6 and the re-use rule (line 61): K of hearts in four kings (80) may not
    then marry (20) in the same turn, but a marias first, then the kings may."""
    hand = "KC KD KH KS QH 9C 7C 8C 7H"
    state = position(hand, LOW, "7C 8C 7C 8C")
    play(state, "9C 7D meld:kings")
    assert "meld:marias:H" not in state.legal_actions()
    state = position(hand, LOW, "7C 8C 7C 8C")
    play(state, "9C 7D meld:marias:H")  # hearts trump now: the kings remain
    assert state.legal_actions() == ("meld:kings", "pass")


def test_four_tens_and_the_five_highest_of_a_plain_suit() -> None:
    """Line 67: four tens 90 (tens form combinations in Rubicon, line 87);
    line 65: the five highest of a plain suit 150; before any trump every suit
    is plain, and such a declaration sets no trump (RU3)."""
    state = position("TC TD TH TS AC KC QC JC 9H", LOW, "7C 8C 7C 8C")
    play(state, "9H 7D")
    assert state.legal_actions() == (
        "meld:five:C",
        "meld:tens",
        "meld:marias:C",
        "pass",
    )
    play(state, "meld:tens meld:five:C")
    view = state.view(0)
    assert view.points == (240, 0) and view.trump is None


def test_bezique_double_triple_and_quadruple() -> None:
    """Lines 73-76, RU10: J♦ Q♠ 40; two of each 500, three 1500, four 4500; each
    a new combination (a card not yet in it), the re-use rule lets the open
    cards climb."""
    state = position("JD JD JD JD QS QS QS QS 9C", LOW, "7C 8C 7C 8C")
    play(state, "9C 7D")
    assert state.legal_actions() == (
        "meld:bezique",
        "meld:double-bezique",
        "meld:triple-bezique",
        "meld:quadruple-bezique",
        "pass",
    )
    play(state, "meld:bezique meld:double-bezique meld:triple-bezique")
    # The fourth J and Q, never declared, still make a bezique and a double.
    assert state.legal_actions()[-2:] == ("meld:quadruple-bezique", "pass")
    play(state, "meld:quadruple-bezique")
    assert state.view(0).points == (40 + 500 + 1500 + 4500, 0)
    # Cards in a double bezique (500) may not go back down to a bezique (40).
    state = position("JD JD QS QS KC 9C 7C 8C 7C", LOW, "7C 8C 7C 8C")
    play(state, "9C 7D meld:double-bezique")
    assert state.view(0).phase == "stock"


def test_a_played_combination_is_refilled_and_scores_again() -> None:
    """Line 84, RU8: four kings (80); a declared king is played; a new king of
    that suit, drawn, refills the four kings: 80 again in a later turn."""
    state = position(
        "KC KD KH KS 9C 7C 8C 7H 8H",
        "7D 8D 9D 7S 8S 9S 7D 8D 9D",
        "KC 7S 8S 9S",
    )
    play(state, "9C 7D meld:kings")
    assert "KC" in state.view(0).hand  # seat 0 drew the second KC
    play(state, "KC* 8D")  # the declared king goes (R11: the open copy)
    assert state.legal_actions() == ("meld:kings", "pass")
    play(state, "meld:kings")
    view = state.view(0)
    assert view.points == (160, 0)
    assert [m[1] for m in view.melds] == ["kings", "kings"]


def test_a_fifth_king_beside_four_open_kings_scores_them_again() -> None:
    """RU8: four kings declared; a fifth king, drawn, makes four kings
    with three of the open ones: a combination not yet declared, so 80 again,
    though no king was played."""
    state = position(
        "KC KD KH KS 9C 7C 8C 7H 8H",
        "7D 8D 9D 7S 8S 9S 7D 8D 9D",
        "KC 7S 8S 9S",
    )
    play(state, "9C 7D meld:kings")
    play(state, "7C 8D")  # no king played; seat 0 holds a fifth, the KC drawn
    assert state.legal_actions() == ("meld:kings", "pass")
    play(state, "meld:kings")
    assert state.view(0).points == (160, 0)


def test_carte_blanche_is_a_hand_without_court_cards() -> None:
    """Line 77, RU7: a hand without king, queen or jack is a carte blanche
    (50), declared after a trick won; its cards are then known to both. It
    scores again only with a card not in an earlier carte blanche."""
    state = position(
        "AC TC 9C 8C 7C AD TD 9D 8H",
        "7D 8D 7S 8S 9S 7D 8D 9S 7S",
        "7H 8S 9H 9H",
    )
    play(state, "8H 7D")
    assert state.legal_actions() == ("meld:carte-blanche", "pass")
    play(state, "meld:carte-blanche")
    view = state.view(1)
    assert view.points == (50, 0)
    assert sorted(c for c, _ in view.shown[0]) == sorted(
        "AC TC 9C 8C 7C AD TD 9D".split()
    )
    assert view.phase == "stock"  # nothing new to show in the same turn
    # Seat 0 drew the 7 of hearts: after the next trick won, again 50.
    play(state, "AC* 7D")  # R11: the AC lies open
    assert state.legal_actions() == ("meld:carte-blanche", "pass")
    # A court card in the hand: no carte blanche.
    state = position("AC TC 9C 8C 7C AD TD 9H JH", LOW, "7H 8S 9H 9H")
    play(state, "AC 7D")
    assert "meld:carte-blanche" not in state.legal_actions()


def test_the_last_stock_card_is_hidden_and_nine_tricks_follow() -> None:
    """Line 79's "always the turned trump or trump 7" cannot hold (no card is
    turned, line 49; no dix, line 85): RU4, the last card is an ordinary one,
    hidden from the other player. Its "last eight tricks": RU5, nine, with
    follow suit and beat; no melds after the last draw; the last trick 50."""
    state = position(
        "AC TC 9C 8C 7C AD TD 9D JH",
        "7D 8D 7S 8S 9S 7D 8D 9S JC",
        "KH QH",
    )
    play(state, "9C 8D")
    view = state.view(1)
    assert view.phase == "final" and view.stock == 0 and view.trump is None
    assert view.shown == ((), ())  # the last card drawn is nobody's business
    assert "QH" in view.hand and "KH" in state.view(0).hand
    assert view.hand_sizes == (9, 9)
    play(state, "JH")
    assert state.legal_actions() == ("QH",)  # follow suit and beat the jack
    play(state, "QH")
    assert state.view(0).tricks[-1][2] == 1
    assert len(state.view(0).tricks) == 2  # nine tricks to play from the last draw


def test_without_any_trump_a_void_hand_plays_any_card() -> None:
    """RU5: no marias was declared, so no suit is trump in the last tricks: a
    hand that cannot follow may play any card."""
    state = position("AC TC 9C 8C 7C AD TD 9H JH", LOW, "7S 8S")
    play(state, "9C 7D")
    assert state.view(0).phase == "final"
    play(state, "AC")
    assert set(state.legal_actions()) == {"7D", "8D", "9D", "7S", "8S", "9S"}


def test_the_last_trick_scores_50_and_the_deal_ends() -> None:
    """Line 79, RU9: the last trick of the deal scores 50, and nothing else
    per trick."""
    state = position("AC", "7D", "")
    deals = state.deal
    play(state, "AC 7D")
    assert state.deal == deals + 1 or state.is_over()
    assert state._deal_scores[-1] == (50, 0)


def test_trump_queen_bezique_sets_trump_in_the_variant() -> None:
    """Line 91, RU11: in the variant the bezique is the trump queen with the jack of
    its paired suit (diamonds-spades, clubs-hearts); without trump yet, the
    queen's suit becomes trump."""
    state = position("QH JC QS JD 9C 7C 8C 7H 8H", LOW, "7C 8C 7C 8C", QUEEN)
    play(state, "9C 7D")
    assert state.legal_actions() == (
        "meld:bezique:H",
        "meld:bezique:S",
        "pass",
    )
    play(state, "meld:bezique:H")
    view = state.view(0)
    assert view.trump == "H" and view.points == (40, 0)
    # Q♠ J♦ is no bezique now that hearts is trump.
    assert view.phase == "stock"


def test_the_table_names_every_kind_and_each_trump_declares_its_own() -> None:
    """Lines 64-77: the values of the table."""
    table = {k.name: k.value for k in rubicon_kinds(2, False)}
    assert table["trumps"] == 250 and table["five:C"] == 150
    assert (table["aces"], table["tens"], table["kings"]) == (100, 90, 80)
    assert (table["queens"], table["jacks"], table["stuk"]) == (60, 40, 40)
    assert table["marias:C"] == 20 and table["bezique"] == 40
    assert table["double-bezique"] == 500 and table["triple-bezique"] == 1500
    assert table["quadruple-bezique"] == 4500 and table["carte-blanche"] == 50
    names = {k.name for k in declarable(rubicon_kinds(2, False), 2)}
    assert "marias:H" not in names and "five:H" not in names
    assert "stuk" in names and "marias:S" in names
    assert not any(
        k.name in ("trumps", "stuk") for k in declarable(rubicon_kinds(-1, False), -1)
    )


def test_sampled_worlds_keep_the_open_cards_and_the_trump() -> None:
    """The family's sampler (R9) on Rubicon: open cards with their histories,
    the trump set mid-deal, the hidden cards over hand and stock."""
    rng = random.Random(2)
    checked = 0
    for seed in range(6):
        state = GAME.new_match(2, seed)
        while state.deal == 0 and not state.is_over():
            seat = state.to_act
            assert seat is not None
            legal = state.legal_actions()
            melds = [a for a in legal if a.startswith("meld:")]
            state.apply(melds[0] if melds else rng.choice(legal))
            if state.view(0).trump is not None and state.view(0).shown[0]:
                view = state.view(1)
                world = GAME.sample_state(view, rng)
                assert world.view(1) == view
                checked += 1
    assert checked > 20


def test_the_match_ends_after_the_deal_that_reaches_the_target() -> None:
    """RU1 (R1): the text sets no end; the match ends after the deal in which a
    seat reaches the target (default 1000), and the higher total wins."""
    assert GAME.options["target"] == 1000
    game = Rubicon(target=150)
    rng = random.Random(5)
    state = game.new_match(2, 4)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    totals = [0, 0]
    scores = state._deal_scores
    for a, b in scores[:-1]:
        totals = [totals[0] + a, totals[1] + b]
        assert max(totals) < 150
    assert max(state.result().scores) >= 150
    assert state.result().scores == tuple(map(sum, zip(*scores, strict=True)))


def test_the_byte_namers_agree_with_the_deck() -> None:
    """The view's and the legal actions' namers are the deck's, faster."""
    rng = random.Random(7)
    for _ in range(200):
        mask = sum(1 << c for c in rng.sample(range(128), rng.randrange(0, 40)))
        assert _names(mask) == RUBICON.names(mask)
        assert _distinct_names(mask) == tuple(dict.fromkeys(RUBICON.names(mask)))


def test_four_queens_four_jacks_and_a_bezique_in_the_right_order() -> None:
    """Lines 69-70, 73 and the re-use rule (line 61): four queens 60, four
    jacks 40, J♦ Q♠ 40. Jacks, then the bezique, then the queens scores all
    three (each card climbs or stays); the queens first would bar the Q♠ from
    the cheaper bezique."""
    hand = "QC QD QH QS JC JD JH JS 9C"
    state = position(hand, LOW, "7C 8C 7C 8C")
    play(state, "9C 7D")
    assert state.legal_actions() == (
        "meld:queens",
        "meld:jacks",
        "meld:bezique",
        "pass",
    )
    play(state, "meld:jacks meld:bezique meld:queens")
    assert state.view(0).points == (140, 0)
    state = position(hand, LOW, "7C 8C 7C 8C")
    play(state, "9C 7D meld:queens")
    assert state.legal_actions() == ("meld:jacks", "pass")
