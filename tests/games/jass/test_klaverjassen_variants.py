"""Klaverjassen's variants a-f: one test (or more) per variant showing that it
changes play as its text says (seed 004 lines 126-132; rulings R16-R24 of
games/jass/RULES.md), and the shared declarations in hand.
"""

from __future__ import annotations

import random

import pytest

from games.cards import PIQUET, PIQUET24
from games.jass import Klaverjassen
from games.jass.declarations import (
    DeclarationRules,
    best_declarations,
    declaration_key,
    holds_stuk,
)
from games.jass.klaverjassen import TRUMP_TABLES, VARIANTS, KlaverjassenState
from games.jass.scoring import deal_score
from games.jass.variants import (
    KRAKEN_ROEM,
    LEIDS_BIDS,
    SUIT_ACTIONS,
    KlaverjassenVariantState,
    KlaverjassenVariantView,
)
from harness import IllegalActionError
from harness.match.conformance import check_game
from tests.games.playing import play as apply


def bid_game(variant: str) -> KlaverjassenState:
    """Deal 0 of a match where deal 0 is bid: seat 3 deals, seat 0 is voorhand."""
    return Klaverjassen(variant=variant, clubs_first=False).new_match(4, 5)


def position(variant: str, hands: list[str], trump: str = "H") -> KlaverjassenState:
    """Deal 4 (seat 0 is voorhand and leads) with ``trump`` accepted by seat 0."""
    game = Klaverjassen(variant=variant)
    return game.state_class.from_hands(game, hands, trump=trump, deal=4)


def vview(state: KlaverjassenState, seat: int) -> KlaverjassenVariantView:
    view = state.view(seat)
    assert isinstance(view, KlaverjassenVariantView)
    return view


def test_standard_keeps_its_own_state_and_view() -> None:
    """R16: the standard variant is the old game: no variant code on its path."""
    assert type(Klaverjassen().new_match(4, 1)) is KlaverjassenState
    for variant in VARIANTS[1:]:
        game = Klaverjassen(variant=variant)
        assert isinstance(game.new_match(4, 1), KlaverjassenVariantState)


# -- a) Utrechts --------------------------------------------------------------


def test_utrechts_voorhand_names_trump() -> None:
    """Seed 004 line 127 and R17: nothing is turned; voorhand must play and
    chooses the suit; only voorhand acts."""
    state = bid_game("utrechts")
    view = vview(state, 0)
    assert (view.turned, view.to_act, view.phase) == ((), 0, "choose")
    assert view.legal_actions == SUIT_ACTIONS  # no pass
    with pytest.raises(IllegalActionError):
        state.apply("pass")
    apply(state, "diamonds")
    view = vview(state, 2)
    assert (view.trump, view.player, view.to_act, view.phase) == ("D", 0, 0, "play")
    assert view.bids == ((0, "diamonds"),)


@pytest.mark.parametrize(
    ("variant", "phase"), [("utrechts", "choose"), ("leids", "leids")]
)
def test_variants_without_a_turned_trump_bid_their_first_deal(
    variant: str, phase: str
) -> None:
    """Seed 004 lines 127-128 ("Geen gedraaide troef") and R3: clubs replaces
    the first turned suit (line 96), and these variants turn none, so by default
    deal 0 is chosen as any other (issue 28 item 8); given, the option holds."""
    game = Klaverjassen(variant=variant)
    assert game.options["clubs_first"] is False
    view = vview(game.new_match(4, 5), 0)
    assert (view.deal, view.phase, view.trump, view.turned) == (0, phase, None, ())
    clubs = vview(Klaverjassen(variant=variant, clubs_first=True).new_match(4, 5), 0)
    assert (clubs.phase, clubs.trump, clubs.player) == ("play", "C", 0)
    for turning in ("standard", "voorhand-vrij", "amsterdams", "kraken"):
        assert Klaverjassen(variant=turning).options["clubs_first"] is True


# -- b) Leids -----------------------------------------------------------------


