"""Klapper (klapperjas): a 24-card jass game for 2, 3, 4 or 6 seats.

Rule text: ``seeds/002`` from line 101, "Klapper / Klapperjas"; the rules as
implemented and the rulings (K1, K2, ...) are in ``games/jass/RULES.md``.

Four seats play in two partnerships (seats 0 and 2 against 1 and 3), six in
two teams of three sitting alternately, three each for himself (line 151).
The first dealer is drawn by omboeren (line 111, :func:`omboeren`), then the
deal passes clockwise. Every card is dealt (24 / seats each); the dealer's
last card is dealt face up and proposes trump, and stays the dealer's (line
115). Two seats (line 153) get six cards and three more picked up after the
bidding; the other six are a dead hand whose last card is turned for trump
(K12). The card play is
:class:`~games.tricks.TrickState`'s with the Rotterdam duties (line 127);
declarations in hand are :mod:`games.jass.declarations`'; card points and
the rule "the playing side must score more than every other side" are
:mod:`games.jass.scoring`'s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from games.cards import PIQUET24, SUIT_WORDS, SUITS, iter_bits
from games.jass.declarations import (
    ROEM,
    Declaration,
    DeclarationRules,
    DeclaresInHand,
    best_declarations,
    declared_words,
    first_best,
    holds_stuk,
)
from games.jass.moves import DECLARE_ROEM, PASS_MOVE, card_move, suit_move
from games.jass.scoring import (
    LAST_TRICK,
    PLAIN_POINTS,
    TRUMP_POINTS,
    beat_every_side,
)
from games.sampling import ConstrainedDealer
from games.tricks import ROTTERDAM, TrickRecord, TrickRules
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
from harness.contracts.seeding import deal_rng, derive_seed
from harness.contracts.view import new_view, pin_fields
from harness.match.narration import match_over_line

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "KLAPPER_ROEM",
    "TRUMP_TABLES",
    "Klapper",
    "KlapperState",
    "KlapperView",
    "omboeren",
]

PLAY, PASS = "play", "pass"
SUIT_ACTIONS = SUIT_WORDS
#: Trick ranks (line 125): plain A 10 K Q J 9, trumps J 9 A 10 K Q; weakest first.
RULES = TrickRules(
    PIQUET24,
    plain_order="9JQKTA",
    trump_order="QKTA9J",
    plain_points=PLAIN_POINTS,
    trump_points=TRUMP_POINTS,
    last_trick=LAST_TRICK,
)
#: ``TRUMP_TABLES[suit]``: the cards' ranks and points with that suit trump.
TRUMP_TABLES = tuple(RULES.tables(t) for t in range(4))
#: Declarations (lines 131-143): four jacks 200, other fours 100, runs of 5
#: (or more, K4) 100, of 4 50, of 3 30; stuk 20; a card in one only (K5).
KLAPPER_ROEM = DeclarationRules(
    PIQUET24,
    runs={3: 30, 4: 50, 5: 100},
    fours={r: 200 if r == "J" else 100 for r in PIQUET24.ranks},
    stuk=20,
)


def omboeren(seed: int, n_seats: int) -> int:
    """The first dealer of a match, by "omboeren" (seed 002 line 111; K2).

    "Deel iedereen kaarten toe tot ze een boer krijgen, de eerste boer wordt
    deler": the pack, shuffled by a stream of its own from the match seed
    (``derive_seed("omboeren", seed)``, so it says nothing about any deal's
    cards), is dealt face up one card at a time from seat 0 round the table;
    the seat that gets the first jack deals the first deal.
    """
    order = PIQUET24.shuffled(random.Random(derive_seed("omboeren", seed)))
    first_jack = next(i for i, c in enumerate(order) if PIQUET24.cards[c][0] == "J")
    return first_jack % n_seats


@dataclass(frozen=True)
class KlapperView(View):
    """What one seat knows: this deal with perfect recall, the scores (K9)."""

    #: Index of the current deal, from 0.
    deal: int
    #: The dealer's seat; voorhand is the next seat.
    dealer: int
    #: The team of each seat.
    teams: tuple[int, ...]
    #: The seat to act, or ``None`` when the match is over.
    to_act: int | None
    #: This seat's cards, in deck order.
    hand: tuple[str, ...]
    #: The dealer's face-up card (it proposes trump and stays the dealer's).
    open_card: str
    #: The proposed suit, as a one-element tuple (as klaverjassen's ``turned``).
    turned: tuple[str, ...]
    #: The trump suit, or ``None`` while bidding.
    trump: str | None
    #: This deal's bids in order: ``(seat, action)``.
    bids: tuple[tuple[int, str], ...]
    #: The seat that became player, or ``None`` while bidding.
    player: int | None
    #: Declarations made this deal: ``(seat, cards, points)``.
    declared: tuple[tuple[int, tuple[str, ...], int], ...]
    #: The team whose declarations score (K6), once the first trick is over.
    roem_team: int | None
    #: The trick on the table: ``(seat, card)`` in play order.
    trick: tuple[tuple[int, str], ...]
    #: This deal's finished tricks (leader, cards, winner, points, 0).
    tricks: tuple[TrickRecord, ...]
    #: Each finished deal's scores, per team.
    deal_scores: tuple[tuple[int, ...], ...]
    #: The match totals, per team.
    scores: tuple[int, ...]


#: The fields view() fills, in order: a changed KlapperView fails at import.
pin_fields(
    KlapperView,
    (
        "seat legal_actions deal dealer teams to_act hand open_card turned "
        "trump bids player declared roem_team trick tricks deal_scores scores"
    ),
)


class KlapperState(DeclaresInHand):
    """The referee's truth of one klapper match."""

    game: Klapper

    def __init__(self, game: Klapper, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._first_dealer = omboeren(seed, n_seats)
        self._start_deal()

    def _blank(self, game: Klapper, n_seats: int, seed: int) -> None:
        self.game = game
        self.n_seats = n_seats
        self.seed = seed
        self._target: int = game.options["target"]
        self._use_rules(RULES, n_seats)
        self._n_teams = max(self.teams) + 1
        self.deal = 0
        #: Who dealt deal 0 (K2: drawn by omboeren; the deal passes clockwise).
        self._first_dealer = n_seats - 1
        self.dealer = n_seats - 1
        self.to_act: int | None = 0
        self._over = False
        self.trump = -1
        self.player = -1
        self._open = 0
        self._phase = "bid"
        self._bids: tuple[tuple[int, str], ...] = ()
        self._declared: tuple[tuple[int, tuple[str, ...], int], ...] = ()
        self._roem_team: int | None = None
        self._deal_scores: tuple[tuple[int, ...], ...] = ()
        self._totals: tuple[int, ...] = (0,) * self._n_teams
        self._last_tricks: tuple[TrickRecord, ...] = ()
        self._last_summary = ""
        self._roem_cache: list[tuple[Declaration, ...] | None] = [None] * n_seats
        # Two seats (K12): the three cards each seat picks up after the bidding,
        # and the dead hand (its last card, the open card, included).
        self._pending: list[int] = [0] * n_seats
        self._dead = 0

    def _start_deal(self) -> None:
        """Deal ``self.deal`` (K2): every card, the dealer's last one face up;
        at two seats (K12) six each, three each set aside, six dead."""
        n, k = self.n_seats, self.deal
        rng = deal_rng(self.seed, k)
        order = PIQUET24.shuffled(rng)
        self._reset_tricks(n)
        per = 24 // n if n > 2 else 6
        self.dealer = (self._first_dealer + k) % n
        voorhand = self._voorhand
        for i in range(n):  # voorhand gets the first cards, the dealer the last
            seat = (voorhand + i) % n
            for card in order[i * per : (i + 1) * per]:
                self.hands[seat] |= 1 << card
        if n == 2:
            self._pending = [0, 0]
            for i in range(2):
                seat = (voorhand + i) % 2
                for card in order[12 + 3 * i : 15 + 3 * i]:
                    self._pending[seat] |= 1 << card
            self._dead = sum(1 << card for card in order[18:])
        self._open = order[-1]
        self._phase = "bid"
        self._bids = ()
        self._declared = ()
        self._roem_team = None
        self.trump = -1
        self.player = -1
        self.to_act = voorhand

    # -- bidding ------------------------------------------------------------------

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self._phase == "bid":
            return (PLAY, PASS)
        return (PASS, *SUIT_ACTIONS)

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
        if action == PLAY:
            self._begin_play(seat, PIQUET24.suit_of(self._open))
        elif action in SUIT_ACTIONS:
            self._begin_play(seat, SUIT_ACTIONS.index(action))
        elif len(self._bids) == n:
            self._phase = "free"  # K3: a second round, any suit
            self.to_act = self._voorhand
        elif len(self._bids) == 2 * n:
            # K3: all passed twice: the next dealer deals; this deal scores 0.
            self._end_deal((0,) * self._n_teams)
        else:
            self.to_act = (seat + 1) % n

    def _begin_play(self, player: int, trump: int) -> None:
        if self.n_seats == 2:  # K12: the set-aside cards are picked up now
            for seat in range(2):
                self.hands[seat] |= self._pending[seat]
            self._pending = [0, 0]
        self.player = player
        self.trump = trump
        self._phase = "play"
        self._roem_cache = [None] * self.n_seats
        self._begin_tricks(TRUMP_TABLES[trump], ROTTERDAM, self._voorhand)

    @property
    def _voorhand(self) -> int:
        """The seat after the dealer: it bids first and leads (lines 119, 123)."""
        return (self.dealer + 1) % self.n_seats

    def _bad_action(self, action: object) -> NoReturn:
        reject_action(
            self,
            action,
            lambda a: a in PIQUET24.index or a in (PLAY, PASS, ROEM, *SUIT_ACTIONS),
            "a klapper action: 'play', 'pass', a suit ('clubs' ... 'spades'), "
            "'roem' or a card such as 'JC'",
        )

    # -- declarations (K5, K6) ------------------------------------------------------

    def _hand_roem(self, seat: int) -> tuple[Declaration, ...]:
        """The seat's declarations, the stuk included (a card may also serve in it).

        Asked at every decision of the first trick, so found once per seat and
        deal (the hand does not change before the seat's first card)."""
        cached = self._roem_cache[seat]
        if cached is not None:
            return cached
        found = best_declarations(self.hands[seat], KLAPPER_ROEM)
        if holds_stuk(self.hands[seat], self.trump, KLAPPER_ROEM):
            king = 1 << PIQUET24.index["K" + SUITS[self.trump]]
            queen = 1 << PIQUET24.index["Q" + SUITS[self.trump]]
            found = (*found, Declaration("stuk", king | queen, KLAPPER_ROEM.stuk, 2, 0))
        self._roem_cache[seat] = found
        return found

    def _declaration_winner(self) -> int | None:
        """The team whose declarations score (K6), or ``None`` without any: the
        seat with the most points declared, then with the strongest declared
        card (trick rank with this trump), then the first from voorhand."""
        if not self._declared:
            return None
        beats = TRUMP_TABLES[self.trump].beats
        n = self.n_seats
        voorhand = self._voorhand
        index = PIQUET24.index
        best = first_best(
            [
                (seat, (points, max(-beats[index[c]].bit_count() for c in names)))
                for seat, names, points in self._declared
            ],
            voorhand,
            n,
        )
        assert best is not None
        return self.teams[best]

    # -- tricks and scoring --------------------------------------------------

    def _trick_complete(self) -> None:
        self._close_trick()
        if len(self._tricks) == 1:
            self._roem_team = self._declaration_winner()
        if self.hands[self._leader]:
            self.to_act = self._winner
        else:
            self._score_deal()

    def team_points(self) -> tuple[list[int], list[int]]:
        """This deal's trick points (with the last trick) and roem, per team."""
        points = [0] * self._n_teams
        for record in self._tricks:
            points[self.teams[record[2]]] += record[3]
        roem = [0] * self._n_teams
        if self._roem_team is not None:
            for seat, _, pts in self._declared:
                if self.teams[seat] == self._roem_team:
                    roem[self._roem_team] += pts
        return points, roem

    def _score_deal(self) -> None:
        """K7: the playing side must score more than every other side."""
        points, roem = self.team_points()
        total = [p + r for p, r in zip(points, roem, strict=True)]
        mine = self.teams[self.player]
        made, scores = beat_every_side(mine, total)
        sides = ", ".join(
            f"team {i} {p}" + (f" + roem {r}" if r else "")
            for i, (p, r) in enumerate(zip(points, roem, strict=True))
        )
        verdict = "made" if made else f"not more than every other side: team {mine} 0"
        self._last_summary = f"team {mine} (makers): {sides}: {verdict}"
        self._end_deal(scores)

    def _end_deal(self, scores: tuple[int, ...]) -> None:
        self._last_tricks = self._tricks
        self._deal_scores += (scores,)
        self._totals = tuple(a + b for a, b in zip(self._totals, scores, strict=True))
        self._playing = False
        self._legal = None
        if max(self._totals) >= self._target:
            # K8: the match ends after the deal in which a team reaches the target.
            self._end_match()
            self._phase = "over"
        else:
            self.deal += 1
            if not self.halt_after_deal:
                self._start_deal()

    def result(self) -> Result:
        """Each seat's team total; ``deal_points[k]`` each seat's team's deal k."""
        teams = self.teams
        return Result.from_scores(
            [self._totals[t] for t in teams],
            teams,
            [[d[t] for t in teams] for d in self._deal_scores],
        )

    # -- views ---------------------------------------------------------------

    def view(self, seat: int) -> KlapperView:
        """What ``seat`` knows now (K9)."""
        trump = self.trump
        # Filled without the frozen dataclass's __init__ (one setattr per field
        # costs more than the rules of a decision); same fields, same order.
        view = new_view(KlapperView)
        view.__dict__.update(
            seat=seat,
            legal_actions=self.legal_actions() if seat == self.to_act else (),
            deal=self.deal,
            dealer=self.dealer,
            teams=self.teams,
            to_act=self.to_act,
            hand=PIQUET24.names(self.hands[seat]),
            open_card=PIQUET24.cards[self._open],
            turned=(SUITS[PIQUET24.suit_of(self._open)],),
            trump=None if trump < 0 else SUITS[trump],
            bids=self._bids,
            player=None if self.player < 0 else self.player,
            declared=self._declared,
            roem_team=self._roem_team,
            trick=self._trick_view,
            tricks=self._tricks,
            deal_scores=self._deal_scores,
            scores=self._totals,
        )
        return view

    def clone(self) -> KlapperState:
        """An independent copy; its roem look-ups are its own (hands may differ)."""
        twin = super().clone()
        twin._roem_cache = self._roem_cache[:]
        twin._pending = self._pending[:]
        return twin

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """The engine's places; at two seats (K12) also each seat's set-aside
        cards (``pending:<seat>``, until the bidding ends), the dead hand
        (``dead``) and its open card (``open``)."""
        places = dict(super().card_locations())
        if self.n_seats == 2:
            names = PIQUET24.names
            for seat in range(2):
                places[f"pending:{seat}"] = names(self._pending[seat])
            places["dead"] = names(self._dead & ~(1 << self._open))
            places["open"] = (PIQUET24.cards[self._open],)
        return places

    def hidden_from(self, seat: int) -> frozenset[str]:
        """The other hands; at two seats also the set-aside cards (unseen by
        their owner too until picked up) and the dead hand (K12)."""
        hidden = super().hidden_from(seat)
        if self.n_seats == 2:
            return hidden | {"pending:0", "pending:1", "dead"}
        return hidden

    def deck(self) -> tuple[str, ...]:
        """The 24 cards, A down to 9 in each suit."""
        return PIQUET24.cards

    # -- for people --------------------------------------------------------

    def narrate_start(self) -> list[str]:
        """Deal 0 told as every later deal: the dealer and the open card."""
        return self._opening_lines()

    def narrate(self, action: str) -> list[str]:
        """Apply ``action`` and tell what happened."""
        seat, deal, phase = self.to_act, self.deal, self._phase
        n_tricks = len(self._tricks)
        said = (
            declared_words(self._hand_roem(seat))
            if action == ROEM and seat is not None
            else ""
        )
        self.apply(action)
        if action == ROEM:
            s, cards, points = self._declared[-1]
            return [f"seat {s} declares {said} ({' '.join(cards)}), {points}"]
        if phase != "play":
            if action == PLAY:
                line = f"seat {seat} takes {SUITS[self.trump]}"
            elif action == PASS:
                line = f"seat {seat} passes"
            else:
                line = f"seat {seat} names {action}"
            lines = [line]
            if self.deal != deal:
                lines.append(
                    "all passed twice: nobody takes the game; the next dealer deals"
                )
                lines += self._opening_lines()
            elif self._phase == "play":
                lines.append(
                    f"{SUITS[self.trump]} is trump; seat {self.player} "
                    f"(team {self.teams[self.player]}) makes it"
                )
                if self.n_seats == 2:
                    lines.append("both take up their three set-aside cards")
            return lines
        lines = [f"seat {seat} plays {action}"]
        if self.deal != deal or self._over:
            record = self._last_tricks[-1]
            lines.append(_trick_line(record, len(self._last_tricks)))
            lines.append(self._last_summary)
            lines.append(
                f"deal {deal} scores "
                + "-".join(str(s) for s in self._deal_scores[-1])
                + "; match "
                + "-".join(str(s) for s in self._totals)
            )
            if self._over:
                lines.append(match_over_line(self.result()))
            else:
                lines += self._opening_lines()
        elif len(self._tricks) > n_tricks:
            lines.append(_trick_line(self._tricks[-1], n_tricks + 1))
            if n_tricks == 0 and self._declared:
                team = self._roem_team
                lines.append(f"the declarations of team {team} score")
        return lines

    def _opening_lines(self) -> list[str]:
        dead = " from the dead hand" if self.n_seats == 2 else ""
        return [
            f"deal {self.deal}: dealer seat {self.dealer}, voorhand seat "
            f"{self.to_act}, open card {PIQUET24.cards[self._open]}{dead}"
        ]

    # -- construction for tests ---------------------------------------------

    @classmethod
    def from_hands(
        cls,
        game: Klapper,
        hands: Sequence[str],
        *,
        trump: str,
        player: int | None = None,
        deal: int = 0,
        seed: int = 0,
        dead: str = "",
    ) -> KlapperState:
        """A state at the first card of deal ``deal`` with the given hands.

        For tests and worked examples: ``hands`` hold the 24 cards once, in
        equal parts, seat 0 first; the dealer's last listed card is the open
        card; ``trump`` was made by ``player`` (default voorhand), who leads
        nothing: voorhand leads. Seat ``n - 1`` counts as deal 0's dealer (no
        omboeren), so deal ``k`` is dealt by seat ``(k + n - 1) mod n``. Later
        deals are dealt from ``seed``. Two
        seats (K12): nine cards each, and the six of the ``dead`` hand, whose
        last listed card is the open card.
        """
        PIQUET24.check_deal(hands, {"the dead hand": dead})
        n = len(hands)
        masks = [PIQUET24.mask(h.split()) for h in hands]
        union = PIQUET24.mask(dead.split())
        for m in masks:
            union |= m
        per = 24 // n if n > 2 else 9
        if (
            n not in game.seat_counts
            or union != PIQUET24.full
            or any(m.bit_count() != per for m in masks)
        ):
            raise ValueError(f"need {n} equal hands holding the pack once: {hands!r}")
        state = cls.__new__(cls)
        state._blank(game, n, seed)
        state.deal = deal
        state.dealer = (deal + n - 1) % n  # as if seat n - 1 dealt deal 0
        state.hands = masks
        if n == 2:
            state._dead = PIQUET24.mask(dead.split())
            state._open = PIQUET24.index[dead.split()[-1]]
        else:
            state._open = PIQUET24.index[hands[state.dealer].split()[-1]]
        voorhand = state._voorhand
        state._begin_play(voorhand if player is None else player, SUITS.index(trump))
        return state


def _trick_line(record: TrickRecord, number: int) -> str:
    return f"trick {number} to seat {record[2]}: {record[3]} points"


class KlapperSampler(Sampler):
    """States consistent with one seat's view (K10): the unseen cards dealt
    uniformly to the other hands, respecting voids shown by the play, the
    dealer's open card and every declared card still unplayed; at two seats
    (K13) also to the set-aside cards and the dead hand."""

    def __init__(self, game: Klapper, view: KlapperView) -> None:
        n = len(view.teams)
        state = KlapperState.__new__(KlapperState)
        state._blank(game, n, 0)
        state.deal = view.deal
        state.dealer = view.dealer
        state._first_dealer = (view.dealer - view.deal) % n
        state.to_act = view.to_act
        state._open = PIQUET24.index[view.open_card]
        state.trump = -1 if view.trump is None else SUITS.index(view.trump)
        state.player = -1 if view.player is None else view.player
        state._bids = view.bids
        state._declared = view.declared
        state._roem_team = view.roem_team
        state._deal_scores = view.deal_scores
        state._totals = view.scores
        state._over = view.to_act is None
        state._phase = (
            "over"
            if state._over
            else "play"
            if state.trump >= 0
            else "free"
            if len(view.bids) >= n
            else "bid"
        )
        tables = TRUMP_TABLES[state.trump] if state.trump >= 0 else RULES.tables()
        public = state._restore_tricks(tables, ROTTERDAM, view.tricks, view.trick)
        state._playing = state._phase == "play"
        me = view.seat
        own = PIQUET24.mask(view.hand)
        known = [0] * n
        if n > 2 and not public.seen >> state._open & 1:
            known[view.dealer] |= 1 << state._open
        for seat, cards, _ in view.declared:
            known[seat] |= PIQUET24.mask(cards) & ~public.seen
        known[me] = 0
        state.hands = [0] * n
        state.hands[me] = own
        self._state = state
        self._others = [s for s in range(n) if s != me]
        self._known = [known[s] for s in self._others]
        shown = 0
        for mask in self._known:
            shown |= mask
        per = 24 // n
        forbidden = [public.forbidden[s] for s in self._others]
        sizes = [
            per - public.played[s] - k.bit_count()
            for s, k in zip(self._others, self._known, strict=True)
        ]
        # Two seats (K13): the places besides the other hand, dealt alongside.
        self._extra: list[str] = []
        if n == 2:
            shown |= 1 << state._open
            bidding = state._phase in ("bid", "free")
            if bidding:
                sizes = [6]
                self._extra = [f"pending:{me}", f"pending:{1 - me}"]
            else:
                sizes = [9 - public.played[1 - me] - self._known[0].bit_count()]
            self._extra.append("dead")
            forbidden += [0] * len(self._extra)
            sizes += [3] * (len(self._extra) - 1) + [5]
            state._dead = 1 << state._open
        self._dealer: ConstrainedDealer | None = None
        if not state._over:
            self._dealer = ConstrainedDealer(
                list(iter_bits(PIQUET24.full & ~(public.seen | own | shown))),
                forbidden,
                sizes,
            )

    def sample(self, rng: random.Random) -> KlapperState:
        """A world: the template with the hidden hands and later deals' seed drawn."""
        state = self._state.clone()
        state.seed = rng.getrandbits(64)
        if self._dealer is not None:
            dealt = self._dealer.sample(rng)
            others = zip(self._others, dealt, self._known, strict=False)
            for seat, mask, known in others:
                state.hands[seat] = mask | known
            if self._extra:
                state._pending = [0, 0]
                for place, mask in zip(self._extra, dealt[1:], strict=True):
                    if place == "dead":
                        state._dead |= mask
                    else:
                        state._pending[int(place[-1])] = mask
        return state


class Klapper(Game):
    """Klapper: 24 cards, turned trump from the dealer's hand, declarations."""

    view_class = KlapperView
    #: The worlds behind a view (K10).
    sampler_class = KlapperSampler

    name = "klapper"
    description = (
        "24-card jass: the dealer's last card proposes trump; declarations in hand; the"
        " playing side must outscore every other"
    )
    title = "Klapper (2 or 3 each for himself; 4 or 6 in two teams)"
    seat_counts = frozenset({2, 3, 4, 6})
    check_options = {"target": 400}  # noqa: RUF012 - short: a few deals
    action_kinds = (
        card_move(PIQUET24),
        ActionKind("play", "play", "bid: play with the proposed suit as trump (K3)"),
        PASS_MOVE,
        suit_move("second round: play with this suit as trump (K3)"),
        DECLARE_ROEM,
    )
    option_specs = (
        Option(
            "target",
            500,
            doc="the match ends after the deal in which a team reaches this total",
            minimum=1,
        ),
    )

    def teams(self, n_seats: int) -> tuple[int, ...]:
        """Four or six seats: two teams sitting alternately; two or three: each
        alone."""
        if n_seats <= 3:
            return tuple(range(n_seats))
        return tuple(seat % 2 for seat in range(n_seats))

    def encoding(self, n_seats: int) -> Encoding:
        """The jass encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.jass.encoding import jass_encoding

        return jass_encoding(self, n_seats, PIQUET24, (PLAY, PASS, ROEM, *SUIT_ACTIONS))

    def new_match(self, n_seats: int, seed: int) -> KlapperState:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        return KlapperState(self, n_seats, seed)
