"""The trick-play engine shared by every trick-taking game.

Three layers, each usable on its own:

- :class:`TrickRules` (frozen) says how cards rank and score: the deck, the
  rank order and card points of the plain suits and of the trump suit, and the
  last-trick bonus. :meth:`TrickRules.tables` turns it, for one choice of trump
  *tiers* (one trump suit; the tarot trumps; the trumps above spades above the
  suit led), into :class:`TrickTables`: per card, the mask of the cards that
  would take the trick from it, and its points. Tables are built once and
  cached.
- :class:`Duties` (frozen) says what a player must play: follow suit; trump
  when void; over-trump; under-trump must / allowed / forbidden; no duty to
  trump while the partner wins (Amsterdam); beat the led card when possible
  (the last phase of the Bezique games). :func:`legal_cards` applies them to
  a hand and :func:`reveal` draws the inverse inference for sampling: what a
  play proves a seat lacks. The excuse (tarot) may always be played.
- :class:`TrickState` is the card-play half of a State: the hands, the trick
  on the table, its leader and best card, the finished tricks as views show
  them, for any number of seats and any team layout. A game subclasses it and
  writes its bidding, declarations and scoring in the hooks; the per-card hot
  path (legal cards, playing a card, naming cards) lives here, once.

Cards are indices of a :class:`~games.cards.Deck` and hands are ``int``
masks, so the hot path is a handful of ``&`` and ``|``. The best card of a
trick is always of the suit led or of a trump tier; that is why one table,
``beats[best]``, answers both "who wins the trick" and "which cards
over-trump".
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import NamedTuple, NoReturn, Self, TypeAlias

from games.cards import CardMask, Deck, iter_bits

# From the defining modules, not the package: a mypyc build cannot take a class
# base re-exported by a package (bench/README.md, "Compiled builds").
from harness.contracts.compiling import mypyc_attr
from harness.contracts.errors import IllegalActionError, InvalidActionError
from harness.contracts.game import State

__all__ = [
    "AMSTERDAM",
    "BEAT_LED",
    "FREE_PLAY",
    "ROTTERDAM",
    "Duties",
    "PublicTricks",
    "TrickInPlay",
    "TrickRecord",
    "TrickRules",
    "TrickState",
    "TrickTables",
    "Undertrump",
    "legal_cards",
    "reveal",
    "trick_winner",
]

#: A finished trick as views show it: ``(leader, cards in play order, winner,
#: points, bonus)``; the points include any last-trick bonus, the bonus is the
#: game's own (roem in the jass games; 0 where a game has none).
TrickRecord: TypeAlias = tuple[int, tuple[str, ...], int, int, int]


class TrickInPlay(NamedTuple):
    """The card play at one moment, as card indices and masks
    (:meth:`TrickState.trick_in_play`): what a fast policy reads instead of a view."""

    #: The cards the seat to act may play.
    legal: CardMask
    #: The cards on the table, in play order.
    cards: tuple[int, ...]
    #: The seat whose card holds the trick (meaningless while it is empty).
    winner: int
    #: The cards that would beat the card holding the trick.
    top: CardMask
    #: Cards in a full trick.
    size: int
    #: Each card's points in this deal's tables, by card index.
    points: tuple[int, ...]
    #: Each card's name, by card index.
    names: tuple[str, ...]


class Undertrump(enum.Enum):
    """What a player void in the suit led may do when they cannot over-trump."""

    #: They must still play a (lower) trump: Rotterdam klaverjassen, belote.
    MUST = "must"
    #: Any card goes, a lower trump included.
    ALLOWED = "allowed"
    #: A lower trump only when the hand holds nothing else: Amsterdam klaverjassen.
    FORBIDDEN = "forbidden"


@dataclass(frozen=True)
class Duties:
    """What a player must play to a trick that someone else led.

    "Trump" means a card of a tier above the suit led (see
    :meth:`TrickRules.tables`); with one trump suit, that suit.
    """

    #: A hand that holds the suit led must play it.
    must_follow: bool = True
    #: A hand void in the suit led must play a trump if it holds one.
    must_trump: bool = True
    #: A trump played must beat the best card of the trick if the hand can;
    #: this also holds when trump is led and followed.
    must_overtrump: bool = True
    #: What a hand void in the suit led may do when no trump of it beats the trick.
    undertrump: Undertrump = Undertrump.MUST
    #: No duty to trump or over-trump while the partner wins the trick
    #: (under-trumping stays as :attr:`undertrump` says).
    partner_exempt: bool = False
    #: A card that follows suit must beat the best card so far if the hand can.
    must_beat: bool = False


#: Rotterdam klaverjassen and belote: follow, trump, over-trump, else under-trump.
ROTTERDAM = Duties()
#: Amsterdam klaverjassen (seed 004 line 130): no under-trumping unless the hand
#: holds nothing else; no duty to trump while the partner wins the trick.
AMSTERDAM = Duties(undertrump=Undertrump.FORBIDDEN, partner_exempt=True)
#: Any card may be played (the Bezique games while the stock lasts).
FREE_PLAY = Duties(must_follow=False, must_trump=False, must_overtrump=False)
#: Follow suit and beat the led card if possible, else trump if possible (the
#: last phase of the Bezique games).
BEAT_LED = Duties(must_overtrump=False, must_beat=True)


@dataclass
class PublicTricks:
    """What the tricks of a deal show: per seat the cards it is proven to lack
    and how many cards it has played, and every card seen on the table."""

    forbidden: list[CardMask]
    played: list[int]
    seen: CardMask

    def count(
        self, leader: int, cards: Sequence[int], seats: Sequence[int] | None = None
    ) -> None:
        """Book one (possibly unfinished) trick led by ``leader``; ``seats``:
        who played each card, when not every seat plays (see :func:`reveal`)."""
        n = len(self.played)
        for i, card in enumerate(cards):
            self.played[(leader + i) % n if seats is None else seats[i]] += 1
            self.seen |= 1 << card


#: What a card that leads sets up for the rest of the trick: ``(suit led, its
#: mask, the mask a hand must follow (0: none), whether following must beat the
#: best card, the trump suit a void hand must play under the commonest duties
#: (follow, trump, over-trump, else under-trump: -1 when it may play anything,
#: -2 when :func:`legal_cards` must decide), that suit's mask)``.
Lead: TypeAlias = tuple[
    int, CardMask, CardMask, bool, int, CardMask, int, tuple[tuple[str, ...], ...]
]


@dataclass(frozen=True, eq=False)
class TrickTables:
    """How cards take tricks and score under one choice of trump tiers."""

    #: ``beats[b]``: the cards that take the trick from ``b`` when ``b`` is best.
    beats: tuple[CardMask, ...]
    #: ``points[c]``: the card points of card ``c``.
    points: tuple[int, ...]
    #: Every card of every trump tier.
    trumps: CardMask
    #: ``above[s]``: the cards of the tiers above suit ``s`` (its "trumps").
    above: tuple[CardMask, ...]
    #: The trump tiers, highest first (suit numbers).
    tiers: tuple[int, ...]
    #: The :data:`Lead` tables made for each :class:`Duties` (by identity).
    leads: dict[int, tuple[Duties, tuple[Lead, ...]]] = field(
        default_factory=dict, repr=False
    )


@dataclass(frozen=True)
class TrickRules:
    """How the cards of a deck rank and score in tricks.

    Rank orders are the ranks of a suit from weakest to strongest. A suit
    whose ranks are those of :attr:`plain_order` ranks by it (or by
    :attr:`trump_order` while it is the highest trump tier); any other suit
    (the tarot trumps) ranks in the deck's index order.

    :param excuse: the name of a card that never wins a trick, may always be
        played and, when it leads, lets the next card set the suit (tarot).
    """

    deck: Deck
    #: Plain-suit ranks, weakest first; ``None``: the deck's index order.
    plain_order: Sequence[str] | None = None
    #: The ranks of a suit while it is the top trump tier; ``None``: plain order.
    trump_order: Sequence[str] | None = None
    #: Card points by rank; ranks not named score 0.
    plain_points: Mapping[str, int] = field(default_factory=dict)
    #: Card points by rank in the top trump tier; ``None``: as plain.
    trump_points: Mapping[str, int] | None = None
    #: Card points of cards outside the suits, by name.
    extra_points: Mapping[str, int] = field(default_factory=dict)
    #: Points for winning the last trick of a deal.
    last_trick: int = 0
    excuse: str | None = None

    def __post_init__(self) -> None:
        ranks = set(self.deck.ranks or self.deck.suit_ranks[0])
        for name, order in (("plain", self.plain_order), ("trump", self.trump_order)):
            if order is not None and (
                sorted(order) != sorted(ranks) or len(order) != len(ranks)
            ):
                raise ValueError(
                    f"{name} rank order {''.join(order)!r} is not a permutation of "
                    f"the ranks {' '.join(sorted(ranks))} of the {self.deck.name}"
                )
        if self.excuse is not None:
            self.deck.parse(self.excuse)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    @cached_property
    def excuse_mask(self) -> CardMask:
        """The mask of the excuse's copies (0 when the deck has none)."""
        if self.excuse is None:
            return 0
        deck = self.deck
        return deck.face_masks[deck.face_of(deck.index[self.excuse])]

    @cached_property
    def suit_names(self) -> tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]:
        """Per suit ``(shift, table)``: ``table[mask >> shift]`` names a mask of
        that suit's cards (distinct names, deck order). Suits of more than 13
        cards get an empty table (and are named by the deck)."""
        deck = self.deck
        out = []
        for suit_mask in deck.suit_masks:
            shift = (suit_mask & -suit_mask).bit_length() - 1
            width = suit_mask.bit_length() - shift
            cards = deck.cards[shift : shift + width]
            table = (
                tuple(
                    tuple(dict.fromkeys(cards[r] for r in range(width) if b >> r & 1))
                    for b in range(1 << width)
                )
                if width <= 13
                else ()
            )
            out.append((shift, table))
        return tuple(out)

    @cached_property
    def seat_cards(self) -> tuple[tuple[tuple[tuple[int, str]], ...], ...]:
        """``seat_cards[seat][card]``: the 1-tuple ``((seat, name),)`` a trick's
        view grows by (for up to 10 seats)."""
        names = self.deck.cards
        return tuple(tuple(((s, name),) for name in names) for s in range(10))

    def names(self, mask: CardMask) -> tuple[str, ...]:
        """The distinct card names of ``mask`` in deck order."""
        deck = self.deck
        if mask:
            suit = deck.suit_index[(mask & -mask).bit_length() - 1]
            if suit >= 0 and not mask & ~deck.suit_masks[suit]:
                shift, table = self.suit_names[suit]
                if table:
                    return table[mask >> shift]
        names = deck.names(mask)
        return names if deck.copies == 1 else tuple(dict.fromkeys(names))

    def tables(self, *tiers: int) -> TrickTables:
        """The tables when the suits ``tiers`` are trumps, highest tier first.

        ``tables()`` is a game without trumps, ``tables(2)`` hearts trump,
        ``tables(4, 3)`` La Rigueur's tarot trumps above spades.
        """
        return _tables(self, tiers)

    def strength(self, card: int, tiers: Sequence[int]) -> int:
        """The rank strength of ``card`` within its suit (higher beats lower)."""
        deck = self.deck
        suit = deck.suit_index[card]
        if suit < 0:
            return 0
        ranks = deck.suit_ranks[suit]
        rank = ranks[deck.rank_index[card]]
        plain = self.plain_order
        if plain is not None and set(ranks) == set(plain):
            order = (
                self.trump_order
                if tiers and suit == tiers[0] and self.trump_order is not None
                else plain
            )
            return list(order).index(rank)
        return deck.rank_index[card]

    def card_points(self, card: int, tiers: Sequence[int]) -> int:
        """The card points of ``card`` when ``tiers`` are trumps."""
        deck = self.deck
        suit = deck.suit_index[card]
        if suit < 0:
            return self.extra_points.get(deck.cards[card], 0)
        rank = deck.suit_ranks[suit][deck.rank_index[card]]
        if tiers and suit == tiers[0] and self.trump_points is not None:
            return self.trump_points.get(rank, 0)
        return self.plain_points.get(rank, 0)


