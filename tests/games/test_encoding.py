"""Encodings for learning bots (issue 32, item 4; ``docs/ENCODING.md``).

For every registered game at every seat count and variant: every legal action
has an id, ids round-trip, the mask marks exactly the legal actions, every
view's observation has the documented fixed shape, and a bot that plays only
by ids and masks completes real matches through the referee. The
observation is a function of the View alone: twin views, equal tensors.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from games.jass.belote import BeloteView
from games.jass.klaverjassen import KlaverjassenView
from harness import Bot, Game, View
from harness.contracts.encoding import ActionSpace, Encoding, Observation, Segment
from harness.contracts.errors import EncodingError
from harness.match.referee import play_match
from harness.plugins import load_plugins
from tests.conftest import TOY_PLUGIN

REGISTRY = load_plugins()
GAMES = sorted(REGISTRY.games)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "ENCODING.md"


def tables(name: str) -> Iterator[tuple[Game, int]]:
    """The game's check options under each variant, at each seat count."""
    cls = REGISTRY.game_class(name)
    variants: list[dict[str, object]] = [{}]
    for spec in cls.option_specs:
        if spec.name == "variant" and spec.choices:
            variants = [{"variant": c} for c in spec.choices]
    for options in variants:
        game = cls.for_checks(**options)
        for n in sorted(cls.seat_counts):
            yield game, n


def check_view(encoding: Encoding, view: View) -> None:
    """Shape, dtype, mask and round trip of one view."""
    obs = encoding.encode(view)
    assert obs.shape == encoding.shape and obs.dtype == np.float32
    assert np.isfinite(obs).all()
    mask = encoding.mask(view)
    assert mask.shape == (encoding.num_actions,) and mask.dtype == np.bool_
    marked = [encoding.action(int(i)) for i in np.flatnonzero(mask)]
    assert sorted(marked) == sorted(view.legal_actions)
    for action in view.legal_actions:
        assert encoding.action(encoding.action_id(action)) == action


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_has_an_id_and_every_view_the_fixed_shape(
    name: str,
) -> None:
    """Random matches of every variant at every seat count, every seat's view."""
    for game, n in tables(name):
        encoding = game.encoding(n)
        state = game.new_match(n, 11)
        rng = random.Random(11)
        for _ in range(300):
            if state.is_over():
                break
            for seat in range(n):
                check_view(encoding, state.view(seat))
            state.apply(rng.choice(state.legal_actions()))


class IdBot(Bot):
    """Plays by ids: a random id where the mask is True, mapped back to an action."""

    name = "id-bot"
    encoding: Encoding

    def act(self, view: View) -> str:
        assert self.encoding.encode(view).shape == self.encoding.shape
        ids = np.flatnonzero(self.encoding.mask(view))
        return self.encoding.action(int(self.rng.choice(list(ids))))


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_playing_by_ids_and_masks_completes_matches(name: str) -> None:
    """The issue's done-when: whole matches, no forfeit, at every seat count."""
    cls = REGISTRY.game_class(name)
    for n in sorted(cls.seat_counts):
        game = cls.for_checks()
        encoding = game.encoding(n)
        bot = type("SeatedIdBot", (IdBot,), {"encoding": encoding})
        bots = [bot(game, seat, 100 + seat) for seat in range(n)]
        result = play_match(game, bots, 5)
        assert result.forfeit is None, result.forfeit
        assert result.ended is None


@pytest.mark.parametrize("name", GAMES)
def test_encode_reads_only_the_view(name: str) -> None:
    """Twin views (a JSON round trip; a world sampled behind the view, whose
    hidden cards differ) give equal tensors: encode is a function of the View."""
    game = REGISTRY.game_class(name).for_checks()
    n = min(game.seat_counts)
    encoding = game.encoding(n)
    state = game.new_match(n, 3)
    rng = random.Random(3)
    for step in range(120):
        if state.is_over():
            break
        if step % 20 == 7:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            twin = type(view).from_json(view.to_json())
            assert twin is not view
            assert np.array_equal(encoding.encode(view), encoding.encode(twin))
            world = game.sample_state(view, random.Random(step)).view(seat)
            assert np.array_equal(encoding.encode(view), encoding.encode(world))
        state.apply(rng.choice(state.legal_actions()))


