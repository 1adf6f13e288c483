"""The referee: plays one match, and replays a recorded one.

The boundary with a bot is deliberately narrow: a View goes in, an action
string comes out. Anything else a bot does (raising, returning a non-string,
returning an action not in ``view.legal_actions``) forfeits the match for its
seat's team; the Result records who and why.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from harness.contracts.bot import Bot
from harness.contracts.errors import BotFault, GameFault, OptionError, TroefError
from harness.contracts.game import Game, State
from harness.contracts.result import Forfeit, ForfeitReason, Result, competition_ranks
from harness.contracts.seeding import bot_seed
from harness.contracts.teams import team_layout
from harness.match.clock import harness_clock

if TYPE_CHECKING:
    from harness.contracts.view import View

__all__ = [
    "Clock",
    "TimeControl",
    "forfeit_result",
    "game_fault",
    "make_bot",
    "make_bots",
    "place_fault",
    "play_match",
    "replay",
]

_DETAIL_LIMIT = 2000


#: The longest time limit troef accepts (11.6 days): the system's waits
#: (select, poll) take at most about 2.1e6 s.
MAX_SECONDS = 1_000_000.0


@dataclass(frozen=True)
class TimeControl:
    """How long a bot may think in one match (cutechess-cli's ``st=`` and ``tc=``).

    Any part may be ``None``. With ``match`` set, the bot has a budget for all
    its decisions in the match, ``increment`` seconds added after each decision
    (Fischer); with ``move`` set, no single decision may take longer. A
    decision may use ``min(move, budget left)``.
    """

    #: Most seconds for any one decision; ``None``: no per-move limit.
    move: float | None = None
    #: Seconds for all of the bot's decisions in the match; ``None``: no budget.
    match: float | None = None
    #: Seconds added to the budget after each decision; ``None``: none.
    increment: float | None = None

    def __post_init__(self) -> None:
        for name in ("move", "match", "increment"):
            value = getattr(self, name)
            if value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
                or (value == 0 and name != "increment")
                or value > MAX_SECONDS
            ):
                raise OptionError(
                    f"time control {name!r} is {value!r}: it takes a positive "
                    f"number of seconds up to {MAX_SECONDS:g}"
                    f"{' or 0' if name == 'increment' else ''}, or None"
                )


class Clock:
    """One seat's clock in one match, under its :class:`TimeControl`."""

    __slots__ = ("control", "moves", "remaining")

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        #: Seconds left of the match budget (infinite without one).
        self.remaining = math.inf if control.match is None else float(control.match)
        self.moves = 0

    def limit(self) -> float | None:
        """Seconds the next decision may take; ``None``: no limit."""
        move = self.control.move
        if move is None:
            return None if self.remaining == math.inf else self.remaining
        return min(move, self.remaining)

    def charge(self, elapsed: float) -> str | None:
        """Book a decision of ``elapsed`` seconds; a detail if it overstepped."""
        control = self.control
        self.moves += 1
        if control.move is not None and elapsed > control.move:
            return (
                f"decision {self.moves} took {elapsed:.3f} s; "
                f"the limit per move is {control.move:g} s"
            )
        if elapsed > self.remaining:
            per_move = (
                f" + {control.increment:g} s per move" if control.increment else ""
            )
            return (
                f"decision {self.moves} took {elapsed:.3f} s "
                f"with {self.remaining:.3f} s left of the match budget "
                f"({control.match:g} s{per_move})"
            )
        self.remaining -= elapsed
        if control.increment:
            self.remaining += control.increment
        return None


#: A driver's answer to :func:`referee_steps` for one decision, before the
#: seconds taken: the action as the bot returned it, or a fault (reason, detail).
Outcome: TypeAlias = tuple[object, tuple[ForfeitReason, str] | None]
#: ``play_match``'s ``time_controls``: one for all seats, one per seat, or none.
TimeControls: TypeAlias = "TimeControl | Sequence[TimeControl | None] | None"


def make_clocks(time_controls: TimeControls, n_seats: int) -> list[Clock | None]:
    """A fresh :class:`Clock` (or ``None``) per seat from ``play_match``'s argument."""
    if time_controls is None:
        return [None] * n_seats
    if isinstance(time_controls, TimeControl):
        return [Clock(time_controls) for _ in range(n_seats)]
    controls = list(time_controls)
    if len(controls) != n_seats:
        raise OptionError(
            f"time_controls has {len(controls)} entries for {n_seats} seats; "
            "give one TimeControl, or one (or None) per seat"
        )
    for control in controls:
        if control is not None and not isinstance(control, TimeControl):
            raise OptionError(
                f"time_controls entry {control!r} is not a TimeControl or None"
            )
    return [None if c is None else Clock(c) for c in controls]


def make_bots(
    game: Game,
    bot_classes: Sequence[type[Bot]],
    seed: int,
    options: Sequence[Mapping[str, Any] | None] | None = None,
) -> list[Bot]:
    """Build one bot per seat, each with its own seed derived from ``seed``."""
    game.check_seats(len(bot_classes))
    opts = options or [None] * len(bot_classes)
    return [
        make_bot(game, cls, seat, seed, opts[seat])
        for seat, cls in enumerate(bot_classes)
    ]


def make_bot(
    game: Game,
    cls: type[Bot],
    seat: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Bot:
    """The bot of ``seat`` in the match of ``seed``; its fault at start is named."""
    try:
        return cls(game, seat, bot_seed(seed, seat), options)
    except TroefError:
        raise
    except Exception as exc:  # the bot's own fault, reported as such
        raise TroefError(
            f"bot {getattr(cls, 'name', cls.__name__)!r} (seat {seat}) failed "
            f"to start: {type(exc).__name__}: {exc}"
        ) from exc


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    *,
    keep_log: bool = False,
    time_controls: TimeControls = None,
    on_action: Callable[[str], None] | None = None,
) -> Result:
    """Play one whole match of ``game`` with ``bots`` seated in order.

    :param seed: the match seed; every deal is shuffled from it alone.
    :param keep_log: put the list of actions into ``Result.log``.
    :param time_controls: one :class:`TimeControl` for every seat, or one per
        seat (``None`` entries: no limit for that seat). Each ``act`` is
        measured on :func:`~harness.match.clock.harness_clock` (a stop of the
        harness left out); a bot that oversteps forfeits with
        ``TIMEOUT``.
    :param on_action: called with each action once it is applied (``troef
        play`` tells the match as it happens).

    Every bot hears the result through ``match_over`` before this returns.
    """
    clocks = make_clocks(time_controls, len(bots))
    try:
        result = prepare_bots(game, bots, seed, keep_log)
        if result is None:
            referee = referee_steps(
                game, len(bots), seed, keep_log, clocks, on_action=on_action
            )
            try:
                seat, view, limit = next(referee)
                while True:
                    bot = bots[seat]
                    start = harness_clock()
                    try:
                        outcome: Outcome = (bot.act_within(view, limit), None)
                    except BotFault as fault:
                        outcome = (None, (fault.reason, fault.detail))
                    except Exception:
                        outcome = (None, (ForfeitReason.EXCEPTION, _tail()))
                    seat, view, limit = referee.send(
                        (*outcome, harness_clock() - start)
                    )
            except StopIteration as stop:
                result = stop.value
    except BaseException:
        abandon_bots(bots)
        raise
    tell_match_over(bots, result)
    return result


def referee_steps(
    game: Game,
    n_seats: int,
    seed: int,
    keep_log: bool,
    clocks: Sequence[Clock | None],
    *,
    on_action: Callable[[str], None] | None = None,
) -> Generator[tuple[int, View, float | None], tuple[object, Any, float], Result]:
    """The referee as a generator, so that one loop can drive many matches.

    It yields ``(seat, view, seconds allowed or None)`` for each decision and
    expects ``(action, fault or None, seconds taken)`` back; it returns the
    Result. :func:`play_match` drives one synchronously;
    :func:`harness.isolation.multiplex.play_matches_interleaved` drives several at once.
    The Result carries each seat's thinking time as the driver measured it.
    """
    thinking = [[0, 0.0, 0.0] for _ in range(n_seats)]
    log: list[str] = []
    try:
        state = game.new_match(n_seats, seed)
        while not state.is_over():
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            clock = clocks[seat]
            action, fault, elapsed = yield (
                seat,
                view,
                (None if clock is None else clock.limit()),
            )
            spent = thinking[seat]
            spent[0] += 1
            spent[1] += elapsed
            spent[2] = max(spent[2], elapsed)
            if fault is not None:
                forfeit = _forfeit(state, seat, fault[0], fault[1], log, keep_log)
                return _measured(forfeit, thinking)
            if clock is not None:
                late = clock.charge(elapsed)
                if late is not None:
                    forfeit = _forfeit(
                        state, seat, ForfeitReason.TIMEOUT, late, log, keep_log
                    )
                    return _measured(forfeit, thinking)
            if type(action) is not str:
                forfeit = _forfeit(
                    state,
                    seat,
                    ForfeitReason.NOT_A_STRING,
                    f"act() returned {_short(action)}, not a string",
                    log,
                    keep_log,
                )
                return _measured(forfeit, thinking)
            if action not in view.legal_actions:
                forfeit = _forfeit(
                    state,
                    seat,
                    ForfeitReason.ILLEGAL_ACTION,
                    f"act() returned {action[:80]!r}, not one of "
                    f"{', '.join(view.legal_actions)}",
                    log,
                    keep_log,
                )
                return _measured(forfeit, thinking)
            state.apply(action)
            log.append(action)
            if on_action is not None:
                on_action(action)
            if len(log) >= game.action_cap and not state.is_over():
                return _measured(_capped(game, n_seats, log, keep_log), thinking)
        result = state.result()
        return _measured(
            replace(result, log=tuple(log)) if keep_log else result, thinking
        )
    except Exception as exc:
        # Whatever leaves this module was raised by the game: the match is void.
        broken = game_fault(game, n_seats, exc, log, keep_log)
        if broken is None:
            raise  # the referee's own bug, not the game's
        broken.result = _measured(broken.result, thinking)
        raise broken from exc


def _measured(result: Result, thinking: list[list[Any]]) -> Result:
    """``result`` with each seat's (decisions, total seconds, longest decision)."""
    spent = tuple((int(n), float(total), float(most)) for n, total, most in thinking)
    return replace(result, thinking=spent)


def prepare_bots(
    game: Game, bots: Sequence[Bot], seed: int, keep_log: bool
) -> Result | None:
    """Call every bot's ``prepare``; the forfeit Result of the first that fails.

    ``None`` when every bot is ready.
    """
    n_seats = len(bots)
    for seat, bot in enumerate(bots):
        try:
            bot.prepare()
        except BotFault as fault:
            return forfeit_before_start(
                game, n_seats, seed, seat, fault.reason, fault.detail, keep_log
            )
        except Exception:
            return forfeit_before_start(
                game, len(bots), seed, seat, ForfeitReason.EXCEPTION, _tail(), keep_log
            )
    return None


def forfeit_before_start(
    game: Game,
    n_seats: int,
    seed: int,
    seat: int,
    reason: ForfeitReason,
    detail: str,
    keep_log: bool,
) -> Result:
    """The Result of a match that ``seat`` forfeits before the first decision.

    :raises GameFault: the game raised making the match or its result.
    """
    try:
        state = game.new_match(n_seats, seed)
        return _forfeit(state, seat, reason, detail, [], keep_log)
    except Exception as exc:
        fault = game_fault(game, n_seats, exc, [], keep_log)
        if fault is None:
            raise
        raise fault from exc


def game_fault(
    game: Game,
    n_seats: int,
    exc: Exception,
    log: Sequence[str],
    keep_log: bool,
) -> GameFault | None:
    """The :class:`GameFault` of ``exc``, raised by the game; ``None`` when the
    referee raised it itself (its own bug, not the game's).

    The game is to blame when the traceback leaves this module: the first
    frame outside it is the call the referee made (``ToyState.result``), named
    with its file and line.

    Ruling (issue 29, item 2): the match is void, the fault of no bot: every
    seat scores 0 and ranks equal, no deal points, the actions so far as the
    log when kept, and ``Result.void`` says what happened; no standing,
    rating or test counts it.
    """
    call = _culprit(exc)
    if call is None:
        return None
    name = getattr(game, "name", type(game).__name__)
    text = (
        f"game {name!r} raised in {call} after {len(log)} actions: "
        f"{type(exc).__name__}: {exc}"
    )
    tail = "".join(traceback.format_exception(exc, limit=-8))
    try:
        teams = team_layout(game, n_seats)
    except Exception:  # the game's teams() may be what failed
        teams = tuple(range(n_seats))
    result = Result(
        scores=(0,) * n_seats,
        ranks=(1,) * n_seats,
        teams=teams,
        deal_points=(),
        log=tuple(log) if keep_log else None,
        void=f"{_FAULT}{text}\n{tail}",
    )
    return GameFault(_FAULT + text, result)


def place_fault(text: str, where: str) -> str:
    """A game fault's ``text`` (``game fault: ...``) saying ``where`` it was
    (``in match 3 (id), plugin 'p'``), for a caller that knows more than the
    referee."""
    if not text.startswith(_FAULT):
        return text
    return f"game fault {where}: {text[len(_FAULT) :]}"


_FAULT = "game fault: "


def _culprit(exc: BaseException) -> str | None:
    """The first call out of this module in ``exc``'s traceback, and the frame
    that raised when it is another one; None: it never left this module."""
    tb = exc.__traceback__
    first = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if first is None and code.co_filename != __file__:
            first = _frame(code, tb.tb_lineno)
            last = first
        elif first is not None:
            last = _frame(code, tb.tb_lineno)
        tb = tb.tb_next
    if first is None:
        return None
    return first if last == first else f"{first}, at {last}"


def _frame(code: Any, line: int) -> str:
    return f"{code.co_qualname} ({Path(code.co_filename).name}:{line})"


def tell_match_over(bots: Sequence[Bot], result: Result) -> None:
    """Call every bot's ``match_over``; what they raise cannot change the result."""
    for bot in bots:
        try:
            bot.match_over(result)
        except Exception:  # recorded nowhere on purpose: the match is decided
            continue


def abandon_bots(bots: Sequence[Bot]) -> None:
    """Stop the bots of a match that ended by an error of the harness or the game."""
    for bot in bots:
        abandon = getattr(bot, "abandon", None)
        if abandon is not None:
            abandon()


def replay(
    game: Game,
    n_seats: int,
    seed: int,
    log: Sequence[str],
    *,
    forfeit: Forfeit | None = None,
) -> Result:
    """Replay ``log`` from ``seed`` and return the Result it leads to.

    :param forfeit: the forfeit recorded for the match, which ends it after
        the last logged action.
    :raises TroefError: an action of the log is not legal where it stands.
    """
    state = game.new_match(n_seats, seed)
    for index, action in enumerate(log):
        if state.is_over():
            raise TroefError(f"log action {index} ({action!r}) comes after the end")
        state.apply(action)
    if forfeit is not None:
        return forfeit_result(state, forfeit, tuple(log))
    if not state.is_over():
        raise TroefError(f"log of {len(log)} actions ends before the match does")
    return replace(state.result(), log=tuple(log))


def forfeit_result(
    state: State, forfeit: Forfeit, log: tuple[str, ...] | None
) -> Result:
    """The Result of a match that ``forfeit`` ended in ``state``.

    Ruling: scores and deal points stand as they were when the match ended;
    the forfeiting team ranks below every other team, which keep their order
    among themselves from the game's own Result so far (its ranks, so lives,
    chips or fewest points rank as the game ranks them, not by raw score).
    Utilities are the default ones of these final ranks (the forfeiting team
    lowest), whatever utilities the game gives: the game's own measure of an
    unfinished match (chips of a pot not yet won) is not a result.
    """
    partial = state.result()
    teams = team_layout(state.game, state.n_seats)
    losing_team = teams[forfeit.seat]
    keys = [
        float("-inf") if teams[s] == losing_team else -partial.ranks[s]
        for s in range(state.n_seats)
    ]
    return Result(
        scores=partial.scores,
        ranks=competition_ranks(keys, teams),
        teams=teams,
        deal_points=partial.deal_points,
        forfeit=forfeit,
        log=log,
    )


def _forfeit(
    state: State,
    seat: int,
    reason: ForfeitReason,
    detail: str,
    log: list[str],
    keep_log: bool,
) -> Result:
    forfeit = Forfeit(seat, reason, detail[-_DETAIL_LIMIT:])
    return forfeit_result(state, forfeit, tuple(log) if keep_log else None)


def _capped(game: Game, n_seats: int, log: list[str], keep_log: bool) -> Result:
    """A match stopped at ``game.action_cap``: a draw that says so."""
    cap = (
        f"{game.name}'s max_actions"
        if game.action_cap == game.max_actions
        else f"max_actions = {game.action_cap}, lowered for this run"
    )
    return Result(
        scores=(0,) * n_seats,
        ranks=(1,) * n_seats,
        teams=game.teams(n_seats),
        deal_points=(),
        log=tuple(log) if keep_log else None,
        ended=(
            f"no end after {len(log)} actions ({cap}): "
            "stopped by the referee and counted as a draw"
        ),
    )


def _tail() -> str:
    return traceback.format_exc(limit=-8)


def _short(value: object) -> str:
    try:
        text = repr(value)
    except Exception:  # a bot's object: its fault is the forfeit, not a crash
        text = f"<a {type(value).__name__} whose repr() raised>"
    return text if len(text) <= 80 else text[:77] + "..."
