"""Worked examples of Maison Tarot and La Rigueur, citing the rule text or a ruling.

Rule text: ``../shared/seeds/000_f1f8b277f898f51f.txt`` (cited as "seed 000
line N"): Maison Tarot from line 331, La Rigueur from line 296. Rulings:
``games/tarot/RULES.md`` (R1, R2, ...). Positions are built with
``MaisonTarotState.from_hands`` in deal 0, where seat 0 is voorhand and leads
(R1); the rest of the pack is undealt.
"""

from __future__ import annotations

import random

import pytest

from games.cards import TAROT
from games.tarot import LaRigueur, MaisonTarot
from games.tarot.common import BLANK, POINTS, card_points, excuse_settlement
from games.tarot.maison import MaisonTarotState, pot_shares
from harness import IllegalActionError, OptionError

MAISON = MaisonTarot()
RIGUEUR = LaRigueur()
#: Wilde Maison Tarot lets the players agree on the cards per hand: tiny deals.
TINY = MaisonTarot(variant="wilde", hand_size=2)


def position(game: MaisonTarot, hands: list[str]) -> MaisonTarotState:
    return MaisonTarotState.from_hands(game, hands)


def play(state: MaisonTarotState, *cards: str) -> None:
    for card in cards:
        state.apply(card)


def won(state: MaisonTarotState, seat: int) -> set[str]:
    return set(TAROT.names(state.won[seat]))


# -- the pack, points and deal ---------------------------------------------------


def test_card_points_follow_the_text() -> None:
    """Seed 000 lines 362-367: excuse 5; 21T, 1T and kings 4; queens 3; knights 2;
    valets 1; every other card is blank (R3)."""
    expect = {"EX": 5, "21T": 4, "1T": 4, "KH": 4, "QS": 3, "NC": 2, "JD": 1}
    for name, points in expect.items():
        assert POINTS[TAROT.index[name]] == points
    assert card_points(TAROT.full) == 5 + 4 + 4 + 4 * (4 + 3 + 2 + 1)
    assert BLANK.bit_count() == 78 - 19
    assert BLANK >> TAROT.index["10C"] & 1  # 10C is blank


@pytest.mark.parametrize("n", range(2, 7))
def test_each_seat_gets_twelve_and_the_rest_is_undealt(n: int) -> None:
    """Seed 000 line 345: 12 cards each; R2: the rest stays undealt, unseen."""
    state = MAISON.new_match(n, 7)
    assert [h.bit_count() for h in state.hands] == [12] * n
    assert state.undealt.bit_count() == 78 - 12 * n
    assert "undealt" in state.hidden_from(0)
    assert len(state.card_locations()["undealt"]) == 78 - 12 * n


def test_voorhand_is_the_seat_after_the_dealer_and_leads() -> None:
    """Seed 000 line 349 and R1: voorhand (right of the dealer) leads; the deal
    passes on one seat each deal."""
    state = MAISON.new_match(3, 5)
    assert (state.dealer, state.to_act) == (2, 0)
    while state.deal == 0:
        state.apply(state.legal_actions()[0])
    assert (state.dealer, state.to_act) == (0, 1)


# -- the duties ------------------------------------------------------------------

DUTIES = [
    "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
    "15T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "3T 20T 1S 2S 3S 4S 5S 6S 7S 8S 9S EX",
]


def test_void_must_trump_but_need_not_over_trump() -> None:
    """Seed 000 lines 351 and 354: void in the suit led, a player must trump;
    over-trumping is not required, so 3T under 15T is allowed; the excuse may be
    played instead of any card (line 356)."""
    state = position(MAISON, DUTIES)
    play(state, "KC")
    assert state.legal_actions() == ("15T",)
    play(state, "15T")
    assert state.legal_actions() == ("3T", "20T", "EX")
    play(state, "3T")
    assert state._tricks[-1][2] == 1  # 15T beats 3T and the king led


def test_trump_led_must_be_followed_and_void_plays_anything() -> None:
    """Seed 000 line 351: trump led, everyone plays a trump if he can; who has
    neither may play any card."""
    state = position(
        MAISON,
        [
            "1T 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "15T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
            "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS",
        ],
    )
    play(state, "1T")
    assert state.legal_actions() == ("15T",)
    play(state, "15T")
    assert len(state.legal_actions()) == 12


def test_a_trump_is_not_allowed_while_the_player_can_follow() -> None:
    """Seed 000 line 351: no trumping while you can follow suit."""
    state = position(
        MAISON,
        [
            "KC 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "1C 21T 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
        ],
    )
    play(state, "KC")
    assert state.legal_actions() == ("1C",)
    with pytest.raises(IllegalActionError):
        state.apply("21T")


def test_the_excuse_never_wins_even_when_led() -> None:
    """Seed 000 line 356: the excuse never wins; led, the next card sets the suit."""
    state = position(
        MAISON,
        [
            "EX 10C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
            "2H 1C 3H 4H 5H 6H 7H 8H 9H 10H KH QH",
        ],
    )
    play(state, "EX", "2H")
    assert state._tricks[-1][2] == 1


