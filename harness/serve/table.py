"""One table of ``troef serve``: a person at one seat, bots at the others.

The match is played by the referee (:func:`~harness.match.referee.play_match`)
in a thread of its own, exactly as ``troef play --human`` plays it: the bots
are seated by :func:`~harness.tournament.table_bots.match_bots`, and the person
is a :class:`WebPerson`, a Bot whose ``act`` sends the seat's View to the
browser and waits for the move on a thread-safe queue. What reaches the
browser is the seat's View (as JSON), the seat's account of the match
(:class:`~harness.match.narration.Narrator` with ``seat``: the ``Aside`` lines
as that seat hears them) and the public seating: never the State.

Rulings (the issue left them open):

1. A move the browser sends that is not legal is refused with the reason a
   card player would give (:func:`refusal`) and the person is asked again; it
   never forfeits the match. A person who leaves (the socket closes) forfeits
   at their next decision, and the match is recorded with that forfeit, as a
   bot that crashes is.
2. The bots' moves are told at ``pace`` seconds each, the person's own at
   once, so that the person can follow the table; the pace never changes what
   is played.
3. Every finished match is recorded in a database of its own in the results
   folder (``<time>-<game>-seed<seed>.sqlite``), a one-match round-robin whose
   entrants are the seat labels (the person's entrant has the bot name
   ``person``), so that ``troef report`` and ``troef replay`` read it as they
   read a tournament. One database per match because a database holds one
   config (one game, its options, its entrants), and the next match at the
   table may change any of them.
4. The last trick is the deal's last finished trick record in the View
   (``tricks``: leader, cards in play order, winner), its cards seated in play
   order from the leader; it stays on view into the next deal until a new
   trick is finished.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.contracts.bot import Bot
from harness.contracts.errors import BotFault, ConfigError
from harness.contracts.game import Game
from harness.contracts.result import ForfeitReason, Result
from harness.contracts.view import View
from harness.match.human import SUIT_NAMES, describe_view
from harness.match.narration import Narrator, seat_labels
from harness.match.referee import abandon_bots, play_match
from harness.plugins import Registry
from harness.report.tables import result_table
from harness.tournament.config import TournamentConfig
from harness.tournament.entrants import Entrant
from harness.tournament.plan import Job, content_id
from harness.tournament.store import Store
from harness.tournament.table_bots import match_bots, spec_name

__all__ = [
    "PERSON_BOT",
    "Drawing",
    "Table",
    "TableSettings",
    "WebPerson",
    "record_match",
    "refusal",
    "view_data",
]

#: The bot name a person's seat is recorded under.
PERSON_BOT = "person"

#: A message to the browser: a JSON object with a ``type``.
Message = dict[str, Any]


@dataclass(frozen=True)
class TableSettings:
    """What the person chose in the lobby."""

    game: str
    #: The person's seat, counted from 0.
    seat: int
    #: One ``--bots`` entry per other seat, in seat order (``random``,
    #: ``search:samples=8``, ``cmd:node bot.js``).
    bots: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    #: The person's name at the table.
    name: str = "you"

    @classmethod
    def from_message(cls, data: Mapping[str, Any]) -> TableSettings:
        """The settings of a ``new`` message from the browser.

        :raises ConfigError: naming the key, what was found and what is accepted.
        """
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise ConfigError(f"table: 'game' is {game!r}; expected a game's name")
        seat = data.get("seat", 0)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ConfigError(f"table: 'seat' is {seat!r}; expected a seat number")
        bots = data.get("bots")
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ConfigError(
                f"table: 'bots' is {bots!r}; expected a list of bot names, "
                "one per other seat"
            )
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ConfigError(
                f"table: 'options' is {options!r}; expected an object of options"
            )
        seed = data.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError(f"table: 'seed' is {seed!r}; expected an integer")
        name = str(data.get("name") or "you").strip() or "you"
        return cls(game, seat, tuple(bots), dict(options), seed, name)


_SUITS = "CDHS"


def _suit(card: str) -> str:
    return card[-1:]


def refusal(view: Mapping[str, Any], action: str) -> str:
    """Why ``action`` may not be played now, as a card player says it.

    Derived from the View alone, the same way in every game: a card of
    another suit while the hand holds the suit led must follow suit; holding
    none of it but trumps, must trump; a card of the right suit refused must
    be higher. Anything else gets a plain "may not be played now".
    """
    legal = view.get("legal_actions") or ()
    if not legal:
        return "it is not your turn"
    hand = view.get("hand") or ()
    if action not in hand:
        return f"{action} is not a move you can make now"
    if not any(a in hand for a in legal):
        return f"you cannot play a card now; choose one of: {', '.join(legal)}"
    trick = view.get("trick") or ()
    trump = view.get("trump")
    if trick and isinstance(trick[0], (list, tuple)) and len(trick[0]) == 2:
        led = _suit(str(trick[0][1]))
        if led in _SUITS and any(_suit(c) == led for c in hand):
            if _suit(action) != led:
                return f"you must follow suit ({SUIT_NAMES[led]})"
            return (
                "you must play a higher trump"
                if led == trump
                else f"you must play a higher {SUIT_NAMES[led].split()[0]}"
            )
        if trump in SUIT_NAMES and any(_suit(c) == trump for c in hand):
            if _suit(action) != trump:
                return f"you must trump ({SUIT_NAMES[str(trump)]})"
            return "you must overtrump"
    return f"{action} may not be played now"


def view_data(view: View) -> dict[str, Any]:
    """The View as the browser reads it: its JSON, as a bot receives it."""
    data: dict[str, Any] = json.loads(view.to_json())
    return data


class Drawing:
    """What the browser draws one seat's table from, View by View: the View
    as JSON, the View in words (:func:`~harness.match.human.describe_view`)
    and the last finished trick (ruling 4), kept across Views."""

    def __init__(self, labels: Sequence[str], teams: Sequence[int]) -> None:
        self.labels = list(labels)
        self.teams = tuple(teams)
        self.last_trick: list[Any] | None = None

    def message(self, kind: str, seen: View) -> Message:
        """A message of type ``kind`` drawing ``seen``."""
        view = view_data(seen)
        tricks = view.get("tricks")
        if isinstance(tricks, list) and tricks and _is_record(tricks[-1]):
            leader, cards, winner = tricks[-1][:3]
            n = len(self.labels)
            self.last_trick = [
                leader,
                [[(leader + i) % n, card] for i, card in enumerate(cards)],
                winner,
            ]
        words = describe_view(seen, self.labels, teams=self.teams)
        return {
            "type": kind,
            "view": view,
            "words": [line.strip() for line in words],
            "last_trick": self.last_trick,
        }


class WebPerson(Bot):
    """A person at a browser: ``act`` asks the table, which asks the browser."""

    name = PERSON_BOT

    def __init__(self, game: Game, seat: int, seed: int, *, table: Table) -> None:
        super().__init__(game, seat, seed)
        self.table = table

    def act(self, view: View) -> str:
        return self.table.ask(view)


class Table:
    """One match at one table, from the lobby's settings to the database.

    :param send: called (from the match's thread) with each message for the
        browser; it must be safe to call from another thread.
    :param results: the folder the match's database is written into.
    :param pace: seconds each bot's move is shown before the next.
    """

    def __init__(
        self,
        registry: Registry,
        settings: TableSettings,
        *,
        send: Callable[[Message], None],
        results: Path,
        pace: float = 0.8,
    ) -> None:
        self.settings = settings
        self.results = results
        self.pace = pace
        self._send = send
        self._moves: queue.Queue[str | None] = queue.Queue()
        self._left = threading.Event()
        self._registry = registry
        self.game = registry.game(settings.game, settings.options)
        n_seats = len(settings.bots) + 1
        self.game.check_seats(n_seats)
        if not 0 <= settings.seat < n_seats:
            raise ConfigError(
                f"table: seat {settings.seat} is not at a table of {n_seats}; "
                f"expected 0 to {n_seats - 1}"
            )
        self.specs = list(settings.bots)
        self.specs.insert(settings.seat, PERSON_BOT)
        names = [spec_name(s) for s in self.specs]
        names[settings.seat] = settings.name
        self.labels = seat_labels(names)
        self.teams = self.game.teams(n_seats)
        self.narrator = Narrator(
            self.game, settings.seed, self.labels, seat=settings.seat
        )
        self.drawing = Drawing(self.labels, self.teams)
        self._moved_by_person = False

    # -- the browser's side (any thread) ------------------------------------

    def move(self, action: str) -> None:
        """The person chose ``action`` (checked when the match asks)."""
        self._moves.put(action)

    def leave(self) -> None:
        """The person left: their next decision forfeits, the pace stops."""
        self._left.set()
        self._moves.put(None)

    # -- the match's side (its own thread) ----------------------------------

    def ask(self, view: View) -> str:
        """The person's move at ``view``: refused moves are asked again."""
        message = self._table_message("turn", view)
        data = message["view"]
        legal = list(view.legal_actions)
        hand = data.get("hand") or []
        reasons = {c: refusal(data, c) for c in hand if c not in legal}
        self._send({**message, "reasons": reasons})
        while True:
            answer = self._moves.get()
            if answer is None or self._left.is_set():
                raise BotFault(
                    ForfeitReason.CRASH,
                    f"the person at seat {self.settings.seat} left the table",
                )
            if answer in legal:
                self._moved_by_person = True
                return answer
            self._send(
                {"type": "refused", "action": answer, "reason": refusal(data, answer)}
            )

    def _table_message(self, kind: str, seen: View) -> Message:
        return self.drawing.message(kind, seen)

    def _on_action(self, action: str) -> None:
        lines = self.narrator.tell(action)
        # The narrator's own replay of the match gives the seat's View after
        # each move: what the referee would hand a bot at that seat.
        seen = self.narrator.state.view(self.settings.seat)
        self._send({**self._table_message("update", seen), "lines": lines})
        by_person, self._moved_by_person = self._moved_by_person, False
        if not by_person and self.pace > 0:
            self._left.wait(self.pace)  # a person who left need not wait

    def run(self) -> Result:
        """Play the match, tell it to the browser, record it; the Result."""
        seed = self.settings.seed
        others = [s for i, s in enumerate(self.specs) if i != self.settings.seat]
        bots: list[Bot] = match_bots(self.game, others, seed, self._registry, None)
        bots.insert(
            self.settings.seat,
            WebPerson(self.game, self.settings.seat, seed, table=self),
        )
        start = self.narrator.start()
        first = self.narrator.state.view(self.settings.seat)
        self._send(
            {
                **self._table_message("start", first),
                "lines": start,
                "title": self.game.title,
                "seat": self.settings.seat,
                "labels": self.labels,
                "teams": list(self.teams),
            }
        )
        try:
            result = play_match(
                self.game, bots, seed, keep_log=True, on_action=self._on_action
            )
        except BaseException:
            abandon_bots(bots)
            raise
        database, job = record_match(
            self.results, self.game, self.labels, self.specs, seed, result
        )
        lines = (
            [] if result.forfeit is None else [self.narrator.forfeit(result.forfeit)]
        )
        self._send(
            {
                "type": "over",
                "lines": lines,
                "scores": list(result.scores),
                "ranks": list(result.ranks),
                "table": result_table(result, self.labels),
                "database": str(database),
                "match": job,
            }
        )
        return result


def _is_record(entry: Any) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 5
        and isinstance(entry[0], int)
        and isinstance(entry[1], list)
        and isinstance(entry[2], int)
    )