def test_leids_bids_are_tens_from_82_suits_ranked() -> None:
    """Seed 004 line 128 and R18: bids 82, 92, 102, ... ("192" ruled a typo for
    92); at equal points S > H > D > C, so 82H is over 82D."""
    assert LEIDS_BIDS[:6] == ("82C", "82D", "82H", "82S", "92C", "92D")
    assert LEIDS_BIDS[-1] == "162S"
    state = bid_game("leids")
    assert vview(state, 0).turned == ()
    apply(state, "82H")
    legal = state.legal_actions()
    assert "82S" in legal and "82D" not in legal and "82H" not in legal
    assert legal[0] == "pass"


def test_leids_auction_passed_players_are_out_and_high_bid_plays() -> None:
    """R18: each bid beats the last; a seat that passed is out; when the three
    others have passed the high bidder plays his suit for his points."""
    state = bid_game("leids")
    apply(state, "82H pass 92S pass")  # seats 0, 1, 2, 3
    assert state.to_act == 0  # seats 1 and 3 are out
    apply(state, "102C")
    assert state.to_act == 2
    apply(state, "pass")
    view = vview(state, 1)
    assert (view.trump, view.player, view.contract, view.phase) == ("C", 0, 102, "play")


def test_leids_four_passes_voorhand_bids_82() -> None:
    """R18: when all four pass, voorhand must bid 82 in a suit of his choice."""
    state = apply(bid_game("leids"), "pass pass pass pass")
    assert state.to_act == 0
    assert state.legal_actions() == ("82C", "82D", "82H", "82S")
    apply(state, "82S")
    assert vview(state, 0).trump == "S" and vview(state, 0).contract == 82


def test_leids_contract_must_be_reached() -> None:
    """Seed 004 line 128 and R18: bidding 102 and taking 100 of 162 is nat, though
    100 is more than half; taking 102 makes it."""
    assert deal_score(0, (100, 62), (0, 0), (5, 3), contract=102)[0:3] == (
        False,
        None,
        (0, 162),
    )
    assert deal_score(0, (102, 60), (0, 0), (5, 3), contract=102)[0] is True
    # Without a contract (standard, R8) 100 of 162 makes it.
    assert deal_score(0, (100, 62), (0, 0), (5, 3))[0] is True


# -- c) Voorhand vrij -----------------------------------------------------------


def test_voorhand_vrij_voorhand_may_choose_or_pass_on() -> None:
    """Seed 004 line 129 and R19: all passed on the turned suit, voorhand may pass
    or name any suit; a pass moves the choice to the next seat."""
    state = apply(bid_game("voorhand-vrij"), "pass pass pass pass")
    view = vview(state, 0)
    assert (view.phase, view.to_act) == ("free", 0)
    assert view.legal_actions == ("pass", *SUIT_ACTIONS)
    assert len(view.turned) == 1  # no second suit turned
    apply(state, "pass spades")
    view = vview(state, 0)
    assert (view.trump, view.player, view.to_act) == ("S", 1, 0)


def test_voorhand_vrij_all_pass_twice_falls_back_to_second_suit() -> None:
    """R19: when all four pass the free round too, the standard rule (R2) holds:
    a second suit is turned and voorhand must play it."""
    state = apply(bid_game("voorhand-vrij"), " ".join(["pass"] * 8))
    view = vview(state, 2)
    assert len(view.turned) == 2 and view.trump == view.turned[1]
    assert view.player == 0 and view.phase == "play"


def test_standard_all_pass_turns_second_suit_at_once() -> None:
    """The contrast for variant c: in the standard game four passes turn a
    second suit at once (R2)."""
    state = apply(bid_game("standard"), "pass pass pass pass")
    assert len(state.view(0).turned) == 2 and state.view(0).player == 0


# -- d) Amsterdams ---------------------------------------------------------------

PARTNER_WINS = [
    "AS 9S 8S TS 7C 8C 9C TC",
    "7S JC QC KC 7D 8D 9D TD",
    "7H 8H JH AC JD QD KD AD",
    "QS JS KS 9H TH QH KH AH",
]


