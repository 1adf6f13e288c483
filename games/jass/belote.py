"""Belote (piekjas): a jass game for 2 to 4 players, each for himself.

Rule text: ``seeds/002`` from line 57, "Belote / Piekjas"; the rules as
implemented and the rulings (B1, B2, ...) are in ``games/jass/RULES.md``.

Six cards each at two or three seats, five at four; the next card is turned
for trump. Two bidding rounds (take the turned suit; then any suit), else
voorhand must play (the *Koe*); at two seats the *Smous* bid. The holder of
the trump seven may exchange it for the turned card (*Dix*). Then three more
cards each and the *Fille* shown (two or three seats), or at four the maker
takes the turned card and two more. Card ranks, points and the Rotterdam
duties are klaverjassen's (line 66); declarations in hand are
:mod:`games.jass.declarations`'; the maker must beat every other player
(:func:`games.jass.scoring.beat_each_or_reserve`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from games.cards import PIQUET, SUIT_WORDS, SUITS, CardMask, iter_bits
from games.jass.declarations import (
    ROEM,
    Declaration,
    DeclarationRules,
    DeclaresInHand,
    best_declarations,
    declaration_key,
    first_best,
)
from games.jass.klaverjassen import RULES, TRUMP_TABLES
from games.jass.moves import DECLARE_ROEM, PASS_MOVE, card_move, suit_move
from games.jass.scoring import beat_each_or_reserve, round_score
from games.sampling import ConstrainedDealer
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
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = ["BELOTE_ROEM", "Belote", "BeloteState", "BeloteView"]

TAKE, PASS, SMOUS = "take", "pass", "smous"
ACCEPT, REDEAL, DIX, KEEP = "accept", "redeal", "dix", "keep"
SUIT_ACTIONS = SUIT_WORDS
#: The Smous bid of the second round, with its suit (two seats, B4).
SMOUS_ACTIONS = tuple(f"{SMOUS}:{word}" for word in SUIT_ACTIONS)
_ALL_WORDS = frozenset(
    (TAKE, PASS, SMOUS, ACCEPT, REDEAL, DIX, KEEP, ROEM, *SUIT_ACTIONS, *SMOUS_ACTIONS)
)
#: Declarations (lines 83-86): four jacks 200, nines 150, A K 10 Q 100; runs
#: of 5 or more 100, of 4 50, of 3 20; a card in one four and one run.
BELOTE_ROEM = DeclarationRules(
    PIQUET,
    runs={3: 20, 4: 50, 5: 100},
    fours={"J": 200, "9": 150, "A": 100, "K": 100, "T": 100, "Q": 100},
    stuk=20,
    cards_serve_once=False,
)
#: A player with every trick; the others' share for each player without (B11).
KAPOT = 100
#: Cards dealt first, by seats (line 64).
_FIRST = {2: 6, 3: 6, 4: 5}
_FULL = PIQUET.full
_INDEX = PIQUET.index
_CARDS = PIQUET.cards
_NAMES = PIQUET.names


def announcement(found: Declaration) -> str:
    """How a declaration is announced (line 82: its kind and its highest card,
    not its suit): ``"four:J"``, ``"run:4:K"``."""
    rank = PIQUET.ranks[found.top]
    if found.name.startswith("four"):
        return f"four:{rank}"
    return f"run:{found.length}:{rank}"


def _announced_cards(word: str, suit: int) -> CardMask:
    """The cards an announcement names in ``suit`` (every suit for a four)."""
    parts = word.split(":")
    r = PIQUET.ranks.index(parts[-1])
    n = PIQUET.n_ranks
    if parts[0] == "four":
        return sum(1 << (s * n + r) for s in range(4))
    length = int(parts[1])
    return ((1 << length) - 1) << (suit * n + r - length + 1)


@dataclass(frozen=True)
class BeloteView(View):
    """What one seat knows: this deal with perfect recall, the scores (B14)."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; voorhand is the next seat.
    dealer: int
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: ``bid`` (first round), ``free`` (second), ``koe``, ``smous`` (answer
    #: the Smous bid), ``dix``, ``play`` or ``over``.
    phase: str
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: The card turned for trump (as turned; the Dix may replace it, B6).
    turned: str
    #: The face-up cards on the table: the turned card or the Dix, the Fille.
    table: tuple[str, ...]
    #: The trump suit, or ``None`` while bidding.
    trump: str | None
    #: This deal's bids and other decisions in order: ``(seat, action)``.
    bids: tuple[tuple[int, str], ...]
    #: The trump maker, or ``None`` while bidding.
    player: int | None
    #: Declarations this deal: ``(seat, announcements, points)`` (B8).
    declared: tuple[tuple[int, tuple[str, ...], int], ...]
    #: The declared cards, shown after the first trick: ``(seat, cards)``;
    #: before, this seat's own.
    shown: tuple[tuple[int, tuple[str, ...]], ...]
    #: The seat whose declarations score (B9), once the first trick is over.
    roem_seat: int | None
    #: The seat that said "stuk" (B10), or ``None``.
    stuk: int | None
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks (leader, cards, winner, points, 0).
    tricks: tuple[TrickRecord, ...]
    #: Each finished deal's scores, per seat.
    deal_scores: tuple[tuple[int, ...], ...]
    #: The match totals, per seat.
    scores: tuple[int, ...]
    #: Points waiting for the winner of the next deal (B12).
    reserve: int
    #: The match ends after the deal in which a player reaches this.
    target: int


#: The fields view() fills, in order: a changed BeloteView fails at import.
pin_fields(
    BeloteView,
    (
        "seat legal_actions deal dealer to_act phase hand turned table trump "
        "bids player declared shown roem_seat stuk trick tricks deal_scores "
        "scores reserve target"
    ),
)


class BeloteState(DeclaresInHand):
    """The referee's truth of one belote match."""

    game: Belote

    def __init__(self, game: Belote, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal()

    def _blank(self, game: Belote, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self._target: int = game.target(n_seats)
        self._use_rules(RULES, n_seats)
        self.deal = 0
        self.dealer = n_seats - 1
        self.to_act: int | None = 0
        self._over = False
        self.trump = -1
        self.player = -1
        self._phase = "bid"
        self._turned = 0  # the card turned for trump, as turned
        self._on_table = 0  # the turned card or the Dix, while on the table
        self._fille = -1
        self._table: tuple[str, ...] = ()
        self._stock: list[int] = []
        self._smous = -1  # the suit of a pending Smous bid
        self._bids: tuple[tuple[int, str], ...] = ()
        self._declared: tuple[tuple[int, tuple[str, ...], int], ...] = ()
        self._announced: tuple[tuple[int, tuple[str, ...], int], ...] = ()
        self._shown: tuple[tuple[int, tuple[str, ...]], ...] = ()
        self._best: list[tuple[int, ...]] = []  # per declaration, its key
        self._roem_seat: int | None = None
        self._stuk_seat = -1  # the seat holding trump K and Q as play begins
        self._stuk_mask = 0  # the trump K and Q
        self._deal_scores: tuple[tuple[int, ...], ...] = ()
        self._totals: tuple[int, ...] = (0,) * n_seats
        self._reserve = 0
        self._last_tricks: tuple[TrickRecord, ...] = ()
        self._last_deal: tuple[
            list[int], list[int], list[int], list[int], list[int], int, int, int, int
        ] = ([], [], [], [], [], -1, 0, -1, 0)
        self._roem_cache: list[tuple[Declaration, ...] | None] = [None] * n_seats

    def _start_deal(self) -> None:
        """Deal ``self.deal`` (B2): the first cards, a card turned for trump."""
        n, k = self.n_seats, self.deal
        order = PIQUET.shuffled(deal_rng(self.seed, k))
        self._reset_tricks(n)
        per = _FIRST[n]
        self.dealer = (k + n - 1) % n
        voorhand = k % n
        for i in range(n):
            seat = (voorhand + i) % n
            for card in order[i * per : (i + 1) * per]:
                self.hands[seat] |= 1 << card
        self._turned = self._on_table = order[n * per]
        self._stock = order[n * per + 1 :]
        self._fille = -1
        self._set_table()
        self._phase = "bid"
        self._smous = -1
        self._bids = ()
        self._declared = self._announced = ()
        self._shown = ()
        self._best = []
        self._roem_seat = None
        self._stuk_seat = -1
        self.trump = -1
        self.player = -1
        self.to_act = voorhand

    # -- bidding (B3-B6) ----------------------------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        phase = self._phase
        two = self.n_seats == 2
        if phase == "bid":
            return (TAKE, PASS, SMOUS) if two else (TAKE, PASS)
        if phase == "free":
            return (
                (PASS, *SUIT_ACTIONS, *SMOUS_ACTIONS) if two else (PASS, *SUIT_ACTIONS)
            )
        if phase == "koe":
            return SUIT_ACTIONS
        if phase == "smous":
            return (ACCEPT, REDEAL)
        # phase "dix" (B6): every seat that may hold the seven is asked; only
        # its holder may exchange it.
        seat = self.to_act
        assert seat is not None
        seven = 1 << _INDEX["7" + SUITS[self.trump]]
        return (DIX, KEEP) if self.hands[seat] & seven else (KEEP,)

    def _apply_other(self, action: str) -> None:
        if self._over:
            raise IllegalActionError(f"the match is over; {action!r} comes too late")
        if action not in self._other_actions():
            self._bad_action(action)
        seat = self.to_act
        assert seat is not None
        self._bids += ((seat, action),)
        self._legal = None
        n = self.n_seats
        voorhand = self.deal % n
        phase = self._phase
        turned_suit = PIQUET.suit_of(self._turned)
        if phase == "dix":
            if action == DIX:  # B6: the trump seven for the turned card
                seven = _INDEX["7" + SUITS[self.trump]]
                self.hands[seat] ^= 1 << seven | 1 << self._on_table
                self._on_table = seven
                self._set_table()
                self._deal_rest()
            else:
                after = self._dix_seat((seat - voorhand) % n + 1)
                if after < 0:
                    self._deal_rest()
                else:
                    self.to_act = after
        elif phase == "smous":
            if action == ACCEPT:
                self._make(1 - seat, self._smous)
            else:  # B4: a new deal
                self._end_deal((0,) * n, thrown_in=True)
        elif action == TAKE:
            self._make(seat, turned_suit)
        elif action in SUIT_ACTIONS:
            self._make(seat, SUIT_ACTIONS.index(action))
        elif action == SMOUS or action in SMOUS_ACTIONS:
            suit = turned_suit if action == SMOUS else SMOUS_ACTIONS.index(action)
            self._smous = suit
            self._phase = "smous"
            self.to_act = 1 - seat
        elif (seat + 1) % n == voorhand:  # a round passed out
            if phase == "bid":
                self._phase = "free"
            else:
                self._phase = "koe"  # B5: voorhand must play
            self.to_act = voorhand
        else:
            self.to_act = (seat + 1) % n

    def _make(self, maker: int, trump: int) -> None:
        """``maker`` plays with ``trump``: offer the Dix (B6), else deal on."""
        self.player = maker
        self.trump = trump
        # B6: the Dix is offered when the turned suit is trump and the turned
        # card is not its seven, to every seat that may hold the seven, whether
        # or not it does: who holds it, or that nobody does, stays hidden.
        if (
            trump == PIQUET.suit_of(self._turned)
            and self._turned != _INDEX["7" + SUITS[trump]]
        ):
            first = self._dix_seat(0)
            if first >= 0:
                self._phase = "dix"
                self.to_act = first
                return
        self._deal_rest()

    def _dix_seat(self, first: int) -> int:
        """The seat asked about the Dix ``first`` or more places after voorhand
        (voorhand first, clockwise, each once; at four seats not the maker),
        or -1 when every seat has been asked."""
        n = self.n_seats
        voorhand = self.deal % n
        for k in range(first, n):
            seat = (voorhand + k) % n
            if not (n == 4 and seat == self.player):
                return seat
        return -1

    def _deal_rest(self) -> None:
        """B7: three more cards each and the Fille (two or three seats), or the
        turned card and two more for the maker, three for the others (four)."""
        n = self.n_seats
        voorhand = self.deal % n
        stock = self._stock
        pos = 0
        for i in range(n):
            seat = (voorhand + i) % n
            count = 3
            if n == 4 and seat == self.player:
                self.hands[seat] |= 1 << self._on_table
                self._on_table = -1
                count = 2
            for card in stock[pos : pos + count]:
                self.hands[seat] |= 1 << card
            pos += count
        self._stock = stock[pos:]
        if self._stock:
            self._fille = self._stock.pop()
        self._set_table()
        self._begin_play()

    def _begin_play(self) -> None:
        self._phase = "play"
        self._roem_cache = [None] * self.n_seats
        self._find_stuk()
        self._begin_tricks(
            TRUMP_TABLES[self.trump], ROTTERDAM, self.deal % self.n_seats
        )

    def _find_stuk(self) -> None:
        """The seat holding the trump king and queen, before they are played."""
        stuk = (
            1 << _INDEX["K" + SUITS[self.trump]] | 1 << _INDEX["Q" + SUITS[self.trump]]
        )
        self._stuk_mask = stuk
        self._stuk_seat = -1
        for seat, hand in enumerate(self.hands):
            if hand & stuk == stuk:
                self._stuk_seat = seat

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in _INDEX or a in _ALL_WORDS,
            "a belote action: 'take', 'pass', a suit ('clubs' ... 'spades'), "
            "'smous', 'accept', 'redeal', 'dix', 'roem' or a card such as 'JC'",
        )

    # -- declarations (B8, B9) and stuk (B10) --------------------------------------

    def _hand_roem(self, seat: int) -> tuple[Declaration, ...]:
        """The seat's declarations (found once per seat and deal: the hand does
        not change before its first card)."""
        cached = self._roem_cache[seat]
        if cached is None:
            cached = self._roem_cache[seat] = best_declarations(
                self.hands[seat], BELOTE_ROEM
            )
        return cached

    def _roem_declared(self) -> None:
        seat, _, points = self._declared[-1]
        found = self._hand_roem(seat)
        self._announced += ((seat, tuple(announcement(d) for d in found), points),)
        self._best.append((seat, *self._best_key(found)))

    def _best_key(self, found: Sequence[Declaration]) -> tuple[int, int, int]:
        """B9: the best of a seat's declarations, by points, then number of
        cards, then its strongest card's trick rank."""
        beats = TRUMP_TABLES[self.trump].beats
        strength = [-b.bit_count() for b in beats]
        return max(declaration_key(d, strength) for d in found)

    def _stuk_said(self) -> bool:
        """B10: "stuk" is said with the holder's first card of the two."""
        seat = self._stuk_seat
        return seat >= 0 and self.hands[seat] & self._stuk_mask != self._stuk_mask

    # -- tricks and scoring (B11-B13) ----------------------------------------------

    def _trick_complete(self) -> None:
        self._close_trick()
        if len(self._tricks) == 1:
            self._roem_seat = first_best(
                [(e[0], e[1:]) for e in self._best], self.deal % self.n_seats,
                self.n_seats,
            )  # fmt: skip
            self._shown = tuple((s, cards) for s, cards, _ in self._declared)
        if self.hands[self._leader]:
            self.to_act = self._winner
        else:
            self._score_deal()

    def deal_points(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """This deal's trick points (last trick included), roem, tricks won and
        kapot bonus, per seat (B11)."""
        n = self.n_seats
        points, won = [0] * n, [0] * n
        for record in self._tricks:
            points[record[2]] += record[3]
            won[record[2]] += 1
        roem = [0] * n
        if self._roem_seat is not None:
            for seat, _, pts in self._declared:
                if seat == self._roem_seat:
                    roem[seat] += pts
        if self._stuk_seat >= 0:
            roem[self._stuk_seat] += BELOTE_ROEM.stuk
        bonus = [0] * n
        takers = [s for s in range(n) if won[s]]
        if len(takers) == 1:
            bonus[takers[0]] = KAPOT
        elif len(takers) < n:
            share = KAPOT * (n - len(takers)) // len(takers)
            for s in takers:
                bonus[s] = share
        return points, roem, won, bonus

    def _score_deal(self) -> None:
        """B12: the maker must beat every other player; rounding; reserve.

        What happened is kept as data (:attr:`_last_deal`); the narration puts
        it in words, so a playout pays for no strings."""
        n = self.n_seats
        points, roem, won, bonus = self.deal_points()
        raw = [points[s] + roem[s] + bonus[s] for s in range(n)]
        # B13: roem of a player without tricks who did not make trump does not
        # count when it would win him the match.
        lapsed = []
        for s in range(n):
            if (
                not won[s]
                and s != self.player
                and roem[s]
                and self._totals[s] + round_score(raw[s]) >= self._target
            ):
                raw[s] -= roem[s]
                lapsed.append(s)
        scores, reserve = beat_each_or_reserve(self.player, raw)
        final = [round_score(x) for x in scores]
        paid = -1
        if self._reserve:
            best = max(final)
            leaders = [s for s in range(n) if final[s] == best]
            if len(leaders) == 1:
                paid = leaders[0]
                final[paid] += self._reserve
        self._last_deal = (
            points, roem, bonus, raw, lapsed, self.player, reserve, paid, self._reserve
        )  # fmt: skip
        if paid >= 0:
            self._reserve = 0
        self._reserve += round_score(reserve)
        self._end_deal(tuple(final))

    def _summary(self) -> list[str]:
        """The last deal's score in words (for :meth:`narrate`)."""
        points, roem, bonus, raw, lapsed, maker, reserve, paid, paid_out = (
            self._last_deal
        )
        n = self.n_seats
        lines = [
            "deal points: "
            + ", ".join(
                f"seat {s} {points[s]}"
                + (f" + roem {roem[s]}" if roem[s] else "")
                + (f" + bonus {bonus[s]}" if bonus[s] else "")
                for s in range(n)
            )
        ]
        lines += [
            f"seat {s} took no trick: its roem would win, so it lapses" for s in lapsed
        ]
        if all(raw[maker] > raw[s] for s in range(n) if s != maker):
            lines.append(f"seat {maker} (maker) beat every other player")
        elif reserve:
            lines.append(
                f"seat {maker} (maker) is not above all: {reserve} to the reserve"
            )
        else:
            lines.append(
                f"seat {maker} (maker) is beaten: its {raw[maker]} go to the best"
            )
        if paid >= 0:
            lines.append(f"seat {paid} wins the deal and the reserve {paid_out}")
        return lines

    def _end_deal(self, scores: tuple[int, ...], *, thrown_in: bool = False) -> None:
        self._last_tricks = self._tricks
        self._deal_scores += (scores,)
        self._totals = tuple(a + b for a, b in zip(self._totals, scores, strict=True))
        self._playing = False
        self._legal = None
        if not thrown_in and max(self._totals) >= self._target:
            self._end_match()  # B15
            self._phase = "over"
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    def result(self) -> Result:
        """Each seat's total; ``deal_points[k]`` each seat's score in deal k."""
        return Result.from_scores(
            list(self._totals), self.teams, [list(d) for d in self._deal_scores]
        )

    # -- views ---------------------------------------------------------------

    def _set_table(self) -> None:
        """Name the face-up cards once per change (views read them often)."""
        table: tuple[str, ...] = ()
        if self._on_table >= 0:
            table = (_CARDS[self._on_table],)
        if self._fille >= 0:
            table += (_CARDS[self._fille],)
        self._table = table

    def view(self, seat: int) -> BeloteView:
        """What ``seat`` knows now (B14)."""
        trump = self.trump
        view = new_view(BeloteView)
        view.__dict__.update(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            deal=self.deal,
            dealer=self.dealer,
            to_act=self.to_act,
            phase=self._phase,
            hand=_NAMES(self.hands[seat]),
            turned=_CARDS[self._turned],
            table=self._table,
            trump=None if trump < 0 else SUITS[trump],
            bids=self._bids,
            player=None if self.player < 0 else self.player,
            declared=self._announced,
            shown=self._shown or (self._own_shown(seat) if self._declared else ()),
            roem_seat=self._roem_seat,
            stuk=self._stuk_seat if self._stuk_said() else None,
            trick=self._trick_view,
            tricks=self._tricks,
            deal_scores=self._deal_scores,
            scores=self._totals,
            reserve=self._reserve,
            target=self._target,
        )
        return view

    def _own_shown(self, seat: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
        return tuple((s, c) for s, c, _ in self._declared if s == seat)

    def clone(self) -> BeloteState:
        """An independent copy."""
        twin = super().clone()
        twin._roem_cache = self._roem_cache[:]
        twin._stock = self._stock[:]
        twin._best = self._best[:]
        return twin

    def deck(self) -> tuple[str, ...]:
        """The 32 piquet cards."""
        return _CARDS

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """The engine's places, the face-down ``stock`` and the face-up ``table``
        (the turned card or the Dix, and the Fille)."""
        places = dict(super().card_locations())
        places["stock"] = tuple(_CARDS[c] for c in sorted(self._stock))
        places["table"] = self._table
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other hands and the stock."""
        return super().hidden_from(seat) | {"stock"}

    # -- for people --------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Deal 0 told as every later deal: the dealer and the turned card."""
        return self._opening_lines()

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened."""
        seat, deal, phase = self.to_act, self.deal, self._phase
        n_tricks = len(self._tricks)
        stuk_said = self._stuk_said()
        self.apply(action)
        if action == ROEM:
            s, words, points = self._announced[-1]
            said = ", ".join(_spoken(w) for w in words)
            return [f"seat {s} declares {said}: {points}"]
        if phase != "play":
            lines = [_bid_line(seat, action, self)]
            if self.deal != deal:
                lines += ["Smous refused: a new deal", *self._opening_lines()]
                return lines
            if self._phase == "koe":
                lines.append(f"all passed twice: seat {self.to_act} is the Koe")
            if self._phase == "play":
                lines.append(
                    f"{SUITS[self.trump]} is trump; seat {self.player} makes it"
                    + (f"; Fille {_CARDS[self._fille]}" if self._fille >= 0 else "")
                )
            return lines
        line = f"seat {seat} plays {action}"
        if seat == self._stuk_seat and action[0] in "KQ" and self.trump >= 0:
            if action[1] == SUITS[self.trump]:
                line += ": brok" if stuk_said else ': "stuk"'
        lines = [line]
        if self.deal != deal or self._over:
            record = self._last_tricks[-1]
            lines.append(_trick_line(record, len(self._last_tricks)))
            lines += self._summary()
            lines.append(
                f"deal {deal} scores "
                + "-".join(str(s) for s in self._deal_scores[-1])
                + "; match "
                + "-".join(str(s) for s in self._totals)
                + (f"; reserve {self._reserve}" if self._reserve else "")
            )
            if self._over:
                lines.append(match_over_line(self.result()))
            else:
                lines += self._opening_lines()
        elif len(self._tricks) > n_tricks:
            lines.append(_trick_line(self._tricks[-1], n_tricks + 1))
            if n_tricks == 0 and self._roem_seat is not None:
                lines.append(f"the declarations of seat {self._roem_seat} score")
        return lines

    def _opening_lines(self) -> list[str]:
        return [
            f"deal {self.deal}: dealer seat {self.dealer}, voorhand seat "
            f"{self.to_act}, turned {_CARDS[self._turned]}"
        ]

    # -- construction for tests ---------------------------------------------

    @classmethod
    def from_deal(
        cls,
        game: Belote,
        hands: Sequence[str],
        turned: str,
        stock: str,
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> BeloteState:
        """A state at the first bid of deal ``deal`` with the given cards.

        For tests and worked examples: ``hands`` are the first cards (six each
        at two or three seats, five at four), seat 0 first; ``turned`` is the
        card turned for trump; ``stock`` the rest in dealing order (its last
        card is the Fille). Later deals are dealt from ``seed``.
        """
        PIQUET.check_deal(hands, {"the turned card": [turned], "the stock": stock})
        n = len(hands)
        masks = [PIQUET.mask(h.split()) for h in hands]
        rest = [_INDEX[c] for c in stock.split()]
        union = PIQUET.mask([turned, *stock.split()])
        for m in masks:
            union |= m
        if (
            n not in game.seat_counts
            or union != _FULL
            or any(m.bit_count() != _FIRST[n] for m in masks)
        ):
            raise ValueError(f"need {n} hands and a stock holding the pack once")
        state = cls.__new__(cls)
        state._blank(game, n, seed)
        state.deal = deal
        state._start_deal()
        state.hands = masks
        state._turned = state._on_table = _INDEX[turned]
        state._set_table()
        state._stock = rest
        return state


def _spoken(word: str) -> str:
    """An announcement for people: ``"four:J"`` -> ``"four Js"``, ``"run:4:K"``
    -> ``"run of 4 to the K"``."""
    parts = word.split(":")
    if parts[0] == "four":
        return f"four {parts[1]}s"
    return f"run of {parts[1]} to the {parts[2]}"


def _bid_line(seat: int | None, action: str, state: BeloteState) -> str:
    if action == TAKE:
        return f"seat {seat} takes {_CARDS[state._turned][1]}"
    if action == PASS:
        return f"seat {seat} passes"
    if action.startswith(SMOUS):
        return f"seat {seat} says Smous" + (
            f" in {action.split(':')[1]}" if ":" in action else ""
        )
    if action == ACCEPT:
        return f"seat {seat} accepts the Smous"
    if action == REDEAL:
        return f"seat {seat} asks for a new deal"
    if action == DIX:
        return f"seat {seat} exchanges the seven of trump for the turned card (Dix)"
    if action == KEEP:
        return f"seat {seat} does not exchange (no Dix)"
    return f"seat {seat} names {action}"


def _trick_line(record: TrickRecord, number: int) -> str:
    return f"trick {number} to seat {record[2]}: {record[3]} points"


class BeloteSampler(Sampler):
    """States consistent with one seat's view (B16): the unseen cards dealt
    uniformly to the other hands and the stock, respecting voids shown by the
    play, the turned card taken by the Dix or the maker of four, the stuk and
    every declared card still unplayed (an announced run in a suit drawn among
    those it can be in, until its cards are shown)."""

    def __init__(self, game: Belote, view: BeloteView) -> None:
        n = len(view.scores)
        state = BeloteState.__new__(BeloteState)
        state._blank(game, n, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state.to_act = view.to_act
        state.trump = -1 if view.trump is None else SUITS.index(view.trump)
        state.player = -1 if view.player is None else view.player
        state._phase = view.phase
        if view.phase == "smous":  # the Smous bid waiting for its answer
            bid = view.bids[-1][1]
            state._smous = (
                PIQUET.suit_of(_INDEX[view.turned])
                if bid == SMOUS
                else SMOUS_ACTIONS.index(bid)
            )
        state._bids = view.bids
        state._announced = view.declared
        state._shown = view.shown
        state._roem_seat = view.roem_seat
        if view.stuk is not None:
            state._stuk_seat = view.stuk
            state._stuk_mask = (
                1 << _INDEX["K" + view.trump] | 1 << _INDEX["Q" + view.trump]  # type: ignore[operator]
            )
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        state._reserve = view.reserve
        state._over = view.to_act is None
        state._turned = _INDEX[view.turned]
        playing = view.phase == "play"
        table = [_INDEX[c] for c in view.table]
        state._on_table = table[0] if table and (n < 4 or not playing) else -1
        state._fille = table[1] if len(table) > 1 else -1
        state._table = view.table
        tables = TRUMP_TABLES[state.trump] if state.trump >= 0 else RULES.tables()
        public = state._restore_tricks(tables, ROTTERDAM, view.tricks, view.trick)
        state._playing = playing
        seen = public.seen | PIQUET.mask(view.table)
        me = view.seat
        own = PIQUET.mask(view.hand)
        known = [0] * n
        forbidden = public.forbidden
        trump = view.trump
        for seat, action in view.bids:
            # The Dix took the turned card; "keep" tells nothing (B6).
            if action == DIX:
                known[seat] |= 1 << state._turned
        if playing and n == 4:  # the maker took the turned card or the Dix
            known[state.player] |= 1 << (state._turned if trump is None else (
                _INDEX["7" + trump] if any(a == DIX for _, a in view.bids)
                else state._turned))  # fmt: skip
        played = [0] * n
        for seat, card in _plays(view):
            played[seat] |= 1 << _INDEX[card]
        self._played = played
        shown_by = dict(view.shown)
        # Per declaration: its cards as far as known, and its runs to place.
        self._decl: list[tuple[int, int, list[str]]] = []
        self._runs: list[tuple[int, str]] = []
        self._stuk_open = view.stuk is None
        for seat, words, _ in view.declared:
            if seat in shown_by:
                self._decl.append((seat, PIQUET.mask(shown_by[seat]), []))
                continue
            fixed, runs = 0, []
            for word in words:
                if word.startswith("four"):
                    fixed |= _announced_cards(word, 0)
                else:
                    runs.append(word)
                    self._runs.append((seat, word))
            self._decl.append((seat, fixed, runs))
            known[seat] |= fixed
        for seat, cards in view.shown:
            known[seat] |= PIQUET.mask(cards)
        if playing and trump is not None:
            stuk = 1 << _INDEX["K" + trump] | 1 << _INDEX["Q" + trump]
            if view.stuk is not None:
                known[view.stuk] |= stuk
            else:  # who played a card of the stuk without "stuk" lacks the other
                for seat, card in _plays(view):
                    if stuk >> _INDEX[card] & 1:
                        forbidden[seat] |= stuk
        for seat in range(n):
            known[seat] &= ~seen
        known[me] = 0
        state.hands = [0] * n
        state.hands[me] = own
        state._stock = []
        self._state = state
        self._me = me
        self._others = [s for s in range(n) if s != me]
        self._known = known
        hand_size = (9 if n < 4 else 8) if playing else _FIRST[n]
        if playing:
            stock_size = 32 - n * hand_size - (2 if n < 4 else 0)
        else:
            stock_size = 32 - n * hand_size - 1
        self._sizes = [
            hand_size - public.played[s] - known[s].bit_count() for s in self._others
        ] + [stock_size]
        shown = 0
        for mask in known:
            shown |= mask
        self._pool = _FULL & ~(seen | own | shown)
        self._forbidden = [forbidden[s] for s in self._others] + [0]
        self._dealer: ConstrainedDealer | None = None
        if not state._over and not self._runs:
            self._dealer = ConstrainedDealer(
                list(iter_bits(self._pool)), self._forbidden, self._sizes
            )

    def sample(self, rng: random.Random) -> BeloteState:
        """A world: the template with the hidden cards and later deals' seed drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        if state._over:
            return state
        known = self._known[:]
        dealer = self._dealer
        placed: dict[tuple[int, str], int] = {}
        if dealer is None:  # place the announced runs first
            sizes = self._sizes[:]
            pool = self._pool
            for seat, word in self._runs:
                k = self._others.index(seat)
                free = pool | known[seat] | self._played[seat]
                suits = [
                    s for s in range(4)
                    if not _announced_cards(word, s) & ~free
                    and not _announced_cards(word, s) & self._forbidden[k]
                ]  # fmt: skip
                if not suits:  # pragma: no cover - the true suit is always free
                    continue
                run = _announced_cards(word, rng.choice(suits))
                placed[seat, word] = run
                cards = run & pool
                known[seat] |= cards
                sizes[k] -= cards.bit_count()
                pool &= ~cards
            dealer = ConstrainedDealer(list(iter_bits(pool)), self._forbidden, sizes)
        if self._decl:
            declared = []
            for (seat, fixed, runs), (_, _, points) in zip(
                self._decl, state._announced, strict=True
            ):
                for word in runs:
                    fixed |= placed.get((seat, word), 0)
                declared.append((seat, _NAMES(fixed), points))
                found = best_declarations(fixed, BELOTE_ROEM)
                state._best.append((seat, *state._best_key(found)))
            state._declared = tuple(declared)
        dealt = dealer.sample(rng)
        for seat, mask in zip(self._others, dealt, strict=False):
            state.hands[seat] = mask | known[seat]
        state._stock = list(iter_bits(dealt[-1]))
        if state._playing:
            state._roem_cache = [None] * state.n_seats
            if self._stuk_open:
                state._find_stuk()
        return state


def _plays(view: BeloteView) -> list[tuple[int, str]]:
    """Every card played this deal with its seat, in order."""
    n = len(view.scores)
    out = [
        ((record[0] + i) % n, card)
        for record in view.tricks
        for i, card in enumerate(record[1])
    ]
    return out + list(view.trick)


class Belote(Game):
    """Belote / piekjas: 2 to 4 players each for himself, a turned trump."""

    view_class = BeloteView
    #: The worlds behind a view (B16).
    sampler_class = BeloteSampler

    name = "belote"
    description = (
        "Jass with a turned trump: two bidding rounds, else the Koe; the Dix exchange; "
        "the maker must beat every other player"
    )
    title = "Belote / Piekjas (2 to 4 players, each for himself)"
    seat_counts = frozenset({2, 3, 4})
    check_options = {"target": 300}  # noqa: RUF012
    #: The text's match target by seat count (line 99, B15).
    TARGETS: ClassVar[dict[int, int]] = {2: 500, 3: 700, 4: 1000}
    action_kinds = (
        card_move(),
        ActionKind("take", "take", "first round: be the maker with the turned suit"),
        PASS_MOVE,
        suit_move("second round (the Koe): be the maker with this suit"),
        ActionKind(
            "smous | smous:<suit>",
            "smous(?::(?:clubs|diamonds|hearts|spades))?",
            "two seats: bid Smous, on the turned suit or a named one (B4)",
        ),
        ActionKind(
            "accept | redeal",
            "(?:accept|redeal)",
            "answer to Smous: let the bidder make it, or deal again (B4)",
        ),
        ActionKind(
            "dix | keep",
            "(?:dix|keep)",
            "the trump seven: exchange it for the turned card, or keep it (B6)",
        ),
        DECLARE_ROEM,
    )
    option_specs = (
        Option(
            "target",
            0,
            doc=(
                "match target; 0: by seat count, 500 at two, 700 at three, 1000 "
                "at four (line 99, B15)"
            ),
            minimum=0,
            # Before issue #25 a target per seat count; each is now `target`,
            # and a record that spells all three out still resolves (B15).
            aliases=("target2", "target3", "target4"),
            alias_defaults=(("target2", 500), ("target3", 700), ("target4", 1000)),
        ),
    )

    def target(self, n_seats: int) -> int:
        """The match target at ``n_seats`` (B15)."""
        return int(self.options["target"]) or self.TARGETS[n_seats]

    def recorded_options(self, n_seats: int) -> dict[str, Any]:
        """The options as databases made before ``target`` recorded them (B15).

        Those held ``target2``, ``target3`` and ``target4``; only the one of
        the table's seat count played a part, the others are recorded at
        their defaults, as a config that set only its own had them.
        """
        old = {f"target{n}": t for n, t in self.TARGETS.items()}
        old[f"target{n_seats}"] = self.target(n_seats)
        return old

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(
            self,
            n_seats,
            PIQUET,
            _ALL_WORDS,
            ("bid", "free", "koe", "smous", "dix", "play", "over"),
        )

    def new_match(self, n_seats: int, seed: int) -> BeloteState:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        return BeloteState(self, n_seats, seed)
