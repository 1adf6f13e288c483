"""A native State's clone copies its attributes by name: the names stay complete.

In a compiled build (``bench/README.md``, "Compiled builds") ``State``,
``TrickState`` and ``KlaverjassenState`` are native classes: their attributes
live in slots, and ``TrickState.clone`` copies them one by one through
``_copy_fields`` (pure Python copies ``__dict__``, which holds every
attribute). A State that gains an attribute its ``_copy_fields`` does not copy
would clone wrong only in a compiled build, which CI does not run; these tests
fail on it in pure Python. mypyc gives a native class a slot for each name
annotated in its body (``ClassVar`` aside) and each ``self.<name>`` assigned
in its methods, so that is what :func:`owned` reads.
"""

from __future__ import annotations

import ast
import inspect
import random
import textwrap
from collections.abc import Callable
from typing import ClassVar

import pytest

from games.jass.klaverjassen import KlaverjassenState
from games.tricks import TrickState
from harness import State
from harness.plugins import load_plugins

# Of pure Python: a compiled build's natives have no __dict__ to compare, and
# every test that clones runs its compiled copy itself.
COMPILED = hasattr(TrickState, "__mypyc_attrs__")
pytestmark = pytest.mark.skipif(
    COMPILED,
    reason="reads vars() of States, which a compiled build's native classes lack",
)

REGISTRY = load_plugins()
#: The registered games whose States are trick games (they inherit the copy).
TRICK_GAMES = sorted(
    name
    for name, cls in REGISTRY.games.items()
    if isinstance(cls.for_checks().new_match(min(cls.seat_counts), 1), TrickState)
)


def _class_body(cls: type) -> ast.ClassDef:
    """``cls``'s class statement, parsed from its source."""
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    assert isinstance(body, ast.ClassDef)
    return body


def owned(cls: type) -> set[str]:
    """The attributes mypyc would give ``cls`` a slot for, read from its source."""
    body = _class_body(cls)
    names = set()
    for node in body.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "ClassVar" not in ast.unparse(node.annotation):
                names.add(node.target.id)
        if isinstance(node, ast.FunctionDef):
            for sub in ast.walk(node):
                targets: list[ast.expr] = []
                if isinstance(sub, ast.Assign):
                    targets = sub.targets
                elif isinstance(sub, ast.AnnAssign | ast.AugAssign):
                    targets = [sub.target]
                for target in targets:
                    for leaf in ast.walk(target):
                        if (
                            isinstance(leaf, ast.Attribute)
                            and isinstance(leaf.value, ast.Name)
                            and leaf.value.id == "self"
                        ):
                            names.add(leaf.attr)
    return names


def defaulted(cls: type) -> set[str]:
    """The owned attributes with a default in the class body (``x: bool =
    False``): mypyc sets those on every new native instance, so a State need
    not set them, and in pure Python they are read from the class."""
    return {
        node.target.id
        for node in _class_body(cls).body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and node.value is not None
        and "ClassVar" not in ast.unparse(node.annotation)
    }


#: State's defaulted attributes (``halt_after_deal``): copied, never required.
#: None in a compiled build: ``inspect`` finds no source of a compiled class,
#: and this module is skipped there, but it must still import (CI collects it).
DEFAULTED = (
    set()
    if COMPILED
    else defaulted(State) | defaulted(TrickState) | defaulted(KlaverjassenState)
)


def copied(state: TrickState, through: type) -> dict[str, object]:
    """What ``through._copy_fields`` sets on a blank twin of ``state``."""
    twin = object.__new__(type(state))
    copy: Callable[[TrickState, TrickState], None] = vars(through)["_copy_fields"]
    copy(state, twin)
    return vars(twin)


@pytest.mark.parametrize("cls", [TrickState, KlaverjassenState])
def test_copy_fields_names_every_attribute_the_native_class_owns(cls: type) -> None:
    # The attributes of the class and of its native bases, State included.
    chain = [c for c in cls.__mro__ if c in (State, TrickState, KlaverjassenState)]
    want = set().union(*(owned(c) for c in chain))
    state = REGISTRY.games["klaverjassen"]().new_match(4, 3)
    assert isinstance(state, KlaverjassenState)
    unset = want - DEFAULTED - set(vars(state))
    assert not unset, f"owned attributes not set from the start: {sorted(unset)}"
    missing = want - set(copied(state, cls))
    assert not missing, f"{cls.__name__}._copy_fields leaves out {sorted(missing)}"


def test_owned_reads_annotations_and_assignments() -> None:
    # The reader itself: a class body's annotations and its methods' targets.
    class Probe:
        a: int
        b: ClassVar[int] = 0

        def m(self) -> None:
            self.c = 1
            self.d, (self.e, _) = 2, (3, 4)
            self.f: int = 0
            self.c += self.a  # a read is no slot of its own

    assert owned(Probe) == {"a", "c", "d", "e", "f"}
    assert defaulted(Probe) == set()
    assert "halt_after_deal" in DEFAULTED


def test_a_klaverjassen_state_copies_whole_after_random_play() -> None:
    """Every point of a match (bidding, mid-trick, a finished deal, the end) and
    a sampled world: the names copied are exactly the state's attributes, each
    value the very object (the clone copies the mutable lists after it)."""
    game = REGISTRY.games["klaverjassen"]()
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        state = game.new_match(4, seed)
        while True:
            assert isinstance(state, KlaverjassenState)
            twin = copied(state, KlaverjassenState)
            assert twin.keys() - DEFAULTED == vars(state).keys() - DEFAULTED
            assert all(twin[k] is v for k, v in vars(state).items())
            checked += 1
            if state.is_over():
                break
            seat = state.to_act
            assert seat is not None
            if checked % 25 == 0:
                world = game.sampler(state.view(seat)).sample(rng)
                assert isinstance(world, KlaverjassenState)
                world.halt_after_deal = True  # as a search sets it
                assert copied(world, KlaverjassenState).keys() == vars(world).keys()
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 300


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_every_trick_game_sets_every_engine_attribute_throughout(name: str) -> None:
    """A compiled clone reads each attribute TrickState's copy names, and an
    unset slot raises there: every trick game sets them all at every point of
    a match. (A game's own attributes are an interpreted subclass's, kept in
    ``__dict__``, which a compiled clone copies as well.)"""
    engine = owned(State) | owned(TrickState)
    game_cls = REGISTRY.games[name]
    game = game_cls.for_checks()
    rng = random.Random(2)
    state = game.new_match(min(game_cls.seat_counts), 2)
    assert isinstance(state, TrickState)
    for _ in range(200):
        missing = engine - DEFAULTED - set(vars(state))
        assert not missing, f"{type(state).__name__} lacks {sorted(missing)}"
        assert copied(state, TrickState).keys() - DEFAULTED <= vars(state).keys()
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
