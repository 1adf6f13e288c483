"""A person at the table: ``troef play GAME --human SEAT`` reads their moves.

The person sees what the bot at that seat would see and nothing more: at each
decision their View is told in words (:func:`describe_view`): the hand sorted
by suit, the trump by name, the bids, the partners, the trick so far, the
points won so far in this deal and the match score per side, then the legal
moves numbered. Every line comes from the View itself, the seat labels and
``Game.teams`` (both public), so the person learns nothing a bot at that seat
would not.

Rulings (the issue left them open; cutechess-cli's and OpenSpiel's human
players behave alike):

- View fields are told by name, the same way in every game: a field that
  names a seat (``dealer``, ``player``) names it in words, a list with one
  entry per team or per seat (``scores``, ``lives``) is told per side ("us 34,
  them 12" when there are partners, else per seat), the trick records of the
  deal are summed per side as "score this deal" (a game with a ``points``
  field, the deal's points with melds, shows that instead). A field this
  module has no words for is still labelled in words (``hand_sizes`` is
  "hand sizes") with its value without JSON quoting; a game that wants its
  own lines adds an entry to :data:`FIELDS`.
- A move may be typed in any case (``ah`` is ``AH``) unless two legal moves
  differ only by case; then only the exact spelling is taken.
- A decision with one legal move is not asked: the move is played and the
  person is told ("only legal move: AH").

The narration the person reads is the seat's account
(``Narrator(..., seat=SEAT)``, :func:`~harness.contracts.game.heard_by`): a
line the game marks as an :class:`~harness.contracts.game.Aside` for other
seats (a card drawn from the stock, a discard to the skart) is told by its
public text, or not at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TextIO

from harness.contracts.bot import Bot
from harness.contracts.errors import BotFault
from harness.contracts.game import Game, State
from harness.contracts.result import ForfeitReason
from harness.contracts.view import View

__all__ = [
    "FIELDS",
    "HumanBot",
    "Table",
    "describe_view",
    "legal_lines",
    "match_move",
    "visible_cards",
]

#: Fields the person does not read: the seat is theirs, the moves are listed
#: below the table, and the histories repeat what the narration already told.
_SKIP = frozenset(
    {"seat", "legal_actions", "to_act", "teams", "history", "last_history"}
)
#: A field told in more characters than this is left out: it cannot be read
#: at a glance, and the narration told it as it happened.
_LONGEST = 160
_SUITS = "CDHST"
#: The suits by letter, as a card player says them (docs/CARDS.md).
SUIT_NAMES = {"C": "clubs ♣", "D": "diamonds ♦", "H": "hearts ♥", "S": "spades ♠"}


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


def _words(value: Any) -> str:
    """A View value in words: no JSON quotes or brackets at the top level."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "-"
        parts = [
            f"({_words(v)})" if isinstance(v, (list, tuple)) and v else _words(v)
            for v in value
        ]
        return ", ".join(parts)
    return str(value)


def _entry_words(value: Any) -> str:
    """One side's entry: a list of cards reads as a hand, ``JD QS``."""
    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(v, str) for v in value)
    ):
        return " ".join(value)
    return _words(value)


@dataclass(frozen=True)
class Table:
    """Who sits where, as the person at :attr:`seat` knows it (all public)."""

    #: The person's seat.
    seat: int
    #: The label of each seat, as the narration names it.
    labels: tuple[str, ...]
    #: ``Game.teams(n)``: the team of each seat.
    teams: tuple[int, ...]

    @property
    def partners(self) -> tuple[int, ...]:
        """The other seats of the person's team."""
        mine = self.teams[self.seat]
        return tuple(
            s for s, t in enumerate(self.teams) if t == mine and s != self.seat
        )

    def who(self, seat: Any) -> str:
        """A seat in words: "you", or "seat 2 (random#2)"."""
        if seat == self.seat:
            return "you"
        if isinstance(seat, int) and 0 <= seat < len(self.labels):
            return f"seat {seat} ({self.labels[seat]})"
        return f"seat {_words(seat)}"

    def name(self, seat: int) -> str:
        """A seat in a list: "you", or its label ("random#2")."""
        if seat == self.seat:
            return "you"
        if 0 <= seat < len(self.labels):
            return self.labels[seat]
        return f"seat {seat}"

    def side(self, team: int) -> str:
        """A team in words from the person's side: "us", "them", "team 2"."""
        if team == self.teams[self.seat]:
            return "us"
        return "them" if max(self.teams) == 1 else f"team {team}"

    def _us_first(self, per_team: Sequence[Any]) -> str:
        mine = self.teams[self.seat]
        order = [mine, *(t for t in range(len(per_team)) if t != mine)]
        told = (f"{self.side(t)} {_entry_words(per_team[t])}" for t in order)
        return ", ".join(told)

    def per_side(self, values: Any) -> str | None:
        """A list with one entry per team ("us 34, them 12") or per seat
        ("you 0, random#1 80").

        None when ``values`` is neither: the caller falls back to plain words.
        """
        if not isinstance(values, (list, tuple)):
            return None
        if self.partners and len(values) == max(self.teams) + 1:
            return self._us_first(values)
        if len(values) == len(self.labels):
            return ", ".join(
                f"{self.name(s)} {_entry_words(v)}" for s, v in enumerate(values)
            )
        return None

    def sum_per_side(self, per_seat: Sequence[int]) -> str:
        """Seat totals told per team when there are partners, else per seat."""
        if not self.partners:
            return ", ".join(f"{self.name(s)} {v}" for s, v in enumerate(per_seat))
        totals = [0] * (max(self.teams) + 1)
        for s, v in enumerate(per_seat):
            totals[self.teams[s]] += v
        return self._us_first(totals)


