"""Fildinski for two (seed 000 line 1): Bezique whose melds come from won cards.

The rules as implemented and every ruling are in ``games/bezique/RULES.md``
(Fildinski's section, rulings FI1, FI2, ...). The game is the family base
(:mod:`games.bezique.family`) with Bezique's parameters (64 cards, eight each,
a turned trump, brisques, the trump 7, the dix, 10 for the last trick) but its
own meld material: the cards a seat has won lie face up before it and are no
longer played (line 12); after a trick the winner declares combinations of
those won cards, each containing a card of the trick just won, several at once
but no card in two of them (line 18). Bezique's re-use rule is not in the text
(FI3). The combination table is Bezique's with the fildinski for the bezique
(lines 21-30).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bezique.bezique import _NAMES, _distinct_names
from games.bezique.family import (
    DIX,
    MELD,
    PASS,
    FamilyGame,
    FamilySampler,
    FamilyState,
    FamilyView,
)
from games.bezique.melds import Kind, bezique_kinds, kinds
from games.cards import BEZIQUE, CardMask
from games.tricks import TrickRecord, TrickRules
from harness import Option

__all__ = ["Fildinski", "FildinskiState", "FildinskiView"]

#: Brisques: each ace and ten won scores 10 at once (line 16); last trick 10.
RULES = TrickRules(
    BEZIQUE,
    plain_order="789JQKTA",
    trump_order="789JQKTA",
    plain_points={"A": 10, "T": 10},
    last_trick=10,
)
_RENAME = {"bezique": "fildinski", "double-bezique": "double-fildinski"}

#: A won card as the view shows it: the card, the combinations it was declared
#: in, and its note in the current turn of declarations: ``"new"`` (won in the
#: trick just played), ``"used"`` (declared in this turn), both or ``""``.
WonCard = tuple[str, tuple[str, ...], str]


#: Per combination table (by id: the tables live for good in _TABLES), the
#: names of the kinds in a history mask.
_KIND_NAMES: dict[int, dict[int, tuple[str, ...]]] = {}
#: A seat's won cards in the view: names, the declared or marked ones, and
#: what they were built from.
_Pile = tuple[tuple[str, ...], tuple[WonCard, ...], tuple[int, int, int] | None, int]
_NO_PILE: _Pile = ((), (), None, 0)
#: The view's two won fields: per seat the names, and the declared or marked.
_WonFields = tuple[
    tuple[tuple[str, ...], tuple[str, ...]],
    tuple[tuple[WonCard, ...], tuple[WonCard, ...]],
]
_NO_FIELDS: _WonFields = (((), ()), ((), ()))


_TABLES: dict[tuple[int, bool], tuple[Kind, ...]] = {}
#: Per table, per face: the kinds that hold it, with their needs (see
#: FildinskiState._meld_options: only kinds with a card just won are tried).
_BY_FACE: dict[tuple[int, bool], tuple[int, ...]] = {}


def fildinski_kinds(trump: int, hartendame: bool) -> tuple[Kind, ...]:
    """Lines 21-29: Bezique's table with the bezique called fildinski (line 28)."""
    key = (trump, hartendame)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = kinds(
            [
                (_RENAME.get(k.name, k.name), k.value, k.faces)
                for k in bezique_kinds(trump, hartendame)
            ]
        )
        _BY_FACE[key] = tuple(
            sum(1 << i for i, k in enumerate(table) if f in k.faces) for f in range(32)
        )
    return table


def choose_won(
    kind: Kind,
    won: CardMask,
    new: CardMask,
    history: dict[int, int],
    masks: tuple[int, ...],
) -> tuple[int, ...] | None:
    """The won copies ``kind`` would be declared with, or ``None`` (FI2-FI4).

    ``won``: the declarer's won cards not yet in a combination of this turn;
    ``new``: those of the trick just won. Every copy must be new to this kind
    (FI3); at least one must be new (FI2). Of each face the engine takes old
    copies first, lowest first, and a card of the trick only where the
    combination would otherwise hold none, in the first face that can (FI4).
    """
    bit = kind.bit
    picks: list[list[int]] = []
    spares: list[int] = []
    has_new = False
    for f in dict.fromkeys(kind.faces):
        need = kind.faces.count(f)
        old: list[int] = []
        fresh: list[int] = []
        copies = won & masks[f]
        while copies:
            low = copies & -copies
            copies ^= low
            card = low.bit_length() - 1
            if history.get(card, 0) & bit:
                continue
            (fresh if new & low else old).append(card)
        if len(old) + len(fresh) < need:
            return None
        take = (old + fresh)[:need]
        has_new = has_new or any(new >> c & 1 for c in take)
        picks.append(take)
        spares.append(fresh[0] if fresh else -1)
    if not has_new:
        for take, spare in zip(picks, spares, strict=True):
            if spare >= 0:
                take[-1] = spare
                break
        else:
            return None
    return tuple(c for take in picks for c in take)