def test_amsterdams_no_duty_to_trump_when_partner_wins() -> None:
    """Seed 004 line 130 and R20: seat 0 (partner) wins with AS; seat 2, void in
    spades, need not trump. Rotterdam (R5) makes it trump."""
    state = apply(position("amsterdams", PARTNER_WINS), "AS 7S")
    assert set(state.legal_actions()) == set(PARTNER_WINS[2].split())
    standard = apply(position("standard", PARTNER_WINS), "AS 7S")
    assert standard.legal_actions() == ("7H", "8H", "JH")


def test_amsterdams_no_under_trumping() -> None:
    """Seed 004 line 130 and R20: seat 1 trumped with the Jas; seat 2 cannot
    over-trump and holds other cards, so it may not play its lower trumps."""
    hands = [
        "AS QS 9S 8S 7S 7C 8C 9C",
        "JH JC QC KC 7D 8D 9D TD",
        "7H 8H TC AC JD QD KD AD",
        "TS JS KS 9H TH QH KH AH",
    ]
    state = apply(position("amsterdams", hands), "AS JH")
    assert state.legal_actions() == ("TC", "AC", "JD", "QD", "KD", "AD")
    assert apply(position("standard", hands), "AS JH").legal_actions() == ("7H", "8H")


def test_amsterdams_trump_led_over_trump_even_over_partner() -> None:
    """Seed 004 line 130 and R20: when trump is led, follow and over-trump even
    while the partner wins: over seat 0's Nel only the Jas goes."""
    hands = [
        "9H 9S 8S 7S 7C 8C 9C TC",
        "7H 8H KC 7D 8D 9D TD AS",
        "JH AH KH JC QC AC JD QD",
        "KD AD TS JS QS KS TH QH",
    ]
    state = apply(position("amsterdams", hands), "9H 7H")
    assert state.legal_actions() == ("JH",)


# -- e) Kraken, f) Schoppen dubbel -------------------------------------------------


def test_kraken_doubling_sequence() -> None:
    """Seed 004 line 131 and R21: the defenders may kraken (x2), the players
    herkraken (x4), the defenders superkraken (x8), each a decision in turn."""
    state = apply(bid_game("kraken"), "play")
    view = vview(state, 1)
    assert (view.phase, view.to_act, view.legal_actions) == (
        "kraken",
        1,
        ("kraken", "pass"),
    )
    apply(state, "kraken")
    assert (state.to_act, state.legal_actions()) == (0, ("herkraken", "pass"))
    apply(state, "herkraken")
    assert (state.to_act, state.legal_actions()) == (1, ("superkraken", "pass"))
    apply(state, "superkraken")
    view = vview(state, 0)
    assert (view.phase, view.multiplier, view.to_act) == ("play", 8, 0)
    assert [b for _, b in view.bids] == ["play", "kraken", "herkraken", "superkraken"]
    deal = state.deal
    while state.deal == deal:
        state.apply(state.legal_actions()[0])
    summary = state.history[-1]
    won = [0, 0]
    for record in summary.tricks:
        won[record[2] % 2] += 1
    plain = deal_score(summary.playing_team, summary.points, summary.roem, won)
    assert summary.scores == (plain[3][0] * 8, plain[3][1] * 8)
    assert summary.raw == plain[2]  # R21: the raw points stay as played


def test_kraken_both_defenders_may_pass() -> None:
    """R21: each defender in turn may kraken; two passes start the play at x1."""
    state = apply(bid_game("kraken"), "pass play")  # seat 1 plays
    assert (state.to_act, state.legal_actions()) == (2, ("kraken", "pass"))
    apply(state, "pass")
    assert state.to_act == 0
    apply(state, "pass")
    view = vview(state, 0)
    assert (view.phase, view.multiplier, view.to_act) == ("play", 1, 0)


def test_kraken_multiplies_rounded_scores() -> None:
    """R21: the deal's rounded scores are multiplied: 100 and 62 -> 100 and 60,
    kraken x2 -> 200 and 120."""
    assert deal_score(0, (100, 62), (0, 0), (5, 3), multiplier=2)[3] == (200, 120)


