"""A game's reference for bot authors: its view, moves, options and cards.

``troef games GAME --view`` prints it and ``docs/games/<game>.md`` holds it
for every built-in game (``tests/game_pages.py`` writes them, and a test
fails when one is stale). Everything on the page comes from the code: the
View's fields and the ``#:`` comment above each (the docstring convention of
Sphinx's autodoc), the game's :attr:`~harness.contracts.game.Game.action_kinds`,
its options, and example values from a seeded random match.

Ruling: the example values come from the first deal of a match at the game's
fewest seats, under its default options, played by uniform random choices from
seed 0; of the views of the seat to act, the page shows the first that fills
the most fields. An option choice whose matches make views of another class
(Klaverjassen's variants) gets a section of its own for the fields it adds.
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import random
import textwrap
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.view import View

if TYPE_CHECKING:
    from harness.contracts.game import Game, State

__all__ = ["FieldDoc", "field_docs", "game_reference", "undocumented_fields"]

#: Actions of the example match at most (its first deal is usually shorter).
EXAMPLE_ACTIONS = 400
#: Characters of an example value shown before it is cut with "…".
EXAMPLE_WIDTH = 60


@dataclass(frozen=True)
class FieldDoc:
    """One field of a View, as its reference page shows it."""

    name: str
    type: str
    doc: str


def field_docs(view_class: type[View]) -> list[FieldDoc]:
    """The fields of ``view_class`` in order, each with the ``#:`` comment
    written above it in the class that declares it ("" when there is none)."""
    docs: dict[str, str] = {}
    for cls in reversed(view_class.__mro__):
        if isinstance(cls, type) and issubclass(cls, View):
            docs.update(_comment_docs(cls))
    return [
        FieldDoc(f.name, _type_name(f.type), docs.get(f.name, ""))
        for f in fields(view_class)
    ]


def undocumented_fields(view_class: type[View]) -> list[str]:
    """The fields of ``view_class`` that have no ``#:`` doc."""
    return [f.name for f in field_docs(view_class) if not f.doc]


def _comment_docs(cls: type) -> dict[str, str]:
    """``#:`` comments above the annotated names of ``cls``'s own body."""
    try:
        lines, _ = inspect.getsourcelines(cls)
    except (OSError, TypeError):  # no source (built in a REPL): no docs
        return {}
    tree = ast.parse(textwrap.dedent("".join(lines)))
    body = tree.body[0]
    if not isinstance(body, ast.ClassDef):
        return {}
    out = {}
    for node in body.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            comment: list[str] = []
            at = node.lineno - 2  # the line above, 0-based in ``lines``
            while at >= 0 and lines[at].strip().startswith("#:"):
                comment.insert(0, lines[at].strip()[2:].strip())
                at -= 1
            if comment:
                out[node.target.id] = " ".join(comment)
    return out


def _type_name(annotation: Any) -> str:
    return (
        annotation
        if isinstance(annotation, str)
        else getattr(annotation, "__name__", repr(annotation))
    )


def example_view(game: Game) -> View:
    """The view the reference shows values from (see the module's ruling)."""
    n = min(game.seat_counts)
    state = game.new_match(n, 0)
    choices = random.Random(0)
    best: tuple[int, View] | None = None
    deal = state.deal
    for _ in range(EXAMPLE_ACTIONS):
        if state.is_over() or state.deal != deal or state.to_act is None:
            break
        view = state.view(state.to_act)
        filled = sum(1 for f in fields(view) if getattr(view, f.name) not in _EMPTY)
        if best is None or filled > best[0]:
            best = (filled, view)
        state.apply(choices.choice(state.legal_actions()))
    if best is None:
        return state.view(0)
    return best[1]


_EMPTY: tuple[Any, ...] = ((), None, "", 0)