@dataclass(frozen=True)
class FildinskiView(FamilyView):
    """What one Fildinski seat knows: the family's view and the won cards."""

    #: Per seat, its won cards face up (line 12), in deck order.
    won: tuple[tuple[str, ...], tuple[str, ...]]
    #: Per seat, those of its won cards declared in a combination or marked in
    #: the current turn, in deck order, each with its combinations and its
    #: combinations and its note in the current turn (see :data:`WonCard`).
    won_melds: tuple[tuple[WonCard, ...], tuple[WonCard, ...]]


class FildinskiState(FamilyState):
    """The referee's truth of one Fildinski match (see the module docstring)."""

    RULES = RULES
    SEVERAL = True
    REUSE_RULE = False
    VIEW = FildinskiView

    game: Fildinski

    def _blank(self, game: FamilyGame, seed: int) -> None:
        self._hartendame = game.options["variant"] == "klaverjas-hartendame"
        super()._blank(game, seed)
        # Bezique's unrolled namers: the same pack.
        self._names = _distinct_names
        self._hand_names = _NAMES
        #: Per seat, the cards it has won this deal (face up before it).
        self._won = [0, 0]
        #: The cards of the trick just won, while its winner declares.
        self._new: CardMask = 0
        #: The view's won cards and what they were built from (see view()).
        #: Per seat, its won cards as the view shows them, and the two fields.
        self._won_piles = (_NO_PILE, _NO_PILE)
        self._won_fields: _WonFields = _NO_FIELDS
        #: Bit s: seat s's pile in the view must be rebuilt (a trick won, a
        #: declaration, the end of a turn of declarations).
        self._dirty = 3

    def _setup(self, hands: list[CardMask], stock: list[int], leader: int) -> None:
        super()._setup(hands, stock, leader)
        self._won = [0, 0]
        self._new = 0
        self._won_piles = (_NO_PILE, _NO_PILE)
        self._won_fields = _NO_FIELDS
        self._dirty = 3
        #: The won cards declared in a combination this deal.
        self._melded: CardMask = 0

    def _set_kinds(self, trump: int) -> None:
        super()._set_kinds(trump)
        self._by_face = _BY_FACE[trump, self._hartendame]

    def _close_trick(self, bonus: int = 0) -> TrickRecord:
        """Lay the trick's cards face up before its winner (line 12)."""
        a, b = self._trick
        record = super()._close_trick(bonus)
        cards = 1 << a | 1 << b
        self._won[record[2]] |= cards
        self._new = cards
        self._dirty |= 1 << record[2]
        return record

    def _meld_options(self, seat: int) -> dict[str, tuple[int, ...]]:
        """Combinations of ``seat``'s won cards with a card just won (FI2-FI4),
        and the dix from the hand (FI5)."""
        won = self._won[seat] & ~self._turn_cards
        new = self._new & won
        options: dict[str, tuple[int, ...]] = {}
        if new:
            history, masks = self._history, self._deck.face_masks
            # Only a kind that holds a card just won can be declared (FI2).
            by_face, rows = self._by_face, self._kind_needs
            chosen = 0
            bits = new
            while bits:
                low = bits & -bits
                bits ^= low
                chosen |= by_face[(low.bit_length() - 1) >> 1]
            while chosen:
                low = chosen & -chosen
                chosen ^= low
                kind, kind_needs = rows[low.bit_length() - 1]
                for mask, need in kind_needs:
                    if (won & mask).bit_count() < need:
                        break
                else:
                    cards = choose_won(kind, won, new, history, masks)
                    if cards is not None:
                        options[MELD + kind.name] = cards
        seven = self._seven
        if self._stock:
            sevens = self.hands[seat] & self._deck.face_masks[seven]
            if sevens and self._face(self._stock[0]) != seven:
                options[DIX] = ((sevens & -sevens).bit_length() - 1,)
        return options

    def _declared(self, seat: int, kind: Kind, cards: tuple[int, ...]) -> None:
        for card in cards:
            self._melded |= 1 << card
        self._dirty |= 1 << seat

    def _after_melds(self, seat: int) -> None:
        # The turn's notes (new, used) leave the view.
        self._dirty |= 1 << seat
        super()._after_melds(seat)

    def _lay_open(self, seat: int, cards: CardMask) -> None:
        """The combination lies among the won cards: nothing leaves the hand."""

    def view(self, seat: int) -> FildinskiView:
        """The family's view and the won cards (a seat's pile rebuilt only when
        it, its histories or its notes change: :attr:`_dirty`)."""
        view = super().view(seat)
        dirty = self._dirty
        if dirty:
            self._dirty = 0
            melding = self._melding
            used = self._turn_cards if melding else 0
            new = self._new if melding else 0
            p0, p1 = self._won_piles
            if dirty & 1:
                p0 = self._pile(self._won[0], used, new, p0)
            if dirty & 2:
                p1 = self._pile(self._won[1], used, new, p1)
            self._won_piles = (p0, p1)
            self._won_fields = ((p0[0], p1[0]), (p0[1], p1[1]))
        fields = view.__dict__
        fields["won"], fields["won_melds"] = self._won_fields
        return view  # type: ignore[return-value]

    def _pile(self, won: CardMask, used: CardMask, new: CardMask, old: _Pile) -> _Pile:
        """One seat's won cards, those with a combination or a note, and what
        the latter were built from (kept while only plain cards are added)."""
        marked = used | new
        # A declaration marks its cards used, so the key sees every change of
        # this pile's histories (another seat's declarations leave it alone).
        key = ((self._melded | marked) & won, used & won, new & won)
        names = old[0] if won == old[3] else self._hand_names(won)
        if key == old[2]:
            return (names, old[1], key, won)
        history, card_names = self._history, self._card_names
        special = key[0]
        pile: list[WonCard] = []
        while special:
            low = special & -special
            special ^= low
            c = low.bit_length() - 1
            note = _NOTES[(new >> c & 1) | (used >> c & 1) << 1]
            pile.append((card_names[c], self._kind_names(history.get(c, 0)), note))
        return (names, tuple(pile), key, won)

    def _kind_names(self, bits: int) -> tuple[str, ...]:
        """The names of the kinds in history mask ``bits``, in table order."""
        named = _KIND_NAMES.setdefault(id(self._kinds), {})
        found = named.get(bits)
        if found is None:
            found = named[bits] = tuple(k.name for k in self._kinds if bits & k.bit)
        return found

    def clone(self) -> FildinskiState:
        twin = super().clone()
        assert isinstance(twin, FildinskiState)
        twin._won = self._won[:]
        return twin

    def _tell_meld(self, seat: int | None, action: str, n_melds: int) -> list[str]:
        """A declaration and the won cards it was made from (line 18)."""
        lines = super()._tell_meld(seat, action, n_melds)
        if action == PASS or action == DIX or seat is None:
            return lines
        return [
            lines[0],
            f"won cards before seat {seat}: "
            + " ".join(self._hand_names(self._won[seat])),
        ]

    def _final_line(self) -> str:
        return (
            "the stock is empty; won cards turned down, no more melds: follow suit "
            "and beat from now on"
        )


