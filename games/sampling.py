"""Uniform random deals of hidden cards into hands that may not hold some cards.

A search bot needs worlds consistent with what it knows: the cards it has not
seen, dealt to the hands it cannot see, each hand of its known size and none
holding a card its play has ruled out (a void shown by not following suit, a
trump it failed to over-trump with, ...). The right posterior for a bot that
assumes nothing about how others play is *uniform over every consistent deal*.
:class:`ConstrainedDealer` draws exactly that, fast, after one set-up per view.

Representation: a card is an ``int`` index, a hand a
:data:`~games.cards.CardMask`. Double decks give the two copies of a card
distinct indices, so uniform over physical cards is uniform over deals.

Method (one set-up, then cheap samples):

- Hands with the same constraints are interchangeable; cards that the same set
  of hands may take are a *kind*. A kind that only one hand may take goes there
  outright.
- Dynamic programming over the kinds, one kind after another, counts for each
  *room* vector (how many cards each hand still takes) the completions of the
  deal: ``W(i, room) = sum over x of multinomial(n_i; x) * W(i + 1, room - x)``,
  where ``x`` spreads the ``n_i`` cards of kind ``i`` over the hands allowed to
  take them. The last kind fills whatever room is left.
- A sample draws one integer below the number of consistent deals and walks the
  table: at each kind a bisect picks ``x`` with probability proportional to
  ``multinomial * completions``, exactly. Which cards of the kind go where is a
  partial Fisher-Yates shuffle of the kind, driven by a second integer.

Many hands (tarot for ten) can make the room vectors too many; a bound on the
work is computed before counting. The set-up then merges hands into groups,
first hands with the same constraints (the cards of a group are split among
its hands by a plain shuffle and cut: still exact), then, only if that is not
enough, the most alike hands: the group may take what any of its hands may,
and a sample whose split breaks a hand's own constraint is thrown away and the
whole deal drawn again (rejection, which keeps it exactly uniform). Positions
with no or few voids never get there however many hands there are; in play-like
positions of a ten-player trick game (simulated) the set-up stays under 50 ms
and a sample under 1 ms. Counting consistent deals is #P-hard in general, and
positions with many hands that *each* show several voids while still holding
many cards can leave rejection keeping almost nothing: :meth:`sample` then
gives up with a RuntimeError after :data:`MAX_REJECTIONS` draws rather than
bias the deal.
"""

from __future__ import annotations

import random
import sys
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from math import comb, factorial
from operator import le

from games.cards import CardMask, iter_bits

__all__ = ["ConstrainedDealer", "deal_uniform"]

#: A grouping of the hands whose dynamic programme may try more (state, spread)
#: pairs than this (a bound, see ``_estimate``; 2-20 µs each, more with more
#: groups) is not counted: hands are merged instead. A merge that would throw
#: away too many deals gets a second chance at ten times this.
DEFAULT_BUDGET = 10_000
#: More hands than this are refused (Hall's condition looks at every subset).
MAX_HANDS = 16
#: Trial draws that judge a merge of unlike hands, and the share of them it
#: must keep; below it, a bigger table is counted instead.
TRIALS = 100
MIN_ACCEPTANCE = 0.02
#: Sampling by rejection gives up after this many deals thrown away in a row.
MAX_REJECTIONS = 100_000


def deal_uniform(
    cards: Sequence[int],
    forbidden: Sequence[CardMask],
    sizes: Sequence[int],
    rng: random.Random,
) -> list[CardMask]:
    """One uniformly random consistent deal (see :class:`ConstrainedDealer`).

    For one draw; build a :class:`ConstrainedDealer` once to draw many.
    """
    return ConstrainedDealer(cards, forbidden, sizes).sample(rng)