# -- the excuse's exchange --------------------------------------------------------


def test_excuse_blank_given_at_once_when_the_player_has_one() -> None:
    """Seed 000 line 356 and R3/R4: the excuse returns to its player, who gives the
    trick's winner a blank card at once since he already won one (1C, the lowest)."""
    state = position(
        MAISON,
        [
            "10C EX 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
            "1C 2H 3H 4H 5H 6H 7H 8H 9H 10H KH QH",
        ],
    )
    play(state, "10C", "1C")  # seat 0 wins 10C and 1C
    play(state, "EX", "KH")  # seat 1 wins the trick, not the excuse
    assert state.exchanges == ((0, 1, "1C"),)
    assert state.debt is None
    assert won(state, 0) == {"10C", "EX"}
    assert won(state, 1) == {"KH", "1C"}


def test_excuse_blank_waits_until_the_player_wins_one() -> None:
    """Seed 000 line 356, R4: 'Heb je nog geen lege kaarten, dan moet je wachten'
    -- the debt stands until the excuse's player wins a blank card."""
    state = position(
        MAISON,
        [
            "EX 10C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
            "2H 1C 3H 4H 5H 6H 7H 8H 9H 10H KH QH",
        ],
    )
    play(state, "EX", "2H")
    # "not", not "== ()": mypy would keep exchanges narrowed to () past play().
    assert state.debt == (0, 1) and not state.exchanges
    assert won(state, 0) == {"EX"} and won(state, 1) == {"2H"}
    view = state.view(1)
    assert view.debt == (0, 1)
    play(state, "1C", "10C")  # seat 1 leads; seat 0 wins two blanks
    assert state.exchanges == ((0, 1, "1C"),)
    assert state.debt is None
    assert won(state, 0) == {"EX", "10C"}


def test_excuse_at_the_end_without_blank_costs_the_cheapest_point_card() -> None:
    """Seed 000 line 356, R5: no blank by the end of the deal, so a point card:
    the queen (3), not the king (4)."""
    state = position(TINY, ["EX KC", "JD QC"])
    play(state, "EX", "JD")  # seat 1 wins; seat 0 owes a blank
    play(state, "QC", "KC")  # seat 0 wins two point cards, no blank
    assert state.history[-1][1] == ((0, 1, "QC"),)
    # Deal points (Wilde: card points + tricks): seat 0 EX 5 + KC 4 + 1 trick = 10;
    # seat 1 JD 1 + QC 3 + 1 trick = 5; seat 0 takes the pot of two stakes.
    assert state.deal_scores[0] == (1, -1)


def test_excuse_alone_goes_to_the_winner_of_its_trick() -> None:
    """Seed 000 line 356, R6: 'Heb je alleen het Excuus, dan moet je hem overgeven
    aan de speler die de oorspronkelijke slag won.'"""
    state = position(TINY, ["EX 2C", "3D KC"])
    play(state, "EX", "3D", "KC", "2C")
    assert state.history[-1][1] == ((0, 1, "EX"),)
    assert state.deal_scores[0] == (-1, 1)


def test_settlement_prefers_a_blank_then_the_cheapest_point_card() -> None:
    """R3, R5, R6: the card a debtor gives from his won cards."""
    mask = TAROT.mask
    assert TAROT.cards[excuse_settlement(mask(["KC", "9H", "4S", "EX"]))] == "9H"
    assert TAROT.cards[excuse_settlement(mask(["KC", "JH", "EX"]))] == "JH"
    assert TAROT.cards[excuse_settlement(mask(["EX"]))] == "EX"


# -- scoring -----------------------------------------------------------------------


def test_score_is_points_plus_cards_won_minus_twelve_and_can_be_negative() -> None:
    """Seed 000 line 369: card points plus (cards won - 12): seat 0 wins all 24
    cards (K Q N J of clubs 10, JD 1; +12), seat 1 none (-12)."""
    state = position(
        MAISON,
        [
            "KC QC NC JC 10C 9C 8C 7C 6C 5C 4C 3C",
            "2C 1C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
        ],
    )
    while state.deal == 0:
        state.apply(state.legal_actions()[0])
    assert state.deal_scores[0] == (11 + 12, -12)
    assert state.totals == (23, -12)


def test_the_match_ends_after_the_deal_that_reaches_fifty() -> None:
    """Seed 000 line 369, R11: cumulative to 50; the highest total wins."""
    state = MAISON.new_match(2, 11)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    totals = state.totals
    assert max(totals) >= 50
    before = [sum(d[s] for d in state.deal_scores[:-1]) for s in range(2)]
    assert max(before) < 50
    result = state.result()
    assert result.ranks[totals.index(max(totals))] == 1


# -- Wilde Maison Tarot ------------------------------------------------------------


def test_wilde_pot_goes_to_the_highest_and_ties_share() -> None:
    """Seed 000 line 378, R13: the highest takes the pot; tied seats share it, odd
    chips one each from voorhand on."""
    assert pot_shares((5, 9, 9), 2, 0) == (-2, 1, 1)
    assert pot_shares((9, 9, 1), 1, 1) == (0, 1, -1)
    assert pot_shares((3, 8, 1, 0), 5, 0) == (-5, 15, -5, -5)


