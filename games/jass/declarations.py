"""Declarations in hand, shared by the jass family: runs, four of a kind, stuk.

Klaverjassen's Kraken variant (seed 004 line 131) counts roem held in hand;
belote (seed 002), klapper (seed 002) and the issue-10 games (Smousjas,
Vijfhonderden) declare the same kinds of combination with their own tables.
One :class:`DeclarationRules` per game says what each kind is worth; the
search here is the same for all of them.

Runs use the deck's index order within a suit (``"789TJQKA"`` for the piquet
pack, ``"9TJQKA"`` for the 24-card pack), which is the roem order A K Q J 10
9 8 7 of the texts. A card serves in at most one run or four of a kind; the
stuk (king and queen of trump) is reported apart, since every text lets its
cards count in another declaration as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

from games.cards import CardMask, Deck, iter_bits
from games.tricks import TrickState

__all__ = [
    "ROEM",
    "Declaration",
    "DeclarationRules",
    "DeclaresInHand",
    "best_declarations",
    "declaration_key",
    "declared_words",
    "first_best",
    "holds_stuk",
]


class Declaration(NamedTuple):
    """One combination declared from a hand."""

    #: What it is, for people: ``"run of 3"``, ``"four jacks"``, ``"four As"``.
    name: str
    #: Its cards.
    cards: CardMask
    #: What it is worth.
    points: int
    #: How many cards it has (for comparing declarations by length).
    length: int
    #: Its highest card's position in the suit's index order (for comparing
    #: runs of equal length; a game with its own trick ranks compares further).
    top: int


@dataclass(frozen=True)
class DeclarationRules:
    """What each kind of declaration is worth in one game."""

    #: The pack.
    deck: Deck
    #: Points of a run by its length; a run longer than the longest length
    #: listed is worth that length's points. Lengths not listed score nothing.
    runs: Mapping[int, int]
    #: Points of four cards of one rank, by rank letter; ranks not listed
    #: score nothing.
    fours: Mapping[str, int]
    #: Points of the stuk.
    stuk: int = 20
    #: Whether a card serves in one declaration only (klaverjassen, klapper);
    #: ``False``: once in a four and once in a run (belote, seed 002 line 86).
    cards_serve_once: bool = True
    _longest: int = field(init=False, repr=False, compare=False)
    #: The fours that score: ``(rank letter, mask of its four cards, points,
    #: rank index)``, built once (hands are searched at every first trick).
    _four_masks: tuple[tuple[str, CardMask, int, int], ...] = field(
        init=False, repr=False, compare=False
    )
    #: The scoring runs in one suit's bits, ``(lowest bit, length, points)``,
    #: by the suit's bits: declarations are looked for at every first trick.
    _run_table: tuple[tuple[tuple[int, int, int], ...], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_longest", max(self.runs))
        n = self.deck.n_ranks
        table = []
        for bits in range(1 << n):
            runs, length = [], 0
            for bit in range(n + 1):
                if bit < n and bits >> bit & 1:
                    length += 1
                    continue
                if length and self.run_points(length):
                    runs.append((bit - length, length, self.run_points(length)))
                length = 0
            table.append(tuple(runs))
        object.__setattr__(self, "_run_table", tuple(table))
        deck = self.deck
        object.__setattr__(
            self,
            "_four_masks",
            tuple(
                (
                    rank,
                    sum(
                        1 << (s * n + deck.ranks.index(rank))
                        for s in range(len(deck.suits))
                    ),
                    points,
                    deck.ranks.index(rank),
                )
                for rank, points in self.fours.items()
            ),
        )

    def run_points(self, length: int) -> int:
        """The points of a run of ``length`` cards."""
        return self.runs.get(min(length, self._longest), 0)


def _runs(mask: CardMask, rules: DeclarationRules) -> list[Declaration]:
    """The maximal runs of ``mask`` that score, one declaration each."""
    n = rules.deck.n_ranks
    low_bits = (1 << n) - 1
    table = rules._run_table
    found: list[Declaration] = []
    for suit in range(len(rules.deck.suits)):
        for low, length, points in table[mask >> suit * n & low_bits]:
            cards = ((1 << length) - 1) << (suit * n + low)
            found.append(
                Declaration(f"run of {length}", cards, points, length, low + length - 1)
            )
    return found


def best_declarations(
    mask: CardMask, rules: DeclarationRules
) -> tuple[Declaration, ...]:
    """The declarations in hand ``mask`` worth the most points together.

    Each card serves once: every choice of the fours the hand holds is tried,
    and the runs are read from the cards the chosen fours leave, each maximal
    run being one declaration (a run of 7 is one run, not a 3 and a 4). With
    ``cards_serve_once`` off, every four and every run counts. Fours come first
    in the result, then runs in deck order. The stuk is :func:`holds_stuk`'s.
    """
    n_suits = len(rules.deck.suits)
    fours: list[Declaration] = []
    for rank, cards, points, r in rules._four_masks:
        if mask & cards == cards:
            name = "four jacks" if rank == "J" else f"four {rank}s"
            fours.append(Declaration(name, cards, points, n_suits, r))
    if not fours or not rules.cards_serve_once:
        # Nothing to choose between (the common case: no four in hand).
        return (*fours, *_runs(mask, rules))
    best: tuple[Declaration, ...] = ()
    best_points = 0
    for k in range(len(fours) + 1):
        for chosen in combinations(fours, k):
            left = mask
            for four in chosen:
                left &= ~four.cards
            found = (*chosen, *_runs(left, rules))
            points = sum(d.points for d in found)
            if points > best_points:
                best, best_points = found, points
    return best


def holds_stuk(mask: CardMask, trump: int, rules: DeclarationRules) -> bool:
    """Whether ``mask`` holds the king and queen of suit ``trump``."""
    deck = rules.deck
    king = 1 << deck.index["K" + deck.suits[trump]]
    queen = 1 << deck.index["Q" + deck.suits[trump]]
    return mask & (king | queen) == king | queen


def declaration_key(
    declaration: Declaration, strength: Sequence[int]
) -> tuple[int, int, int]:
    """A sort key, higher is better, for comparing declarations between players.

    By points first (a four of jacks beats a run of 5), then by number of cards,
    then by the trick strength of its strongest card (``strength[card]``, e.g.
    from the trump ranks): seed 002 line 87, "het aantal kaarten is bepalend
    ..., of anders de kaart met de hoogste slagwaarde". Equal keys tie; what a
    tie means is the game's rule.
    """
    top = max(strength[card] for card in iter_bits(declaration.cards))
    return declaration.points, declaration.length, top


def first_best(
    entries: Sequence[tuple[int, tuple[int, ...]]], voorhand: int, n_seats: int
) -> int | None:
    """The seat of the best ``(seat, key)`` entry, higher keys better; at equal
    keys the seat first from voorhand in playing order (Klapper K6, Belote).
    ``None`` without entries."""
    if not entries:
        return None
    return max(entries, key=lambda e: (e[1], -((e[0] - voorhand) % n_seats)))[0]


#: The action that declares a seat's roem in hand.
ROEM = "roem"


def declared_words(found: Sequence[Declaration]) -> str:
    """Declarations as a player says them (``run of 3 + four jacks``); the
    narration shows their cards and points after them."""
    return " + ".join(d.name for d in found)


class DeclaresInHand(TrickState):
    """Card play where each seat may declare its roem in hand: the action
    ``"roem"``, once, before its card of the first trick (Klaverjassen's Kraken
    variants, Klapper).

    A State puts this before its game's State class and gives
    :meth:`_hand_roem`; the declarations made are in :attr:`_declared` as
    ``(seat, cards shown, points)``.
    """

    _declared: tuple[tuple[int, tuple[str, ...], int], ...]

    def _hand_roem(self, seat: int) -> tuple[Declaration, ...]:
        """The best declarations ``seat``'s hand holds now (empty: none)."""
        raise NotImplementedError

    def _roem_declared(self) -> None:
        """Called after a declaration (a State refreshes its public view here)."""

    def _has_declared(self, seat: int) -> bool:
        """Whether ``seat`` took ``"roem"`` this deal (a game that declares more
        than roem, Kraken's stuk, tells its own entries apart)."""
        return any(s == seat for s, _, _ in self._declared)

    def _may_declare(self) -> bool:
        seat = self.to_act
        return (
            self._playing
            and not self._tricks
            and seat is not None
            and not self._has_declared(seat)
            and bool(self._hand_roem(seat))
        )

    def legal_actions(self) -> tuple[str, ...]:
        """The game's actions, and ``"roem"`` while the seat to act may declare."""
        legal = self._legal
        if legal is not None and self._tricks:  # cached, past the first trick
            return legal
        legal = super().legal_actions()
        if self._playing and not self._tricks and self._may_declare():
            return (*legal, ROEM)
        return legal

    def search_key_extra(self) -> tuple[object, ...]:
        """The declarations made: "roem" plays no card, so without them a line
        that declared met one that did not in a search's table."""
        return (*super().search_key_extra(), self._declared)

    def apply(self, action: str) -> None:
        """Declare roem in hand, or play on as the game does."""
        if action == ROEM and self._playing:
            if not self._may_declare():
                self._bad_action(action)
            seat = self.to_act
            assert seat is not None
            cards = 0
            points = 0
            for found in self._hand_roem(seat):
                cards |= found.cards
                points += found.points
            self._declared += ((seat, self.rules.deck.names(cards), points),)
            self._legal = None
            self._roem_declared()
            return
        super().apply(action)