ROEM_HANDS = [
    "7S 8S 9S AH 7C 9C JD KD",
    "TS JS 7H 8H 8C TC QD AD",
    "QS KS 9H TH JC QC 7D 8D",
    "AS JH QH KH KC AC 9D TD",
]


def test_kraken_roem_in_hand_is_the_bots_decision() -> None:
    """Seed 004 line 131 and R22: roem in hand counts when declared in the first
    trick; declaring is an action of the seat ("roem"), offered once, before its
    card, only with roem in hand. Seat 0's 7S 8S 9S is 20; seat 3's J Q K of
    hearts is 20 (the stuk in it is declared on its own, and is not here)."""
    state = apply(position("kraken", ROEM_HANDS), "pass pass")
    assert state.legal_actions()[-1] == "roem"
    apply(state, "roem")
    view = vview(state, 1)
    assert view.declared == ((0, ("7S", "8S", "9S"), 20),)
    assert "roem" not in state.legal_actions() and state.to_act == 0
    apply(state, "7C 8C")
    assert "roem" not in state.legal_actions()  # seat 2 has no roem in hand
    apply(state, "JC")
    assert state.legal_actions()[-2:] == ("roem", "stuk")  # KH QH: the stuk too
    apply(state, "roem KC")
    assert vview(state, 0).declared[1] == (3, ("JH", "QH", "KH"), 20)
    assert "roem" not in state.legal_actions()  # the first trick is over
    while state.deal == 4:
        state.apply(state.legal_actions()[0])
    summary = state.history[-1]
    in_tricks = [0, 0]
    for _, _, winner, _, roem in summary.tricks:
        in_tricks[winner % 2] += roem
    assert summary.roem == (in_tricks[0] + 20, in_tricks[1] + 20)


#: Issue 28 item 1: seat 0 holds the stuk of clubs (KC QC) and nothing else
#: that is roem in hand.
STUK_HANDS = [
    "KC QC 7D 9D AS 8H 7S TD",
    "7C 8C 8D JD 7H 9H 8S 9S",
    "9C TC QD KD TH JH TS JS",
    "JC AC AD QH KH AH QS KS",
]


def _play_keeping(state: KlaverjassenState, keep: set[str]) -> str:
    """Play the first legal card, one not in ``keep`` if there is one."""
    cards = [a for a in state.legal_actions() if a not in ("roem", "stuk")]
    card = next((c for c in cards if c not in keep), cards[0])
    state.apply(card)
    return card


def test_kraken_stuk_may_be_declared_at_any_time() -> None:
    """Seed 004 line 131 ("Roem telt ook in de hand, wat je in de eerste slag
    moet declareren; behalve Stuk, wat altijd gedeclareerd mag worden") and
    R22: the holder of the trump king and queen may declare the stuk, 20, at
    any of his cards while he holds both, past the first trick too; once. It
    counts for his side like roem in hand (issue 28 item 1: it was never
    offered, since one hand's K and Q never fall in one trick)."""
    state = apply(position("kraken", STUK_HANDS, trump="C"), "pass pass")
    assert state.to_act == 0 and state.legal_actions()[-1] == "stuk"
    assert "roem" not in state.legal_actions()  # no other roem in hand
    apply(state, "7D")
    while not (state.to_act == 0 and state._tricks):
        _play_keeping(state, set())
    assert state.legal_actions()[-1] == "stuk"  # trick 2: still his to declare
    apply(state, "stuk")
    assert vview(state, 2).declared == ((0, ("QC", "KC"), 20),)
    assert "stuk" not in state.legal_actions()
    narrated = position("kraken", STUK_HANDS, trump="C")
    apply(narrated, "pass pass")
    assert narrated.narrate("stuk") == ["seat 0 declares the stuk: QC KC, 20"]
    while state.deal == 4:
        _play_keeping(state, set())
    summary = state.history[-1]
    in_tricks = [0, 0]
    for _, _, winner, _, roem in summary.tricks:
        in_tricks[winner % 2] += roem
    assert summary.roem == (in_tricks[0] + 20, in_tricks[1])


