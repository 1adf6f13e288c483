"""Worked examples of Bezique, each citing the rule text or a RULES.md ruling.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt from line 93 (cited as
"seed 000 line N"); rulings: games/bezique/RULES.md (R1, R2, ...). Positions are
built with ``BeziqueState.from_cards`` in deal 0: seat 1 deals, seat 0 leads.
The stock is given in drawing order, its last card the turned one; cards not
named are out of the example.
"""

from __future__ import annotations

import random

import pytest

from games.bezique import Bezique, troef_games
from games.bezique.bezique import BeziqueState
from harness import IllegalActionError, InvalidActionError, OptionError
from tests.games.bezique.playing import play

GAME = Bezique()


def position(seat0: str, seat1: str, stock: str, game: Bezique = GAME) -> BeziqueState:
    return BeziqueState.from_cards(game, [seat0, seat1], stock.split())


def shown(state: BeziqueState, seat: int) -> dict[str, tuple[str, ...]]:
    return dict(state.view(0).shown[seat])


# A stock-phase hand of seat 1 that follows no suit of seat 0's leads below,
# holds no trump of hearts or diamonds and no combination.
SPADES = "7S 8S 9S 7S 8S 9S JS JS"


def test_plugin_registers_bezique() -> None:
    assert Bezique in troef_games()


def test_bad_options_and_actions_are_named() -> None:
    with pytest.raises(OptionError, match="variant"):
        Bezique(variant="rubicon")
    state = GAME.new_match(2, 1)
    with pytest.raises(InvalidActionError, match="bezique action"):
        state.apply("meld:tens")
    with pytest.raises(IllegalActionError, match="may not"):
        state.apply("meld:aces")


def test_brisques_score_at_once_and_the_loser_takes_the_turned_card() -> None:
    """Seed 000 line 109: each ace and ten won scores 10 at once. Line 127 and
    R8: the last card drawn is the turned one, it goes to the trick's loser and
    stays known; then the final phase begins."""
    state = position("AH 7C 8C 9C JC 8D 9D 8S", "7H 9S JS 7D JD TD KH 8H", "9H TS")
    play(state, "AH 7H")
    view = state.view(0)
    assert view.points == (10, 0)
    assert view.phase == "final" and view.turned is None and view.stock == 0
    assert view.shown[1] == (("TS", ()),)
    assert "TS" in state.view(1).hand and "9H" in view.hand


def test_final_phase_follow_and_beat_in_every_suit_else_trump() -> None:
    """Seed 000 line 127: in the last tricks the second player follows suit and
    beats the led card if possible, not only in trump; void, must trump."""
    state = play(
        position("AH 7C 8C 9C JC 8D 9D 8S", "7H 9S JS 7D JD TD KH 8H", "9H TS"),
        "AH 7H",
    )
    play(state, "8D")
    assert state.legal_actions() == ("TD", "JD")  # 7D is lower: not allowed
    state = play(
        position("AH 7C 8C 9C JC 8D 9D 8S", "7H 9S JS 7D JD TD KH 8H", "9H TS"),
        "AH 7H",
    )
    play(state, "9C")  # spades trump; seat 1 has no club
    # R11: the TS taken with the last draw lies open: it is TS*.
    assert state.legal_actions() == ("9S", "TS*", "JS")


def test_a_trump_7_scores_10_for_its_player_even_when_it_loses() -> None:
    """Seed 000 line 109 and R7: playing a trump 7 scores 10 for its player."""
    state = position("AS 7C 8C 9C JC 8D 9D 8H", "7S 9H JH 7D JD TD KH 8S", "9H TS")
    play(state, "AS 7S")
    assert state.view(0).points == (10, 10)


def test_equal_cards_the_first_played_wins() -> None:
    """R10: an equal card does not beat the one led. The two AH are the
    pack's two copies (issue 28: both hands once got the same one), so the won
    pile holds both."""
    state = position("AH 7C 8C 9C JC 8D 9D 8S", "AH 9S JS 7D JD TD KH 8H", "9H TS")
    play(state, "AH AH")
    assert state.view(0).tricks[0][2] == 0
    assert state.view(0).points == (20, 0)
    assert state.card_locations()["won:0"] == ("AH", "AH")


