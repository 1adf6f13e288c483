"""Klaverjassen (Rotterdam rules): four players in two fixed partnerships.

Rule text: ``seeds/004`` from line 77, "Klaverjassen, 4 spelers"; the rules as
implemented and every ruling are in ``games/jass/RULES.md`` (cited here as R1,
R2, ...).

Representation. A card is its index in :data:`games.cards.PIQUET` (suit * 8 +
position in ``"789TJQKA"``); a hand is an ``int`` mask over those indices. Trick
ranks, card points and over-trumping come from tables built once per trump suit
with :mod:`games.tricks`; roem from :mod:`games.jass.roem`; card values and
deal scoring from :mod:`games.jass.scoring`. Strings appear only
at the edge: actions, views and :meth:`KlaverjassenState.card_locations`.

A match is a sequence of deals. Deal ``k`` is dealt by seat ``(3 + k) % 4``, so
seat ``k % 4`` is voorhand: it bids first and leads the first trick. Each deal
draws, from ``deal_rng(seed, k)`` alone and in this order, the shuffle, the
suit turned for bidding and the second suit turned if everybody passes (R2).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import NoReturn

from games.cards import PIQUET, SUITS, CardMask, iter_bits
from games.jass.roem import roem_parts, trick_roem
from games.jass.scoring import (
    LAST_TRICK,
    PIT_BONUS,
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
    DealSummary,
    deal_score,
)
from games.tricks import (
    beats_table,
    deal_constrained,
    points_table,
    revealed_voids,
)
from harness import (
    Game,
    IllegalActionError,
    InvalidActionError,
    Option,
    Result,
    State,
    View,
)
from harness.seeding import deal_rng

__all__ = ["Klaverjassen", "KlaverjassenState", "KlaverjassenView"]

# -- tables -----------------------------------------------------------------

PLAY, PASS = "play", "pass"
_BID, _PLAYING, _OVER = 0, 1, 2
_CARDS = PIQUET.cards
_INDEX = PIQUET.index
_SUIT_MASK = PIQUET.suit_masks
_FULL = PIQUET.full
#: ``_BEATS[trump][b]``: the cards that take the trick from best card ``b``.
_BEATS = tuple(beats_table(PIQUET, PLAIN_ORDER, TRUMP_ORDER, t) for t in range(4))
#: ``_POINTS[trump][c]``: the card points of card ``c``.
_POINTS = tuple(points_table(PIQUET, PLAIN_POINTS, TRUMP_POINTS, t) for t in range(4))
#: ``_BYTE_NAMES[s][b]``: the names of the cards of suit ``s`` whose bits are ``b``.
_BYTE_NAMES = tuple(
    tuple(tuple(_CARDS[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256))
    for s in range(4)
)
_N0, _N1, _N2, _N3 = _BYTE_NAMES
_BID_ACTIONS = (PLAY, PASS)
#: ``_SEAT_CARD[seat][card]``: the 1-tuple ``((seat, name),)`` added to a trick view.
_SEAT_CARD = tuple(tuple(((s, _CARDS[c]),) for c in range(32)) for s in range(4))
_HIDDEN = tuple(
    frozenset(f"hand:{s}" for s in range(4) if s != seat) for seat in range(4)
)
#: The steps of ``random.Random.shuffle`` on the 32 cards, ``(i, i + 1, bits)``
#: for ``i`` from 31 down to 1 (``bits`` is ``(i + 1).bit_length()``), grouped by
#: the seat that gets position ``i``: seat 3 (31..24) first, seat 0 (7..1) last.
#: See :func:`_deal_hands`.
_SHUFFLE_STEPS = tuple(
    tuple(
        (i, i + 1, (i + 1).bit_length()) for i in range(8 * s + 7, 8 * s - 1, -1) if i
    )
    for s in (3, 2, 1, 0)
)


def _randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for a plain ``random.Random``, drawing the same bits.

    This is CPython's ``Random._randbelow_with_getrandbits`` (what
    ``randrange`` and ``shuffle`` use): ``n.bit_length()`` random bits, drawn
    again until they are below ``n``. Written out here to save the calls
    around it; ``test_deal_draws_like_random_shuffle`` checks it stays equal.
    """
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _deal_hands(rng: random.Random) -> list[CardMask]:
    """The four hands of ``PIQUET.shuffled(rng)`` dealt 8 by 8, as masks.

    Draws exactly what ``rng.shuffle(list(range(32)))`` draws, in the same
    order, so every deal is the one ``PIQUET.shuffled`` would give; but it is
    about twice as fast, which matters because a deal is shuffled every 34
    decisions. The loop is ``Random.shuffle`` with ``_randbelow`` inlined
    (see :func:`_randbelow`). Fisher-Yates fixes position ``i`` for good at
    step ``i`` (later steps only touch lower positions), so the card that
    lands there goes straight into the hand of seat ``i // 8`` and position
    ``i`` itself need not be written. What is left at position 0 is seat 0's.
    """
    getrandbits = rng.getrandbits
    order = list(range(32))
    hands = []
    for steps in _SHUFFLE_STEPS:
        hand = 0
        for i, n, k in steps:
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            hand |= 1 << order[j]
            order[j] = order[i]
        hands.append(hand)
    hands[3] |= 1 << order[0]
    hands.reverse()
    return hands


