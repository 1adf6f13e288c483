"""Worked examples of Fildinski, each citing the rule text or a RULES.md ruling.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt from line 1 (cited as
"seed 000 line N"); rulings: games/bezique/RULES.md (FI1, FI2, ...). Positions
are built with ``FildinskiState.from_cards`` in deal 0: seat 1 deals, seat 0
leads. The stock is given in drawing order, its last card the turned one; cards
not named are out of the example.
"""

from __future__ import annotations

import itertools
import random

import pytest

from games.bezique import Fildinski, troef_games
from games.bezique.fildinski import FildinskiState, FildinskiView, fildinski_kinds
from games.bezique.melds import Kind
from games.cards import BEZIQUE
from harness import IllegalActionError, OptionError
from tests.games.bezique.playing import play

GAME = Fildinski()

# Eight low diamonds and spades, no ace or ten: loses to every club or heart
# led while clubs are trump (the 9C turned below), scores nothing.
LOW = "7D 8D 9D 7S 8S 9S 8D 8S"
# Drawing order; the 9 of clubs is turned last: clubs trump.
STOCK = "7H 8H 7H 8H 7D 9D 9S 7S 8C 9C"


def position(
    seat0: str, seat1: str, stock: str = STOCK, game: Fildinski = GAME
) -> FildinskiState:
    state = FildinskiState.from_cards(game, [seat0, seat1], stock.split())
    assert isinstance(state, FildinskiState)
    return state


def view(state: FildinskiState, seat: int = 0) -> FildinskiView:
    v = state.view(seat)
    assert isinstance(v, FildinskiView)
    return v


def won(state: FildinskiState, seat: int) -> dict[str, tuple[str, ...]]:
    """A seat's won cards, each with the combinations it was declared in."""
    v = view(state)
    cards: dict[str, tuple[str, ...]] = dict.fromkeys(v.won[seat], ())
    cards.update((card, kinds) for card, kinds, _ in v.won_melds[seat])
    return cards


def notes(state: FildinskiState, seat: int) -> dict[str, str]:
    """The won cards marked in the current turn (FI7) and their notes."""
    return {card: note for card, _, note in view(state).won_melds[seat] if note}


def test_plugin_registers_fildinski() -> None:
    assert Fildinski in troef_games()


def test_options_are_the_variant_and_the_500_of_line_34() -> None:
    """Line 34, FI1: play to 500; line 38: the variant."""
    assert GAME.options["target"] == 500
    with pytest.raises(OptionError, match="variant"):
        Fildinski(variant="trump-queen")


def test_a_new_match_deals_eight_each_and_turns_a_trump() -> None:
    """Line 8: eight each, the 17th card turned for trump under the stock."""
    state = GAME.new_match(2, 5)
    assert isinstance(state, FildinskiState)
    v = view(state)
    assert v.hand_sizes == (8, 8) and v.stock == 48 and v.turned is not None
    assert v.trump == v.turned[1] and v.won == ((), ())


def test_won_cards_lie_face_up_and_combinations_come_from_them() -> None:
    """Lines 6, 12 and 18, FI2: won cards lie open before the winner; a marias
    is formed from them (K♥ won earlier, Q♥ just won), not from the hand,
    whose K♠ Q♠ make nothing."""
    state = position("KH QH KS QS 8C AD 9H TH", LOW)
    play(state, "KH 7D")
    assert view(state).phase == "stock"  # K♥ alone makes nothing: both drew
    assert won(state, 0) == {"7D": (), "KH": ()}
    assert "KH" not in view(state).hand  # won cards are no longer played
    play(state, "QH 8D")
    assert state.legal_actions() == ("meld:marias:H", "pass")
    assert notes(state, 0) == {"8D": "new", "QH": "new"}
    play(state, "meld:marias:H")
    assert won(state, 0)["KH"] == ("marias:H",)
    assert won(state, 0)["QH"] == ("marias:H",)
    assert view(state).points == (20, 0) and view(state).shown == ((), ())


