"""A match told as it is played or replayed: what ``troef play`` and ``replay`` print.

The :class:`Narrator` keeps its own State of the match and advances it with
``State.narrate`` as each action comes, so ``troef play`` can print every move
the moment it is made (the referee calls it back), and ``troef replay`` tells a
stored log the same way. Seats are called by the labels of their bots.

A narrator tells one audience's account: the referee's (``seat=None``, every
line as the game said it) or one seat's (``heard_by``: an
:class:`~harness.contracts.game.Aside` that seat may not hear is told by its
public text, or not at all), so a person at the table or a seat's replay
learns only what that seat may know.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.contracts.game import Game, heard_by
from harness.contracts.result import Forfeit, Result

__all__ = ["Narrator", "match_over_line", "score_list", "seat_labels"]

_SEAT = re.compile(r"\bseat (\d+)\b")


def seat_labels(names: Sequence[str]) -> list[str]:
    """Bot names as seat labels: a name twice at the table gets its seat added."""
    return [
        name if names.count(name) == 1 else f"{name}#{seat}"
        for seat, name in enumerate(names)
    ]


def score_list(values: Sequence[int]) -> str:
    """Scores side by side: ``90-360``, or ``3, -1`` once one is negative.

    A dash reads as a score until a value has its own minus sign (``3--1``).
    """
    sep = "-" if all(v >= 0 for v in values) else ", "
    return sep.join(str(v) for v in values)


def match_over_line(result: Result, *, what: str = "scores", why: str = "") -> str:
    """The last line of every match: who won, with what, and every final score.

    ``match over: seat 1 wins with 360; final scores: seat 0 90, seat 1 360``;
    partners are told as their team (``team 1 wins with 310; ...: team 0 230,
    team 1 310``); a tie for first among everyone is ``a draw``. ``what`` names
    what the scores count (``lives``, ``chips``); ``why`` says how the winner
    won where his score does not (``the last one in``), and "with N" is left
    out when a loser has the winner's score.
    """
    teams = result.teams
    by_team = len(set(teams)) < len(teams)
    sides = sorted(set(teams)) if by_team else list(range(len(teams)))

    def first_seat(side: int) -> int:
        return teams.index(side) if by_team else side

    word = "team" if by_team else "seat"
    scores = ", ".join(
        f"{word} {side} {result.scores[first_seat(side)]}" for side in sides
    )
    winners = [side for side in sides if result.ranks[first_seat(side)] == 1]
    if len(winners) == len(sides) > 1:
        return f"match over: a draw; final {what}: {scores}"
    best = result.scores[first_seat(winners[0])]
    if len(winners) == 1:
        who = f"{word} {winners[0]} wins"
    else:
        names = ", ".join(str(side) for side in winners[:-1])
        who = f"{word}s {names} and {winners[-1]} win"
    # A loser with the winner's score: the game ranked them otherwise (who went
    # out last), so the score is not why he won.
    if all(result.scores[first_seat(s)] != best for s in sides if s not in winners):
        who += f" with {best}"
    if why:
        who += f", {why}"
    return f"match over: {who}; final {what}: {scores}"


class Narrator:
    """Tells one match move by move, from its seed, as a person would follow it.

    ``seat`` is the audience: None tells the referee's account, a seat tells
    what that seat may hear of it.
    """

    def __init__(
        self,
        game: Game,
        seed: int,
        labels: Sequence[str],
        *,
        show_hands: bool = False,
        seat: int | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.labels = list(labels)
        self.show_hands = show_hands
        self.seat = seat
        self.state = game.new_match(len(labels), seed)
        self._deal = -1

    def start(self) -> list[str]:
        """The opening lines: the game, the seed, who sits where; the first deal.

        The first deal is introduced by ``State.narrate_start`` as the game
        introduces every later one.
        """
        return self._start([self.seat])[self.seat]

    def tell(self, action: str) -> list[str]:
        """Apply ``action`` to the told match; the lines that say what happened."""
        return self._tell(action, [self.seat])[self.seat]

    def start_all(self) -> dict[int | None, list[str]]:
        """:meth:`start` for every audience: None (the referee) and each seat."""
        return self._start(self._audiences())

    def tell_all(self, action: str) -> dict[int | None, list[str]]:
        """:meth:`tell` for every audience: None (the referee) and each seat."""
        return self._tell(action, self._audiences())

    def _audiences(self) -> list[int | None]:
        return [None, *range(len(self.labels))]

    def _start(self, audiences: list[int | None]) -> dict[int | None, list[str]]:
        seats = ", ".join(
            f"{label} (seat {seat})" for seat, label in enumerate(self.labels)
        )
        lines = [f"{self.game.title}, seed {self.seed}, {len(self.labels)} seats"]
        lines.append(f"seats: {seats}")
        lines += self._new_deal()
        return self._accounts(audiences, lines, self.state.narrate_start(), [])

    def _tell(
        self, action: str, audiences: list[int | None]
    ) -> dict[int | None, list[str]]:
        told = self.state.narrate(action)
        after = [] if self.state.is_over() else self._new_deal()
        return self._accounts(audiences, [], told, after)

    def _accounts(
        self,
        audiences: list[int | None],
        before: list[str],
        told: list[str],
        after: list[str],
    ) -> dict[int | None, list[str]]:
        """Each of ``audiences``' lines (only those asked: a seat's account
        would be worked out for nothing when one is told)."""
        return {
            who: before + [self._named(line) for line in heard_by(told, who)] + after
            for who in audiences
        }

    def forfeit(self, forfeit: Forfeit) -> str:
        """The line that says who forfeited and why."""
        who = self.labels[forfeit.seat]
        return f"{who} forfeits ({forfeit.reason.value}): {forfeit.detail.strip()}"

    def _named(self, line: str) -> str:
        return _SEAT.sub(lambda m: self._label(int(m.group(1))), line)

    def _label(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"seat {seat}"

    def _new_deal(self) -> list[str]:
        """A header when a new deal has begun; with the hands when asked."""
        deal = self.state.deal
        if deal == self._deal:
            return []
        self._deal = deal
        lines = [f"-- deal {deal} --"]  # counted from 0, as the games narrate
        if self.show_hands:
            places = self.state.card_locations()
            for seat, label in enumerate(self.labels):
                cards = places.get(f"hand:{seat}", ())
                lines.append(f"  {label}: {' '.join(cards) if cards else '-'}")
        return lines
