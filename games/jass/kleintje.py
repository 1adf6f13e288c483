"""Kleintje Klaverjas: 2-6 players, the dealer's choices, bids of points, lives.

Rule text: ``seeds/004`` lines 1-30, "Kleintje Klaverjas"; the rules as
implemented and the rulings (KK1, KK2, ...) are in ``games/jass/RULES.md``.

Each deal the dealer chooses how many cards each player gets (1-5), how many
go to the skart (0-5) and whether it lies open (line 8): three decisions of
his. From voorhand each bids the points he will take, higher each time, or
passes and is out of the bidding (line 11). The highest bidder, the player,
may take the skart, names trump and lays as many back
(:class:`~games.jass.skart.SkartState`); the last trick wins the skart. Only
the stuk counts (line 24). Made: every other player loses a life, else the
player does (line 27); six lives, the first to reach 0 plays on "op de kip",
the others are out. The last one left wins; the rest rank by when they went
out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from games.cards import PIQUET, SUITS, CardMask
from games.jass.klaverjassen import RULES, TRUMP_TABLES
from games.jass.moves import PASS_MOVE, TAKE_OR_LEAVE, card_move, suit_move
from games.jass.skart import (
    DISCARD,
    LEAVE,
    PASS,
    SKART,
    SUIT_ACTIONS,
    TAKE,
    TRUMP,
    HiddenCards,
    SkartState,
    deal_prefix,
)
from games.tricks import ROTTERDAM, TrickRecord
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

__all__ = ["Kleintje", "KleintjeState", "KleintjeView", "lives_at_stake"]

#: The dealer's choices (line 8) and their phases.
DEAL_ACTIONS = tuple(f"deal:{k}" for k in range(1, 6))
SKART_ACTIONS = tuple(f"skart:{k}" for k in range(6))
OPEN, CLOSED = "open", "closed"
CARDS, SKART_CHOICE, OPENNESS, BID = "cards", "skart-size", "openness", "bid"
#: Bids of points, in tens (KK3).
BIDS = tuple(f"bid:{v}" for v in range(10, 170, 10))
#: The player's declaration of the stuk in hand (line 24).
STUK = "stuk"
#: The stuk's worth: off the player's bid, or on it when a defender wins it.
STUK_POINTS = 20
#: Every action that is not a card.
WORDS = (
    *DEAL_ACTIONS,
    *SKART_ACTIONS,
    *BIDS,
    OPEN,
    CLOSED,
    PASS,
    TAKE,
    LEAVE,
    STUK,
    *SUIT_ACTIONS,
)


def lives_at_stake(bid: int, *, spit: bool) -> int:
    """Lives a deal costs (line 27): 1; with Spit (line 30) 1 under 50, 2 from
    50 to 100, 3 from 100."""
    if not spit or bid < 50:
        return 1
    return 2 if bid < 100 else 3


@dataclass(frozen=True)
class KleintjeView(View):
    """What one seat knows: this deal with perfect recall, lives (KK11)."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer (he plays too).
    dealer: int
    #: The seats playing this deal, voorhand first (the seats still in).
    active: tuple[int, ...]
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``cards``, ``skart-size``, ``openness`` (the dealer's choices), ``bid``,
    #: ``skart``, ``trump``, ``discard``, ``play`` or ``over``.
    phase: str
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: Cards dealt to each player (0 until the dealer chose).
    cards_each: int
    #: Cards dealt to the skart (-1 until the dealer chose).
    skart_size: int
    #: Whether the skart lies face up (``None`` until the dealer chose).
    skart_open: bool | None
    #: The skart's cards as dealt, when it lies face up.
    open_skart: tuple[str, ...]
    #: Cards in the skart now.
    skart_count: int
    #: The skart cards this seat knows lie there now.
    skart: tuple[str, ...]
    #: This deal's bids: ``(seat, "bid:40" | "pass")``.
    bids: tuple[tuple[int, str], ...]
    #: The player (highest bidder), or ``None`` while bidding.
    player: int | None
    #: The player's bid, or ``None``.
    bid: int | None
    #: Whether the player took the skart (``None``: not decided).
    took: bool | None
    #: The trump suit, or ``None`` until named.
    trump: str | None
    #: The stuk: ``"declared"`` (by the player, in hand), ``"player"`` or
    #: ``"defenders"`` (won in a trick), or ``None``.
    stuk: str | None
    #: The trick on the table: ``(seat, card)``.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks ``(leader, cards, winner, points, 0)``.
    tricks: tuple[TrickRecord, ...]
    #: Lives per seat (0 for a seat out or on the kip).
    lives: tuple[int, ...]
    #: The seats that went "op de kip" (at 0, out at their next loss), also
    #: once they are out.
    kip: tuple[int, ...]
    #: The seats out, in order: ``(seat, deal in which it went out)``.
    out: tuple[tuple[int, int], ...]
    #: Each finished deal's change of lives, per seat.
    deal_scores: tuple[tuple[int, ...], ...]


#: The fields view() fills, in order: a changed KleintjeView fails at import.
pin_fields(
    KleintjeView,
    (
        "seat legal_actions deal dealer active to_act phase hand cards_each "
        "skart_size skart_open open_skart skart_count skart bids player bid "
        "took trump stuk trick tricks lives kip out deal_scores"
    ),
)


def _cards_each(n: int) -> str:
    """``n cards each`` (``1 card each``), as the narration tells a deal."""
    return f"{n} card{'' if n == 1 else 's'} each"


class KleintjeState(SkartState):
    """The referee's truth of one match of Kleintje Klaverjas."""

    game: Kleintje

    def __init__(self, game: Kleintje, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal(n_seats - 1)

    def _blank(self, game: Kleintje, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self._spit: bool = game.options["spit"]
        self._use_rules(RULES, n_seats)
        self.deal = 0
        self.dealer = n_seats - 1
        self.to_act: int | None = 0
        self._over = False
        self._reset_deal()
        self.lives: tuple[int, ...] = (game.options["lives"],) * n_seats
        self.kip: tuple[int, ...] = ()
        self._kip_used = False
        self.out: tuple[tuple[int, int], ...] = ()
        #: The seats not out, in seat order.
        self._live = tuple(range(n_seats))
        self._deal_scores: tuple[tuple[int, ...], ...] = ()
        self._last_tricks: tuple[TrickRecord, ...] = ()
        self._summary: tuple[
            tuple[int, int, int, int, int, int, bool], list[int], list[int]
        ] = ((0, 0, 0, 0, 0, 0, False), [], [])
        self.active = tuple(range(n_seats))
        #: The views' fields that change only with a deal or the dealer's
        #: choices (see view()); None: to be made again.
        self._public: dict[str, object] | None = None

    def _start_deal(self, dealer: int) -> None:
        """Open deal ``self.deal`` for ``dealer``'s choices (line 8)."""
        n = self.n_seats
        live = self._live
        self.dealer = dealer
        d = live.index(dealer)
        self._set_active(tuple(live[(d + 1 + i) % len(live)] for i in range(len(live))))
        self._reset_tricks(n)
        self._reset_deal()
        self.to_act = self.dealer
        self._public = None  # see view()

    def _reset_deal(self) -> None:
        """Nothing dealt, chosen or bid yet: the dealer's first choice is next."""
        self.phase = CARDS
        self.skart = self.open_skart = 0
        self.stock = PIQUET.full
        self.skart_size = -1
        self.skart_open = False
        self._open_chosen = False
        self.cards_each = 0
        self._clear_skart()
        self._bids: tuple[tuple[int, str], ...] = ()
        self._passed: frozenset[int] = frozenset()
        self.bid = 0
        self.stuk: str | None = None
        self._stuk_pending = False

    def _deal_cards(self) -> None:
        """Deal as the dealer chose: ``cards_each`` to each from voorhand, then
        the skart, the rest undealt (KK1). The order is the deal's shuffle."""
        k = self.cards_each
        active = self.active
        order = deal_prefix(
            deal_rng(self.seed, self.deal), len(active) * k + self.skart_size
        )
        hands = self.hands
        dealt = 0
        for i, seat in enumerate(active):
            hand = 0
            for card in order[i * k : (i + 1) * k]:
                hand |= 1 << card
            hands[seat] = hand
            dealt |= hand
        skart = 0
        for card in order[len(active) * k :]:
            skart |= 1 << card
        self.skart = skart
        self.stock = PIQUET.full & ~(skart | dealt)
        self._public = None  # see view()
        if self.skart_open:
            self.open_skart = self.skart
        self.phase = BID
        self.to_act = self.active[0]

    # -- the dealer's choices and the bidding -------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        phase = self.phase
        if phase == CARDS:
            return DEAL_ACTIONS
        if phase == SKART_CHOICE:
            room = 32 - len(self.active) * self.cards_each
            return SKART_ACTIONS[: min(5, room) + 1]
        if phase == OPENNESS:
            return (OPEN, CLOSED)
        if phase == BID:
            # KK2: voorhand opens the bidding; he cannot pass.
            return _BID_LEGAL[self.bid // 10] if self._bids else BIDS
        skart = self._skart_actions()
        assert skart is not None
        return skart

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        phase = self.phase
        if phase in _SKART_PHASES:
            self._apply_skart(action)
            return
        legal = self._legal
        if action not in (self._other_actions() if legal is None else legal):
            self._bad_action(action)
        self._legal = None
        if phase == CARDS:
            self.cards_each = int(action[5:])
            self.phase = SKART_CHOICE
        elif phase == SKART_CHOICE:
            self.skart_size = int(action[6:])
            if self.skart_size:
                self.phase = OPENNESS
            else:
                self._deal_cards()  # KK1: no skart, nothing to open
        elif phase == OPENNESS:
            self.skart_open = action == OPEN
            self._open_chosen = True
            self._deal_cards()
        else:
            self._bid(action)

    def _bid(self, action: str) -> None:
        seat = self.to_act
        assert seat is not None
        self._bids += ((seat, action),)
        if action == PASS:
            self._passed |= {seat}  # line 11: a passed player bids no more
        else:
            self.bid = int(action[4:])
        left = [s for s in self.active if s not in self._passed]
        if len(left) == 1:
            self._open_skart_phase(left[0])  # line 11: the highest bidder plays
            return
        nxt = self._next_seat[seat]
        while nxt in self._passed:
            nxt = self._next_seat[nxt]
        self.to_act = nxt

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in PIQUET.index or a in WORDS,
            "a kleintje-klaverjas action: 'deal:3', 'skart:2', 'open', 'closed', "
            "'bid:40', 'pass', 'take', 'leave', a suit, 'stuk' or a card such as "
            "'JC'",
        )

    # -- the stuk (line 24) ------------------------------------------------------

    def _stuk_cards(self) -> CardMask:
        return TRUMP_TABLES[self.trump].trumps & _KQ

    def _may_declare(self) -> bool:
        """The player holds king and queen of trump and may play one now."""
        if self.stuk is not None or self.to_act != self.player or not self._playing:
            return False
        kq = self._stuk_cards()
        if self.hands[self.player] & kq != kq:
            return False
        super().legal_actions()
        return bool(self._legal_mask & kq)

    def _other_legal(self) -> tuple[str, ...]:
        """:meth:`legal_actions` while no card is played, cached likewise."""
        legal = self._legal
        if legal is None:
            self._legal_mask = -1
            legal = self._legal = self._other_actions()
        return legal

    def legal_actions(self) -> tuple[str, ...]:
        """The game's actions; the player holding the stuk may say ``stuk``
        before the first of its two cards, then must play one of them (KK6)."""
        legal = super().legal_actions()
        if not self._playing:
            return legal
        if self._stuk_pending:
            kq = PIQUET.names(self._stuk_cards() & self._legal_mask)
            return tuple(a for a in legal if a in kq)
        if self.stuk is None and self.to_act == self.player and self._may_declare():
            return (*legal, STUK)
        return legal

    def apply(self, action: str) -> None:
        """Declare the stuk, or act as the phase wants."""
        if not self._playing:
            self._apply_other(action)  # what TrickState.apply would call
            return
        if action == STUK:
            if not self._may_declare():
                self._bad_action(action)
            self.stuk = "declared"
            self._stuk_pending = True
            self._legal = None
            return
        if self._stuk_pending and action not in self.legal_actions():
            self._bad_action(action)
        self._stuk_pending = False
        super().apply(action)

    # -- tricks and scoring -------------------------------------------------------

    def _trick_complete(self) -> None:
        mask = 0
        for card in self._trick:
            mask |= 1 << card
        kq = self._stuk_cards()
        if self.stuk is None and mask & kq == kq:
            # Line 24: the stuk won in a trick, by the player or a defender.
            self.stuk = "player" if self._winner == self.player else "defenders"
        self._close_trick()
        if self.hands[self._leader]:
            self.to_act = self._winner
        else:
            self._score_deal()

    def target(self) -> int:
        """What the player must take: his bid, 20 less with his stuk, 20 more
        when a defender won it (line 24)."""
        if self.stuk in ("declared", "player"):
            return self.bid - STUK_POINTS
        if self.stuk == "defenders":
            return self.bid + STUK_POINTS
        return self.bid

    def _score_deal(self) -> None:
        points = [0] * self.n_seats
        for _, _, winner, pts, _ in self._tricks:
            points[winner] += pts
        last = self._tricks[-1][2]
        skart = self.skart_points()
        points[last] += skart  # line 14: the last trick wins the skart
        player = self.player
        target = self.target()
        made = points[player] >= target
        stake = lives_at_stake(self.bid, spit=self._spit)
        losers = [s for s in self.active if s != player] if made else [player]
        change = [0] * self.n_seats
        lives = list(self.lives)
        gone: list[int] = []
        to_kip: list[int] = []
        for s in losers:
            change[s] = -stake
            lives[s] -= stake
            if lives[s] > 0:
                continue
            lives[s] = 0
            if s in self.kip:
                gone.append(s)
            elif not self._kip_used:
                to_kip.append(s)  # KK8: the first to reach 0 plays on once
            else:
                gone.append(s)
        if to_kip:
            self._kip_used = True
            self.kip += tuple(to_kip)
        if gone:
            self.out += tuple((s, self.deal) for s in gone)
            self._live = tuple(s for s in self._live if s not in gone)
        self.lives = tuple(lives)
        # For narration, formatted only when asked for.
        self._summary = (
            (player, self.bid, target, points[player], skart, last, made),
            to_kip,
            gone,
        )
        self._last_tricks = self._tricks
        self._deal_scores += (tuple(change),)
        self._public = None  # see view()
        self._playing = False
        self._legal = None
        live = self._live
        if len(live) == 1:
            self._end_match()
            self.phase = "over"
        else:
            self.deal += 1
            if self.halt_after_deal:
                return
            # The next seat still in deals: the first of this deal's seats
            # (voorhand first, the dealer last) that is still in.
            self._start_deal(next(s for s in self.active if s in live))

    def result(self) -> Result:
        """Lives per seat; ranked by the deal each went out in (KK9)."""
        last = self.deal + 1
        keys = [float(last + 1 + self.lives[s]) for s in range(self.n_seats)]
        for s, deal in self.out:
            keys[s] = float(deal)
        return Result.from_rank_keys(
            self.lives, keys, self.teams, [list(d) for d in self._deal_scores]
        )

    # -- views --------------------------------------------------------------------

    def view(self, seat: int) -> KleintjeView:
        """What ``seat`` knows now (KK11).

        Filled without the frozen dataclass's ``__init__`` (one setattr per
        field costs more than the rules of a decision): the fields that change
        only with a deal or its dealing are kept in :attr:`_public`
        (every field, in field order, so that the view's dict is ordered as
        its ``__init__`` would order it); the others are filled in after.
        """
        public = self._public
        if public is None:
            public = self._public = self._publish()
        to_act = self.to_act
        view = new_view(KleintjeView)
        fields = view.__dict__
        fields.update(public)
        fields["seat"] = seat
        if seat == to_act:
            fields["legal_actions"] = (
                self.legal_actions() if self._playing else self._other_legal()
            )
        fields["to_act"] = to_act
        fields["phase"] = self.phase
        fields["cards_each"] = self.cards_each
        fields["skart_size"] = self.skart_size
        fields["hand"] = PIQUET.names(self.hands[seat])
        fields["skart_count"] = self.skart.bit_count()
        if self.skart and (
            (self.took and seat == self.player) or (self.skart_open and not self.took)
        ):  # skart_known_to(seat), written out: a view is built per decision
            fields["skart"] = PIQUET.names(self.skart)
        fields["bids"] = self._bids
        fields["bid"] = self.bid or None
        player = self.player
        if player >= 0:
            fields["player"] = player
            fields["took"] = self.took
            trump = self.trump
            if trump >= 0:
                fields["trump"] = SUITS[trump]
                fields["stuk"] = self.stuk
        fields["trick"] = self._trick_view
        fields["tricks"] = self._tricks
        return view

    def _publish(self) -> dict[str, object]:
        """The view's fields that change only with a deal or the dealer's
        choices; the others hold their values before the bidding."""
        return {
            "seat": 0,
            "legal_actions": (),
            "deal": self.deal,
            "dealer": self.dealer,
            "active": self.active,
            "to_act": None,
            "phase": "",
            "hand": (),
            "cards_each": self.cards_each,
            "skart_size": self.skart_size,
            "skart_open": self.skart_open if self._open_chosen else None,
            "open_skart": PIQUET.names(self.open_skart),
            "skart_count": 0,
            "skart": (),
            "bids": (),
            "player": None,
            "bid": None,
            "took": None,
            "trump": None,
            "stuk": None,
            "trick": (),
            "tricks": (),
            "lives": self.lives,
            "kip": self.kip,
            "out": self.out,
            "deal_scores": self._deal_scores,
        }

    def deck(self) -> tuple[str, ...]:
        """The 32 cards of the piquet pack."""
        return PIQUET.cards

    # -- for people ---------------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Each deal's first line, before the dealer chooses the cards each."""
        return [f"deal {self.deal}: dealer seat {self.dealer}"]

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened."""
        seat, deal, phase = self.to_act, self.deal, self.phase
        n_tricks = len(self._tricks)
        self.apply(action)
        if phase == CARDS:
            return [f"dealer seat {seat} deals {_cards_each(int(action[5:]))}"]
        if phase == SKART_CHOICE:
            lines = [f"dealer seat {seat} puts {action[6:]} in the skart"]
            if self.phase == BID:
                lines.append(self._dealt_line())
            return lines
        if phase == OPENNESS:
            shown = " ".join(PIQUET.names(self.open_skart))
            return [
                f"the skart lies {action}" + (f": {shown}" if shown else ""),
                self._dealt_line(),
            ]
        if phase == BID:
            line = f"seat {seat} {'passes' if action == PASS else 'bids ' + action[4:]}"
            if self.phase != BID:
                return [line, f"seat {self.player} takes the game at {self.bid}"]
            return [line]
        if phase == SKART:
            return [f"seat {seat} {'takes' if action == TAKE else 'leaves'} the skart"]
        if phase == TRUMP:
            return [f"seat {seat} names {action} trump"]
        if phase == DISCARD:
            return [f"seat {seat} lays a card in the skart"]
        if action == STUK:
            return [f"seat {seat} declares the stuk: needs {self.target()}"]
        lines = [f"seat {seat} plays {action}"]
        if self.deal != deal or self._over:
            record = self._last_tricks[-1]
            number = len(self._last_tricks)
            lines.append(f"trick {number} to seat {record[2]}: {record[3]} points")
            lines += self._summary_lines(deal)
            if self._over:
                lines.append(
                    match_over_line(self.result(), what="lives", why="the last one in")
                )
            else:
                lines += self.narrate_start()
        elif len(self._tricks) > n_tricks:
            record = self._tricks[-1]
            line = f"trick {n_tricks + 1} to seat {record[2]}: {record[3]} points"
            if self.stuk in ("player", "defenders") and _KQ & PIQUET.mask(record[1]):
                kq = self._stuk_cards()
                if PIQUET.mask(record[1]) & kq == kq:
                    line += f"; the stuk to the {self.stuk}"
            lines.append(line)
        return lines

    def _summary_lines(self, deal: int) -> list[str]:
        (player, bid, target, took, skart, last, made), to_kip, gone = self._summary
        return [
            f"deal {deal}: seat {player} bid {bid}, needs {target}, took {took}"
            + (f" (skart {skart} to seat {last})" if skart else "")
            + (": made" if made else ": not made"),
            "lives "
            + score_list(self.lives)
            + (f"; op de kip: seat {', '.join(map(str, to_kip))}" if to_kip else "")
            + (f"; out: seat {', '.join(map(str, gone))}" if gone else ""),
        ]

    def _dealt_line(self) -> str:
        return (
            f"dealt {_cards_each(self.cards_each)}, skart {self.skart_size}; "
            f"voorhand seat {self.active[0]}"
        )

    # -- construction for tests ---------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        game: Kleintje,
        hands: Sequence[str],
        *,
        skart: str = "",
        skart_open: bool = False,
        deal: int = 0,
        seed: int = 0,
    ) -> KleintjeState:
        """A state at the first bid of deal ``deal`` (dealer: the seat before
        seat ``deal % n``) with these hands and skart; other cards undealt."""
        PIQUET.check_deal(hands, {"the skart": skart})
        n = len(hands)
        state = cls.__new__(cls)
        state._blank(game, n, seed)
        state.deal = deal
        state.dealer = (deal + n - 1) % n
        state._set_active(tuple((deal + i) % n for i in range(n)))
        state.hands = [PIQUET.mask(h.split()) for h in hands]
        sizes = {m.bit_count() for m in state.hands}
        if len(sizes) != 1:
            raise ValueError(f"hands of unequal size: {hands!r}")
        state.cards_each = sizes.pop()
        state.skart = PIQUET.mask(skart.split())
        state.skart_size = state.skart.bit_count()
        state.skart_open = skart_open
        state._open_chosen = bool(state.skart_size)
        state.open_skart = state.skart if skart_open else 0
        state.stock = PIQUET.full & ~state.skart
        for hand in state.hands:
            state.stock &= ~hand
        state.phase = BID
        state.to_act = state.active[0]
        return state


#: The king and queen of every suit (the stuk of the trump suit among them).
_KQ = PIQUET.mask(r + s for s in SUITS for r in "KQ")


class KleintjeSampler(Sampler):
    """States consistent with one seat's view (KK11): the other hands, the
    skart unless open or laid back by this seat, the undealt stock; voids shown
    by the play, an open skart's cards, the stuk declared."""

    def __init__(self, game: Kleintje, view: KleintjeView) -> None:
        n = len(view.lives)
        state = KleintjeState.__new__(KleintjeState)
        state._blank(game, n, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state._set_active(view.active)
        state.to_act = view.to_act
        state.phase = view.phase
        state._over = view.to_act is None
        state.cards_each = view.cards_each
        state.skart_size = view.skart_size
        state._open_chosen = view.skart_open is not None
        state.skart_open = bool(view.skart_open)
        state.open_skart = PIQUET.mask(view.open_skart)
        state._bids = view.bids
        state._passed = frozenset(s for s, a in view.bids if a == PASS)
        state.bid = view.bid or 0
        state.player = -1 if view.player is None else view.player
        state.took = view.took
        state.trump = -1 if view.trump is None else SUITS.index(view.trump)
        state.stuk = view.stuk
        state.lives = view.lives
        state.kip = view.kip
        state._kip_used = bool(view.kip)
        state.out = view.out
        state._live = tuple(s for s in range(n) if all(s != o for o, _ in view.out))
        state._deal_scores = view.deal_scores
        tables = TRUMP_TABLES[state.trump] if state.trump >= 0 else RULES.tables()
        public = state._restore_tricks(tables, ROTTERDAM, view.tricks, view.trick)
        state._playing = view.phase == "play"
        me = view.seat
        own = PIQUET.mask(view.hand)
        known_skart = PIQUET.mask(view.skart)
        state.hands = [0] * n
        state.hands[me] = own
        state.skart = known_skart
        known = [0] * n
        if view.stuk == "declared":
            kq = state._stuk_cards() & ~public.seen
            state._stuk_pending = state.to_act == state.player and (
                kq == state._stuk_cards()
            )
            known[state.player] |= kq
        known[me] = 0
        loose = 0
        if view.took and me != state.player:
            loose = state.open_skart & ~public.seen & ~known[state.player]
        self._state = state
        self._known = known
        others = [s for s in view.active if s != me]
        dealt = view.cards_each if view.phase not in _CHOICES else 0
        sizes = []
        for s in others:
            size = dealt - public.played[s] - known[s].bit_count()
            if s == state.player and view.took:
                size += view.skart_size - view.skart_count
            sizes.append(size)
        shown = 0
        for mask in known:
            shown |= mask
        skart_hidden = 0
        if view.phase not in _CHOICES:
            skart_hidden = view.skart_count - known_skart.bit_count()
        hidden = PIQUET.full & ~(public.seen | own | known_skart | shown | loose)
        self._hidden: HiddenCards | None = None
        if not state._over:
            self._hidden = HiddenCards(
                hidden,
                others,
                sizes,
                [public.forbidden[s] for s in others],
                skart_hidden,
                hidden.bit_count() - sum(sizes) - skart_hidden + loose.bit_count(),
                loose=loose,
                player=others.index(state.player) if loose else -1,
            )

    def sample(self, rng: random.Random) -> KleintjeState:
        """A world: the template with hidden cards and later deals' seed drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        hidden = self._hidden
        if hidden is not None:
            hands, skart, stock = hidden.sample(rng)
            for seat, mask in zip(hidden.seats, hands, strict=True):
                state.hands[seat] = mask | self._known[seat]
            state.skart |= skart
            state.stock = stock
        return state


_CHOICES = (CARDS, SKART_CHOICE, OPENNESS)
_SKART_PHASES = (SKART, TRUMP, DISCARD)
#: The legal bids after a bid of ``10 * i``: the higher ones, then pass.
_BID_LEGAL = tuple((*BIDS[i:], PASS) for i in range(len(BIDS) + 1))


class Kleintje(Game):
    """Kleintje Klaverjas: the dealer's choices, bids of points, lives."""

    view_class = KleintjeView
    #: The worlds behind a view (KK11).
    sampler_class = KleintjeSampler

    name = "kleintje-klaverjas"
    description = (
        "The dealer sets the hand and skart sizes; the highest bid of points names "
        "trump; a lost deal costs a life, the last left wins"
    )
    title = "Kleintje Klaverjas (2-6 players, lives; variant Spit)"
    seat_counts = frozenset({2, 3, 4, 5, 6})
    ranks_follow_scores = False
    check_options = {"lives": 2}  # noqa: RUF012 - short: a few deals
    action_kinds = (
        card_move(
            meaning="play this card to the trick; while laying back the skart, "
            "lay it face down in the skart (KK4)"
        ),
        ActionKind(
            "deal:<n>", "deal:[1-5]", "the dealer deals this many cards each (KK1)"
        ),
        ActionKind(
            "skart:<n>", "skart:[0-5]", "the dealer puts this many in the skart (KK1)"
        ),
        ActionKind(
            "open | closed",
            "(?:open|closed)",
            "the dealer deals the skart face up or down",
        ),
        ActionKind("bid:<points>", r"bid:1?[0-9]0", "bid this many points, 10 to 160"),
        PASS_MOVE,
        TAKE_OR_LEAVE,
        suit_move("the player names trump (KK4)"),
        ActionKind(
            "stuk", "stuk", "say stuk before playing the first of trump K and Q (KK6)"
        ),
    )
    option_specs = (
        Option("lives", 6, doc="lives each player starts with (line 27)", minimum=1),
        Option(
            "spit",
            False,
            doc="variant Spit (line 30): a bid under 50 costs 1 life, 50-99 2, "
            "100 or more 3",
        ),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(
            self,
            n_seats,
            PIQUET,
            WORDS,
            (
                *("cards", "skart-size", "openness", "bid", "skart", "trump"),
                *("discard", "play", "over"),
            ),
        )

    def new_match(self, n_seats: int, seed: int) -> KleintjeState:
        """The first deal of a match: the dealer's choices come first."""
        self.check_seats(n_seats)
        return KleintjeState(self, n_seats, seed)
