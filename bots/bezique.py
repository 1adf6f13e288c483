"""A rule-of-thumb bot for the Bezique family (all five games).

Family-generic: it reads the game's combination table
(:meth:`games.bezique.family.FamilyGame.combinations`), card points and deck
from the game, so a new game of the family needs only its name added to
:attr:`BeziqueBot.games`. It keeps meld material (cards of combinations it
half holds, weighted by their value), trumps and brisques, declares the best
combination it may (in a game with several at once, one after another until
none is left; with ``meld_order = "build"``, in Bezique, under the re-use
rule, a cheaper one first while the stock lasts when a dearer one shares its
cards: it tied the default in docs/SEARCH.md's tuning runs), wins brisques
cheaply, and in the final phase, where the other
hand is exactly the cards not yet seen (RULES.md R9), leads what cannot be
beaten and otherwise beats as cheaply as it can. Two games have their own
functions: Rubicon declares the cheaper combination first, so that cards climb
under the re-use rule (RU6); Fildinski, whose melds come from won cards, takes
tricks that complete its won cards and gives away what completes nothing of the
other's (FI2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.bezique.family import DIX, MELD, OPEN, PASS, FamilyGame, FamilyView
from games.bezique.fildinski import FildinskiView
from games.bezique.melds import Kind, face
from games.cards import SUITS
from harness import Bot, Option, View, hookimpl

__all__ = ["BeziqueBot"]

_RANKS = "789JQKTA"
#: A combination's weight in the keep value is capped: a 500 or 1500 dream
#: must not freeze a hand.
_CAP = 120
#: Cards the stock must still hold (two a trick) for a cheaper combination to
#: be declared before a dearer one: enough tricks left to win another.
BUILD_STOCK = 8


class BeziqueBot(Bot):
    """Heuristic Bezique-family play: keep meld material, declare the best,
    count cards."""

    name = "bezique-heuristic"
    description = (
        "Rules of thumb: keeps meld material, declares the best combination, counts "
        "cards once the stock is gone"
    )
    games = frozenset({"bezique", "marjolet", "binage", "rubicon", "fildinski"})
    option_specs = (
        Option(
            "meld_order",
            "best",
            "which of the combinations it may declare after a trick it declares",
            choices=("build", "best"),
            choice_docs={
                "build": "the best, except that under one declaration a trick and "
                "the re-use rule (Bezique) a combination whose cards a dearer one "
                "declarable now shares goes first while the stock lasts, so both "
                "score (the stuk before the trump sequence)",
                "best": "always the most valuable",
            },
        ),
    )

    def act(self, view: View) -> str:
        """The heuristic's choice among ``view.legal_actions``."""
        if not isinstance(view, FamilyView) or not isinstance(self.game, FamilyGame):
            raise TypeError(f"bezique-heuristic plays the bezique family, not {view!r}")
        legal = view.legal_actions
        trump = view.trump or ""
        if view.phase == "meld":
            values = self._values(trump)
            if self.game.name == "rubicon":
                return _rubicon_meld(view, legal, values)
            state = self.game.STATE
            if (
                self.options["meld_order"] == "build"
                and state.REUSE_RULE
                and not state.SEVERAL
                and view.stock >= BUILD_STOCK
            ):
                first = _build_first(legal, self._kinds(trump))
                if first is not None:
                    return first
            return max(legal, key=lambda a: values.get(a, 0))
        if view.phase == "final":
            return self._final(view, legal, trump)
        if isinstance(view, FildinskiView):
            return _fildinski_stock(view, legal, trump, self._kinds(trump))
        return self._stock(view, legal, trump)

    def _kinds(self, trump: str) -> tuple[Kind, ...]:
        assert isinstance(self.game, FamilyGame)
        return self.game.combinations(SUITS.index(trump) if trump else -1)

    def _values(self, trump: str) -> dict[str, int]:
        """What each declaration scores, from the game's table."""
        assert isinstance(self.game, FamilyGame)
        values = {MELD + k.name: k.value for k in self._kinds(trump)}
        values[DIX] = self.game.STATE.DIX_VALUE
        return values

    def _keeper(self, view: FamilyView, trump: str) -> dict[str, float]:
        """How much each card of the hand is worth keeping in the stock phase."""
        assert isinstance(self.game, FamilyGame)
        state = self.game.STATE
        points = state.RULES.plain_points
        held = Counter(_face(c) for c in view.hand)
        material: dict[int, float] = dict.fromkeys(range(32), 0.0)
        for kind in self._kinds(trump):
            need = Counter(kind.faces)
            have = sum(min(held[f], n) for f, n in need.items())
            if not have:
                continue
            weight = min(kind.value, _CAP) * have / len(kind.faces) / 6
            for f in need:
                material[f] += weight
        seven = face("7", SUITS.index(trump)) if trump else -1
        keep: dict[str, float] = {}
        for card in dict.fromkeys(view.hand):
            rank, suit = card[0], card[1]
            value = float(_RANKS.index(rank) + points.get(rank, 0))
            value += material[_face(card)]
            if suit == trump:
                value += 6
                if _face(card) == seven and view.turned and state.DIX_VALUE:
                    if _face(view.turned) != seven:
                        value += 8  # keep it for the dix
            keep[card] = value
        return keep

    def _stock(self, view: FamilyView, legal: Sequence[str], trump: str) -> str:
        # ``QS*`` (the open copy, RULES.md R11) is worth what ``QS`` is; on a
        # tie the hidden copy, listed first, goes and the declared one stays.
        by_card = self._keeper(view, trump)
        keep = {c: by_card[c.removesuffix(OPEN)] for c in legal}
        if not view.trick:
            return min(legal, key=lambda c: keep[c])
        led = view.trick[0][1]
        winners = [c for c in legal if _beats(c, led, trump)]
        if winners:
            best = min(winners, key=lambda c: keep[c])
            if led[0] in "AT" or keep[best] < 8:
                return best
        return min(legal, key=lambda c: keep[c])

    def _final(self, view: FamilyView, legal: Sequence[str], trump: str) -> str:
        if view.trick:
            led = view.trick[0][1]
            winners = [c for c in legal if _beats(c, led, trump)]
            if winners:
                return min(winners, key=lambda c: _strength(c, trump))
            return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        other = self._unseen(view)
        safe = [c for c in legal if not _can_beat(other, c, trump)]
        if safe:
            return max(safe, key=lambda c: (c[0] in "AT", _strength(c, trump)))
        return min(legal, key=lambda c: (c[0] in "AT", _strength(c, trump)))

    def _unseen(self, view: FamilyView) -> list[str]:
        """The cards this seat has not seen: in the final phase, the other hand."""
        assert isinstance(self.game, FamilyGame)
        left = Counter(self.game.STATE.RULES.deck.cards)
        left.subtract(view.hand)
        for record in view.tricks:
            left.subtract(record[1])
        left.subtract(card for _, card in view.trick)
        return [card for card, n in left.items() for _ in range(max(n, 0))]


