"""Tournament planning: who plays whom, in which seats, with which seed.

A plan is a deterministic tuple of :class:`Job`s with stable, content-derived
ids. With duplicate deals each match seed is played once per seat rotation, so
every entrant holds every hand; the jobs of one seed and composition form a
*group* that the statistics can pair.

Teams come from ``Game.teams(n)`` (``TournamentConfig.teams``). A composition
names one entrant per team, and every seat of a team gets that entrant: in
Klaverjassen seats 0 and 2 are one entrant, 1 and 3 the other; in a game of
two teams of three sitting alternately, seats 0, 2, 4 and 1, 3, 5. Seat
rotations are cyclic over the teams: rotation r gives team t the entrant
``composition[(t + r) % m]``, so over a duplicate group every entrant holds
every team's seats (every seat when each seat is its own team).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConfigError
from harness.contracts.seeding import derive_seed
from harness.contracts.teams import team_count
from harness.isolation.botprocess import ProcessSettings
from harness.match.referee import TimeControl

if TYPE_CHECKING:
    from harness.tournament.config import TournamentConfig

__all__ = ["Job", "compositions", "content_id", "plan", "seatings"]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play one match: plain, picklable data."""

    #: Content-derived id: the same job in any run of the same config.
    id: str
    #: Position in the plan; results are decided and reported in this order.
    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    #: Entrant label per seat.
    seating: tuple[str, ...]
    #: (bot name, bot options) per seat.
    bots: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    seed: int
    #: Duplicate group: jobs that share the seed and the composition.
    group: str
    #: Which cyclic rotation of the composition this seating is.
    rotation: int
    #: Per seat: how its bot runs (None: in the worker's process).
    process: tuple[ProcessSettings | None, ...] = ()
    #: Per seat: its time control (None: no limit).
    time_controls: tuple[TimeControl | None, ...] = ()
    #: The config's lower match cap (None: the game's ``max_actions``).
    max_actions: int | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """Inverse of :meth:`to_dict`."""
        return cls(
            id=data["id"],
            index=data["index"],
            game=data["game"],
            options=tuple(sorted(data["options"].items())),
            seating=tuple(data["seating"]),
            bots=tuple((b, tuple(sorted(o.items()))) for b, o in data["bots"]),
            seed=data["seed"],
            group=data["group"],
            rotation=data["rotation"],
            process=tuple(
                None if p is None else _process_settings(p)
                for p in data.get("process", ())
            ),
            time_controls=tuple(
                None if t is None else TimeControl(**t)
                for t in data.get("time_controls", ())
            ),
            max_actions=data.get("max_actions"),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the store."""
        return {
            "id": self.id,
            "index": self.index,
            "game": self.game,
            "options": dict(self.options),
            "seating": list(self.seating),
            "bots": [[b, dict(o)] for b, o in self.bots],
            "seed": self.seed,
            "group": self.group,
            "rotation": self.rotation,
            "process": [
                None if p is None else dataclasses.asdict(p) for p in self.process
            ],
            "time_controls": [
                None if t is None else dataclasses.asdict(t) for t in self.time_controls
            ],
            **({} if self.max_actions is None else {"max_actions": self.max_actions}),
        }


def _process_settings(data: dict[str, Any]) -> ProcessSettings:
    """Inverse of ``dataclasses.asdict`` on a ProcessSettings read back from JSON.

    JSON turns its tuples into lists; they become tuples again.
    """
    fields: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in data.items()
    }
    return ProcessSettings(**fields)


def compositions(labels: Sequence[str], sides: int) -> list[tuple[str, ...]]:
    """Every table composition of ``sides`` distinct entrants, in label order.

    With fewer entrants than sides, entrants repeat: every multiset of size
    ``sides`` in which each entrant appears at least once.
    """
    if len(labels) >= sides:
        return list(itertools.combinations(labels, sides))
    return [
        combo
        for combo in itertools.combinations_with_replacement(labels, sides)
        if set(combo) == set(labels)
    ]


def _gauntlet_compositions(
    candidates: Sequence[str], pool: Sequence[str], sides: int
) -> list[tuple[str, ...]]:
    return [
        (c, *others) for c in candidates for others in compositions(pool, sides - 1)
    ]


def seatings(
    composition: tuple[str, ...], teams: Sequence[int]
) -> list[tuple[str, ...]]:
    """The cyclic rotations of a composition, spread over the seats of the teams.

    :param composition: one entrant per team, team 0 first.
    :param teams: the team of each seat (``Game.teams(n)``).
    :returns: one seating (an entrant per seat) per rotation; in rotation r
        every seat of team t gets ``composition[(t + r) % m]``.
    """
    sides = len(composition)
    if sides != team_count(teams):
        raise ValueError(
            f"a composition of {sides} entrants for the {team_count(teams)} "
            f"teams of {tuple(teams)}"
        )
    rotations = [composition[r:] + composition[:r] for r in range(sides)]
    return [tuple(rot[team] for team in teams) for rot in rotations]


#: The most matches one tournament may plan: a plan is held in memory and
#: in the database, a job at a time (about 1 KB each).
MAX_PLANNED = 1_000_000


def planned_count(config: TournamentConfig) -> int:
    """How many jobs :func:`plan` makes, counted without making them."""
    per_seed = sum(len(seatings(c, config.teams)) for c in _tables(config))
    return config.matches * per_seed


def planned_groups(config: TournamentConfig) -> int:
    """How many groups (jobs compared hand for hand) the plan has, counted."""
    if not config.duplicate:
        return planned_count(config)
    return config.matches * len(_tables(config))


def _tables(config: TournamentConfig) -> list[tuple[str, ...]]:
    labels = [e.label for e in config.entrants]
    if config.format == "gauntlet":
        pool = [label for label in labels if label not in config.candidates]
        return list(_gauntlet_compositions(config.candidates, pool, config.sides))
    return list(compositions(labels, config.sides))


def plan(config: TournamentConfig) -> tuple[Job, ...]:
    """The jobs of ``config``'s tournament, in a deterministic order.

    :raises ConfigError: the tournament plans more than :data:`MAX_PLANNED`.
    """
    count = planned_count(config)
    if count > MAX_PLANNED:
        raise ConfigError(
            f"{config.path}: matches = {config.matches} plans {count:,} matches; "
            f"a tournament may plan at most {MAX_PLANNED:,} (lower 'matches')"
        )
    # Per table, the seating of each rotation, prepared once for every seed.
    tables: list[tuple[tuple[str, ...], list[_Seating]]] = []
    for composition in _tables(config):
        prepared = [_Seating(config, s) for s in seatings(composition, config.teams)]
        tables.append((composition, prepared))
    jobs: list[Job] = []
    for m in range(config.matches):
        shared_seed = derive_seed("match", config.seed, m)
        for composition, prepared in tables:
            group = ""
            if config.duplicate:
                # Only a shared seed makes rotations comparable hand for hand;
                # without it every match is its own group.
                group = content_id(["group", shared_seed, list(composition)])
            for rotation, seating in enumerate(prepared):
                if config.duplicate:
                    seed = shared_seed
                else:
                    seed = derive_seed(
                        "match", config.seed, m, "|".join(composition), rotation
                    )
                    group = content_id(["group", seed, list(composition), rotation])
                jobs.append(seating.job(len(jobs), seed, group, rotation))
    ids = {job.id for job in jobs}
    assert len(ids) == len(jobs), "two jobs of one plan share an id"
    return tuple(jobs)


class _Seating:
    """The jobs of one seating: what they share, made once per plan.

    A job's id is the digest of the JSON of ``[game, options, seating, bots,
    seed, rotation, *extras]`` (:func:`content_id`); the JSON of everything but
    the seed and the rotation is made here once, so each job formats two
    numbers into it instead of encoding the whole list again (a plan of
    200,000 jobs took some 2.6 s).
    """

    def __init__(self, config: TournamentConfig, seating: tuple[str, ...]) -> None:
        by_label = {e.label: e for e in config.entrants}
        entrants = [by_label[label] for label in seating]
        self.config = config
        self.seating = seating
        self.bots = tuple((e.bot, e.options) for e in entrants)
        self.clocks = tuple(e.time_control for e in entrants)
        self.process = tuple(e.process for e in entrants)
        head = [
            config.game,
            config.record_options(),
            list(seating),
            [[b, dict(o)] for b, o in self.bots],
        ]
        extras: list[Any] = []
        if any(e.process is not None and e.process.command for e in entrants) or any(
            self.clocks
        ):
            # Only what can change a result enters the id (programs and clocks).
            extras.append(
                [
                    [
                        list(e.process.command) if e.process else None,
                        dataclasses.asdict(e.time_control) if e.time_control else None,
                    ]
                    for e in entrants
                ]
            )
        if config.max_actions is not None:
            extras.append(["max_actions", config.max_actions])
        # The JSON of a list is its items' JSON between commas and brackets.
        self._head = "[" + "".join(_json(item) + "," for item in head)
        self._tail = "".join("," + _json(item) for item in extras) + "]"

    def job(self, index: int, seed: int, group: str, rotation: int) -> Job:
        text = f"{self._head}{int(seed)},{int(rotation)}{self._tail}"
        return Job(
            _digest(text),
            index,
            self.config.game,
            self.config.options,
            self.seating,
            self.bots,
            seed,
            group,
            rotation,
            self.process,
            self.clocks,
            self.config.max_actions,
        )


def content_id(content: Any) -> str:
    """A short stable id of JSON-able ``content``: the same content, the same id."""
    return _digest(_json(content))


_json = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str).encode


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
