"""One table of ``troef serve``: people at some seats, bots at the others.

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
   never forfeits the match. A person who leaves (the socket closes) is dealt
   with as the table's ``on_leave`` says: ``forfeit`` (the default, as a bot
   that crashes: their next decision forfeits, and the match is recorded with
   it), ``bot`` (:data:`STAND_IN` takes the seat over for good at their first
   decision after ``grace`` seconds away, unless they are back through their
   link) or ``wait`` (the match waits until they are back).
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
5. Several people: each seat whose ``bots`` entry is ``person`` is a person
   invited through the table's link for that seat (``/?table=ID&seat=N``),
   named ``guest`` at the table; the match starts when every person has sat
   down, and each hears their own seat's account and sees their own View.
   The first seat's account tells the forfeit line at the end.
"""

from __future__ import annotations

import json
import queue
import secrets
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
from harness.match.referee import abandon_bots, make_bot, play_match
from harness.plugins import Registry
from harness.report.replay import last_trick
from harness.report.tables import result_table
from harness.serve.record import PERSON_BOT, record_match
from harness.tournament.table_bots import match_bots, spec_name

__all__ = [
    "GUEST",
    "ON_LEAVE",
    "PERSON_BOT",
    "STAND_IN",
    "Drawing",
    "Table",
    "TableSettings",
    "WebPerson",
    "refusal",
    "refusals",
    "view_data",
]

#: How a person invited to a seat is named.
GUEST = "guest"
#: What happens when a person leaves the table: their next decision forfeits
#: the match; a bot (:data:`STAND_IN`) takes the seat over unless they are
#: back within the grace time; or the match waits for them.
ON_LEAVE = ("forfeit", "bot", "wait")
#: The bot that takes over the seat of a person who left.
STAND_IN = "random"

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
    name: str = "player"
    #: What happens when a person leaves (:data:`ON_LEAVE`).
    on_leave: str = "forfeit"
    #: With ``on_leave = "bot"``: seconds a person has to come back.
    grace: float = 30.0

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
        name = str(data.get("name") or "player").strip() or "player"
        on_leave = data.get("on_leave", "forfeit")
        if on_leave not in ON_LEAVE:
            raise ConfigError(
                f"table: 'on_leave' is {on_leave!r}; expected one of "
                f"{', '.join(ON_LEAVE)}"
            )
        grace = data.get("grace", 30.0)
        if not isinstance(grace, (int, float)) or isinstance(grace, bool) or grace < 0:
            raise ConfigError(
                f"table: 'grace' is {grace!r}; expected 0 or more seconds"
            )
        return cls(
            game, seat, tuple(bots), dict(options), seed, name, on_leave, float(grace)
        )


_SUITS = "CDHS"
#: Tarot's trumps, the cards 1T to 21T: a fifth suit that trumps the others.
_TAROT_TRUMPS = "T"


def _suit(card: str) -> str:
    return card[-1:]


