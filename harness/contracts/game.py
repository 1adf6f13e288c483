"""The Game and State contracts (OpenSpiel's Game/State split).

A :class:`Game` is the rules with chosen options: stateless, picklable, cheap
to build. A :class:`State` is the referee's complete truth of one match; it is
mutable and clones fast. Bots never see a State, only the :class:`View` a
State builds for their seat.
"""

from __future__ import annotations

import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Self, TypeAlias

from harness.contracts.compiling import mypyc_attr
from harness.contracts.errors import (
    IllegalActionError,
    InvalidActionError,
    OptionError,
    SeatCountError,
)
from harness.contracts.options import (
    Option,
    one_line,
    recorded_options,
    resolve_options,
)
from harness.contracts.view import View

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding
    from harness.contracts.result import Result

__all__ = [
    "Action",
    "ActionKind",
    "Aside",
    "Game",
    "Sampler",
    "Seat",
    "State",
    "heard_by",
    "reject_action",
]

#: A position 0..n-1 in playing order.
Seat: TypeAlias = int
#: A short readable token: a card (``"JC"``) or a word (``"pass"``, ``"trump:H"``).
Action: TypeAlias = str


@dataclass(frozen=True)
class ActionKind:
    r"""One kind of move of a game, for its reference page (``troef games GAME
    --view``, ``docs/games/``): ``ActionKind("bid:<points>", r"bid:\d+", "bid
    that many points")``.

    ``form`` is the move as a bot author reads it, ``<card>`` standing for a
    card in the deck's notation (``docs/CARDS.md``); ``pattern`` is a regular
    expression that every move of the kind matches whole, and no move of
    another kind does; ``meaning`` says what the move does at the table.
    """

    form: str
    pattern: str
    meaning: str


