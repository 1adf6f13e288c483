"""The conformance suite's hidden-information checks, one seat at a time.

At each probed decision point every seat's view is checked in the three classes
:mod:`harness.match.conformance` describes (its docstring holds the rulings):
(a) twins, worlds sampled from the seat's view, narrate alike to it; (b) no card
the seat has not seen is named in its view or in what it hears; (c) every world
sampled for it is consistent (its view, conservation, the optional
``validate()``); and across probes, what the seat cannot see varies in the
samples. :class:`InformationChecks` is mixed into the suite's run, which plays
the matches and holds the tallies.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from harness.contracts.errors import ConformanceError
from harness.contracts.game import Game, State, heard_by
from harness.contracts.view import View

if TYPE_CHECKING:
    from harness.match.conformance import ConformanceReport

__all__ = ["MIN_PROBES", "InformationChecks"]

#: A hidden place must be probed this often before "never varies" counts; a card
#: three times as often, since a card can be known for a while (taken from a pile).
MIN_PROBES = 5


class InformationChecks:
    """The information-set checks of one seat count's run (a mixin: the run
    gives the game, the seat count, the samples a probe draws and the report)."""

    game: Game
    n: int
    samples: int
    report: ConformanceReport
    #: (seat, place) and (seat, card) -> [probes with freedom, probes that varied]
    place_tally: dict[tuple[int, str], list[int]]
    card_tally: dict[tuple[int, str], list[int]]

    def fail(self, message: str) -> None:
        raise NotImplementedError  # the run records failures

    @functools.cached_property
    def believes(self) -> bool:
        """Whether the game offers a belief sampler, whose worlds are checked too."""
        return type(self.game).belief_sampler is not Game.belief_sampler

    @functools.cached_property
    def rolls_out(self) -> bool:
        """Whether the game offers a rollout policy, whose answers are checked."""
        return type(self.game).rollout_action is not Game.rollout_action

    @functools.cached_property
    def view_type(self) -> type[View]:
        """The class a bot in its own process decodes this game's views into."""
        try:
            return self.game.view_type()
        except TypeError as exc:
            raise ConformanceError(str(exc)) from None

    def check_conservation(self, state: State, deck: Counter[str], when: str) -> None:
        raise NotImplementedError  # the run checks every place's cards

    # -- probes at one decision point ------------------------------------

    def see(self, state: State, seen: list[set[str]]) -> None:
        """Add to each seat's ``seen`` the cards in the places it can see now."""
        places = state.card_locations()
        for p, cards in enumerate(seen):
            hidden = state.hidden_from(p)
            for place, held in places.items():
                if place not in hidden:
                    cards.update(held)

    def check_names(
        self,
        state: State,
        p: int,
        seen: set[str],
        texts: Iterable[tuple[str, str]],
        where: str,
        rng: random.Random | None = None,
    ) -> None:
        """Class (b): no card p has not seen is named in ``texts``, pairs of
        what a text is (``"the view"``) and the text.

        With ``rng``, a name found is checked once more against the cards that
        worlds sampled from ``state.view(p)`` all place as ``state`` does (what
        the action just told p: a meld declared, a card shown).
        """
        places = state.card_locations()
        hidden = state.hidden_from(p)
        unseen = {
            card
            for place, held in places.items()
            if place in hidden
            for card in held
            if card not in seen
        }
        unseen.difference_update(
            card
            for place, held in places.items()
            if place not in hidden
            for card in held
        )
        if not unseen:
            return
        texts = list(texts)
        if rng is not None and any(_named(text, unseen) for _, text in texts):
            sampler = self.game.sampler(state.view(p))
            worlds = [sampler.sample(rng).card_locations() for _ in range(self.samples)]
            unseen -= _pinned(places, worlds, sorted(hidden))
            if not unseen:
                return
        for what, text in texts:
            found = _named(text, unseen)
            if found:
                start, end = found.span()
                context = text[max(0, start - 80) : end + 40]
                raise ConformanceError(
                    f"class (b) hidden card name, {where}: {what} for seat {p} "
                    f"names {found.group(0)}, which seat {p} cannot see and its "
                    f"information does not place (in ...{context!r}...)"
                )

    def probe(
        self,
        state: State,
        rng: random.Random,
        action: str,
        seen: list[set[str]],
        step: int,
    ) -> None:
        """Probe every seat's view at action ``step``, whose action is ``action``."""
        truth = state.card_locations()
        where = f"at action {step} ({action!r} by seat {state.to_act})"
        if self.rolls_out:
            quick = self.game.rollout_action(state.clone(), rng)
            if quick not in state.legal_actions():
                raise ConformanceError(
                    f"rollout policy, {where}: Game.rollout_action answered "
                    f"{quick!r}, not one of the legal actions {state.legal_actions()!r}"
                )
        after = state.clone()
        lines = after.narrate(action)
        # Within a deal: the action neither deals anew nor ends the match.
        going_on = after.deal == state.deal and not after.is_over()
        deck = Counter(state.deck())
        for p in range(self.n):
            view = state.view(p)
            self.report.probes += 1
            self.check_view_data(view, p)
            hidden = sorted(state.hidden_from(p))
            unknown = [place for place in hidden if place not in truth]
            if unknown:
                raise ConformanceError(
                    f"hidden_from({p}) names places {unknown} that card_locations lacks"
                )
            # One sampler per view, as a search bot draws its worlds; a game's
            # belief sampler must draw worlds just as consistent with the view.
            sampler = self.game.sampler(view)
            worlds = [sampler.sample(rng) for _ in range(self.samples)]
            drawn_by = ["sample_state"] * len(worlds)
            if self.believes:
                believer = self.game.belief_sampler(view)
                worlds += [believer.sample(rng) for _ in range(self.samples)]
                drawn_by += ["belief_sampler"] * self.samples
            self.report.samples += len(worlds)
            world_places = [w.card_locations() for w in worlds]
            # Cards whose hidden places p's information fixes: the same in the
            # truth and in every world drawn for p. Naming them tells p nothing.
            known = seen[p] | _pinned(truth, world_places, hidden)
            self.check_names(state, p, known, [("the view", view.to_json())], where)
            heard = heard_by(lines, p)
            after_view = after.view(p)
            if going_on:
                mine = known | _visible(after, p)
                texts = [("the view after it", after_view.to_json())]
                texts += [("the narration", line) for line in heard]
                self.check_names(after, p, mine, texts, where, rng)
            free = sum(1 for place in hidden if truth[place]) >= 2
            varied_places: set[str] = set()
            varied_cards: set[str] = set()
            drawn = zip(worlds, world_places, drawn_by, strict=True)
            for sample, places, source in drawn:
                sampled_view = sample.view(p)
                if sampled_view != view:
                    raise ConformanceError(
                        f"class (c) sampled world, {where}: "
                        f"{source}(view({p})).view({p}) differs from the view: "
                        f"{_first_difference(view, sampled_view)}"
                    )
                self.check_conservation(
                    sample, deck, f"in a world sampled for seat {p} {where} (class (c))"
                )
                validate = getattr(sample, "validate", None)
                if callable(validate):
                    try:
                        validate()
                    except Exception as exc:
                        raise ConformanceError(
                            f"class (c) sampled world, {where}: a world sampled for "
                            f"seat {p} is impossible: validate() raised "
                            f"{type(exc).__name__}: {exc}"
                        ) from None
                located = {c: place for place in hidden for c in places.get(place, ())}
                for place in hidden:
                    if places.get(place) != truth[place]:
                        varied_places.add(place)
                for place in hidden:
                    for card in truth[place]:
                        if located.get(card) != place:
                            varied_cards.add(card)
                if going_on:
                    self.check_twin(sample, p, action, after, after_view, heard, where)
            if free:
                for place in hidden:
                    if truth[place]:
                        tally = self.place_tally[(p, place)]
                        tally[0] += 1
                        tally[1] += place in varied_places
                        for card in truth[place]:
                            ctally = self.card_tally[(p, card)]
                            ctally[0] += 1
                            ctally[1] += card in varied_cards

    def check_twin(
        self,
        twin: State,
        p: int,
        action: str,
        after: State,
        after_view: View,
        heard: list[str],
        where: str,
    ) -> None:
        """Class (a): ``twin``, a world sampled from p's view, and the true State
        (``after`` is it after ``action``) stay alike for p after ``action``."""
        if twin.is_over() or action not in twin.legal_actions():
            return
        deal = twin.deal
        twin_lines = twin.narrate(action)
        if twin.deal != deal or twin.is_over():
            return  # the twin's deal ended where the true one's goes on
        if _visible_places(twin, p) != _visible_places(after, p):
            return  # the action showed p a card that differs between them
        if twin.view(p) != after_view:
            return  # the action told p something (a card shown, "stuk" said)
        self.report.twins += 1
        twin_heard = heard_by(twin_lines, p)
        if twin_heard != heard:
            raise ConformanceError(
                f"class (a) twins, {where}: two States seat {p} cannot tell apart "
                f"narrate it differently to seat {p}: {heard!r} != {twin_heard!r}"
            )

    def check_view_data(self, view: View, p: int) -> None:
        if not dataclasses.is_dataclass(view) or not isinstance(view, View):
            raise ConformanceError(f"view({p}) is not a View dataclass")
        try:
            hash(view)
        except TypeError as exc:
            raise ConformanceError(f"view({p}) holds mutable data ({exc})") from None
        try:
            setattr(view, "seat", p + 1)  # noqa: B010 - probing immutability
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise ConformanceError(f"view({p}) can be mutated")
        expected = self.view_type
        if type(view) is not expected:
            raise ConformanceError(
                f"view({p}) is a {type(view).__name__}, but the game's view_type() "
                f"is {expected.__name__}: a bot in its own process would receive its "
                f"view decoded as a {expected.__name__}; name the class in the game's "
                "view_class, or override view_type() where options change it"
            )
        try:
            again = expected.from_json(view.to_json())
        except Exception as exc:
            raise ConformanceError(
                f"view({p}) does not round-trip JSON: {exc!r}"
            ) from exc
        if again != view:
            raise ConformanceError(
                f"view({p}) changes through JSON: {_first_difference(view, again)}"
            )

    def check_hidden_places_vary(self) -> None:
        for (p, place), (probes, varied) in sorted(self.place_tally.items()):
            if probes >= MIN_PROBES and not varied:
                self.fail(
                    f"place {place!r} is hidden from seat {p}, yet its cards never "
                    f"varied in {probes} probes x {self.samples} samples: the view "
                    "reveals it (a leak), or sample_state does not resample it"
                )
        for (p, card), (probes, varied) in sorted(self.card_tally.items()):
            if probes >= 3 * MIN_PROBES and not varied:
                self.fail(
                    f"card {card} is hidden from seat {p}, yet it never moved in "
                    f"{probes} probes: the view reveals where it is (a leak)"
                )


