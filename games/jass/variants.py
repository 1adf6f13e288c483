"""Klaverjassen's variants a-f (seed 004 lines 126-132), as the ``variant``
option of the game class :class:`Klaverjassen`, which is here: it chooses the
standard state (:mod:`games.jass.klaverjassen`) or a variant's.

The card play, roem in tricks and deal scoring are the standard game's
(:mod:`games.jass.klaverjassen`); a variant changes how trump and the playing
side are chosen (Utrechts, Leids, Voorhand vrij), the trumping duties
(Amsterdams), or adds doubling and roem in hand (Kraken, Schoppen dubbel).
The ``standard`` variant never uses this module, so its hot path is untouched.
Rulings R16-R24 of ``games/jass/RULES.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from games.cards import PIQUET, SUIT_WORDS, SUITS, CardMask
from games.jass.declarations import (
    ROEM,
    Declaration,
    DeclarationRules,
    DeclaresInHand,
    best_declarations,
    declared_words,
)
from games.jass.klaverjassen import (
    _INDEX,
    _TABLES,
    PASS,
    PLAY,
    VARIANTS,
    KlaverjassenSampler,
    KlaverjassenState,
    KlaverjassenView,
)
from games.jass.moves import DECLARE_ROEM, PASS_MOVE, card_move, suit_move
from games.jass.roem import FOUR_JACKS, FOUR_OF_A_KIND, RUN_3, RUN_4
from games.jass.scoring import deal_score
from games.tricks import AMSTERDAM
from harness import ActionKind, Game, IllegalActionError, Option, View
from harness.contracts.game import reject_action

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "KRAKEN_ROEM",
    "LEIDS_BIDS",
    "STUK",
    "SUIT_ACTIONS",
    "KlaverjassenKrakenState",
    "KlaverjassenVariantState",
    "KlaverjassenVariantView",
]

SUIT_ACTIONS = SUIT_WORDS
#: Leids bids, lowest first: points 82, 92, ... 162, and at equal points
#: C < D < H < S (seed 004 line 128; R18).
LEIDS_BIDS = tuple(f"{p}{s}" for p in range(82, 163, 10) for s in SUITS)
_LEIDS_RANK = {bid: i for i, bid in enumerate(LEIDS_BIDS)}
#: The doubling calls of Kraken, in order (seed 004 line 131).
KRAKEN, HERKRAKEN, SUPERKRAKEN = "kraken", "herkraken", "superkraken"
#: Declaring roem in hand during the first trick (Kraken; R22).
#: Roem in hand (R22): the trick-roem table of seed 004 lines 111-114; a run
#: longer than 4 counts as a run of 4; the stuk is declared on its own (STUK).
KRAKEN_ROEM = DeclarationRules(
    PIQUET,
    runs={3: RUN_3, 4: RUN_4},
    fours={r: FOUR_JACKS if r == "J" else FOUR_OF_A_KIND for r in PIQUET.ranks},
)
#: Declaring the stuk held in hand, at any card of the deal (Kraken; R22):
#: "behalve Stuk, wat altijd gedeclareerd mag worden" (seed 004 line 131).
STUK = "stuk"
_KNOWN = frozenset(
    (PLAY, PASS, KRAKEN, HERKRAKEN, SUPERKRAKEN, ROEM, STUK, *SUIT_ACTIONS, *LEIDS_BIDS)
)

_KRAKEN_VARIANTS = frozenset({"kraken", "schoppen-dubbel"})
#: The variants that turn no trump (004:127-128): ``clubs_first`` is off by default.
_NOTHING_TURNED = frozenset({"utrechts", "leids"})
_SPADES = 3


@dataclass(frozen=True)
class KlaverjassenVariantView(KlaverjassenView):
    """A klaverjassen view with what the variants add (R24)."""

    #: ``"bid"`` (play or pass on the turned suit), ``"choose"`` (Utrechts:
    #: voorhand names trump), ``"free"`` (Voorhand vrij's second round),
    #: ``"leids"`` (bidding points), ``"kraken"``, ``"herkraken"``,
    #: ``"superkraken"`` (doubling), ``"play"`` (cards) or ``"over"``.
    phase: str
    #: The points the playing side bid (Leids); 0 when only R8 applies.
    contract: int
    #: What the deal's scores are multiplied by (Kraken, Schoppen dubbel).
    multiplier: int
    #: Roem declared in hand this deal: ``(seat, cards, points)``.
    declared: tuple[tuple[int, tuple[str, ...], int], ...]


class KlaverjassenVariantState(KlaverjassenState):
    """A klaverjassen match under one of the variants a-f."""

    _view_class = KlaverjassenVariantView

    def _blank(self, game: Klaverjassen, seed: int) -> None:
        self._variant: str = game.options["variant"]
        self._phase = "bid"
        self._contract = 0
        self._multiplier = 1
        self._declared: tuple[tuple[int, tuple[str, ...], int], ...] = ()
        self._kraken = self._variant in _KRAKEN_VARIANTS
        super()._blank(game, seed)
        if self._variant == "amsterdams":
            self._duty_rules = AMSTERDAM

    def _start_deal(self) -> None:
        self._phase = "bid"
        self._contract = 0
        self._multiplier = 1
        self._declared = ()
        super()._start_deal()
        if self._phase == "bid" and self._variant in ("utrechts", "leids"):
            # R17, R18: nothing is turned.
            self._turned = ()
            self._phase = "choose" if self._variant == "utrechts" else "leids"
            self._publish()

    def _begin_play(self, player: int, trump: int) -> None:
        self.player = player
        self.trump = trump
        if self._variant == "schoppen-dubbel" and trump == _SPADES:
            self._multiplier = 2  # R23: spades doubles by itself
        if self._kraken:
            # R21: the defenders speak first, the seat after the player first.
            self._phase = KRAKEN
            self._playing = False
            self._legal = None
            self.to_act = (player + 1) % 4
        else:
            self._start_play()

    def _start_play(self) -> None:
        self._phase = "play"
        self._begin_tricks(_TABLES[self.trump], self._duty_rules, self.deal % 4)

    # -- the decisions before the cards ----------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        phase = self._phase
        if phase == "bid":
            return (PLAY, PASS)
        if phase == "choose":
            return SUIT_ACTIONS
        if phase == "free":
            return (PASS, *SUIT_ACTIONS)
        if phase == "leids":
            high = self._leids_high()
            if high is None and len(self._bids) >= 4:
                return LEIDS_BIDS[:4]  # R18: voorhand must bid 82 after four passes
            start = 0 if high is None else _LEIDS_RANK[high[1]] + 1
            return (PASS, *LEIDS_BIDS[start:])
        return (phase, PASS)  # kraken, herkraken, superkraken

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if action not in self._other_actions():
            self._bad_action(action)
        phase = self._phase
        if phase == "bid":
            self._bid(action)
            return
        seat = self.to_act
        assert seat is not None
        self._bids += ((seat, action),)
        self._legal = None
        voorhand = self.deal % 4
        if phase == "choose":
            self._begin_play(seat, SUIT_ACTIONS.index(action))
        elif phase == "free":
            if action != PASS:
                self._begin_play(seat, SUIT_ACTIONS.index(action))
            elif len(self._bids) == 8:
                # R19: all passed twice; the standard rule turns a second suit.
                self._turned += (SUITS[self._suits[1]],)
                self._begin_play(voorhand, self._suits[1])
            else:
                self.to_act = (seat + 1) % 4
        elif phase == "leids":
            self._leids_next(seat)
        else:
            self._kraken_next(seat, action)
        self._publish()

    def _bid(self, action: str) -> None:
        if (
            self._variant == "voorhand-vrij"
            and action == PASS
            and len(self._bids) == 3
            and self.to_act is not None
        ):
            # R19: all passed on the turned suit; voorhand may name a suit.
            self._bids += ((self.to_act, action),)
            self._legal = None
            self._phase = "free"
            self.to_act = self.deal % 4
            self._publish()
            return
        super()._bid(action)

    def _leids_high(self) -> tuple[int, str] | None:
        """The highest Leids bid so far, ``(seat, bid)``."""
        for seat, bid in reversed(self._bids):
            if bid != PASS:
                return seat, bid
        return None

    def _leids_next(self, seat: int) -> None:
        """After ``seat`` bid or passed in Leids: the next bidder, or the play (R18)."""
        passed = {s for s, b in self._bids if b == PASS}
        high = self._leids_high()
        if high is not None and passed >= {s for s in range(4) if s != high[0]}:
            bidder, bid = high
            self._contract = int(bid[:-1])
            self._begin_play(bidder, SUITS.index(bid[-1]))
        elif high is None and len(passed) == 4:
            self.to_act = self.deal % 4
        else:
            nxt = (seat + 1) % 4
            while nxt in passed:
                nxt = (nxt + 1) % 4
            self.to_act = nxt

    def _kraken_next(self, seat: int, action: str) -> None:
        """After a doubling call or a pass (R21)."""
        player = self.player
        defender = (player + 1) % 4
        if action != PASS:
            self._multiplier *= 2
            if action == SUPERKRAKEN:
                self._start_play()
            else:
                self._phase = HERKRAKEN if action == KRAKEN else SUPERKRAKEN
                self.to_act = player if action == KRAKEN else defender
        elif seat in (player, defender):  # the first of the pair passed
            self.to_act = (seat + 2) % 4
        else:
            self._start_play()

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in _INDEX or a in _KNOWN,
            f"a klaverjassen ({self._variant}) action",
        )

    def _tallies(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        points, roem, count = super()._tallies()
        declared = [roem[0], roem[1]]
        for seat, _, pts in self._declared:
            declared[seat & 1] += pts
        return points, (declared[0], declared[1]), count

    def _score(
        self,
        playing_team: int,
        points: tuple[int, int],
        roem: tuple[int, int],
        tricks_won: tuple[int, int],
    ) -> tuple[bool, int | None, tuple[int, int], tuple[int, int]]:
        return deal_score(
            playing_team,
            points,
            roem,
            tricks_won,
            contract=self._contract,
            multiplier=self._multiplier,
        )

    def _finish_deal(self) -> None:
        super()._finish_deal()
        if self._over:
            self._phase = "over"
            self._publish()

    # -- views, sampling, narration --------------------------------------------

    def _publish(self) -> None:
        super()._publish()
        self._public["phase"] = self._phase
        self._public["contract"] = self._contract
        self._public["multiplier"] = self._multiplier
        self._public["declared"] = self._declared

    def _restore_public(self, view: KlaverjassenView) -> list[CardMask]:
        assert isinstance(view, KlaverjassenVariantView)
        self._phase = view.phase
        self._contract = view.contract
        self._multiplier = view.multiplier
        self._declared = view.declared
        self._playing = view.phase == "play"
        played = 0
        for record in view.tricks:
            played |= PIQUET.mask(record[1])
        played |= PIQUET.mask([card for _, card in view.trick])
        known = [0, 0, 0, 0]
        for seat, cards, _ in view.declared:
            if seat != view.seat:
                known[seat] |= PIQUET.mask(cards) & ~played
        return known

    def narrate(self, action: str) -> list[str]:
        """As the standard game's, telling the variant's decisions too."""
        seat, phase = self.to_act, self._phase
        if phase == "bid":
            lines = super().narrate(action)
            if self._phase in ("free", KRAKEN):
                lines += self._status_lines()
            return lines
        if phase in ("play", "over") and action not in (ROEM, STUK):
            return super().narrate(action)
        said = ""
        if action == ROEM and seat is not None and isinstance(self, DeclaresInHand):
            said = declared_words(self._hand_roem(seat))  # before it is declared
        self.apply(action)
        if action == STUK:
            _, cards, points = self._declared[-1]
            return [f"seat {seat} declares the stuk: {' '.join(cards)}, {points}"]
        if action == ROEM:
            seat_, cards, points = self._declared[-1]
            return [
                f"seat {seat_} declares roem in hand: {said} ({' '.join(cards)}), "
                f"{points}"
            ]
        if action == PASS:
            lines = [f"seat {seat} passes"]
        elif phase in (KRAKEN, HERKRAKEN, SUPERKRAKEN):
            lines = [f"seat {seat} says {action}: scores x{self._multiplier}"]
        elif phase == "leids":
            lines = [f"seat {seat} bids {action[:-1]} in {action[-1]}"]
        else:
            lines = [f"seat {seat} names {action} trump"]
        if self._phase != phase:
            lines += self._status_lines()
        return lines

    def _status_lines(self) -> list[str]:
        if self._phase == "play":
            head = f"{SUITS[self.trump]} is trump; seat {self.player} makes it"
            if self._contract:
                head += f" for {self._contract}"
            if self._multiplier > 1:
                head += f", scores x{self._multiplier}"
            return [head]
        if self._phase == "free":
            return ["all pass; voorhand may name a suit or pass"]
        if self._phase in (KRAKEN, HERKRAKEN, SUPERKRAKEN):
            side = "defenders" if self._phase != HERKRAKEN else "players"
            return [f"the {side} may say {self._phase} (x2) or pass"]
        return []

    def _opening_lines(self) -> list[str]:
        lines = super()._opening_lines() if self._turned else []
        if not self._turned:
            head = (
                f"deal {self.deal}: dealer seat {self.dealer}, "
                f"voorhand seat {self.deal % 4}"
            )
            if self._phase == "choose":
                lines = [f"{head}; nothing turned: voorhand names trump"]
            elif self._phase == "leids":
                lines = [f"{head}; nothing turned: bidding from 82"]
            else:
                lines = [
                    f"{head}; C is trump without turning: seat {self.player} "
                    f"(team {self.player % 2}) makes it"
                ]
        return lines


class KlaverjassenKrakenState(DeclaresInHand, KlaverjassenVariantState):
    """Kraken and Schoppen dubbel: the variants where roem in hand is declared
    (R22). A class of its own so the other variants' card play is the
    standard one, without the look for roem at every decision."""

    def _blank(self, game: Klaverjassen, seed: int) -> None:
        #: Each seat's roem in hand, found when first asked for in a deal.
        self._roem_cache: list[tuple[Declaration, ...] | None] = [None] * 4
        super()._blank(game, seed)

    def _start_play(self) -> None:
        self._roem_cache = [None] * 4
        super()._start_play()

    # -- the stuk in hand (R22) -----------------------------------------------

    def _stuk_mask(self) -> CardMask:
        """The king and queen of trump."""
        suit = SUITS[self.trump]
        return PIQUET.mask(("K" + suit, "Q" + suit))

    def _may_say_stuk(self) -> bool:
        """Whether the seat to act may declare the stuk now (R22): it holds the
        trump king and queen, or holds one and played the other itself this
        deal, and the stuk is not declared yet.

        Once per deal: only one seat can hold it, and a declared stuk is the one
        entry of :attr:`_declared` with two cards (runs have 3 or more, fours 4).
        """
        seat = self.to_act
        if not self._playing or seat is None:
            return False
        stuk = self._stuk_mask()
        held = self.hands[seat] & stuk
        if not held or any(len(cards) == 2 for _, cards, _ in self._declared):
            return False
        if held == stuk:
            return True
        # One is in hand: the other must be a card this seat played.
        index = PIQUET.index
        for leader, cards, _, _, _ in self._tricks:
            if stuk >> index[cards[(seat - leader) % 4]] & 1:
                return True
        return False

    def _has_declared(self, seat: int) -> bool:
        # A declared stuk does not use up the seat's roem in the first trick.
        return any(s == seat and len(c) != 2 for s, c, _ in self._declared)

    def legal_actions(self) -> tuple[str, ...]:
        """The cards, ``"roem"`` in the first trick, then ``"stuk"`` while the
        seat may declare it (:meth:`_may_say_stuk`, R22)."""
        legal = super().legal_actions()
        if self._playing and self._may_say_stuk():
            return (*legal, STUK)
        return legal

    def _apply_extra(self, action: str) -> None:
        if action != STUK or not self._may_say_stuk():
            self._bad_action(action)
        seat = self.to_act
        assert seat is not None
        self._declared += ((seat, PIQUET.names(self._stuk_mask()), KRAKEN_ROEM.stuk),)
        self._legal = None
        self._publish()

    def _restore_public(self, view: KlaverjassenView) -> list[CardMask]:
        self._roem_cache = [None] * 4
        return super()._restore_public(view)

    def clone(self) -> KlaverjassenKrakenState:
        """An independent copy; its roem look-ups are its own (hands may differ)."""
        twin = super().clone()
        assert isinstance(twin, KlaverjassenKrakenState)
        twin._roem_cache = self._roem_cache[:]
        return twin

    # -- roem in hand (Kraken) ------------------------------------------------

    def _hand_roem(self, seat: int) -> tuple[Declaration, ...]:
        # Asked at every decision of the first trick: found once per seat and deal.
        cache = self._roem_cache
        if cache[seat] is None:
            cache[seat] = best_declarations(self.hands[seat], KRAKEN_ROEM)
        found = cache[seat]
        assert found is not None
        return found

    def _roem_declared(self) -> None:
        self._publish()

    def view(self, seat: int) -> KlaverjassenVariantView:
        """As the standard game's view, with the variant's fields (R24)."""
        view = super().view(seat)
        assert isinstance(view, KlaverjassenVariantView)
        if seat == self.to_act and self._playing:
            # The standard view may name the hand by the legal cards; "roem"
            # and "stuk" are no cards, so both are set here.
            view.__dict__["legal_actions"] = self.legal_actions()
            view.__dict__["hand"] = PIQUET.names(self.hands[seat])
        return view


class Klaverjassen(Game):
    """Klaverjassen, Rotterdam style: turned trump, must over- and under-trump."""

    view_class = KlaverjassenView
    #: The worlds behind a view (R14): read once, sampled cheaply.
    sampler_class = KlaverjassenSampler

    name = "klaverjassen"
    description = (
        "Rotterdam jass: a turned trump is taken or passed, over- and under-trumping is"
        " a duty, roem counts in the tricks"
    )
    title = "Klaverjassen (4 players, fixed partnerships)"
    seat_counts = frozenset({4})
    partnerships = True
    check_options = {"target": 300}  # noqa: RUF012 - short: 2-3 deals
    max_actions = 20_000  # a 1500-point match takes ~1,000; the referee draws here
    action_kinds = (
        card_move(),
        ActionKind("play", "play", "bid: play with the turned suit as trump"),
        PASS_MOVE,
        suit_move(
            "name trump: voorhand in Utrechts (R17), or after four passes in "
            "Voorhand vrij (R19)"
        ),
        ActionKind(
            "<points><suit>",
            r"(?:82|92|1[0-6]2)[CDHS]",
            "Leids bid (R18): this many points with this suit as trump, 82C up to "
            "162S; at equal points S > H > D > C",
        ),
        ActionKind(
            "kraken | herkraken | superkraken",
            "(?:kraken|herkraken|superkraken)",
            "Kraken and Schoppen dubbel (R21): double, redouble, redouble again",
        ),
        DECLARE_ROEM,
        ActionKind(
            "stuk",
            "stuk",
            "Kraken and Schoppen dubbel: declare the trump king and queen held in "
            "hand, 20, at any card of the deal until the second is played (R22)",
        ),
    )
    option_specs = (
        Option(
            "variant",
            "standard",
            doc="rule set (seed 004 lines 126-132; RULES.md R16-R23)",
            choices=VARIANTS,
            choice_docs={
                "standard": "Rotterdam: a turned suit is taken or passed",
                "utrechts": "nothing turned: voorhand must play and names trump",
                "leids": "bids of points and a suit; the bidder must make his points",
                "voorhand-vrij": "when all pass, voorhand (then each in turn) may "
                "name any suit",
                "amsterdams": "no under-trumping, and no duty to trump while the "
                "partner wins the trick",
                "kraken": "each call of kraken, herkraken and superkraken doubles; "
                "roem in hand counts",
                "schoppen-dubbel": "kraken, and a deal with spades trump counts double",
            },
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
            doc="in the first deal clubs is trump without turning; voorhand plays"
            " (default on, off under utrechts and leids, which turn no trump; R3)",
        ),
    )

    def __init__(self, **options: Any) -> None:
        # R3: "Doorgaans wordt de eerste ronde geen troef gedraaid, maar is klavers"
        # (004:96) replaces the first turn; variants a and b turn none (004:127-128),
        # so there is nothing to replace and their first deal is chosen as any other.
        if "clubs_first" not in options and options.get("variant") in _NOTHING_TURNED:
            options = {**options, "clubs_first": False}
        super().__init__(**options)

    @property
    def state_class(self) -> type[KlaverjassenState]:
        """The State class of this game's ``variant``."""
        if self.options["variant"] == "standard":
            return KlaverjassenState
        if self.options["variant"] in ("kraken", "schoppen-dubbel"):
            return KlaverjassenKrakenState
        return KlaverjassenVariantState

    def view_type(self) -> type[View]:
        """A variant's views say more (R24): a ``KlaverjassenVariantView``."""
        return self.state_class._view_class

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md): one action space for every variant."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(
            self,
            n_seats,
            PIQUET,
            _KNOWN,
            (
                *("bid", "choose", "free", "leids", "kraken", "herkraken"),
                *("superkraken", "play", "over"),
            ),
            view_class=self.state_class._view_class,
        )

    def new_match(self, n_seats: int, seed: int) -> KlaverjassenState:
        """The first deal of a match of four, dealt from ``seed``."""
        self.check_seats(n_seats)
        return self.state_class(self, seed)