def test_kraken_stuk_until_its_second_card_and_only_from_one_hand() -> None:
    """R22: a holder who played the king undeclared may still declare the stuk
    before he plays the queen (as players say it, with the second card), not
    after both are played; a king and queen in two hands are no stuk in hand.
    A declared stuk does not use up roem in hand."""
    state = apply(position("kraken", STUK_HANDS, trump="C"), "pass pass KC")
    while not (state.to_act == 0 and state._tricks):
        _play_keeping(state, {"QC"})
    assert state.legal_actions()[-1] == "stuk"
    apply(state, "QC")  # the queen played undeclared: the stuk is gone
    while state.deal == 4:
        assert "stuk" not in state.legal_actions()
        _play_keeping(state, set())
    assert state.history[-1].roem[0] == sum(
        r for _, _, w, _, r in state.history[-1].tricks if w % 2 == 0
    )
    split = apply(position("kraken", ROEM_HANDS, trump="C"), "pass pass")
    while split.deal == 4:  # QC with seat 2, KC with seat 3
        assert "stuk" not in split.legal_actions()
        _play_keeping(split, set())
    roem_too = apply(position("kraken", ROEM_HANDS), "pass pass 7C 8C JC")
    assert roem_too.legal_actions()[-2:] == ("roem", "stuk")
    apply(roem_too, "stuk")
    assert roem_too.legal_actions()[-1] == "roem"
    apply(roem_too, "roem")
    assert [(s, p) for s, _, p in vview(roem_too, 0).declared] == [(3, 20), (3, 20)]


def test_kraken_declared_stuk_is_known_to_samplers() -> None:
    """R14/R22: a declared stuk's cards stay in the declarer's hand in every
    sampled state until played."""
    game = Klaverjassen(variant="kraken")
    state = apply(position("kraken", STUK_HANDS, trump="C"), "pass pass stuk 7D")
    view = state.view(1)
    rng = random.Random(5)
    for _ in range(20):
        sample = game.sample_state(view, rng)
        assert sample.view(1) == view
        assert {"KC", "QC"} <= set(sample.card_locations()["hand:0"])


def test_kraken_declared_cards_are_known_to_samplers() -> None:
    """R14/R22: cards declared and not yet played are in the declarer's hand in
    every sampled state."""
    game = Klaverjassen(variant="kraken")
    state = apply(position("kraken", ROEM_HANDS), "pass pass roem 7C")
    view = state.view(1)
    rng = random.Random(3)
    for _ in range(30):
        sample = game.sample_state(view, rng)
        assert sample.view(1) == view
        assert {"7S", "8S", "9S"} <= set(sample.card_locations()["hand:0"])