def _visible_places(state: State, p: int) -> dict[str, tuple[str, ...]]:
    hidden = state.hidden_from(p)
    return {
        place: held
        for place, held in state.card_locations().items()
        if place not in hidden
    }


def _pinned(
    truth: Mapping[str, tuple[str, ...]],
    worlds: list[Mapping[str, tuple[str, ...]]],
    hidden: list[str],
) -> set[str]:
    """The cards in ``hidden`` places that sit where they are in every world
    (for copies of a card: the same hidden places hold them, as many each)."""

    def where(places: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = defaultdict(list)
        for place in hidden:
            for card in places.get(place, ()):
                found[card].append(place)
        return found

    true = where(truth)
    pinned = set(true)
    for world in worlds:
        there = where(world)
        pinned = {c for c in pinned if sorted(there.get(c, ())) == sorted(true[c])}
    return pinned


def _visible(state: State, p: int) -> set[str]:
    return {card for held in _visible_places(state, p).values() for card in held}


_TOKEN = re.compile(r"[A-Za-z0-9]+")
_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


def _named(text: str, names: set[str]) -> re.Match[str] | None:
    """The first of ``names`` in ``text`` as a whole token, or None.

    Names of letters and digits (every registered game's cards) are found by
    splitting ``text`` into such tokens; others by a regex made for them.
    """
    odd = frozenset(n for n in names if not _TOKEN.fullmatch(n))
    first: re.Match[str] | None = None
    for token in _TOKEN.finditer(text):
        if token.group(0) in names:
            first = token
            break
    if odd:
        pattern = _PATTERNS.get(odd)
        if pattern is None:
            if len(_PATTERNS) > 4096:
                _PATTERNS.clear()
            alternatives = "|".join(
                re.escape(n) for n in sorted(odd, key=lambda n: (-len(n), n))
            )
            pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])")
            _PATTERNS[odd] = pattern
        other = pattern.search(text)
        if other and (first is None or other.start() < first.start()):
            first = other
    return first


def _first_difference(a: View, b: View) -> str:
    for f in dataclasses.fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name, None)
        if va != vb:
            return f"field {f.name!r}: {va!r} != {vb!r}"
    return f"{type(a).__name__} vs {type(b).__name__}"