#: A won card's note in the view (see :data:`WonCard`), by ``new | used << 1``.
_NOTES = ("", "new", "used", "new used")


class FildinskiSampler(FamilySampler):
    """The family's sampler, with the won cards and their notes (FI7)."""

    def __init__(self, game: FamilyGame, view: FamilyView) -> None:
        super().__init__(game, view)
        assert isinstance(view, FildinskiView)
        state = self._state
        assert isinstance(state, FildinskiState)
        deck = state._deck
        # The tricks' cards take the lowest free copies, as _restore_tricks does.
        seen = 0
        won = [0, 0]
        for record in view.tricks:
            cards = deck.take(record[1], seen)
            mask = sum(1 << c for c in cards)
            seen |= mask
            won[record[2]] |= mask
        bits = {k.name: k for k in state._kinds}
        masks, index, copies = deck.face_masks, deck.index, deck.copies
        new = used = 0
        for s, pile in enumerate(view.won_melds):
            left = won[s]
            for name, named, note in pile:
                held = left & masks[index[name] // copies]
                card = (held & -held).bit_length() - 1
                left ^= 1 << card
                if named:
                    state._history[card] = sum(bits[k].bit for k in named)
                    state._best[card] = max(bits[k].value for k in named)
                if "new" in note:
                    new |= 1 << card
                if "used" in note:
                    used |= 1 << card
        state._won = won
        state._melded = sum(1 << c for c in state._history)
        state._new = new
        state._turn_cards = used


class Fildinski(FamilyGame):
    """Fildinski for two: Bezique with melds from the cards won."""

    name = "fildinski"
    title = "Fildinski (2 players, 64 cards)"
    check_options = {"target": 300}  # noqa: RUF012 - one or two deals
    STATE = FildinskiState
    SAMPLER = FildinskiSampler
    option_specs = (
        Option(
            "variant",
            "standard",
            doc=(
                "'standard': the fildinski is J of diamonds + Q of spades; "
                "'klaverjas-hartendame': J of clubs + Q of hearts when diamonds or "
                "spades is trump (seed 000 line 38)"
            ),
            choices=("standard", "klaverjas-hartendame"),
        ),
        Option(
            "target",
            500,
            doc="the match ends after the deal in which a seat reaches this total "
            "(seed 000 line 34, FI1)",
            minimum=1,
        ),
    )

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """Seed 000 lines 21-29 (and the variant of line 38)."""
        return fildinski_kinds(trump, self.options["variant"] == "klaverjas-hartendame")