class ConstrainedDealer:
    """Deals ``cards`` into hands of ``sizes``, uniformly among consistent deals.

    A deal is consistent when hand ``j`` gets exactly ``sizes[j]`` of the cards
    and none of ``forbidden[j]``; every consistent deal is equally likely.
    Build it once per view (the set-up does all the counting); then each
    :meth:`sample` is a few bisects and a partial shuffle.

    Cards a hand is known to hold are not this class's business: the caller
    puts them into the hand itself and passes the hand's *remaining* size
    (there is no "must hold" mask).

    :param cards: the card indices to deal, each once.
    :param forbidden: one mask per hand: the cards it cannot hold (bits of
        cards not in ``cards`` are ignored).
    :param sizes: how many of ``cards`` each hand gets; they add up to
        ``len(cards)``. A place that is not a hand (a stock, a talon) is a hand
        here.
    :param budget: how big the counting table may grow before hands are merged
        (for tests; the default keeps a set-up within tens of milliseconds).
    :raises ValueError: bad arguments, or no consistent deal exists.
    """

    __slots__ = (
        "_base",
        "_blocks",
        "_full",
        "_inner",
        "_leaf",
        "_merged",
        "_n_hands",
        "_root",
        "_stages",
        "_total",
        "count",
        "rejection",
    )

    def __init__(
        self,
        cards: Sequence[int],
        forbidden: Sequence[CardMask],
        sizes: Sequence[int],
        *,
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        _check(cards, forbidden, sizes)
        unseen = 0
        for c in cards:
            unseen |= 1 << c
        self._n_hands = len(sizes)
        active = [j for j in range(len(sizes)) if sizes[j]]
        masks = [forbidden[j] & unseen for j in active]
        nowhere = unseen
        for m in masks:
            nowhere &= m
        if nowhere:
            raise _no_deal(cards, sizes, "a card no hand may hold")
        self._setup(cards, active, masks, sizes, budget)
        #: Whether samples are drawn by rejection (unlike hands were merged);
        #: uniform either way, but then a sample may cost many draws.
        self.rejection: bool = any(unlike for *_, unlike in self._merged)
        #: The number of consistent deals, or None when drawn by rejection (then
        #: only the merged problem was counted).
        self.count: int | None = None
        if not self.rejection:
            self.count = self._total
            for _, member_sizes, _, _ in self._merged:
                self.count *= _multinomial(sum(member_sizes), member_sizes)

    # -- set-up --------------------------------------------------------------

    def _setup(
        self,
        cards: Sequence[int],
        active: list[int],
        masks: list[CardMask],
        sizes: Sequence[int],
        budget: int,
    ) -> None:
        """Choose how to group the hands, count their deals, build the tables.

        A level allows a table of at most ``budget`` spreads, the next ten
        times more. At a level, the first grouping whose table fits is taken.
        If it merges unlike hands and trial draws show it would throw most
        deals away, the next level is tried; after the last, the merge that
        kept the most trial draws is used. Bounded work, always uniform; only
        positions with many hands *and* many voids get there.
        """
        hall_checked = False
        best: tuple[float, _Layout, _Table] | None = None
        for level in (budget, 10 * budget):
            for groups in _groupings(masks):
                layout = _Layout(cards, active, masks, sizes, groups)
                if min(layout.room, default=0) < 0:
                    # Cards only one group may take overflow it (no deal at
                    # all: merging only ever widens what a group may take).
                    raise _no_deal(cards, sizes)
                # The estimate bounds the work from above: a grouping over the
                # level is not tried (one group alone has no work at all).
                if len(groups) == 1 or _estimate(layout) <= level:
                    break
            table = _Table(layout, level)
            self._install(layout, table)
            if not self._total:
                raise _no_deal(cards, sizes)
            if not any(unlike for *_, unlike in layout.merged):
                return
            if not hall_checked:
                # Deals of the merged groups exist; maybe none splits well.
                _check_hall(cards, masks, [sizes[j] for j in active], sizes)
                hall_checked = True
            kept = self._acceptance()
            if kept >= MIN_ACCEPTANCE:
                return
            if best is None or kept > best[0]:
                best = (kept, layout, table)
        assert best is not None
        self._install(best[1], best[2])

    def _install(self, layout: _Layout, table: _Table) -> None:
        self._base = layout.base
        self._merged = layout.merged
        self._blocks = [[1 << c for c in members] for _, members in layout.stages]
        self._full = [sum(b) for b in self._blocks]
        self._stages = len(layout.stages)
        self._total, self._root = table.result
        self._inner = table.inner
        self._leaf = table.leaf

    def _acceptance(self) -> float:
        """The share of trial draws the merged groups split well (fixed stream)."""
        rng = random.Random(0)
        kept = sum(self._split(self._draw(rng), rng) for _ in range(TRIALS))
        return kept / TRIALS

    # -- sampling ----------------------------------------------------------

    def sample(self, rng: random.Random) -> list[CardMask]:
        """One consistent deal, uniformly at random: a mask per hand."""
        if not self._merged:
            return self._draw(rng)
        for _ in range(MAX_REJECTIONS):
            hands = self._draw(rng)
            if self._split(hands, rng):
                del hands[self._n_hands :]
                return hands
        raise RuntimeError(  # pragma: no cover - needs a pathological position
            f"{MAX_REJECTIONS} deals of merged hands in a row broke a hand's "
            f"forbidden cards ({self._n_hands} hands, many voids); counting this "
            "position exactly needs a bigger budget"
        )

    def _draw(self, rng: random.Random) -> list[CardMask]:
        """A deal of the groups: which cards go to which (scratch) slot."""
        hands = self._base[:]
        if not self._stages:
            return hands
        randbelow = rng.randrange
        # Walk the table: one integer below the count picks every spread.
        r = randbelow(self._total) if self._total > 1 else 0
        state = self._root
        moves = []
        ways = 1
        inner = self._inner
        for _ in range(self._stages - 1):
            starts, mults, nexts, choices = inner[state]
            j = bisect_right(starts, r) - 1
            r = (r - starts[j]) // mults[j]
            move = choices[j]
            moves.append(move)
            ways *= move[3]
            state = nexts[j]
        move = self._leaf[state]
        moves.append(move)
        ways *= move[3]
        # Which cards: a partial Fisher-Yates shuffle of each kind, its swaps
        # all read off one integer below the number of outcomes.
        r = randbelow(ways) if ways > 1 else 0
        blocks, full = self._blocks, self._full
        for b, head, tail, _, cuts in moves:
            if not tail:
                hands[head] |= full[b]
                continue
            cards = blocks[b][:]
            n = len(cards)
            for i in range(n - 1, n - 1 - tail, -1):
                r, j = divmod(r, i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            taken = 0
            for slot, lo, hi in cuts:
                got = sum(cards[lo:hi])
                hands[slot] |= got
                taken |= got
            hands[head] |= full[b] ^ taken
        return hands

    def _split(self, hands: list[CardMask], rng: random.Random) -> bool:
        """Split each merged group's cards among its hands; False if one breaks."""
        k = self._n_hands
        for g, (members, member_sizes, masks, _) in enumerate(self._merged):
            cards = [1 << c for c in iter_bits(hands[k + g])]
            rng.shuffle(cards)
            at = 0
            for hand, size, forbid in zip(members, member_sizes, masks, strict=True):
                got = sum(cards[at : at + size])
                if got & forbid:
                    return False
                hands[hand] = got
                at += size
        return True


class _Layout:
    """One way to group the hands, and the kinds of cards it makes.

    A group of one hand writes straight into that hand's slot of a sample; a
    merged group into a scratch slot after the hands, split when sampled.
    ``merged[i]`` is (hands, their sizes, their forbidden masks, whether
    they differ) for scratch slot ``n_hands + i``. ``stages`` are the kinds
    that more than one group may take, as (groups, cards), in the order the
    dynamic programme deals them; the cards of a kind only one group may take
    are in ``base`` already, and ``room`` is what each group takes besides.
    """

    def __init__(
        self,
        cards: Sequence[int],
        active: list[int],
        masks: list[CardMask],
        sizes: Sequence[int],
        groups: list[list[int]],
    ) -> None:
        k = len(sizes)
        self.slots: list[int] = []
        self.merged: list[tuple[list[int], list[int], list[CardMask], bool]] = []
        forbids: list[CardMask] = []
        self.sizes: list[int] = []
        for members in groups:
            hands = [active[i] for i in members]
            forbid = masks[members[0]]
            for i in members[1:]:
                forbid &= masks[i]
            forbids.append(forbid)
            self.sizes.append(sum(sizes[h] for h in hands))
            if len(members) == 1:
                self.slots.append(hands[0])
            else:
                self.slots.append(k + len(self.merged))
                unlike = any(masks[i] != masks[members[0]] for i in members)
                self.merged.append(
                    (
                        hands,
                        [sizes[h] for h in hands],
                        [masks[i] for i in members],
                        unlike,
                    )
                )
        kinds: dict[int, list[int]] = {}
        for c in cards:
            allowed = 0
            for g, forbid in enumerate(forbids):
                if not forbid >> c & 1:
                    allowed |= 1 << g
            kinds.setdefault(allowed, []).append(c)
        self.base = [0] * (k + len(self.merged))
        room = list(self.sizes)
        stages: list[tuple[int, list[int]]] = []
        for allowed, members in kinds.items():
            if allowed & (allowed - 1) == 0:  # one group only: it goes there
                g = allowed.bit_length() - 1
                self.base[self.slots[g]] |= sum(1 << c for c in members)
                room[g] -= len(members)
            else:
                stages.append((allowed, members))
        # Kinds open to few groups first (fewer room vectors); the kind open
        # to the most groups last, where it simply fills the room left.
        stages.sort(key=lambda s: (s[0].bit_count(), len(s[1]), s[0]))
        self.stages = [
            ([g for g in range(len(groups)) if allowed >> g & 1], members)
            for allowed, members in stages
        ]
        self.room = tuple(room)


def _estimate(layout: _Layout) -> int:
    """An upper bound on the spreads the dynamic programme of ``layout`` tries.

    Before stage i a group's room lies between what it had less every card of
    the earlier stages it may take, and what the later stages can still give
    it; the rooms add up to the cards left. The states are at most the room
    vectors in that box and at most the paths so far (each state times each
    of its spreads); each tries at most the spreads of the stage's kind.
    """
    stages = layout.stages
    room = layout.room
    reach = [0] * len(room)
    for groups, members in stages:
        for g in groups:
            reach[g] += len(members)
    dealt = [0] * len(room)
    left = sum(room)
    total = 0
    paths = 1
    for groups, members in stages[:-1]:
        lo = [max(0, r - d) for r, d in zip(room, dealt, strict=True)]
        hi = [min(r, c) for r, c in zip(room, reach, strict=True)]
        if any(a > b for a, b in zip(lo, hi, strict=True)) or sum(lo) > left:
            return total
        vectors = _count_spreads(
            left - sum(lo), [b - a for a, b in zip(lo, hi, strict=True)]
        )
        n = len(members)
        states = min(paths, vectors)
        paths = states * _count_spreads(n, [min(n, hi[g]) for g in groups])
        total += paths
        for g in groups:
            dealt[g] += n
            reach[g] -= n
        left -= n
    return total


class _Table:
    """The dynamic programme over the kinds, and the tables a sample walks.

    A state is a room vector (cards each group still takes) before a stage
    (one kind). ``inner[id]`` of a state before a non-last stage is
    ``(starts, mults, nexts, moves)``: the cumulative weights of its spreads,
    each spread's multinomial, the next state and the move; ``leaf[id]`` is
    the one move of the last stage. A move is ``(block, head slot, tail, ways,
    cuts)``: the kind's cards are shuffled so that the last ``tail`` are a
    random subset; ``cuts`` give those to their slots, the rest go to the
    head slot (the group that takes most); ``ways`` counts the shuffles.

    ``budget`` (None: no limit) is what :func:`_estimate` promised.
    """

    def __init__(self, layout: _Layout, budget: int | None) -> None:
        n_groups = len(layout.slots)
        self.slots = layout.slots
        self.sizes = layout.sizes
        self.budget = sys.maxsize if budget is None else budget
        self.groups = [groups for groups, _ in layout.stages]
        self.counts = [len(members) for _, members in layout.stages]
        self.last = len(layout.stages) - 1
        self.memo: list[dict[tuple[int, ...], tuple[int, int]]] = [
            {} for _ in layout.stages
        ]
        self.inner: list[tuple[list[int], list[int], list[int], list[_Move]]] = []
        self.leaf: list[_Move] = []
        self.moves: dict[tuple[int, tuple[int, ...]], tuple[int, _Move]] = {}
        # Cards of stages i.. that group g may take: more room than that is dead.
        self.reach = [(0,) * n_groups] * (len(layout.stages) + 1)
        for i in range(self.last, -1, -1):
            reach = list(self.reach[i + 1])
            for g in self.groups[i]:
                reach[g] += self.counts[i]
            self.reach[i] = tuple(reach)
        self.result = self.solve(layout.room)

    def solve(self, room: tuple[int, ...]) -> tuple[int, int]:
        """(the number of deals, the root state's id); (0, -1) if none."""
        if self.last < 0:
            return (1, -1) if not any(room) else (0, -1)
        if not all(map(le, room, self.reach[0])):
            return 0, -1
        return self._count(0, room)

    def _count(self, i: int, room: tuple[int, ...]) -> tuple[int, int]:
        memo = self.memo[i]
        known = memo.get(room)
        if known is not None:
            return known
        groups = self.groups[i]
        result = (0, -1)
        if i == self.last:
            # The last kind fills the room left (its size is what is left, and
            # room outside its groups is 0: the reach check saw to both).
            mult, move = self._spread(i, tuple(room[g] for g in groups))
            self.leaf.append(move)
            result = (mult, len(self.leaf) - 1)
            memo[room] = result
            return result
        starts: list[int] = []
        mults: list[int] = []
        nexts: list[int] = []
        moves: list[_Move] = []
        total = 0
        reach = self.reach[i + 1]
        n = self.counts[i]
        after = list(room)
        for spread in _spreads(n, [min(n, room[g]) for g in groups]):
            self.budget -= 1
            if self.budget < 0:
                raise AssertionError("the estimate bounds the spreads tried")
            for g, x in zip(groups, spread, strict=True):
                after[g] = room[g] - x
            if not all(map(le, after, reach)):
                continue
            count, state = self._count(i + 1, tuple(after))
            if count:
                mult, move = self._spread(i, spread)
                starts.append(total)
                mults.append(mult)
                nexts.append(state)
                moves.append(move)
                total += mult * count
        if total:
            self.inner.append((starts, mults, nexts, moves))
            result = (total, len(self.inner) - 1)
        memo[room] = result
        return result

    def _spread(self, i: int, spread: tuple[int, ...]) -> tuple[int, _Move]:
        """The multinomial of ``spread`` over stage ``i``'s groups, and its move."""
        known = self.moves.get((i, spread))
        if known is not None:
            return known
        groups = self.groups[i]
        n = self.counts[i]
        big = max(range(len(spread)), key=spread.__getitem__)
        tail = n - spread[big]
        cuts = []
        at = n - tail
        for j, (g, x) in enumerate(zip(groups, spread, strict=True)):
            if x and j != big:
                cuts.append((self.slots[g], at, at + x))
                at += x
        ways = factorial(n) // factorial(n - tail)
        move = (i, self.slots[groups[big]], tail, ways, tuple(cuts))
        out = self.moves[i, spread] = (_multinomial(n, spread), move)
        return out


#: (block, head slot, tail, ways, cuts): see :class:`_Table`.
_Move = tuple[int, int, int, int, tuple[tuple[int, int, int], ...]]


def _groupings(masks: list[CardMask]) -> Iterator[list[list[int]]]:
    """Ways to group the hands, from one group per hand to a single group.

    One group per hand; hands with the same forbidden mask merged (exact);
    then the two most alike groups merged, one merge at a time.
    """
    groups = [[i] for i in range(len(masks))]
    alike: dict[CardMask, list[int]] = {}
    for i, m in enumerate(masks):
        alike.setdefault(m, []).append(i)
    yield groups
    if len(alike) < len(groups):
        groups = list(alike.values())
        yield groups
    while len(groups) > 1:
        groups = _merge_closest(groups, masks)
        yield groups


def _count_spreads(n: int, caps: list[int]) -> int:
    """How many ``x`` have ``sum(x) == n`` and ``0 <= x[i] <= caps[i]``."""
    ways = [1] + [0] * n
    for cap in caps:
        # nxt[s] = ways[s - cap] + ... + ways[s]: a sliding window.
        nxt = []
        window = 0
        for s, w in enumerate(ways):
            window += w
            if s > cap:
                window -= ways[s - cap - 1]
            nxt.append(window)
        ways = nxt
    return ways[n]


def _spreads(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every ``x`` with ``sum(x) == n`` and ``0 <= x[i] <= caps[i]``."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    rest = sum(caps[1:])
    for x in range(max(0, n - rest), min(n, caps[0]) + 1):
        for tail in _spreads(n - x, caps[1:]):
            yield (x, *tail)


def _multinomial(n: int, parts: Sequence[int]) -> int:
    """``n! / prod(part!)``: the ways to split ``n`` cards into ``parts``."""
    out = 1
    for x in parts:
        out *= comb(n, x)
        n -= x
    return out


def _merge_closest(groups: list[list[int]], masks: list[CardMask]) -> list[list[int]]:
    """``groups`` with the two most alike merged (same constraints first).

    Alike = the fewest cards that one group may not hold and the other may.
    """
    if len(groups) < 2:  # pragma: no cover - one group always fits the budget
        raise AssertionError("one group cannot be over the budget")

    def forbid(group: list[int]) -> CardMask:
        out = masks[group[0]]
        for i in group[1:]:
            out &= masks[i]
        return out

    f = [forbid(g) for g in groups]
    best = min(
        (
            ((f[a] ^ f[b]).bit_count(), a, b)
            for a in range(len(groups))
            for b in range(a + 1, len(groups))
        ),
    )
    _, a, b = best
    out = [g for i, g in enumerate(groups) if i not in (a, b)]
    out.insert(a, sorted(groups[a] + groups[b]))
    return out


def _check(
    cards: Sequence[int], forbidden: Sequence[CardMask], sizes: Sequence[int]
) -> None:
    """Raise ValueError unless the arguments describe a deal."""
    if len(forbidden) != len(sizes):
        raise ValueError(
            f"{len(forbidden)} forbidden masks for {len(sizes)} hands: "
            "give one mask per hand"
        )
    if len(sizes) > MAX_HANDS:
        raise ValueError(f"{len(sizes)} hands: at most {MAX_HANDS} are supported")
    if any(s < 0 for s in sizes):
        raise ValueError(f"hand sizes {list(sizes)} must not be negative")
    if any(c < 0 for c in cards) or len(set(cards)) != len(cards):
        raise ValueError(f"cards {list(cards)} must be distinct indices >= 0")
    if sum(sizes) != len(cards):
        raise ValueError(
            f"hand sizes {list(sizes)} add up to {sum(sizes)}, "
            f"not to the {len(cards)} cards to deal"
        )


def _check_hall(
    cards: Sequence[int],
    masks: list[CardMask],
    sizes: list[int],
    all_sizes: Sequence[int],
) -> None:
    """Raise ValueError unless some deal respects every hand's constraint.

    Hall's condition for this capacity problem: for every set of hands, the
    cards that only those hands may take fit into them (``masks`` and
    ``sizes`` are those of the hands that take cards; ``all_sizes`` is for
    the message).
    """
    k = len(sizes)
    only = [0] * (1 << k)  # cards whose allowed hands are exactly this set
    for c in cards:
        allowed = 0
        for j, forbid in enumerate(masks):
            if not forbid >> c & 1:
                allowed |= 1 << j
        only[allowed] += 1
    # Sum over subsets (zeta transform): need[s] = cards allowed within s only.
    need = only
    for j in range(k):
        bit = 1 << j
        for s in range(1 << k):
            if s & bit:
                need[s] += need[s ^ bit]
    room = [0] * (1 << k)
    for s in range(1, 1 << k):
        low = s & -s
        room[s] = room[s ^ low] + sizes[low.bit_length() - 1]
        if need[s] > room[s]:
            raise _no_deal(cards, all_sizes)


def _no_deal(cards: Sequence[int], sizes: Sequence[int], why: str = "") -> ValueError:
    detail = f" ({why})" if why else ""
    return ValueError(
        f"no deal of {len(cards)} cards into hands of sizes {list(sizes)} "
        f"respects the forbidden cards{detail}"
    )