#: One field's line: (field value, the whole View as a dict, the table) to the
#: text after the label, or None to leave the field out.
Render = Callable[[Any, Mapping[str, Any], Table], "str | None"]


def _seat(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    return None if value is None else table.who(value)


def _per_side(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    if isinstance(value, (list, tuple)) and all(v in ((), []) for v in value):
        return None  # nothing for anyone: nothing to say
    return table.per_side(value) or _words(value)


def _trump(value: Any, _: Mapping[str, Any], __: Table) -> str | None:
    return None if value is None else SUIT_NAMES.get(str(value), _words(value))


def _bids(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    said = []
    for entry in value:
        if isinstance(entry, (list, tuple)) and len(entry) == 2:
            seat, bid = entry
            bid = "passed" if bid == "pass" else str(bid).replace(":", " ")
            who = table.name(seat) if isinstance(seat, int) else _words(seat)
            said.append(f"{who} {bid}")
        else:
            said.append(_words(entry))
    return ", ".join(said)


def _trick(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    played = []
    for entry in value:
        if (
            isinstance(entry, (list, tuple))
            and len(entry) == 2
            and isinstance(entry[0], int)
            and 0 <= entry[0] < len(table.labels)
        ):
            played.append(f"{table.name(entry[0])} {entry[1]}")
        else:
            played.append(_words(entry))
    return ", ".join(played) if played else "-"


def _is_record(entry: Any) -> bool:
    """A finished trick as games/tricks.py writes it: (leader, cards, winner,
    points, roem)."""
    return (
        isinstance(entry, (list, tuple))
        and len(entry) == 5
        and all(isinstance(entry[i], int) for i in (0, 2, 3, 4))
    )


def _deal_points(value: Any, view: Mapping[str, Any], table: Table) -> str | None:
    # A game with a points field (the bezique family: cards and melds) says
    # its deal score itself; the trick records would miss the melds.
    if "points" in view or not value or not all(_is_record(r) for r in value):
        return None
    won = [0] * len(table.labels)
    for _, _, winner, points, roem in value:
        if 0 <= winner < len(won):
            won[winner] += points + roem
    # No points on the cards (Triomphe Forcée counts tricks): "Tricks won"
    # says it all, and a score of nothing would mislead.
    return table.sum_per_side(won) if any(won) else None


def _tricks_won(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    if not value or not all(_is_record(r) for r in value):
        return None
    won = [0] * len(table.labels)
    for record in value:
        if 0 <= record[2] < len(won):
            won[record[2]] += 1
    return table.sum_per_side(won)


def _history_of_deals(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    if not value:
        return None
    last = table.per_side(value[-1]) or _words(value[-1])
    return f"{len(value)}, the last: {last}"


def _melds(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    told = []
    for entry in value:
        if isinstance(entry, (list, tuple)) and len(entry) == 4:
            seat, kind, cards, points = entry
            shown = (
                " ".join(map(str, cards)) if isinstance(cards, (list, tuple)) else cards
            )
            who = table.name(seat) if isinstance(seat, int) else _words(seat)
            told.append(f"{who} {kind} {shown} ({points})")
        else:
            told.append(_words(entry))
    return "; ".join(told)


def _shown(value: Any, _: Mapping[str, Any], table: Table) -> str | None:
    """Cards laid on the table per seat, as (card, [melds it is in]) pairs."""
    if not isinstance(value, (list, tuple)) or not any(value):
        return None
    per_seat = [
        " ".join(str(c[0]) if isinstance(c, (list, tuple)) else str(c) for c in cards)
        or "-"
        for cards in value
    ]
    return table.per_side(per_seat) or _words(value)


def _cards(value: Any, _: Mapping[str, Any], __: Table) -> str | None:
    return f"{value} cards"


#: The words for View fields, in the order they are told: field name to
#: (label, render). Fields not named here follow in name order, labelled by
#: their name in words. ``tricks`` is told twice, as points and as tricks.
FIELDS: dict[str, tuple[str, Render]] = {
    "hand": ("Your hand", lambda v, _, __: sorted_hand(v)),
    "trump": ("Trump", _trump),
    "dealer": ("Dealer", _seat),
    "bids": ("Bids", _bids),
    "player": ("Declarer", _seat),
    "trick": ("Trick so far", _trick),
    "tricks": ("Score this deal", _deal_points),
    "points": ("Score this deal", _per_side),
    "roem": ("Roem this deal", _per_side),
    "melds": ("Melds", _melds),
    "shown": ("On the table", _shown),
    "known": ("Cards known", _per_side),
    "won": ("Cards won", _per_side),
    "won_melds": ("Melds won", _per_side),
    "scores": ("Match", _per_side),
    "totals": ("Match", _per_side),
    "target": ("Target", lambda v, _, __: _words(v)),
    "lives": ("Lives", _per_side),
    "hand_sizes": ("Cards in hand", _per_side),
    "stock": ("Stock", _cards),
    "stock_size": ("Stock", _cards),
    "deal_scores": ("Deals so far", _history_of_deals),
    "hand_scores": ("Deals so far", _history_of_deals),
    "deal_points": ("Deals so far", _history_of_deals),
}


def describe_view(
    view: View, labels: Sequence[str], *, teams: Sequence[int] | None = None
) -> list[str]:
    """The lines a person reads before a decision: hand, table, scores, moves.

    :param labels: each seat's label, as the narration names it.
    :param teams: ``Game.teams(len(labels))``; None: every seat for itself.
    """
    table = Table(
        view.seat,
        tuple(labels),
        tuple(teams) if teams is not None else tuple(range(len(labels))),
    )
    data = {f.name: getattr(view, f.name) for f in fields(view)}
    lines: list[str] = []
    told: set[str] = set()
    for key in (*FIELDS, *sorted(data)):
        if key not in data or key in _SKIP or key in told:
            continue
        told.add(key)
        value = data[key]
        label, render = FIELDS.get(key, (key.replace("_", " ").capitalize(), None))
        if value in ((), None, "") and key != "trick":  # an empty trick: a lead
            text = None
        else:
            text = _words(value) if render is None else render(value, data, table)
        if text is not None and len(text) <= _LONGEST:
            lines.append(f"  {label}: {text}")
        if key == "dealer" and table.partners:
            word = "partner" if len(table.partners) == 1 else "partners"
            names = ", ".join(table.who(s) for s in table.partners)
            lines.append(f"  Your {word}: {names}")
        if key == "tricks" and (won := _tricks_won(value, data, table)):
            lines.append(f"  Tricks won: {won}")
    return lines


def legal_lines(legal: Sequence[str]) -> list[str]:
    """The legal moves, numbered from 1."""
    return ["  legal moves:", *(f"    {i}) {a}" for i, a in enumerate(legal, 1))]


def match_move(answer: str, legal: Sequence[str]) -> str | None:
    """The legal move ``answer`` names: its number, the move, or the move in
    another case when no other legal move differs from it only by case."""
    answer = answer.strip()
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    if answer in legal:
        return answer
    same = [a for a in legal if a.casefold() == answer.casefold()]
    return same[0] if len(same) == 1 else None


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
        teams = self.game.teams(len(self.labels))
        for line in describe_view(view, self.labels, teams=teams):
            self._say(line)
        if len(legal) == 1:
            # Nothing to decide: asking would only make the person type it.
            self._say(f"  only legal move: {legal[0]}")
            return legal[0]
        for line in legal_lines(legal):
            self._say(line)
        while True:
            try:
                answer = self._read(f"your move (1-{len(legal)} or the move): ")
            except EOFError:
                raise BotFault(
                    ForfeitReason.CRASH, f"the person at seat {self.seat} left"
                ) from None
            move = match_move(answer, legal)
            if move is not None:
                return move
            answer = answer.strip()
            same = [a for a in legal if a.casefold() == answer.casefold()]
            if len(same) > 1:
                self._say(
                    f"{answer!r} could be {' or '.join(same)}, which differ only "
                    "by case; type the move exactly, or its number:"
                )
            else:
                self._say(f"{answer!r} is not a legal move; the legal moves are:")
            self._say("  " + "  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))


def visible_cards(state: State, seat: int) -> Counter[str]:
    """The cards ``seat`` can see now, counted (double decks hold two of some)."""
    hidden = state.hidden_from(seat)
    seen: Counter[str] = Counter()
    for place, cards in state.card_locations().items():
        if place not in hidden:
            seen.update(cards)
    return seen
