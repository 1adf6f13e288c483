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
from itertools import combinations, product

from games.bezique.bezique import bezique_names, distinct_names
from games.bezique.family import (
    DIX,
    MELD,
    PASS,
    FamilyGame,
    FamilySampler,
    FamilyState,
    FamilyView,
    family_moves,
)
from games.bezique.melds import Kind, bezique_kinds, kinds, needs
from games.cards import BEZIQUE, CardMask, iter_bits
from games.tricks import TrickRecord, TrickRules, TrickState
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
#: Per combination table (by id), the view's entry of a won card by its
#: history, the card and its note's index in _NOTES (see
#: FildinskiState._marks_of): entries are made once.
_ENTRIES: dict[int, dict[tuple[int, int, int], WonCard]] = {}
#: A seat's won cards with a combination or a note in the view, and the masks
#: they were built from: (declared or marked, used, new).
_Marks = tuple[tuple[WonCard, ...], tuple[int, int, int]]
_NO_MARKS: _Marks = ((), (0, 0, 0))


_TABLES: dict[tuple[int, bool], tuple[Kind, ...]] = {}
#: Per table, per face: the kinds that hold it, as bits of the kinds' indices
#: (see FildinskiState._meld_options: only kinds with a card just won are tried).
_BY_FACE: dict[tuple[int, bool], tuple[int, ...]] = {}
#: Per table, per kind: the kind, its faces with the copies each needs (as
#: :func:`~games.bezique.melds.needs` gives them), and the faces it needs once
#: and twice as bits ``2 * face`` (the quick test of _meld_options).
_Row = tuple[Kind, tuple[tuple[CardMask, int], ...], CardMask, CardMask]
_ROWS: dict[tuple[int, bool], tuple[_Row, ...]] = {}


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
        _ROWS[key] = tuple(
            (
                kind,
                face_needs,
                sum(1 << 2 * f for f in set(kind.faces)),
                sum(1 << 2 * f for f in set(kind.faces) if kind.faces.count(f) > 1),
            )
            for kind, face_needs in needs(table, BEZIQUE)
        )
    return table


def choose_won(
    face_needs: tuple[tuple[CardMask, int], ...],
    bit: int,
    won: CardMask,
    new: CardMask,
    declared: CardMask,
    history: dict[int, int],
) -> tuple[int, ...] | None:
    """The won copies a kind would be declared with, or ``None`` (FI2-FI4).

    ``face_needs``: the kind's row of :func:`~games.bezique.melds.needs` (per
    face its copies and how many it needs), ``bit`` its history bit; ``won``:
    the declarer's won cards not yet in a combination of this turn; ``new``:
    those of the trick just won; ``declared``: the won cards with a history
    (only those are looked up in ``history``). Every copy must be new to this
    kind (FI3); at least one must be new (FI2). Of each face the engine takes
    old copies first, lowest first, and a card of the trick only where the
    combination would otherwise hold none, in the first face that can (FI4).
    """
    picks: list[int] = []
    # Where the first face with a spare card of the trick ends in picks, and
    # that card (FI4: it replaces the face's last old copy if none is new).
    spare_at = spare = -1
    has_new = False
    for mask, need in face_needs:
        copies = won & mask
        if copies.bit_count() < need:
            return None
        seen = copies & declared if declared else 0
        if seen:
            while seen:  # FI3: no copy already in this kind
                low = seen & -seen
                seen ^= low
                if history[low.bit_length() - 1] & bit:
                    copies ^= low
            if copies.bit_count() < need:
                return None
        fresh = copies & new
        old = copies ^ fresh
        if need == 1:  # the commonest: one copy of the face
            if old:
                picks.append((old & -old).bit_length() - 1)
            else:
                low = fresh & -fresh
                fresh ^= low
                has_new = True
                picks.append(low.bit_length() - 1)
        else:
            for _ in range(need):
                if old:
                    low = old & -old
                    old ^= low
                else:
                    low = fresh & -fresh
                    fresh ^= low
                    has_new = True
                picks.append(low.bit_length() - 1)
        if fresh and spare < 0:
            spare_at, spare = len(picks) - 1, (fresh & -fresh).bit_length() - 1
    if not has_new:
        if spare < 0:
            return None
        picks[spare_at] = spare
    return tuple(picks)