def _example(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"))
    if len(text) > EXAMPLE_WIDTH:
        text = text[: EXAMPLE_WIDTH - 1] + "…"
    return f"`{text}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fields_table(view: View, only: set[str] | None = None) -> list[str]:
    rows = ["| field | type | meaning | example |", "| --- | --- | --- | --- |"]
    for f in field_docs(type(view)):
        if only is not None and f.name not in only:
            continue
        rows.append(
            f"| `{f.name}` | `{_cell(f.type)}` | {_cell(f.doc) or '(no doc)'} | "
            f"{_cell(_example(getattr(view, f.name)))} |"
        )
    return rows


def _phases(game: Game, matches: int = 3) -> list[str]:
    """The values of the view's ``phase`` seen in a few random matches."""
    seen: dict[str, None] = {}
    for seed in range(matches):
        state: State = game.new_match(min(game.seat_counts), seed)
        choices = random.Random(seed)
        for _ in range(EXAMPLE_ACTIONS * 5):
            seat = state.to_act if state.to_act is not None else 0
            phase = getattr(state.view(seat), "phase", None)
            if isinstance(phase, str):
                seen.setdefault(phase)
            if state.is_over():
                break
            state.apply(choices.choice(state.legal_actions()))
    return list(seen)


def _rules_doc(cls: type[Game]) -> Path | None:
    try:
        module = Path(inspect.getfile(cls))
    except (OSError, TypeError):
        return None
    rules = module.parent / "RULES.md"
    return rules if rules.is_file() else None


def game_reference(cls: type[Game], *, root: Path | None = None) -> str:
    """The reference page of game ``cls`` in Markdown.

    :param root: the folder the page is written in, for relative links to the
        rules doc and ``docs/CARDS.md`` (None: links are absolute file paths
        that exist on this machine, as ``troef games GAME --view`` prints).
    """
    game = cls()
    seats = sorted(cls.seat_counts)
    seat_text = f"{seats[0]}" if len(seats) == 1 else f"{seats[0]} to {seats[-1]}"
    lines = [f"# {cls.title}", "", cls.describe() or "", ""]
    facts = [f"Registry name `{cls.name}`", f"seats {seat_text}"]
    rules = _rules_doc(cls)
    if rules is not None:
        facts.append(f"rules: [{rules.name}]({_link(rules, root)})")
    lines += [" · ".join(facts) + ".", ""]

    lines += ["## Moves", ""]
    if cls.action_kinds:
        lines += [
            "Every legal action (`view.legal_actions`) is one of these; a card is "
            "written in the deck's notation (below).",
            "",
            "| move | meaning |",
            "| --- | --- |",
        ]
        lines += [
            f"| `{_cell(k.form)}` | {_cell(k.meaning)} |" for k in cls.action_kinds
        ]
    else:
        lines.append("Not documented: the game lists no `action_kinds`.")
    lines.append("")

    view = example_view(game)
    lines += [
        f"## The view (`{type(view).__name__}`)",
        "",
        "What one seat knows, sent to a bot as JSON (one key per field, lists "
        "for tuples). Example values are from a random match.",
        "",
    ]
    lines += _fields_table(view)
    if "phase" in {f.name for f in fields(view)}:
        phases = ", ".join(f"`{p}`" for p in _phases(game))
        lines += ["", f"Phases seen in random play: {phases}."]
    lines.append("")
    lines += _variant_views(cls, type(view))

    if cls.option_specs:
        lines += ["## Options", "", "| option | default | allowed | meaning |"]
        lines.append("| --- | --- | --- | --- |")
        for o in cls.option_specs:
            lines.append(
                f"| `{o.name}` | `{o.default!r}` | {_cell(o.allowed())} | "
                f"{_cell(o.doc) or '-'} |"
            )
            for choice in o.choices or ():
                doc = o.choice_doc(choice)
                if doc:
                    lines.append(f"| | `{choice!r}` | | {_cell(doc)} |")
        lines.append("")

    dealt = game.new_match(seats[0], 0).deck()
    faces = list(dict.fromkeys(dealt))  # in the deck's order, copies once
    lines += [
        "## Cards",
        "",
        f"{len(dealt)} cards, {len(faces)} different: "
        + " ".join(f"`{c}`" for c in faces)
        + ".",
        "",
    ]
    cards_doc = Path(__file__).resolve().parents[2] / "docs" / "CARDS.md"
    if cards_doc.is_file():
        lines += [f"The notation: [CARDS.md]({_link(cards_doc, root)}).", ""]
    return "\n".join(lines)


def _variant_views(cls: type[Game], base: type[View]) -> list[str]:
    """A section per option choice whose views are of another class."""
    lines: list[str] = []
    shown: set[type[View]] = {base}
    base_fields = {f.name for f in fields(base)}
    for option in cls.option_specs:
        for choice in option.choices or ():
            game = cls(**{option.name: choice})
            view = example_view(game)
            if type(view) in shown:
                continue
            shown.add(type(view))
            extra = {f.name for f in fields(view)} - base_fields
            lines += [
                f"### With `{option.name} = {choice!r}`: `{type(view).__name__}`",
                "",
                "The view adds these fields (example values from that variant):",
                "",
            ]
            lines += _fields_table(view, extra)
            if "phase" in extra:
                phases = ", ".join(f"`{p}`" for p in _phases(game))
                lines += ["", f"Phases seen in random play: {phases}."]
            lines.append("")
    return lines


def _link(target: Path, root: Path | None) -> str:
    if root is None:
        return str(target)
    return Path(os.path.relpath(target, root)).as_posix()
