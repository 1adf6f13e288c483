"""Hidden information in the Bezique family's moves and views (issue 27,
items 3 and 4): every seat's view, acting or not, and the copies of a card.

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt ("seed 000 line N");
rulings: games/bezique/RULES.md (R11 the open copy, F3 the winner's decision).
"""

from __future__ import annotations

import random

import pytest

from games.bezique import Bezique, Binage, Fildinski, Marjolet, Rubicon
from games.bezique.family import OPEN, PASS, FamilyGame, FamilyState
from games.cards import iter_bits
from harness import IllegalActionError
from tests.games.bezique.playing import play

GAMES: tuple[FamilyGame, ...] = (
    Bezique(),
    Marjolet(),
    Binage(),
    Rubicon(),
    Fildinski(),
)


def position(game: FamilyGame, seat0: str, seat1: str, stock: str) -> FamilyState:
    return game.STATE.from_cards(game, [seat0, seat1], stock.split())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_view_of_the_seat_not_to_act_shows_no_declarable_combination(
    game: FamilyGame,
) -> None:
    """F3 (issue 27 item 4): after ``7C 8C`` seat 1 has won the trick; holding
    KD+QD (a marias, seed 000 lines 120, 242, 284, 72) or KD+QC (nothing), it
    decides, ``pass`` perhaps its only move: seat 0's view is the same in both
    twins (phase, hand sizes, to_act ...), before the decision and after it."""
    twins = []
    for hand in ("8C KD QD", "8C KD QC"):
        state = position(game, "7C 9H 9S", hand, "7S 8S 8H JH")
        state.apply("7C")
        state.apply("8C")
        twins.append(state)
    with_pair, without = twins
    assert with_pair.view(0) == without.view(0)
    view = with_pair.view(0)
    assert view.phase == "meld" and view.to_act == 1 and view.hand_sizes == (2, 2)
    assert without.legal_actions() == (PASS,)
    if not isinstance(game, Fildinski):  # Fildinski melds its won cards (FI2)
        assert "meld:marias:D" in with_pair.legal_actions()
    for state in twins:
        state.apply(PASS)
    assert with_pair.view(0) == without.view(0)
    assert with_pair.view(0).hand_sizes == (3, 3)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_holding_the_trump_seven_does_not_show_in_the_others_view(
    game: FamilyGame,
) -> None:
    """F3: the dix (seed 000 lines 30, 123, 245, 286) is a declaration too: a
    winner with the trump 7 and one without give the other seat one view."""
    twins = []
    for hand in ("8C 7H 9D", "8C 8D 9D"):
        state = position(game, "7C 9C 9S", hand, "7S 8S JH 9H")
        state.apply("7C")
        state.apply("8C")
        twins.append(state)
    assert twins[0].view(0) == twins[1].view(0)
    assert twins[0].view(0).phase == "meld"
    if game.STATE.DIX_VALUE and game.STATE.TURNED:
        assert "dix" in twins[0].legal_actions()


def test_several_declarations_go_on_until_pass() -> None:
    """F1, F3 (Marjolet, seed 000 line 234): after a declaration the turn goes
    on, ``pass`` perhaps its only move, so the other seat cannot tell whether
    more was left to declare."""
    game = Marjolet()
    state = position(game, "9S 7C 8C", "KD QD TS", "7D 8D 7H 9H")
    state.apply("9S")
    state.apply("TS")
    state.apply("meld:marias:D")
    assert state.view(0).phase == "meld" and state.legal_actions() == (PASS,)