def other_choices(
    face_needs: tuple[tuple[CardMask, int], ...],
    bit: int,
    won: CardMask,
    new: CardMask,
    history: dict[int, int],
) -> list[tuple[int, ...]]:
    """Every set of won copies a kind may be declared with (FI2, FI3), in
    the order of :func:`choose_won`'s picks: per face its copies, lowest
    first; each set holds a card of ``new``. For FI4's second step only, when
    the first choice would block another combination: a handful of sets (two
    copies of a card in the pack, five faces at most)."""
    per_face = []
    for mask, need in face_needs:
        free = [c for c in iter_bits(won & mask) if not history.get(c, 0) & bit]
        per_face.append(list(combinations(free, need)))
    out = []
    for parts in product(*per_face):
        cards = tuple(c for part in parts for c in part)
        if any(new >> c & 1 for c in cards):
            out.append(cards)
    return out


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
        self._names = distinct_names
        self._hand_names = bezique_names
        #: Per seat, the cards it has won this deal (face up before it).
        self._won = [0, 0]
        #: The cards of the trick just won, while its winner declares, and
        #: the kinds that hold them (:meth:`_kinds_of`).
        self._new: CardMask = 0
        self._new_kinds = 0
        #: The won cards declared in a combination this deal.
        self._melded: CardMask = 0
        self._clear_won()

    def _clear_won(self) -> None:
        """Empty the view's won fields (a new deal, a sampled world).

        The fields are immutable and shared by clones: ``won`` is renamed by
        the trick that changes it (:meth:`_close_trick`), ``won_melds`` only
        when a seat in :attr:`_stale` has other declared or marked cards.
        """
        #: The view's ``won``: per seat, its won cards' names in deck order.
        self._won_names: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        #: Per seat, its marks (see :data:`_Marks`).
        self._marks: tuple[_Marks, _Marks] = (_NO_MARKS, _NO_MARKS)
        #: The view's ``won_melds``, made of :attr:`_marks`.
        self._won_melds: tuple[tuple[WonCard, ...], tuple[WonCard, ...]] = ((), ())
        #: Bit s: seat s's marks may have changed (a turn of declarations
        #: begun or ended, a declaration); bit 2 + s: seat s won a trick. The
        #: view brings those up to date (:meth:`_refresh`).
        self._stale = 15
        #: The cards declared since the view last looked (their histories).
        self._touched: CardMask = 0

    def _setup(self, hands: list[CardMask], stock: list[int], leader: int) -> None:
        super()._setup(hands, stock, leader)
        self._won = [0, 0]
        self._new = self._new_kinds = 0
        self._melded = 0
        self._clear_won()

    def _set_kinds(self, trump: int) -> None:
        super()._set_kinds(trump)
        self._by_face = _BY_FACE[trump, self._hartendame]
        self._rows = _ROWS[trump, self._hartendame]
        self._sevens = self._deck.face_masks[self._seven]
        self._entries = _ENTRIES.setdefault(id(self._kinds), {})

    def _close_trick(self, bonus: int = 0) -> TrickRecord:
        """Lay the trick's cards face up before its winner (line 12)."""
        a, b = self._trick
        record = TrickState._close_trick(self, bonus)  # the family has none: no super()
        winner = record[2]
        cards = 1 << a | 1 << b
        self._won[winner] |= cards
        self._new = cards
        # The kinds the turn may declare (FI2), from the faces (index >> 1:
        # two copies each) as small ints, not from the mask.
        self._new_kinds = self._by_face[a >> 1] | self._by_face[b >> 1]
        # Its names in the view; its marks change only if a turn begins.
        self._stale |= 4 << winner
        return record

    def _meld_options(self, seat: int) -> dict[str, tuple[int, ...]]:
        """Combinations of ``seat``'s won cards with a card just won (FI2-FI4),
        and the dix from the hand (FI5)."""
        # (Each operation on a 64-card mask makes a new multi-digit int: the
        # commonest cases skip what they can.)
        turn = self._turn_cards
        options: dict[str, tuple[int, ...]] = {}
        if turn:  # declarations made: their cards are out of this turn
            won = self._won[seat] & ~turn
            new = self._new & won
            chosen = self._kinds_of(new)
        else:  # the turn's first look: the trick just won is new
            won = self._won[seat]
            new = self._new
            chosen = self._new_kinds
        if chosen:
            # Bit 2 * face: each face none of whose copies lies among the won
            # cards, and each face not won twice (copies side by side).
            half = won >> 1
            absent, single = ~(won | half), ~(won & half)
            rows, declared = self._rows, -1
            #: Each offered kind's row, for FI4's second step.
            offered: dict[str, _Row] = {}
            while chosen:
                low = chosen & -chosen
                chosen ^= low
                kind, face_needs, need_once, need_twice = rows[low.bit_length() - 1]
                if need_once & absent or need_twice & single:
                    continue
                if declared < 0:
                    declared = won & self._melded
                cards = choose_won(
                    face_needs, kind.bit, won, new, declared, self._history
                )
                if cards is not None:
                    options[MELD + kind.name] = cards
                    offered[MELD + kind.name] = rows[low.bit_length() - 1]
            if len(offered) > 1:
                self._keep_others(options, offered, won, new, declared)
        sevens = self.hands[seat] & self._sevens
        if sevens and self._stock and self._stock[0] >> 1 != self._seven:
            options[DIX] = ((sevens & -sevens).bit_length() - 1,)
        # A turn of declarations begins or goes on, with options or without
        # (F3): its notes change in every seat's view alike.
        self._stale |= 1 << seat
        return options

    def _keep_others(
        self,
        options: dict[str, tuple[int, ...]],
        offered: dict[str, _Row],
        won: CardMask,
        new: CardMask,
        declared: CardMask,
    ) -> None:
        """FI4's second step: where the copies a combination takes would make
        another combination offered now impossible in this turn, take copies
        that keep as many of them possible as any copies can (the first such
        in :func:`other_choices`' order); the rest the player settles by the
        order of declaring (issue 28)."""
        history = self._history

        def kept(name: str, cards: tuple[int, ...]) -> int:
            mask = sum(1 << c for c in cards)
            left, fresh = won & ~mask, new & ~mask
            return sum(
                choose_won(row[1], row[0].bit, left, fresh, declared, history)
                is not None
                for other, row in offered.items()
                if other != name
            )

        everything = len(offered) - 1
        for name, row in offered.items():
            best = options[name]
            most = kept(name, best)
            if most == everything:
                continue
            for cards in other_choices(row[1], row[0].bit, won, new, history):
                keeps = kept(name, cards)
                if keeps > most:
                    best, most = cards, keeps
                    if most == everything:
                        break
            options[name] = best

    def _kinds_of(self, new: CardMask) -> int:
        """The kinds holding a card of ``new`` (at most the trick's two), as
        bits of their indices: only those can be declared (FI2)."""
        by_face, kinds = self._by_face, 0
        while new:
            low = new & -new
            new ^= low
            kinds |= by_face[(low.bit_length() - 1) >> 1]  # two copies each
        return kinds

    def _declared(self, seat: int, kind: Kind, cards: tuple[int, ...]) -> None:
        for card in cards:
            self._melded |= 1 << card
            self._touched |= 1 << card
        self._stale |= 1 << seat

    def _after_melds(self, seat: int) -> None:
        # The turn's notes (new, used) leave the view.
        self._stale |= 1 << seat
        super()._after_melds(seat)

    def _lay_open(self, seat: int, cards: CardMask) -> None:
        """The combination lies among the won cards: nothing leaves the hand."""

    def _material_pool(self, seat: int) -> CardMask:
        """The won cards: Fildinski's combinations are made of them (FI2)."""
        return self._won[seat]

    def _meld_prospects(self, seat: int) -> list[int]:
        """None: a combination is made of won cards and a card of the trick just
        won (FI2), so the hand promises none by itself."""
        return []

    def view(self, seat: int) -> FildinskiView:
        """The family's view and the won cards (see :meth:`_clear_won`)."""
        view = FamilyState.view(self, seat)  # not super(): a decision's hot path
        fields = view.__dict__
        if self._stale:
            self._refresh()
        fields["won"] = self._won_names
        fields["won_melds"] = self._won_melds
        return view  # type: ignore[return-value]

    def _refresh(self) -> None:
        """Bring the view's won fields of the seats in :attr:`_stale` up to date."""
        stale = self._stale
        self._stale = 0
        if stale & 12:
            n0, n1 = self._won_names
            if stale & 4:
                n0 = self._hand_names(self._won[0])
            if stale & 8:
                n1 = self._hand_names(self._won[1])
            self._won_names = (n0, n1)
            if not stale & 3:
                return
        melding = self._melding
        used = self._turn_cards if melding else 0
        new = self._new if melding else 0
        m0, m1 = self._marks
        # A seat's declarations mark it stale: the cards they touched are its.
        touched = self._touched
        self._touched = 0
        if stale & 1:
            m0 = self._marks_of(self._won[0], used, new, touched, m0)
        if stale & 2:
            m1 = self._marks_of(self._won[1], used, new, touched, m1)
        self._marks = (m0, m1)
        self._won_melds = (m0[0], m1[0])

    def _marks_of(
        self,
        won: CardMask,
        used: CardMask,
        new: CardMask,
        touched: CardMask,
        old: _Marks,
    ) -> _Marks:
        """One seat's won cards with a combination or a note: ``old`` with the
        entries of the cards that came, went, changed their note or were
        ``touched`` (declared again) replaced."""
        # Each operation on a 64-card mask makes a new int: those on masks
        # known empty (no turn under way, nothing declared again) are skipped.
        was, was_used, was_new = old[1]
        special = self._melded & won
        changed = touched & won if touched else 0
        if used or was_used:
            used &= won
            special |= used
            changed |= used ^ was_used
        if new or was_new:
            new &= won
            special |= new
            changed |= new ^ was_new
        changed |= special ^ was
        if not changed:
            return old
        history, entries = self._history, self._entries
        pile = list(old[0])
        # In card order, so the cards below each one are already in place.
        while changed:
            low = changed & -changed
            changed ^= low
            at = (special & (low - 1)).bit_count()
            if not special & low:
                del pile[at]
                continue
            c = low.bit_length() - 1
            bits = history.get(c, 0)
            note = (1 if new and new & low else 0) + (2 if used and used & low else 0)
            code = (bits, c, note)
            entry = entries.get(code)
            if entry is None:
                names = self._kind_names(bits)
                entry = entries[code] = (self._card_names[c], names, _NOTES[note])
            if was & low:
                pile[at] = entry
            else:
                pile.insert(at, entry)
        return (tuple(pile), (special, used, new))

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
        state._new_kinds = state._kinds_of(new)
        state._turn_cards = used


class Fildinski(FamilyGame):
    """Fildinski for two: Bezique with melds from the cards won."""

    name = "fildinski"
    view_class = FildinskiView
    description = (
        "Bezique whose combinations are declared from the cards a seat has won, not "
        "from its hand"
    )
    title = "Fildinski (2 players, 64 cards)"
    check_options = {"target": 400}  # noqa: RUF012 - two or three deals
    STATE = FildinskiState
    SAMPLER = FildinskiSampler
    action_kinds = family_moves(
        BEZIQUE, (fildinski_kinds(t, v) for t in range(4) for v in (False, True))
    )
    option_specs = (
        Option(
            "variant",
            "standard",
            doc="which pair is the fildinski (seed 000 line 38)",
            choices=("standard", "klaverjas-hartendame"),
            choice_docs={
                "standard": "the fildinski is the jack of diamonds and queen of spades",
                "klaverjas-hartendame": "the jack of clubs and queen of hearts when "
                "diamonds or spades is trump",
            },
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
