"""The Bot contract: a view in, an action out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from harness.options import Option, resolve_options

if TYPE_CHECKING:
    from harness.game import Game
    from harness.view import View

__all__ = ["Bot"]


class Bot(ABC):
    """A player, built per match and seat. It never receives a State.

    Subclasses set :attr:`name` (the registry name) and may restrict
    :attr:`games`; the harness rejects a seating before any match is played
    when the game is not among them.
    """

    #: Registry name, e.g. ``"random"``.
    name: ClassVar[str]
    #: Registry names of the games this bot plays; ``None`` means any game.
    games: ClassVar[frozenset[str] | None] = None
    #: The options this bot accepts.
    option_specs: ClassVar[tuple[Option, ...]] = ()

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.options = resolve_options(
            self.option_specs, options or {}, f"bot {self.name!r}"
        )

    @abstractmethod
    def act(self, view: View) -> str:
        """Return one of ``view.legal_actions``."""