def test_a_combination_needs_a_card_of_the_trick_just_won() -> None:
    """Line 18, FI2: K♥ and Q♥ won in earlier tricks and not declared then make
    no marias after a trick that brings neither."""
    state = position("KH QH KS QS 8C AD 9H TH", LOW)
    play(state, "KH 7D QH 8D pass")
    play(state, "9H 9D")
    assert view(state).phase == "stock"  # no meld decision: nothing to declare
    assert len(view(state).tricks) == 3


def test_several_at_once_but_no_card_in_two() -> None:
    """Line 18, FI2: after one trick several combinations, each with a card of
    the trick, no card in two of them. K♦ K♠ K♣ won before; the trick brings
    K♥ and Q♥: four kings or the marias of hearts, not both (one K♥)."""
    state = position(
        "KD KS AC KH 9H TH AH AD",
        "7D 8D 7S 8S KC QH 9S 9D",
        "7H 8H 7H 8H 9D 7S 8C 9C",
    )
    play(state, "KD 7D KS 8D AC KC")  # three kings won; no combination yet
    assert view(state).points == (10, 0)  # the ace of trump won: a brisque
    play(state, "KH QH")
    assert state.legal_actions() == ("meld:kings", "meld:marias:H", "pass")
    play(state, "meld:kings")
    assert view(state).phase == "final"  # no marias: it needs the K♥ again
    assert view(state).points == (90, 0)


def test_two_combinations_at_once_from_the_two_cards_of_a_trick() -> None:
    """Line 18: one combination with each card of the trick just won: J♦ won
    before with Q♠ now (fildinski 40, line 28), and Q♥ now with K♥ won before
    (marias 20)."""
    state = position(
        "JD KH QS 8C 9H TH AH AD",
        "7D 8D 7S 8S QH 9D 9S 8D",
        "7H 8H 7H 8H 7S 9D 8C 9C",
    )
    play(state, "JD 7D KH 8D QS QH")
    assert state.legal_actions() == ("meld:marias:H", "meld:fildinski", "pass")
    play(state, "meld:marias:H")
    marked = notes(state, 0)
    assert (marked["QH"], marked["KH"], marked["QS"]) == ("new used", "used", "new")
    play(state, "meld:fildinski")
    assert view(state).points == (60, 0)


def test_copies_of_earlier_tricks_first_leave_the_trick_free() -> None:
    """FI4: Q♥ Q♣ Q♦ Q♠ won before (four queens passed); the trick brings K♥
    and a second Q♥. The marias takes the old Q♥ with the new K♥, the queens
    the new Q♥: both in the same turn, no card in two (line 18)."""
    state = position(
        "AH QC QD QS KH 9H TH AD",
        "QH QH 8D 9D 7S 8S 9S 7D",
        "7H 8H 7H 8H 9H 9S 7S 7D TD 9C",
    )
    play(state, "AH QH QC 8D QD 9D QS 7S")
    assert state.legal_actions() == ("meld:queens", "pass")
    play(state, "pass KH QH")
    assert state.legal_actions() == ("meld:queens", "meld:marias:H", "pass")
    play(state, "meld:marias:H")
    assert state.legal_actions() == ("meld:queens", "pass")
    play(state, "meld:queens")
    melds = view(state).melds
    assert [m[1:] for m in melds] == [
        ("marias:H", ("KH", "QH"), 20),
        ("queens", ("QC", "QD", "QH", "QS"), 60),
    ]


def test_stuk_then_the_five_trumps_from_won_trumps() -> None:
    """Lines 21 and 26: with clubs trump, K♣ won and Q♣ won now make the stuk
    (40); J♣ won later with A♣ 10♣ K♣ Q♣ won before makes the five trumps
    (250; FI3: no re-use rule bars the stuk's cards). The ace and ten of
    trump won are brisques (line 16)."""
    state = position(
        "AC TC KC QC JC TH 9H AD",
        "7D 8D 9D 7S 8S 9S 8D 8S",
        "7H 8H 7H 8H 7D 9D 9S 7S JD 9C",
    )
    play(state, "AC 7D TC 8D KC 9D QC 7S")
    assert state.legal_actions() == ("meld:stuk", "pass")
    play(state, "meld:stuk JC 8S")
    assert state.legal_actions() == ("meld:trumps", "pass")
    play(state, "meld:trumps")
    assert view(state).points == (10 + 10 + 40 + 250, 0)


