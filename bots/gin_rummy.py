"""A rule-of-thumb bot for Gin Rummy (Oklahoma), ``games/rummy/``.

It reads only its view. The rule text is ``../shared/seeds/000_*.txt`` lines
484-551 (line numbers below are of that file); the rulings are those of
``games/rummy/RULES.md``.

- **Going out.** It goes gin whenever it can (line 514), and otherwise knocks as
  soon as the rules let it (line 516: deadwood at most the value of the card
  that sets the limit, ruling 3 or ruling 17), with the least deadwood: "klop
  niet te laat in het spel" (line 547). It lays down the least-deadwood layout
  (the first offered, ruling 8).
- **Drawing** (line 508). It takes the discard pile's top card when that card
  lands in a meld and lowers its deadwood, or when its deadwood after the best
  discard is lower than a stock card would leave it on average (over the cards
  it has not seen); else it draws from the stock.
- **Discarding** (line 510). It keeps its melds and throws the loose card whose
  value is least likely to be melded: a loose card counts its value times the
  chance that it stays deadwood, lower the more live cards (not on the pile,
  not known in the other hand) would meld it with the cards it holds. "Je kunt
  beter met lage kaarten verliezen dan met hoge" (line 539): among equals the
  highest goes. A card that melds with the cards the opponent took from the
  pile, or lies next to one, costs extra: "zeer goed onthouden wat er al is
  weggegooid is essentieel" (line 537).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import FULL52, CardMask, iter_bits
from games.rummy import melds
from harness import Bot, View, hookimpl

__all__ = ["GinRummyBot"]

_N = 13
#: Extra cost of discarding a card that makes a meld for the opponent with
#: the cards he is known to hold, and of one that lies next to such a card.
_FEEDS_MELD = 12.0
_FEEDS_NEAR = 4.0


class GinRummyBot(Bot):
    """Heuristic Gin Rummy (see the module docstring)."""

    name = "gin-rummy"
    description = (
        "Rules of thumb: goes gin or knocks as soon as it may, takes the upcard "
        "when it melds, throws the loose card least likely to meld"
    )
    games = frozenset({"gin-rummy"})

    def act(self, view: View) -> str:
        """The action the rules of thumb pick among ``view.legal_actions``."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase: str = view.phase  # type: ignore[attr-defined]
        if phase == "layout":
            return legal[0]  # least deadwood first (ruling 8)
        hand = FULL52.mask(view.hand)  # type: ignore[attr-defined]
        table = _Table.of(view)
        if phase == "draw":
            return "draw:discard" if self._takes(hand, table) else "draw:stock"
        gins = [a for a in legal if a.startswith("gin")]
        if gins:
            return gins[-1]  # grote gin (ruling 13) is offered last
        knocks = [a for a in legal if a.startswith("knock:")]
        if knocks:
            return min(knocks, key=lambda a: self._knock_key(hand, a, table))
        plain = [a for a in legal if ":" not in a]
        return min(plain, key=lambda c: self._discard_key(hand, c, table))

    # -- discarding ---------------------------------------------------------------

    def _discard_key(
        self, hand: CardMask, card: str, table: _Table
    ) -> tuple[float, int, int]:
        """Smaller is a better discard: the kept hand's expected deadwood and
        what the card gives the opponent, then the higher card, then fixed."""
        c = FULL52.index[card]
        kept = hand & ~(1 << c)
        expected = melds.expected_deadwood(kept, table.dead)
        return (expected + table.danger(c), -_value(c), c)

    def _knock_key(self, hand: CardMask, action: str, table: _Table) -> tuple[int, int]:
        """Least deadwood after the knock discard, then the safer discard."""
        c = FULL52.index[action.split(":")[1]]
        return melds.deadwood(hand & ~(1 << c)), int(table.danger(c))

    # -- drawing ------------------------------------------------------------------

    def _takes(self, hand: CardMask, table: _Table) -> bool:
        """Whether to take the discard pile's top card (see the module docstring)."""
        if table.top < 0:
            return False
        now = melds.deadwood(hand)
        after, melded = _best_after(hand, table.top)
        if melded and after < now:
            return True
        unseen = list(iter_bits(FULL52.full & ~(hand | table.seen)))
        if not unseen:
            return after < now
        stock = sum(_least_after_draw(hand | 1 << u) for u in unseen) / len(unseen)
        return after < stock


class _Table:
    """What the view says about the cards outside the hand, as masks."""

    def __init__(
        self, top: int, dead: CardMask, seen: CardMask, wanted: CardMask
    ) -> None:
        #: The discard pile's top card index, or -1.
        self.top = top
        #: Cards no longer to be had: the pile under its top, the opponent's known.
        self.dead = dead
        #: Every card seen outside the hand: the whole pile, the opponent's known.
        self.seen = seen
        #: Cards the opponent is known to hold (taken from the pile).
        self.wanted = wanted

    @classmethod
    def of(cls, view: View) -> _Table:
        """Read the pile and the opponent's known cards from a gin-rummy view."""
        pile = [FULL52.index[c] for c in view.discard_pile]  # type: ignore[attr-defined]
        known = FULL52.mask(view.opponent_known)  # type: ignore[attr-defined]
        under = sum(1 << c for c in pile[:-1])
        top = pile[-1] if pile else -1
        seen = under | known | (1 << top if top >= 0 else 0)
        return cls(top, under | known, seen, known)

    def danger(self, card: int) -> float:
        """What discarding ``card`` gives the opponent, by the cards he took."""
        if not self.wanted:
            return 0.0
        with_it = self.wanted | 1 << card
        if melds.meldable(with_it) >> card & 1:
            return _FEEDS_MELD
        rank, suit = card % _N, card // _N
        near = melds.rank_mask(rank) | sum(
            1 << (suit * _N + r) for r in (rank - 1, rank + 1) if 0 <= r < _N
        )
        return _FEEDS_NEAR if self.wanted & near & ~(1 << card) else 0.0


def _value(card: int) -> int:
    return melds.VALUE[card]


def _best_after(hand: CardMask, top: int) -> tuple[int, bool]:
    """Least deadwood after taking ``top`` and discarding another card
    (ruling 5), and whether ``top`` then lies in a meld."""
    taken = hand | 1 << top
    best: tuple[int, bool] | None = None
    for c in iter_bits(hand):
        kept = taken & ~(1 << c)
        dw = melds.deadwood(kept)
        if best is None or dw < best[0]:
            melded = sum(next(melds.arrangements(kept)))
            best = (dw, bool(melded >> top & 1))
    assert best is not None
    return best


def _least_after_draw(hand: CardMask) -> int:
    """Least deadwood after discarding one card of an 11-card ``hand``."""
    return min(dw for _, dw in melds.going_out(hand, melds.value(hand)))


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the gin-rummy bot."""
    return [GinRummyBot]