def test_the_klaverjassen_observation_marks_the_hand_and_the_trick() -> None:
    """A worked example: seat 1's own cards are its hand segment, the trick's
    card led by seat 0 sits in the plane of relative seat 3 (the seat before)."""
    game = REGISTRY.game("klaverjassen")
    encoding = game.encoding(4)
    state = game.new_match(4, 1)
    while True:
        view = state.view(1)
        assert isinstance(view, KlaverjassenView)
        if state.to_act == 1 and view.trick:
            break
        state.apply(state.legal_actions()[0])
    obs = encoding.encode(view)
    # The piquet pack's faces: suits C D H S, each 7 8 9 T J Q K A (docs/CARDS.md).
    hand = encoding.segment("hand")
    assert obs[hand.start : hand.start + hand.size].sum() == len(view.hand)
    for card in view.hand:
        suit, rank = "CDHS".index(card[1]), "789TJQKA".index(card[0])
        assert obs[hand.start + suit * 8 + rank] == 1
    trick = encoding.segment("trick")
    for seat, card in view.trick:
        rel = (seat - 1) % 4
        suit, rank = "CDHS".index(card[1]), "789TJQKA".index(card[0])
        assert obs[trick.start + rel * 32 + suit * 8 + rank] == 1


@pytest.mark.parametrize(("name", "copies"), [("bezique", 2), ("rubicon", 4)])
def test_a_card_of_a_double_pack_counts_as_its_share_of_copies(
    name: str, copies: int
) -> None:
    """Two piquet packs (Bezique, RULES.md) or four (Rubicon): a face's entry
    is the share of its copies this seat holds, 1 when it holds them all."""
    game = REGISTRY.game(name)
    encoding = game.encoding(2)
    hand = encoding.segment("hand")
    faces = [r + s for s in "CDHS" for r in "789TJQKA"]
    doubled = 0
    for seed in range(20):
        view = game.new_match(2, seed).view(0)
        obs = encoding.encode(view)
        held = getattr(view, "hand")  # noqa: B009 - a FamilyView
        for card in set(held):
            entry = obs[hand.start + faces.index(card)]
            assert entry == pytest.approx(held.count(card) / copies)
            doubled += held.count(card) > 1
        assert obs[hand.start : hand.start + hand.size].sum() == pytest.approx(
            len(held) / copies
        )
    assert doubled  # some hand held two copies of a face


def test_action_ids_are_the_sorted_vocabulary() -> None:
    """Ids are stable: the words sorted, so equal games give equal ids."""
    encoding = REGISTRY.game("klaverjassen").encoding(4)
    words = encoding.actions.words
    assert list(words) == sorted(words)
    assert encoding.action_id("play") == words.index("play")
    again = REGISTRY.game("klaverjassen").encoding(4)
    assert again.fingerprint == encoding.fingerprint


def test_gin_layouts_round_trip_and_are_ranked() -> None:
    """RULES.md ruling 8: a layout such as ``lay:5H-8H+9C9D9S`` has one id,
    and every id of the ranked block maps to a layout that maps back."""
    encoding = REGISTRY.game("gin-rummy").encoding(2)
    action = "lay:9C9D9S+5H-8H"
    assert encoding.action(encoding.action_id(action)) == action
    rng = random.Random(8)
    for i in rng.sample(range(len(encoding.actions.words), encoding.num_actions), 300):
        assert encoding.action_id(encoding.action(i)) == i
    with pytest.raises(EncodingError, match="gin-rummy"):
        encoding.action_id("lay:5H-6H")  # a run of two is no meld
    # A real layout phase: the mask marks exactly the layouts the game offers.
    game = REGISTRY.game("gin-rummy").for_checks()
    layouts = 0
    for seed in range(40):
        state = game.new_match(2, seed)
        rng = random.Random(seed)
        while not state.is_over() and layouts < 3:
            view = state.view(state.to_act or 0)
            if getattr(view, "phase") == "layout":  # noqa: B009 - a GinRummyView
                check_view(encoding, view)
                layouts += 1
            state.apply(rng.choice(state.legal_actions()))
    assert layouts == 3