@cache
def _tables(rules: TrickRules, tiers: tuple[int, ...]) -> TrickTables:
    deck = rules.deck
    n = len(deck)
    excuse = rules.excuse_mask
    tier_of = {suit: len(tiers) - i for i, suit in enumerate(tiers)}  # plain: 0
    above = []
    for s in range(len(deck.suits)):
        level = tier_of.get(s, 0)
        above.append(
            sum(
                (deck.suit_masks[t] for t in tiers if tier_of[t] > level),
                start=0,
            )
        )
    strength = [rules.strength(c, tiers) for c in range(n)]
    beats = []
    for b in range(n):
        suit = deck.suit_index[b]
        if suit < 0:
            # A led excuse is beaten by any card, which then sets the suit.
            beats.append(deck.full & ~excuse if excuse >> b & 1 else 0)
            continue
        higher = above[suit]
        for c in iter_bits(deck.suit_masks[suit]):
            if strength[c] > strength[b]:
                higher |= 1 << c
        beats.append(higher)
    return TrickTables(
        beats=tuple(beats),
        points=tuple(rules.card_points(c, tiers) for c in range(n)),
        trumps=sum((deck.suit_masks[t] for t in tiers), start=0),
        above=tuple(above),
        tiers=tiers,
    )


def trick_winner(cards: Sequence[int], beats: Sequence[CardMask]) -> int:
    """The position in ``cards`` (play order, leader first) of the winning card."""
    best = 0
    for i in range(1, len(cards)):
        if beats[cards[best]] >> cards[i] & 1:
            best = i
    return best


