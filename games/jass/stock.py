"""The two-player stock games of the jass family: Smousjas and Vijfhonderden.

Rule texts: ``seeds/000`` line 428 (Smousjas, the same text as 002:1)
and line 380 (Vijfhonderden). The rules as implemented and the rulings
(S1, S2, ... shared; V1, ... Vijfhonderden only) are in ``games/jass/RULES.md``.
Both games are one engine, :class:`StockState`, configured by a
:class:`StockConfig` (deal size, card points, declaration table, mariages,
last-trick bonus); ``smousjas.py`` and ``vijfhonderden.py`` hold the two
configurations and Game classes.

A hand (deal): 8 (9) cards each, the next card of the stock turned for trump
and left open beside it; the non-dealer leads. While the stock lasts any card
may be played (``FREE_PLAY``); the trick's winner draws first. The last hidden
card and the open trump are shared by the winner's choice (``draw:stock`` or
``draw:open``). Then the Rotterdam duties (follow, trump, over-trump, else
under-trump) hold for the rest of the hand.

Before playing a card the seat to act may make extra moves, one action each:
``exchange`` (the trump 7 for the open card), ``roem:QS3`` (the leader declares
a run of 3 topped by the queen of spades) or ``roem:JJJJ`` (four jacks),
``afkeuren:KH4`` (the other seat challenges the leader's declarations with a
higher one of its own) and the mariages ``stuk``, ``dubbel``, ``brok:KHQS``.
The opponent hears only the kind of a declaration (``"3Q"``: three to the
queen; ``"four"``: a carré) until the trick is complete; then the cards of
the declarations that count are shown (they stay in :attr:`StockView.known`
until played), and a challenged declaration stays hidden in the hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, ClassVar, NamedTuple, NoReturn

from games.cards import PIQUET, SUITS, CardMask, iter_bits
from games.jass.moves import card_move
from games.tricks import (
    FREE_PLAY,
    ROTTERDAM,
    TrickRecord,
    TrickRules,
    TrickState,
    TrickTables,
)
from harness import (
    ActionKind,
    Game,
    IllegalActionError,
    Option,
    Result,
    Sampler,
    View,
)
from harness.contracts.game import reject_action
from harness.contracts.seeding import deal_rng
from harness.contracts.view import new_view, pin_fields
from harness.match.narration import match_over_line, score_list

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "DECLS",
    "PLAIN_ORDER",
    "TRUMP_ORDER",
    "Decl",
    "StockConfig",
    "StockGame",
    "StockSampler",
    "StockState",
    "StockView",
    "decl_beats",
]

#: Plain suits rank A K Q J 10 9 8 7 (000:393, 000:444): weakest first here,
#: which is also the deck's index order and the order of runs.
PLAIN_ORDER = "789TJQKA"
#: Trumps rank J 9 A K Q 10 8 7 (000:393, 000:444), weakest first.
TRUMP_ORDER = "78TQKA9J"

EXCHANGE = "exchange"
ROEM = "roem:"
CHALLENGE = "afkeuren:"
STUK, DUBBEL, BROK = "stuk", "dubbel", "brok:"
DRAW_STOCK, DRAW_OPEN = "draw:stock", "draw:open"
_CARDS = PIQUET.cards
_NAMES = PIQUET.names
_N0, _N1, _N2, _N3 = PIQUET.name_chunks
_INDEX = PIQUET.index
_N = PIQUET.n_ranks  # 8 cards a suit, one byte of the mask each
_RANKS = PIQUET.ranks  # "789TJQKA"
_SET = object.__setattr__
_BIT = tuple(1 << c for c in range(32))
#: ``_PAIRS[a][b]``: the names of a two-card trick, without a new tuple.
_PAIRS = tuple(tuple((_CARDS[a], _CARDS[b]) for b in range(32)) for a in range(32))
#: ``_SIZES[a][b]`` is ``(a, b)``: the view's hand sizes without a new tuple.
_SIZES = tuple(tuple((a, b) for b in range(33)) for a in range(33))
_RANK_WORDS = dict(zip(_RANKS, ("7", "8", "9", "10", "jack", "queen", "king", "ace"),
                       strict=True))  # fmt: skip


class Decl(NamedTuple):
    """One declaration a hand can hold: a run (sub-runs included) or a carré."""

    #: The action's tail: ``"QS3"`` (3 cards topped by the QS) or ``"JJJJ"``.
    code: str
    #: What the opponent hears: ``"3Q"`` or ``"four"``.
    kind: str
    cards: CardMask
    #: Cards in it, and its top card's rank (0 = 7 ... 7 = ace) in run order.
    length: int
    top: int
    #: The run's suit; -1 for a carré.
    suit: int


def _catalogue() -> tuple[Decl, ...]:
    decls = []
    for r, rank in enumerate(_RANKS):
        cards = sum(1 << (s * _N + r) for s in range(4))
        decls.append(Decl(rank * 4, "four", cards, 4, r, -1))
    for s, suit in enumerate(SUITS):
        for length in range(3, _N + 1):
            for low in range(_N - length + 1):
                top = low + length - 1
                cards = ((1 << length) - 1) << (s * _N + low)
                code = f"{_RANKS[top]}{suit}{length}"
                decls.append(
                    Decl(code, f"{length}{_RANKS[top]}", cards, length, top, s)
                )
    return tuple(decls)


#: Every declaration of the piquet pack: 8 carrés, then 21 runs per suit.
DECLS = _catalogue()
_BY_CODE = {d.code: i for i, d in enumerate(DECLS)}
_FOURS = tuple(range(8))
#: Each declaration's ``(length, top)``, what the floor of a suit compares.
_RUN_KEY = tuple((d.length, d.top) for d in DECLS)
#: ``_RUNS_IN[suit][byte]``: the runs (catalogue indices) inside that suit byte.
_RUNS_IN = tuple(
    tuple(
        tuple(
            i
            for i, d in enumerate(DECLS)
            if d.suit == s and (d.cards >> (s * _N)) & byte == d.cards >> (s * _N)
        )
        for byte in range(256)
    )
    for s in range(4)
)

#: The bits ``b`` whose ``b + 1`` and ``b + 2`` lie in the same suit's byte:
#: ``hand & hand >> 1 & hand >> 2 & _RUN_STARTS`` holds a run of 3 or more.
_RUN_STARTS = 0x3F3F3F3F
_KINGS = sum(1 << PIQUET.index["K" + t] for t in SUITS)
_QUEENS = sum(1 << PIQUET.index["Q" + t] for t in SUITS)
_KINGS_QUEENS = _KINGS | _QUEENS
_SEVENS = tuple(1 << PIQUET.index["7" + t] for t in SUITS)
_STUK_MASKS = tuple(
    1 << PIQUET.index["K" + t] | 1 << PIQUET.index["Q" + t] for t in SUITS
)
_DUBBEL = 1 << PIQUET.index["QD"] | 1 << PIQUET.index["QS"]
#: The broks: a king and a queen of different colours, ``(cards, action)``.
_BROKS = tuple(
    (1 << PIQUET.index["K" + k] | 1 << PIQUET.index["Q" + q], f"brok:K{k}Q{q}")
    for k in SUITS
    for q in SUITS
    if (k in "DH") != (q in "DH")
)


def _may_declare(hand: CardMask) -> bool:
    """Whether ``hand`` holds a run of 3 or more or a rank in all four suits."""
    return bool(
        hand & (hand >> 1) & (hand >> 2) & _RUN_STARTS
        or hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 255
    )


def decl_beats(mine: Decl, kind: str, possible_four_tops: int, trump: int) -> bool:
    """Whether declaration ``mine`` surely beats one announced as ``kind`` (S7).

    More cards beat fewer; then the higher top card in run order; an exact tie
    goes to trump, else to the leader (000:410). A run's kind names its length
    and top; a carré's only that it is one, so ``mine`` must beat every carré
    still possible, whose highest top is ``possible_four_tops``.
    """
    if kind == "four":
        length, top = 4, possible_four_tops
        if mine.length != length:
            return mine.length > length
        return mine.top > top
    length, top = int(kind[:-1]), _RANKS.index(kind[-1])
    if (mine.length, mine.top) != (length, top):
        return (mine.length, mine.top) > (length, top)
    # An exact tie: the leader's run is in another suit, so a run in trump wins.
    return mine.suit == trump


def _mariages_held(
    cfg: StockConfig, trump: int, hand: CardMask, done: AbstractSet[str], used: CardMask
) -> tuple[str, ...]:
    """The mariages ``hand`` holds, less those in ``done`` and the broks with a
    card in ``used`` (S10)."""
    out = []
    stuk = _STUK_MASKS[trump]
    if hand & stuk == stuk and STUK not in done:
        out.append(STUK)
    if cfg.dubbel and hand & _DUBBEL == _DUBBEL and DUBBEL not in done:
        out.append(DUBBEL)
    if cfg.brok:
        free = hand & ~used
        for cards, action in _BROKS:
            if free & cards == cards:
                out.append(action)
    return tuple(out)


@dataclass(frozen=True)
class StockConfig:
    """What differs between the two games (every rule else is shared)."""

    #: Cards dealt to each player and the packets they are dealt in.
    packets: tuple[int, ...]
    #: Card points by rank, plain and trump.
    plain_points: Mapping[str, int]
    trump_points: Mapping[str, int]
    #: Points of the last trick.
    last_trick: int
    #: Points of a carré by rank (a rank not listed is no declaration).
    fours: Mapping[str, int]
    #: Points of a run of 3, of 4, of 5 or more, and of 5 or more to the ace.
    runs: tuple[int, int, int, int] = (20, 50, 100, 120)
    #: Points of the mariages; 0: the game has none of that kind.
    stuk: int = 40
    dubbel: int = 0
    brok: int = 0
    rules: TrickRules = field(init=False)
    tables: tuple[TrickTables, ...] = field(init=False)
    #: Points of each catalogue declaration (0: not one in this game).
    points: tuple[int, ...] = field(init=False)
    #: The places in the shuffled pack of the non-dealer's and the dealer's
    #: cards, dealt in the packets.
    dealt_at: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False)
    #: Per trump, the mariages a hand holds by its kings and queens (none
    #: declared yet): ``mariage_table[trump][hand & kings_and_queens]``.
    mariage_table: tuple[Mapping[int, tuple[str, ...]], ...] = field(init=False)

    def __post_init__(self) -> None:
        rules = TrickRules(
            PIQUET,
            plain_order=PLAIN_ORDER,
            trump_order=TRUMP_ORDER,
            plain_points=self.plain_points,
            trump_points=self.trump_points,
            last_trick=self.last_trick,
        )
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "tables", tuple(rules.tables(t) for t in range(4)))
        points = []
        for d in DECLS:
            if d.suit < 0:
                points.append(self.fours.get(_RANKS[d.top], 0))
            elif d.length >= 5:
                points.append(self.runs[3] if d.top == 7 else self.runs[2])
            else:
                points.append(self.runs[d.length - 3])
        object.__setattr__(self, "points", tuple(points))
        places: tuple[list[int], list[int]] = ([], [])
        i = 0
        for size in self.packets:
            for seat in (0, 1):
                places[seat].extend(range(i, i + size))
                i += size
        object.__setattr__(self, "dealt_at", (tuple(places[0]), tuple(places[1])))
        # Every set of kings and queens a hand can hold, under each trump.
        subsets = [0]
        for card in iter_bits(_KINGS_QUEENS):
            subsets += [m | 1 << card for m in subsets]
        object.__setattr__(
            self,
            "mariage_table",
            tuple(
                {m: _mariages_held(self, trump, m, frozenset(), 0) for m in subsets}
                for trump in range(4)
            ),
        )

    @property
    def hand_size(self) -> int:
        return sum(self.packets)


#: The moves Smousjas and Vijfhonderden share, for their reference pages.
STOCK_MOVES = (
    card_move(),
    ActionKind(
        "exchange",
        "exchange",
        "the holder of the trump 7 takes the open card for it (S3)",
    ),
    ActionKind(
        "roem:<top card><length> | roem:<rank x4>",
        r"roem:(?:[7-9TJQKA][CDHS][3-8]|([7-9TJQKA])\1{3})",
        "announce a declaration: a run of this length topped by this card "
        "(roem:QS3), or four of a kind (roem:JJJJ) (S5, S6)",
    ),
    ActionKind(
        "afkeuren:<top card><length> | afkeuren:<rank x4>",
        r"afkeuren:(?:[7-9TJQKA][CDHS][3-8]|([7-9TJQKA])\1{3})",
        "challenge the leader's declarations with a higher one of your own (S7)",
    ),
    ActionKind("stuk", "stuk", "declare the trump king and queen (S10)"),
    ActionKind(
        "draw:stock | draw:open",
        "draw:(?:stock|open)",
        "with one hidden card left beside the open card, draw that one or the "
        "open card (S2)",
    ),
)


@dataclass(frozen=True)
class StockView(View):
    """What one seat knows: this hand with perfect recall, the match so far."""

    #: Index of the current hand in the match, from 0.
    deal: int
    #: The dealer's seat; the other seat leads the first trick (S1).
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``"stock"`` (phase 1), ``"draw"`` (the winner takes the last hidden
    #: card or the open trump), ``"final"`` (phase 2) or ``"over"``.
    phase: str
    #: The trump suit, the turned card's (``C D H S``).
    trump: str
    #: The open card beside the stock (the turned trump or the exchanged 7).
    open_card: str | None
    #: Hidden cards left in the stock.
    stock: int
    #: This seat's cards, in deck order (C D H S, 7 up to A).
    hand: tuple[str, ...]
    #: Cards in each seat's hand.
    hand_sizes: tuple[int, int]
    #: Per seat, the cards of its hand both players know: shown declarations
    #: and mariages, the open card taken, the last stock card (S4, S5).
    known: tuple[tuple[str, ...], tuple[str, ...]]
    #: The kinds the leader announced for this trick (``"3Q"``, ``"four"``).
    announced: tuple[str, ...]
    #: The kind of the other seat's challenge this trick, or ``None``.
    challenge: str | None
    #: The mariages declared for this trick: ``(seat, "stuk" | "dubbel" | "brok")``.
    mariages: tuple[tuple[int, str], ...]
    #: This seat's own extra actions for this trick, in full (``roem:QS3``).
    own_pending: tuple[str, ...]
    #: This hand's public events: ``(seat, what, cards shown, points)``.
    events: tuple[tuple[int, str, tuple[str, ...], int], ...]
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This hand's finished tricks: ``(leader, cards in play order, winner,
    #: card points, 0)``; the 0 is the trick engine's roem, which these games
    #: do not have (declarations are in ``events``).
    tricks: tuple[TrickRecord, ...]
    #: Declaration points scored this hand, per seat.
    roem: tuple[int, int]
    #: Each finished hand's points per seat (card points, roem, last trick).
    hand_scores: tuple[tuple[int, int], ...]
    #: The scores of the round being played (to 500).
    totals: tuple[int, int]
    #: Lives left per seat (0 for a seat that is out, S13).
    lives: tuple[int, int]
    #: The seat that got the kip's extra life, or None (also when the kip was
    #: worthless to a loser on 1 who was onder Jan, S13).
    kip: int | None
    #: Each finished round: ``(winner, lives the loser lost, "500" | "uit")``.
    rounds: tuple[tuple[int, int, str], ...]


#: The fields view() fills, in order: a changed StockView fails at import.
pin_fields(
    StockView,
    (
        "seat legal_actions deal dealer to_act phase trump open_card stock hand "
        "hand_sizes known announced challenge mariages own_pending events trick "
        "tricks roem hand_scores totals lives kip rounds"
    ),
)


_CARD_LEGAL = TrickState.legal_actions


class StockState(TrickState):
    """The referee's truth of one Smousjas or Vijfhonderden match."""

    game: StockGame
    config: StockConfig

    def __init__(self, game: StockGame, seed: int) -> None:
        self._blank(game, seed)
        self._start_deal()

    def _blank(self, game: StockGame, seed: int) -> None:
        self.game = game
        self.config = game.config
        self.n_seats = 2
        self.seed = seed
        self._target: int = game.options["target"]
        self.deal = 0
        self.dealer = 1
        self.to_act: int | None = 0
        self._use_rules(self.config.rules, 2)
        self._over = False
        self.trump = 0
        self._stock: list[int] = []
        self._open = -1
        self._phase = "stock"
        self._phase2_from = 0
        self._known = [0, 0]
        self._announced: list[int] = []
        self._challenge = -1
        self._mariages: list[tuple[int, str, CardMask]] = []
        self._own: list[list[str]] = [[], []]
        #: Whether either seat made an extra move for the trick on the table.
        self._pending = False
        self._done: list[set[int]] = [set(), set()]
        self._floor: list[list[tuple[int, int]]] = [[(0, -1)] * 4, [(0, -1)] * 4]
        self._mar_done: list[set[str]] = [set(), set()]
        self._brok_used = [0, 0]
        # The mariages by a hand's kings and queens: the game's table while
        # none has counted this hand, else a cache of this state's own.
        self._mar_table: Mapping[int, tuple[str, ...]] | None = None
        self._mar_cache: dict[int, tuple[str, ...]] = {}
        self._roem = [0, 0]
        self._events: tuple[tuple[int, str, tuple[str, ...], int], ...] = ()
        self._totals = [0, 0]
        self._lives = [game.options["lives"]] * 2
        self._kip = -1
        self._hand_scores: tuple[tuple[int, int], ...] = ()
        self._rounds: tuple[tuple[int, int, str], ...] = ()
        self._public: dict[str, object] | None = None
        #: The card actions of the last legal_actions (for the view's hand).
        self._card_actions: tuple[str, ...] = ()
        self._last_summary = ""
        self._last_tricks: tuple[TrickRecord, ...] = ()

    # -- dealing ------------------------------------------------------------

    def _start_deal(self) -> None:
        """Deal hand ``self.deal`` from ``deal_rng(seed, deal)`` alone (S1)."""
        k = self.deal
        order = PIQUET.shuffled(deal_rng(self.seed, k))
        dealer = (k + 1) % 2
        hands = [0, 0]
        elder, younger = self.config.dealt_at  # 3-2-3 (3-3-3), the non-dealer first
        hands[1 - dealer] = sum([_BIT[order[i]] for i in elder])
        hands[dealer] = sum([_BIT[order[i]] for i in younger])
        rest = order[len(elder) + len(younger) :]
        # The first card of the stock is turned; the others are drawn after it.
        self._setup(hands, rest[0], rest[:0:-1], dealer)

    def _setup(
        self, hands: list[CardMask], open_card: int, stock: list[int], dealer: int
    ) -> None:
        """Start a hand: ``stock`` is drawn from its end; the non-dealer leads."""
        self._reset_tricks(2)
        self.dealer = dealer
        self.hands = hands
        self._open = open_card
        self._stock = stock
        self.trump = PIQUET.suit_of(open_card)
        self._phase = "stock"
        self._phase2_from = (len(stock) + 1) // 2
        self._known = [0, 0]
        self._announced = []
        self._challenge = -1
        self._mariages = []
        self._own = [[], []]
        self._pending = False
        self._done = [set(), set()]
        self._floor = [[(0, -1)] * 4, [(0, -1)] * 4]
        self._mar_done = [set(), set()]
        self._brok_used = [0, 0]
        self._mar_table = self.config.mariage_table[self.trump]
        self._mar_cache = {}
        self._roem = [0, 0]
        self._events = ()
        self._public = None
        self._begin_tricks(self.config.tables[self.trump], FREE_PLAY, 1 - dealer)

    # -- the extra moves ----------------------------------------------------

    def _declarable(self, seat: int) -> list[int]:
        """The catalogue declarations ``seat`` may declare now (S6, S8)."""
        hand = self.hands[seat]
        points = self.config.points
        done, floor = self._done[seat], self._floor[seat]
        # Ranks held in all four suits: one AND of the suit bytes.
        fours = hand & 255 & (hand >> 8) & (hand >> 16) & (hand >> 24)
        found = [r for r in iter_bits(fours) if points[r]] if fours else []
        for s in range(4):
            runs = _RUNS_IN[s][hand >> (s * _N) & 255]
            if runs:
                low = floor[s]
                # No run of the suit declared yet: every run may be (S8).
                found += runs if low[0] == 0 else [i for i in runs if _RUN_KEY[i] > low]
        return [i for i in found if i not in done] if done else found

    def _possible_four_top(self, seat: int) -> int:
        """The highest rank a carré of the other seat may have, for ``seat``."""
        seen = self.hands[seat] | self._known[seat]
        for record in self._tricks:
            seen |= PIQUET.mask(record[1])
        if self._open >= 0:
            seen |= 1 << self._open
        for r in range(7, -1, -1):
            if not seen & DECLS[r].cards:
                return r
        return -1

    def _mariage_options(self, seat: int, hand: CardMask) -> tuple[str, ...]:
        """The mariages ``seat`` holds and has not declared (S10), once a
        mariage has counted this hand (before, ``legal_actions`` reads the
        game's table): cached by the hand's kings and queens until the next
        one counts."""
        key = hand & _KINGS_QUEENS | seat << 32
        found = self._mar_cache.get(key)
        if found is None:
            found = self._mar_cache[key] = _mariages_held(
                self.config, self.trump, hand, self._mar_done[seat],
                self._brok_used[seat],
            )  # fmt: skip
        return found

    def _not_pending(self, seat: int, options: tuple[str, ...]) -> tuple[str, ...]:
        """``options`` less the mariages ``seat`` declared for this trick and
        the broks sharing a card with a brok it declared for it."""
        mine = {m for s, m, _ in self._mariages if s == seat}
        out = [m for m in options if m not in mine]
        if any(m.startswith(BROK) for m in mine):
            used = 0
            for s, m, cards in self._mariages:
                if s == seat and m.startswith(BROK):
                    used |= cards
            out = [
                m
                for m in out
                if not m.startswith(BROK) or not PIQUET.mask(_brok(m)) & used
            ]
        return tuple(out)

    def _roem_options(self, seat: int) -> tuple[str, ...]:
        """The leader's declarations it may still announce (S6, S8)."""
        announced = self._announced
        suits = {DECLS[i].suit for i in announced if DECLS[i].suit >= 0}
        return tuple(
            [
                ROEM + DECLS[i].code
                for i in self._declarable(seat)
                if i not in announced and DECLS[i].suit not in suits
            ]
        )

    def _challenges(self, seat: int) -> tuple[str, ...]:
        """The declarations ``seat`` may challenge the leader's with (S7)."""
        kinds = {DECLS[i].kind for i in self._announced}
        top = self._possible_four_top(seat) if "four" in kinds else -1
        return tuple(
            [
                CHALLENGE + DECLS[i].code
                for i in self._declarable(seat)
                if all(decl_beats(DECLS[i], k, top, self.trump) for k in kinds)
            ]
        )

    def legal_actions(self) -> tuple[str, ...]:
        """Cards, then the extra moves of the seat to act (see the module doc):
        the exchange, the leader's declarations or the other's challenges, the
        mariages. Cached until the next action.

        Where any card may be played (all of phase 1, every lead) the hand's
        names are the cards, without the kit's two calls.
        """
        legal = self._legal
        if legal is not None:
            return legal
        if not self._playing:
            return _CARD_LEGAL(self)  # the draw's two choices, or none at the end
        seat: int = self.to_act  # type: ignore[assignment]
        hand = self.hands[seat]
        if self._phase == "stock" or not self._trick:
            # FREE_PLAY in phase 1, and every lead (the duties bind who
            # follows): the legal cards are the hand.
            self._legal_mask = hand
            legal = self._legal = self._card_actions = (
                _N0[hand & 255] + _N1[hand >> 8 & 255] + _N2[hand >> 16 & 255]
                + _N3[hand >> 24]
            )  # fmt: skip
        else:
            legal = self._card_actions = _CARD_LEGAL(self)
        if self._phase == "stock":
            seven = hand & _SEVENS[self.trump]
            extra: tuple[str, ...] = (
                (EXCHANGE,) if seven and not seven & self._to_show() else ()
            )
        elif len(self._tricks) != self._phase2_from:
            # Extra moves exist only in phase 1 and phase 2's first trick (S9).
            return legal
        else:
            extra = ()
        if not self._trick:
            if _may_declare(hand):  # most hands hold no run and no four
                extra += self._roem_options(seat)
        elif self._announced and self._challenge < 0:
            extra += self._challenges(seat)
        # Every mariage holds a king but the dubbel, two queens (000:466).
        if hand & _KINGS or hand & _DUBBEL == _DUBBEL:
            table = self._mar_table
            options = (
                table[hand & _KINGS_QUEENS]
                if table is not None
                else self._mariage_options(seat, hand)
            )
            if options:
                extra += self._not_pending(seat, options) if self._mariages else options
        if extra:
            legal = self._legal = legal + extra
        return legal

    def _to_show(self) -> CardMask:
        """The cards of the declaration the seat to act announced (or challenged
        with) for the trick on the table, which it must show from its hand when
        the trick is complete (000:410, 000:462; S3)."""
        cards = 0
        if not self._trick:
            for i in self._announced:
                cards |= DECLS[i].cards
        elif self._challenge >= 0:
            cards = DECLS[self._challenge].cards
        return cards

    def _apply_extra(self, action: str) -> None:
        """Make an extra move (exchange, roem, afkeuren, a mariage): the kit's
        ``apply`` hands over every action that is not a card while cards are
        played (a card's play stays one call)."""
        if not isinstance(action, str) or action not in self.legal_actions():
            self._bad_action(action)
        seat = self.to_act
        assert seat is not None
        self._legal = None
        if action == EXCHANGE:
            seven = PIQUET.index["7" + SUITS[self.trump]]
            taken = self._open
            self.hands[seat] ^= 1 << seven | 1 << taken
            self._open = seven
            self._known[seat] |= 1 << taken
            self._events += ((seat, EXCHANGE, (_CARDS[seven], _CARDS[taken]), 0),)
            self._republish(open_card=_CARDS[seven])
            return
        self._own[seat].append(action)
        self._pending = True
        if action.startswith(ROEM):
            self._announced.append(_BY_CODE[action[len(ROEM) :]])
        elif action.startswith(CHALLENGE):
            self._challenge = _BY_CODE[action[len(CHALLENGE) :]]
        else:
            cards = (
                PIQUET.mask(_brok(action))
                if action.startswith(BROK)
                else _mariage_cards(action, self.trump)
            )
            self._mariages.append((seat, action, cards))
            if action == STUK and self._totals[seat] + self._roem[seat] >= self._uit_at:
                # S14: at 480 or more, declaring stuk wins the round at once.
                self._events += ((seat, "uit", PIQUET.names(cards), 0),)
                self._last_summary = f"seat {seat} declares stuk at " + (
                    f"{self._totals[seat] + self._roem[seat]}: Uit!"
                )
                self._end_round(seat, "uit")

    @property
    def _uit_at(self) -> int:
        return self._target - 20

    # -- after a trick --------------------------------------------------------

    def _trick_complete(self) -> None:
        """Score the trick's declarations, close it, then draw or end the hand.

        The kit's ``_close_trick`` is written out here for two cards: this runs
        once every two decisions.
        """
        if self._announced or self._mariages:
            self._score_trick()
        leader = self._leader
        hands = self.hands
        a, b = self._trick
        points_of = self._tables.points
        points = points_of[a] + points_of[b]
        if not hands[leader]:
            points += self.config.last_trick
        winner = self._winner
        self._tricks += ((leader, _PAIRS[a][b], winner, points, 0),)
        self._trick = []
        self._trick_view = ()
        self._led = self._follow = 0
        self.to_act = winner
        known = self._known
        if known[0] or known[1]:
            k0, k1 = known[0] & hands[0], known[1] & hands[1]
            if k0 != known[0] or k1 != known[1]:  # a shown card was played
                known[0], known[1] = k0, k1
                self._republish()
        if self._phase == "stock":
            stock = self._stock
            if len(stock) >= 2:
                hands[winner] |= 1 << stock.pop()
                hands[1 - winner] |= 1 << stock.pop()
            else:
                # 000:416: the winner chooses between the last hidden card and
                # the open trump.
                self._phase = "draw"
                self._republish(phase="draw")
                self._playing = False
        elif not hands[winner]:
            self._finish_hand()

    def _score_trick(self) -> None:
        """The trick's declarations and mariages count and are shown (S5, S7,
        S10); a challenged declaration stays hidden."""
        leader = self._leader
        other = 1 - leader
        points = self.config.points
        events = list(self._events)
        if self._announced:
            if self._challenge >= 0:
                # S7: the challenger's declaration counts; the leader's stay hidden.
                i = self._challenge
                d = DECLS[i]
                self._score_decl(other, i)
                for j in self._announced:
                    events.append((leader, "afgekeurd:" + DECLS[j].kind, (), 0))
                events.append(
                    (other, CHALLENGE + d.code, PIQUET.names(d.cards), points[i])
                )
            else:
                for i in self._announced:
                    d = DECLS[i]
                    self._score_decl(leader, i)
                    events.append(
                        (leader, ROEM + d.code, PIQUET.names(d.cards), points[i])
                    )
        cfg = self.config
        for seat, m, cards in self._mariages:
            pts = cfg.stuk if m == STUK else cfg.dubbel if m == DUBBEL else cfg.brok
            self._roem[seat] += pts
            self._known[seat] |= cards
            self._mar_done[seat].add(m)
            self._mar_table = None
            self._mar_cache = {}
            if m.startswith(BROK):
                self._brok_used[seat] |= cards
            events.append((seat, m, PIQUET.names(cards), pts))
        self._events = tuple(events)
        self._announced = []
        self._challenge = -1
        self._mariages = []
        self._own = [[], []]
        self._pending = False
        self._republish(roem=(self._roem[0], self._roem[1]))

    def _score_decl(self, seat: int, i: int) -> None:
        d = DECLS[i]
        self._roem[seat] += self.config.points[i]
        self._done[seat].add(i)
        if d.suit >= 0:
            self._floor[seat][d.suit] = max(
                self._floor[seat][d.suit], (d.length, d.top)
            )
        self._known[seat] |= d.cards & self.hands[seat]

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        return (DRAW_STOCK, DRAW_OPEN)

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if action not in (DRAW_STOCK, DRAW_OPEN):
            self._bad_action(action)
        winner = self.to_act
        assert winner is not None
        hidden = self._stock.pop()
        mine, theirs = (hidden, self._open) if action == DRAW_STOCK else (
            self._open, hidden)  # fmt: skip
        self.hands[winner] |= 1 << mine
        self.hands[1 - winner] |= 1 << theirs
        # S4: the hidden card is shown; the open card was seen by both.
        self._known[winner] |= 1 << mine
        self._known[1 - winner] |= 1 << theirs
        self._events += (
            (winner, "takes", (_CARDS[mine],), 0),
            (1 - winner, "takes", (_CARDS[theirs],), 0),
        )
        self._open = -1
        self._phase = "final"
        self._republish(phase="final", open_card=None)
        self._set_duties(ROTTERDAM)
        self._playing = True
        self._legal = None

    def _bad_action(self, action: object) -> NoReturn:
        words = (EXCHANGE, STUK, DUBBEL, DRAW_STOCK, DRAW_OPEN)
        reject_action(
            self,
            action,
            lambda a: (
                a in PIQUET.index or a in words or a.startswith((ROEM, CHALLENGE, BROK))
            ),
            f"a {self.game.name} action: a card ('AS'), 'exchange', 'roem:QS3', "
            "'afkeuren:KH4', 'stuk', 'dubbel', 'brok:KHQS', 'draw:stock' or "
            "'draw:open'",
        )

    # -- scoring --------------------------------------------------------------

    def card_points(self) -> list[int]:
        """Card points (with the last trick) won this hand, per seat."""
        tricks = self._tricks
        second = sum([r[3] for r in tricks if r[2]])
        return [sum([r[3] for r in tricks]) - second, second]

    def _finish_hand(self) -> None:
        """000:424 / 000:480: card points, roem and last trick to the round score."""
        cards = self.card_points()
        self._public = None
        scores = (cards[0] + self._roem[0], cards[1] + self._roem[1])
        self._hand_scores += (scores,)
        self._last_tricks = self._tricks
        before = self._totals[:]
        self._totals = [before[0] + scores[0], before[1] + scores[1]]
        a, b = self._totals
        self._last_summary = (
            f"hand {self.deal}: cards {score_list(cards)}, roem "
            f"{score_list(self._roem)}: {score_list(scores)}; "
            f"round {score_list((a, b))}"
        )
        if max(a, b) >= self._target:
            if a == b:
                # S12: a tie above the target: the hand is played again.
                self._totals = before
                self._last_summary += "; a tie: the hand is played again"
            else:
                self._end_round(0 if a > b else 1, "500")
                return
        self._next_hand()

    def _end_round(self, winner: int, how: str) -> None:
        """S13: the loser loses a life, two when "onder Jan"; the one kip."""
        loser = 1 - winner
        self._public = None
        standing = self._totals[loser] + (self._roem[loser] if how == "uit" else 0)
        lost = 2 if standing < self._target // 2 else 1
        if how == "uit":
            self._hand_scores += ((self._roem[0], self._roem[1]),)
            self._last_tricks = self._tricks
        self._lives[loser] -= lost
        # S13: the kip's extra life saves a player brought to exactly 0; one on
        # 1 who is onder Jan goes two down, to -1, and the kip is worthless to
        # him ("waardeloos", 000:480): he does not get it and is out.
        if self._lives[loser] == 0 and self._kip < 0:
            self._kip = loser
            self._lives[loser] += 1
        self._rounds += ((winner, lost, how),)
        self._last_summary += (
            f"; seat {winner} wins the round"
            + ("; seat " + str(loser) + " is onder Jan" if lost == 2 else "")
            # Told as the match keeps them: a seat out has 0 lives, not -1.
            + f"; lives {score_list([max(0, v) for v in self._lives])}"
        )
        self._totals = [0, 0]
        if self._lives[loser] <= 0:
            self._lives[loser] = 0
            self._end_match()
            self._phase = "over"
            return
        self._next_hand()

    def _next_hand(self) -> None:
        self.deal += 1
        if not self.halt_after_deal:
            self._start_deal()

    def result(self) -> Result:
        """Lives left per seat rank the match; deal points are each hand's."""
        lives = (self._lives[0], self._lives[1])
        return Result.from_rank_keys(lives, lives, (0, 1), list(self._hand_scores))

    # -- views ------------------------------------------------------------------

    def view(self, seat: int) -> StockView:
        """What ``seat`` knows now (S4, S5).

        Built without the dataclass ``__init__`` (as klaverjassen's view is):
        the fields that change only with a declaration, a draw or a hand are
        kept in :attr:`_public` (replaced whenever they change), a dict of
        every field; the view's dict is its copy with the rest filled per call,
        the mostly empty ones only when they are not. (Filled in field order,
        that dict shares its keys with the views' own: a copy is one small
        block of values, where an update would grow a dict of its own.)
        """
        hands = self.hands
        to_act = self.to_act
        public = self._public
        if public is None:
            public = self._public = self._make_public()
        hand = hands[seat]
        names = None
        if seat == to_act:
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if hand == self._legal_mask:  # any card may be played
                names = self._card_actions
        else:
            legal = ()
        if names is None:  # _NAMES(hand), written out to save a call
            names = (
                _N0[hand & 255] + _N1[hand >> 8 & 255] + _N2[hand >> 16 & 255]
                + _N3[hand >> 24]
            )  # fmt: skip
        fields = public.copy()
        # Item by item: a keyword update would build a second dict per view.
        fields["seat"] = seat
        fields["legal_actions"] = legal
        fields["to_act"] = to_act
        fields["stock"] = len(self._stock)
        fields["hand"] = names
        fields["hand_sizes"] = _SIZES[hands[0].bit_count()][hands[1].bit_count()]
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        if self._trick:
            known = self._known
            if known[0] & ~hands[0] or known[1] & ~hands[1]:
                # A known card lies on the table (the trick's close drops it
                # from the known cards, and the public fields with it).
                fields["known"] = self._known_in_hand()
        if self._pending:
            challenge = self._challenge
            fields["announced"] = tuple([DECLS[i].kind for i in self._announced])
            fields["challenge"] = None if challenge < 0 else DECLS[challenge].kind
            fields["mariages"] = tuple(
                [
                    (s, BROK[:-1] if m.startswith(BROK) else m)
                    for s, m, _ in self._mariages
                ]
            )
            fields["own_pending"] = tuple(self._own[seat])
        view = new_view(StockView)
        _SET(view, "__dict__", fields)
        return view

    def _make_public(self) -> dict[str, object]:
        """The view's fields that change only with a declaration, draw or hand
        (and placeholders for those :meth:`view` fills), in field order into a
        view's own dict: keys shared with every view (see :meth:`view`)."""
        fields = new_view(StockView).__dict__
        fields["seat"] = 0
        fields["legal_actions"] = ()
        fields["deal"] = self.deal
        fields["dealer"] = self.dealer
        fields["to_act"] = None
        fields["phase"] = self._phase
        fields["trump"] = SUITS[self.trump]
        fields["open_card"] = _CARDS[self._open] if self._open >= 0 else None
        fields["stock"] = 0
        fields["hand"] = ()
        fields["hand_sizes"] = (0, 0)
        fields["known"] = self._known_in_hand()
        fields["announced"] = ()
        fields["challenge"] = None
        fields["mariages"] = ()
        fields["own_pending"] = ()
        fields["events"] = self._events
        fields["trick"] = ()
        fields["tricks"] = ()
        fields["roem"] = (self._roem[0], self._roem[1])
        fields["hand_scores"] = self._hand_scores
        fields["totals"] = (self._totals[0], self._totals[1])
        fields["lives"] = (self._lives[0], self._lives[1])
        fields["kip"] = None if self._kip < 0 else self._kip
        fields["rounds"] = self._rounds
        return fields

    def _republish(self, **changed: object) -> None:
        """The public fields after the known cards, the events and ``changed``
        changed (a copy, not an update: clones share the old dict)."""
        public = self._public
        if public is not None:
            public = self._public = public.copy()
            public.update(changed)
            public["known"] = self._known_in_hand()
            public["events"] = self._events

    def _known_in_hand(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The view's ``known``: per seat, the shown cards still in its hand."""
        k0 = self._known[0] & self.hands[0]
        k1 = self._known[1] & self.hands[1]
        return (_NAMES(k0) if k0 else (), _NAMES(k1) if k1 else ())

    def clone(self) -> StockState:
        """An independent copy."""
        twin = super().clone()
        twin._stock = self._stock[:]
        twin._known = self._known[:]
        twin._announced = self._announced[:]
        twin._mariages = self._mariages[:]
        twin._own = [self._own[0][:], self._own[1][:]]
        twin._done = [set(self._done[0]), set(self._done[1])]
        twin._floor = [self._floor[0][:], self._floor[1][:]]
        twin._mar_done = [set(self._mar_done[0]), set(self._mar_done[1])]
        twin._brok_used = self._brok_used[:]
        twin._roem = self._roem[:]
        twin._totals = self._totals[:]
        twin._lives = self._lives[:]
        return twin

    def search_key_extra(self) -> tuple[object, ...]:
        """What the rest of the hand's value depends on beyond the hands, the
        trick and the won tricks, for a search's transposition table
        (``bots/pimc.py``): the roem written this hand and the trick's pending
        declarations and mariages. (The once-only sets change only when a
        trick with declarations completes, and roem changes with them.)"""
        return (
            self._roem[0],
            self._roem[1],
            tuple(self._announced),
            self._challenge,
            tuple([(s, m) for s, m, _ in self._mariages]),
        )

    def deck(self) -> tuple[str, ...]:
        """The 32 cards of the piquet pack."""
        return _CARDS

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Hands (hidden and known parts), stock, open card, trick, won piles."""
        names = PIQUET.names
        places: dict[str, tuple[str, ...]] = {}
        for s in (0, 1):
            places[f"hand:{s}"] = names(self.hands[s] & ~self._known[s])
            places[f"known:{s}"] = names(self.hands[s] & self._known[s])
        places["stock"] = names(sum(1 << c for c in self._stock))
        places["open"] = (_CARDS[self._open],) if self._open >= 0 else ()
        places["trick"] = tuple(_CARDS[c] for c in self._trick)
        for s, won in enumerate(self.won_cards()):
            places[f"won:{s}"] = names(won)
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other seat's unknown cards and the hidden stock."""
        return frozenset({f"hand:{1 - seat}", "stock"})

    # -- for people ---------------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Hand 0 told as every later hand: dealer, the turned card, trump, lives."""
        return [self.opening_line()]

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell it as a player at the table would hear it."""
        seat, deal = self.to_act, self.deal
        n_tricks, n_events = len(self._tricks), len(self._events)
        phase = self._phase
        lines: list[str] = []
        rounds = len(self._rounds)
        self.apply(action)
        if action == EXCHANGE:
            lines.append(f"seat {seat} exchanges the trump 7 for the open card")
        elif action.startswith(ROEM):
            kind = DECLS[_BY_CODE[action[len(ROEM) :]]].kind
            lines.append(f"seat {seat} announces {_kind_words(kind)}")
        elif action.startswith(CHALLENGE):
            kind = DECLS[_BY_CODE[action[len(CHALLENGE) :]]].kind
            lines.append(f"seat {seat}: 'dat keur ik af' with {_kind_words(kind)}")
        elif action in (STUK, DUBBEL) or action.startswith(BROK):
            lines.append(f"seat {seat} declares {action.split(':')[0]}")
        elif phase == "draw":
            lines.append(
                f"seat {seat} takes the "
                + ("last hidden card" if action == DRAW_STOCK else "open trump")
            )
        else:
            lines.append(f"seat {seat} plays {action}")
        is_card = action in _INDEX
        if is_card and (
            self.deal != deal or self._over or len(self._tricks) > n_tricks
        ):
            ended = self.deal != deal or self._over
            tricks = self._last_tricks if ended else self._tricks
            if tricks and (ended or len(tricks) > n_tricks):
                record = tricks[-1]
                lines.append(
                    f"trick {len(tricks)} ({' '.join(record[1])}) to seat "
                    f"{record[2]}: {record[3]} points"
                )
        for ev in self._events[n_events:] if self.deal == deal else ():
            s, what, cards, pts = ev
            if what == "uit":
                continue
            if what.startswith("afgekeurd"):
                lines.append(f"seat {s}'s declaration is challenged: it stays hidden")
            elif what in ("takes", EXCHANGE):
                if what == "takes":
                    lines.append(f"seat {s} takes {cards[0]}, shown")
            else:
                lines.append(f"seat {s} shows {' '.join(cards)}: {pts}")
        if self._phase == "draw" and phase != "draw":
            lines.append(
                f"seat {self.to_act} chooses: the last hidden card or the open "
                f"{_CARDS[self._open]}"
            )
        if phase == "draw" and self._phase == "final":
            lines.append("the stock is gone: follow suit, else trump, from now on")
        if self.deal != deal or self._over:
            lines.append(self._last_summary)
            if len(self._rounds) > rounds and not self._over:
                lines.append("a new round starts at 0-0")
            if self._over:
                lines.append(match_over_line(self.result(), what="lives"))
            else:
                lines.append(self.opening_line())
        return lines

    def opening_line(self) -> str:
        return (
            f"hand {self.deal}: dealer seat {self.dealer}, voorhand seat "
            f"{self.to_act} leads, turned {_CARDS[self._open]}, "
            f"{SUITS[self.trump]} trump; lives "
            f"{score_list(self._lives)}, round {score_list(self._totals)}"
        )

    # -- construction for tests ---------------------------------------------------

    @classmethod
    def from_cards(
        cls,
        game: StockGame,
        hands: Sequence[str],
        open_card: str,
        stock: Sequence[str] = (),
        *,
        deal: int = 0,
        totals: tuple[int, int] = (0, 0),
        seed: int = 0,
    ) -> StockState:
        """A state at the first card of hand ``deal``, for worked examples.

        ``hands`` are two space-separated hands (seat 0 first), ``open_card``
        the turned trump and ``stock`` the hidden stock in drawing order. Cards
        named nowhere are out of the hand (a short stock for a short example);
        an empty ``stock`` starts at phase 2's first trick.

        :raises ValueError: a position no deal makes: hands of different sizes
            (both hold the deal's cards at a hand's first card, and draw one
            card each after every trick), or an even stock. Pairs are drawn
            until the last hidden card is shared against the open card (S2),
            so the hidden stock is odd, as in a real deal (15 in Smousjas, 13
            in Vijfhonderden); an even one would leave the last draw nothing
            to take.
        """
        PIQUET.check_deal(hands, {"the open card": [open_card], "the stock": stock})
        sizes = [len(h.split()) for h in hands]
        if len(sizes) != 2 or sizes[0] != sizes[1]:
            raise ValueError(
                f"StockState.from_cards: hands of {sizes} cards; a hand's first "
                "card is played from two hands of the same size"
            )
        if stock and len(stock) % 2 == 0:
            raise ValueError(
                f"StockState.from_cards: a stock of {len(stock)} hidden cards; "
                "it must be odd (1, 3, 5, ...) or empty: pairs are drawn until "
                "the last hidden card is shared against the open card (S2)"
            )
        state = cls.__new__(cls)
        state._blank(game, seed)
        state.deal = deal
        state._totals = list(totals)
        masks = [PIQUET.mask(h.split()) for h in hands]
        order = [PIQUET.index[c] for c in stock]
        state._setup(masks, PIQUET.index[open_card], order[::-1], (deal + 1) % 2)
        state._phase2_from = (len(order) + 1) // 2
        if not order:
            state._open = -1
            state._phase = "final"
            state._phase2_from = 0
            state._set_duties(ROTTERDAM)
        return state


def _brok(action: str) -> tuple[str, str]:
    tail = action[len(BROK) :]
    return tail[:2], tail[2:]


def _mariage_cards(action: str, trump: int) -> CardMask:
    if action == STUK:
        t = SUITS[trump]
        return PIQUET.mask(("K" + t, "Q" + t))
    return PIQUET.mask(("QD", "QS"))


def _kind_words(kind: str) -> str:
    if kind == "four":
        return "a carré"
    return f"{kind[:-1]} to the {_RANK_WORDS[kind[-1]]}"


def _candidates(
    role: str, kind: str, allowed: CardMask, trump: int, state: StockState, seat: int
) -> list[tuple[str, CardMask]]:
    """The full actions (and their cards) an announced ``kind`` may stand for."""
    if role == "mariage":
        if kind == "brok":
            out = []
            for ks in SUITS:
                for qs in SUITS:
                    if (ks in "DH") != (qs in "DH"):
                        action = f"{BROK}K{ks}Q{qs}"
                        cards = PIQUET.mask(_brok(action))
                        if (
                            cards & allowed == cards
                            and not cards & state._brok_used[seat]
                        ):
                            out.append((action, cards))
            return out
        cards = _mariage_cards(kind, trump)
        return [(kind, cards)] if cards & allowed == cards else []
    prefix = ROEM if role == "roem" else CHALLENGE
    points = state.config.points
    done, floor = state._done[seat], state._floor[seat]
    return [
        (prefix + d.code, d.cards)
        for i, d in enumerate(DECLS)
        if d.kind == kind
        and points[i]
        and i not in done
        and (d.suit < 0 or (d.length, d.top) > floor[d.suit])
        and d.cards & allowed == d.cards
    ]


def _action_cards(action: str, trump: int) -> CardMask:
    """The cards of a declaration or mariage action."""
    if action.startswith((ROEM, CHALLENGE)):
        return DECLS[_BY_CODE[action.split(":")[1]]].cards
    if action.startswith(BROK):
        return PIQUET.mask(_brok(action))
    return _mariage_cards(action, trump)


def _phase2_from(view: StockView, cfg: StockConfig) -> int:
    """The trick phase 2 starts at (its first, the last with extra moves, S9),
    as far as ``view`` tells it: while the stock lasts, the draws left; in
    phase 2, this trick when the view offers an extra move, trick 0 without a
    draw this hand (``from_cards`` with no stock), else a full deal's. (A
    worked example shorter than a deal, past that trick, cannot be told from
    the view: its worlds take the full deal's.)"""
    if view.phase == "stock":
        return len(view.tricks) + (view.stock + 1) // 2
    if view.phase == "draw" or any(a not in _INDEX for a in view.legal_actions):
        return len(view.tricks)
    if not any(what == "takes" for _, what, _, _ in view.events):
        return 0
    return (32 - 2 * cfg.hand_size) // 2


class StockSampler(Sampler):
    """States consistent with one seat's view (S15).

    Public: tricks, the open card, the cards each hand is known to hold, the
    events. The other seat's unknown cards and the hidden stock are dealt
    uniformly from the unseen cards (no duty binds phase 1; in phase 2 the
    stock is gone and the other hand is exactly the unseen cards). A
    declaration, challenge or mariage the other seat announced for the trick on
    the table is given cards that fit its kind, from the unseen cards, its
    known cards and its card in the trick.
    """

    def __init__(self, game: StockGame, view: StockView) -> None:
        state = StockState.__new__(StockState)
        state._blank(game, 0)
        cfg = game.config
        state.deal = view.deal
        state.dealer = view.dealer
        state.trump = SUITS.index(view.trump)
        state._phase = view.phase
        state._over = view.phase == "over"
        state._phase2_from = _phase2_from(view, cfg)
        state._open = -1 if view.open_card is None else PIQUET.index[view.open_card]
        state._events = view.events
        state._roem = list(view.roem)
        state._hand_scores = view.hand_scores
        state._totals = list(view.totals)
        state._lives = list(view.lives)
        state._kip = -1 if view.kip is None else view.kip
        state._rounds = view.rounds
        duties = FREE_PLAY if view.phase in ("stock", "draw") else ROTTERDAM
        public = state._restore_tricks(
            cfg.tables[state.trump], duties, view.tricks, view.trick
        )
        state._playing = view.phase in ("stock", "final")
        state.to_act = view.to_act
        me, other = view.seat, 1 - view.seat
        state._known = [PIQUET.mask(view.known[0]), PIQUET.mask(view.known[1])]
        hands = [0, 0]
        hands[me] = PIQUET.mask(view.hand)
        hands[other] = state._known[other]
        state.hands = hands
        # What the events say was declared (the once-only rules).
        for seat, what, cards, _ in view.events:
            if what.startswith((ROEM, CHALLENGE)):
                i = _BY_CODE[what.split(":")[1]]
                d = DECLS[i]
                state._done[seat].add(i)
                if d.suit >= 0:
                    state._floor[seat][d.suit] = max(
                        state._floor[seat][d.suit], (d.length, d.top)
                    )
            elif what in (STUK, DUBBEL) or what.startswith(BROK):
                state._mar_done[seat].add(what)
                if what.startswith(BROK):
                    state._brok_used[seat] |= PIQUET.mask(cards)
        if not (state._mar_done[0] or state._mar_done[1]):
            state._mar_table = cfg.mariage_table[state.trump]
        # The trick on the table's extra moves: mine in full, the other's by kind.
        state._own[me] = list(view.own_pending)
        leader = view.trick[0][0] if view.trick else view.to_act
        roles: list[tuple[str, str]] = []
        if leader == other:
            roles += [("roem", k) for k in view.announced]
        elif view.challenge is not None:
            roles.append(("challenge", view.challenge))
        roles += [("mariage", m) for s, m in view.mariages if s == other]
        seen = public.seen | hands[me] | hands[other]
        if state._open >= 0:
            seen |= 1 << state._open
        unseen = PIQUET.full & ~seen
        other_card = 0
        for s, name in view.trick:
            if s == other:
                other_card |= 1 << PIQUET.index[name]
        allowed = unseen | hands[other] | other_card
        self._roles = roles
        self._candidates = [
            _candidates(role, kind, allowed, state.trump, state, other)
            for role, kind in roles
        ]
        self._unseen = unseen
        self._in_hand = view.hand_sizes[other] - hands[other].bit_count()
        self._in_stock = view.stock
        self._state = state
        self._me, self._other = me, other
        self._mariage_seats = [s for s, _ in view.mariages]
        self._mine = list(view.own_pending)
        self._fitting: list[tuple[list[str], CardMask]] | None = None

    def _choose(self, rng: random.Random) -> tuple[list[str], CardMask] | None:
        """Full actions for the other seat's announced kinds, and their cards."""
        return self._check([o[rng.randrange(len(o))] if o else None
                            for o in self._candidates])  # fmt: skip

    def _check(
        self, picks: Sequence[tuple[str, CardMask] | None]
    ) -> tuple[list[str], CardMask] | None:
        """``picks`` as actions and cards, if they fit together and in the hand."""
        chosen: list[str] = []
        fixed = 0
        suits: set[int] = set()
        brok = 0
        for pick in picks:
            if pick is None:
                return None
            action, cards = pick
            if action.startswith(ROEM):
                d = DECLS[_BY_CODE[action[len(ROEM) :]]]
                if d.suit >= 0 and d.suit in suits:
                    return None
                suits.add(d.suit)
                if action in chosen:
                    return None
            elif action.startswith(BROK):
                if cards & brok:
                    return None
                brok |= cards
            chosen.append(action)
            fixed |= cards
        fixed &= self._unseen
        if fixed.bit_count() > self._in_hand:
            return None
        return chosen, fixed

    def sample(self, rng: random.Random) -> StockState:
        """A world: the other's unknown cards and the stock dealt, a new seed."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        other = self._other
        chosen: list[str] = []
        fixed = 0
        got = None
        for _ in range(50 if self._candidates else 0):
            got = self._choose(rng)
            if got is not None:
                break
        else:
            if self._candidates:
                # Rejection failed: draw among every fitting combination.
                if self._fitting is None:
                    self._fitting = [
                        fit
                        for picks in product(*self._candidates)
                        if (fit := self._check(picks)) is not None
                    ]
                if self._fitting:
                    got = self._fitting[rng.randrange(len(self._fitting))]
        if got is not None:
            chosen, fixed = got
        rest = list(iter_bits(self._unseen & ~fixed))
        rng.shuffle(rest)
        n = self._in_hand - fixed.bit_count()
        hand = fixed
        for c in rest[:n]:
            hand |= 1 << c
        state.hands[other] |= hand
        # (A worked example's short pack leaves cards out: the stock is cut to size.)
        state._stock = rest[n : n + self._in_stock]
        # The trick's extra moves, in the order they were made.
        state._own[other] = chosen
        state._announced = []
        state._challenge = -1
        state._mariages = []
        theirs = iter(chosen)
        for role, _ in self._roles:
            if role != "mariage" and chosen:
                action = next(theirs)
                if role == "roem":
                    state._announced.append(_BY_CODE[action[len(ROEM) :]])
                else:
                    state._challenge = _BY_CODE[action[len(CHALLENGE) :]]
        for action in self._mine:
            if action.startswith(ROEM):
                state._announced.append(_BY_CODE[action[len(ROEM) :]])
            elif action.startswith(CHALLENGE):
                state._challenge = _BY_CODE[action[len(CHALLENGE) :]]
        mine = iter(a for a in self._mine if not a.startswith((ROEM, CHALLENGE)))
        for s in self._mariage_seats:
            action = next(theirs if s == other else mine, "")
            if action:
                state._mariages.append((s, action, _action_cards(action, state.trump)))
        state._pending = bool(state._own[0] or state._own[1])
        state._legal = None
        return state


class StockGame(Game):
    """The shared Game of Smousjas and Vijfhonderden (subclasses set config)."""

    view_class = StockView
    #: The worlds behind a view (S15): read once, sampled cheaply.
    sampler_class = StockSampler

    config: ClassVar[StockConfig]
    seat_counts = frozenset({2})
    ranks_follow_scores = True
    check_options: ClassVar[Mapping[str, object]] = {"target": 200, "lives": 1}
    option_specs = (
        Option(
            "target",
            500,
            doc="a round is won by reaching this score (onder Jan below half of "
            "it, Uit from 20 below it)",
            minimum=1,
        ),
        Option(
            "lives",
            3,
            doc="lives each player starts a match with (S13)",
            minimum=1,
        ),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md): every declaration has an id."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(
            self,
            n_seats,
            PIQUET,
            (
                *(EXCHANGE, STUK, DUBBEL, DRAW_STOCK, DRAW_OPEN),
                *(ROEM + d.code for d in DECLS),
                *(CHALLENGE + d.code for d in DECLS),
                *(action for _, action in _BROKS),
            ),
            ("stock", "draw", "final", "over"),
        )

    def new_match(self, n_seats: int, seed: int) -> StockState:
        """The first hand of a match for two, dealt from ``seed``."""
        self.check_seats(n_seats)
        return StockState(self, seed)