def test_errors_name_the_game_the_value_and_what_is_accepted() -> None:
    encoding = REGISTRY.game("belote").encoding(3)
    with pytest.raises(EncodingError, match=r"'trump:X' is not an action .*'belote'"):
        encoding.action_id("trump:X")
    with pytest.raises(EncodingError, match=r"action id 9999 is out of range.* 0 to"):
        encoding.action(9999)
    view = REGISTRY.game("belote").new_match(3, 1).view(0)
    assert isinstance(view, BeloteView)
    odd = dataclasses.replace(view, phase="siesta")
    with pytest.raises(EncodingError, match=r"'phase' holds 'siesta'.*'bid'"):
        encoding.encode(odd)
    with pytest.raises(EncodingError, match=r"no segment 'hands'.*hand"):
        encoding.segment("hands")


def test_a_game_without_an_encoding_says_so() -> None:
    """The hook is optional: the default names the game and its class."""
    toy = load_plugins(entry_points=False, files=[TOY_PLUGIN]).game("toy")
    with pytest.raises(NotImplementedError, match=r"'toy'.*ToyGame.*encoding"):
        toy.encoding(2)


class HandOnly(Encoding):
    """An outside game's own encoding, from the contract alone: its hand."""

    def __init__(self, cards: Sequence[str]) -> None:
        self._at = {c: i for i, c in enumerate(cards)}
        space = ActionSpace(cards, owner="game 'toy'")
        super().__init__("toy", 1, space, [Segment("hand", 0, len(cards), "hand")])

    def encode(self, view: View) -> Observation:
        obs = np.zeros(self.shape, dtype=np.float32)
        obs[[self._at[c] for c in getattr(view, "hand")]] = 1  # noqa: B009
        return obs


def test_an_outside_game_offers_an_encoding_through_the_hook() -> None:
    """A plugin game overrides Game.encoding; a bot plays it by ids."""
    toy = load_plugins(entry_points=False, files=[TOY_PLUGIN]).game_class("toy")
    cards = toy.for_checks().new_match(2, 0).deck()

    class EncodedToy(toy):  # type: ignore[valid-type, misc]
        def encoding(self, n_seats: int) -> Encoding:
            return HandOnly(cards)

    game = EncodedToy()
    encoding = game.encoding(2)
    bot = type("SeatedIdBot", (IdBot,), {"encoding": encoding})
    result = play_match(game, [bot(game, 0, 1), bot(game, 1, 2)], 4)
    assert result.forfeit is None
    state = game.new_match(2, 4)
    check_view(encoding, state.view(0))
    with pytest.raises(ValueError, match=r"'gap' .* starts at 3, expected 2"):
        Encoding.__init__(
            HandOnly(cards),
            "toy",
            1,
            encoding.actions,
            [Segment("a", 0, 2, ""), Segment("gap", 3, 1, "")],
        )


def test_the_version_is_exposed_and_the_fingerprint_follows_the_layout() -> None:
    belote = REGISTRY.game("belote")
    two, three = belote.encoding(2), belote.encoding(3)
    assert isinstance(two.version, int) and two.version == three.version
    assert two.shape != three.shape and two.fingerprint != three.fingerprint


@pytest.mark.parametrize("name", GAMES)
def test_docs_name_every_segment_and_the_version(name: str) -> None:
    """docs/ENCODING.md lists every segment a game's observation has."""
    text = DOCS.read_text()
    game = REGISTRY.game_class(name).for_checks()
    encoding = game.encoding(min(game.seat_counts))
    assert f"`{name}`" in text
    for segment in encoding.segments:
        assert f"`{segment.name}`" in text, f"{name}: segment {segment.name}"


def test_the_example_in_the_docs_runs() -> None:
    """docs/ENCODING.md's "Using one" example, as a bot author copies it."""
    text = DOCS.read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(code, str(DOCS), "exec"), scope)
    assert scope["action"] in scope["view"].legal_actions  # type: ignore[attr-defined]


def test_the_cost_tables_sizes_and_actions_are_the_codes() -> None:
    """The size and actions columns of docs/ENCODING.md's cost table, at the
    smallest seat count under default options (the timings are not checked)."""
    rows = [
        line.split("|")[1:4]
        for line in DOCS.read_text().split("## Cost", 1)[1].splitlines()
        if line.startswith("| ") and not line.startswith(("| game", "| ---"))
    ]
    registry = load_plugins()
    found = {}
    for name, size, actions in rows:
        cls = registry.games[name.strip()]
        encoding = cls().encoding(min(cls.seat_counts))
        found[name.strip()] = (int(size), int(actions.replace(",", "")))
        assert found[name.strip()] == (encoding.shape[0], encoding.num_actions), name
    assert set(found) == set(registry.games)
