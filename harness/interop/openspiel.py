"""troef's games as OpenSpiel games, through OpenSpiel's support for Python games.

:func:`register` makes every game of a registry loadable by pyspiel::

    from harness.interop import openspiel
    openspiel.register()
    game = pyspiel.load_game("troef_klaverjassen(variant=leids)")

A game is named ``troef_<name>`` (dashes as underscores); its parameters are
the game's options, ``players`` (the seat count) and ``max_actions`` (the
referee's cap). Chance is explicit: troef deals a whole match from one seed,
so the first :data:`SEED_BYTES` moves of every match are chance nodes that
choose the seed's bytes (256 equally likely outcomes each). After them each
pyspiel state wraps one troef State: action ids, legal actions and the
observation tensor come from the game's encoding (``docs/ENCODING.md``), the
information state and observation strings are the seat's View as JSON,
``returns()`` are the Result's utilities, and ``resample_from_infostate``
draws from the game's sampler. The rulings are in ``docs/INTEROP.md``.

``pyspiel`` (the ``openspiel`` extra) is imported by :func:`register` and
:func:`adapter_game` only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from harness.contracts.errors import OptionError
from harness.contracts.game import Game, State
from harness.plugins import Registry, load_plugins

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding

__all__ = [
    "adapter_encoding",
    "adapter_game",
    "adapter_state",
    "register",
    "seed_actions",
    "short_name",
]

#: The parameters every adapted game takes besides the troef game's own
#: options: the seat count, and the referee's cap on a match's actions.
PLAYERS, MAX_ACTIONS = "players", "max_actions"
#: The chance nodes at the root: one byte of the match seed each, big-endian.
SEED_BYTES = 8


def short_name(game: str) -> str:
    """OpenSpiel's name of troef game ``game``: ``gin-rummy`` → ``troef_gin_rummy``."""
    return "troef_" + game.replace("-", "_")


def register(registry: Registry | None = None) -> dict[str, str]:
    """Register every game of ``registry`` (default: every installed plugin's)
    with pyspiel, and return OpenSpiel's name → troef's name of each.

    Registering twice is harmless: a name pyspiel knows already is left as it
    is. A game without an encoding (an outside plugin that does not implement
    ``Game.encoding``) has no action ids and is left out.

    :raises ImportError: OpenSpiel is not installed (``pip install
        'troef[openspiel]'``).
    """
    pyspiel = _pyspiel()
    registry = registry or load_plugins()
    known = set(pyspiel.registered_names())
    names = {}
    for name, cls in sorted(registry.games.items()):
        if cls.encoding is Game.encoding:
            continue
        factory = _game_class(pyspiel, cls)
        names[factory.spiel_name] = name
        if factory.spiel_name not in known:
            pyspiel.register_game(_GAME_TYPES[factory.spiel_name], factory)
    return names


def adapter_game(game: Game, players: int) -> Any:
    """The pyspiel game of the troef ``game`` instance at ``players`` seats.

    For callers that hold a Game already (an entrant's game, with its action
    cap): the same class of game :func:`register` builds, without a name
    lookup or a registration.
    """
    factory = _game_class(_pyspiel(), type(game))
    return factory({**game.options, PLAYERS: players, MAX_ACTIONS: game.action_cap})


def adapter_state(game: Any, world: State) -> Any:
    """A state of the adapter ``game`` that plays on from troef's ``world``.

    For a bot that searches from a world sampled behind its View (the
    ``openspiel:ismcts`` entrant): its action count starts at 0, so the cap
    counts from ``world``, and its ``history()`` is empty.
    """
    table = _TABLES[str(game)]
    return _CLASSES[""].state_class(game, table, world, 0)


def adapter_encoding(game: Any) -> Encoding:
    """The encoding whose ids the adapter ``game``'s actions are."""
    return _TABLES[str(game)].encoding


def seed_actions(seed: int) -> list[int]:
    """The chance actions that deal the match troef deals from ``seed``.

    Apply them to ``new_initial_state()`` to play troef's match ``seed``:
    ``0 <= seed < 2**64``, the seed's bytes, most significant first.
    """
    if not 0 <= seed < 1 << (8 * SEED_BYTES):
        raise ValueError(f"seed {seed} is not an integer from 0 to 2**64 - 1")
    return list(seed.to_bytes(SEED_BYTES, "big"))


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as error:  # pragma: no cover - the extra is installed in CI
        raise ImportError(
            "harness.interop.openspiel needs OpenSpiel: pip install 'troef[openspiel]'"
        ) from error
    return pyspiel


def _parameter(cls: type[Game], name: str, default: Any) -> Any:
    if type(default) not in (int, float, bool, str):
        raise OptionError(
            f"option {name!r} of game {cls.name!r} has a default of type "
            f"{type(default).__name__}; an OpenSpiel parameter is an int, float, "
            "bool or str"
        )
    return default