def record_match(
    folder: Path,
    game: Game,
    labels: Sequence[str],
    specs: Sequence[str],
    seed: int,
    result: Result,
) -> tuple[Path, str]:
    """Write one match into a new database in ``folder`` (ruling 3).

    :param specs: each seat's ``--bots`` entry (``person`` for a person).
    :returns: the database's path and the match's job id.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = folder / f"{stamp}-{game.name}-seed{seed}.sqlite"
    n = 2
    while path.exists():  # two matches in one second
        path = folder / f"{stamp}-{n}-{game.name}-seed{seed}.sqlite"
        n += 1
    entrants = tuple(
        Entrant(label, spec.split(":", 1)[0] if spec != PERSON_BOT else PERSON_BOT)
        for label, spec in zip(labels, specs, strict=True)
    )
    options = tuple(sorted(game.options.items()))
    config = TournamentConfig(
        path=path,
        name=f"{game.name} at the table",
        game=game.name,
        options=options,
        seats=len(labels),
        teams=game.teams(len(labels)),
        format="round-robin",
        matches=1,
        seed=seed,
        duplicate=False,
        database=path,
        keep_logs=True,
        plugins=(),
        workers=None,
        executor="inline",
        chunk=None,
        entrants=entrants,
    )
    bots = tuple((e.bot, e.options) for e in entrants)
    seating = tuple(labels)
    head = [game.name, config.record_options(), list(seating)]
    job = Job(
        id=content_id([*head, [[b, dict(o)] for b, o in bots], seed, 0]),
        index=0,
        game=game.name,
        options=options,
        seating=seating,
        bots=bots,
        seed=seed,
        group=content_id(["group", seed, list(seating), 0]),
        rotation=0,
    )
    with Store.open(path, config) as store:
        store.add_jobs([job])
        store.record(job, result)
    return path, job.id