def _build_first(legal: Sequence[str], kinds: Sequence[Kind]) -> str | None:
    """Under the re-use rule (RULES.md R4, R5: a declared card joins only a
    combination worth at least as much) a cheaper combination declared after a
    dearer one that shares a card is barred, but before it both score: the most
    valuable declarable combination that shares a face with a dearer one also
    declarable now, or ``None``."""
    by_name = {MELD + k.name: k for k in kinds}
    offered = [by_name[a] for a in legal if a in by_name]
    first = [
        low
        for low in offered
        if any(
            high.value > low.value and set(high.faces) & set(low.faces)
            for high in offered
        )
    ]
    if not first:
        return None
    return MELD + max(first, key=lambda k: k.value).name


def _rubicon_meld(
    view: FamilyView, legal: Sequence[str], values: Mapping[str, int]
) -> str:
    """Rubicon: declare everything, cheapest first (the re-use rule lets a card
    climb to a dearer combination, never down: RULES.md RU6); before trump, the
    first marias (it sets trump, RU3) in the suit the hand is longest in."""
    melds = [a for a in legal if a != PASS]
    if not melds:
        return PASS
    if view.trump is None:
        setting = [
            a for a in melds if a.startswith(MELD + "marias:") or "bezique:" in a
        ]
        if setting:
            return max(setting, key=lambda a: _suit_strength(view.hand, a[-1]))
    return min(melds, key=lambda a: values.get(a, 0))


def _suit_strength(hand: Sequence[str], suit: str) -> int:
    """How good ``suit`` would be as trump for ``hand``: its cards, high ones more."""
    return sum(1 + _RANKS.index(c[0]) // 4 for c in hand if c[1] == suit)


def _fildinski_stock(
    view: FildinskiView, legal: Sequence[str], trump: str, table: Sequence[Kind]
) -> str:
    """Fildinski's stock phase: the cards a seat wins are its meld material
    (RULES.md FI2), so take tricks whose cards complete a combination with the
    won cards (or are brisques), and give away cards that complete nothing of
    the other's won cards."""
    me = view.seat
    mine = Counter(_face(c) for c in view.won[me])
    theirs = Counter(_face(c) for c in view.won[1 - me])

    def gain(card: str, pile: Counter[int]) -> int:
        return _completes(_face(card), pile, table) + (10 if card[0] in "AT" else 0)

    def give(card: str) -> int:
        """What losing ``card`` to the other seat costs."""
        return gain(card, theirs) + _strength(card, trump)

    if view.trick:
        led = view.trick[0][1]
        winners = [c for c in legal if _beats(c, led, trump)]
        if winners:
            best = max(winners, key=lambda c: gain(c, mine) - _strength(c, trump))
            if gain(led, mine) + gain(best, mine) + gain(led, theirs) > 0:
                return best
        return min(legal, key=give)
    return min(legal, key=lambda c: give(c) - gain(c, mine) // 2)


def _completes(card: int, pile: Counter[int], table: Sequence[Kind]) -> int:
    """The best combination of ``table`` that the face ``card`` completes with
    the faces of the won cards ``pile``."""
    best = 0
    for kind in table:
        if card in kind.faces and kind.value > best:
            need = Counter(kind.faces)
            need[card] -= 1
            if all(pile[f] >= n for f, n in need.items()):
                best = kind.value
    return best


def _face(card: str) -> int:
    return face(card[0], SUITS.index(card[1]))


def _strength(card: str, trump: str) -> int:
    return _RANKS.index(card[0]) + (8 if card[1] == trump else 0)


def _beats(card: str, led: str, trump: str) -> bool:
    """Whether ``card`` played second takes the trick ``led`` opened."""
    if card[1] == led[1]:
        return _RANKS.index(card[0]) > _RANKS.index(led[0])
    return card[1] == trump


def _can_beat(hand: Sequence[str], led: str, trump: str) -> bool:
    """Whether ``hand`` answering ``led`` under follow-and-beat takes the trick:
    it must follow suit when it can (then only a higher card wins), else trump."""
    follow = [c for c in hand if c[1] == led[1]]
    return any(_beats(c, led, trump) for c in (follow or hand))


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the bezique heuristic bot."""
    return [BeziqueBot]
