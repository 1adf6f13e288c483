"""Rubicon Bezique for two (seed 000 line 40): 128 cards, no turned trump.

The rules as implemented and every ruling are in ``games/bezique/RULES.md``
(Rubicon's section, rulings RU1, RU2, ...). The game is the family base
(:mod:`games.bezique.family`) with Rubicon's parameters: four piquet packs
(:data:`games.cards.RUBICON`, four copies of each card side by side), nine cards
each, no card turned, no card points, no sevens, no dix, several combinations
per trick won under the re-use rule, 50 for the last trick. What is Rubicon's
own: the trump is set by the first marias declared (RU3), the larger
combination table (four tens, the five highest of a plain suit, triple and
quadruple bezique, carte blanche) and the variant's trump-queen bezique.

The combination table holds every kind under every trump (a card keeps the
names of the kinds it was declared in when the trump is set); what may be
declared under the current trump is its declarable part (:meth:`_set_kinds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.bezique.family import (
    MELD,
    SUIT_WORDS,
    FamilyGame,
    FamilyState,
    FamilyView,
    family_moves,
)
from games.bezique.melds import Kind, face, kinds
from games.cards import RUBICON, SUITS, CardMask, iter_bits
from games.tricks import TrickRules
from harness import Option

__all__ = ["Rubicon", "RubiconState", "RubiconView", "rubicon_kinds"]

#: No card points (seed 000 lines 59, 83); the last trick 50 (line 79).
RULES = TrickRules(
    RUBICON, plain_order="789JQKTA", trump_order="789JQKTA", last_trick=50
)
#: The suit of the jack that makes a bezique with each suit's queen in the
#: variant (line 91): diamonds and spades pair, clubs and hearts.
_PAIRED = (2, 3, 0, 1)
#: The bezique and its double, triple and quadruple (lines 73-76).
_LEVELS = (
    ("bezique", 40),
    ("double-bezique", 500),
    ("triple-bezique", 1500),
    ("quadruple-bezique", 4500),
)
CARTE_BLANCHE = "carte-blanche"
#: Carte blanche scores 50 (line 77).
CARTE_BLANCHE_VALUE = 50
#: Every king, queen and jack: the court cards a carte blanche lacks (RU7).
COURTS: CardMask = sum(RUBICON.face_masks[face(r, s)] for r in "KQJ" for s in range(4))


_CHUNKS = RUBICON.name_chunks
#: The chunks without repeats: a byte holds the four copies of two cards.
_DISTINCT = tuple(
    tuple(tuple(dict.fromkeys(names)) for names in chunk) for chunk in _CHUNKS
)


def _names(mask: CardMask) -> tuple[str, ...]:
    """``RUBICON.names(mask)``, byte by byte: a hand of nine among 128 cards
    leaves most bytes empty, so this beats the deck's general namer."""
    out: tuple[str, ...] = ()
    for chunk, byte in zip(_CHUNKS, mask.to_bytes(16, "little"), strict=True):
        if byte:
            out += chunk[byte]
    return out


def _distinct_names(mask: CardMask) -> tuple[str, ...]:
    """The distinct names of ``mask`` in deck order: the legal card actions."""
    out: tuple[str, ...] = ()
    for chunk, byte in zip(_DISTINCT, mask.to_bytes(16, "little"), strict=True):
        if byte:
            out += chunk[byte]
    return out


@cache
def rubicon_kinds(trump: int, queen_bezique: bool) -> tuple[Kind, ...]:
    """Rubicon's whole table with suit ``trump`` trump (-1: none yet; lines 64-77).

    It names every kind a card may have been declared in; the kinds that cannot
    be declared under this trump (a marias or the five highest of the trump
    suit, a trump-queen bezique of another suit) are taken out by
    :func:`declarable`. ``queen_bezique``: the variant of line 91.
    """
    rows: list[tuple[str, int, tuple[int, ...]]] = []
    if trump >= 0:
        rows.append(("trumps", 250, tuple(face(r, trump) for r in "ATKQJ")))
    rows += [
        (f"five:{SUITS[s]}", 150, tuple(face(r, s) for r in "ATKQJ")) for s in range(4)
    ]
    rows += [
        (name, value, tuple(face(rank, s) for s in range(4)))
        for name, value, rank in (
            ("aces", 100, "A"),
            ("tens", 90, "T"),
            ("kings", 80, "K"),
            ("queens", 60, "Q"),
            ("jacks", 40, "J"),
        )
    ]
    if trump >= 0:
        rows.append(("stuk", 40, (face("K", trump), face("Q", trump))))
    rows += [(f"marias:{SUITS[s]}", 20, (face("K", s), face("Q", s))) for s in range(4)]
    if queen_bezique:
        for s in range(4):
            queen, jack = face("Q", s), face("J", _PAIRED[s])
            rows += [
                (f"{name}:{SUITS[s]}", value, (jack,) * n + (queen,) * n)
                for n, (name, value) in enumerate(_LEVELS, 1)
            ]
    else:
        queen, jack = face("Q", 3), face("J", 1)
        rows += [
            (name, value, (jack,) * n + (queen,) * n)
            for n, (name, value) in enumerate(_LEVELS, 1)
        ]
    rows.append((CARTE_BLANCHE, CARTE_BLANCHE_VALUE, ()))
    return kinds(rows)


