"""Maison Troggen: three players, the dealer's discard, counting by threes.

Rule text: ``seeds/000`` line 141; rulings TR1-TR8 in ``games/tarot/RULES.md``.
The card play, the excuse's exchange and sampling are the family's
(:mod:`games.tarot.common`); the red suits rank K Q N J 1 2 ... 10 (line 155).

The dealer gets 28 cards and discards three, one decision each (``discard
5H``), never a king, a trump or the excuse (line 151); voorhand leads. A deal
scores the cards each seat won, counted by threes (line 175): each group of three
cards is worth its cards' values (21T, 1T, kings 5; queens 4; knights and the
excuse 3; valets 2; a blank 1) less 2. The text's easier count (line 177) gives
the same totals: 4 3 2 2 1 plus one per set of three cards. A round is three
deals, one for each dealer; the highest total wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from games.cards import TAROT, CardMask, iter_bits
from games.tarot.common import (
    CARD_MOVE,
    EXCUSE,
    FULL,
    POINTS,
    TRUMPS,
    TarotSampler,
    TarotState,
    TarotView,
    hand_names,
)
from games.trick_rollouts import GreedyTricks
from harness import ActionKind, Game, IllegalActionError, Option, Result, View

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "MaisonTroggen",
    "TroggenState",
    "TroggenView",
    "count_by_threes",
    "count_with_sets",
]

THREES, SETS = "threes", "sets"
#: The dealer's hand before the discard, the others' hands (line 151).
DEALER_SIZE, HAND_SIZE, DISCARD = 28, 25, 3
KINGS: CardMask = TAROT.mask(["KC", "KD", "KH", "KS"])
#: Cards the dealer may never discard (line 151): kings, trumps, the excuse.
KEEP: CardMask = KINGS | TAROT.suit_masks[TRUMPS] | EXCUSE
#: The text's values when counting by threes (lines 163-173); a blank is 1 here.
THREE_VALUES: tuple[int, ...] = tuple(
    3 if c == EXCUSE.bit_length() - 1 else POINTS[c] + 1 for c in range(len(TAROT))
)
#: The easier count's values (line 177-187): the family's points, excuse 2.
SET_VALUES: tuple[int, ...] = tuple(
    2 if c == EXCUSE.bit_length() - 1 else POINTS[c] for c in range(len(TAROT))
)


def count_by_threes(won: CardMask) -> int:
    """Count won cards as the text does (line 175): in groups of three, each
    honour with two blanks where there are blanks, each group worth its values
    less 2 ("een Dame pas 4 punten waard is als er ook twee lege kaarten
    bijgeteld worden. Drie lege kaarten vormen samen 1 punt")."""
    cards = list(iter_bits(won))
    if len(cards) % 3:
        raise ValueError(f"{len(cards)} cards do not make groups of three (TR4)")
    honours = [c for c in cards if SET_VALUES[c]]
    blanks = [c for c in cards if not SET_VALUES[c]]
    pile = []
    for h in honours:  # an honour, then two blanks while they last
        pile.append(h)
        for _ in range(2):
            if blanks:
                pile.append(blanks.pop())
    pile += blanks
    total = 0
    for i in range(0, len(pile), 3):
        total += sum(THREE_VALUES[c] for c in pile[i : i + 3]) - 2
    return total


def count_with_sets(won: CardMask) -> int:
    """The text's easier count (line 177-189): values 4 3 2 2 1, plus one point
    for each set of three cards."""
    return sum(SET_VALUES[c] for c in iter_bits(won)) + won.bit_count() // 3


@dataclass(frozen=True)
class TroggenView(TarotView):
    """A Maison Troggen view: also the dealer's discard so far."""

    #: The dealer's discarded cards: named for the dealer, else ``()``.
    discard: tuple[str, ...]
    #: How many cards the dealer has discarded this deal (public).
    discarded: int


class TroggenState(TarotState):
    """The referee's truth of one Maison Troggen match."""

    game: MaisonTroggen
    _view_class = TroggenView
    red_reversed = True
    narrate_points = False
    card_values = SET_VALUES

    def __init__(self, game: MaisonTroggen, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal()

    def _setup(self) -> None:
        self.hand_size = HAND_SIZE
        self.tiers = (TRUMPS,)
        self.discard: CardMask = 0
        self._discarded = 0  # the view's count, in a sampler's template
        #: A sampler's template only: the view proves TR2's rare hand (TR7).
        self._kings_discarded = False
        self._deals: int = 3 * self.game.options["rounds"]
        self._count = (
            count_by_threes
            if self.game.options["counting"] == THREES
            else count_with_sets
        )

    def _deal_sizes(self) -> list[int]:
        sizes = [HAND_SIZE] * self.n_seats
        sizes[(self.deal - 1) % self.n_seats] = DEALER_SIZE
        return sizes

    def _before_play(self) -> None:
        self.discard = 0
        self.to_act = self.dealer
        self._legal = None

    # -- the discard (line 151) --------------------------------------------------

    def _discardable(self) -> CardMask:
        """TR2: no king, trump or excuse; kings only when fewer other cards remain
        than discards are still due."""
        hand = self.hands[self.dealer]
        due = DISCARD - self.discard.bit_count()
        free = hand & ~KEEP
        if free.bit_count() < due:
            free |= hand & KINGS
        return free

    def _other_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        return tuple(f"discard {c}" for c in TAROT.names(self._discardable()))

    def _apply_other(self, action: str) -> None:
        if self._over or not action.startswith("discard "):
            raise IllegalActionError(
                f"{action!r} is not a discard; the dealer discards"
            )
        card = TAROT.index.get(action[8:], -1)
        if card < 0 or not self._discardable() >> card & 1:
            raise IllegalActionError(
                f"{action!r}: the dealer may discard only "
                f"{', '.join(TAROT.names(self._discardable()))}"
            )
        self.hands[self.dealer] ^= 1 << card
        self.discard |= 1 << card
        self._legal = None
        if self.discard.bit_count() == DISCARD:
            self._begin_play()

    # -- scoring -------------------------------------------------------------------

    def _score_deal(self) -> tuple[int, ...]:
        """TR3, TR4: the won cards counted; the discard scores for nobody."""
        return tuple(self._count(w) for w in self.won)

    def _match_over(self) -> bool:
        return len(self.deal_scores) >= self._deals

    def result(self) -> Result:
        """Totals per seat, highest first (line 191)."""
        return Result.from_scores(
            self.totals, tuple(range(self.n_seats)), self.deal_scores
        )

    # -- views, places, sampling ----------------------------------------------------

    def _view_extra(self, seat: int) -> dict[str, Any]:
        own = seat == self.dealer and self.discard
        return {
            # hand_names: the tarot namer by six look-ups, same deck order.
            "discard": hand_names(self.discard) if own else (),
            "discarded": self.discard.bit_count(),
        }

    def _extra_places(self) -> dict[str, tuple[str, ...]]:
        return {"discard": TAROT.names(self.discard)}

    def _extra_hidden(self, seat: int) -> tuple[str, ...]:
        return () if seat == self.dealer else ("discard",)

    def _restore_extra(self, view: TarotView) -> None:
        assert isinstance(view, TroggenView)
        self.discard = TAROT.mask(view.discard)
        self._discarded = view.discarded
        self._playing = self._playing and view.discarded == DISCARD

    def _hand_counts(self, played: Sequence[int]) -> list[int]:
        counts = [HAND_SIZE - p for p in played]
        counts[self.dealer] += DISCARD - self._discarded
        return counts

    def _own_known(self, view: TarotView) -> CardMask:
        return self.discard

    def _hidden_extras(self, view: TarotView) -> list[tuple[int, CardMask]]:
        """TR7: another seat's view hides the discard, which holds no king,
        trump or excuse (line 151); kings only when no world without one fits
        the view (TR2's rare hand, see :meth:`MaisonTroggen.sampler`)."""
        if view.seat == self.dealer:
            return []
        return [(self._discarded, KEEP & ~KINGS if self._kings_discarded else KEEP)]

    def _set_extras(self, masks: Sequence[CardMask]) -> None:
        if masks:
            self.discard = masks[0]

    def validate(self) -> None:
        """Raise ValueError unless the discard is one the rules allow (line 151,
        TR2): no trump and no excuse, and a king only when the dealer's 28
        cards held fewer other cards than the three to discard."""
        discard = self.discard
        if discard & (KEEP & ~KINGS):
            raise ValueError(
                f"the discard {' '.join(TAROT.names(discard))} holds a trump or "
                "the excuse (line 151)"
            )
        if not discard & KINGS:
            return
        dealer, n = self.dealer, self.n_seats
        dealt = self.hands[dealer] | discard
        for leader, cards, *_ in self._tricks:
            dealt |= 1 << TAROT.index[cards[(dealer - leader) % n]]
        for i, card in enumerate(self._trick):
            if (self._leader + i) % n == dealer:
                dealt |= 1 << card
        if (dealt & ~KEEP).bit_count() >= DISCARD:
            raise ValueError(
                f"the discard {' '.join(TAROT.names(discard))} holds a king while "
                f"the dealer had {(dealt & ~KEEP).bit_count()} other cards to "
                "discard (line 151, TR2)"
            )

    # -- narration -------------------------------------------------------------------

    def _narrate_other(self, action: str) -> list[str]:
        seat = self.to_act
        self.apply(action)
        lines = [f"seat {seat} (dealer) discards a card"]
        if self._playing:
            lines.append(f"the dealer has discarded three; seat {self.to_act} leads")
        return lines

    def _opening_lines(self) -> list[str]:
        return [f"seat {self.dealer} deals 28 to himself and discards three"]

    @classmethod
    def from_hands(
        cls,
        game: MaisonTroggen,
        hands: list[str],
        *,
        deal: int = 0,
        discard: str = "",
        seed: int = 0,
    ) -> TroggenState:
        """A state at the first lead of deal ``deal`` with the given 25-card
        hands and the dealer's ``discard``; the rest of the pack must be the
        discard. For worked examples."""
        TAROT.check_deal(hands, {"the discard": discard})
        state = cls.__new__(cls)
        state._blank(game, len(hands), seed)
        state.deal = deal
        state._reset_tricks(len(hands))
        state._place_hands(hands)
        state._open_deal()
        state.discard = TAROT.mask(discard.split())
        if state.discard != state.undealt:
            raise ValueError("the discard must be the three cards not in a hand")
        state.undealt = 0
        state._begin_play()
        return state


class MaisonTroggen(GreedyTricks, Game):
    """Maison Troggen: three players, the dealer discards three, counting by threes."""

    name = "maison-troggen"
    view_class = TroggenView
    description = (
        "The dealer takes 28 cards and discards three; the cards won count by threes; "
        "the highest total after the round wins"
    )
    title = "Maison Troggen (3 players)"
    seat_counts = frozenset({3})
    tiers: ClassVar[tuple[int, ...]] = (TRUMPS,)
    red_reversed: ClassVar[bool] = True
    #: One round (three deals) is already a short match.
    check_options: ClassVar[dict[str, Any]] = {}
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (
        CARD_MOVE,
        ActionKind(
            "discard <card>",
            "discard " + TAROT.pattern(),
            "the dealer lays this card face down in the discard, never a king, a "
            "trump or the excuse (TR2)",
        ),
    )
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "counting",
            THREES,
            doc="how the cards won are counted: the same totals either way",
            choices=(THREES, SETS),
            choice_docs={
                THREES: "each group of three cards: its cards' values less 2 "
                "(seed 000 line 175)",
                SETS: "the easier count: 4 3 2 2 1 plus one per set of three cards "
                "(line 177)",
            },
        ),
        Option(
            "rounds", 1, doc="rounds of three deals (each seat deals once)", minimum=1
        ),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """The tarot encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.tarot.encoding import tarot_encoding

        return tarot_encoding(
            self, n_seats, [f"discard {c}" for c in TAROT.faces], TroggenView
        )

    def new_match(self, n_seats: int, seed: int) -> TroggenState:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        return TroggenState(self, n_seats, seed)

    def sampler(self, view: View) -> TarotSampler:
        """The worlds behind ``view`` (R10, TR7)."""
        if not isinstance(view, TroggenView):
            raise TypeError(f"{self.name} samples from a TroggenView, not {view!r}")
        state = TroggenState.__new__(TroggenState)
        state._blank(self, len(view.scores), 0)
        try:
            return TarotSampler(state, view)
        except ValueError:
            # TR7: no world without a king in the discard fits the view, so
            # the dealer's 28 cards were TR2's rare hand: kings allowed.
            state = TroggenState.__new__(TroggenState)
            state._blank(self, len(view.scores), 0)
            state._kings_discarded = True
            return _RareHandSampler(state, view)


class _RareHandSampler(TarotSampler):
    """TR7's worlds with kings in the discard: drawn as any discard of no trump
    or excuse, kept only when :meth:`TroggenState.validate` allows them."""

    #: Draws tried for one world before the last one is returned as it is.
    tries = 1000

    def sample(self, rng: random.Random) -> TarotState:
        world = super().sample(rng)
        for _ in range(self.tries):
            assert isinstance(world, TroggenState)
            try:
                world.validate()
            except ValueError:
                world = super().sample(rng)
            else:
                break
        return world


assert FULL.bit_count() == 2 * HAND_SIZE + DEALER_SIZE