def test_bezique_then_a_second_bezique_then_double_bezique() -> None:
    """Seed 000 lines 111, 121-122; R4: one combination per trick won; a
    declared card stays playable; the second J-diamonds with the second
    Q-spades is a new bezique; both may then join a double bezique (500 >= 40),
    after which no bezique is possible (line 111: not in a lower one)."""
    state = position(
        "JD JD QS QS AC 7C 8C 9C",
        "7D 8D 9D 7D 8D 9D JS JS",
        "7S 8S 7S 8S 9S 9H",
    )
    play(state, "AC 7D")
    assert state.legal_actions() == ("meld:bezique", "meld:double-bezique", "pass")
    play(state, "meld:bezique")
    assert shown(state, 0) == {"JD": ("bezique",), "QS": ("bezique",)}
    assert "QS" in state.legal_actions()  # the declared cards are playable
    play(state, "9C 8D")
    assert state.legal_actions() == ("meld:bezique", "meld:double-bezique", "pass")
    play(state, "meld:double-bezique")
    assert state.view(0).points == (10 + 40 + 500, 0)
    assert state.view(0).shown[0] == (
        ("JD", ("bezique", "double-bezique")),
        ("JD", ("double-bezique",)),
        ("QS", ("bezique", "double-bezique")),
        ("QS", ("double-bezique",)),
    )
    play(state, "8C 9D")
    assert state.view(0).phase == "final"  # nothing to declare: no decision
    assert "pass" not in state.legal_actions()


def test_double_bezique_at_once_scores_500() -> None:
    """Seed 000 line 122: both jacks of diamonds and both queens of spades, 500."""
    state = position("JD JD QS QS AC 7C 8C 9C", "7D 8D 9D 7D 8D 9D JS JS", "7S 9H")
    play(state, "AC 7D meld:double-bezique")
    assert state.view(0).points == (510, 0)
    assert state.view(0).melds == (
        (0, "double-bezique", ("JD", "JD", "QS", "QS"), 500),
    )


def test_marias_then_four_kings_but_not_marias_again() -> None:
    """Seed 000 lines 111, 116, 120; R5: a king of a marias (20) may join four
    kings (80); after that it may not join a marias (20 < 80)."""
    state = position(
        "KH QH KC KD KS AC AC 8C",
        "7S 8S 9S 7S 8S 9S 7H 8H",
        "JS JS 9H 9H TH 9D",
    )
    play(state, "AC 7S")
    assert "meld:marias:H" in state.legal_actions()
    play(state, "meld:marias:H AC 8S")
    assert "meld:kings" in state.legal_actions()
    play(state, "meld:kings")
    assert shown(state, 0)["KH"] == ("kings", "marias:H")
    play(state, "8C 9S")  # seat 0 wins again
    assert "meld:marias:H" not in state.legal_actions()
    assert state.view(0).points == (20 + 20 + 80, 0)


def test_the_same_marias_once_and_a_second_needs_both_cards_new() -> None:
    """Seed 000 lines 111, 84 and R4: the same combination scores once; a card
    declared in a marias of hearts never joins another one (refilling is
    Rubicon's, line 84), so a second king of hearts with the open queen is no
    marias; with the second queen too it is a new one."""
    other = "7S 8S 9S 7S 8S 9S 7H 8H"
    state = position("KH QH AC AC 8C 7C 9C JC", other, "JS JS TD 9D")
    play(state, "AC 7S meld:marias:H AC 8S")
    assert "meld:marias:H" not in state.legal_actions()
    state = position("KH QH KH AC AC 8C 7C 9C", other, "JS JS TD 9D")
    play(state, "AC 7S meld:marias:H AC 8S")
    assert "meld:marias:H" not in state.legal_actions()
    state = position("KH QH KH QH AC AC 8C 7C", other, "JS JS TD 9D")
    play(state, "AC 7S meld:marias:H AC 8S")
    assert "meld:marias:H" in state.legal_actions()
    play(state, "meld:marias:H")
    assert state.view(0).melds[1] == (0, "marias:H", ("KH", "QH"), 20)
    assert [card for card, _ in state.view(0).shown[0]] == ["QH", "QH", "KH", "KH"]
    assert state.view(0).points == (20 + 20 + 20, 0)


def test_a_broken_combination_is_not_completed_again() -> None:
    """Seed 000 line 84 names, among Rubicon's differences from Bezique, that
    after a declared card is played the same combination may be completed and
    scored again: so in Bezique it may not (R4; issue 28's position). Four
    kings declared; the open KS played; the other KS, drawn, with the three
    open kings is not four kings again."""
    state = position(
        "KC KD KH KS 9C 8C 7D 8D", "7C TD 9D 8H 7S 9S JC QC", "KS AC 8S AD JH 9H"
    )
    play(state, "9C 7C meld:kings")
    assert state.view(0).hand.count("KS") == 2  # the drawn copy and the open one
    play(state, "KS* 7S")
    assert state.to_act == 0
    assert "meld:kings" not in state.legal_actions()
    assert state.view(0).points == (80, 0)