def _game_type(pyspiel: Any, cls: type[Game], spiel_name: str) -> Any:
    params: dict[str, Any] = {}
    for spec in cls.option_specs:
        if spec.name in (PLAYERS, MAX_ACTIONS):
            raise OptionError(
                f"game {cls.name!r} has an option {spec.name!r}, a name the "
                f"OpenSpiel adapter gives the seat count ({PLAYERS!r}) and the "
                f"referee's cap ({MAX_ACTIONS!r})"
            )
        params[spec.name] = _parameter(cls, spec.name, spec.default)
    # The smallest table is the default, as OpenSpiel's own games default to
    # their least players (ruling 2 of docs/INTEROP.md).
    params[PLAYERS] = min(cls.seat_counts)
    params[MAX_ACTIONS] = cls.max_actions
    GameType = pyspiel.GameType
    return GameType(
        short_name=spiel_name,
        long_name=f"troef {cls.title}",
        dynamics=GameType.Dynamics.SEQUENTIAL,
        # troef deals from a seed: the seed is chance, chosen at the root.
        chance_mode=GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=GameType.Information.IMPERFECT_INFORMATION,
        utility=GameType.Utility.GENERAL_SUM,
        reward_model=GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.seat_counts),
        min_num_players=min(cls.seat_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


#: OpenSpiel's game types, by name. The factory pyspiel keeps must hold no
#: pybind object (pyspiel would free it after Python's end, and abort), so
#: each game's class reads its type from here.
_GAME_TYPES: dict[str, Any] = {}
#: The pyspiel.Game subclass of each troef game class, by OpenSpiel's name.
_CLASSES: dict[str, Any] = {}


@dataclass(frozen=True)
class Table:
    """What a pyspiel game of troef's plays: the troef game, its seats, its encoding.

    It also keeps what every state of the game asks at every move, so that a
    playout does not ask the game or the encoding again: the action cap, and
    the ids of the actions met so far both ways (an encoding's ids never
    change, so the maps only grow, to at most its ``num_actions`` entries).
    """

    game: Game
    players: int
    encoding: Encoding
    #: ``game.action_cap``, read once.
    cap: int = field(init=False)
    #: Action → id and id → action, of the actions met so far.
    ids: dict[str, int] = field(init=False, default_factory=dict)
    names: dict[int, str] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cap", self.game.action_cap)

    def action_ids(self, actions: Sequence[str]) -> tuple[int, ...]:
        """The ids of ``actions``, ascending (OpenSpiel's order of legal actions)."""
        ids = self.ids
        try:
            return tuple(sorted([ids[a] for a in actions]))
        except KeyError:
            action_id = self.encoding.actions.action_id
            for action in actions:
                if action not in ids:
                    ids[action] = action_id(action)
            return tuple(sorted([ids[a] for a in actions]))

    def action(self, action_id: int) -> str:
        """The action of ``action_id`` (:meth:`Encoding.action`, remembered)."""
        found = self.names.get(action_id)
        if found is None:
            found = self.names[action_id] = self.encoding.action(action_id)
        return found

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        # Shared, never changed: a state's copy keeps it (see _Match).
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # The encoding is rebuilt, not pickled: it holds functions.
        return (_table, (self.game, self.players))


def _table(game: Game, players: int) -> Table:
    return Table(game, players, game.encoding(players))


class _Match:
    """A troef State in a pyspiel state's ``__dict__``.

    pyspiel clones a Python state by deep-copying its ``__dict__``; this makes
    that copy the State's own :meth:`~harness.contracts.game.State.clone`.
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        return _Match(self.state.clone())


#: Each pyspiel game's Table by its string (name and every parameter): pyspiel
#: does not keep a Python game's attributes when it hands the game back to
#: Python (a state's ``get_game()``, a game it copied), so states look it up.
_TABLES: dict[str, Table] = {}


def _game_class(pyspiel: Any, cls: type[Game]) -> Any:
    """The pyspiel.Game subclass of troef's game class ``cls`` (its factory)."""
    if "" not in _CLASSES:
        _CLASSES[""] = _define(pyspiel)
    spiel_name = short_name(cls.name)
    if spiel_name not in _CLASSES:
        _GAME_TYPES[spiel_name] = _game_type(pyspiel, cls, spiel_name)
        _CLASSES[spiel_name] = type(
            f"TroefGame_{spiel_name}",
            (_CLASSES[""],),
            {"troef_class": cls, "spiel_name": spiel_name},
        )
    return _CLASSES[spiel_name]


def _load(cls: type[Game], params: dict[str, Any]) -> Any:
    """The pyspiel game of ``cls`` with ``params`` (how a pickled one comes back)."""
    return _game_class(_pyspiel(), cls)(params)


def _define(pyspiel: Any) -> Any:
    terminal = int(pyspiel.PlayerId.TERMINAL)
    chance = int(pyspiel.PlayerId.CHANCE)

    class TroefGame(pyspiel.Game):  # type: ignore[misc]
        """One troef game at one seat count, as a pyspiel game.

        Subclassed once per troef game class (:func:`_game_class`); called
        with OpenSpiel's parameters, as pyspiel calls a registered factory.
        """

        troef_class: type[Game]
        spiel_name: str

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            cls = self.troef_class
            game_type = _GAME_TYPES[self.spiel_name]
            params = {**game_type.parameter_specification, **(params or {})}
            names = {spec.name for spec in cls.option_specs}
            game = cls(**{k: v for k, v in params.items() if k in names})
            if params[MAX_ACTIONS] != cls.max_actions:
                game = game.with_max_actions(params[MAX_ACTIONS])
            players = params[PLAYERS]
            if type(players) is not int or players not in game.seat_counts:
                seats = ", ".join(map(str, sorted(game.seat_counts)))
                raise OptionError(
                    f"{game_type.short_name}: parameter {PLAYERS!r} = {players!r}; "
                    f"game {game.name!r} seats {seats}"
                )
            encoding = game.encoding(players)
            low, high = game.utility_range(players)
            info = pyspiel.GameInfo(
                num_distinct_actions=encoding.num_actions,
                max_chance_outcomes=256,
                num_players=players,
                min_utility=low,
                max_utility=high,
                utility_sum=None,
                max_game_length=game.action_cap,
            )
            super().__init__(game_type, info, params)
            _TABLES[str(self)] = Table(game, players, encoding)

        def __reduce__(self) -> tuple[Any, ...]:
            # The class is made at run time: pickle the troef class and params.
            return (_load, (self.troef_class, dict(self.get_parameters())))

        def new_initial_state(self) -> TroefState:
            """The root: the first chance node of the match seed."""
            return TroefState(self, _TABLES[str(self)], None, 0)

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> TroefObserver:
            """The observer of the View: the encoding's tensor, the View's JSON."""
            if params:
                raise ValueError(
                    f"{self.get_type().short_name} takes no observation parameters; "
                    f"got {params}"
                )
            return TroefObserver(self, _TABLES[str(self)], iig_obs_type)

    class TroefState(pyspiel.State):  # type: ignore[misc]
        """The seed's bytes so far, then one troef State and its action count."""

        def __init__(
            self,
            game: TroefGame,
            table: Table,
            state: State | None,
            actions: int,
            seed: tuple[int, ...] = (),
        ) -> None:
            super().__init__(game)
            self.table = table
            self._match_ = None if state is None else _Match(state)
            #: Actions of the seats so far (the referee's cap counts them).
            self.actions = actions
            #: The seed's bytes chosen so far, while the match is not dealt.
            self.seed = seed
            #: The legal ids of the seat to act once asked, until the next move:
            #: a search asks for them several times a node.
            self._legal: tuple[int, ...] | None = None
            self._settle()

        def _settle(self) -> None:
            """Keep the player to move: pyspiel asks for it many times a move."""
            match = self._match_
            if match is None:
                self._player = chance
                return
            state = match.state
            if state.is_over() or self.actions >= self.table.cap:
                # The referee's cap ends a match as a draw (match/referee.py).
                self._player = terminal
            else:
                seat = state.to_act
                assert seat is not None  # a match not over has a seat to act
                self._player = seat

        @property
        def troef_state(self) -> State | None:
            """The match, once the seed is chosen."""
            return None if self._match_ is None else self._match_.state

        def _match(self) -> State:
            if self.troef_state is None:
                raise pyspiel.SpielError(
                    f"{self.get_game().get_type().short_name}: the match is not "
                    f"dealt yet ({len(self.seed)} of {SEED_BYTES} seed bytes chosen)"
                )
            return self.troef_state

        def current_player(self) -> int:
            return self._player

        def is_terminal(self) -> bool:
            return self._player == terminal

        # legal_actions and is_chance_node answer a Python caller here, with
        # what pyspiel's own would answer through the C++ state (the C++
        # path calls _legal_actions); they save a crossing into C++ and back
        # per call, a large share of a playout's cost.

        def is_chance_node(self) -> bool:
            return self._player == chance

        def legal_actions(self, player: int | None = None) -> list[int]:
            """The legal ids of ``player`` (default: the one to act), ascending;
            at a chance node the seed byte's outcomes, whoever asks."""
            here = self._player
            legal = self._legal
            if legal is not None and (player is None or player == here):
                return list(legal)  # the common case, without a further call
            if player is None or player == here or (here < 0 and here != chance):
                return self._legal_actions(here)
            if player < 0 or here == chance:
                # pyspiel's answer (the chance outcomes, or its error for a
                # pseudo-player asked at a seat's turn): rare, so asked of it.
                return list(pyspiel.State.legal_actions(self, player))
            return []

        def chance_outcomes(self) -> list[tuple[int, float]]:
            """The next byte of the seed: 0..255, equally likely."""
            return [(byte, 1 / 256) for byte in range(256)]

        def _legal_actions(self, player: int) -> list[int]:
            legal = self._legal
            if legal is not None and player == self._player:
                return list(legal)  # a copy: the caller may change its list
            if player != self._player or player == terminal:
                return []
            if player == chance:
                return list(range(256))
            match = self._match_
            assert match is not None  # a seat is to act: the match is dealt
            legal = self.table.action_ids(match.state.legal_actions())
            self._legal = legal
            return list(legal)

        def _apply_action(self, action: int) -> None:
            match = self._match_
            if match is None:
                self.seed = (*self.seed, int(action))
                if len(self.seed) == SEED_BYTES:
                    seed = int.from_bytes(bytes(self.seed), "big")
                    table = self.table
                    self._match_ = _Match(table.game.new_match(table.players, seed))
            else:
                match.state.apply(self.table.action(action))
                self.actions += 1
                self._legal = None
            self._settle()

        def _action_to_string(self, player: int, action: int) -> str:
            if player == chance:
                return f"seed byte {len(self.seed)}: {action}"
            return self.table.action(action)

        def returns(self) -> list[float]:
            """The Result's utilities at the end (zeros at the cap: a draw)."""
            state = self.troef_state
            if state is None or not state.is_over():
                return [0.0] * self.table.players
            return list(state.result().utilities)

        def observation_tensor(self, player: int | None = None) -> list[float]:
            """The encoding's tensor of ``player``'s View (default: the seat to
            act), as the observer gives it to pyspiel's C++ callers; read here
            directly, as pyspiel's Python path builds a root state per call."""
            state = self.troef_state
            if state is None or (player is None and self._player < 0):
                if player is None:
                    return list(super().observation_tensor())
                return list(super().observation_tensor(player))
            seat = self._player if player is None else player
            values: list[float] = self.table.encoding.encode(state.view(seat)).tolist()
            return values

        def resample_from_infostate(self, player_id: int, sampler: Any) -> TroefState:
            """A state drawn by the game's sampler behind ``player_id``'s View.

            ``sampler`` (OpenSpiel's probability sampler, a callable giving a
            float in [0, 1)) seeds the draw, so a seeded search repeats.
            """
            view = self._match().view(player_id)
            rng = random.Random(int(sampler() * 2**53))
            world = self.table.game.sampler(view).sample(rng)
            return TroefState(self.get_game(), self.table, world, self.actions)

        def __str__(self) -> str:
            """Every card's place, the seat to act and the actions so far."""
            if self.troef_state is None:
                return f"seed bytes: {list(self.seed)}"
            places = self.troef_state.card_locations()
            lines = [f"{place}: {' '.join(cards)}" for place, cards in places.items()]
            lines.append(f"to act: {self.troef_state.to_act}; actions: {self.actions}")
            return "\n".join(lines)

    class TroefObserver:
        """OpenSpiel's Python observer of one troef game (``observation.py``).

        Both the observation and the information state are the seat's View:
        it is troef's information set under perfect recall. The tensor is the
        encoding's (which may hold less than the View, ENCODING ruling 6).
        """

        def __init__(self, game: TroefGame, table: Table, iig_obs_type: Any) -> None:
            private = pyspiel.PrivateInfoType.SINGLE_PLAYER
            if iig_obs_type is not None and (
                iig_obs_type.private_info != private or not iig_obs_type.public_info
            ):
                raise ValueError(
                    f"{game.get_type().short_name} observes one seat's View (public "
                    f"and private information); asked for {iig_obs_type}"
                )
            self.encoding = table.encoding
            self.tensor = np.zeros(self.encoding.shape, np.float32)
            self.dict = {
                s.name: self.tensor[s.start : s.start + s.size]
                for s in self.encoding.segments
            }

        def set_from(self, state: TroefState, player: int) -> None:
            if state.troef_state is None:
                self.tensor.fill(0)  # nothing is dealt, nothing is known
                return
            self.tensor[:] = self.encoding.encode(state.troef_state.view(player))

        def string_from(self, state: TroefState, player: int) -> str:
            if state.troef_state is None:
                return f"seat {player}, before the deal"
            return state.troef_state.view(player).to_json()

    TroefGame.state_class = TroefState
    return TroefGame