def test_fildinski_the_turned_card_and_its_hidden_twin_are_two_moves() -> None:
    """R11 (issue 27 item 3; seed 000 line 32, the last draw; lines 57, 107,
    any card): seat 0 takes the turned TS with the last draw (everyone saw
    it) and holds the other TS hidden.
    Under follow and beat (void in hearts, it must trump) both are legal,
    apart: ``TS*`` plays the open one, ``TS`` the hidden one, which leaves the
    turned TS known in seat 0's hand."""
    game = Fildinski()
    start = position(game, "TS 9C 8D", "AC 7H 8H", "JD TS")
    play(start, "9C AC 7H")
    assert start.view(1).shown[0] == (("TS", ()),)
    assert start.legal_actions() == ("TS", "TS*")
    hidden, shown = start.clone(), start.clone()
    hidden.apply("TS")
    assert hidden.view(1).shown[0] == (("TS", ()),)
    shown.apply("TS*")
    assert shown.view(1).shown[0] == ()
    for state in (hidden, shown):
        assert state.view(1).tricks[-1][1] == ("7H", "TS")
    # Nothing of seat 0's lies open at the first lead: no TS*.
    with pytest.raises(IllegalActionError, match="may not play 'TS\\*'"):
        position(game, "TS 9C 8D", "AC 7H 8H", "JD TS").apply("TS*")


def test_a_declared_bezique_stays_on_the_table_when_the_hidden_queen_goes() -> None:
    """R11 (seed 000 lines 107, 111, 121-122): any card may be played, the
    declared ones too; with one QS declared in a bezique and the other hidden,
    ``QS`` plays the hidden one and the bezique stays open (for a double
    bezique later); ``QS*`` plays the declared one."""
    game = Bezique()
    start = position(
        game, "JD QS QS AC 7C 8C", "7D 8D 9D 7S 8S JS", "7H 8H 9H 7H 8H 9H TS"
    )
    play(start, "AC 7D meld:bezique")
    assert start.legal_actions() == ("7C", "8C", "JD*", "7H", "QS", "QS*")
    hidden, shown = start.clone(), start.clone()
    hidden.apply("QS")
    assert hidden.view(1).shown[0] == (("JD", ("bezique",)), ("QS", ("bezique",)))
    shown.apply("QS*")
    assert shown.view(1).shown[0] == (("JD", ("bezique",)),)
    assert hidden.view(1).trick == shown.view(1).trick == ((0, "QS"),)


def _swap_copies(
    state: FamilyState, seat: int, open_card: int, hidden: int
) -> FamilyState:
    """A twin in which copy ``hidden`` lies open in ``open_card``'s place (its
    history too) and ``open_card`` is the hidden one: the same information."""
    twin = state.clone()
    twin._shown[seat] ^= 1 << open_card | 1 << hidden
    for table in (twin._history, twin._best):
        if open_card in table:
            table[hidden] = table.pop(open_card)
    twin._version += 1
    twin._legal = None
    return twin


@pytest.mark.parametrize(
    "game",
    [Bezique(target=300), Rubicon(target=300), Fildinski(target=300)],
    ids=lambda g: g.name,
)
def test_which_copy_went_shows_only_in_the_action(game: FamilyGame) -> None:
    """R11 (property, random matches): whenever the seat to act holds an open
    and a hidden copy of a card, both are legal, apart; and which physical copy
    lies open changes no view: after ``X`` or ``X*`` each seat's view is the
    same in the twin where the copies' roles are swapped."""
    rng = random.Random(27)
    events = 0
    for seed in range(6):
        state = game.new_match(2, seed)
        while not state.is_over():
            legal = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            if state._playing:
                deck = state._deck
                hand, shown = state.hands[seat], state._shown[seat]
                for action in legal:
                    if not action.endswith(OPEN):
                        continue
                    copies = deck.face_masks[deck.index[action[:-1]] // deck.copies]
                    open_cards = list(iter_bits(copies & hand & shown))
                    hidden_cards = list(iter_bits(copies & hand & ~shown))
                    if not hidden_cards:
                        continue
                    assert action[:-1] in legal
                    events += 1
                    twin = _swap_copies(state, seat, open_cards[0], hidden_cards[0])
                    for move in (action[:-1], action):
                        a, b = state.clone(), twin.clone()
                        a.apply(move)
                        b.apply(move)
                        for s in (0, 1):
                            assert a.view(s) == b.view(s), (seed, move)
            state.apply(rng.choice(legal))
    assert events > 0