# An ordinary class even in a compiled build: it is not on the hot path, and
# games set its class attributes in every way Python allows.
@mypyc_attr(native_class=False)
class Game(ABC):
    """The rules of one game with its options; a variant is an option.

    A game that reads a view into its own :class:`Sampler` names it and its
    View class (:attr:`sampler_class`, :attr:`view_class`) instead of writing
    :meth:`sampler`: the default checks the view's type and builds it.
    """

    #: Registry name, e.g. ``"klaverjassen"``.
    name: ClassVar[str]
    #: Human title, e.g. ``"Klaverjassen (4 players, fixed partnerships)"``.
    title: ClassVar[str]
    #: What the game is, in one line, for ``troef games``; empty: the first
    #: line of the class docstring (see :meth:`describe`).
    description: ClassVar[str] = ""
    #: The numbers of seats this game takes.
    seat_counts: ClassVar[frozenset[int]]
    #: Shorthand read only by the default :meth:`teams`: True pairs seat i
    #: with seat i + n/2 as fixed partners. Nothing else may read it; a game
    #: with another layout overrides :meth:`teams`.
    partnerships: ClassVar[bool] = False
    #: True when more points in a deal are better for the seat that scores
    #: them (most trick games); False when points are penalties (fewest
    #: wins). Search bots sign deal margins with it. The match's ranks are
    #: the Result's own and need not follow points at all (lives, chips).
    points_higher_is_better: ClassVar[bool] = True
    #: True when a match's ranks follow its final scores (higher or lower is
    #: better); False when they follow something else, such as lives left or
    #: elimination order (the conformance suite checks ranks against scores
    #: only when this is True).
    ranks_follow_scores: ClassVar[bool] = True
    #: The options this game accepts (variants, match length, ...).
    option_specs: ClassVar[tuple[Option, ...]] = ()
    #: Options that make a short match for conformance checks (a low target, a
    #: few deals): used by ``troef check`` without ``--full``, the test suite and
    #: the golden playthroughs. Checked against :attr:`option_specs` by
    #: :meth:`for_checks`.
    check_options: ClassVar[Mapping[str, Any]] = {}
    #: The most actions a match may take, far beyond any reasonable play: the
    #: referee ends a match that reaches it as a draw whose Result says why
    #: (``Result.ended``), so that bots that never finish cannot stall a run.
    max_actions: ClassVar[int] = 100_000
    #: A lower cap for this instance (a tournament's ``max_actions``, ``troef
    #: play --max-actions``), set by :meth:`with_max_actions`; None: the game's.
    _cap: int | None = None
    #: Every kind of move the game's seats make (:class:`ActionKind`), for its
    #: reference page; each legal action matches exactly one. Empty: the page
    #: says the moves are not documented.
    action_kinds: ClassVar[tuple[ActionKind, ...]] = ()
    #: The View class this game's States make (see :meth:`view_type`).
    view_class: ClassVar[type[View] | None] = None
    #: For the default :meth:`sampler`: a Sampler class, built as
    #: ``sampler_class(game, view)`` for a :attr:`view_class` view. None: the
    #: game overrides :meth:`sampler` or :meth:`sample_state`.
    sampler_class: ClassVar[type[Any] | None] = None

    @classmethod
    def describe(cls) -> str:
        """:attr:`description`, else the first line of the class's own docstring."""
        return one_line(cls.description, cls)

    def __init__(self, **options: Any) -> None:
        cls = type(self)
        if (
            cls.sample_state is Game.sample_state
            and cls.sampler is Game.sampler
            and cls.sampler_class is None
        ):
            # Either one is enough; abstractmethod cannot say "one of two".
            raise TypeError(f"cannot instantiate {_NO_SAMPLER.format(cls.__name__)}")
        self.options: Mapping[str, Any] = resolve_options(
            self.option_specs, options, f"game {self.name!r}"
        )

    @classmethod
    def for_checks(cls, **options: Any) -> Self:
        """This game with :attr:`check_options`, overridden by ``options``.

        :raises OptionError: a check option or a given one is not allowed.
        """
        return cls(**{**cls.check_options, **options})

    def view_type(self) -> type[View]:
        """The View class this instance's States make: the bot host decodes the
        views it receives with it, and the default :meth:`sampler` accepts it.

        It is :attr:`view_class` when the game names one; else the return
        annotation of ``State.view`` on the State class that :meth:`new_match`
        is annotated to return (no State is built). A game whose options change
        the class (Klaverjassen's variants) overrides this. ``troef check``
        fails when a view is of another class.

        :raises TypeError: neither names a View class.
        """
        named = self.view_class
        if isinstance(named, type) and issubclass(named, View):
            return named
        try:
            state_cls = typing.get_type_hints(type(self).new_match)["return"]
            found = typing.get_type_hints(state_cls.view)["return"]
        except Exception as exc:
            raise TypeError(
                f"cannot tell the View class of game {self.name!r}: name it in "
                f"view_class, or annotate new_match() and State.view() with "
                f"their classes ({exc})"
            ) from exc
        if not (isinstance(found, type) and issubclass(found, View)):
            raise TypeError(
                f"game {self.name!r}: State.view() is annotated {found!r}, not a View"
            )
        return found

    @property
    def action_cap(self) -> int:
        """The most actions a match of this instance may take (the referee's cap)."""
        return type(self).max_actions if self._cap is None else self._cap

    def with_max_actions(self, cap: int | None) -> Self:
        """This game with the match cap lowered to ``cap`` (None: the game's own).

        A cap can only be lowered: the game's :attr:`max_actions` is already
        beyond any reasonable play, and a higher one would let a stalled match
        run longer than the game allows.

        :raises OptionError: ``cap`` is not an integer from 1 to
            :attr:`max_actions`.
        """
        if cap is None:
            return self
        own = type(self).max_actions
        if type(cap) is not int or not 1 <= cap <= own:
            raise OptionError(
                f"max_actions = {cap!r} is not allowed; expected an integer from 1 "
                f"to {own} (game {self.name!r} ends a match at {own} actions, and a "
                "run may lower that, not raise it)"
            )
        twin = type(self)(**dict(self.options))
        twin._cap = cap
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        # The options live in a read-only proxy, which does not pickle itself.
        return (_rebuild_game, (type(self), dict(self.options), self._cap))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        # Not isinstance(other, Game): compiled, that tests for Game alone.
        assert isinstance(other, type(self))
        return dict(self.options) == dict(other.options) and self._cap == other._cap

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({args})"

    def recorded_options(self, n_seats: int) -> dict[str, Any]:
        """The options as records keep them at a table of ``n_seats``.

        Job ids and config snapshots are digests of this mapping: an option
        renamed after a database was made is recorded by its old name
        (:attr:`Option.recorded_as`), so that database resumes. A game whose
        options changed shape overrides this (belote's one ``target``).
        """
        return recorded_options(self.option_specs, self.options)

    def check_seats(self, n_seats: int) -> None:
        """Raise :class:`SeatCountError` unless this game takes ``n_seats``."""
        if n_seats not in self.seat_counts:
            allowed = ", ".join(str(n) for n in sorted(self.seat_counts))
            raise SeatCountError(
                f"game {self.name!r} takes {allowed} seats, not {n_seats}"
            )

    def teams(self, n_seats: int) -> tuple[int, ...]:
        """Team index of each seat at a table of ``n_seats``: the one source of teams.

        Teams are numbered 0..m-1 (m >= 2), each with at least one seat:
        ``(0, 1, 2)`` every seat for itself (the default), ``(0, 1, 0, 1)``
        two pairs of partners (``partnerships = True``), ``(0, 1, 0, 1, 0, 1)``
        two teams of three sitting alternately. Plans, standings and ratings
        treat a team as one entrant (``harness.contracts.teams`` checks the layout).
        """
        if self.partnerships:
            half = n_seats // 2
            return tuple(seat % half for seat in range(n_seats))
        return tuple(range(n_seats))

    def utility_range(self, n_seats: int) -> tuple[float, float]:
        """The least and the most one seat's ``Result.utilities`` entry can be.

        The default utilities (:func:`~harness.contracts.result.rank_utilities`)
        lie in -1..1; a game whose Results carry utilities of their own (net
        chips) overrides this with bounds that hold for every match of its
        options. Frameworks that declare bounds read it (OpenSpiel's
        ``min_utility``/``max_utility``, ``harness/interop/openspiel.py``).
        """
        return (-1.0, 1.0)

    def encoding(self, n_seats: int) -> Encoding:
        """Integer actions, legal masks and observations for learning bots.

        Optional: a game that offers one returns an
        :class:`~harness.contracts.encoding.Encoding` for its options at a
        table of ``n_seats``, a function of the View alone
        (``docs/ENCODING.md``). The default says the game has none.

        :raises NotImplementedError: the game offers no encoding.
        """
        raise NotImplementedError(
            f"game {self.name!r} has no encoding for learning bots: its class "
            f"{type(self).__name__} does not override Game.encoding(n_seats) "
            "(docs/ENCODING.md)"
        )

    def deal_estimate(self, state: State) -> tuple[float, ...]:
        """Each seat's deal points expected at the end of ``state``'s deal.

        Optional: a search bot whose rollout is cut off before the deal ends
        (``evaluation = "game"``, ``docs/SEARCH.md``) values the world by this
        instead of by nothing. ``state`` is a full State of this game in an
        unfinished deal; the answer is in the units of
        ``Result.deal_points``, one number per seat. The default says the
        game offers none.

        :raises NotImplementedError: the game offers no estimate.
        """
        raise NotImplementedError(
            f"game {self.name!r} offers no deal estimate: its class "
            f"{type(self).__name__} does not override Game.deal_estimate(state) "
            "(docs/SEARCH.md)"
        )

    @abstractmethod
    def new_match(self, n_seats: int, seed: int) -> State:
        """The initial State of a whole match, dealt from ``seed`` alone."""

    def sample_state(self, view: View, rng: random.Random) -> State:
        """A full State consistent with everything ``view`` knows.

        Hidden cards are placed at random among the places ``view.seat``
        cannot see, respecting what the view reveals (voids, melds shown, ...).
        For determinised search bots and the information-set check.

        A game implements this or :meth:`sampler` (or both); by default it is
        ``self.sampler(view).sample(rng)``.
        """
        if type(self).sampler is Game.sampler and self.sampler_class is None:
            raise NotImplementedError(_NO_SAMPLER.format(type(self).__name__))
        return self.sampler(view).sample(rng)

    def sampler(self, view: View) -> Sampler:
        """A :class:`Sampler` of States consistent with ``view``.

        A search bot that draws many worlds from one view builds this once:
        a game that implements it reads the view's constraints once and
        samples cheaply. By default it is ``sampler_class(self, view)`` when the
        game names a :attr:`sampler_class` (``view`` must be a
        :attr:`view_class`), else each sample is a :meth:`sample_state` call.
        """
        if self.sampler_class is not None:
            if self.view_class is None or not isinstance(view, self.view_type()):
                raise TypeError(
                    f"{self.name} samples from a {_name(self.view_class)}, not {view!r}"
                )
            sampler: Sampler = self.sampler_class(self, view)
            return sampler
        if type(self).sample_state is Game.sample_state:
            raise NotImplementedError(_NO_SAMPLER.format(type(self).__name__))
        return _EachCall(self, view)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """A quick, sensible action for the seat to act in full State ``state``.

        Optional: a search bot plays its rollouts by it with ``rollout =
        "game"`` (``docs/SEARCH.md``): a family's rule of thumb on the State's
        own data, far cheaper than a heuristic bot asked with a view at every
        action. It must return one of ``state.legal_actions()`` and draw any
        chance only from ``rng``. The default says the game offers none.

        :raises NotImplementedError: the game offers no rollout policy.
        """
        raise NotImplementedError(
            f"game {self.name!r} offers no rollout policy: its class "
            f"{type(self).__name__} does not override "
            "Game.rollout_action(state, rng) (docs/SEARCH.md)"
        )

    def belief_sampler(self, view: View) -> Sampler:
        """A :class:`Sampler` of worlds weighted by how the other seats played.

        Optional: every State it returns is consistent with ``view``, as from
        :meth:`sampler`, but hidden cards are placed by a model of sensible
        play rather than uniformly (a player who kept a card was likelier to
        hold what it melds with). A search bot draws from it with ``belief =
        "game"`` (``docs/SEARCH.md``); the conformance suite checks its worlds
        as it checks the sampler's. The default says the game offers none.

        :raises NotImplementedError: the game offers no belief model.
        """
        raise NotImplementedError(
            f"game {self.name!r} offers no belief sampler: its class "
            f"{type(self).__name__} does not override Game.belief_sampler(view) "
            "(docs/SEARCH.md)"
        )


