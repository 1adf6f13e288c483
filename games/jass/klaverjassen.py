"""Klaverjassen (Rotterdam rules): four players in two fixed partnerships.

The standard game's state, view and sampler; the Game class, whose ``variant``
option picks this state or a variant's, is
:class:`games.jass.variants.Klaverjassen`.

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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, NoReturn, Self

from games.cards import PIQUET, SUITS, CardMask, iter_bits
from games.jass.klaverjassen_view import KlaverjassenView
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
from games.sampling import ConstrainedDealer
from games.tricks import ROTTERDAM, Duties, TrickRecord, TrickRules, TrickState
from harness import (
    IllegalActionError,
    Result,
    Sampler,
)
from harness.contracts.compiling import mypyc_attr
from harness.contracts.game import reject_action
from harness.contracts.seeding import deal_rng
from harness.contracts.view import new_view, pin_fields
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from games.jass.variants import Klaverjassen

__all__ = ["KlaverjassenSampler", "KlaverjassenState", "KlaverjassenView"]

# -- tables -----------------------------------------------------------------

PLAY, PASS = "play", "pass"
#: The values of the ``variant`` option (seed 004 lines 126-132; R16).
VARIANTS = (
    "standard",
    "utrechts",
    "leids",
    "voorhand-vrij",
    "amsterdams",
    "kraken",
    "schoppen-dubbel",
)
#: How the cards rank and score in tricks (seed lines 104-105).
RULES = TrickRules(
    PIQUET,
    plain_order=PLAIN_ORDER,
    trump_order=TRUMP_ORDER,
    plain_points=PLAIN_POINTS,
    trump_points=TRUMP_POINTS,
    last_trick=LAST_TRICK,
)
#: The trick tables with each suit as trump.
_TABLES = tuple(RULES.tables(t) for t in range(4))
#: The same, for bots and tests: ``TRUMP_TABLES[suit]`` ranks and scores the
#: cards with that suit trump.
TRUMP_TABLES = _TABLES
_CARDS = PIQUET.cards
_INDEX = PIQUET.index
_FULL = PIQUET.full
_NAMES = PIQUET.names
_N0, _N1, _N2, _N3 = PIQUET.name_chunks
_BID_ACTIONS = (PLAY, PASS)
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


# -- the view ---------------------------------------------------------------


#: The fields view() fills, in order: a changed KlaverjassenView fails at import.
pin_fields(
    KlaverjassenView,
    (
        "seat legal_actions deal dealer to_act hand turned trump bids player "
        "trick tricks deal_scores scores"
    ),
)


# -- the state --------------------------------------------------------------


# Native in a compiled build; the variants (games/jass/variants.py) subclass it
# in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class KlaverjassenState(TrickState):
    """The referee's truth of one klaverjassen match (see the module docstring).

    The card play is :class:`~games.tricks.TrickState`'s; this class deals,
    bids, claims roem and scores.
    """

    #: The class of this state's views (the variants' views say more).
    _view_class: ClassVar[type[KlaverjassenView]] = KlaverjassenView
    #: The trumping duties (R5; the Amsterdam variant sets its own in _blank).
    _duty_rules: Duties

    def __init__(self, game: Klaverjassen, seed: int) -> None:
        self._blank(game, seed)
        self._start_deal()

    def _blank(self, game: Klaverjassen, seed: int) -> None:
        """Set every attribute to the start of a match, before deal 0 is dealt."""
        self.game = game
        self.n_seats = 4
        self.seed = seed
        self._duty_rules = ROTTERDAM
        self._target: int = game.options["target"]
        self._clubs_first: bool = game.options["clubs_first"]
        self.deal = 0
        self.dealer = 3
        self.to_act: int | None = 0
        self._use_rules(RULES, 4)
        self._over = False
        self.trump = -1
        self.player = -1
        self._suits = (0, 1)  # first and second suit to turn (R2)
        self._turned: tuple[str, ...] = ()
        self._bids: tuple[tuple[int, str], ...] = ()
        self._deal_scores: tuple[tuple[int, int], ...] = ()
        self._totals = (0, 0)
        #: How each deal this State played was scored (a sampled state has none).
        self.history: list[DealSummary] = []
        #: The view's fields that change only with a bid or a deal (see view()).
        self._public: dict[str, object] = {}

    def _start_deal(self) -> None:
        """Shuffle and deal deal ``self.deal``, turn a suit, open the bidding."""
        k = self.deal
        rng = deal_rng(self.seed, k)
        self._reset_tricks(4)
        self.hands = _deal_hands(rng)
        getrandbits = rng.getrandbits
        first = _randbelow(getrandbits, 4)  # rng.randrange(4)
        second = (first + 1 + _randbelow(getrandbits, 3)) % 4  # rng.randrange(3)
        self._suits = (first, second)
        self.dealer = (3 + k) % 4
        voorhand = k % 4
        self.to_act = voorhand
        self._bids = ()
        if k == 0 and self._clubs_first:
            # R3: the first deal is played in clubs by voorhand, nothing turned.
            self._turned = ()
            self._begin_play(voorhand, 0)
        else:
            self._turned = (SUITS[first],)
            self.trump = -1
            self.player = -1
        self._publish()

    # -- bidding (the engine plays the cards) ----------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        return () if self._over else _BID_ACTIONS

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if action == PLAY or action == PASS:
            self._bid(action)
        else:
            self._bad_action(action)

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in _INDEX or a in _BID_ACTIONS,
            "a klaverjassen action: a bid ('play', 'pass') or a card such as "
            "'JC' or 'TH'",
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
        # R5: Rotterdam's duties; voorhand leads the first trick (seed line 102).
        self._begin_tricks(_TABLES[trump], self._duty_rules, self.deal % 4)

    def _trick_complete(self) -> None:
        a, b, c, d = self._trick
        # R7: roem is claimed for the trick's winner automatically.
        self._close_trick(trick_roem(1 << a | 1 << b | 1 << c | 1 << d, self.trump))
        if self.hands[0]:
            self.to_act = self._winner
        else:
            self._finish_deal()

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
        made, pit_team, raw, scores = self._score(
            playing_team, points, roem, tricks_won
        )
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
            self._end_match()
            self._publish()
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    def _score(
        self,
        playing_team: int,
        points: tuple[int, int],
        roem: tuple[int, int],
        tricks_won: tuple[int, int],
    ) -> tuple[bool, int | None, tuple[int, int], tuple[int, int]]:
        """Score the deal (R8-R10); the variants add a contract or a factor."""
        return deal_score(playing_team, points, roem, tricks_won)

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
            else:  # _NAMES(hand), written out to save a call
                names = (
                    _N0[hand & 255]
                    + _N1[hand >> 8 & 255]
                    + _N2[hand >> 16 & 255]
                    + _N3[hand >> 24]
                )
        else:
            legal = ()
            names = _NAMES(hand)
        view = new_view(self._view_class)
        fields = view.__dict__
        fields.update(self._public)
        fields["seat"] = seat
        fields["legal_actions"] = legal
        fields["to_act"] = to_act
        fields["hand"] = names
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        return view

    def _restore_public(self, view: KlaverjassenView) -> list[CardMask]:
        """Set what a variant adds to the view (for sampling); return the cards
        the view shows in each seat's hand (none in the standard game)."""
        return [0, 0, 0, 0]

    def clone(self) -> KlaverjassenState:
        """An independent copy (the mutable lists copied, the rest shared)."""
        twin = super().clone()
        twin.history = self.history[:]
        return twin

    def _copy_fields(self, twin: Self) -> None:
        super()._copy_fields(twin)
        twin.seed = self.seed
        twin._duty_rules = self._duty_rules
        twin._target = self._target
        twin._clubs_first = self._clubs_first
        twin.dealer = self.dealer
        twin.trump = self.trump
        twin.player = self.player
        twin._suits = self._suits
        twin._turned = self._turned
        twin._bids = self._bids
        twin._deal_scores = self._deal_scores
        twin._totals = self._totals
        twin.history = self.history
        twin._public = self._public

    def deck(self) -> tuple[str, ...]:
        """The 32 cards of the piquet pack."""
        return _CARDS

    # -- for people ----------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Deal 0 told as every later deal: dealer, voorhand, the turned suit
        (or clubs, trump without turning under ``clubs_first``)."""
        return self._opening_lines()

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened: bids, cards, tricks, deals."""
        seat, deal, bidding = self.to_act, self.deal, not self._playing
        n_tricks, n_deals = len(self._tricks), len(self._deal_scores)
        turned = self._turned
        self.apply(action)
        lines: list[str] = []
        if bidding:
            suit = turned[0]
            if action == PLAY:
                lines.append(
                    f"seat {seat} takes {suit}: team {self.player % 2} makes it"
                )
            else:
                lines.append(f"seat {seat} passes on {suit}")
                if self._playing:
                    lines.append(
                        f"all pass; second suit turned: {self._turned[1]}; seat "
                        f"{self.player} (voorhand) must take it"
                    )
            return lines
        lines.append(f"seat {seat} plays {action}")
        if len(self._deal_scores) > n_deals:
            summary = self.history[-1]
            lines.append(_trick_line(summary.tricks[-1], 8, summary.trump))
            lines += _deal_lines(summary, self._totals)
            if self.is_over():
                lines.append(match_over_line(self.result()))
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
        if self._playing:  # clubs_first: deal 0 is played in clubs, unturned
            return [
                f"{head}; C is trump without turning: seat {self.player} "
                f"(team {self.player % 2}) makes it"
            ]
        return [f"{head}; turned: {self._turned[0]}"]

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
        PIQUET.check_deal(hands)
        masks = [PIQUET.mask(h.split()) for h in hands]
        if (
            len(masks) != 4
            or any(m.bit_count() != 8 for m in masks)
            or (masks[0] | masks[1] | masks[2] | masks[3]) != _FULL
        ):
            raise ValueError(
                f"need four hands of 8 cards holding the pack once: {hands!r}"
            )
        state = cls.__new__(cls)  # object.__new__ refuses a native class
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