def test_stuk_then_five_trumps_reuses_the_open_king_and_queen() -> None:
    """Seed 000 lines 114, 119; R5: stuk (40) then the five highest trumps (250)
    with the open K Q; the other way round the stuk is refused (40 < 250)."""
    hands = ("KH QH AH TH JH AC 7C 8C", SPADES, "9D 9D 8D 8D 9H")
    state = position(hands[0], hands[1], "9D 9D 8D 9H")
    play(state, "AC 7S")
    assert {"meld:stuk", "meld:trumps"} <= set(state.legal_actions())
    play(state, "meld:stuk 7C 8S meld:trumps")
    assert state.view(0).melds[1] == (0, "trumps", ("AH", "TH", "KH", "QH", "JH"), 250)
    assert state.view(0).points == (10 + 40 + 250, 0)
    state = position(hands[0], hands[1], "9D 9D 8D 9H")
    play(state, "AC 7S meld:trumps 7C 8S")
    assert "meld:stuk" not in state.legal_actions()


def test_four_of_a_kind_values_and_no_four_tens() -> None:
    """Seed 000 lines 115-118 and 131: aces 100, queens 60, jacks 40 (kings 80
    in the marias test); four tens never."""
    other = "7C 8C 9C 7D 8D 9D 7H 8H"
    state = position("AC AD AH AS TC TD TH TS", other, "9S 9S 7S 9H")
    play(state, "TC 7C")
    assert state.legal_actions() == ("meld:aces", "pass")
    play(state, "meld:aces")
    assert state.view(0).points == (10 + 100, 0)
    state = position("QC QD QH QS TC 7C 8C 9C", other, "9S 8S")
    play(state, "TC 8C")
    assert state.legal_actions() == ("meld:queens", "pass")
    play(state, "meld:queens")
    assert state.view(0).points == (10 + 60, 0)
    state = position("JC JD JH JS QC QD QH AC", other, "9S 8S")
    play(state, "AC 7C")
    # spades trump; no Q-spades for a bezique
    assert state.legal_actions() == ("meld:jacks", "pass")
    play(state, "meld:jacks")
    assert state.view(0).points == (10 + 40, 0)


def test_the_dix_exchanges_the_trump_7_and_takes_the_place_of_a_meld() -> None:
    """Seed 000 line 123, R3, R6, R8: the trump 7 for the turned card, 10
    points; it is that trick's one declaration; the card taken is known."""
    state = position("7H AC 8C 9C 7C 8D 9D JC", SPADES, "KD KD 8D TH")
    play(state, "AC 7S")
    assert state.legal_actions() == ("dix", "pass")
    play(state, "dix")
    view = state.view(1)
    assert view.turned == "7H" and view.points == (20, 0)
    assert view.shown[0] == (("TH", ()),)
    assert view.melds == ((0, "dix", ("7H", "TH"), 10),)
    assert "dix" not in state.legal_actions() and "TH*" in state.legal_actions()
    # R6: with the 7 lying there, the other trump 7 makes no dix.
    state = position("7H AC AC 9C 7C 8D 9D JC", SPADES, "KD KD 8D 7H")
    play(state, "AC 7S")
    assert "dix" not in state.legal_actions()


def test_a_turned_seven_scores_10_for_the_dealer() -> None:
    """Seed 000 line 101: a 7 turned for trump scores 10 for the dealer."""
    for seed in range(200):
        state = GAME.new_match(2, seed)
        view = state.view(0)
        if view.turned is not None and view.turned[0] == "7":
            assert view.points[view.dealer] == 10 and view.points[view.seat] == 0
            return
        assert view.points == (0, 0)
    pytest.fail("no deal 0 with a turned 7 in 200 seeds")