def legal_cards(
    hand: CardMask,
    led: CardMask,
    top: CardMask,
    above: CardMask,
    duties: Duties,
    *,
    trump_led: bool = False,
    partner_wins: bool = False,
    excuse: CardMask = 0,
) -> CardMask:
    """The cards of ``hand`` that may be played to the trick.

    :param led: the mask of the whole suit led, or 0 when this card leads (or
        only the excuse was led).
    :param top: ``beats[best]`` for the best card of the trick so far.
    :param above: the cards of the tiers above the suit led (its trumps).
    :param trump_led: the suit led is a trump tier (following must over-trump).
    :param partner_wins: the player's partner holds the best card so far.
    :param excuse: the excuse's mask; it may always be played.
    """
    if not led or not duties.must_follow:
        return hand
    free = hand & excuse
    follow = hand & led
    if follow:
        if duties.must_beat or (trump_led and duties.must_overtrump):
            follow = (follow & top) or follow
        return follow | free
    higher = hand & above
    if not higher or not duties.must_trump:
        return hand
    over = higher & top
    undertrump = duties.undertrump
    if partner_wins and duties.partner_exempt:
        if undertrump is Undertrump.FORBIDDEN:
            return (hand & ~(higher & ~over)) or hand
        return hand
    if not duties.must_overtrump:
        return higher | free
    if over:
        return over | free
    if undertrump is Undertrump.MUST:
        return higher | free
    if undertrump is Undertrump.ALLOWED:
        return hand
    return (hand & ~higher) or higher