def _trick_line(trick: TrickRecord, number: int, trump: int) -> str:
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
        f"deal {summary.deal} ({SUITS[summary.trump]} trump, team {p} makers): "
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


# -- the game ---------------------------------------------------------------


class KlaverjassenSampler(Sampler):
    """Full States consistent with one seat's view (R14).

    The view is read once: a template State holds everything public (bids,
    trump, tricks, scores) and the seat's own hand; the public tricks give each
    other seat's hand size and the cards its play proves it lacks (not
    following suit, not trumping, not over-trumping). Each sample clones the
    template and deals the unseen cards uniformly over the consistent deals
    (:class:`games.sampling.ConstrainedDealer`); hidden facts beyond the cards
    (the seed of later deals, a suit not yet turned) are drawn from ``rng``.
    """

    def __init__(self, game: Klaverjassen, view: KlaverjassenView) -> None:
        cls = game.state_class
        state = cls.__new__(cls)  # object.__new__ refuses a native class
        state._blank(game, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state.to_act = view.to_act
        trump = -1 if view.trump is None else SUITS.index(view.trump)
        state.trump = trump
        state.player = -1 if view.player is None else view.player
        state._turned = view.turned
        state._bids = view.bids
        state._over = view.to_act is None
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        tables = _TABLES[trump] if trump >= 0 else RULES.tables()
        public = state._restore_tricks(
            tables, state._duty_rules, view.tricks, view.trick
        )
        state._playing = trump >= 0 and not state._over
        known = state._restore_public(view)
        me = view.seat
        own = PIQUET.mask(view.hand)
        state.hands = [0, 0, 0, 0]
        state.hands[me] = own
        state._publish()
        self._state = state
        #: The suits turned so far, by number (the rest are drawn per sample).
        self._turned = tuple(SUITS.index(s) for s in view.turned)
        self._others = [s for s in range(4) if s != me]
        #: Cards known to be in another seat's hand (declared, not yet played).
        self._known = [known[s] for s in self._others]
        shown = sum(self._known)
        self._dealer: ConstrainedDealer | None = None
        if not state._over:
            self._dealer = ConstrainedDealer(
                list(iter_bits(_FULL & ~(public.seen | own | shown))),
                [public.forbidden[s] for s in self._others],
                [
                    8 - public.played[s] - k.bit_count()
                    for s, k in zip(self._others, self._known, strict=True)
                ],
            )

    def sample(self, rng: random.Random) -> KlaverjassenState:
        """A world: the template with later deals' seed, suits and hands drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        turned = self._turned
        first = turned[0] if turned else rng.randrange(4)
        second = turned[1] if len(turned) == 2 else (first + 1 + rng.randrange(3)) % 4
        state._suits = (first, second)
        if self._dealer is not None:
            hands = state.hands
            dealt = self._dealer.sample(rng)
            for seat, mask, known in zip(self._others, dealt, self._known, strict=True):
                hands[seat] = mask | known
        return state