def refusal(view: Mapping[str, Any], action: str) -> str:
    """Why ``action`` may not be played now, as a card player says it.

    Derived from the View alone, the same way in every game: a card of
    another suit while the hand holds the suit led must follow suit; holding
    none of it but trumps, must trump; a card of the right suit refused must
    be higher. Tarot's trumps (suit ``T``) are trumps though the View names
    none (seed 000 line 351). Anything else gets a plain "may not be played
    now".
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
    if trump is None and any(_suit(c) == _TAROT_TRUMPS for c in hand):
        trump = _TAROT_TRUMPS  # tarot: the trumps are a suit of their own
    names = {**SUIT_NAMES, _TAROT_TRUMPS: "trumps \u2605"}
    if trick and isinstance(trick[0], (list, tuple)) and len(trick[0]) == 2:
        led = _suit(str(trick[0][1]))
        if led in names and any(_suit(c) == led for c in hand):
            if _suit(action) != led:
                if led == _TAROT_TRUMPS:
                    return "you must play a trump (trumps were led)"
                return f"you must follow suit ({SUIT_NAMES[led]})"
            return (
                "you must play a higher trump"
                if led == trump
                else f"you must play a higher {SUIT_NAMES[led].split()[0]}"
            )
        if trump in names and any(_suit(c) == trump for c in hand):
            if _suit(action) != trump:
                return f"you must trump ({names[str(trump)]})"
            return "you must overtrump"
    return f"{action} may not be played now"


def refusals(view: Mapping[str, Any]) -> dict[str, str]:
    """Per card of the hand that cannot be played now, the reason
    (:func:`refusal`). A card is playable when it is a legal move, or when
    ``<card>*`` is (the Bezique games: the copy open on the table)."""
    legal = view.get("legal_actions") or ()
    playable = {*legal, *(a[:-1] for a in legal if a.endswith("*"))}
    hand = view.get("hand") or ()
    return {c: refusal(view, c) for c in hand if c not in playable}


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
        self.last_trick = last_trick(view, len(self.labels), self.last_trick)
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


@dataclass
class _Person:
    """A seat a person plays: their own account, drawing and moves."""

    seat: int
    narrator: Narrator
    drawing: Drawing
    moves: queue.Queue[str | None] = field(default_factory=queue.Queue)
    #: Where this person's messages go while they are at the table.
    sink: Callable[[Message], None] | None = None
    joined: threading.Event = field(default_factory=threading.Event)
    #: When they left (``time.monotonic``), for the grace time.
    left_at: float = 0.0
    #: Everything told to this seat so far, for a person who comes back.
    told: list[str] = field(default_factory=list)
    #: The decision waiting for them, sent again when they come back.
    turn: Message | None = None
    #: The bot that took the seat over (``on_leave = "bot"``).
    stand_in: Bot | None = None


class Table:
    """One match at one table, from the lobby's settings to the database.

    Each seat whose entry is ``person`` (and the seat of whoever set the
    table up) is played by a person who joins through the table's link for
    that seat (:meth:`attach`); the match starts when every person is there.

    :param results: the folder the match's database is written into.
    :param pace: seconds each bot's move is shown before the next.
    """

    def __init__(
        self,
        registry: Registry,
        settings: TableSettings,
        *,
        results: Path,
        pace: float = 0.8,
    ) -> None:
        self.id = secrets.token_urlsafe(9)
        self.settings = settings
        self.results = results
        self.pace = pace
        self._registry = registry
        self._lock = threading.RLock()
        self._closed = threading.Event()
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
        names = [
            GUEST if s == PERSON_BOT else spec_name(s, registry) for s in self.specs
        ]
        names[settings.seat] = settings.name
        self.labels = seat_labels(names)
        self.teams = self.game.teams(n_seats)
        self.people = {
            seat: _Person(
                seat,
                Narrator(self.game, settings.seed, self.labels, seat=seat),
                Drawing(self.labels, self.teams),
            )
            for seat, spec in enumerate(self.specs)
            if spec == PERSON_BOT
        }
        self._started = False
        self._moved_by_person = False

    @property
    def invited(self) -> list[int]:
        """The seats of the people other than the one who set the table up."""
        return [s for s in self.people if s != self.settings.seat]

    # -- the browsers' side (any thread) -----------------------------------

    def attach(self, seat: int, sink: Callable[[Message], None]) -> None:
        """The person at ``seat`` sits down (again); ``sink`` takes their messages.

        :raises ConfigError: the seat is not a person's, or is taken.
        """
        with self._lock:
            person = self.people.get(seat)
            if person is None:
                raise ConfigError(
                    f"table: seat {seat} is not a person's; the people's seats "
                    f"are {', '.join(map(str, self.people))}"
                )
            if self._closed.is_set():
                raise ConfigError("table: the table was closed")
            if person.stand_in is not None:
                raise ConfigError(f"table: seat {seat} was taken over by a bot")
            if person.joined.is_set():
                raise ConfigError(f"table: seat {seat} is taken")
            person.sink = sink
            person.joined.set()
            if self._started:  # back at the table: draw it as it stands
                sink(self._opening(person, person.told))
                if person.turn is not None:
                    sink(person.turn)

    def move(self, seat: int, action: str) -> None:
        """The person at ``seat`` chose ``action`` (checked when asked)."""
        self.people[seat].moves.put(action)

    def detach(self, seat: int) -> None:
        """The person at ``seat`` left (``on_leave`` says what follows)."""
        with self._lock:
            person = self.people[seat]
            person.sink = None
            person.joined.clear()
            person.left_at = time.monotonic()
            # Whoever set the table up has no link to come back by: a table
            # they leave before its match began is closed, not kept waiting.
            abandoned = seat == self.settings.seat and not self._started
        person.moves.put(None)  # wakes the match if it waits for them
        if abandoned:
            self.close()

    def close(self) -> None:
        """The server stops: every person leaves, the match ends now."""
        self._closed.set()
        for person in self.people.values():
            person.joined.set()
            person.moves.put(None)

    # -- the match's side (its own thread) ---------------------------------

    def _send(self, person: _Person, message: Message) -> None:
        sink = person.sink
        if sink is not None:
            sink(message)

    def _opening(self, person: _Person, lines: list[str]) -> Message:
        seen = person.narrator.state.view(person.seat)
        return {
            **person.drawing.message("start", seen),
            "lines": list(lines),  # a copy: ``told`` grows as the match goes on
            "title": self.game.title,
            "seat": person.seat,
            "labels": self.labels,
            "teams": list(self.teams),
        }

    def _gone(self, person: _Person) -> str:
        return f"the person at seat {person.seat} left the table"

    def _while_away(self, person: _Person, view: View) -> str | None:
        """What happens at a decision of a person who is not at the table:
        None when they came back, else the stand-in bot's move."""
        if self._closed.is_set():
            raise BotFault(ForfeitReason.CRASH, "the table was closed")
        leave = self.settings.on_leave
        if leave == "forfeit":
            raise BotFault(ForfeitReason.CRASH, self._gone(person))
        if leave == "wait":
            person.joined.wait()
        else:
            remaining = self.settings.grace - (time.monotonic() - person.left_at)
            if not person.joined.wait(max(0.0, remaining)):
                with self._lock:
                    if not person.joined.is_set():
                        person.stand_in = make_bot(
                            self.game,
                            self._registry.bot_class(STAND_IN, self.game.name),
                            person.seat,
                            self.settings.seed,
                            {},
                        )
                if person.stand_in is not None:
                    return person.stand_in.act(view)
        if self._closed.is_set():
            raise BotFault(ForfeitReason.CRASH, "the table was closed")
        return None

    def ask(self, view: View) -> str:
        """The move at ``view`` of the person at its seat: refused moves are
        asked again; one who left is waited for, replaced or forfeited."""
        person = self.people[view.seat]
        if person.stand_in is not None:
            return person.stand_in.act(view)
        with self._lock:
            message = person.drawing.message("turn", view)
            data = message["view"]
            legal = list(view.legal_actions)
            person.turn = {**message, "reasons": refusals(data)}
            self._send(person, person.turn)
        while True:
            if not person.joined.is_set() or self._closed.is_set():
                stood_in = self._while_away(person, view)
                if stood_in is not None:
                    return stood_in
                continue
            answer = person.moves.get()
            if answer is None:
                continue  # someone left or came back: look again
            if answer in legal:
                person.turn = None
                self._moved_by_person = True
                return answer
            self._send(
                person,
                {"type": "refused", "action": answer, "reason": refusal(data, answer)},
            )

    def _on_action(self, action: str) -> None:
        with self._lock:
            for person in self.people.values():
                lines = person.narrator.tell(action)
                person.told.extend(lines)
                # The narrator's own replay of the match gives the seat's View
                # after each move: what the referee would hand a bot there.
                seen = person.narrator.state.view(person.seat)
                message = person.drawing.message("update", seen)
                self._send(person, {**message, "lines": lines})
        by_person, self._moved_by_person = self._moved_by_person, False
        if not by_person and self.pace > 0:
            self._closed.wait(self.pace)  # a closing table need not wait

    def run(self) -> Result | None:
        """Wait for every person, play the match, tell it, record it.

        :returns: the Result; None when the table closed before it began.
        """
        for person in self.people.values():
            person.joined.wait()
        if self._closed.is_set():
            return None
        seed = self.settings.seed
        specs = ["random" if s == PERSON_BOT else s for s in self.specs]
        bots: list[Bot] = match_bots(self.game, specs, seed, self._registry, None)
        for seat in self.people:
            bots[seat] = WebPerson(self.game, seat, seed, table=self)
        with self._lock:
            for person in self.people.values():
                person.told = person.narrator.start()
                self._send(person, self._opening(person, person.told))
            self._started = True
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
        narrator = next(iter(self.people.values())).narrator
        lines = [] if result.forfeit is None else [narrator.forfeit(result.forfeit)]
        over = {
            "type": "over",
            "lines": lines,
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "table": result_table(result, self.labels),
            "database": str(database),
            "match": job,
        }
        for person in self.people.values():
            self._send(person, over)
        return result
