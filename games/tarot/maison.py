"""Maison Tarot and La Rigueur: 2-6 players, 12 cards each, card points.

Rule texts: ``seeds/000`` line 331 (Maison Tarot, variant Wilde Maison Tarot at
line 377) and line 296 (La Rigueur, the same game with spades as a second trump
suit); rulings R1-R16 in ``games/tarot/RULES.md``. The card play, the excuse's
exchange and sampling are the family's (:mod:`games.tarot.common`).

A deal scores, per seat, the points of the cards it ends with plus (cards
won - 12) (seed 000 line 369), so a score can be negative; the match ends after
the deal in which a seat reaches the target (50). In Wilde Maison Tarot the
cards per hand are an option, each trick won scores 1 instead of the
comparison with 12, every deal is a pot of one stake per seat that the best
score takes, and the match is a number of deals; scores are net chips (R12-R15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from games.cards import TAROT
from games.tarot.common import (
    CARD_MOVE,
    SPADES,
    TRUMPS,
    TarotSampler,
    TarotState,
    TarotView,
    card_points,
)
from games.trick_rollouts import GreedyTricks
from harness import ActionKind, Game, Option, OptionError, Result, View

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding


__all__ = ["LaRigueur", "MaisonTarot", "MaisonTarotState"]

STANDARD, WILDE = "standard", "wilde"


class MaisonTarotState(TarotState):
    """The referee's truth of one Maison Tarot or La Rigueur match."""

    game: MaisonTarot

    def __init__(self, game: MaisonTarot, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal()

    def _setup(self) -> None:
        # La Rigueur's text names no variant: it has only the target option.
        options = self.game.options
        self.wilde = options.get("variant") == WILDE
        self.hand_size = options.get("hand_size", 12)
        self.tiers = self.game.tiers
        self._target: int = options["target"]
        self._deals: int = options.get("deals", 0)
        self._stake: int = options.get("stake", 0)

    def _score_deal(self) -> tuple[int, ...]:
        points = self.deal_points()
        if not self.wilde:
            return points
        return pot_shares(points, self._stake, self.deal % self.n_seats)

    def deal_points(self) -> tuple[int, ...]:
        """Each seat's points in the deal so far: card points plus (cards won -
        12) (seed 000 line 369), or plus the tricks won in Wilde Maison Tarot
        (line 378)."""
        if self.wilde:
            extra = self.tricks_won()
        else:
            extra = [w.bit_count() - self.hand_size for w in self.won]
        return tuple(card_points(w) + x for w, x in zip(self.won, extra, strict=True))

    def _match_over(self) -> bool:
        if self.wilde:
            return len(self.deal_scores) >= self._deals  # R14
        return max(self.totals) >= self._target  # R11

    def result(self) -> Result:
        """Totals per seat, ranked highest first; in Wilde Maison Tarot the
        totals are net chips and so are the utilities (R15)."""
        teams = tuple(range(self.n_seats))
        if self.wilde:
            return Result.from_scores(
                self.totals,
                teams,
                self.deal_scores,
                utilities=[float(t) for t in self.totals],
            )
        return Result.from_scores(self.totals, teams, self.deal_scores)

    @classmethod
    def from_hands(
        cls,
        game: MaisonTarot,
        hands: list[str],
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> MaisonTarotState:
        """A state at the first card of deal ``deal`` with the given hands
        (space-separated cards, seat 0 first); the rest of the pack is undealt.
        For worked examples."""
        state = cls.__new__(cls)
        state._blank(game, len(hands), seed)
        state.deal = deal
        state._reset_tricks(len(hands))
        state._place_hands(hands)
        state._open_deal()
        return state


def pot_shares(points: tuple[int, ...], stake: int, first: int) -> tuple[int, ...]:
    """Net chips of one Wilde Maison Tarot deal (R13).

    Every seat stakes ``stake``; the seats with the most points share the pot,
    ``pot // k`` each, the odd chips one each to the tied seats in playing
    order from ``first`` (voorhand).
    """
    n = len(points)
    best = max(points)
    winners = sorted(
        (s for s in range(n) if points[s] == best), key=lambda s: (s - first) % n
    )
    share, odd = divmod(stake * n, len(winners))
    net = [-stake] * n
    for i, s in enumerate(winners):
        net[s] += share + (1 if i < odd else 0)
    return tuple(net)


class MaisonTarot(GreedyTricks, Game):
    """Maison Tarot: follow suit, else trump, no duty to over-trump; card points."""

    name = "maison-tarot"
    view_class = TarotView
    description = (
        "Tarot pack, 12 cards each: follow suit, else trump, no duty to over-trump; a "
        "deal scores card points plus cards won less 12"
    )
    title = "Maison Tarot (2-6 players)"
    seat_counts = frozenset(range(2, 7))
    #: The trump tiers, highest first: the tarot trumps.
    tiers: ClassVar[tuple[int, ...]] = (TRUMPS,)
    check_options: ClassVar[dict[str, Any]] = {"target": 80}
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (CARD_MOVE,)
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "variant",
            STANDARD,
            doc="the rule set (seed 000 lines 331 and 377)",
            choices=(STANDARD, WILDE),
            choice_docs={
                STANDARD: "12 cards each; play to the target",
                WILDE: "Wilde Maison Tarot: a pot per deal, 1 per trick won, a "
                "number of deals",
            },
        ),
        Option(
            "target",
            50,
            doc="standard: the match ends after the deal in which a seat reaches this",
            minimum=1,
        ),
        Option(
            "hand_size",
            12,
            doc="cards dealt to each seat; other than 12 only in 'wilde' (R12)",
            minimum=1,
            maximum=39,
        ),
        Option(
            "stake",
            1,
            doc="wilde: chips each seat puts into the pot of every deal",
            minimum=1,
        ),
        Option(
            "deals", 6, doc="wilde: the number of deals (pots) of a match", minimum=1
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options.get("variant") == STANDARD and self.options["hand_size"] != 12:
            raise OptionError(
                f"game {self.name!r}: option 'hand_size' must be 12 in the standard "
                f"game (the text deals 12), not {self.options['hand_size']}; use "
                "variant='wilde' to agree another number"
            )

    def encoding(self, n_seats: int) -> Encoding:
        """The tarot encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.tarot.encoding import tarot_encoding

        return tarot_encoding(self, n_seats, (), TarotView)

    def utility_range(self, n_seats: int) -> tuple[float, float]:
        """Wilde: each deal a seat loses its stake or wins the others' (R13)."""
        if self.options.get("variant") != WILDE:
            return super().utility_range(n_seats)
        deals, stake = self.options["deals"], self.options["stake"]
        return (-float(stake * deals), float(stake * (n_seats - 1) * deals))

    def new_match(self, n_seats: int, seed: int) -> MaisonTarotState:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        size = self.options.get("hand_size", 12)
        if n_seats * size > len(TAROT):
            raise OptionError(
                f"game {self.name!r}: option 'hand_size' {size} needs "
                f"{n_seats * size} cards for {n_seats} seats; the pack has "
                f"{len(TAROT)}, so at most {len(TAROT) // n_seats}"
            )
        return MaisonTarotState(self, n_seats, seed)

    def sampler(self, view: View) -> TarotSampler:
        """The worlds behind ``view`` (R10)."""
        if not isinstance(view, TarotView):
            raise TypeError(f"{self.name} samples from a TarotView, not {view!r}")
        state = MaisonTarotState.__new__(MaisonTarotState)
        state._blank(self, len(view.scores), 0)
        return TarotSampler(state, view)


class LaRigueur(MaisonTarot):
    """La Rigueur: Maison Tarot with spades as a second trump suit below the trumps."""

    name = "la-rigueur"
    description = (
        "Maison Tarot with spades as a second trump suit below the trumps; first to the"
        " target wins"
    )
    title = "La Rigueur (2-6 players, spades a second trump suit)"
    tiers: ClassVar[tuple[int, ...]] = (TRUMPS, SPADES)
    option_specs = tuple(o for o in MaisonTarot.option_specs if o.name == "target")