def test_wilde_counts_tricks_instead_of_comparing_with_twelve() -> None:
    """Seed 000 line 378: 1 point per trick won instead of (cards - 12): after 11
    tricks seat 0 has J N Q of clubs (6) and 11 tricks; seat 1 nothing."""
    state = position(
        MaisonTarot(variant="wilde"),
        [
            "KC QC NC JC 10C 9C 8C 7C 6C 5C 4C 3C",
            "2C 1C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
        ],
    )
    for _ in range(23):  # 11 tricks, and seat 0 leads KC to the last
        state.apply(state.legal_actions()[0])
    assert state.deal_points() == (6 + 11, 0)


def test_wilde_options_are_checked() -> None:
    """R12: the cards per hand are agreed only in the wild variant, and must fit."""
    with pytest.raises(OptionError, match="hand_size"):
        MaisonTarot(hand_size=10)
    with pytest.raises(OptionError, match="hand_size"):
        MaisonTarot(variant="wilde", hand_size=20).new_match(4, 1)
    state = MaisonTarot(variant="wilde", hand_size=19).new_match(4, 1)
    assert state.undealt.bit_count() == 2


def test_wilde_result_is_net_chips() -> None:
    """R14, R15: a number of deals; scores and utilities are net chips, summing to 0."""
    game = MaisonTarot(variant="wilde", deals=3, stake=2)
    state = game.new_match(4, 3)
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    result = state.result()
    assert len(result.deal_points) == 3
    assert sum(result.scores) == 0
    assert result.utilities == tuple(float(s) for s in result.scores)


# -- La Rigueur ---------------------------------------------------------------------

RIGUEUR_HANDS = [
    "KC 2S 1T 4C 5C 6C 7C 8C 9C 10C 2D 3D",
    "5T 3S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H",
    "2T KS 1D 4D 5D 6D 7D 8D 9D 10D JD QD",
]


def test_rigueur_void_plays_a_trump_or_a_spade_freely() -> None:
    """Seed 000 line 312, R16: void in the suit led, a trump or a spade -- the
    player chooses; the highest trump wins, else the highest spade (line 314)."""
    state = position(RIGUEUR, RIGUEUR_HANDS)
    play(state, "KC")
    assert state.legal_actions() == ("3S", "5T")
    twin = state.clone()
    play(state, "3S")
    assert state.legal_actions() == ("KS", "2T")
    spade = state.clone()
    play(state, "2T")
    assert state._tricks[-1][2] == 2  # the 2 of trumps beats the spades
    play(spade, "KS")
    assert spade._tricks[-1][2] == 2  # KS beats 3S and the club king
    play(twin, "5T", "KS")
    assert twin._tricks[-1][2] == 1  # 5T beats the king of spades


def test_rigueur_spades_led_follow_spades_else_trump() -> None:
    """Seed 000 line 312: spades led must be followed; else a trump if possible."""
    state = position(
        RIGUEUR,
        [
            "2S 1T 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "5T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
            "3S KD 1D 4D 5D 6D 7D 8D 9D 10D JD QD",
        ],
    )
    play(state, "2S")
    assert state.legal_actions() == ("5T",)
    play(state, "5T")
    assert state.legal_actions() == ("3S",)


def test_rigueur_trumps_led_and_void_need_not_play_a_spade() -> None:
    """Seed 000 line 312: 'Wanneer Troef gevraagd wordt en niet kan worden
    bediend, dan ben je niet verplicht een Schoppen bij te spelen.'"""
    state = position(
        RIGUEUR,
        [
            "1T 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D",
            "KS 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
        ],
    )
    play(state, "1T")
    assert len(state.legal_actions()) == 12
    play(state, "1H")
    assert state._tricks[-1][2] == 0


def test_rigueur_has_only_the_target_option() -> None:
    """R17: La Rigueur's text names no variant."""
    assert [o.name for o in LaRigueur.option_specs] == ["target"]
    with pytest.raises(OptionError):
        LaRigueur(variant="wilde")


# -- sampling ----------------------------------------------------------------------


def test_samples_respect_voids_and_keep_the_undealt_cards_hidden() -> None:
    """R10: a seat that failed to follow clubs holds no club in any sample; the
    undealt cards are a hidden place of their own size."""
    state = position(MAISON, DUTIES)
    play(state, "KC", "15T")
    view = state.view(2)
    sampler = MAISON.sampler(view)
    rng = random.Random(4)
    clubs = TAROT.suit_masks[0]
    undealt_seen = 0
    for _ in range(50):
        world = sampler.sample(rng)
        assert world.view(2) == view
        assert not world.hands[1] & clubs
        assert world.hands[1].bit_count() == 11
        assert world.undealt.bit_count() == 42
        undealt_seen |= world.undealt
    assert undealt_seen & state.hands[0]  # seat 0's cards can be undealt in a world