@cache
def declarable(table: tuple[Kind, ...], trump: int) -> tuple[Kind, ...]:
    """The kinds of ``table`` that may be declared with suit ``trump`` trump.

    Once a suit is trump, its K Q is the stuk, not a marias, and its five
    highest are the five trumps (lines 64-65, 71-72); in the variant only the
    trump queen makes a bezique (line 91). Carte blanche is not a set of faces:
    :meth:`RubiconState._meld_options` offers it.
    """
    if trump < 0:
        return tuple(k for k in table if k.faces)
    letter = SUITS[trump]
    out = []
    for k in table:
        name = k.name
        if not k.faces or name in (f"five:{letter}", f"marias:{letter}"):
            continue
        if "bezique:" in name and name[-1] != letter:
            continue
        out.append(k)
    return tuple(out)


@dataclass(frozen=True)
class RubiconView(FamilyView):
    """What one Rubicon seat knows (the family's view; ``trump`` is ``None``
    until the first marias is declared, ``turned`` always ``None``)."""


class RubiconState(FamilyState):
    """The referee's truth of one Rubicon match (see the module docstring)."""

    RULES = RULES
    HAND = 9
    TURNED = False
    TURNED_SEVEN = 0
    SEVEN_PLAYED = 0
    DIX_VALUE = 0
    SEVERAL = True
    REFILL = True
    VIEW = RubiconView

    game: Rubicon

    def _blank(self, game: FamilyGame, seed: int) -> None:
        #: The index in this deal's melds of the one that set trump (narration).
        self._trump_meld = -1
        super()._blank(game, seed)
        # The engine names a hand's legal cards with this when any card goes.
        self._names = _distinct_names
        self._hand_names = _names

    def _setup(self, hands: list[CardMask], stock: list[int], leader: int) -> None:
        super()._setup(hands, stock, leader)
        self._trump_meld = -1

    def _declarable(self, kinds: tuple[Kind, ...], trump: int) -> tuple[Kind, ...]:
        """The whole table names histories; only its declarable part is tried."""
        return declarable(kinds, trump)

    def _set_kinds(self, trump: int) -> None:
        super()._set_kinds(trump)
        self._blanche = next(k for k in self._kinds if k.name == CARTE_BLANCHE)

    def _meld_options(self, seat: int) -> dict[str, tuple[int, ...]]:
        """The family's options, and carte blanche when the hand has no court
        card and a card not shown in an earlier carte blanche (RU7)."""
        options = super()._meld_options(seat)
        hand = self.hands[seat]
        if hand and not hand & COURTS:
            bit, history = self._blanche.bit, self._history
            cards = tuple(iter_bits(hand))
            if any(not history.get(c, 0) & bit for c in cards):
                options[MELD + CARTE_BLANCHE] = cards
        return options

    def _declared(self, seat: int, kind: Kind, cards: tuple[int, ...]) -> None:
        """RU3: the first marias declared sets trump (line 53); its K Q then
        count as the stuk already declared. In the variant a bezique declared
        before trump sets its queen's suit as trump (line 91)."""
        if self.trump >= 0:
            return
        name = kind.name
        if name.startswith("marias:") or "bezique:" in name:
            self._trump_meld = len(self._melds) - 1
        if name.startswith("marias:"):
            self._set_trump(SUITS.index(name[-1]))
            stuk = next(k for k in self._kinds if k.name == "stuk")
            history, best = self._history, self._best
            for card in cards:
                history[card] |= stuk.bit
                best[card] = max(best[card], stuk.value)
        elif "bezique:" in name:
            self._set_trump(SUITS.index(name[-1]))

    def _tell_meld(self, seat: int | None, action: str, n_melds: int) -> list[str]:
        """A declaration, and the trump it sets (RU3, RU11)."""
        lines = super()._tell_meld(seat, action, n_melds)
        if n_melds == self._trump_meld:
            suit = SUIT_WORDS[self.trump]
            lines.insert(1, f"{suit} is trump from now on")
        return lines

    def _final_line(self) -> str:
        if self.trump < 0:
            return (
                "the stock is empty, no trump was set; open cards back to hand: "
                "follow suit and beat from now on"
            )
        return super()._final_line()


class Rubicon(FamilyGame):
    """Rubicon Bezique for two: 128 cards, trump set by the first marias."""

    name = "rubicon"
    view_class = RubiconView
    description = (
        "Four piquet packs, nine cards each, nothing turned: the first marias declared "
        "sets trump; bigger combinations"
    )
    title = "Rubicon Bezique (2 players, 128 cards)"
    # Above one deal's double bezique (500): random play reaches 300 in deal 0.
    check_options = {"target": 700}  # noqa: RUF012 - two to nine deals
    STATE = RubiconState
    action_kinds = family_moves(
        RUBICON,
        (rubicon_kinds(t, v) for t in range(4) for v in (False, True)),
        dix=False,
    )
    option_specs = (
        Option(
            "variant",
            "standard",
            doc="which pair is the bezique (seed 000 line 91)",
            choices=("standard", "trump-queen"),
            choice_docs={
                "standard": "the bezique is the jack of diamonds and queen of spades",
                "trump-queen": "the trump queen with the jack of its paired suit "
                "(diamonds-spades, clubs-hearts); it sets trump if none is set",
            },
        ),
        Option(
            "target",
            1000,
            doc="the match ends after the deal in which a seat reaches this total "
            "(RU1)",
            minimum=1,
        ),
    )

    def combinations(self, trump: int) -> tuple[Kind, ...]:
        """Seed 000 lines 64-77 (and the variant of line 91); the whole table,
        of which :func:`declarable` says what may be declared under ``trump``."""
        return rubicon_kinds(trump, self.options["variant"] == "trump-queen")