def test_four_aces_won_and_four_jacks_won() -> None:
    """Line 22: four aces 100, each ace won also a brisque (line 16); line 25:
    four jacks 40."""
    state = position(
        "AC AD AH AS 9H TH KD QD",
        "7D 8D 9D 7S 8S 9S 8D 8S",
        "7H 8H 7H 8H 7D 9D 7S 9C",
    )
    play(state, "AD 8D AH 9S AS 7S AC 9D")
    assert state.legal_actions() == ("meld:aces", "pass")
    play(state, "meld:aces")
    assert view(state).points == (40 + 100, 0)
    state = position(
        "JC JD JH JS 9H TH KD QD",
        "7D 8D 9D 7S 8S 9S 8D 8S",
        "7H 8H 7H 8H 7D 9D 7S 9C",
    )
    play(state, "JD 8D JH 9S JS 7S JC 9D")
    assert state.legal_actions() == ("meld:jacks", "pass")
    play(state, "meld:jacks")
    assert view(state).points == (40, 0)


def test_the_same_combination_once() -> None:
    """Line 18, FI3: a card is declared at most once in a kind, so the K♥ of a
    marias does not marry a second Q♥; a second K♥ does."""
    state = position("KH QH QH KH 8C AD 9H TH", LOW)
    play(state, "KH 7D QH 8D meld:marias:H")
    play(state, "QH 9D")
    assert view(state).phase == "stock"  # the only K♥ won is in a marias
    play(state, "KH 7S")
    assert state.legal_actions() == ("meld:marias:H", "pass")


def test_no_reuse_rule_a_card_of_a_marias_joins_four_kings() -> None:
    """FI3: Fildinski's text has no re-use rule; the K♥ of a marias joins four
    kings later."""
    state = position(
        "KH KD KS AC 9H TH AH AD",
        "7D 8D 7S 8S QH KC 9D 9S",
        "7H 8H 7H 8H 9D 7S 8C 9C",
    )
    play(state, "KH QH meld:marias:H KD 7D KS 8D")
    play(state, "AC KC")
    assert state.legal_actions() == ("meld:kings", "pass")
    play(state, "meld:kings")
    assert view(state).points == (20 + 10 + 80, 0)


def test_fildinski_and_double_fildinski() -> None:
    """Lines 28-29: J♦ Q♠ 40, both pairs 500 (FI3: the second pair makes a new
    fildinski too, and both pairs the double)."""
    state = position(
        "JD QS JD QS 8C 9H TH AH",
        "7D 8D 7S 8S 9D 9S 7D 8D",
        "7H 8H 7H 8H 7S 9D 8C 9C",
    )
    play(state, "JD 7D QS 8D")
    assert state.legal_actions() == ("meld:fildinski", "pass")
    play(state, "meld:fildinski JD 7S")
    assert view(state).phase == "stock"  # one Q♠ won, already in a fildinski
    play(state, "QS 8S")
    assert state.legal_actions() == (
        "meld:fildinski",
        "meld:double-fildinski",
        "pass",
    )
    play(state, "meld:double-fildinski")
    assert view(state).points == (540, 0)


def test_klaverjas_hartendame_makes_jc_qh_the_fildinski_with_spades_trump() -> None:
    """Line 38: with diamonds or spades trump, the fildinski is J♣ Q♥."""
    game = Fildinski(variant="klaverjas-hartendame")
    state = position(
        "JC QH 8C 9H TH AH 7H AD",
        "7D 8D 9D 8D 9D 7D 7C TC",
        "7H 8H 9H 9C 7S 8S 9S 9S",
        game,
    )
    play(state, "JC 7C QH 7D")
    assert view(state).trump == "S"
    assert state.legal_actions() == ("meld:fildinski", "pass")
    assert [k.name for k in fildinski_kinds(3, True)][-2:] == [
        "fildinski",
        "double-fildinski",
    ]