def reveal(
    leader: int,
    cards: Sequence[int],
    tables: TrickTables,
    duties: Duties,
    deck: Deck,
    forbidden: list[CardMask],
    *,
    teams: Sequence[int] | None = None,
    excuse: CardMask = 0,
    seats: Sequence[int] | None = None,
) -> int:
    """Add to ``forbidden[seat]`` the cards one trick proves ``seat`` lacks.

    The exact inverse of :func:`legal_cards` where it is simple, and weaker
    (never wrong) where it is not: a seat that did not follow lacks the suit
    led; one that also did not trump lacks every trump (or, when it may
    under-trump or discard instead, every trump that would have beaten the
    trick); one that followed or trumped without beating the trick when it had
    to lacks every card that would have. Nothing is learnt from the excuse, nor
    of trumps while the partner wins under :attr:`Duties.partner_exempt`.

    :param cards: the trick in play order, leader first (it may be unfinished).
    :param forbidden: one mask per seat, updated in place; seats follow
        ``leader`` in order modulo ``len(forbidden)``.
    :param teams: the team of each seat (needed for ``partner_exempt``).
    :param seats: the seat that played each card, when some seats sit the deal
        out (a dealer who sits out, an eliminated player); default: ``leader``
        and the seats after it.
    :returns: the position in ``cards`` of the best card (-1: only the excuse).
    """
    n = len(forbidden)
    beats = tables.beats
    best = -1 if excuse >> cards[0] & 1 else 0
    led_suit = deck.suit_index[cards[0]] if best == 0 else -1
    for i in range(1, len(cards)):
        seat, card = (leader + i) % n if seats is None else seats[i], cards[i]
        if best < 0:  # the excuse led: this card leads in its place
            best, led_suit = i, deck.suit_index[card]
            continue
        if excuse >> card & 1:
            continue
        top = beats[cards[best]]
        beat = bool(top >> card & 1)
        if duties.must_follow:
            led = deck.suit_masks[led_suit]
            above = tables.above[led_suit]
            suit = deck.suit_index[card]
            exempt = (
                duties.partner_exempt
                and teams is not None
                and teams[(leader + best) % n if seats is None else seats[best]]
                == teams[seat]
            )
            if suit == led_suit:
                trump_led = bool(led & tables.trumps)
                if not beat and (
                    duties.must_beat or (trump_led and duties.must_overtrump)
                ):
                    forbidden[seat] |= top & led
            else:
                forbidden[seat] |= led
                if duties.must_trump and not exempt:
                    _reveal_void(forbidden, seat, card, top, above, beat, duties, deck)
        if beat:
            best = i
    return best


def _reveal_void(
    forbidden: list[CardMask],
    seat: int,
    card: int,
    top: CardMask,
    above: CardMask,
    beat: bool,
    duties: Duties,
    deck: Deck,
) -> None:
    """What a card played by a seat void in the suit led proves it lacks."""
    if above >> card & 1:  # trumped
        if duties.must_overtrump and not beat:
            forbidden[seat] |= top & above
            if duties.undertrump is Undertrump.FORBIDDEN:
                forbidden[seat] |= deck.full & ~above
    elif duties.must_overtrump and duties.undertrump is not Undertrump.MUST:
        forbidden[seat] |= top & above
    else:
        forbidden[seat] |= above


# -- the card-play half of a State ------------------------------------------------


def _lead_table(
    tables: TrickTables, duties: Duties, rules: TrickRules
) -> tuple[Lead, ...]:
    """The :data:`Lead` of every card (cached on ``tables``, by duties)."""
    known = tables.leads.get(id(duties))
    if known is not None and known[0] is duties:
        return known[1]
    leads = _leads(tables, duties, rules)
    tables.leads[id(duties)] = (duties, leads)
    return leads


def _leads(tables: TrickTables, duties: Duties, rules: TrickRules) -> tuple[Lead, ...]:
    deck = rules.deck
    simple = (
        duties.must_trump
        and duties.must_overtrump
        and duties.undertrump is Undertrump.MUST
        and not duties.partner_exempt
    )
    out: list[Lead] = []
    for card in range(len(deck)):
        suit = deck.suit_index[card]
        if suit < 0:  # the excuse: the next card sets the suit
            out.append((-1, 0, 0, False, -2, 0, 0, ()))
            continue
        led = deck.suit_masks[suit]
        beat = duties.must_beat or bool(led & tables.trumps and duties.must_overtrump)
        above = tables.above[suit]
        void_suit = -2
        if not above or not duties.must_trump:
            void_suit = -1
        elif simple and above in deck.suit_masks:
            void_suit = deck.suit_masks.index(above)
        shift, table = rules.suit_names[suit]
        if rules.excuse is not None:
            table = ()
        follow = led if duties.must_follow else 0
        out.append((suit, led, follow, beat, void_suit, above, shift, table))
    return tuple(out)


