"""A person at the table: ``troef play GAME --human SEAT`` reads their moves.

The person sees what the bot at that seat would see and nothing more: at each
decision their View is shown (the hand sorted by suit, the trick so far, the
melds and scores on the table, the rest of the View's small fields), then the
legal moves numbered. The move is typed as its number or as the move itself;
anything else is answered with the legal list. The narration of the other
seats' moves is redacted to the person's knowledge by :func:`redact`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TextIO

from harness.bot import Bot
from harness.game import Game, State
from harness.protocol import BotFault
from harness.result import ForfeitReason
from harness.view import View

__all__ = ["HumanBot", "describe_view", "redact", "visible_cards"]

#: The View fields shown first, in this order, with the person's words for them.
_FIRST = ("hand", "trick", "melds", "shown", "points", "roem", "scores", "totals")
#: Fields that repeat what the narration already told, or are too long to read.
_SKIP = frozenset({"seat", "legal_actions", "tricks", "history", "last_history"})
#: A field longer than this (as JSON) is left out of the table.
_LONGEST = 160
_SUITS = "CDHST"


def _suit_key(card: str) -> int:
    """Cards grouped by suit (the last letter), clubs to spades, trumps last."""
    suit = _SUITS.find(card[-1:])
    return len(_SUITS) if suit < 0 else suit


def sorted_hand(cards: Sequence[str]) -> str:
    """A hand grouped by suit, keeping the game's own order inside a suit."""
    groups: dict[int, list[str]] = {}
    for card in sorted(cards, key=_suit_key):
        groups.setdefault(_suit_key(card), []).append(card)
    return "  ".join(" ".join(group) for group in groups.values()) or "-"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


def describe_view(view: View, labels: Sequence[str]) -> list[str]:
    """The lines a person reads before a decision: hand, trick, table, moves."""
    data = {f.name: getattr(view, f.name) for f in fields(view)}
    lines: list[str] = []
    for key in (*_FIRST, *sorted(data)):
        if key not in data or key in _SKIP:
            continue
        value = data.pop(key)
        if key == "hand" and isinstance(value, tuple):
            lines.append(f"  your hand: {sorted_hand(value)}")
        elif key == "trick" and isinstance(value, tuple):
            played = [_played(p, labels) for p in value]
            lines.append(f"  trick so far: {', '.join(played) if played else '-'}")
        elif value not in ((), None, "") and len(_compact(value)) <= _LONGEST:
            lines.append(f"  {key.replace('_', ' ')}: {_compact(value)}")
    lines.append("  legal moves:")
    lines += [f"    {i}) {a}" for i, a in enumerate(view.legal_actions, 1)]
    return lines


def _played(entry: Any, labels: Sequence[str]) -> str:
    """A trick entry (seat, card) as 'label card'; anything else as it is."""
    if (
        isinstance(entry, tuple)
        and len(entry) == 2
        and isinstance(entry[0], int)
        and 0 <= entry[0] < len(labels)
    ):
        return f"{labels[entry[0]]} {entry[1]}"
    return _compact(entry)


class HumanBot(Bot):
    """Reads a person's moves from a terminal; never registered as a plugin bot."""

    name = "human"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        *,
        labels: Sequence[str],
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(game, seat, seed)
        self.labels = list(labels)
        self._read = read
        self._out = out

    def _say(self, line: str = "") -> None:
        print(line, file=self._out, flush=True)

    def act(self, view: View) -> str:
        legal = view.legal_actions
        self._say()
        self._say(f"== your turn ({self.labels[self.seat]}, seat {self.seat}) ==")
        for line in describe_view(view, self.labels):
            self._say(line)
        while True:
            try:
                answer = self._read(f"your move (1-{len(legal)} or the move): ")
            except EOFError:
                raise BotFault(
                    ForfeitReason.CRASH, f"the person at seat {self.seat} left"
                ) from None
            answer = answer.strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            if answer in legal:
                return answer
            self._say(f"{answer!r} is not a legal move; the legal moves are:")
            self._say("  " + "  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))


_TOKEN = re.compile(r"[A-Za-z0-9]+")


def visible_cards(state: State, seat: int) -> Counter[str]:
    """The cards ``seat`` can see now, counted (double decks hold two of some)."""
    hidden = state.hidden_from(seat)
    seen: Counter[str] = Counter()
    for place, cards in state.card_locations().items():
        if place not in hidden:
            seen.update(cards)
    return seen


def redact(
    lines: Sequence[str],
    before: Mapping[str, int],
    after: Mapping[str, int],
    deck: frozenset[str],
) -> list[str]:
    """Narration lines with the cards ``seat`` did not see replaced by 'a card'.

    ``before`` and ``after`` count the cards the seat could see before and
    after the action. A card named in a line is shown when a copy came into or
    went out of the seat's sight with this action (played to the trick, taken
    from the open discard pile, drawn into its own hand, turned up), or when it
    stayed in sight; it is hidden when it moved only between places the seat
    cannot see (the stock to another hand).
    """

    def word(match: re.Match[str]) -> str:
        card = match.group(0)
        if card not in deck or before.get(card, 0) != after.get(card, 0):
            return card
        return card if after.get(card, 0) > 0 else "a card"

    return [_TOKEN.sub(word, line) for line in lines]
