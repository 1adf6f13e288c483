"""A club player's heuristic for the tarot family (Maison Tarot, La Rigueur,
Maison Troggen, Triomphe Forcée).

None of the four games has an auction or partners (seed 000 lines 141, 193,
296, 331): every decision is a card to play, and in Maison Troggen the dealer's
three discards. The bot plays them by counting cards and weighing chances:

- **What a card is worth.** Maison Tarot and La Rigueur score card points plus
  one per card won (lines 362-369), Maison Troggen counts by threes, which comes
  to the same thing (line 175; TR4): a card is worth its points plus one. Wilde
  Maison Tarot scores one per trick instead (R13), Triomphe Forcée one per
  trick and nothing for cards (line 213).
- **Who can beat a card.** Every card it has not seen is in an opponent's hand
  or undealt; an opponent who did not follow a suit holds none of it, one who
  did not trump when void holds no trump (in La Rigueur no card of the tiers
  above the suit, R10), and Triomphe's declared cards sit in their declarer's
  hand while 13T and the undeclared honours were never dealt (TF9). From these
  it estimates, per card, the chance that no opponent still to play can beat it
  under the duties (line 351: follow, else trump).
- **Which card.** A card played now is worth its expected trick (won: the
  cards on the table, its own value and what the others add; lost: given away)
  less what it would be worth kept for a later lead
  (:func:`_later`). So it takes a trick with the card it needs least
  (2T rather than 20T), banks the petit (1T, worth 4 and beaten by any trump) as
  soon as it wins with it, throws its cheapest card into a trick it loses,
  saves its kings and high trumps, and keeps the excuse (never lost, line 356)
  for a trick in which it would otherwise give up points.
- **Leading** it cashes what is sure to win, the card worth most first (the
  highest trumps first draw the others' trumps, which protects its kings),
  and otherwise leads the card whose lead loses least, from a short plain suit
  rather than a trump, so that it can trump that suit later.
- **The discard** (Maison Troggen, line 151; TR2) makes a void where it can
  (a short suit without its king), and otherwise throws blanks from its shortest
  suits: the discard scores for nobody (TR3), so a point card goes only to make
  the void that will win it tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import TAROT, CardMask
from games.tarot.common import EXCUSE, POINTS, TRUMPS, TarotView, tables_of
from harness import Bot, View, hookimpl

__all__ = ["Knowledge", "TarotBot", "knowledge_of"]

_INDEX = TAROT.index
_EX = EXCUSE.bit_length() - 1
_SUITS = TAROT.suit_masks
_SUIT_OF = tuple(TAROT.suit_of(c) for c in range(len(TAROT)))
#: Triomphe Forcée's Death and honours (TF4, TF5): never in a hand being played
#: unless declared.
_DECLARABLE = TAROT.mask(["EX", "1T", "11T"])
_DEATH = TAROT.mask(["13T"])
#: A lead this likely to win is cashed (the card worth most first).
SURE = 0.85
#: The least chance that a trump kept wins a trick later.
RUFF = 0.5
#: What an opponent's card adds to a trick (a blank counts one), a little
#: under the pack's mean, since a player who loses a trick throws cheap cards.
_OTHER_CARD = 1.5
_MEAN_VALUE = sum(p + 1.0 for p in POINTS) / len(POINTS)


class TarotBot(Bot):
    """Counts cards, weighs who can still beat each card, banks its points."""

    name = "tarot"
    description = (
        "A club player's heuristic: counts cards and voids, weighs the chance "
        "each card wins, banks its points, saves high trumps and the excuse"
    )
    games = frozenset(
        {"maison-tarot", "la-rigueur", "maison-troggen", "triomphe-forcee"}
    )

    def act(self, view: View) -> str:
        """The heuristic's card (see the module docstring)."""
        legal = view.legal_actions
        if len(legal) == 1 or not isinstance(view, TarotView):
            return legal[0]
        if legal[0].startswith("discard "):
            return "discard " + TAROT.cards[_discard(view.hand, legal)]
        k = knowledge_of(self.game, view)
        cards = [_INDEX[c] for c in legal]
        trick = [(s, _INDEX[c]) for s, c in view.trick]
        return TAROT.cards[_choose(k, cards, trick)]


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the cards at a decision, and how the game scores."""

    #: Seats at the table and this seat.
    n_seats: int
    seat: int
    #: ``beats[c]``: the cards that beat card ``c`` (the game's tiers and ranks).
    beats: Sequence[CardMask]
    #: The trump tiers, highest first (La Rigueur: trumps, then spades).
    tiers: tuple[int, ...]
    #: What each card is worth to the seat that wins it, and what a trick is
    #: worth besides its cards.
    value: Sequence[float]
    trick_value: float
    #: What another seat's card adds to a trick, on average.
    other_card: float
    #: Per seat, the cards it may hold (unseen, not ruled out by its voids),
    #: the cards it is known to hold, and how many cards it holds now.
    may_hold: Sequence[CardMask]
    holds: Sequence[CardMask]
    hand_size: Sequence[int]
    #: This seat's hand.
    hand: CardMask

    def chance(self, seat: int) -> float:
        """The chance that ``seat`` holds any one card it may hold."""
        unknown = self.may_hold[seat] & ~self.holds[seat]
        left = self.hand_size[seat] - self.holds[seat].bit_count()
        count = unknown.bit_count()
        return min(1.0, left / count) if count and left > 0 else 0.0

    def p_win(self, card: int, led: int, after: Sequence[int]) -> float:
        """The chance that ``card``, now best in a trick of suit ``led``, is
        beaten by none of the seats ``after`` still to play, under the duties
        (follow suit; void, a card of the tiers above the suit led if one can:
        seed 000 lines 312, 351).

        A higher card of the suit is in one place only, so the chances that
        the seats hold it add up; a seat trumps if it is void in the suit and
        holds a card that beats ``card``.
        """
        suit = _SUITS[led]
        higher = self.beats[card] & suit
        ruff = self.beats[card] & _above(self.tiers, led)
        p = 1.0
        chances = [(self.chance(s), s) for s in after]
        for c in _bits(higher):
            bit = 1 << c
            held = 0.0
            for chance, s in chances:
                if self.holds[s] & bit:
                    return 0.0
                if self.may_hold[s] & bit:
                    held += chance
            p *= max(0.0, 1.0 - held)
        for chance, s in chances:
            known, may = self.holds[s], self.may_hold[s]
            q = 1.0 - chance
            void = 0.0 if known & suit else q ** (suit & may).bit_count()
            trumps = 1.0 if known & ruff else 1.0 - q ** (ruff & may).bit_count()
            p *= 1.0 - void * trumps
        return p


def _bits(mask: CardMask) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _above(tiers: tuple[int, ...], led: int) -> CardMask:
    """The cards a player void in suit ``led`` must play if he can (the tiers
    above it; any tier for a plain suit)."""
    if led in tiers:
        return sum((_SUITS[t] for t in tiers[: tiers.index(led)]), 0)
    return sum((_SUITS[t] for t in tiers), 0)


def knowledge_of(game: object, view: TarotView) -> Knowledge:
    """What ``view``'s seat knows: the cards unseen, the voids shown, the
    declared cards (see the module docstring)."""
    n = len(view.scores)
    me = view.seat
    tiers: tuple[int, ...] = getattr(game, "tiers", (TRUMPS,))
    beats = tables_of(tiers, getattr(game, "red_reversed", False)).beats
    hand = TAROT.mask(view.hand)
    seen = hand | TAROT.mask(getattr(view, "discard", ()))
    void = [0] * n  # suits a seat showed it lacks, as a card mask
    played = [0] * n
    records = [(leader, cards) for leader, cards, *_ in view.tricks]
    if view.trick:
        leader = view.trick[0][0]
        records.append((leader, tuple(c for _, c in view.trick)))
    for leader, names in records:
        idx = [_INDEX[c] for c in names]
        led = next((_SUIT_OF[c] for c in idx if c != _EX), -1)
        for i, c in enumerate(idx):
            seat = (leader + i) % n
            seen |= 1 << c
            played[seat] += 1
            if c == _EX or led < 0 or i == 0 or _SUIT_OF[c] == led:
                continue
            void[seat] |= _SUITS[led]
            above = _above(tiers, led)
            if not (1 << c) & above:
                void[seat] |= above
    holds = [0] * n
    trick_value = 1.0
    value: Sequence[float] = tuple(p + 1.0 for p in POINTS)
    if hasattr(view, "pot"):  # Triomphe Forcée: tricks only (line 213)
        value = (0.0,) * len(TAROT)
        declared = 0
        for seat, name in getattr(view, "declarations", ()):
            c = 1 << _INDEX[name]
            declared |= c
            if seat != me and not c & seen:
                holds[seat] |= c
        seen |= _DEATH | (_DECLARABLE & ~declared)  # never dealt (TF9)
    elif getattr(game, "options", {}).get("variant") == "wilde":
        value = tuple(float(p) for p in POINTS)  # plus one per trick (R13)
    elif getattr(game, "name", "") == "maison-troggen":
        # By threes (line 175): a card is worth its points and a third.
        value = tuple(p + 1.0 / 3.0 for p in POINTS)
        trick_value = 0.0
    else:
        trick_value = 0.0  # the cards count one each instead
    unseen = TAROT.full & ~seen
    for seat in range(n):
        holds[seat] &= unseen
    in_trick = {s for s, _ in view.trick}
    size = len(view.hand)
    return Knowledge(
        n_seats=n,
        seat=me,
        beats=beats,
        tiers=tiers,
        value=value,
        trick_value=trick_value,
        other_card=_OTHER_CARD * (sum(value) / len(value)) / _MEAN_VALUE,
        may_hold=tuple(
            unseen & ~void[s] & ~_others(holds, s) if s != me else 0 for s in range(n)
        ),
        holds=tuple(holds),
        hand_size=tuple(
            size - (1 if s in in_trick else 0) if s != me else size for s in range(n)
        ),
        hand=hand,
    )


def _others(holds: Sequence[CardMask], seat: int) -> CardMask:
    return sum((h for s, h in enumerate(holds) if s != seat), 0)


def _best(trick: Sequence[tuple[int, int]], beats: Sequence[CardMask]) -> int:
    """The card winning the trick so far (the excuse never wins)."""
    best = -1
    for _, c in trick:
        if c == _EX:
            continue
        if best < 0 or beats[best] >> c & 1:
            best = c
    return best


def _later(k: Knowledge, card: int) -> float:
    """What ``card`` is worth kept: the trick it would win later, as likely as
    its lead would win now (a trump may also win by trumping a suit this seat
    no longer holds, so it counts at least an even chance). A card that
    would lose later costs nothing to keep: it is given away either way."""
    others = [s for s in range(k.n_seats) if s != k.seat]
    p = k.p_win(card, _SUIT_OF[card], others)
    if _SUIT_OF[card] in k.tiers:
        p = max(p, RUFF)
    return p * (k.value[card] + k.trick_value + k.other_card)


def _choose(
    k: Knowledge, cards: Sequence[int], trick: Sequence[tuple[int, int]]
) -> int:
    """The card to play: a lead, or the card worth most to this trick less its
    worth kept, the excuse instead of a loser worth keeping."""
    plain = [c for c in cards if c != _EX]
    if not plain:
        return _EX
    n, me = k.n_seats, k.seat
    lead = _best(trick, k.beats) < 0
    if lead:
        return _lead(k, plain)
    best = _best(trick, k.beats)
    led = next(_SUIT_OF[c] for _, c in trick if c != _EX)
    played = {s for s, _ in trick}
    after = [s % n for s in range(me + 1, me + n) if s % n not in played]
    table = sum(k.value[c] for _, c in trick if c != _EX)
    extra = k.other_card * len(after)
    # Two seats: what one loses the other wins; with more, a lost trick goes
    # to one rival among several.
    loss = 1.0 if n == 2 else 2.0 / n

    def worth(c: int) -> float:
        stake = table + k.value[c] + k.trick_value + extra
        p = k.p_win(c, led, after) if k.beats[best] >> c & 1 else 0.0
        return p * stake - (1.0 - p) * loss * stake - _later(k, c)

    # Between equals, the weakest card goes (the one more cards beat).
    choice = max(plain, key=lambda c: (worth(c), k.beats[c].bit_count(), -c))
    if _EX in cards and not k.beats[best] >> choice & 1:
        # Losing this trick anyway: the excuse keeps a card worth keeping
        # (it is never lost, line 356), and it must be played before the end.
        # Worth keeping: a queen's worth or more (3 points and the card).
        kept = k.value[choice] + _later(k, choice)
        if kept >= 2.5 or len(plain) <= 1:
            return _EX
    return choice


def _lead(k: Knowledge, plain: Sequence[int]) -> int:
    """A sure card, the one worth most; else the lead that loses least, from
    a short plain suit rather than a trump."""
    others = [s for s in range(k.n_seats) if s != k.seat]
    win = {c: k.p_win(c, _SUIT_OF[c], others) for c in plain}
    sure = [c for c in plain if win[c] >= SURE]
    if sure:
        return max(sure, key=lambda c: (k.value[c], win[c], -c))
    length = [(k.hand & s).bit_count() for s in _SUITS]
    trumps = set(k.tiers)

    def worth(c: int) -> tuple[float, int]:
        stake = k.value[c] + k.trick_value + k.other_card
        keep = 1.0 if _SUIT_OF[c] in trumps else 0.0  # a trump wins a void later
        return ((2.0 * win[c] - 1.0) * stake - keep - 0.1 * length[_SUIT_OF[c]], -c)

    return max(plain, key=worth)


def _discard(hand: Sequence[str], legal: Sequence[str]) -> int:
    """Maison Troggen's discard: a void where one can be made, else the blank
    of the shortest suit (the discard scores for nobody, TR3)."""
    cards = [_INDEX[a[8:]] for a in legal]
    mask = TAROT.mask(hand)
    left = 3 - (28 - len(hand))  # discards still to make, this one included

    def key(c: int) -> tuple[int, int, int, int]:
        suit = _SUITS[_SUIT_OF[c]]
        # The suit's discardable cards: a void needs every one of them.
        spare = sum(1 for d in cards if suit >> d & 1)
        held = (mask & suit).bit_count()
        # A void is worth a cheap card or two, not the points it would throw.
        cheap = all(POINTS[d] <= 1 for d in cards if suit >> d & 1)
        voids = spare == held and spare <= left and cheap
        return (0 if voids else 1, POINTS[c] if not voids else 0, held, c)

    return min(cards, key=key)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the tarot bot."""
    return [TarotBot]