# A native class in a compiled build (its attributes in fixed slots, no
# __dict__): games and plugins written in Python subclass it, and clone()
# copies its attributes by name there (_copy_fields).
@mypyc_attr(allow_interpreted_subclasses=True)
class TrickState(State):
    """The card-play half of a trick game's State; games subclass it.

    The engine keeps :attr:`hands`, the trick on the table and the finished
    tricks of the current deal, and answers :meth:`legal_actions` and
    :meth:`apply` while cards are played. A subclass:

    - calls :meth:`_use_rules` when it builds a State and
      :meth:`_reset_tricks` when it deals;
    - calls :meth:`_begin_tricks` with the trump tables, the duties and the
      leader when the play of a deal starts (and writes its bidding, if any, in
      :meth:`_other_actions` and :meth:`_apply_other`);
    - may override :meth:`_trick_complete` to score or draw after a trick,
      calling :meth:`_close_trick` itself, and writes :meth:`_tricks_done`,
      which scores the deal when the hands are empty.

    Card actions are card names; with a multi-copy deck a name plays the
    holder's lowest copy of that card.
    """

    #: How cards rank and score (set by the subclass, per class or per state).
    rules: TrickRules
    #: The cards in each seat's hand.
    hands: list[CardMask]
    #: The team of each seat (``Game.teams``), for partner-aware duties.
    teams: tuple[int, ...]

    # The hot path's tables, read from the rules by _reset_tricks.
    _card_index: dict[str, int]
    _card_names: tuple[str, ...]
    _next_seat: tuple[int, ...]
    #: Cards in a full trick: the seat count, unless some seats sit a deal out
    #: (then the game sets it with :attr:`_next_seat` skipping them).
    _trick_size: int
    _names: Callable[[CardMask], tuple[str, ...]]
    _seat_cards: tuple[tuple[tuple[tuple[int, str]], ...], ...]
    _suit_names: tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]
    _excuse: CardMask
    _multi_copy: bool

    #: Whether card play is on (else :meth:`_other_actions` answers).
    _playing: bool
    #: Whether the match has ended (:meth:`_end_match`).
    _over: bool = False
    _tables: TrickTables
    _duties: Duties
    _beats: tuple[CardMask, ...]
    _leads: tuple[Lead, ...]
    # The trick on the table: card indices in play order; the view's version of
    # it (``(seat, name)`` pairs); its leader; the seat of its best card; the
    # cards that would beat that card; the suit led and its mask (-1 and 0
    # while only the excuse lies); the mask a hand must follow (0 when it need
    # not); whether following must beat the best card.
    _trick: list[int]
    _trick_view: tuple[tuple[int, str], ...]
    _leader: int
    _winner: int
    _top: CardMask
    _led_suit: int
    _led: CardMask
    _follow: CardMask
    _strict: bool
    _void_suit: int
    _void_mask: CardMask
    _follow_shift: int
    _follow_names: tuple[tuple[str, ...], ...]
    #: This deal's finished tricks, as views show them.
    _tricks: tuple[TrickRecord, ...]
    # The legal actions of the seat to act, computed when first asked for and
    # dropped by every action; while cards are played, also their mask (else -1).
    _legal: tuple[str, ...] | None
    _legal_mask: CardMask

    # -- set-up, for subclasses ---------------------------------------------------

    def _use_rules(self, rules: TrickRules, n_seats: int) -> None:
        """Play by ``rules`` with ``n_seats``: once per State (after setting
        :attr:`game`), before dealing.

        It copies from the rules the tables the hot path reads into the state
        itself (an instance's attributes are read faster than its class's).
        """
        self.rules = rules
        self._card_index = rules.deck.index
        self._card_names = rules.deck.cards
        self._names = rules.names if rules.deck.copies > 1 else rules.deck.names
        self._seat_cards = rules.seat_cards
        self._suit_names = rules.suit_names
        self._excuse = rules.excuse_mask
        self._multi_copy = rules.deck.copies > 1
        self._next_seat = (*range(1, n_seats), 0)
        self._trick_size = n_seats
        self.teams = self.game.teams(n_seats)
        # Set before any deal's play begins, so that every attribute exists
        # from the start (a native clone copies each one by name).
        self._tables = tables = rules.tables()
        self._beats = tables.beats
        self._duties = ROTTERDAM
        self._leads = ()
        # What a card that leads sets (apply) and what the first card needs.
        self._leader = self._winner = 0
        self._top = 0
        self._led_suit = -1
        self._strict = False
        self._void_suit, self._void_mask = -2, 0
        self._follow_shift, self._follow_names = 0, ()
        self._reset_tricks(n_seats)

    def _reset_tricks(self, n_seats: int) -> None:
        """Empty hands and table: the engine's part of a new deal. (What a
        trick's first card sets up is left alone: nothing reads it before.)"""
        self.hands = [0] * n_seats
        self._playing = False
        self._trick = []
        self._trick_view = ()
        self._led = self._follow = 0
        self._tricks = ()
        self._legal = None
        self._legal_mask = -1

    def _begin_tricks(self, tables: TrickTables, duties: Duties, leader: int) -> None:
        """Start card play: ``leader`` leads the first trick."""
        self._tables = tables
        self._beats = tables.beats
        self._duties = duties
        self._leads = _lead_table(tables, duties, self.rules)
        self._legal = None
        self._playing = True
        self.to_act = leader

    def _end_match(self) -> None:
        """The match is over: no one is to act and no action is legal."""
        self._over = True
        self._playing = False
        self._legal = None
        self.to_act = None

    def is_over(self) -> bool:
        """True once :meth:`_end_match` has ended the match."""
        return self._over

    def _set_duties(self, duties: Duties) -> None:
        """Play under ``duties`` from the next trick on (the Bezique games' last
        phase); a trick on the table keeps the duties it was led under."""
        self._duties = duties
        self._leads = _lead_table(self._tables, duties, self.rules)
        self._legal = None

    # -- hooks ----------------------------------------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        """The legal actions while no card is played (bidding, ...); ``()``: over."""
        return ()

    def _apply_other(self, action: str) -> None:
        """Apply an action while no card is played."""
        raise IllegalActionError(f"the match is over; {action!r} comes too late")

    def _trick_complete(self) -> None:
        """Called when every seat has played to the trick; the default closes
        it and, if the hands are empty, calls :meth:`_tricks_done`."""
        self._close_trick()
        if self.hands[self._leader]:
            self.to_act = self._winner
        else:
            self._tricks_done()

    def _apply_extra(self, action: str) -> None:
        """Apply a move that is not a card while cards are played (a game's
        declaration, say); the default rejects it. Overriding this instead of
        :meth:`apply` keeps a card's play one call."""
        self._bad_action(action)

    def _tricks_done(self) -> None:
        """The last trick of the deal is closed: score the deal."""
        raise NotImplementedError

    # -- the contract ---------------------------------------------------------------

    def legal_actions(self) -> tuple[str, ...]:
        """While cards are played: the cards the seat to act may play, in deck
        order; otherwise :meth:`_other_actions`. Cached until the next action."""
        legal = self._legal
        if legal is not None:
            return legal
        if not self._playing:
            self._legal_mask = -1
            legal = self._legal = self._other_actions()
            return legal
        hand = self.hands[self.to_act]  # type: ignore[index]
        follow = self._follow
        if follow:
            mask = hand & follow
            if mask:
                # Following suit, the commonest case: one look-up names it.
                if self._strict:
                    mask = (mask & self._top) or mask
                table = self._follow_names
                if table:
                    self._legal_mask = mask
                    legal = self._legal = table[mask >> self._follow_shift]
                    return legal
                mask = self._constrained(hand)
            else:
                void = self._void_suit
                if void >= 0 and not hand & self._excuse:
                    # Void under the commonest duties: (over-)trump if possible.
                    trumps = hand & self._void_mask
                    if trumps:
                        mask = (trumps & self._top) or trumps
                        shift, table = self._suit_names[void]
                        if table:
                            self._legal_mask = mask
                            legal = self._legal = table[mask >> shift]
                            return legal
                    else:  # no trump: any card
                        self._legal_mask = hand
                        legal = self._legal = self._names(hand)
                        return legal
                elif void == -1 and not hand & self._excuse:
                    self._legal_mask = hand
                    legal = self._legal = self._names(hand)
                    return legal
                else:
                    mask = self._constrained(hand)
        else:
            self._legal_mask = hand
            legal = self._legal = self._names(hand)
            return legal
        self._legal_mask = mask
        legal = self._legal = self.rules.names(mask)
        return legal

    def _constrained(self, hand: CardMask) -> CardMask:
        """The legal cards of ``hand`` under the duties, when it must follow."""
        seat = self.to_act
        assert seat is not None
        tables, duties = self._tables, self._duties
        return legal_cards(
            hand,
            self._led,
            self._top,
            tables.above[self._led_suit],
            duties,
            trump_led=bool(self._led & tables.trumps),
            partner_wins=duties.partner_exempt
            and self._winner != seat
            and self.teams[self._winner] == self.teams[seat],
            excuse=self._excuse,
        )

    def apply(self, action: str) -> None:
        """Play ``action`` for the seat to act: a card, or a move of another phase."""
        if not self._playing:
            self._apply_other(action)
            return
        card = self._card_index.get(action)
        if card is None:
            self._apply_extra(action)
            return
        if self._legal is None:
            self.legal_actions()  # computes _legal_mask
        if not self._legal_mask >> card & 1:
            card = self._other_copy(action, card)
        # Play the card (written here rather than in a method of its own: a
        # call costs as much as a few of these lines).
        seat: int = self.to_act  # type: ignore[assignment]
        self.hands[seat] ^= 1 << card
        trick = self._trick
        trick.append(card)
        self._trick_view += self._seat_cards[seat][card]
        self._legal = None
        n = len(trick)
        if n == 1:
            self._leader = self._winner = seat
            self._top = self._beats[card]
            (
                self._led_suit,
                self._led,
                self._follow,
                self._strict,
                self._void_suit,
                self._void_mask,
                self._follow_shift,
                self._follow_names,
            ) = self._leads[card]
        elif self._top >> card & 1:
            self._winner = seat
            self._top = self._beats[card]
            if not self._led:  # the excuse led; this card sets the suit
                self._set_lead(self._leads[card])
        if n < self._trick_size:
            self.to_act = self._next_seat[seat]
        else:
            self._trick_complete()

    def _set_lead(self, lead: Lead) -> None:
        """Set up the trick for the suit a card led (as :meth:`apply` does inline)."""
        (
            self._led_suit,
            self._led,
            self._follow,
            self._strict,
            self._void_suit,
            self._void_mask,
            self._follow_shift,
            self._follow_names,
        ) = lead

    def _other_copy(self, action: str, card: int) -> int:
        """A legal copy of the card ``action`` names; raise if there is none."""
        if self._multi_copy:
            deck = self.rules.deck
            held = self._legal_mask & deck.face_masks[deck.face_of(card)]
            if held:
                return (held & -held).bit_length() - 1
        raise IllegalActionError(
            f"seat {self.to_act} may not play {action!r} now; legal: "
            f"{', '.join(self.legal_actions())}"
        )

    def _close_trick(self, bonus: int = 0) -> TrickRecord:
        """Record the trick on the table as won by its best card's seat and
        clear the table; ``bonus`` is the game's own score of the trick (roem).

        The last trick of a deal (the leader's hand is empty: every seat holds
        as many cards as the others) earns :attr:`TrickRules.last_trick`.
        """
        trick = self._trick
        points_of = self._tables.points
        names = self._card_names
        if len(trick) == 4:  # the commonest table, written out
            a, b, c, d = trick
            points = points_of[a] + points_of[b] + points_of[c] + points_of[d]
            cards: tuple[str, ...] = (names[a], names[b], names[c], names[d])
        elif len(trick) == 2:  # two players (belote, klapper, bezique)
            a, b = trick
            points = points_of[a] + points_of[b]
            cards = (names[a], names[b])
        else:
            points = sum([points_of[card] for card in trick])
            cards = tuple([names[card] for card in trick])
        if not self.hands[self._leader]:
            points += self.rules.last_trick
        record = (self._leader, cards, self._winner, points, bonus)
        self._tricks = (*self._tricks, record)
        self._trick = []
        self._trick_view = ()
        self._led = self._follow = 0
        return record

    def _bad_action(self, action: object) -> NoReturn:
        if not isinstance(action, str):
            raise InvalidActionError(f"an action is a string, not {action!r}")
        raise InvalidActionError(
            f"{action!r} is not a card of the {self.rules.deck.name}; legal now: "
            f"{', '.join(self.legal_actions())}"
        )

    def trick_in_play(self) -> TrickInPlay | None:
        """The trick on the table and the legal cards while cards are played
        and the seat to act has a card to play; else None (a bid, a
        declaration, the deal's end)."""
        if not self._playing or self.to_act is None:
            return None
        if self._legal is None:
            self.legal_actions()  # computes _legal_mask
        if self._legal_mask <= 0:
            return None
        return TrickInPlay(
            self._legal_mask,
            tuple(self._trick),
            self._winner,
            self._top,
            self._trick_size,
            self._tables.points,
            self._card_names,
        )

    # -- the rest of the contract -----------------------------------------------------

    def search_key_extra(self) -> tuple[object, ...]:
        """What a position's deal value depends on beyond the hands, the trick
        on the table, who acts and the tricks won: points scored outside the
        tricks (a game's roem or pending declarations). A search's
        transposition table (``bots/pimc.py``) keys positions by it, so a game
        that scores outside the tricks names that here; none by default."""
        return ()

    def clone(self) -> Self:
        """An independent copy: the hands and the trick copied, the rest shared
        (a subclass copies its own mutable attributes after calling this).

        In pure Python every attribute is in ``__dict__``, and one update
        copies them; in a compiled build the native classes' attributes are
        slots, copied by :meth:`_copy_fields`, and only an interpreted
        subclass's own attributes are in ``__dict__``.
        """
        if _NATIVE:
            twin = type(self).__new__(type(self))
            self._copy_fields(twin)
            extra = getattr(self, "__dict__", None)
            if extra:  # a fresh native instance has no dict to update yet
                for name, value in extra.items():
                    setattr(twin, name, value)
        else:
            twin = object.__new__(type(self))
            twin.__dict__.update(self.__dict__)
        twin.hands = self.hands[:]
        twin._trick = self._trick[:]
        return twin

    def _copy_fields(self, twin: Self) -> None:
        """Set on ``twin`` every attribute of :class:`State` and of this class,
        by name (a compiled build's :meth:`clone`). A native subclass that adds
        attributes extends it; ``tests/games/test_clone_fields.py`` fails when
        an attribute is left out."""
        twin.game = self.game
        twin.n_seats = self.n_seats
        twin.to_act = self.to_act
        twin.deal = self.deal
        twin.halt_after_deal = self.halt_after_deal
        twin.rules = self.rules
        twin.hands = self.hands
        twin.teams = self.teams
        twin._card_index = self._card_index
        twin._card_names = self._card_names
        twin._next_seat = self._next_seat
        twin._trick_size = self._trick_size
        twin._names = self._names
        twin._seat_cards = self._seat_cards
        twin._suit_names = self._suit_names
        twin._excuse = self._excuse
        twin._multi_copy = self._multi_copy
        twin._playing = self._playing
        twin._over = self._over
        twin._tables = self._tables
        twin._duties = self._duties
        twin._beats = self._beats
        twin._leads = self._leads
        twin._trick = self._trick
        twin._trick_view = self._trick_view
        twin._leader = self._leader
        twin._winner = self._winner
        twin._top = self._top
        twin._led_suit = self._led_suit
        twin._led = self._led
        twin._follow = self._follow
        twin._strict = self._strict
        twin._void_suit = self._void_suit
        twin._void_mask = self._void_mask
        twin._follow_shift = self._follow_shift
        twin._follow_names = self._follow_names
        twin._tricks = self._tricks
        twin._legal = self._legal
        twin._legal_mask = self._legal_mask

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Every card by place: ``hand:<seat>``, ``trick`` (play order) and
        ``won:<team>`` (this deal's finished tricks); a game with more places
        (a stock, a skat) adds them."""
        names = self.rules.deck.names
        places = {f"hand:{s}": names(hand) for s, hand in enumerate(self.hands)}
        places["trick"] = tuple(self.rules.deck.cards[c] for c in self._trick)
        won: dict[int, CardMask] = dict.fromkeys(sorted(set(self.teams)), 0)
        for seat, mask in enumerate(self.won_cards()):
            won[self.teams[seat]] |= mask
        places.update((f"won:{team}", names(mask)) for team, mask in won.items())
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other seats' hands; the trick and the won cards are open."""
        return frozenset(f"hand:{s}" for s in range(self.n_seats) if s != seat)

    # -- what the tricks show ------------------------------------------------------

    def _restore_tricks(
        self,
        tables: TrickTables,
        duties: Duties,
        tricks: Sequence[TrickRecord],
        trick: Sequence[tuple[int, str]],
    ) -> PublicTricks:
        """Set the card play from what a view shows (for sampling): the finished
        tricks of the deal and the trick on the table; return what they reveal.

        In a multi-copy deck the copies of a card are interchangeable: the
        cards shown take the lowest copies free (:meth:`Deck.take`), so the
        hidden cards are every copy not in ``PublicTricks.seen``.
        """
        deck = self.rules.deck
        n = self.n_seats
        self._tables, self._beats = tables, tables.beats
        self._set_duties(duties)
        self._tricks = tuple(tricks)
        self._trick_view = tuple(trick)
        public = PublicTricks([0] * n, [0] * n, 0)
        forbidden, excuse, teams = public.forbidden, self._excuse, self.teams
        for record in tricks:
            leader, names = record[0], record[1]
            assert isinstance(leader, int) and isinstance(names, tuple)
            cards = deck.take(names, public.seen)
            seats = self._trick_seats(leader, len(cards))
            reveal(leader, cards, tables, duties, deck, forbidden, teams=teams,
                   excuse=excuse, seats=seats)  # fmt: skip
            public.count(leader, cards, seats)
        cards = deck.take([c for _, c in trick], public.seen)
        self._trick = cards
        self._led = self._follow = 0
        if cards:
            leader = trick[0][0]
            seats = self._trick_seats(leader, len(cards))
            best = reveal(leader, cards, tables, duties, deck, forbidden, teams=teams,
                          excuse=excuse, seats=seats)  # fmt: skip
            public.count(leader, cards, seats)
            self._leader = leader
            # The first card sets the suit, or the second when the excuse led.
            first = cards[1] if best > 0 and excuse >> cards[0] & 1 else cards[0]
            self._set_lead(self._leads[first])
            self._winner = (
                (leader + max(best, 0)) % n if seats is None else seats[max(best, 0)]
            )
            self._top = tables.beats[cards[max(best, 0)]]
        return public

    def _trick_seats(self, leader: int, k: int) -> list[int] | None:
        """The seats that play the first ``k`` cards of a trick ``leader``
        leads, when some seats sit the deal out; ``None`` when all play."""
        if self._trick_size == self.n_seats:
            return None
        seats = [leader]
        for _ in range(k - 1):
            seats.append(self._next_seat[seats[-1]])
        return seats

    def won_cards(self) -> list[CardMask]:
        """The cards each seat has won in this deal's finished tricks."""
        names: list[list[str]] = [[] for _ in range(self.n_seats)]
        for record in self._tricks:
            names[record[2]] += record[1]
        mask = self.rules.deck.mask
        return [mask(cards) for cards in names]


#: True in a mypyc build: :class:`TrickState` is then a native class, and
#: :meth:`TrickState.clone` copies attributes by name (mypyc gives native
#: classes ``__mypyc_attrs__``); in pure Python one ``__dict__`` update is
#: faster.
_NATIVE = hasattr(TrickState, "__mypyc_attrs__")