def test_the_dix_from_the_hand_with_a_combination() -> None:
    """Line 30, FI5: the trump 7 from the hand for the turned card, 10 points,
    in the same turn as a combination of won cards."""
    state = position(
        "KH QH 7C 8C 9H TH AH AD",
        "7D 8D 9D 8D 9D 7D 9S 8S",
        "7H 8H 7H 8H 7S 8S 9S 9C",
    )
    play(state, "KH 7D")
    assert state.legal_actions() == ("dix", "pass")
    play(state, "pass QH 8D")
    assert state.legal_actions() == ("meld:marias:H", "dix", "pass")
    play(state, "dix")
    assert state.legal_actions() == ("meld:marias:H", "pass")
    play(state, "meld:marias:H")
    v = view(state)
    assert v.points == (30, 0) and v.turned == "7C"
    assert v.shown[0] == (("9C", ()),)  # the card taken is known to both


def test_brisques_sevens_and_the_last_trick() -> None:
    """Line 16: each ace and ten won scores 10 at once, each trump 7 played 10;
    FI6: the winner of the last stock trick declares before the last draw;
    line 32: the last card drawn is the turned one, then follow suit and beat
    (else trump), and the last trick scores 10. A whole deal: 20-20."""
    state = position("AH TH 7C KH QH", "9H 7D 8D 9D QS", "8H 9C")
    play(state, "AH 9H")
    assert view(state).points == (10, 0)
    play(state, "pass")  # seat 0 could exchange its 7 of trump (the dix)
    v = view(state)
    assert v.phase == "final" and v.shown[1] == (("9C", ()),)
    play(state, "7C")
    assert state.legal_actions() == ("9C*",)  # follow clubs and beat (R11: open)
    play(state, "9C*")
    assert view(state).points == (20, 0)  # the trump 7 played scores
    play(state, "8D")
    assert set(state.legal_actions()) == {"TH", "KH", "QH", "8H"}  # no trump
    play(state, "8H 7D QH 9D KH QS TH")
    assert state._deal_scores[-1] == (20, 20)  # seat 1: the ten and the last


def test_no_melds_after_the_last_draw() -> None:
    """Line 32, FI6: once the last card is drawn, no more combinations, though K♥
    and Q♥ lie among seat 0's won cards."""
    state = position("KH QH AH 8C", "7D 8D 9D 7H", "8C 9S")
    play(state, "KH 7D")
    assert view(state).phase == "final"
    play(state, "QH 7H")
    v = view(state)
    assert v.phase == "final" and v.melds == () and v.tricks[-1][2] == 0


def test_sampled_worlds_keep_the_won_cards_and_their_notes() -> None:
    """FI7: won cards are public, with their combinations and, while a seat
    declares, which are new and which are used in the turn; the sampler keeps
    them all, in real deals."""
    rng = random.Random(3)
    checked = 0
    for seed in range(8):
        state = GAME.new_match(2, seed)
        while state.deal == 0 and not state.is_over():
            legal = state.legal_actions()
            melds = [a for a in legal if a.startswith("meld:")]
            state.apply(melds[0] if melds else rng.choice(legal))
            if state.view(0).phase == "meld":
                for seat in (0, 1):
                    v = state.view(seat)
                    world = GAME.sample_state(v, rng)
                    assert world.view(seat) == v
                    checked += 1
    assert checked > 20


def test_an_illegal_meld_is_named() -> None:
    state = GAME.new_match(2, 1)
    with pytest.raises(IllegalActionError, match="may not"):
        state.apply("meld:fildinski")


