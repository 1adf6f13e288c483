"""The toy game with a planted leak of each class ``troef check`` catches.

``leak`` chooses one (``harness.match.conformance`` names the classes):

- ``"view"``: the view shows a card of the next seat's hand, which the sampler
  knows nothing of (class (b), a hidden card named in a view);
- ``"narration"``: a public narration line names a card of the next seat's
  hand (class (b), in the narration);
- ``"twin"``: an aside the next seat hears as it is tells everyone else whether
  that seat holds a heart: no card is named, but two deals a listener cannot
  tell apart are narrated differently (class (a), twins);
- ``"world"``: the sampler deals the next seat's hand one card too many, which
  ``ToyState.validate`` refuses (class (c), an impossible world).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

from harness import Game, Option, View, hookimpl
from harness.contracts.game import Aside

try:
    from tests.plugins.toy_game import ToyGame, ToyState, ToyView
except ModuleNotFoundError:  # loaded by path (troef --plugin FILE)
    sys.path.append(str(Path(__file__).resolve().parents[2]))
    from tests.plugins.toy_game import ToyGame, ToyState, ToyView


class LeakyToyState(ToyState):
    def view(self, seat: int) -> ToyView:
        view = super().view(seat)
        if self.game.options["leak"] != "view":
            return view
        peek = tuple(self.hands[(seat + 1) % self.n_seats][:1])
        return ToyView(**{**view.__dict__, "peek": peek})

    def narrate(self, action: str) -> list[str]:
        lines = super().narrate(action)
        leak, nxt = self.game.options["leak"], self.to_act
        if nxt is None or not self.hands[nxt]:
            return lines
        if leak == "narration":
            lines.append(f"seat {nxt} holds {self.hands[nxt][0]}")
        elif leak == "twin":
            hearts = any(card[1] == "H" for card in self.hands[nxt])
            lines.append(
                Aside(
                    f"seat {nxt} holds {'a heart' if hearts else 'no heart'}",
                    {nxt},
                    f"seat {nxt} {'has' if hearts else 'lacks'} hearts",
                )
            )
        return lines

    def clone(self) -> LeakyToyState:
        return _leaky(super().clone())


def _leaky(state: ToyState) -> LeakyToyState:
    twin = object.__new__(LeakyToyState)
    twin.__dict__.update(state.__dict__)
    return twin


class LeakyToyGame(ToyGame):
    name = "leaky-toy"
    title = "Toy tricks with a planted leak (conformance tests)"
    option_specs = (
        *ToyGame.option_specs,
        Option(
            "leak",
            "view",
            "the leak planted: view, narration, twin or world",
            choices=("view", "narration", "twin", "world"),
        ),
    )

    def new_match(self, n_seats: int, seed: int) -> LeakyToyState:
        return _leaky(super().new_match(n_seats, seed))

    def sample_state(self, view: View, rng: random.Random) -> LeakyToyState:
        assert isinstance(view, ToyView)
        # The sampler reads nothing of a planted peek: drop it before sampling.
        state = _leaky(
            super().sample_state(ToyView(**{**view.__dict__, "peek": ()}), rng)
        )
        if self.options["leak"] == "world" and state.stock:
            other = (view.seat + 1) % state.n_seats
            state.hands[other] = sorted([*state.hands[other], state.stock.pop()])
        return state


@hookimpl
def troef_games() -> Sequence[type[Game]]:
    return [LeakyToyGame]