def _rebuild_game(
    cls: type[Game], options: dict[str, Any], cap: int | None = None
) -> Game:
    game = cls(**options)
    game._cap = cap
    return game


def _name(cls: type[Any] | None) -> str:
    return "View (no view_class named)" if cls is None else cls.__name__


_NO_SAMPLER = "game class {} implements neither sample_state nor sampler"


# Native in a compiled build, so that a compiled game's sampler may be native
# too; plugins written in Python subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Sampler(ABC):
    """Worlds behind one view: reads its constraints once, samples many cheaply.

    Made by :meth:`Game.sampler`; every State it returns is consistent with
    that view, as :meth:`Game.sample_state` would be, and drawn only from
    ``rng``.
    """

    @abstractmethod
    def sample(self, rng: random.Random) -> State:
        """A fresh State consistent with the view, drawn from ``rng``."""


class _EachCall(Sampler):
    """The default sampler: one :meth:`Game.sample_state` call per sample."""

    __slots__ = ("game", "view")

    def __init__(self, game: Game, view: View) -> None:
        self.game = game
        self.view = view

    def sample(self, rng: random.Random) -> State:
        return self.game.sample_state(self.view, rng)


# Native in a compiled build (bench/README.md, "Compiled builds"), so that a
# compiled game's State may be native too; plugins written in Python subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """The referee's complete truth of one match.

    ``to_act`` is the seat whose decision is next, or ``None`` when the match
    is over. ``deal`` counts the deals of the match from 0.

    Optional hook ``validate(self) -> None``: a State may define it to raise
    (any exception, with a message) when it breaks its deal's own constraints,
    the ones a view cannot show (a skart without kings, a stock of the right
    size, hand sizes that follow the play). The conformance suite calls it on
    every state a sampler draws, so an impossible world fails ``troef check``.
    It is not part of the abstract contract: a State without it is not asked.

    ``halt_after_deal`` is for searches: set on a world a search plays, the
    deal that ends there is scored and ``deal`` moves on, but the next deal is
    not dealt (the search's horizon is the deal, and the shuffle would cost
    some tenth of its time in a trick game). Past that point only ``deal`` and
    :meth:`result` mean anything. A game may ignore it and deal on.
    """

    game: Game
    n_seats: int
    to_act: Seat | None
    deal: int
    halt_after_deal: bool = False

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act, in a stable order."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act.

        Raises :class:`~harness.contracts.errors.InvalidActionError` for bad
        notation and :class:`~harness.contracts.errors.IllegalActionError` for a
        move not legal now.
        """

    @abstractmethod
    def is_over(self) -> bool:
        """True when the match has ended."""

    @abstractmethod
    def result(self) -> Result:
        """The match result; before the end, the standing so far.

        The referee calls it early when a forfeit ends a match: scores and
        deal points of the deals completed so far.
        """

    @abstractmethod
    def view(self, seat: Seat) -> View:
        """What ``seat`` knows now, as immutable plain data."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy: applying actions to one leaves the other alone."""

    @abstractmethod
    def card_locations(self) -> Mapping[str, tuple[str, ...]]:
        """Every card of the match by place (``"hand:0"``, ``"stock"``, ...).

        Together the places hold each card of :meth:`deck` exactly once; the
        conformance suite checks this after every action.
        """

    @abstractmethod
    def hidden_from(self, seat: Seat) -> frozenset[str]:
        """The names of the places in :meth:`card_locations` ``seat`` cannot see."""

    @abstractmethod
    def deck(self) -> tuple[str, ...]:
        """Every card in play in this match (a multiset for double decks)."""

    def narrate_start(self) -> list[str]:
        """Lines that introduce the match's first deal, told before its first action.

        A game's :meth:`narrate` introduces each later deal with the action that
        ends the one before; nothing comes before deal 0, so this says the same
        for it: the deal number, the dealer, the trump when it is known, who
        leads or must bid. What not every seat knows is an :class:`Aside`, as
        in :meth:`narrate` (a human seat reads its own account).
        It never changes the match (a game may note what it has told, so that
        :meth:`narrate` does not tell it again). The default says nothing.
        """
        return []

    def narrate(self, action: Action) -> list[str]:
        """Apply ``action`` and return lines telling a person what happened.

        Games override this to tell tricks, melds and deal scores. It is not
        used in the hot loop; the referee calls :meth:`apply`.

        The lines are the referee's account; a plain ``str`` line is public,
        every seat may hear it. A line that tells what only some seats may
        know (a card drawn from the stock, a discard to the skart, a meld a
        seat chose not to declare) is an :class:`Aside`: its ``seats`` hear it
        as it is, every other seat hears its ``public`` text, or nothing.
        :func:`heard_by` gives one seat's account.
        """
        seat = self.to_act
        self.apply(action)
        return [f"seat {seat}: {action}"]