def _names(mask: CardMask) -> tuple[str, ...]:
    """The card names of ``mask`` in index order (suits C D H S, 7 up to A)."""
    return (
        _N0[mask & 255] + _N1[mask >> 8 & 255] + _N2[mask >> 16 & 255] + _N3[mask >> 24]
    )


# -- the view ---------------------------------------------------------------


@dataclass(frozen=True)
class KlaverjassenView(View):
    """What one seat knows: perfect recall of this deal, scores of earlier ones (R13).

    Suits are letters ``C D H S``; cards are rank+suit (``"JC"``, ``"TH"``).
    """

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; voorhand, who bids first and leads, is the next seat.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: This seat's cards, in deck order (C D H S, 7 up to A).
    hand: tuple[str, ...]
    #: The suits turned up this deal, in order: one, or two when all passed; empty
    #: when clubs is trump by the first-deal rule (R3).
    turned: tuple[str, ...]
    #: The trump suit, or ``None`` while bidding.
    trump: str | None
    #: This deal's bids in order: ``(seat, "play" | "pass")``.
    bids: tuple[tuple[int, str], ...]
    #: The seat whose side plays (took the contract), or ``None`` while bidding.
    player: int | None
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks: ``(leader, cards in play order, winner,
    #: points, roem)``; points include the 10 for the last trick.
    tricks: tuple[tuple[int, tuple[str, ...], int, int, int], ...]
    #: Each finished deal's rounded points: ``(team 0, team 1)``.
    deal_scores: tuple[tuple[int, int], ...]
    #: The match totals: ``(team 0, team 1)``.
    scores: tuple[int, int]


_new_view = object.__new__
# The fast construction in KlaverjassenState.view names every field itself.
if tuple(f.name for f in fields(KlaverjassenView)) != (
    "seat",
    "legal_actions",
    "deal",
    "dealer",
    "to_act",
    "hand",
    "turned",
    "trump",
    "bids",
    "player",
    "trick",
    "tricks",
    "deal_scores",
    "scores",
):  # pragma: no cover - fails at import if View or KlaverjassenView gains a field
    raise RuntimeError("KlaverjassenView's fields changed; update view()")


# -- the state --------------------------------------------------------------


class KlaverjassenState(State):
    """The referee's truth of one klaverjassen match (see the module docstring)."""

    game: Klaverjassen

    def __init__(self, game: Klaverjassen, seed: int) -> None:
        self._blank(game, seed)
        self._start_deal()

    def _blank(self, game: Klaverjassen, seed: int) -> None:
        """Set every attribute to the start of a match, before deal 0 is dealt."""
        self.game = game
        self.n_seats = 4
        self.seed = seed
        self._target: int = game.options["target"]
        self._clubs_first: bool = game.options["clubs_first"]
        self.deal = 0
        self.dealer = 3
        self.to_act: int | None = 0
        self._phase = _BID
        #: Cards in each seat's hand.
        self.hands: list[CardMask] = [0, 0, 0, 0]
        self.trump = -1
        self.player = -1
        self._suits = (0, 1)  # first and second suit to turn (R2)
        self._turned: tuple[str, ...] = ()
        self._bids: tuple[tuple[int, str], ...] = ()
        # The trick on the table: card indices in play order, the same as the
        # view shows it, its leader, the seat of its best card so far, and the
        # cards that would beat that card (``_BEATS[trump][best]``; it is all
        # that legal moves and the next winner need to know of the best card).
        self._trick: list[int] = []
        self._trick_view: tuple[tuple[int, str], ...] = ()
        self._leader = 0
        self._winner = 0
        self._top: CardMask = 0
        #: This deal's finished tricks, as the view shows them; the team
        #: tallies of the deal are summed from them at its end.
        self._tricks: tuple[tuple[int, tuple[str, ...], int, int, int], ...] = ()
        self._deal_scores: tuple[tuple[int, int], ...] = ()
        self._totals = (0, 0)
        #: How each deal this State played was scored (a sampled state has none).
        self.history: list[DealSummary] = []
        # The legal actions of the seat to act, computed when first asked for
        # and dropped by every action; while cards are played, also their mask
        # (else -1, a mask no hand has).
        self._legal: tuple[str, ...] | None = None
        self._legal_mask: CardMask = -1
        #: The view's fields that change only with a bid or a deal (see view()).
        self._public: dict[str, object] = {}

    def _start_deal(self) -> None:
        """Shuffle and deal deal ``self.deal``, turn a suit, open the bidding."""
        k = self.deal
        rng = deal_rng(self.seed, k)
        self.hands = _deal_hands(rng)
        getrandbits = rng.getrandbits
        first = _randbelow(getrandbits, 4)  # rng.randrange(4)
        second = (first + 1 + _randbelow(getrandbits, 3)) % 4  # rng.randrange(3)
        self._suits = (first, second)
        self.dealer = (3 + k) % 4
        voorhand = k % 4
        self.to_act = voorhand
        self._bids = ()
        self._trick = []
        self._trick_view = ()
        self._tricks = ()
        self._legal = None
        if k == 0 and self._clubs_first:
            # R3: the first deal is played in clubs by voorhand, nothing turned.
            self._turned = ()
            self.trump = 0
            self.player = voorhand
            self._phase = _PLAYING
        else:
            self._turned = (SUITS[first],)
            self.trump = -1
            self.player = -1
            self._phase = _BID
        self._publish()

    # -- the contract ------------------------------------------------------

    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions of the seat to act: ``("play", "pass")`` or cards in
        deck order; ``()`` when the match is over. Cached until the next action."""
        legal = self._legal
        if legal is not None:
            return legal
        if self._phase != _PLAYING:
            self._legal_mask = -1
            legal = self._legal = _BID_ACTIONS if self._phase == _BID else ()
            return legal
        # R5, as games.tricks.legal_plays with Rotterdam's duties (follow suit,
        # else trump; always over-trump if possible, else under-trump), written
        # out because it runs at every card played;
        # test_legal_moves_are_legal_plays holds the two equal. Unless the
        # hand leads or may play anything, the legal cards are of one suit and
        # their names are one look-up.
        hand = self.hands[self.to_act]  # type: ignore[index]
        trick = self._trick
        if trick:
            suit = trick[0] >> 3
            mask = hand & _SUIT_MASK[suit]
            if mask:
                if suit == self.trump:  # trump led: over-trump if possible
                    mask = (mask & self._top) or mask
            else:
                suit = self.trump
                mask = hand & _SUIT_MASK[suit]
                # _top holds every trump while no trump is in the trick.
                mask = (mask & self._top) or mask
            if mask:
                self._legal_mask = mask
                legal = self._legal = _BYTE_NAMES[suit][mask >> 8 * suit]
                return legal
        # Leading, or void in the suit led and in trumps: any card.
        self._legal_mask = hand
        legal = self._legal = _names(hand)
        return legal

    def apply(self, action: str) -> None:
        """Play ``action`` (a bid or a card) for the seat to act."""
        if self._phase != _PLAYING:
            self._apply_bid(action)
            return
        card = _INDEX.get(action)
        if card is None:
            self._bad_action(action)
        if self._legal is None:
            self.legal_actions()  # computes _legal_mask
        if not self._legal_mask >> card & 1:
            raise IllegalActionError(
                f"seat {self.to_act} may not play {action!r} now; legal: "
                f"{', '.join(self.legal_actions())}"
            )
        # Play the card (written here rather than in a method of its own: a
        # call costs as much as a few of these lines).
        seat: int = self.to_act  # type: ignore[assignment]
        self.hands[seat] ^= 1 << card
        trick = self._trick
        trick.append(card)
        self._trick_view += _SEAT_CARD[seat][card]
        self._legal = None
        n = len(trick)
        if n == 1:
            self._leader = self._winner = seat
            self._top = _BEATS[self.trump][card]
        elif self._top >> card & 1:
            self._winner = seat
            self._top = _BEATS[self.trump][card]
        if n < 4:
            self.to_act = (seat + 1) & 3
        else:
            self._finish_trick()

    def _apply_bid(self, action: str) -> None:
        if self._phase == _BID:
            if action == PLAY or action == PASS:
                self._bid(action)
            else:
                self._bad_action(action)
        else:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")

    def _bad_action(self, action: str) -> NoReturn:
        if not isinstance(action, str):
            raise InvalidActionError(f"an action is a string, not {action!r}")
        legal = ", ".join(self.legal_actions())
        if action in _INDEX or action in _BID_ACTIONS:
            raise IllegalActionError(
                f"seat {self.to_act} may not {action!r} now; legal: {legal}"
            )
        raise InvalidActionError(
            f"{action!r} is not a klaverjassen action: a bid ('play', 'pass') or a "
            f"card such as 'JC' or 'TH'"
        )

    def _bid(self, action: str) -> None:
        seat = self.to_act
        assert seat is not None
        self._bids += ((seat, action),)
        self._legal = None
        voorhand = self.deal % 4
        if action == PLAY:
            # R1: the first "play" ends the bidding.
            self._begin_play(seat, self._suits[0])
        elif len(self._bids) == 4:
            # R2: all passed; a second suit is turned and voorhand must play it.
            self._turned += (SUITS[self._suits[1]],)
            self._begin_play(voorhand, self._suits[1])
        else:
            self.to_act = (seat + 1) % 4
        self._publish()

    def _begin_play(self, player: int, trump: int) -> None:
        self.player = player
        self.trump = trump
        self._phase = _PLAYING
        self.to_act = self.deal % 4  # voorhand leads the first trick (seed line 102)

    def _finish_trick(self) -> None:
        trick, trump, winner = self._trick, self.trump, self._winner
        points_of = _POINTS[trump]
        a, b, c, d = trick
        points = points_of[a] + points_of[b] + points_of[c] + points_of[d]
        tricks = self._tricks
        last = len(tricks) == 7
        if last:
            points += LAST_TRICK
        # R7: roem is claimed for the trick's winner automatically.
        roem = trick_roem(1 << a | 1 << b | 1 << c | 1 << d, trump)
        cards = (_CARDS[a], _CARDS[b], _CARDS[c], _CARDS[d])
        self._tricks = (*tricks, (self._leader, cards, winner, points, roem))
        self._trick = []
        self._trick_view = ()
        if last:
            self._finish_deal()
        else:
            self.to_act = winner

    def _tallies(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """This deal's card points, roem and tricks won so far, per team."""
        points, roem, count = [0, 0], [0, 0], [0, 0]
        for _, _, winner, pts, rm in self._tricks:
            team = winner & 1
            points[team] += pts
            roem[team] += rm
            count[team] += 1
        return (points[0], points[1]), (roem[0], roem[1]), (count[0], count[1])

    def _finish_deal(self) -> None:
        playing_team = self.player & 1
        points, roem, tricks_won = self._tallies()
        made, pit_team, raw, scores = deal_score(playing_team, points, roem, tricks_won)
        self.history.append(
            DealSummary(
                self.deal,
                self.trump,
                playing_team,
                points,
                roem,
                made,
                pit_team,
                raw,
                scores,
                self._tricks,
            )
        )
        self._deal_scores += (scores,)
        totals = (self._totals[0] + scores[0], self._totals[1] + scores[1])
        self._totals = totals
        if max(totals) >= self._target:
            # R11: the match ends after the deal in which a team reaches the target.
            self._phase = _OVER
            self.to_act = None
            self._publish()
        else:
            self.deal += 1
            self._start_deal()

    def is_over(self) -> bool:
        """True when a team has reached the target (R11)."""
        return self._phase == _OVER

    def result(self) -> Result:
        """Team totals per seat; ``deal_points[k]`` is each seat's team's deal k."""
        a, b = self._totals
        return Result.from_scores(
            (a, b, a, b),
            (0, 1, 0, 1),
            [(x, y, x, y) for x, y in self._deal_scores],
        )

    def _publish(self) -> None:
        """Fill :attr:`_public`: the view's fields that change only with a bid
        or a deal. Called whenever one of them changes."""
        trump = self.trump
        player = self.player
        # Every field, in the dataclass's order, so that a view's __dict__ is
        # ordered as its __init__ would order it; view() fills in the others.
        self._public = {
            "seat": 0,
            "legal_actions": (),
            "deal": self.deal,
            "dealer": self.dealer,
            "to_act": None,
            "hand": (),
            "turned": self._turned,
            "trump": None if trump < 0 else SUITS[trump],
            "bids": self._bids,
            "player": None if player < 0 else player,
            "trick": (),
            "tricks": (),
            "deal_scores": self._deal_scores,
            "scores": self._totals,
        }

    def view(self, seat: int) -> KlaverjassenView:
        """What ``seat`` knows now (R13).

        Built without the dataclass ``__init__``: a frozen dataclass sets its 14
        fields one ``object.__setattr__`` at a time (about 1.5 µs), while filling
        the new instance's own dict costs a fifth of that; the view is a
        decision's main cost after the rules. The dict gets the fields that
        change only with a bid or a deal (:attr:`_public`, kept in field order)
        and then those that change with every card. (Filling ``view.__dict__``
        beats building a dict and assigning it: the instance dict shares its
        keys with every other view.) The result is an ordinary frozen instance.
        """
        hand = self.hands[seat]
        to_act = self.to_act
        if seat == to_act:
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            # When the seat may play any card, the names are those of its hand.
            if hand == self._legal_mask:
                names = legal
            else:  # _names(hand), written out to save a call
                names = (
                    _N0[hand & 255]
                    + _N1[hand >> 8 & 255]
                    + _N2[hand >> 16 & 255]
                    + _N3[hand >> 24]
                )
        else:
            legal = ()
            names = _names(hand)
        view = _new_view(KlaverjassenView)
        fields = view.__dict__
        fields.update(self._public)
        fields["seat"] = seat
        fields["legal_actions"] = legal
        fields["to_act"] = to_act
        fields["hand"] = names
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        return view

    def clone(self) -> KlaverjassenState:
        """An independent copy (the mutable lists copied, the rest shared)."""
        twin = object.__new__(KlaverjassenState)
        twin.__dict__.update(self.__dict__)
        twin.hands = self.hands[:]
        twin._trick = self._trick[:]
        twin.history = self.history[:]
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Every card by place: ``hand:0..3``, ``trick`` (play order), ``won:0..1``."""
        hands = self.hands
        won = [0, 0]
        for _, cards, winner, _, _ in self._tricks:
            won[winner & 1] |= PIQUET.mask(cards)
        return {
            "hand:0": _names(hands[0]),
            "hand:1": _names(hands[1]),
            "hand:2": _names(hands[2]),
            "hand:3": _names(hands[3]),
            "trick": tuple(_CARDS[c] for c in self._trick),
            "won:0": _names(won[0]),
            "won:1": _names(won[1]),
        }

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other three hands; tricks on the table and won are open (R13)."""
        return _HIDDEN[seat]

    def deck(self) -> tuple[str, ...]:
        """The 32 cards of the piquet pack."""
        return _CARDS

    # -- for people ----------------------------------------------------------

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened: bids, cards, tricks, deals."""
        seat, deal, phase = self.to_act, self.deal, self._phase
        n_tricks, n_deals = len(self._tricks), len(self._deal_scores)
        turned = self._turned
        self.apply(action)
        lines: list[str] = []
        if phase == _BID:
            suit = turned[0]
            if action == PLAY:
                lines.append(
                    f"seat {seat} plays on {suit}: team {self.player % 2} plays"
                )
            else:
                lines.append(f"seat {seat} passes on {suit}")
                if self._phase == _PLAYING:
                    lines.append(
                        f"all pass; second suit turned: {self._turned[1]}; seat "
                        f"{self.player} (voorhand) must play it"
                    )
            return lines
        lines.append(f"seat {seat} plays {action}")
        if len(self._deal_scores) > n_deals:
            summary = self.history[-1]
            lines.append(_trick_line(summary.tricks[-1], 8, summary.trump))
            lines += _deal_lines(summary, self._totals)
            if self.is_over():
                lines.append(_match_line(self._totals))
            else:
                lines += self._opening_lines()
        elif len(self._tricks) > n_tricks and self.deal == deal:
            lines.append(_trick_line(self._tricks[-1], n_tricks + 1, self.trump))
        return lines

    def _opening_lines(self) -> list[str]:
        """Lines that open the current deal (for narration)."""
        head = (
            f"deal {self.deal}: dealer seat {self.dealer}, "
            f"voorhand seat {self.deal % 4}"
        )
        if self._phase == _PLAYING:
            return [head, f"clubs is trump without turning; seat {self.player} plays"]
        return [head, f"turned: {self._turned[0]}"]

    # -- construction for tests and sampling ----------------------------------

    @classmethod
    def from_hands(
        cls,
        game: Klaverjassen,
        hands: Sequence[str],
        *,
        trump: str,
        player: int | None = None,
        deal: int = 1,
        seed: int = 0,
        totals: tuple[int, int] = (0, 0),
    ) -> KlaverjassenState:
        """A state at the first card of deal ``deal`` with the given hands.

        For tests and worked examples. ``hands`` are four strings of eight
        space-separated cards (seat 0 first) that together hold the pack once.
        ``trump`` counts as turned and accepted by ``player`` (default:
        voorhand, seat ``deal % 4``), who leads. Later deals are dealt from
        ``seed`` as usual.
        """
        masks = [PIQUET.mask(h.split()) for h in hands]
        if (
            len(masks) != 4
            or any(m.bit_count() != 8 for m in masks)
            or (masks[0] | masks[1] | masks[2] | masks[3]) != _FULL
        ):
            raise ValueError(
                f"need four hands of 8 cards holding the pack once: {hands!r}"
            )
        state = object.__new__(cls)
        state._blank(game, seed)
        state.deal = deal
        state.dealer = (3 + deal) % 4
        state.hands = masks
        suit = SUITS.index(trump)
        state._suits = (suit, (suit + 1) % 4)
        state._turned = (trump,)
        state._totals = totals
        state._begin_play(deal % 4 if player is None else player, suit)
        state._publish()
        return state


def _trick_line(
    trick: tuple[int, tuple[str, ...], int, int, int], number: int, trump: int
) -> str:
    _, cards, winner, points, roem = trick
    line = f"trick {number} to seat {winner} (team {winner % 2}): {points} points"
    if roem:
        parts = roem_parts(PIQUET.mask(cards), trump)
        line += f", roem {roem} ({' + '.join(name for name, _ in parts)})"
    return line


def _deal_lines(summary: DealSummary, totals: tuple[int, int]) -> list[str]:
    p, d = summary.playing_team, 1 - summary.playing_team
    pts, roem = summary.points, summary.roem
    line = (
        f"deal {summary.deal} ({SUITS[summary.trump]} trump, team {p} plays): "
        f"team {p} {pts[p]} + roem {roem[p]}, team {d} {pts[d]} + roem {roem[d]}: "
    )
    if summary.made:
        line += "made"
    else:
        pit = PIT_BONUS if summary.pit_team == d else 0
        line += f"nat, team {d} gets all {summary.raw[d] - pit}"
    if summary.pit_team is not None:
        line += f"; pit, +{PIT_BONUS} to team {summary.pit_team}"
    s = summary.scores
    return [line, f"deal scores {s[0]}-{s[1]}; match {totals[0]}-{totals[1]}"]


def _match_line(totals: tuple[int, int]) -> str:
    if totals[0] == totals[1]:
        return f"match over: a draw at {totals[0]}-{totals[1]}"
    best = 0 if totals[0] > totals[1] else 1
    return f"match over: team {best} wins {totals[0]}-{totals[1]}"


# -- the game ---------------------------------------------------------------


class Klaverjassen(Game):
    """Klaverjassen, Rotterdam style: turned trump, must over- and under-trump."""

    name = "klaverjassen"
    title = "Klaverjassen (4 players, fixed partnerships)"
    seat_counts = frozenset({4})
    partnerships = True
    check_options = {"target": 300}  # noqa: RUF012 - short: 2-3 deals
    option_specs = (
        Option(
            "variant",
            "standard",
            doc=(
                "rule set; 'standard' is Rotterdam with a turned trump. Reserved for "
                "the text's variants: utrechts, leids, voorhand-vrij, amsterdams, "
                "kraken, schoppen-dubbel (not implemented yet)"
            ),
            choices=("standard",),
        ),
        Option(
            "target",
            1500,
            doc="the match ends after the deal in which a team reaches this total",
            minimum=1,
        ),
        Option(
            "clubs_first",
            True,
            doc="in the first deal clubs is trump without turning; voorhand plays",
        ),
    )

    def new_match(self, n_seats: int, seed: int) -> KlaverjassenState:
        """The first deal of a match of four, dealt from ``seed``."""
        self.check_seats(n_seats)
        return KlaverjassenState(self, seed)

    def sample_state(self, view: View, rng: random.Random) -> KlaverjassenState:
        """A full State consistent with ``view`` (R14).

        The cards ``view.seat`` has not seen are dealt at random to the other
        hands, with each hand's size and the voids its play revealed (not
        following suit, not trumping, not over-trumping). Hidden facts beyond
        the cards (the second suit to turn, later deals) are drawn from ``rng``.
        """
        if not isinstance(view, KlaverjassenView):
            raise TypeError(
                f"klaverjassen samples from a KlaverjassenView, not {view!r}"
            )
        return _sample(self, view, rng)


def _sample(
    game: Klaverjassen, view: KlaverjassenView, rng: random.Random
) -> KlaverjassenState:
    state = object.__new__(KlaverjassenState)
    state._blank(game, rng.getrandbits(64))
    state.deal = view.deal
    state.dealer = view.dealer
    state.to_act = view.to_act
    trump = -1 if view.trump is None else SUITS.index(view.trump)
    state.trump = trump
    state.player = -1 if view.player is None else view.player
    state._turned = view.turned
    first = SUITS.index(view.turned[0]) if view.turned else rng.randrange(4)
    if len(view.turned) == 2:
        second = SUITS.index(view.turned[1])
    else:
        second = (first + 1 + rng.randrange(3)) % 4
    state._suits = (first, second)
    state._bids = view.bids
    state._phase = _OVER if view.to_act is None else _BID if trump < 0 else _PLAYING
    state._deal_scores = view.deal_scores
    state._totals = view.scores

    # Replay the public tricks: cards seen, and what each seat lacks (R14).
    forbidden = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    seen = 0
    for leader, cards, _, _, _ in view.tricks:
        idx = [_INDEX[c] for c in cards]
        revealed_voids(leader, idx, PIQUET, _BEATS[trump], trump, forbidden)
        for i in range(4):
            played[(leader + i) % 4] += 1
        seen |= sum(1 << c for c in idx)
    trick = [_INDEX[c] for _, c in view.trick]
    if trick:
        leader = view.trick[0][0]
        best = revealed_voids(leader, trick, PIQUET, _BEATS[trump], trump, forbidden)
        for i in range(len(trick)):
            played[(leader + i) % 4] += 1
        state._leader = leader
        state._winner = (leader + best) % 4
        state._top = _BEATS[trump][trick[best]]
    state._trick = trick
    state._trick_view = view.trick
    state._tricks = view.tricks

    me = view.seat
    own = PIQUET.mask(view.hand)
    seen |= own | sum(1 << c for c in trick)
    hands = [0, 0, 0, 0]
    hands[me] = own
    if state._phase != _OVER:
        others = [s for s in range(4) if s != me]
        need = [8 - played[s] for s in others]
        unseen = list(iter_bits(_FULL & ~seen))
        for j, mask in enumerate(
            deal_constrained(unseen, [forbidden[s] for s in others], need, rng)
        ):
            hands[others[j]] = mask
    state.hands = hands
    state._publish()
    return state
