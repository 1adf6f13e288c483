"""Gin Rummy (Oklahoma) for two players: the Game, its State and its View.

The rules are the seed text (``seeds/000_f1f8b277f898f51f.txt`` lines
484-551); every point it leaves open is a numbered ruling in ``RULES.md``.

Representation: a hand is a 52-bit :data:`~games.cards.CardMask` over
:data:`~games.cards.FULL52` (aces low); the stock and the discard pile are
lists of card indices, the top at the end. Strings appear only in actions,
views and narration. A match is a sequence of hands (deals); the next hand is
dealt as soon as one ends, until a player reaches the target.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Self, TypeVar

from games.cards import FULL52, CardMask, field_names, iter_bits
from games.rummy import melds
from harness.contracts.errors import IllegalActionError, InvalidActionError
from harness.contracts.game import Action, ActionKind, Aside, Game, Sampler, Seat, State
from harness.contracts.options import Option
from harness.contracts.result import Result
from harness.contracts.seeding import deal_rng
from harness.contracts.view import View
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "GinRummy",
    "GinRummyBeliefSampler",
    "GinRummySampler",
    "GinRummyState",
    "GinRummyView",
    "greedy_action",
]

CARDS = FULL52.cards
SPADES = 3
#: A plain discard after this many draws from the pile in one hand voids the
#: hand (RULES.md ruling 7); no draw is ever refused.
MAX_PILE_DRAWS = 50
#: The hand is void when a discard leaves this many cards in the stock (ruling 6).
STOCK_FLOOR = 2
GIN_BONUS = 20
GROTE_GIN_BONUS = 30
UNDERCUT_BONUS = 10

# Phases of a hand. LAYOUT: the player who went out chooses how to lay down.
OPENING, DRAW, DISCARD, OVER, LAYOUT = range(5)
PHASE_NAMES = ("opening", "draw", "discard", "over", "layout")

# Action kinds.
_STOCK, _PILE, _DISCARD, _KNOCK, _GIN, _GROTE, _LAY = range(7)
DRAW_STOCK = "draw:stock"
DRAW_PILE = "draw:discard"
GROTE_GIN = "gin"
KNOCK_ACTIONS = tuple("knock:" + c for c in CARDS)
GIN_ACTIONS = tuple("gin:" + c for c in CARDS)
#: Every well-formed action -> (kind, card index or -1).
NOTATION: dict[str, tuple[int, int]] = {
    DRAW_STOCK: (_STOCK, -1),
    DRAW_PILE: (_PILE, -1),
    GROTE_GIN: (_GROTE, -1),
    **{c: (_DISCARD, i) for i, c in enumerate(CARDS)},
    **{a: (_KNOCK, i) for i, a in enumerate(KNOCK_ACTIONS)},
    **{a: (_GIN, i) for i, a in enumerate(GIN_ACTIONS)},
}
#: A layout action is ``"lay:"`` and its melds (ruling 8).
LAY = "lay:"
_BOTH_DRAWS = (DRAW_STOCK, DRAW_PILE)
_STOCK_ONLY = (DRAW_STOCK,)


#: ``_ROW_NAMES[suit][row]``: the card strings of a 13-bit row of one suit.
_ROW_NAMES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    field_names(CARDS, suit * 13, 13) for suit in range(4)
)

_C, _D, _H, _S = _ROW_NAMES


def _names(mask: CardMask) -> tuple[str, ...]:
    """The card strings of ``mask`` in deck order (four table look-ups)."""
    return (
        _C[mask & 0x1FFF]
        + _D[mask >> 13 & 0x1FFF]
        + _H[mask >> 26 & 0x1FFF]
        + _S[mask >> 39 & 0x1FFF]
    )


def layout_word(layout: tuple[CardMask, ...]) -> str:
    """The action that lays ``layout`` down (ruling 8).

    A run is written lowest-highest (``5H-8H``), a set card by card
    (``9C9D9S``), melds joined by ``+``: ``lay:5H-8H+9C9D9S``. The cards not
    named are deadwood.
    """
    words = []
    for meld in layout:
        shown = _names(meld)
        if shown[0][1] == shown[1][1]:  # same suit: a run
            words.append(f"{shown[0]}-{shown[-1]}")
        else:
            words.append("".join(shown))
    return LAY + ("+".join(words) or "none")


#: Deadwood counts: whole points as the game scores them, or an estimate's.
Points = TypeVar("Points", int, float)


def hand_points(
    end: str, out_deadwood: Points, defender_deadwood: Points, *, doubled: bool
) -> tuple[Points, Points]:
    """The points of a hand that ended by going out: (out seat's, defender's).

    ``end`` is ``"knock"``, ``"gin"`` or ``"grote-gin"``; the deadwoods are
    after laying down and laying off. Gin scores 20 (grote gin 30, line 551)
    plus the defender's deadwood (line 520); a knock scores the difference to
    the lower deadwood, the undercut adding 10 for the defender (line 522);
    equal deadwood scores nothing (ruling 11); ``doubled`` (the marker card a
    spade, line 526) doubles it all.
    """
    out = defender = out_deadwood * 0
    if end == "knock":
        if out_deadwood < defender_deadwood:
            out = defender_deadwood - out_deadwood
        elif defender_deadwood < out_deadwood:
            defender = UNDERCUT_BONUS + out_deadwood - defender_deadwood
    else:
        bonus = GROTE_GIN_BONUS if end == "grote-gin" else GIN_BONUS
        out = bonus + defender_deadwood
    factor = 2 if doubled else 1
    return factor * out, factor * defender


@dataclass(frozen=True)
class GinRummyView(View):
    """What one seat knows: its hand, the public table and this hand's history.

    Perfect recall within the current hand; earlier hands appear as their
    points, and the last finished hand as what it revealed (RULES.md ruling 15).
    """

    #: ``"standard"`` or ``"grote-gin"``.
    variant: str
    #: Points that end the match.
    target: int
    #: Which card sets the knock limit and the doubling (ruling 17): ``"top"``,
    #: the discard pile's top card when going out (ruling 3), or ``"upcard"``,
    #: the hand's first face-up card for the whole hand.
    knock_card: str
    #: Index of the current hand (deal) from 0.
    hand_index: int
    #: The seat that dealt this hand (the other one got 11 cards).
    dealer: int
    #: The seat to act, or None when the match is over.
    to_act: int | None
    #: ``"opening"``, ``"draw"``, ``"discard"``, ``"layout"`` (the player who
    #: went out chooses how to lay down, ruling 8) or ``"over"``.
    phase: str
    #: This seat's cards, in deck order (suit C D H S, then rank A..K).
    hand: tuple[str, ...]
    #: How many cards the opponent holds.
    opponent_cards: int
    #: Opponent cards known to this seat: taken from the discard pile and not
    #: discarded since.
    opponent_known: tuple[str, ...]
    #: Cards left in the face-down stock.
    stock_size: int
    #: The discard pile, bottom to top.
    discard_pile: tuple[str, ...]
    #: The hand's first face-up card (the opening discard), None before it.
    upcard: str | None
    #: The knock limit for a seat going out now: the value of the top face-up
    #: card of the discard pile (ruling 3; 0 when the pile is empty), or with
    #: ``knock_card="upcard"`` of the upcard (ruling 17; 0 before it).
    knock_limit: int
    #: True when that card is a spade: going out now scores double.
    spades_double: bool
    #: Draws from the discard pile so far this hand (a plain discard after the
    #: 50th voids the hand, ruling 7).
    pile_draws: int
    #: This hand so far: ``"0:discard:7H"``, ``"1:draw:stock"`` (the card only
    #: in the drawer's own view: ``"1:draw:stock:5C"``), ``"1:draw:discard:7H"``.
    history: tuple[str, ...]
    #: Points of every finished hand, ``deal_points[k][seat]``.
    deal_points: tuple[tuple[int, ...], ...]
    #: Match totals per seat.
    scores: tuple[int, ...]
    #: How the last finished hand ended: ``""`` (none yet), ``"knock"``,
    #: ``"gin"``, ``"grote-gin"`` or ``"void"`` (stock ran out).
    last_end: str
    #: The seat that went out in the last hand, or None.
    last_out: int | None
    #: Both hands as laid down at the end of the last hand (empty when void).
    last_hands: tuple[tuple[str, ...], ...]
    #: The melds each seat laid down at the end of the last hand.
    last_melds: tuple[tuple[tuple[str, ...], ...], ...]
    #: The cards the defender laid off onto the other seat's melds.
    last_layoffs: tuple[str, ...]
    #: Deadwood of each seat after melding and laying off.
    last_deadwood: tuple[int, ...]
    #: The card that set the knock limit and the doubling of the last hand (the
    #: pile's top card, or the upcard with ``knock_card="upcard"``), or None.
    last_top: str | None
    #: Points each seat scored in the last hand.
    last_points: tuple[int, ...]
    #: The last finished hand's history as this seat saw it, ending with the
    #: move that ended it (``"0:knock"``, ``"0:gin:7H"``, the layout he chose,
    #: ``"0:lay:9C9D9H+2D-4D"`` (ruling 8), or a plain discard when the stock
    #: ran out); the knock discard lies face down, so only the
    #: knocker sees it named (``"0:knock:KD"``); a gin discard is face up
    #: (ruling 19).
    last_history: tuple[str, ...]


@dataclass(frozen=True)
class _Ending:
    """The public account of a finished hand (shared between clones)."""

    end: str
    out: int | None
    hands: tuple[CardMask, ...]
    melds: tuple[tuple[CardMask, ...], ...]
    layoffs: CardMask
    deadwood: tuple[int, ...]
    top: int
    points: tuple[int, ...]


_NO_ENDING = _Ending("", None, (), (), 0, (), -1, ())


class GinRummy(Game):
    """Gin Rummy, Oklahoma style: the top discard sets the knock limit.

    It also doubles the hand on a spade (RULES.md ruling 3). Options:
    ``variant`` (``"standard"`` or ``"grote-gin"``), ``target`` (150) and
    ``knock_card`` (``"top"``, or ``"upcard"`` for classic Oklahoma: the
    hand's first upcard sets both, ruling 17).
    """

    name = "gin-rummy"
    description = (
        "Draw and discard into sets and runs; knock within the limit the top discard "
        "sets, a spade doubles the hand"
    )
    title = "Gin Rummy (Oklahoma)"
    seat_counts = frozenset({2})
    check_options = {"target": 30}  # noqa: RUF012 - short: 1-2 scoring hands
    max_actions = 1_000_000  # RULES.md ruling 18: random play ends within ~70,000
    action_kinds = (
        ActionKind("<card>", FULL52.pattern(), "discard this card face up"),
        ActionKind(
            "draw:stock | draw:discard",
            "draw:(?:stock|discard)",
            "take the top card of the stock, or of the discard pile",
        ),
        ActionKind(
            "knock:<card>",
            "knock:" + FULL52.pattern(),
            "discard this card face down and knock",
        ),
        ActionKind(
            "gin:<card>", "gin:" + FULL52.pattern(), "discard this card and go gin"
        ),
        ActionKind("gin", "gin", "grote gin: all 11 cards melded, no discard"),
        ActionKind(
            "lay:<melds>",
            "lay:(?:none|[0-9A-Z+-]+)",
            "after going out, lay down these melds: a run lowest-highest "
            "(5H-8H), a set card by card (9C9D9S), joined by +; the rest is "
            "deadwood (ruling 8)",
        ),
    )
    option_specs = (
        Option(
            "variant",
            "standard",
            doc="how gin scores (seed 000 line 551)",
            choices=("standard", "grote-gin"),
            choice_docs={
                "standard": "gin scores 20 plus the other's deadwood",
                "grote-gin": "all 11 cards melded, no discard, scores 30 instead of 20",
            },
        ),
        Option(
            "target", 150, doc="the match ends when a player reaches this", minimum=1
        ),
        Option(
            "knock_card",
            "top",
            doc="which card sets the knock limit and the spade doubling",
            choices=("top", "upcard"),
            choice_docs={
                "top": "the discard pile's top card when going out (ruling 3)",
                "upcard": "the hand's first face-up card, as classic Oklahoma "
                "(ruling 17)",
            },
        ),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """Gin rummy's encoding (docs/ENCODING.md): every layout has an id."""
        # numpy is loaded only when an encoding is asked for.
        from games.rummy.encoding import rummy_encoding

        return rummy_encoding(
            self,
            n_seats,
            (DRAW_STOCK, DRAW_PILE, GROTE_GIN, *KNOCK_ACTIONS, *GIN_ACTIONS),
            layout_word,
            GinRummyView,
        )

    def deal_estimate(self, state: State) -> tuple[float, ...]:
        """The hand's points if the seat with less expected deadwood went out
        now (:meth:`GinRummyState.estimate`), for a search cut off mid-hand."""
        if not isinstance(state, GinRummyState):
            raise TypeError(
                f"{self.name} estimates a GinRummyState, not {type(state).__name__}"
            )
        return state.estimate()

    def new_match(self, n_seats: int, seed: int) -> GinRummyState:
        """The first hand of a match, dealt from ``deal_rng(seed, 0)``."""
        self.check_seats(n_seats)
        return GinRummyState(self, seed)

    def sample_state(self, view: View, rng: random.Random) -> GinRummyState:
        """A State consistent with ``view``: unseen cards shuffled at random.

        The cards ``view.seat`` has not seen are split between the opponent's
        hand and the stock; the cards the opponent is known to hold (taken
        from the discard pile) stay in his hand.
        """
        return self.sampler(view).sample(rng)

    def sampler(self, view: View) -> GinRummySampler:
        """Worlds behind ``view``, read once (see :meth:`sample_state`)."""
        if not isinstance(view, GinRummyView):
            raise TypeError(f"gin-rummy cannot sample from a {type(view).__name__}")
        return GinRummySampler(self, view)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """The rule of thumb :func:`greedy_action`, for search rollouts."""
        assert isinstance(state, GinRummyState)
        return greedy_action(state)

    def belief_sampler(self, view: View) -> GinRummyBeliefSampler:
        """Worlds behind ``view`` weighted by the opponent's discards
        (:class:`GinRummyBeliefSampler`)."""
        if not isinstance(view, GinRummyView):
            raise TypeError(f"gin-rummy cannot sample from a {type(view).__name__}")
        return GinRummyBeliefSampler(self, view)


class GinRummyState(State):
    """The referee's truth of one gin rummy match."""

    game: GinRummy
    #: The knock discard lying face down at the end of the match, or -1 (a
    #: class default: states the sampler builds field by field have none).
    face_down = -1
    #: The seat that went out this hand (set from the going-out move), or -1.
    out_seat = -1
    #: How it went out (``_KNOCK``, ``_GIN``, ``_GROTE``) and the card that
    #: set the limit and the doubling then (-1 for none).
    out_kind = -1
    out_top = -1
    #: Layout action -> (deadwood, melds), filled with the legal actions.
    _lay: dict[str, tuple[int, tuple[CardMask, ...]]] | None = None

    def __init__(self, game: GinRummy, seed: int) -> None:
        self.game = game
        self.n_seats = 2
        self.seed = seed
        self.grote = game.options["variant"] == "grote-gin"
        self.target: int = game.options["target"]
        #: Ruling 17: the upcard, not the pile's top card, sets limit and doubling.
        self.by_upcard = game.options["knock_card"] == "upcard"
        self.scores = [0, 0]
        self.deal_points: list[tuple[int, ...]] = []
        self.ending = _NO_ENDING
        self.last_history: tuple[tuple[str, ...], ...] = ((), ())
        self.deal = 0
        self._deal_hand()

    # -- dealing ------------------------------------------------------------

    def _deal_hand(self) -> None:
        """Deal hand ``self.deal`` from ``deal_rng(seed, deal)`` alone.

        Seat 1 deals hand 0 and the deal alternates (ruling 1, line 529).
        The non-dealer gets 11 cards, the dealer 10 (line 498).
        """
        order = FULL52.shuffled(deal_rng(self.seed, self.deal))
        self.dealer = (self.deal + 1) % 2
        eldest = 1 - self.dealer
        hands = [0, 0]
        for c in order[:11]:
            hands[eldest] |= 1 << c
        for c in order[11:21]:
            hands[self.dealer] |= 1 << c
        self.hands = hands
        self.stock = order[21:]
        self.pile: list[int] = []
        #: The knock discard, face down on the pile at the end of the hand
        #: (line 516): shown to nobody in the pile, named only to the knocker.
        self.face_down = -1
        self.out_seat = -1
        self.known = [0, 0]
        self.taken = -1
        self.pile_draws = 0
        self.upcard = -1
        self.history: tuple[list[str], list[str]] = ([], [])
        self.phase = OPENING
        self.to_act: Seat | None = eldest
        self._legal: tuple[str, ...] | None = None
        self._fixed: dict[str, Any] | None = None

    def _marker(self) -> int:
        """The card that sets the knock limit and the doubling now, or -1.

        The top face-up card of the discard pile (ruling 3), or with
        ``knock_card="upcard"`` the hand's upcard (ruling 17).
        """
        if self.phase == LAYOUT:
            return self.out_top  # as it was when he went out
        if self.by_upcard:
            return self.upcard
        # The top face-up card: a knock discard on the pile lies face down
        # (line 516, ruling 19) and tells nothing, even after the hand.
        visible = len(self.pile) - (self.face_down >= 0)
        return self.pile[visible - 1] if visible > 0 else -1

    # -- the State contract ------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act, in a stable order.

        Draw phase: ``draw:stock`` then ``draw:discard``. Discard phase: the
        plain discards in deck order, then ``knock:C``, ``gin:C`` and, in the
        grote-gin variant, ``gin``. Layout phase: the legal layouts, least
        deadwood first (ruling 8).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == DRAW:
            if self.pile:
                return _BOTH_DRAWS
            return _STOCK_ONLY
        if phase == OVER:
            return ()
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if phase == LAYOUT:
            self._lay = lay = {layout_word(m): (dw, m) for dw, m in self._layouts()}
            return tuple(lay)
        if phase == OPENING:
            return _names(hand)
        taken = self.taken
        plain = hand & ~(1 << taken) if taken >= 0 else hand
        actions = list(_names(plain))
        marker = self._marker()
        limit = melds.VALUE[marker] if marker >= 0 else 0
        outs = melds.going_out(hand, limit)
        if outs:
            actions += [KNOCK_ACTIONS[c] for c, dw in outs if dw and c != taken]
            actions += [GIN_ACTIONS[c] for c, dw in outs if not dw and c != taken]
        if self.grote and melds.deadwood(hand) == 0:
            actions.append(GROTE_GIN)
        return tuple(actions)

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act (see :meth:`legal_actions`)."""
        if action not in self.legal_actions():
            self._reject(action)
        seat = self.to_act
        assert seat is not None
        if self.phase == LAYOUT:
            assert self._lay is not None
            self._log(seat, f"{seat}:{action}")
            self._lay_down(seat, *self._lay[action])
            return
        kind, card = NOTATION[action]
        self._legal = None
        if kind == _STOCK:
            self._draw(seat, self.stock.pop(), from_pile=False)
        elif kind == _PILE:
            self._draw(seat, self.pile.pop(), from_pile=True)
        elif kind == _DISCARD:
            self._discard(seat, card)
        else:
            self._go_out(seat, kind, card)

    def _reject(self, action: object) -> None:
        where = (
            f"seat {self.to_act} in the {PHASE_NAMES[self.phase]} phase of hand "
            f"{self.deal}; legal: {', '.join(self.legal_actions()) or '(none)'}"
        )
        if isinstance(action, str) and (action in NOTATION or action.startswith(LAY)):
            raise IllegalActionError(f"illegal action {action!r} for {where}")
        raise InvalidActionError(
            f"{action!r} is not gin-rummy notation (a card such as '7H', "
            f"'draw:stock', 'draw:discard', 'knock:7H', 'gin:7H', 'gin', "
            f"'lay:5H-8H+9C9D9S'); {where}"
        )

    def estimate(self) -> tuple[float, float]:
        """Each seat's points of this hand if it ended now (``deal_estimate``).

        The seat with less deadwood goes out and the hand is scored as the
        game scores it (:func:`hand_points`): gin when it has no deadwood, else
        a knock scoring the difference; equal deadwood scores nothing. Each
        seat's deadwood is its expected deadwood
        (:func:`~games.rummy.melds.expected_deadwood`): a loose card counts
        less the more cards still in this world's stock would meld it. A seat
        holding 11 cards first makes the discard that leaves it the least
        deadwood (not the card just taken, ruling 5). Rulings of this
        estimate, not of the rules: the knock limit is not asked (the hand is
        far from over), the defender lays nothing off (that needs the
        layout), and nothing doubles (the marker when the hand ends is not
        known yet). A seat that went out and chooses its layout is scored
        exactly, by the layout the legal actions list first (the least
        deadwood, ruling 8).
        """
        if self.phase == LAYOUT:
            twin = self.clone()
            twin.apply(twin.legal_actions()[0])
            return float(twin.ending.points[0]), float(twin.ending.points[1])
        # Cards outside the stock will not come to hand: not outs.
        dead = FULL52.full & ~sum(map(_BIT.__getitem__, self.stock))
        kept = (self._kept(0), self._kept(1))
        expected = [melds.expected_deadwood(hand, dead) for hand in kept]
        if expected[0] == expected[1]:
            return 0.0, 0.0
        out = 0 if expected[0] < expected[1] else 1
        end = "knock" if melds.deadwood(kept[out]) else "gin"
        points = [0.0, 0.0]
        points[out], points[1 - out] = hand_points(
            end, expected[out], expected[1 - out], doubled=False
        )
        return points[0], points[1]

    def _kept(self, seat: Seat) -> CardMask:
        """``seat``'s hand, less the discard that leaves the least deadwood
        when it holds 11 cards (the first such card in deck order)."""
        hand = self.hands[seat]
        if hand.bit_count() <= 10:
            return hand
        taken = self.taken if seat == self.to_act else -1
        _, card = min(
            (dw, c) for c, dw in melds.going_out(hand, melds.value(hand)) if c != taken
        )
        return hand & ~(1 << card)

    def is_over(self) -> bool:
        """True once a player has reached the target."""
        return self.phase == OVER

    def result(self) -> Result:
        """Match totals and the points of every finished hand."""
        return Result.from_scores(self.scores, (0, 1), self.deal_points)

    def view(self, seat: Seat) -> GinRummyView:
        """What ``seat`` knows now (perfect recall within the hand)."""
        pile = self.pile
        top = self._marker()
        fields = self._fixed_fields()
        fields.update(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            to_act=self.to_act,
            phase=PHASE_NAMES[self.phase],
            hand=_names(self.hands[seat]),
            opponent_cards=self.hands[1 - seat].bit_count(),
            opponent_known=_names(self.known[1 - seat]),
            stock_size=len(self.stock),
            discard_pile=tuple(
                map(CARDS.__getitem__, pile if self.face_down < 0 else pile[:-1])
            ),
            upcard=CARDS[self.upcard] if self.upcard >= 0 else None,
            knock_limit=melds.VALUE[top] if top >= 0 else 0,
            spades_double=top >= 0 and top // 13 == SPADES,
            pile_draws=self.pile_draws,
            history=tuple(self.history[seat]),
            last_history=self.last_history[seat],
        )
        view = object.__new__(GinRummyView)
        # The generated __init__ of a frozen 29-field dataclass costs more than
        # the rest of a decision; the fields are set at once instead.
        object.__setattr__(view, "__dict__", fields)
        return view

    def _fixed_fields(self) -> dict[str, Any]:
        """The view fields that change only between hands (built once a hand)."""
        fixed = self._fixed
        if fixed is None:
            e = self.ending
            fixed = self._fixed = {
                "variant": "grote-gin" if self.grote else "standard",
                "target": self.target,
                "knock_card": "upcard" if self.by_upcard else "top",
                "hand_index": self.deal,
                "dealer": self.dealer,
                "deal_points": tuple(self.deal_points),
                "scores": tuple(self.scores),
                "last_end": e.end,
                "last_out": e.out,
                "last_hands": tuple(_names(h) for h in e.hands),
                "last_melds": tuple(tuple(_names(m) for m in ms) for ms in e.melds),
                "last_layoffs": _names(e.layoffs),
                "last_deadwood": e.deadwood,
                "last_top": CARDS[e.top] if e.top >= 0 else None,
                "last_points": e.points,
            }
        return dict(fixed)

    def clone(self) -> Self:
        """An independent copy (lists copied, immutable parts shared)."""
        twin = object.__new__(type(self))
        d = twin.__dict__
        d.update(self.__dict__)
        d["stock"] = self.stock[:]
        d["pile"] = self.pile[:]
        d["hands"] = self.hands[:]
        d["known"] = self.known[:]
        d["history"] = (self.history[0][:], self.history[1][:])
        d["scores"] = self.scores[:]
        d["deal_points"] = self.deal_points[:]
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """``hand:0``, ``hand:1``, ``stock`` (bottom to top), ``discard`` (face
        up) and, after a knock, ``face-down:S``: seat S's knock discard."""
        pile = self.pile
        locations = {
            "hand:0": _names(self.hands[0]),
            "hand:1": _names(self.hands[1]),
            "stock": tuple(CARDS[c] for c in self.stock),
            "discard": tuple(CARDS[c] for c in pile),
        }
        if self.face_down >= 0:
            locations["discard"] = locations["discard"][:-1]
            locations[f"face-down:{self.out_seat}"] = (CARDS[self.face_down],)
        return locations

    def hidden_from(self, seat: Seat) -> frozenset[str]:
        """The opponent's hand, the stock and the opponent's knock discard."""
        if self.face_down >= 0 and self.out_seat == 1 - seat:
            return frozenset((f"hand:{1 - seat}", "stock", f"face-down:{1 - seat}"))
        return frozenset((f"hand:{1 - seat}", "stock"))

    def deck(self) -> tuple[str, ...]:
        """The 52 cards."""
        return CARDS

    # -- moves --------------------------------------------------------------

    def _log(self, seat: Seat, public: str, private: str | None = None) -> None:
        self.history[seat].append(private or public)
        self.history[1 - seat].append(public)

    def _draw(self, seat: Seat, card: int, *, from_pile: bool) -> None:
        self.hands[seat] |= 1 << card
        if from_pile:
            self.known[seat] |= 1 << card
            self.taken = card
            self.pile_draws += 1
            self._log(seat, f"{seat}:draw:discard:{CARDS[card]}")
        else:
            self._log(seat, f"{seat}:draw:stock", f"{seat}:draw:stock:{CARDS[card]}")
        self.phase = DISCARD

    def _discard(self, seat: Seat, card: int) -> None:
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.known[seat] &= ~bit
        self.pile.append(card)
        self.taken = -1
        self._log(seat, f"{seat}:discard:{CARDS[card]}")
        if self.phase == OPENING:
            # The opening discard starts the pile; the dealer plays first (ruling 2).
            self.upcard = card
        elif len(self.stock) <= STOCK_FLOOR or self.pile_draws >= MAX_PILE_DRAWS:
            # The stock rule (ruling 6), or a hand that cycles through the
            # pile: a plain discard after the 50th pile draw voids it (ruling 7).
            self._end_hand(_Ending("void", None, (), (), 0, (), -1, (0, 0)))
            return
        self.to_act = 1 - seat
        self.phase = DRAW

    def _go_out(self, seat: Seat, kind: int, card: int) -> None:
        """Knock or gin (lines 514-516): discard, then lay down (ruling 8).

        When more than one layout is legal the player chooses it as his next
        decision (the layout phase); otherwise it is laid down at once.
        """
        self.out_seat, self.out_kind, self.out_top = seat, kind, self._marker()
        if card >= 0:
            bit = 1 << card
            self.hands[seat] &= ~bit
            self.known[seat] &= ~bit
            self.pile.append(card)
        self.taken = -1
        end = ("knock", "gin", "grote-gin")[(_KNOCK, _GIN, _GROTE).index(kind)]
        word = "gin" if kind == _GROTE else end
        if kind == _KNOCK:
            # The knock discard lies face down (line 516): the opponent's
            # record does not name it, nor does the pile (ruling 19).
            self.face_down = card
            self._log(seat, f"{seat}:{word}", f"{seat}:{word}:{CARDS[card]}")
        elif card >= 0:
            # The gin discard is an ordinary discard, face up (lines 510, 514).
            self._log(seat, f"{seat}:{word}:{CARDS[card]}")
        else:
            self._log(seat, f"{seat}:{word}")
        self.phase = LAYOUT
        choices = self._layouts()
        if len(choices) == 1:
            self._lay_down(seat, *choices[0])

    def _layouts(self) -> list[tuple[int, tuple[CardMask, ...]]]:
        """The legal layouts of the player who went out (ruling 8)."""
        kind, top = self.out_kind, self.out_top
        limit = melds.VALUE[top] if kind == _KNOCK else 0
        return melds.layouts(self.hands[self.out_seat], limit)

    def _lay_down(self, seat: Seat, out_dw: int, laid: tuple[CardMask, ...]) -> None:
        """Lay ``laid`` down, let the defender lay off, score (lines 518-526)."""
        kind, top = self.out_kind, self.out_top
        end = ("knock", "gin", "grote-gin")[(_KNOCK, _GIN, _GROTE).index(kind)]
        out_hand, other = self.hands[seat], self.hands[1 - seat]
        answer = melds.respond(other, laid)
        def_dw = answer.deadwood
        points = [0, 0]
        points[seat], points[1 - seat] = hand_points(
            end, out_dw, def_dw, doubled=top >= 0 and top // 13 == SPADES
        )
        hands = [0, 0]
        hands[seat], hands[1 - seat] = out_hand, other
        all_melds: list[tuple[CardMask, ...]] = [(), ()]
        all_melds[seat] = laid
        all_melds[1 - seat] = answer.melds
        deadwood = [0, 0]
        deadwood[seat], deadwood[1 - seat] = out_dw, def_dw
        self._end_hand(
            _Ending(
                end,
                seat,
                tuple(hands),
                tuple(all_melds),
                answer.layoffs,
                tuple(deadwood),
                top,
                (points[0], points[1]),
            )
        )

    def _end_hand(self, ending: _Ending) -> None:
        """Book the hand's points; end the match or deal the next hand."""
        self.ending = ending
        self.last_history = (tuple(self.history[0]), tuple(self.history[1]))
        self._fixed = None
        p0, p1 = ending.points
        self.deal_points.append((p0, p1))
        self.scores[0] += p0
        self.scores[1] += p1
        if max(self.scores) >= self.target:
            # Ruling 14: the match ends after the hand that reaches the target.
            self.phase = OVER
            self.to_act = None
            self._legal = ()
            return
        self.deal += 1
        if not self.halt_after_deal:
            self._deal_hand()

    # -- narration ----------------------------------------------------------

    def narrate(self, action: Action) -> list[str]:
        """Apply ``action`` and tell a person what happened."""
        seat = self.to_act
        deal = self.deal
        opening = self.phase == OPENING
        kind, card = NOTATION.get(action, (-1, -1))
        drawn = self.stock[-1] if kind == _STOCK and self.stock else -1
        draws = self.pile_draws  # before a new hand resets it
        laying = self.phase == LAYOUT
        self.apply(action)
        lines: list[str] = []
        if self.phase == LAYOUT:
            lines.append(self._going_out_line(seat, kind, card))
            n = len(self.legal_actions())
            lines.append(f"seat {seat} chooses one of {n} ways to lay down his cards")
        if kind == _STOCK:
            # Only the drawer sees the card (000:508); the other hears the draw.
            lines.append(
                Aside(
                    f"seat {seat} draws {CARDS[drawn]} from the stock",
                    () if seat is None else {seat},
                    f"seat {seat} draws from the stock",
                )
            )
        elif kind == _PILE:
            lines.append(f"seat {seat} takes {CARDS[self.taken]} from the discard pile")
        elif kind == _DISCARD and opening:
            lines.append(f"seat {seat} starts the discard pile with {CARDS[card]}")
        elif kind == _DISCARD:
            lines.append(f"seat {seat} discards {CARDS[card]}")
        if self.deal != deal or self.phase == OVER:
            lines += self._narrate_ending(seat, kind, card, draws, told=laying)
        if self.deal != deal and self.phase != OVER:
            lines += self.narrate_start()
        return lines

    def narrate_start(self) -> list[str]:
        """The line that opens the current hand: its dealer and who gets 11."""
        return [
            f"hand {self.deal}: dealer seat {self.dealer}, "
            f"seat {1 - self.dealer} gets 11 cards"
        ]

    def _going_out_line(self, seat: Seat | None, kind: int, card: int) -> str:
        verb = {_KNOCK: "knocks", _GIN: "goes gin", _GROTE: "has grote gin"}
        discard = f", discarding {CARDS[card]}" if card >= 0 else ""
        line = f"seat {seat} {verb[kind]}{discard}"
        if kind == _KNOCK and card >= 0 and seat is not None:
            # The knock discard lies face down (000:516): only the knocker knows it.
            return Aside(line, {seat}, f"seat {seat} knocks, discarding face down")
        return line

    def _narrate_ending(
        self, seat: Seat | None, kind: int, card: int, draws: int, *, told: bool
    ) -> list[str]:
        e = self.ending
        lines: list[str] = []
        if e.end == "void" and draws >= MAX_PILE_DRAWS:
            lines.append(
                f"{MAX_PILE_DRAWS} draws from the discard pile this hand: hand void"
            )
        elif e.end == "void":
            lines.append(f"the stock is down to {STOCK_FLOOR} cards: hand void")
        else:
            if not told:  # else said when he went out, before choosing a layout
                lines.append(self._going_out_line(seat, self.out_kind, card))
            if e.top >= 0:
                double = ", a spade: points double" if e.top // 13 == SPADES else ""
                where = "upcard" if self.by_upcard else "top of the discard pile"
                lines.append(
                    f"{where} {CARDS[e.top]} (knock limit {melds.VALUE[e.top]}){double}"
                )
            for s in (e.out, 1 - (e.out or 0)):
                assert s is not None
                shown = " ".join("-".join(_names(m)) for m in e.melds[s]) or "none"
                lines.append(f"seat {s} melds {shown}; deadwood {e.deadwood[s]}")
            if e.layoffs:
                lines.append(
                    f"seat {1 - (e.out or 0)} lays off {' '.join(_names(e.layoffs))}"
                )
        lines.append(
            f"hand {len(self.deal_points) - 1} scores {e.points[0]}-{e.points[1]}; "
            f"match {self.scores[0]}-{self.scores[1]}"
        )
        if self.phase == OVER:
            lines.append(match_over_line(self.result()))
        return lines


#: ``_BIT[c]``: the mask of card ``c`` alone.
_BIT = tuple(1 << c for c in range(len(CARDS)))


def greedy_action(state: GinRummyState) -> Action:
    """What a player who minds only his own deadwood plays in ``state``.

    The ``gin-rummy`` bot's rules (``bots/gin_rummy.py``) without its odds of
    outs and its memory of the opponent, on the State's masks, for rollouts:
    gin whenever it can (grote gin first), else a knock as soon as the limit
    allows, with the least deadwood; the pile's card when it lands in a meld and
    lowers the deadwood, else the stock; the discard that leaves the least
    deadwood, the higher card among equals; the first layout offered (the least
    deadwood, ruling 8).
    """
    legal = state.legal_actions()
    if len(legal) == 1 or state.phase == LAYOUT:
        return legal[0]
    assert state.to_act is not None
    hand = state.hands[state.to_act]
    deadwood = melds.deadwood
    if state.phase == DRAW:
        top = state.pile[-1]
        taken = hand | 1 << top
        if melds.meldable(taken) >> top & 1:
            after = min(deadwood(taken & ~(1 << c)) for c in iter_bits(hand))
            if after < deadwood(hand):
                return DRAW_PILE
        return DRAW_STOCK
    best: Action = legal[0]
    best_key = (3, 0, 0)
    for action in legal:
        if action == GROTE_GIN:
            return action
        verb, _, card = action.rpartition(":")
        c = FULL52.index[card]
        rank = 0 if verb == "gin" else 1 if verb == "knock" else 2
        key = (rank, deadwood(hand & ~(1 << c)), -melds.VALUE[c])
        if key < best_key:
            best, best_key = action, key
    return best


class GinRummySampler(Sampler):
    """Worlds behind one view (see :meth:`GinRummy.sampler`).

    The set-up reads the view once: the fixed part of every world (scores,
    pile, histories, the last hand), the cards the opponent is known to hold
    and the pool of unseen cards. A sample shuffles the pool, cuts off the
    opponent's unknown cards (the rest is the stock, in that order) and gives
    his stock draws cards consistent with his sampled hand.

    The pool has no constraint (nothing the opponent did rules a card out of
    his hand), so a shuffle and cut is exactly uniform, and it keeps the stock
    in order, which the masks of :class:`games.sampling.ConstrainedDealer`
    would not.
    """

    __slots__ = (
        "_entries",
        "_face_down",
        "_fixed",
        "_known",
        "_mine",
        "_n_hidden",
        "_pool",
        "_recall",
        "_seat",
    )

    def __init__(self, game: GinRummy, view: GinRummyView) -> None:
        seat = view.seat
        mask = FULL52.mask
        entries = view.history
        recall = _recall(entries, seat)
        taken = -1
        if view.phase == "discard" and entries and ":draw:discard:" in entries[-1]:
            taken = FULL52.index[entries[-1].rsplit(":", 1)[1]]
        # The opponent's record of the last hand is not in the view; the sampled
        # world gives him this seat's record without what only this seat saw.
        last: list[tuple[str, ...]] = [(), ()]
        last[seat] = view.last_history
        last[1 - seat] = _recall(view.last_history, seat).other
        pile = [FULL52.index[c] for c in view.discard_pile]
        out: dict[str, Any] = {}
        face_down = -1
        if view.phase == "layout":
            # Someone went out and chooses his layout: read how from his move.
            who, verb, *rest = entries[-1].split(":")
            kind = _KNOCK if verb == "knock" else _GIN if rest else _GROTE
            # The card that lay on top before the going-out discard (ruling 3):
            # a gin discard lies face up on it, a knock discard is not in the pile.
            below = pile[:-1] if kind == _GIN else pile
            out = {
                "out_seat": int(who),
                "out_kind": kind,
                "out_top": FULL52.index[view.upcard]
                if view.knock_card == "upcard" and view.upcard is not None
                else below[-1]
                if below
                else -1,
            }
            if kind == _KNOCK:
                # His own knock discard he knows; the opponent's is drawn per world.
                face_down = FULL52.index[rest[0]] if rest else -2
        self._face_down = face_down
        self._fixed: dict[str, Any] = {
            **out,
            "game": game,
            "n_seats": 2,
            "grote": view.variant == "grote-gin",
            "by_upcard": view.knock_card == "upcard",
            "target": view.target,
            "deal": view.hand_index,
            "dealer": view.dealer,
            "to_act": view.to_act,
            "phase": PHASE_NAMES.index(view.phase),
            "scores": list(view.scores),
            "deal_points": list(view.deal_points),
            "ending": _ending_from_view(view),
            "pile": pile,
            "pile_draws": view.pile_draws,
            "upcard": FULL52.index[view.upcard] if view.upcard is not None else -1,
            "_legal": None,
            "_fixed": None,
            "taken": taken,
            "last_history": tuple(last),
        }
        self._seat = seat
        self._mine = mine = mask(view.hand)
        self._known = known = mask(view.opponent_known)
        unseen = FULL52.full & ~(mine | known | mask(view.discard_pile))
        if face_down >= 0:
            unseen &= ~(1 << face_down)
        self._pool = list(iter_bits(unseen))
        self._n_hidden = view.opponent_cards - len(view.opponent_known)
        self._recall = recall
        self._entries = entries

    def sample(self, rng: random.Random) -> GinRummyState:
        """A full State consistent with the view, drawn from ``rng``."""
        # Later hands of the sampled world are dealt from a seed of its own.
        seed = rng.getrandbits(63)
        pool = self._pool[:]
        rng.shuffle(pool)
        n_hidden = self._n_hidden
        theirs = self._known | sum(map(_BIT.__getitem__, pool[:n_hidden]))
        face_down = self._face_down
        if face_down == -2:
            # The opponent's knock discard, face down: any unseen card.
            face_down = pool[n_hidden]
            n_hidden += 1
        draws = _stock_draws(self._recall, theirs, face_down, rng)
        return self._world(seed, theirs, pool[n_hidden:], face_down, draws)

    def _world(
        self,
        seed: int,
        theirs: CardMask,
        stock: list[int],
        face_down: int,
        draws: list[int],
    ) -> GinRummyState:
        """The State of this view in which the opponent holds ``theirs``, the
        stock is ``stock`` (drawn from its end) and his stock draws were
        ``draws`` (his moves' order, last first)."""
        seat, opp = self._seat, 1 - self._seat
        state = object.__new__(GinRummyState)
        d = state.__dict__
        d.update(self._fixed)
        d["scores"] = d["scores"][:]
        d["deal_points"] = d["deal_points"][:]
        d["pile"] = d["pile"][:]
        d["seed"] = seed
        if face_down >= 0:
            d["face_down"] = face_down
            d["pile"].append(face_down)
        d["stock"] = stock
        hands = [0, 0]
        hands[seat], hands[opp] = self._mine, theirs
        d["hands"] = hands
        known = [0, 0]
        known[seat], known[opp] = self._recall.known, self._known
        d["known"] = known
        history: tuple[list[str], list[str]] = ([], [])
        history[seat].extend(self._entries)
        history[opp].extend(_other_history(self._recall, draws, face_down))
        d["history"] = history
        return state


class GinRummyBeliefSampler(GinRummySampler):
    """Worlds behind one view, the opponent's hand weighted by his discards.

    The uniform sampler gives the opponent a random hand: some 55 points of
    deadwood whatever he has done, where a player who kept his melds for eight
    turns holds about 20 (``gin-rummy`` self-play, ``docs/SEARCH.md``). This
    one models him as a player who, at each discard, throws a card with
    probability proportional to ``exp(-softness * d)``, ``d`` being how much
    more deadwood it leaves him than his best discard would, and draws his
    hidden cards from that posterior by a Metropolis chain: a step swaps one
    of his hidden cards with a stock card (in his hand, the stock and his
    record of stock draws alike) and is kept with the ratio of the two
    likelihoods. The chain runs ``burn_in`` steps before its first world and
    ``thinning`` steps between worlds. Every world is one the uniform sampler
    could draw: only the odds differ. While a knock discard lies face down
    (the layout is being chosen) its worlds are the uniform sampler's.
    """

    __slots__ = ("_burn_in", "_chain", "_softness", "_thinning")

    def __init__(
        self,
        game: GinRummy,
        view: GinRummyView,
        *,
        softness: float = 1.0,
        burn_in: int = 60,
        thinning: int = 5,
    ) -> None:
        super().__init__(game, view)
        self._softness = softness
        self._burn_in = burn_in
        self._thinning = thinning
        #: The chain's place: his hand, the stock, his stock draws, the log-likelihood.
        self._chain: tuple[CardMask, list[int], list[int], float] | None = None

    def sample(self, rng: random.Random) -> GinRummyState:
        """A State consistent with the view, the chain's next world."""
        if self._face_down == -2 or self._n_hidden == 0:
            return super().sample(rng)
        seed = rng.getrandbits(63)
        steps = self._thinning
        if self._chain is None:
            pool = self._pool[:]
            rng.shuffle(pool)
            theirs = self._known | sum(map(_BIT.__getitem__, pool[: self._n_hidden]))
            draws = _stock_draws(self._recall, theirs, self._face_down, rng)
            self._chain = (
                theirs,
                pool[self._n_hidden :],
                draws,
                self._loglik(theirs, draws),
            )
            steps = self._burn_in
        for _ in range(steps):
            self._step(rng)
        theirs, stock, draws, _ = self._chain
        # His own knock discard, when this seat knocked, lies face down in every world.
        return self._world(seed, theirs, stock[:], self._face_down, draws[:])

    def _step(self, rng: random.Random) -> None:
        assert self._chain is not None
        theirs, stock, draws, loglik = self._chain
        if not stock:
            return
        hidden = list(iter_bits(theirs & ~self._known))
        a = hidden[rng.randrange(len(hidden))]
        i = rng.randrange(len(stock))
        b = stock[i]
        swapped = theirs & ~(1 << a) | 1 << b
        new_draws = [b if card == a else card for card in draws]
        new = self._loglik(swapped, new_draws)
        if new >= loglik or rng.random() < math.exp(new - loglik):
            stock = stock[:]
            stock[i] = a
            self._chain = (swapped, stock, new_draws, new)

    def _loglik(self, theirs: CardMask, draws: list[int]) -> float:
        """Log-likelihood of his recorded discards had he held ``theirs`` now
        and drawn ``draws``: his hand walked back from the present."""
        beta = self._softness
        hand = theirs
        total = 0.0
        j = 0
        for _, kind, card, _ in self._recall.moves:
            if kind == 0:
                before = hand | 1 << card
                total += _discard_loglik(before, card, beta)
                hand = before
            elif kind == 1:
                hand &= ~(1 << card)
            elif kind == 2:
                hand &= ~(1 << draws[j])
                j += 1
        return total


def _discard_loglik(before: CardMask, card: int, beta: float) -> float:
    """log P(throwing ``card`` from the 11 cards ``before``) for a player who
    throws each card with weight ``exp(-beta * deadwood it leaves)``."""
    if before.bit_count() != 11:
        return 0.0
    left = {c: melds.deadwood(before & ~(1 << c)) for c in iter_bits(before)}
    low = min(left.values())
    norm = math.log(sum(math.exp(-beta * (x - low)) for x in left.values()))
    return -beta * (left[card] - low) - norm


class _Recall(NamedTuple):
    """A hand's history read from one seat's view (cached: samples repeat)."""

    #: Cards the seat took from the pile and still holds.
    known: CardMask
    #: The history as the opponent would see it, his stock draws blank.
    other: tuple[str, ...]
    #: The opponent's moves, last first: (entry index, kind, card, his known
    #: cards before it); kind 0 = discard, 1 = pile draw, 2 = stock draw,
    #: 3 = knock discard face down (card unknown).
    moves: tuple[tuple[int, int, int, CardMask], ...]


@lru_cache(maxsize=256)
def _recall(entries: tuple[str, ...], seat: Seat) -> _Recall:
    known = [0, 0]
    other: list[str] = []
    moves: list[tuple[int, int, int, CardMask]] = []
    for i, entry in enumerate(entries):
        who, verb, *rest = entry.split(":")
        s = int(who)
        if verb == "lay":
            other.append(entry)
            continue
        if verb in ("knock", "gin"):
            # A hand's record ends so, or the player going out still chooses
            # his layout; a knock discard lies face down, a gin discard face
            # up (ruling 19).
            other.append(entry if verb == "gin" else f"{who}:{verb}")
            if s == seat and rest:
                known[s] &= ~(1 << FULL52.index[rest[0]])
            elif s != seat:
                # His going-out discard: face up (kind 0) or face down (3).
                if rest:
                    card = FULL52.index[rest[0]]
                    moves.append((i, 0, card, known[s]))
                    known[s] &= ~(1 << card)
                elif verb == "knock":
                    moves.append((i, 3, -1, known[s]))
            continue
        if verb == "discard":
            card, kind = FULL52.index[rest[0]], 0
            before = known[s]
            known[s] &= ~(1 << card)
        elif rest[0] == "discard":
            card, kind = FULL52.index[rest[1]], 1
            before = known[s]
            known[s] |= 1 << card
        else:
            card, kind, before = -1, 2, known[s]
            entry = f"{who}:draw:stock"
        other.append(entry)
        if s != seat:
            moves.append((i, kind, card, before))
    moves.reverse()
    return _Recall(known[seat], tuple(other), tuple(moves))


def _stock_draws(
    recall: _Recall, theirs: CardMask, face_down: int, rng: random.Random
) -> list[int]:
    """The cards of the opponent's stock draws in a sampled world, his moves'
    order (last first).

    They fit his sampled hand ``theirs``: walking back from it, each stock
    draw takes a card he held right after it that he was not already known to
    hold. ``face_down`` is his knock discard in this world, when it lies face
    down unseen.
    """
    draws: list[int] = []
    hand = theirs
    for _, kind, card, known_before in recall.moves:
        if kind == 3:
            hand |= 1 << face_down
        elif kind == 0:
            hand |= 1 << card
        elif kind == 1:
            hand &= ~(1 << card)
        else:
            free = _names(hand & ~known_before)
            assert free, "the view's history does not fit its hand sizes"
            drawn = FULL52.index[rng.choice(free)]
            hand &= ~(1 << drawn)
            draws.append(drawn)
    return draws


def _other_history(recall: _Recall, draws: list[int], face_down: int) -> list[str]:
    """The opponent's history in a sampled world whose his stock draws were
    ``draws`` (:func:`_stock_draws`) and his face-down knock discard
    ``face_down``."""
    out = list(recall.other)
    j = 0
    for i, kind, _, _ in recall.moves:
        if kind == 3:
            out[i] += ":" + CARDS[face_down]
        elif kind == 2:
            out[i] += ":" + CARDS[draws[j]]
            j += 1
    return out


def _ending_from_view(view: GinRummyView) -> _Ending:
    mask = FULL52.mask
    if not view.last_end:
        return _NO_ENDING
    return _Ending(
        view.last_end,
        view.last_out,
        tuple(mask(h) for h in view.last_hands),
        tuple(tuple(mask(m) for m in ms) for ms in view.last_melds),
        mask(view.last_layoffs),
        view.last_deadwood,
        FULL52.index[view.last_top] if view.last_top is not None else -1,
        view.last_points,
    )
