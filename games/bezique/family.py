"""The family base of the Bezique games: one body of code, parametrised per game.

The five games (Bezique, Rubicon, Fildinski, Marjolet, Binage; seed 000 lines
1-139 and 215-294) share their shape: two players, a hand refilled from a stock
after every trick (any card may be played while the stock lasts), combinations
declared by the winner of a trick before drawing, declared cards laid open but
still part of the hand and playable, then, once the stock is empty, the last
tricks with the duty to follow suit and beat the led card. A game subclasses
:class:`FamilyState` and sets its class parameters (deck, hand size, card
points and last trick in :attr:`FamilyState.RULES`, turned trump, sevens, dix,
one or several combinations per trick, the re-use rule, melds in the final
phase) and :meth:`FamilyState._kinds_for` (its combination table); what differs
beyond that goes in the hooks (``_meld_pool``, ``_may_declare``,
``_declared``, ``_last_draw``, ``_deal_bonus``, ``_set_trump``).

A card is an index in the game's deck (``face * copies + copy``, face ``suit *
8 + position in "789TJQKA"``); a hand is an ``int`` mask. A deal: dealer ``(k
+ 1) % 2`` in deal ``k``, so seat ``k % 2`` leads first. The stock is a list
whose index 0 is drawn last (the turned card, in the games that turn one) and
whose end is the next card to draw. After a trick the winner may declare
(``meld:KIND``), exchange the trump 7 for the turned card (``dix``) or
``pass``, even with nothing to declare (RULES.md F3); with
:attr:`FamilyState.SEVERAL` the winner goes on declaring until ``pass``. Then
both draw, the winner first. In a pack with copies a copy lying open is the
move ``QS*``, a hidden one ``QS`` (R11). Seat ``s``'s *shown* cards are
those of its hand that everyone knows: laid open by a declaration, or the
turned card taken by the dix or the last draw.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, NoReturn, Self

from games.bezique.estimate import deal_estimate
from games.bezique.melds import Kind, Needs, cached_per_table, choose_cards, face, needs
from games.cards import PIQUET, SUIT_WORDS, SUITS, CardMask, Deck, iter_bits
from games.sampling import ConstrainedDealer
from games.tricks import (
    BEAT_LED,
    FREE_PLAY,
    TrickRecord,
    TrickRules,
    TrickState,
    TrickTables,
)
from harness import (
    ActionKind,
    Game,
    IllegalActionError,
    InvalidActionError,
    Result,
    Sampler,
    State,
    View,
)
from harness.contracts.game import Aside, reject_action
from harness.contracts.seeding import deal_rng
from harness.contracts.view import new_view
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "DIX",
    "MELD",
    "OPEN",
    "PASS",
    "PIQUET_RULES",
    "SUIT_WORDS",
    "FamilyGame",
    "FamilySampler",
    "FamilyState",
    "FamilyView",
    "family_moves",
]

PASS, DIX = "pass", "dix"
MELD = "meld:"
#: After a card's name: the copy of it that lies open (R11), ``QS*``.
OPEN = "*"
#: The view's ``shown`` while no card lies open.
_NONE_SHOWN: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ((), ())


def meld_words(kind: str) -> str:
    """A combination's kind as a card player says it (its cards follow it in
    the narration): ``"marias:D"`` -> ``"marias in diamonds"``, ``"aces"`` ->
    ``"four aces"``, ``"trumps"`` -> ``"the trump sequence"``, ``"five:S"`` ->
    ``"a sequence in spades"``, ``"marjolet:H"`` -> ``"marjolet with the queen
    of hearts"``, ``"carte-blanche"`` -> ``"carte blanche"``."""
    name, _, suit = kind.partition(":")
    if name in ("aces", "tens", "kings", "queens", "jacks"):
        return f"four {name}"
    if name == "trumps":
        return "the trump sequence"
    if not suit:
        return name.replace("-", " ")
    suit = SUIT_WORDS[SUITS.index(suit)]
    if name == "marjolet":
        return f"marjolet with the queen of {suit}"
    if name == "five":
        return f"a sequence in {suit}"
    return f"{name.replace('-', ' ')} in {suit}"


def family_moves(
    deck: Deck, tables: Iterable[Sequence[Kind]], *, dix: bool = True
) -> tuple[ActionKind, ...]:
    """The kinds of move of a family game whose combinations are ``tables``
    (every table the game's trumps and options give), for its reference page."""
    names = sorted({kind.name for table in tables for kind in table})
    moves = [ActionKind("<card>", deck.pattern(), "play this card to the trick")]
    if deck.copies > 1:
        moves.append(
            ActionKind(
                "<card>*",
                deck.pattern() + re.escape(OPEN),
                "play the copy of this card that lies open on the table (R11)",
            )
        )
    moves.append(
        ActionKind(
            "meld:<combination>",
            MELD + "(?:" + "|".join(map(re.escape, names)) + ")",
            "declare a combination after winning a trick: "
            + ", ".join(f"{name} ({meld_words(name)})" for name in names),
        )
    )
    if dix:
        moves.append(ActionKind("dix", DIX, "exchange the trump 7 for the turned card"))
    moves.append(ActionKind("pass", PASS, "declare nothing (more) after a trick"))
    return tuple(moves)