def test_the_cached_won_cards_equal_a_fresh_view() -> None:
    """The view's won cards are kept from trick to trick and a seat's declared
    or marked ones rebuilt only when they change (a trick won, a declaration,
    the end of a turn): at every decision of real matches, both seats' views
    equal those of a copy whose caches are emptied and whose won cards are
    named afresh from the deal's tricks."""
    rng = random.Random(11)
    for seed in range(6):
        state = GAME.new_match(2, seed)
        assert isinstance(state, FildinskiState)
        while not state.is_over():
            for seat in (0, 1):
                fresh = state.clone()
                fresh._clear_won()
                fresh._shown_key = None
                v = state.view(seat)
                assert fresh.view(seat) == v
                assert v.won == tuple(BEZIQUE.names(m) for m in state.won_cards())
            state.apply(rng.choice(state.legal_actions()))


def _reference_choice(
    state: FildinskiState, kind: Kind, won: list[int], new: set[int]
) -> tuple[int, ...] | None:
    """FI2-FI4's first step written out card by card: the copies ``kind``
    takes from the won cards ``won``, ``new`` those of the trick just won."""
    deck, history = state._deck, state._history
    picks: list[list[int]] = []
    for face in dict.fromkeys(kind.faces):
        # FI3: no copy already declared in this kind; FI4: old copies first.
        free = [
            c
            for c in won
            if deck.face_of(c) == face and not history.get(c, 0) & kind.bit
        ]
        ordered = [c for c in free if c not in new] + [c for c in free if c in new]
        need = kind.faces.count(face)
        if len(ordered) < need:
            return None
        picks.append(ordered[:need] + ordered[need : need + 1])  # take, then spare
    takes = [p[: kind.faces.count(f)] for p, f in
             zip(picks, dict.fromkeys(kind.faces), strict=True)]  # fmt: skip
    if not any(c in new for take in takes for c in take):
        # FI2 and FI4: the first face with a spare card of the trick gives it
        # for its last old copy.
        for take, p in zip(takes, picks, strict=True):
            spare = [c for c in p[len(take) :] if c in new]
            if spare:
                take[-1] = spare[0]
                break
        else:
            return None
    return tuple(c for take in takes for c in take)


def _reference_sets(
    state: FildinskiState, kind: Kind, won: list[int], new: set[int]
) -> list[tuple[int, ...]]:
    """Every copy set ``kind`` may take (FI2, FI3): per face in the kind's
    order, its free copies lowest first, every way; each holds a new card."""
    deck, history = state._deck, state._history
    sets: list[tuple[int, ...]] = [()]
    for face in dict.fromkeys(kind.faces):
        free = [
            c
            for c in won
            if deck.face_of(c) == face and not history.get(c, 0) & kind.bit
        ]
        ways = list(itertools.combinations(free, kind.faces.count(face)))
        sets = [done + way for done in sets for way in ways]
    return [cards for cards in sets if any(c in new for c in cards)]


def _reference_options(state: FildinskiState, seat: int) -> dict[str, tuple[int, ...]]:
    """FI2-FI4 written out card by card, without masks or quick tests: the
    declarations the bitmask search of ``_meld_options`` must find."""
    turn = state._turn_cards
    won = [c for c in range(64) if state._won[seat] >> c & 1 and not turn >> c & 1]
    new = {c for c in won if state._new >> c & 1}
    kinds = {"meld:" + kind.name: kind for kind in state._kinds}
    options: dict[str, tuple[int, ...]] = {}
    for name, kind in kinds.items():
        cards = _reference_choice(state, kind, won, new)
        if cards is not None:
            options[name] = cards

    def kept(name: str, cards: tuple[int, ...]) -> int:
        left = [c for c in won if c not in cards]
        fresh = new - set(cards)
        return sum(
            _reference_choice(state, kinds[other], left, fresh) is not None
            for other in options
            if other != name
        )

    # FI4's second step: copies that keep the most other offers possible,
    # the first such set in _reference_sets' order when the first step's
    # copies keep fewer.
    chosen = {}
    for name, cards in options.items():
        most = kept(name, cards)
        for other in _reference_sets(state, kinds[name], won, new):
            if kept(name, other) > most:
                cards, most = other, kept(name, other)
        chosen[name] = cards
    return chosen