def test_no_melds_after_the_last_draw_and_the_deal_adds_up() -> None:
    """Seed 000 lines 127, 133, 135: no combinations after the last card is
    drawn; the last trick scores 10 and nothing else is added for tricks."""
    state = play(
        position("AH 7C 8C 9C JC 8D 9D 8S", "7H 9S JS 7D JD TD KH 8H", "9H TS"),
        "AH 7H",
    )
    while state.deal == 0:
        legal = state.legal_actions()
        # cards only (R11: TS* is the open copy of TS)
        assert all(a.removesuffix("*") in GAME.STATE.RULES.deck.index for a in legal)
        state.apply(legal[0])
    # aces and tens in the example: AH, TD, TS; 10 for the last trick.
    assert sum(state.view(0).deal_scores[0]) == 30 + 10
    assert state.view(0).tricks == ()  # deal 1 has begun


def test_klaverjas_hartendame_makes_jc_qh_the_bezique_with_spades_trump() -> None:
    """Seed 000 line 139: with diamonds or spades trump the bezique is J-clubs
    Q-hearts in the variant."""
    hands = ("JC QH AC 7C 8C 9C 8D 9D", "7D 8D 9D 7D TD 8H 7H 8H", "9S 8S")
    variant = Bezique(variant="klaverjas-hartendame")
    state = position(*hands, game=variant)
    play(state, "AC 7D")
    assert state.legal_actions() == ("meld:bezique", "pass")
    state = position(*hands)
    play(state, "AC 7D")
    assert "meld:bezique" not in state.legal_actions()


def test_the_match_ends_after_the_deal_that_reaches_the_target() -> None:
    """R1: the match ends after the deal in which a seat reaches the target."""
    game = Bezique(target=1)
    state = game.new_match(2, 5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    assert len(result.deal_points) == 1 and state.view(0).phase == "over"
    a, b = result.scores
    assert result.ranks == ((1, 2) if a > b else (2, 1) if b > a else (1, 1))


def test_sampled_worlds_keep_shown_cards_and_the_final_hand() -> None:
    """R8, R9: shown cards stay in their hand in every sample; in the final
    phase the other hand is exactly the unseen cards."""
    state = GAME.new_match(2, 11)
    rng = random.Random(3)
    checked_shown = checked_final = False
    while not state.is_over() and state.deal == 0:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        other = 1 - seat
        truth = state.card_locations()
        for _ in range(3):
            world = GAME.sample_state(view, rng)
            assert world.view(seat) == view
            places = world.card_locations()
            assert places[f"shown:{other}"] == truth[f"shown:{other}"]
            checked_shown |= bool(truth[f"shown:{other}"])
            if view.phase == "final":
                assert places[f"hand:{other}"] == truth[f"hand:{other}"]
                checked_final = True
        state.apply(rng.choice(state.legal_actions()))
    assert checked_shown and checked_final


def test_the_unrolled_namers_agree_with_the_deck() -> None:
    """The hot path's namers equal ``BEZIQUE.names`` (and its distinct names)."""
    from games.bezique.bezique import bezique_names, distinct_names
    from games.cards import BEZIQUE

    rng = random.Random(1)
    for mask in [0, BEZIQUE.full, *(rng.getrandbits(64) for _ in range(500))]:
        assert bezique_names(mask) == BEZIQUE.names(mask)
        assert distinct_names(mask) == tuple(dict.fromkeys(BEZIQUE.names(mask)))


def test_a_new_match_deals_eight_each_and_turns_the_17th_card() -> None:
    """Seed 000 lines 101, 105 and R1, R2: eight cards each, one turned, the
    rest the stock; seat 1 deals deal 0 and seat 0 leads."""
    state = GAME.new_match(2, 3)
    view = state.view(0)
    assert view.hand_sizes == (8, 8) and view.stock == 48
    assert view.dealer == 1 and state.to_act == 0
    assert view.turned is not None and view.trump == view.turned[1]
    places = state.card_locations()
    assert len(places["stock"]) == 47 and places["turned"] == (view.turned,)


def test_sampled_table_cards_are_copies_still_free() -> None:
    """R9: a card on the table in a sampled world is a physical copy that no
    trick, hand or stock of that world also holds (two copies of each card)."""
    from games.cards import BEZIQUE

    rng = random.Random(8)
    checked = 0
    for seed in range(6):
        state = GAME.new_match(2, seed)
        while state.deal == 0:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view.trick:
                world = GAME.sample_state(view, rng)
                assert isinstance(world, BeziqueState)
                played = BEZIQUE.mask([c for t in view.tricks for c in t[1]])
                held = (
                    world.hands[0] | world.hands[1] | sum(1 << c for c in world._stock)
                )
                for card in world._trick:
                    assert not (played | held) >> card & 1
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100