# An ordinary class in a compiled build: mypyc's native classes cannot derive from str.
@mypyc_attr(native_class=False)
class Aside(str):
    """A narration line that only some seats may hear.

    Its text is the referee's account; ``seats`` hear it as it is; every other
    seat hears ``public`` instead, or nothing when that is None:
    ``Aside("seat 1 draws 2D from the stock", {1}, "seat 1 draws from the stock")``.
    """

    seats: frozenset[int]
    public: str | None

    def __new__(
        cls, text: str, seats: Iterable[int], public: str | None = None
    ) -> Aside:
        line = str.__new__(cls, text)  # mypyc compiles no super().__new__
        line.seats = frozenset(seats)
        line.public = public
        return line

    def __reduce__(self) -> tuple[Any, ...]:
        return (Aside, (str(self), self.seats, self.public))


def heard_by(lines: Iterable[str], seat: int | None) -> list[str]:
    """What ``seat`` hears of narration ``lines`` (None: the referee, who hears
    every line as it is)."""
    heard = []
    for line in lines:
        if seat is None or not isinstance(line, Aside) or seat in line.seats:
            heard.append(str(line))
        elif line.public is not None:
            heard.append(line.public)
    return heard


def reject_action(
    state: State, action: object, known: Callable[[str], bool], notation: str
) -> NoReturn:
    """Raise the error ``state.apply`` owes for an ``action`` it cannot play.

    :class:`~harness.contracts.errors.IllegalActionError` when ``known(action)`` (good
    notation, not legal now), else :class:`~harness.contracts.errors.InvalidActionError`
    saying the notation is ``notation`` (e.g. ``"a belote action: 'take', ...
    or a card such as 'JC'"``); both list the legal actions.
    """
    if not isinstance(action, str):
        raise InvalidActionError(f"an action is a string, not {action!r}")
    legal = ", ".join(state.legal_actions())
    if known(action):
        raise IllegalActionError(
            f"seat {state.to_act} may not {action!r} now; legal: {legal}"
        )
    raise InvalidActionError(f"{action!r} is not {notation}; legal now: {legal}")