def test_the_meld_search_equals_fi2_to_fi4_card_by_card() -> None:
    """FI2-FI4: at every turn of declarations of real matches (declaring as
    often as possible), the combinations offered and the copies they take are
    those of the rules applied card by card."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = GAME.new_match(2, seed)
        assert isinstance(state, FildinskiState)
        while not state.is_over():
            legal = state.legal_actions()
            if state.phase() == "meld":
                seat = state.to_act
                assert seat is not None
                melds = {a: c for a, c in state._options.items() if a != "dix"}
                assert melds == _reference_options(state, seat)
                checked += 1
            melds_legal = [a for a in legal if a.startswith("meld:")]
            state.apply(rng.choice(melds_legal) if melds_legal else rng.choice(legal))
    assert checked > 100


def _queens_then_qs_qh(leads: str) -> FildinskiState:
    """Issue 28's position: diamonds trump (9D turned); seat 0 wins a trick
    with each card of ``leads``, declaring nothing, then leads QS, and seat 1
    plays the QH it drew: the trick brings a second QS and a second QH."""
    state = FildinskiState.from_cards(
        GAME,
        ["QC QD QH QS KH KS QS", "7S 8S 7C 8C 9S 9C 8H"],
        "7H QH 9H 8C 7H 8H 9H TC JC JC TC 8D 7D JH 9D".split(),
    )
    losers = iter("7C 8C 8C 9C TC JC".split())
    for card in leads.split():
        play(state, f"{card} {next(losers)}")
        while state.phase() == "meld":
            play(state, "pass")
    play(state, "QS QH")
    return state


def test_the_copies_of_a_combination_leave_another_combination_possible() -> None:
    """FI4 (issue 28): four queens won before and K♥; the trick brings a
    second Q♠ and a second Q♥. The queens need one card of the trick: the
    new Q♠ leaves the new Q♥ for a marias with the old K♥ in the same turn
    (line 18), so the queens take it, not the new Q♥ (which would leave only
    the old Q♥ to the marias, with no card of the trick)."""
    state = _queens_then_qs_qh("QC QD QH QS KH")
    assert state.legal_actions() == ("meld:queens", "meld:marias:H", "pass")
    play(state, "meld:queens")
    assert state.legal_actions() == ("meld:marias:H", "pass")
    # FI7: the new QS is in the queens, the new QH still free.
    assert view(state).won_melds[0] == (
        ("QC", ("queens",), "used"),
        ("QD", ("queens",), "used"),
        ("QH", ("queens",), "used"),
        ("QH", (), "new"),
        ("QS", ("queens",), "new used"),
    )
    play(state, "meld:marias:H")
    assert [m[1:] for m in view(state).melds] == [
        ("queens", ("QC", "QD", "QH", "QS"), 60),
        ("marias:H", ("KH", "QH"), 20),
    ]


def test_two_marias_competing_for_the_trick_go_by_the_order_declared() -> None:
    """FI4 (issue 28's position, K♠ won too): the queens and each marias need
    a card of the trick, which brings two: no copies make all three (line 18,
    no card in two). The player chooses any two: the two marias, or the
    queens with the marias declared first."""
    state = _queens_then_qs_qh("QC QD QH QS KH KS")
    assert state.legal_actions() == (
        "meld:queens", "meld:marias:H", "meld:marias:S", "pass",
    )  # fmt: skip
    play(state, "meld:queens")
    assert state.legal_actions() == ("meld:marias:S", "pass")
    for first, second in (("marias:H", "marias:S"), ("marias:S", "marias:H")):
        state = _queens_then_qs_qh("QC QD QH QS KH KS")
        play(state, f"meld:{first}")
        assert state.legal_actions() == ("meld:queens", f"meld:{second}", "pass")
        play(state, "meld:queens")
        assert [m[1] for m in view(state).melds] == [first, "queens"]
        assert f"meld:{second}" not in state.legal_actions()
