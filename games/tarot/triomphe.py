"""Triomphe Forcée: 2-10 players, a pot, Death in hand, tricks only.

Rule text: ``seeds/000`` line 193 (the same words at 003:1); rulings
TF1-TF9 in ``games/tarot/RULES.md``. The card play and sampling are the family's
(:mod:`games.tarot.common`); the red suits rank K Q N J 1 2 ... 10 (seed 000 line 211).

Every seat stakes into the pot when it is empty (line 207). A seat dealt the
13 of trumps (Death) shows it at once and takes the whole pot: the deal ends
there. Otherwise the excuse and the 1 of trumps are declared for one stake
from the pot each, the 11 of trumps for two; when a declaration empties the
pot, everyone stakes again. Then the cards are played; the seat with most
tricks takes the rest of the pot (line 213). Scores are net chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from games.cards import TAROT, CardMask
from games.tarot.common import CARD_MOVE, TRUMPS, TarotSampler, TarotState, TarotView
from games.trick_rollouts import GreedyTricks
from harness import ActionKind, Game, IllegalActionError, Option, Result, View

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding


__all__ = ["TriompheForcee", "TriompheState", "TriompheView", "hand_size_for"]

#: The 13 of trumps, Death (line 207).
DEATH = "13T"
_DEATH: CardMask = TAROT.mask([DEATH])
#: The cards declared for stakes from the pot, in declaring order (line 207).
DECLARED_STAKES: dict[str, int] = {"EX": 1, "1T": 1, "11T": 2}
_DECLARABLE: CardMask = TAROT.mask(DECLARED_STAKES)
#: The text's 12 cards each (line 200).
TEXT_HAND = 12


def hand_size_for(n_seats: int) -> int:
    """TF1: 12 cards each while the pack holds them, else as many as every seat
    can get alike (78 // n: 11 for 7 seats, 9 for 8, 8 for 9, 7 for 10)."""
    return min(TEXT_HAND, len(TAROT) // n_seats)


@dataclass(frozen=True)
class TriompheView(TarotView):
    """A Triomphe Forcée view: also the pot and this deal's declarations."""

    #: Chips in the pot now.
    pot: int
    #: This deal's declarations in order: ``(seat, card)`` (13T ends the deal).
    declarations: tuple[tuple[int, str], ...]
    #: Each seat's net chips in this deal so far (stakes paid, declarations won).
    deal_chips: tuple[int, ...]


class TriompheState(TarotState):
    """The referee's truth of one Triomphe Forcée match."""

    game: TriompheForcee
    _view_class = TriompheView
    red_reversed = True
    totals_word = "chips"
    excuse_exchange = False
    narrate_points = False
    card_values = (0,) * len(TAROT)  # tricks only (line 213)

    def __init__(self, game: TriompheForcee, n_seats: int, seed: int) -> None:
        self._blank(game, n_seats, seed)
        self._start_deal()

    def _setup(self) -> None:
        self.hand_size = hand_size_for(self.n_seats)
        self.tiers = (TRUMPS,)
        self._stake: int = self.game.options["stake"]
        self._deals: int = self.game.options["deals"]
        self.pot = 0
        self.declarations: tuple[tuple[int, str], ...] = ()
        self.chips: tuple[int, ...] = (0,) * self.n_seats
        #: What happened before the first lead, not yet told (narration).
        self.opening: tuple[str, ...] = ()

    # -- the pot (line 207) ----------------------------------------------------

    def _stake_all(self) -> None:
        """Every seat puts one stake into the (empty) pot (TF3)."""
        self.chips = tuple(c - self._stake for c in self.chips)
        self.pot += self._stake * self.n_seats
        self.opening += (f"everyone stakes {self._stake}: the pot holds {self.pot}",)

    def _take(self, seat: int, chips: int) -> None:
        chips = min(chips, self.pot)
        self.pot -= chips
        self.chips = tuple(
            c + chips if s == seat else c for s, c in enumerate(self.chips)
        )

    def _before_play(self) -> None:
        """Stakes, Death, then the declarations (TF3-TF6), before the first lead."""
        n = self.n_seats
        self.chips = (0,) * n
        self.declarations = ()
        if not self.pot:
            self._stake_all()
        voorhand = self.deal % n
        order = [(voorhand + i) % n for i in range(n)]
        for seat in order:
            if self.hands[seat] & _DEATH:
                # TF4: Death is shown at once; its holder's one action takes the
                # whole pot and ends the deal unplayed.
                self.declarations = ((seat, DEATH),)
                self.opening += (f"seat {seat} holds {DEATH} (Death) and shows it",)
                self.to_act = seat
                self._legal = None
                return
        for seat in order:
            for card, stakes in DECLARED_STAKES.items():
                if self.hands[seat] >> TAROT.index[card] & 1:
                    # TF5: automatic; one stake at a time, restaking when empty.
                    for _ in range(stakes):
                        if not self.pot:
                            self._stake_all()
                        self._take(seat, self._stake)
                    self.declarations += ((seat, card),)
                    self.opening += (
                        f"seat {seat} declares {card} and takes {stakes * self._stake}"
                        f" from the pot ({self.pot} left)",
                    )
                    if not self.pot:
                        self._stake_all()
        self._begin_play()

    def _death_deal(self) -> bool:
        """Whether this deal's Death was shown (the deal is not played)."""
        return bool(self.declarations) and self.declarations[0][1] == DEATH

    def _other_actions(self) -> tuple[str, ...]:
        return () if self._over else (f"declare {DEATH}",)

    def _apply_other(self, action: str) -> None:
        if self._over or action != f"declare {DEATH}":
            raise IllegalActionError(
                f"{action!r}: the holder of Death declares it ('declare {DEATH}')"
            )
        seat = self.declarations[0][0]
        self._take(seat, self.pot)
        self._finish_deal()

    def _narrate_other(self, action: str) -> list[str]:
        seat, deal, pot = self.to_act, self.deal, self.pot
        self.apply(action)
        lines = [
            f"seat {seat} declares {DEATH} (Death) and takes the whole pot of {pot}"
        ]
        return lines + self._deal_lines(deal)

    def _score_deal(self) -> tuple[int, ...]:
        """TF7: most tricks takes the rest of the pot; tied seats share it, the
        odd chips one each from voorhand on. The deal's net chips per seat."""
        if self.pot:
            n = self.n_seats
            count = self.tricks_won()
            best = max(count)
            first = self.deal % n
            winners = sorted(
                (s for s in range(n) if count[s] == best), key=lambda s: (s - first) % n
            )
            share, odd = divmod(self.pot, len(winners))
            for i, s in enumerate(winners):
                self._take(s, share + (1 if i < odd else 0))
        return self.chips

    def _match_over(self) -> bool:
        return len(self.deal_scores) >= self._deals

    def result(self) -> Result:
        """Net chips per seat, most first; the utilities are the net chips (TF8)."""
        return Result.from_scores(
            self.totals,
            tuple(range(self.n_seats)),
            self.deal_scores,
            utilities=[float(t) for t in self.totals],
        )

    # -- views and sampling ------------------------------------------------------

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {
            "pot": self.pot,
            "declarations": self.declarations,
            "deal_chips": self.chips,
        }

    def _restore_extra(self, view: TarotView) -> None:
        assert isinstance(view, TriompheView)
        self.pot = view.pot
        self.declarations = view.declarations
        self.chips = view.deal_chips
        self._playing = self._playing and not self._death_deal()

    def _shown(self) -> list[CardMask]:
        """Per seat, the declared cards still in its hand (TF9)."""
        shown = [0] * self.n_seats
        for seat, card in self.declarations:
            shown[seat] |= self.hands[seat] & 1 << TAROT.index[card]
        return shown

    def _known_in_hands(self, view: TarotView) -> list[CardMask]:
        """TF9: a declared card is in its declarer's hand until played."""
        known = [0] * self.n_seats
        for seat, card in self.declarations:
            if seat != view.seat:
                known[seat] |= 1 << TAROT.index[card]
        return known

    def _hand_forbidden(self) -> CardMask:
        """TF9: play goes on only when nobody holds Death, and declaring is
        automatic: an undeclared EX, 1T or 11T was never dealt."""
        if self._death_deal():
            return 0
        return _DEATH | _DECLARABLE

    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """The family's places, with the declared cards still held shown
        (``shown:<seat>``) and the cards known to be undealt open (``out``:
        Death and any undeclared EX, 1T, 11T while a deal is played; TF9)."""
        places = dict(super().card_locations())
        names = TAROT.names
        for seat, mask in enumerate(self._shown()):
            places[f"hand:{seat}"] = names(self.hands[seat] & ~mask)
            places[f"shown:{seat}"] = names(mask)
        out = self.undealt & self._hand_forbidden()
        places["undealt"] = names(self.undealt & ~out)
        places["out"] = names(out)
        return places

    # -- narration ----------------------------------------------------------------

    def _opening_lines(self) -> list[str]:
        """The untold stakes, Death and declarations (then told)."""
        lines = list(self.opening)
        self.opening = ()
        return lines

    def narrate(self, action: str) -> list[str]:
        """As the family tells it; the first deal's opening comes first unless
        ``narrate_start`` told it."""
        before = self._opening_lines()
        return before + super().narrate(action)

    def _deal_lines(self, deal: int) -> list[str]:
        lines = super()._deal_lines(deal)
        lines[0] = lines[0].replace("scores", "net chips")
        return lines

    @classmethod
    def from_hands(
        cls,
        game: TriompheForcee,
        hands: Sequence[str],
        *,
        deal: int = 0,
        seed: int = 0,
    ) -> TriompheState:
        """A state at the start of deal ``deal`` with the given hands (stakes and
        declarations made; the match may have moved on if someone holds Death).
        For worked examples."""
        state = cls.__new__(cls)
        state._blank(game, len(hands), seed)
        state.deal = deal
        state._reset_tricks(len(hands))
        state._place_hands(list(hands))
        state._open_deal()
        return state


class TriompheForcee(GreedyTricks, Game):
    """Triomphe Forcée: a pot, Death in hand, declarations, most tricks wins."""

    name = "triomphe-forcee"
    view_class = TriompheView
    description = (
        "A pot: Death (the 13 of trumps) in hand takes it all; the excuse, 1 and 11 are"
        " declared; most tricks takes the rest"
    )
    title = "Triomphe Forcée (2-10 players, a pot, tricks only)"
    seat_counts = frozenset(range(2, 11))
    tiers: ClassVar[tuple[int, ...]] = (TRUMPS,)
    red_reversed: ClassVar[bool] = True
    #: Short check matches (and golden playthrough): five hands.
    check_options: ClassVar[dict[str, Any]] = {"deals": 5}
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (
        CARD_MOVE,
        ActionKind(
            "declare 13T",
            "declare 13T",
            "the holder of Death (trump 13) shows it before the play, forced",
        ),
    )
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "stake",
            1,
            doc="chips each seat puts into the empty pot (seed 000 lines 203, 207)",
            minimum=1,
        ),
        Option("deals", 10, doc="the number of hands of a match (TF8)", minimum=1),
    )

    def encoding(self, n_seats: int) -> Encoding:
        """The tarot encoding (docs/ENCODING.md)."""
        # numpy is loaded only when an encoding is asked for.
        from games.tarot.encoding import tarot_encoding

        return tarot_encoding(self, n_seats, (f"declare {DEATH}",), TriompheView)

    def utility_range(self, n_seats: int) -> tuple[float, float]:
        """Net chips (TF8): a deal empties the pot (TF4, TF7), and a seat stakes
        into it at most three times (TF3, plus a restake each time the four
        declared stakes of TF5 empty it), so a deal moves at most 4 stakes a seat.
        """
        bound = 4 * self.options["stake"] * self.options["deals"]
        return (-float(bound), float(bound * (n_seats - 1)))

    def new_match(self, n_seats: int, seed: int) -> TriompheState:
        """The first deal of a match, dealt from ``seed``."""
        self.check_seats(n_seats)
        return TriompheState(self, n_seats, seed)

    def sampler(self, view: View) -> TarotSampler:
        """The worlds behind ``view`` (R10, TF9)."""
        if not isinstance(view, TriompheView):
            raise TypeError(f"{self.name} samples from a TriompheView, not {view!r}")
        state = TriompheState.__new__(TriompheState)
        state._blank(self, len(view.scores), 0)
        return TarotSampler(state, view)