def test_schoppen_dubbel_spades_doubles_by_itself() -> None:
    """Seed 004 line 132 and R23: with spades trump the scores count double
    before any kraken; kraken makes it x4. Other suits as Kraken."""
    spades = apply(position("schoppen-dubbel", ROEM_HANDS, trump="S"), "")
    assert vview(spades, 0).multiplier == 2
    apply(spades, "kraken")
    assert vview(spades, 0).multiplier == 4
    hearts = position("schoppen-dubbel", ROEM_HANDS, trump="H")
    assert vview(hearts, 0).multiplier == 1
    assert vview(position("kraken", ROEM_HANDS, trump="S"), 0).multiplier == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_random_matches_with_consistent_samples(
    variant: str,
) -> None:
    """Every variant: random play ends, views agree with legal actions, and
    states sampled from any seat's view give that view back (R14)."""
    game = Klaverjassen(variant=variant, target=400)
    for seed in range(3):
        state = game.new_match(4, seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_over():
            legal = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            assert state.view(seat).legal_actions == legal
            if n % 11 == 0:
                for p in range(4):
                    view = state.view(p)
                    assert game.sample_state(view, random.Random(n)).view(p) == view
            state.narrate(rng.choice(legal))
            n += 1
        assert max(state.result().scores) >= 400


# -- shared declarations --------------------------------------------------------


def test_declarations_prefer_the_better_use_of_a_card() -> None:
    """R22: each card serves once; four jacks (200) beat the run 9-K of hearts
    (capped at 50) that shares the JH."""
    hand = PIQUET.mask("JC JD JH JS 9H TH QH KH".split())
    found = best_declarations(hand, KRAKEN_ROEM)
    assert [(d.name, d.points) for d in found] == [("four jacks", 200)]
    hand = PIQUET.mask("7H 8H 9H TH JH 7C 8C 9C".split())
    assert [(d.name, d.points) for d in best_declarations(hand, KRAKEN_ROEM)] == [
        ("run of 3", 20),
        ("run of 5", 50),
    ]


def test_declarations_serve_other_tables_and_packs() -> None:
    """The shared search with belote's table (runs 3/4/5+ = 20/50/100) on the
    24-card pack: 9 T J Q K of spades is one run of 5 worth 100."""
    rules = DeclarationRules(PIQUET24, runs={3: 20, 4: 50, 5: 100}, fours={"J": 200})
    hand = PIQUET24.mask("9S TS JS QS KS AC".split())
    (run,) = best_declarations(hand, rules)
    assert (run.name, run.points, run.length) == ("run of 5", 100, 5)
    assert holds_stuk(hand, 3, rules) and not holds_stuk(hand, 0, rules)


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_every_variant_passes_the_conformance_suite(variant: str) -> None:
    """`troef check klaverjassen -o variant=...`: conservation, clones,
    determinism, replay, views, information sets and duplicate deals hold
    under every variant (the registered default is checked by
    tests/games/test_conformance.py)."""
    report = check_game(Klaverjassen, options={"variant": variant}, matches=3)
    assert report.passed and report.actions > 0


def test_declarations_may_share_cards_between_a_four_and_a_run() -> None:
    """Seed 002 line 86 (belote): a card counts once in a four and once in a run.
    JC JD JH JS with 9H TH: four jacks (200) and the run 9-10-J of hearts (20)."""
    rules = DeclarationRules(
        PIQUET, runs={3: 20, 4: 50, 5: 100}, fours={"J": 200}, cards_serve_once=False
    )
    hand = PIQUET.mask("JC JD JH JS 9H TH".split())
    found = best_declarations(hand, rules)
    assert [(d.name, d.points) for d in found] == [
        ("four jacks", 200),
        ("run of 3", 20),
    ]
    once = DeclarationRules(PIQUET, runs={3: 20}, fours={"J": 200})
    assert [d.name for d in best_declarations(hand, once)] == ["four jacks"]


def test_declaration_key_compares_length_then_top_trick_rank() -> None:
    """Seed 002 line 87: between runs of equal points the longer wins, then the
    one with the card of highest trick rank; with hearts trump the run 9-10-J
    of hearts (Jas) beats Q-K-A of spades."""
    rules = DeclarationRules(PIQUET, runs={3: 20, 4: 50}, fours={})
    strength = [-b.bit_count() for b in TRUMP_TABLES[2].beats]
    (hearts,) = best_declarations(PIQUET.mask("9H TH JH".split()), rules)
    (spades,) = best_declarations(PIQUET.mask("QS KS AS".split()), rules)
    assert declaration_key(hearts, strength) > declaration_key(spades, strength)
    (four,) = best_declarations(PIQUET.mask("7S 8S 9S TS".split()), rules)
    assert declaration_key(four, strength) > declaration_key(hearts, strength)


def test_kraken_samples_offer_roem_by_their_own_hands() -> None:
    """R22 with R14: in each state sampled for seat 1 while seat 0 is to lead the
    first trick, seat 0 may declare exactly when its sampled hand holds roem
    (samples and clones do not share what an other world found)."""
    game = Klaverjassen(variant="kraken")
    state = apply(position("kraken", ROEM_HANDS), "pass pass")
    sampler = game.sampler(state.view(1))
    rng = random.Random(7)
    offered = set()
    for _ in range(40):
        sample = sampler.sample(rng)
        assert isinstance(sample, KlaverjassenState)
        has_roem = bool(best_declarations(sample.hands[0], KRAKEN_ROEM))
        assert ("roem" in sample.legal_actions()) == has_roem
        offered.add(has_roem)
    assert offered == {True, False}