#: The one-pack games (Marjolet, Binage): ranks A 10 K Q J 9 8 7 in every suit,
#: brisques (each ace and ten won scores 10), 10 for the last trick.
PIQUET_RULES = TrickRules(
    PIQUET,
    plain_order="789JQKTA",
    trump_order="789JQKTA",
    plain_points={"A": 10, "T": 10},
    last_trick=10,
)


#: Per kind: the copies it needs all of (one pack: every card it needs), and
#: ``(copies mask, copies needed)`` for the faces it needs only some copies of.
_Checks = tuple[tuple[Kind, CardMask, tuple[tuple[CardMask, int], ...]], ...]
#: By the id of a :func:`needs` result, which each entry keeps alive.
_CHECKS: dict[int, tuple[Needs, _Checks]] = {}


def _checks(kind_needs: Needs) -> _Checks:
    """The quick test of :meth:`FamilyState._meld_options`, cached per table."""
    return cached_per_table(_CHECKS, kind_needs, _build_checks)


def _build_checks(kind_needs: Needs) -> _Checks:
    return tuple(
        (
            kind,
            sum(m for m, n in faces if m.bit_count() == n),
            tuple(f for f in faces if f[0].bit_count() != f[1]),
        )
        for kind, faces in kind_needs
    )


@dataclass(frozen=True)
class FamilyView(View):
    """What one seat knows: perfect recall of the deal, the scores of earlier ones.

    A game whose table shows more (Fildinski's won cards) subclasses it and
    adds fields after these.
    """

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; the other seat leads the first trick.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``"stock"`` (any card), ``"meld"`` (a trick's winner declares or passes),
    #: ``"final"`` (the last tricks) or ``"over"``.
    phase: str
    #: The trump suit (``C D H S``); ``None`` while a game without a turned
    #: card has no trump yet.
    trump: str | None
    #: The card turned under the stock, while it is there; ``None`` once drawn
    #: (always ``None`` in a game that turns no card).
    turned: str | None
    #: Cards left in the stock, the turned card included.
    stock: int
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: Each seat's number of cards in hand.
    hand_sizes: tuple[int, int]
    #: Per seat, the cards of its hand everyone knows, each with the
    #: combinations it was declared in: ``((card, (kind, ...)), ...)``.
    shown: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    #: This deal's declarations: ``(seat, kind, cards, points)``; the dix is
    #: ``(seat, "dix", (seven, card taken), points)``.
    melds: tuple[tuple[int, str, tuple[str, ...], int], ...]
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks: ``(leader, cards, winner, card points, 0)``;
    #: the last trick's points include its bonus.
    tricks: tuple[TrickRecord, ...]
    #: This deal's points so far per seat (cards, melds, sevens, bonuses).
    points: tuple[int, int]
    #: Each finished deal's points per seat.
    deal_scores: tuple[tuple[int, int], ...]
    #: The match totals per seat.
    scores: tuple[int, int]


def _told_with(line: str, more: str) -> str:
    """``line`` and then ``more``, which every seat hears: an Aside stays one,
    told to the others as its public text and ``more``, or ``more`` alone."""
    if not isinstance(line, Aside):
        return line + more
    public = more.removeprefix("; ") if line.public is None else line.public + more
    return Aside(line + more, line.seats, public)


class FamilyState(TrickState):
    """The referee's truth of one match of a Bezique-family game.

    The class parameters below are the game's; the defaults are Bezique's.
    """

    #: The deck, the rank order, the card points (brisques) and the last trick.
    RULES: ClassVar[TrickRules]
    #: Cards dealt to each player.
    HAND: ClassVar[int] = 8
    #: Whether the card after the hands is turned for trump and drawn last.
    TURNED: ClassVar[bool] = True
    #: What a turned 7 scores for the dealer.
    TURNED_SEVEN: ClassVar[int] = 10
    #: What each trump 7 played scores for the seat that plays it.
    SEVEN_PLAYED: ClassVar[int] = 10
    #: What the dix scores; 0: the game has no dix.
    DIX_VALUE: ClassVar[int] = 10
    #: Several combinations per trick won (else exactly one, or the dix).
    SEVERAL: ClassVar[bool] = False
    #: A declared card joins a later combination only if that one is worth at
    #: least as much as every combination the card was declared in.
    REUSE_RULE: ClassVar[bool] = True
    #: A combination may be declared again with cards already declared in it
    #: and one new card (Rubicon, seed 000 line 84), else only with cards all
    #: new to it (Bezique: line 84 names refilling as Rubicon's difference; R4).
    REFILL: ClassVar[bool] = False
    #: Whether the winner of a trick of the final phase may declare too.
    MELDS_IN_FINAL: ClassVar[bool] = False
    #: Whether the match ends the moment a seat's total (earlier deals and this
    #: deal's points so far) reaches the target ("who first reaches 500 wins"),
    #: else after the deal in which a seat reaches it (Bezique's R1).
    ENDS_AT_ONCE: ClassVar[bool] = False
    #: The view class the game's seats receive.
    VIEW: ClassVar[type[FamilyView]] = FamilyView

    game: FamilyGame

    def __init__(self, game: FamilyGame, seed: int) -> None:
        self._blank(game, seed)
        self._start_deal()

    # -- the game's own parts (override) -------------------------------------------

    def _kinds_for(self, trump: int) -> tuple[Kind, ...]:
        """The game's combinations with suit ``trump`` trump (-1: none yet):
        by default :meth:`FamilyGame.combinations`."""
        return self.game.combinations(trump)

    def _declarable(self, kinds: tuple[Kind, ...], trump: int) -> tuple[Kind, ...]:
        """The part of ``kinds`` (the table of :meth:`_kinds_for`) that may be
        declared as a set of faces with suit ``trump`` trump; by default all
        (Rubicon: its table names every kind under every trump)."""
        return kinds

    def _meld_pool(self, seat: int) -> tuple[CardMask, CardMask]:
        """``(cards, open cards)`` ``seat`` may form combinations from: its hand
        and the part of it lying open (Fildinski: its won cards)."""
        return self.hands[seat], self._shown[seat]

    def _may_declare(self, seat: int, kind: Kind, cards: tuple[int, ...]) -> bool:
        """Whether ``seat`` may declare ``kind`` with ``cards`` now, beyond the
        family's rules (Fildinski: a card of the trick just won)."""
        return True

    def _lay_open(self, seat: int, cards: CardMask) -> None:
        """Lay declared ``cards`` open before ``seat`` (they stay in its hand;
        Fildinski, whose melds lie among the won cards, lays nothing)."""
        self._shown[seat] |= cards

    def _declared(self, seat: int, kind: Kind, cards: tuple[int, ...]) -> None:
        """Called after a declaration has scored (Rubicon: the first marias
        sets trump)."""

    def _last_draw(self, winner: int) -> None:
        """Called when the last card of the stock has been drawn, before the
        final phase's first card (Marjolet: 10 for who drew it)."""

    def _deal_bonus(self) -> None:
        """Called when the last trick of a deal is closed, before the deal is
        scored (Marjolet: 40 for all tricks of the final phase)."""

    def _material_pool(self, seat: int) -> CardMask:
        """The cards ``seat``'s combinations are made of (for the estimate's
        meld material): its hand (Fildinski: its won cards)."""
        return self.hands[seat]

    def _meld_prospects(self, seat: int) -> list[int]:
        """The points of each declaration ``seat``'s cards allow now, as if it
        had won a trick (for :func:`~games.bezique.estimate.deal_estimate`;
        Fildinski, whose melds need a card just won, has none)."""
        values = {MELD + kind.name: kind.value for kind in self._kinds}
        values[DIX] = self.DIX_VALUE
        return [values[action] for action in self._meld_options(seat)]

    # -- building a state ----------------------------------------------------------

    def _blank(self, game: FamilyGame, seed: int) -> None:
        """Every attribute at the start of a match, before deal 0 is dealt."""
        self.game = game
        self.n_seats = 2
        self.seed = seed
        self._target: int = game.options["target"]
        self.deal = 0
        self.dealer = 1
        self.to_act: int | None = 0
        rules = self.RULES
        deck = rules.deck
        self._deck: Deck = deck
        self._copies = deck.copies
        self._use_rules(rules, 2)
        #: Every copy of a hand, in deck order (views, card locations).
        self._hand_names: Callable[[CardMask], tuple[str, ...]] = deck.names
        self._over = False
        self.trump = -1
        #: The view's ``trump``: the trump suit's letter, or ``None``.
        self._trump_name: str | None = None
        self._seven = -1
        self._kinds: tuple[Kind, ...] = ()
        self._kind_needs: Needs = ()
        self._kind_checks: _Checks = ()
        self._stock: list[int] = []
        self._shown = [0, 0]
        #: Per declared card: the mask of kinds it was declared in, and the
        #: highest value among them (the re-use rule).
        self._history: dict[int, int] = {}
        self._best: dict[int, int] = {}
        self._melding = False
        #: The cards declared in the current turn of declarations.
        self._turn_cards = 0
        #: Bumped when a card's history changes or the histories are cleared
        #: for a new deal (the view's cache of ``shown``).
        self._version = 0
        self._shown_key: tuple[int, int, int] | None = None
        self._shown_view: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
        self._options: dict[str, tuple[int, ...]] = {}
        self._melds: tuple[tuple[int, str, tuple[str, ...], int], ...] = ()
        self._points = [0, 0]
        self._deal_scores: tuple[tuple[int, int], ...] = ()
        self._totals = (0, 0)
        self._final_trick: TrickRecord = (0, (), 0, 0, 0)
        #: While :meth:`narrate` applies an action: what hooks tell (bonuses).
        self._notes: list[str] | None = None

    def _start_deal(self) -> None:
        """Shuffle and deal deal ``self.deal`` from ``deal_rng(seed, deal)`` alone."""
        k = self.deal
        order = self._deck.shuffled(deal_rng(self.seed, k))
        self.dealer = (k + 1) % 2
        leader = k % 2
        hands = [0, 0]
        size = self.HAND
        # The first HAND cards of the shuffle go to the leader, the next to the
        # dealer; the rest is the stock, its first card the turned one (if any).
        for i, card in enumerate(order[: 2 * size]):
            hands[(leader + i // size) % 2] |= 1 << card
        self._setup(hands, order[2 * size :], leader)
        if (
            self.TURNED
            and self.TURNED_SEVEN
            and self._face(self._stock[0]) == (self._seven)
        ):
            # A turned 7 scores for the dealer (seed 000 lines 8, 101, 224, 268).
            self._points[self.dealer] += self.TURNED_SEVEN
            if self.ENDS_AT_ONCE:
                self._reached()

    def _setup(self, hands: list[CardMask], stock: list[int], leader: int) -> None:
        """Start the play of a deal with these hands and stock (drawn from the end)."""
        self._reset_tricks(2)
        self.hands = hands
        self._stock = stock
        self._shown = [0, 0]
        self._history = {}
        self._best = {}
        # The histories are new: a card of this deal that lies open with the
        # same index (the same copy) as one declared in the deal before must
        # not take its kinds from the view's cache of ``shown``.
        self._version += 1
        self._melding = False
        self._turn_cards = 0
        self._options = {}
        self._melds = ()
        self._points = [0, 0]
        trump = stock[0] // self._copies // 8 if self.TURNED and stock else -1
        self._set_kinds(trump)
        # Any card while the stock lasts.
        self._begin_tricks(self._tables_for(trump), FREE_PLAY, leader)

    def _set_kinds(self, trump: int) -> None:
        """Set the trump suit and what depends on it, but not the card play."""
        self.trump = trump
        self._trump_name = SUITS[trump] if trump >= 0 else None
        self._seven = face("7", trump) if trump >= 0 else -1
        self._kinds = self._kinds_for(trump)
        self._kind_needs = needs(self._declarable(self._kinds, trump), self._deck)
        self._kind_checks = _checks(self._kind_needs)

    def _tables_for(self, trump: int) -> TrickTables:
        return self.RULES.tables(trump) if trump >= 0 else self.RULES.tables()

    def _set_trump(self, trump: int) -> None:
        """Make ``trump`` the trump suit from the next trick on (Rubicon)."""
        self._set_kinds(trump)
        tables = self._tables_for(trump)
        self._tables, self._beats = tables, tables.beats
        self._set_duties(self._duties)

    def _face(self, card: int) -> int:
        return card // self._copies

    # -- the trick and what follows it ----------------------------------------

    def _trick_complete(self) -> None:
        leader = self._leader
        lead, answer = self._trick
        seven = self._seven
        if self.SEVEN_PLAYED and seven >= 0:
            # R7: each trump 7 played scores for the seat that plays it.
            copies = self._copies
            if lead // copies == seven:
                self._points[leader] += self.SEVEN_PLAYED
            if answer // copies == seven:
                self._points[1 - leader] += self.SEVEN_PLAYED
        history = self._history
        if history:  # declared cards leave their histories when played
            best = self._best
            for card in (lead, answer):
                if card in history:
                    del history[card]
                    del best[card]
        shown = self._shown
        if shown[0] or shown[1]:
            shown[leader] &= ~(1 << lead)
            shown[1 - leader] &= ~(1 << answer)
        record = self._close_trick()
        winner = record[2]
        points = self._points
        points[winner] += record[3]
        self.to_act = winner
        if self.ENDS_AT_ONCE:
            totals, target = self._totals, self._target
            if (
                totals[0] + points[0] >= target or totals[1] + points[1] >= target
            ) and self._reached():
                return
        if self._stock or (self.MELDS_IN_FINAL and self.hands[winner]):
            # F3: the winner always decides, ``pass`` perhaps its only move,
            # so no other seat learns whether it held a combination.
            self._turn_cards = 0
            self._options = self._meld_options(winner)
            self._melding = True
            self._playing = False
            self._legal = None
        elif not self.hands[winner]:
            self._finish_deal()

    def _meld_options(self, seat: int) -> dict[str, tuple[int, ...]]:
        """The declarations ``seat`` may make now: action -> cards (R3-R5)."""
        pool, shown = self._meld_pool(seat)
        history, best, deck = self._history, self._best, self._deck
        reuse, refill = self.REUSE_RULE, self.REFILL
        options: dict[str, tuple[int, ...]] = {}
        for kind, must, kind_needs in self._kind_checks:
            if pool & must != must:
                continue
            for mask, need in kind_needs:
                if (pool & mask).bit_count() < need:
                    break
            else:
                cards = choose_cards(
                    kind, pool, shown, history, best if reuse else {}, deck, refill
                )
                if cards is not None and self._may_declare(seat, kind, cards):
                    options[MELD + kind.name] = cards
        if self.DIX_VALUE and self._stock and self.TURNED and self._seven >= 0:
            seven = self._seven
            sevens = self.hands[seat] & deck.face_masks[seven]
            if sevens and self._face(self._stock[0]) != seven:
                options[DIX] = ((sevens & -sevens).bit_length() - 1,)
        return options

    # -- copies of a card: the open one and the hidden one (R11) -----------------

    def legal_actions(self) -> tuple[str, ...]:
        """The engine's legal actions; in a pack with copies, a copy lying open
        before the seat to act is its own move, the card's name and ``*``
        (``QS*``), apart from the hidden copies (``QS``) (R11)."""
        legal = self._legal
        if legal is not None:
            return legal
        legal = TrickState.legal_actions(self)
        if self._playing and self._multi_copy:
            mask = self._legal_mask
            open_ = self._shown[self.to_act] & mask  # type: ignore[index]
            if open_:
                legal = self._legal = self._split_copies(mask, open_)
        return legal

    def _split_copies(self, mask: CardMask, open_: CardMask) -> tuple[str, ...]:
        """The names of the cards of ``mask``, in deck order: a face's hidden
        copies as ``QS``, then its copies in ``open_`` as ``QS*``."""
        deck = self._deck
        faces, names = deck.face_masks, deck.cards
        copies = self._copies
        moves: list[str] = []
        while mask:
            card = (mask & -mask).bit_length() - 1
            copies_of = faces[card // copies]
            mask &= ~copies_of
            name = names[card]
            if self._legal_mask & copies_of & ~open_:
                moves.append(name)
            if open_ & copies_of:
                moves.append(name + OPEN)
        return tuple(moves)

    def apply(self, action: str) -> None:
        """Play ``action``; with copies, ``QS*`` plays an open copy of ``QS``
        and ``QS`` a hidden one (R11)."""
        play = action
        if self._playing and self._multi_copy and isinstance(action, str):
            seat: int = self.to_act  # type: ignore[assignment]
            shown = self._shown[seat]
            if shown or action.endswith(OPEN):
                name = action.removesuffix(OPEN)
                card = self._card_index.get(name)
                if card is not None:
                    legal = self.legal_actions()
                    if action not in legal:
                        raise IllegalActionError(
                            f"seat {seat} may not play {action!r} now; legal: "
                            f"{', '.join(legal)}"
                        )
                    copies_of = self._deck.face_masks[card // self._copies]
                    want = shown if name != action else ~shown
                    # The engine plays the lowest legal copy: leave it only these.
                    self._legal_mask &= copies_of & want
                    play = name
        TrickState.apply(self, play)

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        return (*self._options, PASS)

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if not isinstance(action, str):
            raise InvalidActionError(f"an action is a string, not {action!r}")
        seat = self.to_act
        assert seat is not None
        if action == PASS:
            pass
        elif action == DIX and DIX in self._options:
            self._dix(seat, self._options[DIX][0])
        elif action in self._options:
            self._declare(seat, action[len(MELD) :], self._options[action])
        else:
            self._bad_action(action)
        self._legal = None
        if action != PASS and self.ENDS_AT_ONCE and self._reached():
            return
        if self.SEVERAL and action != PASS:
            # F3: the turn goes on until ``pass``, whatever is left to declare.
            self._options = self._meld_options(seat)
            return
        self._options = {}
        self._melding = False
        self._playing = True
        self._after_melds(seat)

    def _after_melds(self, seat: int) -> None:
        """The winner has declared what it would: draw, or play on."""
        self.to_act = seat
        self._legal = None
        if self._stock:
            self._draw(seat)

    def action_words(self) -> set[str]:
        """Every action but a card from the hand, under any trump: the
        declarations and, with several copies of a card, a card played from
        the table (``7C*``); for the game's encoding."""
        words = self._known_actions()
        if self._copies > 1:
            words |= {face + OPEN for face in self._deck.faces}
        return words

    def _known_actions(self) -> set[str]:
        """Every declaration the game knows, under any trump."""
        known = {PASS}
        if self.DIX_VALUE:
            known.add(DIX)
        for trump in range(-1 if not self.TURNED else 0, 4):
            known |= {MELD + k.name for k in self._kinds_for(trump)}
        return known

    def _bad_action(self, action: object) -> NoReturn:
        dix = ", 'dix'" if self.DIX_VALUE else ""
        reject_action(
            self,
            action,
            lambda a: (
                a in self._deck.index
                or (self._copies > 1 and a.removesuffix(OPEN) in self._deck.index)
                or a in self._known_actions()
            ),
            f"a {self.game.name} action: a card such as 'AS' or 'TH', 'pass'{dix} "
            "or 'meld:' and a combination ('meld:stuk')",
        )

    def _declare(self, seat: int, name: str, cards: tuple[int, ...]) -> None:
        kind = next(k for k in self._kinds if k.name == name)
        history, best = self._history, self._best
        mask = 0
        for card in cards:
            history[card] = history.get(card, 0) | kind.bit
            best[card] = max(best.get(card, 0), kind.value)
            mask |= 1 << card
        self._turn_cards |= mask
        self._lay_open(seat, mask)
        self._points[seat] += kind.value
        self._version += 1
        names = tuple(self._card_names[c] for c in cards)
        self._melds += ((seat, name, names, kind.value),)
        self._declared(seat, kind, cards)

    def _dix(self, seat: int, seven: int) -> None:
        """The trump 7 for the turned card (seed 000 lines 30, 123, 245, 286)."""
        turned = self._stock[0]
        self.hands[seat] ^= 1 << seven | 1 << turned
        self._stock[0] = seven
        self._shown[seat] |= 1 << turned  # R8: the card taken is known
        self._points[seat] += self.DIX_VALUE
        names = self._card_names
        self._melds += ((seat, DIX, (names[seven], names[turned]), self.DIX_VALUE),)

    def _draw(self, winner: int) -> None:
        """Both draw, the winner first; the last card drawn is the turned one."""
        hands = self.hands
        card = self._stock.pop()
        hands[winner] |= 1 << card
        card = self._stock.pop()
        hands[1 - winner] |= 1 << card
        if not self._stock:
            if self.TURNED:
                # The loser takes the turned card (known to both, R8).
                self._shown[1 - winner] |= 1 << card
            # No more melds (unless the game allows them); follow and beat.
            self._set_duties(BEAT_LED)
            self._last_draw(winner)
            if self.ENDS_AT_ONCE and self._reached():
                return
        self.to_act = winner
        self._legal = None

    def _reached(self) -> bool:
        """End the match if a seat's total with this deal's points so far has
        reached the target (:attr:`ENDS_AT_ONCE`); the deal so far is scored."""
        a = self._totals[0] + self._points[0]
        b = self._totals[1] + self._points[1]
        if max(a, b) < self._target:
            return False
        if self._tricks:
            self._final_trick = self._tricks[-1]
        seats = [s for s, total in enumerate((a, b)) if total >= self._target]
        self._note(
            f"seat {' and '.join(map(str, seats))} reached {self._target}: the "
            "match ends at once"
        )
        self._deal_scores += ((self._points[0], self._points[1]),)
        self._totals = (a, b)
        self._melding = False
        self._options = {}
        self._end_match()
        return True

    def _note(self, line: str) -> None:
        """Tell ``line`` in the narration of the action being applied."""
        if self._notes is not None:
            self._notes.append(line)

    def _finish_deal(self) -> None:
        self._deal_bonus()
        self._final_trick = self._tricks[-1]
        scores = (self._points[0], self._points[1])
        self._deal_scores += (scores,)
        self._totals = (self._totals[0] + scores[0], self._totals[1] + scores[1])
        if max(self._totals) >= self._target:
            # R1: the match ends after the deal in which a seat reaches the target.
            self._end_match()
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    # -- the contract ---------------------------------------------------------

    def result(self) -> Result:
        """Totals per seat; ``deal_points[k]`` is each seat's points of deal k."""
        return Result.from_scores(self._totals, (0, 1), list(self._deal_scores))

    def phase(self) -> str:
        """``"stock"``, ``"meld"``, ``"final"`` or ``"over"`` (see the view)."""
        if self._over:
            return "over"
        if self._melding:
            return "meld"
        return "stock" if self._stock else "final"

    def view(self, seat: int) -> FamilyView:
        """What ``seat`` knows now.

        Built without the dataclass ``__init__`` (as klaverjassen's view is):
        the new instance's dict is filled directly (a subclass with more fields
        updates it after this). The ``shown`` field is rebuilt only when the
        shown cards or their histories change.
        """
        hands = self.hands
        names = self._card_names
        shown = self._shown
        if not (shown[0] or shown[1]):
            shown_view = _NONE_SHOWN  # the commonest case: nothing lies open
        elif (
            key := (shown[0] & hands[0], shown[1] & hands[1], self._version)
        ) == self._shown_key:
            shown_view = self._shown_view
        else:
            self._shown_key = key
            history = self._history
            kinds = self._kinds
            shown_view = self._shown_view = tuple(
                tuple(
                    (
                        names[c],
                        tuple(k.name for k in kinds if history.get(c, 0) & k.bit),
                    )
                    for c in iter_bits(mask)
                )
                for mask in key[:2]
            )
        to_act = self.to_act
        stock = self._stock
        hand = hands[seat]
        if seat == to_act:
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            # Any card may go and the hand holds no two copies of a card: the
            # hand's names are the legal actions (a call saved).
            if (
                hand == self._legal_mask
                and len(legal) == hand.bit_count()
                and not (self._multi_copy and hand & self._shown[seat])
            ):
                hand_names = legal
            else:
                hand_names = self._hand_names(hand)
        else:
            legal = ()
            hand_names = self._hand_names(hand)
        view = new_view(self.VIEW)
        # Item by item: a keyword update would build a second dict per view.
        fields = view.__dict__
        fields["seat"] = seat
        fields["legal_actions"] = legal
        fields["deal"] = self.deal
        fields["dealer"] = self.dealer
        fields["to_act"] = to_act
        fields["phase"] = (
            "over"
            if self._over
            else "meld"
            if self._melding
            else "stock"
            if stock
            else "final"
        )
        fields["trump"] = self._trump_name
        fields["turned"] = names[stock[0]] if stock and self.TURNED else None
        fields["stock"] = len(stock)
        fields["hand"] = hand_names
        fields["hand_sizes"] = (hands[0].bit_count(), hands[1].bit_count())
        fields["shown"] = shown_view
        fields["melds"] = self._melds
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        fields["points"] = (self._points[0], self._points[1])
        fields["deal_scores"] = self._deal_scores
        fields["scores"] = self._totals
        return view

    def clone(self) -> FamilyState:
        """An independent copy (the mutable containers copied, the rest shared)."""
        twin = super().clone()
        twin._stock = self._stock[:]
        twin._shown = self._shown[:]
        twin._history = dict(self._history)
        twin._best = dict(self._best)
        twin._points = self._points[:]
        return twin

    def deck(self) -> tuple[str, ...]:
        """Every card of the game's pack."""
        return self._deck.cards

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Hands (hidden part and shown part), stock, turned card, trick, won piles."""
        names = self._hand_names
        places: dict[str, tuple[str, ...]] = {}
        for s in (0, 1):
            places[f"hand:{s}"] = names(self.hands[s] & ~self._shown[s])
            places[f"shown:{s}"] = names(self.hands[s] & self._shown[s])
        stock = self._stock
        turned = self.TURNED and bool(stock)
        places["stock"] = names(sum(1 << c for c in stock[1 if turned else 0 :]))
        places["turned"] = (self._card_names[stock[0]],) if turned else ()
        places["trick"] = tuple(self._card_names[c] for c in self._trick)
        for s, won in enumerate(self.won_cards()):
            places[f"won:{s}"] = names(won)
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other seat's hidden cards and the stock under the turned card."""
        return frozenset({f"hand:{1 - seat}", "stock"})

    # -- for people -------------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Deal 0 told as every later deal: dealer, the turned card and trump."""
        return [self.opening_line()]

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell it: cards, tricks, melds on the table, scores."""
        seat, deal = self.to_act, self.deal
        n_tricks, n_melds = len(self._tricks), len(self._melds)
        stock_before = len(self._stock)
        melding = self._melding
        trick = self._trick_view
        names = self._card_names
        seven = names[self._seven * self._copies] if self._seven >= 0 else ""
        n_deals = len(self._deal_scores)
        notes: list[str] = []
        self._notes = notes
        try:
            self.apply(action)
        finally:
            self._notes = None
        new_deal = self.deal != deal or self._over
        lines: list[str] = []
        if melding:
            lines += self._tell_meld(seat, action, n_melds)
        else:
            # R11: ``QS*`` is told as the card, and which copy it was.
            told = action.removesuffix(OPEN)
            if told != action:
                told += ", the open copy"
            lines.append(f"seat {seat} plays {told}")
            if new_deal or len(self._tricks) > n_tricks:
                record = self._final_trick if new_deal else self._tricks[-1]
                _, cards, winner, pts, _ = record
                line = f"seat {seat} plays {told}: trick to seat {winner} " + (
                    f"({' '.join(cards)})"
                )
                if pts:
                    line += f": {pts} points"
                if self.SEVEN_PLAYED:
                    for who, card in (*trick, (seat, action.removesuffix(OPEN))):
                        if card == seven:
                            line += f"; trump 7 by seat {who}: {self.SEVEN_PLAYED}"
                lines[-1] = line
        lines += notes
        if new_deal:
            for k, (a, b) in enumerate(self._deal_scores[n_deals:], deal):
                lines.append(
                    f"deal {k} scores {a}-{b}; match "
                    f"{self._totals[0]}-{self._totals[1]}"
                )
            if self._over:
                lines.append(match_over_line(self.result()))
            else:
                lines.append(self.opening_line())
            return lines
        if stock_before > len(self._stock):
            if self._stock:
                lines[-1] = _told_with(
                    lines[-1], f"; both draw, {len(self._stock)} left in the stock"
                )
            else:
                lines.append(self._final_line())
        # What the winner may declare is not told: it would show his cards.
        return lines

    def _tell_meld(self, seat: int | None, action: str, n_melds: int) -> list[str]:
        """The lines that tell a declaration (or a pass) just applied."""
        if action == PASS:
            # A pass is the winner's secret: the other seat is not told that
            # he was asked, which would show that he held a combination. The
            # same words after a declaration or none: what a seat declared this
            # turn is not in its view, so a sampled world could not tell it.
            assert seat is not None
            return [Aside(f"seat {seat} declares nothing", {seat})]
        _, kind, cards, pts = self._melds[n_melds]
        if kind == DIX:
            line = (
                f"seat {seat}: dix, {cards[0]} for the turned {cards[1]}, {pts} points"
            )
        else:
            line = f"seat {seat} declares {meld_words(kind)} ({' '.join(cards)}), {pts}"
        assert seat is not None
        shown = self.hands[seat] & self._shown[seat]
        return [
            line,
            f"on the table before seat {seat}: {' '.join(self._hand_names(shown))}",
        ]

    def _final_line(self) -> str:
        """What narration says when the stock runs out."""
        return (
            "the stock is empty; open cards back to hand: follow suit and "
            "beat from now on"
        )

    def opening_line(self) -> str:
        """The line that opens the current deal (for narration)."""
        head = (
            f"deal {self.deal}: dealer seat {self.dealer}, "
            f"voorhand seat {self.to_act} leads"
        )
        if not self.TURNED:
            return f"{head}, no trump turned"
        line = (
            f"{head}, turned {self._card_names[self._stock[0]]}, "
            f"{SUITS[self.trump]} trump"
        )
        if self.TURNED_SEVEN and self._points[self.dealer]:
            line += f"; the turned 7 scores {self.TURNED_SEVEN} for the dealer"
        return line

    # -- construction for tests and sampling -------------------------------------

    @classmethod
    def from_cards(
        cls,
        game: FamilyGame,
        hands: Sequence[str],
        stock: Sequence[str],
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> Self:
        """A state at the first card of deal ``deal``, for worked examples.

        ``hands`` are two strings of cards (seat 0 first); ``stock`` is the
        stock in drawing order, its last card the turned one (in a game that
        turns one). Cards not named anywhere are left out of the deal (a short
        stock makes a short example). No turned 7 is scored.
        """
        state = cls.__new__(cls)
        state._blank(game, seed)
        state.deal = deal
        state.dealer = (deal + 1) % 2
        deck = state._deck
        deck.check_deal(hands, {"the stock": stock})
        # Each hand takes copies the hands before it left free.
        masks: list[CardMask] = []
        taken = 0
        for hand in hands:
            masks.append(deck.mask(hand.split(), taken))
            taken |= masks[-1]
        order = deck.take(stock, masks[0] | masks[1])
        state._setup(masks, order[::-1], deal % 2)
        return state


# -- the game -------------------------------------------------------------------


class FamilyGame(Game):
    """A Bezique-family game for two: its State class says the rules, and
    :meth:`combinations` its table of combinations (bots read it too)."""

    seat_counts = frozenset({2})
    #: The game's State class.
    STATE: ClassVar[type[FamilyState]]
    #: The game's sampler class (a game with more public places subclasses
    #: :class:`FamilySampler` and extends its ``__init__``).
    SAMPLER: ClassVar[type[FamilySampler]]

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """The combinations with suit ``trump`` trump (-1: none yet), under
        this game's options."""
        raise NotImplementedError

    def deal_estimate(self, state: State) -> tuple[float, ...]:
        """Points so far and a share of what each hand promises
        (:mod:`games.bezique.estimate`), for a search cut off mid-deal."""
        if not isinstance(state, FamilyState):
            raise TypeError(f"{self.name} estimates a FamilyState, not {state!r}")
        return deal_estimate(state)

    def encoding(self, n_seats: int) -> Encoding:
        """The Bezique family's encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.bezique.encoding import bezique_encoding

        return bezique_encoding(
            self,
            n_seats,
            self.STATE.RULES.deck,
            self.STATE(self, 0).action_words(),
            self.STATE.VIEW,
        )

    def new_match(self, n_seats: int, seed: int) -> FamilyState:
        """The first deal of a match for two, dealt from ``seed``."""
        self.check_seats(n_seats)
        return self.STATE(self, seed)

    def sampler(self, view: View) -> FamilySampler:
        """The worlds behind ``view`` (R9): read once, sampled cheaply."""
        if not isinstance(view, self.STATE.VIEW):
            raise TypeError(
                f"{self.name} samples from a {self.STATE.VIEW.__name__}, not {view!r}"
            )
        return self.SAMPLER(self, view)


class FamilySampler(Sampler):
    """Full States consistent with one seat's view (R9).

    Public: the trick play, the turned card, each seat's shown cards and their
    histories, the declarations, the scores. Hidden: the other seat's unshown
    cards and the stock under the turned card; the unseen cards are dealt over
    those two places uniformly (no duty binds the stock phase, and in the final
    phase the stock is empty, so the other hand is every unseen card).
    """

    def __init__(self, game: FamilyGame, view: FamilyView) -> None:
        state = game.STATE.__new__(game.STATE)
        state._blank(game, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        trump = SUITS.index(view.trump) if view.trump is not None else -1
        state._set_kinds(trump)
        state._over = view.phase == "over"
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        state._points = list(view.points)
        state._melds = view.melds
        final = view.phase == "final" or (view.phase == "meld" and not view.stock)
        # The kit gives the cards shown in tricks the lowest free copies.
        public = state._restore_tricks(
            state._tables_for(trump), BEAT_LED if final else FREE_PLAY, view.tricks,
            view.trick,
        )  # fmt: skip
        taken = public.seen
        deck = state._deck
        index, masks, copies = deck.index, deck.face_masks, deck.copies
        free = deck.full & ~taken
        me, other = view.seat, 1 - view.seat
        hands = [0, 0]
        # Shown cards first (with their histories), then the rest of this hand.
        bits = {k.name: k for k in state._kinds}
        for s, shown in enumerate(view.shown):
            for name, kinds in shown:
                held = free & masks[index[name] // copies]
                card = (held & -held).bit_length() - 1
                free ^= 1 << card
                hands[s] |= 1 << card
                state._shown[s] |= 1 << card
                if kinds:
                    state._history[card] = sum(bits[k].bit for k in kinds)
                    state._best[card] = max(bits[k].value for k in kinds)
        unshown = Counter(view.hand)
        unshown.subtract(name for name, _ in view.shown[me])
        for name, n in unshown.items():
            for _ in range(n):
                held = free & masks[index[name] // copies]
                card = (held & -held).bit_length() - 1
                free ^= 1 << card
                hands[me] |= 1 << card
        turned = -1
        if view.turned is not None:
            held = free & masks[index[view.turned] // copies]
            turned = (held & -held).bit_length() - 1
            free ^= 1 << turned
        state.hands = hands
        state._melding = view.phase == "meld"
        state._playing = view.phase in ("stock", "final")
        state.to_act = view.to_act
        self._state = state
        self._me, self._other = me, other
        self._turned = turned
        self._in_hand = view.hand_sizes[other] - len(view.shown[other])
        self._in_stock = max(view.stock - (turned >= 0), 0)
        self._dealer = ConstrainedDealer(
            list(iter_bits(free)), [0, 0], [self._in_hand, self._in_stock]
        )
        if len(view.hand) != hands[me].bit_count():
            raise ValueError(
                f"the view's hand {view.hand} does not fit its shown cards"
            )

    def sample(self, rng: random.Random) -> FamilyState:
        """A world: the hidden cards dealt, the stock's order and later seeds drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        hand, stock = self._dealer.sample(rng)
        state.hands[self._other] |= hand
        order = list(iter_bits(stock))
        rng.shuffle(order)
        state._stock = [self._turned, *order] if self._turned >= 0 else order
        if state._melding:
            seat = state.to_act
            assert seat is not None
            state._options = state._meld_options(seat)
        state._legal = None
        return state


FamilyGame.SAMPLER = FamilySampler
