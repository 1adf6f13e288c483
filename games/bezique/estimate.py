"""What a Bezique-family deal is likely to bring each seat, for cut-off search.

A search bot's rollout stopped before the deal ends (``evaluation = "game"``,
``docs/SEARCH.md``) values the world by :func:`deal_estimate`: each seat's
points so far, plus a share of what its hand still promises:

- **melds**: the declarations it could make now (:meth:`FamilyState._meld_prospects`:
  the combinations its cards form under the rules of declaring, re-use rule
  and histories included, and the dix), while declaring is still possible
  (the stock lasts, or the game declares in the final phase too, Marjolet
  M4). A game with one declaration per trick won counts the best of them, as
  many as the seat may expect to win tricks: half the stock tricks left, at
  least one; a game with several per trick (Marjolet, Rubicon) counts them
  all. They score only if the seat wins a trick first and keeps the cards till
  then, so :data:`MELD_SHARE` of them counts.
- **meld material**: each combination its cards hold part of (some of the
  copies it needs, not all), for :data:`MATERIAL_SHARE` of its points (at most
  :data:`MATERIAL_CAP`: a 500 or a 1500 seldom comes) times the part held, so
  that a search keeps half a combination rather than play it away. The cards
  are the hand's (:meth:`FamilyState._material_pool`; Fildinski's: the won
  cards, which its combinations are made of).
- **brisques**: the card points of the cards in hand (aces and tens, 10 each
  when won, seed 000 line 109: "voor iedere Aas en / of Tien die je in een
  slag wint krijg je onmiddelijk 10 punten"; Rubicon has none): a seat chooses
  when to play its own, so it wins more of them than the other seat does;
  :data:`BRISQUE_SHARE` of them counts.

The shares are rulings of this module, not of the rule texts; they were set
by the tuning runs in ``docs/SEARCH.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.bezique.melds import cached_per_table

if TYPE_CHECKING:
    from games.bezique.family import FamilyState
    from games.bezique.melds import Needs

__all__ = [
    "BRISQUE_SHARE",
    "MATERIAL_CAP",
    "MATERIAL_SHARE",
    "MELD_SHARE",
    "deal_estimate",
]

#: The share of a possible declaration's points an estimate counts.
MELD_SHARE = 0.5
#: The share of the card points in hand an estimate counts for its holder.
BRISQUE_SHARE = 0.5
#: The share of a half-held combination's points (times the part held).
MATERIAL_SHARE = 0.1
#: The most points a half-held combination counts for.
MATERIAL_CAP = 120


def deal_estimate(state: FamilyState) -> tuple[float, float]:
    """Each seat's expected deal points: points so far, and a share of its
    possible declarations and of the card points in its hand."""
    stock_tricks = len(state._stock) // 2
    may_declare = stock_tricks > 0 or state.MELDS_IN_FINAL
    points_of = state._tables.points
    out: list[float] = []
    for seat in (0, 1):
        value = float(state._points[seat])
        hand = state.hands[seat]
        if may_declare:
            prospects = sorted(state._meld_prospects(seat), reverse=True)
            if not state.SEVERAL:
                prospects = prospects[: max(1, stock_tricks // 2)]
            value += MELD_SHARE * sum(prospects) + MATERIAL_SHARE * material(
                state, state._material_pool(seat)
            )
        brisques = 0
        while hand:
            low = hand & -hand
            brisques += points_of[low.bit_length() - 1]
            hand ^= low
        value += BRISQUE_SHARE * brisques
        out.append(value)
    return out[0], out[1]


def material(state: FamilyState, pool: int) -> float:
    """The points of the combinations the cards ``pool`` hold part of, each at
    most :data:`MATERIAL_CAP` and times the part held (copies held over needed)."""
    total = 0.0
    for worth, need, faces in _rows(state._kind_needs):
        have = 0
        for mask, n in faces:
            held = (pool & mask).bit_count()
            have += held if held < n else n
        if 0 < have < need:
            total += worth * have
    return total


#: A kind's points per copy needed (capped), the copies it needs, and its faces.
_Row = tuple[float, int, tuple[tuple[int, int], ...]]
#: By the id of a ``Needs`` table, which each entry keeps alive.
_ROWS: dict[int, tuple[Needs, tuple[_Row, ...]]] = {}


def _rows(kind_needs: Needs) -> tuple[_Row, ...]:
    """:func:`material`'s table, cached per combination table (as the
    family's quick test of declarations is)."""
    return cached_per_table(_ROWS, kind_needs, _build_rows)


def _build_rows(kind_needs: Needs) -> tuple[_Row, ...]:
    rows = []
    for kind, faces in kind_needs:
        need = sum(n for _, n in faces)
        rows.append((min(kind.value, MATERIAL_CAP) / need, need, faces))
    return tuple(rows)
