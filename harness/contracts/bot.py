"""The Bot contract: a view in, an action out."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from harness.contracts.options import Option, one_line, resolve_options

if TYPE_CHECKING:
    from harness.contracts.game import Game
    from harness.contracts.result import Result
    from harness.contracts.view import View

__all__ = ["Bot"]


class Bot(ABC):
    """A player, built per match and seat. It never receives a State.

    Subclasses set :attr:`name` (the registry name) and may restrict
    :attr:`games`; the harness rejects a seating before any match is played
    when the game is not among them. :attr:`description` says in one line how
    the bot plays, for ``troef bots``; a plugin without one is described by
    the first line of its class docstring.
    """

    #: Registry name, e.g. ``"random"``.
    name: ClassVar[str]
    #: Registry names of the games this bot plays; ``None`` means any game.
    games: ClassVar[frozenset[str] | None] = None
    #: The options this bot accepts.
    option_specs: ClassVar[tuple[Option, ...]] = ()
    #: How the bot plays, in one line, for ``troef bots``; empty: the first
    #: line of the class docstring (see :meth:`describe`).
    description: ClassVar[str] = ""

    @classmethod
    def describe(cls) -> str:
        """:attr:`description`, else the first line of the class's own docstring."""
        return one_line(cls.description, cls)

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
        #: This bot's own random stream, seeded for the match and seat: a bot that
        #: draws only from it plays the same way whenever the match is replayed.
        self.rng = random.Random(seed)
        self.options = resolve_options(
            self.option_specs, options or {}, f"bot {self.name!r}"
        )

    @abstractmethod
    def act(self, view: View) -> str:
        """Return one of ``view.legal_actions``."""

    # The three hooks below are for the referee. A plugin bot needs none of
    # them; bots that run elsewhere (harness.isolation.botprocess.ProcessBot) use them.

    def prepare(self) -> None:  # noqa: B027 - optional hook
        """Finish setting up before the match's first decision, off the clock.

        Called by the referee once per match, before any ``act``. The default
        does nothing; a bot process answers its handshake here.
        """

    def act_within(self, view: View, seconds: float | None) -> str:
        """``act`` under a time limit of ``seconds`` (``None``: no limit).

        The referee calls this, and measures it. The default calls :meth:`act`
        and cannot stop it early: an in-process bot that overruns is forfeited
        when it returns. A bot that can be stopped overrides this to give up at
        the limit (a bot process is killed then).
        """
        return self.act(view)

    def match_over(self, result: Result) -> None:  # noqa: B027 - optional hook
        """Hear the result of the match; called by the referee once it is decided.

        Called for every seat, forfeits included. Errors raised here are
        ignored: the result is already decided. The default does nothing.
        """
