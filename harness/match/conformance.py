"""The conformance suite every game plugin passes (``troef check GAME``).

Plain functions, so that plugin authors can run them on their own games and
the test suite can run them for every registered game. Random matches are
played with seeded uniform choices; at random decision points every seat's
view is probed. What is checked:

- matches finish with well-formed Results (ranks rank the teams and follow the
  scores unless the game ranks by something else; utilities agree with ranks);
- every card is in exactly one place after every action (conservation);
- ``clone()`` is independent; the same seed gives the same log and Result;
  a log replays to the same Result; the Game pickles;
- views round-trip through JSON unchanged, are immutable (hashable, frozen),
  and the seat to act sees exactly the State's legal actions;
- information sets: ``sample_state(view_p).view(p) == view_p`` and, across
  samples, what p cannot see varies (a leaked fact never would);
- duplicate deals: the same seed deals the same cards whatever is played.

Short and full checks. By default the check is short: it plays the game that
:meth:`Game.for_checks <harness.contracts.game.Game.for_checks>` builds (the game's
``check_options``, a low target or few deals, with any options given laid over
them), and it stops a match that reaches ``budget`` actions
(:data:`DEFAULT_BUDGET`). A match cut there has had every check made at each
action and each probe up to the cut, and its deals take part in the duplicate
deal check; it has no Result, so the checks that need a whole match (a
well-formed Result, repeatability, replay to the same Result) are skipped for
it, and the report counts it as cut. ``full=True`` (``troef check --full``)
plays the game's default options (with the options given) and has no budget
beyond the endless-match guard, :data:`MAX_ACTIONS`, which is a failure.

Ruling: a seat count whose every match is cut is a **failure**, not a warning.
Its whole-match checks would otherwise pass without having run once, and a game
whose matches never end would pass the short check. The failure names the way
out: shorter ``check_options``, a larger budget, or the full check.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.contracts.errors import ConformanceError, OptionError
from harness.contracts.game import Game, State
from harness.contracts.result import Result, competition_ranks
from harness.contracts.seeding import derive_seed
from harness.contracts.view import View
from harness.match.referee import replay

__all__ = ["DEFAULT_BUDGET", "MAX_ACTIONS", "ConformanceReport", "check_game"]

#: A hidden place must be probed this often before "never varies" counts; a card
#: three times as often, since a card can be known for a while (taken from a pile).
MIN_PROBES = 5
#: Actions after which a match is declared endless (a failure, in either mode).
MAX_ACTIONS = 200_000
#: Actions after which the short check stops a match (it is cut, not failed).
#: Random gin rummy needs thousands of actions to finish one scoring hand; with
#: this budget about two matches in three finish, and the short check of any
#: registered game costs a few seconds.
DEFAULT_BUDGET = 10_000


@dataclass
class ConformanceReport:
    """What :func:`check_game` did and what it found."""

    game: str
    #: True for the full check (``--full``), False for the short one.
    full: bool = False
    #: The options of the game that was checked, every default filled in.
    options: dict[str, Any] = field(default_factory=dict)
    #: Most actions a match may take before it is cut; None: no budget.
    budget: int | None = None
    #: Matches played to their end or to the budget (not those that failed).
    matches: int = 0
    #: Of those, the matches stopped at the budget.
    cut: int = 0
    #: Deals each match reached (started), in the order played.
    deals: list[int] = field(default_factory=list)
    actions: int = 0
    probes: int = 0
    samples: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when no check failed."""
        return not self.failures

    def mode(self) -> str:
        """Which check ran, with its options and budget, in a few words."""
        options = ", ".join(f"{k}={v!r}" for k, v in self.options.items()) or "none"
        if self.full:
            return f"full check (options {options}; no budget)"
        return (
            f"short check (options {options}; "
            f"at most {self.budget} actions a match; --full for whole matches)"
        )

    def summary(self) -> str:
        """A few lines for a person."""
        cut = f" ({self.cut} cut at the budget)" if self.cut else ""
        head = (
            f"{self.game}, {self.mode()}\n"
            f"{self.game}: {self.matches} matches{cut}, {sum(self.deals)} deals, "
            f"{self.actions} actions, {self.probes} view probes, "
            f"{self.samples} sampled states: "
        )
        if self.passed:
            return head + "all checks passed"
        shown = self.failures[:20]
        more = len(self.failures) - len(shown)
        lines = [head + f"{len(self.failures)} failures"]
        lines += [f"  - {f}" for f in shown]
        if more:
            lines.append(f"  ... and {more} more")
        return "\n".join(lines)


def check_game(
    game: Game | type[Game],
    *,
    options: Mapping[str, Any] | None = None,
    full: bool = False,
    budget: int | None = None,
    matches: int = 5,
    seed: int = 0,
    seat_counts: Iterable[int] | None = None,
    probe_rate: float = 0.15,
    samples: int = 6,
    raise_on_failure: bool = True,
    progress: Callable[[str], None] | None = None,
) -> ConformanceReport:
    """Run the conformance suite on a game (the module docstring says what).

    :param game: a Game class, built with its ``check_options`` (short check)
        or its defaults (``full``), and ``options`` over them; or a Game built
        already, checked with exactly its own options.
    :param options: game options laid over the check options or the defaults;
        only with a class.
    :param full: play whole matches of the game's default options, no budget.
    :param budget: actions after which the short check cuts a match;
        default :data:`DEFAULT_BUDGET`. Not with ``full``.
    :param matches: random matches per seat count.
    :param probe_rate: share of decision points where every seat's view is probed.
    :param samples: states drawn by ``sample_state`` per probed view.
    :param progress: told a line after each check and each match (``troef
        check`` prints them as they come).
    :raises ConformanceError: when a check fails and ``raise_on_failure``.
    :raises OptionError: a check option or a given option is not allowed; a
        budget below 1, or one with ``full``.
    """
    if isinstance(game, type):
        given = dict(options or {})
        game = game(**given) if full else game.for_checks(**given)
    elif options:
        raise TypeError(
            "check_game takes options only with a Game class; "
            f"{game!r} has its options already"
        )
    if full and budget is not None:
        raise OptionError("the full check has no budget: give full or budget")
    if budget is not None and budget < 1:
        raise OptionError(f"budget {budget}: give a positive number of actions")
    limit = None if full else budget or DEFAULT_BUDGET
    report = ConformanceReport(
        game.name, full=full, options=dict(game.options), budget=limit
    )
    tell = progress or (lambda line: None)
    _check_pickle(game, report)
    tell(f"pickling the Game: {'failed' if report.failures else 'ok'}")
    for n_seats in sorted(seat_counts or game.seat_counts):
        run = _Run(game, n_seats, seed, probe_rate, samples, limit, report)
        run.tell = tell
        run.run(matches)
    if raise_on_failure and not report.passed:
        raise ConformanceError(report.summary())
    return report


def _check_pickle(game: Game, report: ConformanceReport) -> None:
    try:
        again = pickle.loads(pickle.dumps(game))
    except Exception as exc:
        report.failures.append(f"the Game does not pickle: {exc!r}")
        return
    if again != game or dict(again.options) != dict(game.options):
        report.failures.append("the Game changes when pickled and unpickled")


class _Run:
    """The checks for one seat count: matches, probes and their tallies."""

    def __init__(
        self,
        game: Game,
        n_seats: int,
        seed: int,
        probe_rate: float,
        samples: int,
        budget: int | None,
        report: ConformanceReport,
    ) -> None:
        self.game = game
        self.n = n_seats
        self.seed = seed
        self.probe_rate = probe_rate
        self.samples = samples
        self.budget = budget
        self.report = report
        # (seat, place) and (seat, card) -> [probes with freedom, probes that varied]
        self.place_tally: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
        self.card_tally: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
        self.tell: Callable[[str], None] = lambda line: None

    def fail(self, message: str) -> None:
        self.report.failures.append(f"[{self.n} seats] {message}")

    def run(self, matches: int) -> None:
        played = cut = 0
        for m in range(matches):
            match_seed = derive_seed("conformance", self.seed, self.n, m)
            choice_seed = derive_seed("choices", self.seed, self.n, m)
            where = f"[{self.n} seats] match {m + 1} of {matches}"
            failures = len(self.report.failures)
            try:
                match = self.play(match_seed, choice_seed, probe=True)
            except ConformanceError as exc:
                self.fail(f"match seed {match_seed}: {exc}")
                self.tell(f"{where}: FAILED")
                continue
            except Exception as exc:
                self.fail(
                    f"match seed {match_seed}: raised {type(exc).__name__}: {exc}"
                )
                self.tell(f"{where}: FAILED")
                continue
            played += 1
            self.report.matches += 1
            self.report.deals.append(match.deals)
            if match.result is None:
                cut += 1
                self.report.cut += 1
            else:
                self.check_repeatable(match_seed, choice_seed, match)
            if m < 2:
                self.check_duplicate_deals(match_seed, choice_seed, match.openings)
            verdict = "ok" if len(self.report.failures) == failures else "FAILED"
            self.tell(
                f"{where}: {len(match.log)} actions, {match.deals} deals"
                f"{', cut at the budget' if match.result is None else ''}: {verdict}"
            )
        if played and cut == played:
            self.fail(
                f"every match ({played}) reached the budget of {self.budget} actions "
                "and was cut, so results, replay and repeatability went unchecked: "
                "give the game shorter check_options, a larger budget (--budget), "
                "or run the full check (--full)"
            )
        failures = len(self.report.failures)
        self.check_hidden_places_vary()
        verdict = "ok" if len(self.report.failures) == failures else "FAILED"
        self.tell(
            f"[{self.n} seats] hidden places and cards vary in samples: {verdict}"
        )

    # -- one match --------------------------------------------------------

    def play(
        self, match_seed: int, choice_seed: int, *, probe: bool, conserve: bool = True
    ) -> _Match:
        """Play one random match to its end or to the budget.

        :param probe: check views, clones and information sets on the way.
        :param conserve: check conservation after every action (the repeat of
            a match skips it: it retraces the probed play, or fails anyway).
        """
        game, n = self.game, self.n
        state = game.new_match(n, match_seed)
        choices = random.Random(choice_seed)
        probes = random.Random(derive_seed("probes", choice_seed))
        deck = Counter(state.deck())
        log: list[str] = []
        openings: dict[int, dict[str, tuple[str, ...]]] = {
            state.deal: dict(state.card_locations())
        }
        self.check_conservation(state, deck, "at the start")
        while not state.is_over():
            if self.budget is not None and len(log) >= self.budget:
                self.report.actions += len(log)
                return _Match(log, None, openings, state.deal + 1)
            if len(log) >= MAX_ACTIONS:
                raise ConformanceError(f"no end after {MAX_ACTIONS} actions")
            seat = state.to_act
            if seat is None or not 0 <= seat < n:
                raise ConformanceError(
                    f"to_act is {seat!r} while the match is not over"
                )
            legal = state.legal_actions()
            if not legal:
                raise ConformanceError(f"seat {seat} is to act with no legal action")
            if probe:
                self.check_views(state, seat, legal)
                if probes.random() < self.probe_rate:
                    self.probe(state, probes)
                    self.check_clone(state, probes)
            action = choices.choice(legal)
            deal_before = state.deal
            state.apply(action)
            log.append(action)
            if conserve:
                self.check_conservation(
                    state, deck, f"after action {len(log)} {action!r}"
                )
            if state.deal != deal_before and not state.is_over():
                openings[state.deal] = dict(state.card_locations())
        if state.to_act is not None:
            raise ConformanceError(f"the match is over but to_act is {state.to_act!r}")
        result = state.result()
        self.check_result(result)
        self.report.actions += len(log)
        return _Match(log, result, openings, state.deal + 1)

    def check_conservation(self, state: State, deck: Counter[str], when: str) -> None:
        held: Counter[str] = Counter()
        for cards in state.card_locations().values():
            held.update(cards)
        # Neither counter holds a zero, so plain dict equality (in C) will do.
        if dict.__ne__(held, deck):
            missing = deck - held
            extra = held - deck
            raise ConformanceError(
                f"cards not conserved {when}: missing {sorted(missing.elements())}, "
                f"extra or doubled {sorted(extra.elements())}"
            )

    def check_views(self, state: State, seat: int, legal: tuple[str, ...]) -> None:
        view = state.view(seat)
        if view.seat != seat:
            raise ConformanceError(f"view({seat}).seat is {view.seat}")
        if tuple(view.legal_actions) != tuple(legal):
            raise ConformanceError(
                f"view({seat}).legal_actions {view.legal_actions} differ from the "
                f"State's {legal}"
            )

    def check_result(self, result: Result) -> None:
        n = self.n
        if not (len(result.scores) == len(result.ranks) == len(result.teams) == n):
            raise ConformanceError(f"Result has not one entry per seat: {result}")
        if result.teams != self.game.teams(n):
            raise ConformanceError(
                f"Result.teams {result.teams} differ from Game.teams "
                f"{self.game.teams(n)}"
            )
        if competition_ranks([-r for r in result.ranks], result.teams) != result.ranks:
            raise ConformanceError(
                f"ranks {result.ranks} are not a competition ranking of the teams "
                f"{result.teams} (1 = best, partners share a rank, ties 1, 1, 3)"
            )
        if self.game.ranks_follow_scores:
            up = competition_ranks(list(result.scores), result.teams)
            down = competition_ranks([-s for s in result.scores], result.teams)
            if result.ranks not in (up, down):
                raise ConformanceError(
                    f"ranks {result.ranks} do not follow scores {result.scores}"
                )
        if len(result.utilities) != n or any(
            result.ranks[a] < result.ranks[b]
            and result.utilities[a] < result.utilities[b]
            for a in range(n)
            for b in range(n)
        ):
            raise ConformanceError(
                f"utilities {result.utilities} do not agree with ranks {result.ranks}"
            )
        for k, row in enumerate(result.deal_points):
            if len(row) != n:
                raise ConformanceError(f"deal_points[{k}] has {len(row)} entries")
        for a in range(n):
            for b in range(n):
                if (
                    result.teams[a] == result.teams[b]
                    and result.scores[a] != result.scores[b]
                ):
                    raise ConformanceError(
                        f"partners {a} and {b} have different scores {result.scores}"
                    )
        if result.forfeit is not None:
            raise ConformanceError("a match without bots ended in a forfeit")

    # -- probes at one decision point ------------------------------------

    def probe(self, state: State, rng: random.Random) -> None:
        truth = state.card_locations()
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
            free = sum(1 for place in hidden if truth[place]) >= 2
            varied_places: set[str] = set()
            varied_cards: set[str] = set()
            for _ in range(self.samples):
                sample = self.game.sample_state(view, rng)
                self.report.samples += 1
                seen = sample.view(p)
                if seen != view:
                    raise ConformanceError(
                        f"sample_state(view({p})).view({p}) differs from the view: "
                        f"{_first_difference(view, seen)}"
                    )
                places = sample.card_locations()
                self.check_conservation(
                    sample, Counter(state.deck()), "in a sampled state"
                )
                where = {c: place for place in hidden for c in places.get(place, ())}
                for place in hidden:
                    if places.get(place) != truth[place]:
                        varied_places.add(place)
                for place in hidden:
                    for card in truth[place]:
                        if where.get(card) != place:
                            varied_cards.add(card)
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
        try:
            again = type(view).from_json(view.to_json())
        except Exception as exc:
            raise ConformanceError(
                f"view({p}) does not round-trip JSON: {exc!r}"
            ) from exc
        if again != view:
            raise ConformanceError(
                f"view({p}) changes through JSON: {_first_difference(view, again)}"
            )

    def check_clone(self, state: State, rng: random.Random) -> None:
        before = (dict(state.card_locations()), state.legal_actions(), state.to_act)
        views = [state.view(p) for p in range(self.n)]
        twin = state.clone()
        if (dict(twin.card_locations()), twin.legal_actions(), twin.to_act) != before:
            raise ConformanceError("clone() differs from the original")
        for _ in range(3):
            if twin.is_over():
                break
            twin.apply(rng.choice(twin.legal_actions()))
        after = (dict(state.card_locations()), state.legal_actions(), state.to_act)
        if after != before or [state.view(p) for p in range(self.n)] != views:
            raise ConformanceError("playing on a clone changed the original")

    # -- across matches ---------------------------------------------------

    def check_repeatable(
        self, match_seed: int, choice_seed: int, match: _Match
    ) -> None:
        log, result = match.log, match.result
        again = self.play(match_seed, choice_seed, probe=False, conserve=False)
        if again.log != log or again.result != result:
            self.fail(
                f"match seed {match_seed}: the same seed and choices gave a "
                "different match"
            )
        try:
            replayed = replay(self.game, self.n, match_seed, log)
        except Exception as exc:
            self.fail(f"match seed {match_seed}: replaying the log raised {exc!r}")
            return
        if dataclasses.replace(replayed, log=None) != result:
            self.fail(
                f"match seed {match_seed}: the replayed log gave {replayed}, "
                f"not {result}"
            )

    def check_duplicate_deals(
        self,
        match_seed: int,
        choice_seed: int,
        openings: dict[int, dict[str, tuple[str, ...]]],
    ) -> None:
        other_choices = derive_seed("other bots", choice_seed)
        other = self.play(match_seed, other_choices, probe=False).openings
        for deal in sorted(set(openings) & set(other)):
            if openings[deal] != other[deal]:
                self.fail(
                    f"match seed {match_seed}: deal {deal} dealt different cards when "
                    "different actions were played before it (duplicate deals break)"
                )
                return
        if 0 not in openings or 0 not in other:
            self.fail(f"match seed {match_seed}: no opening of deal 0 seen")

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


@dataclass
class _Match:
    """One random match as played: to its end, or cut at the budget."""

    log: list[str]
    #: None when the match was cut at the budget.
    result: Result | None
    #: The cards' places at the start of each deal reached.
    openings: dict[int, dict[str, tuple[str, ...]]]
    #: Deals reached (started).
    deals: int


def _first_difference(a: View, b: View) -> str:
    for f in dataclasses.fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name, None)
        if va != vb:
            return f"field {f.name!r}: {va!r} != {vb!r}"
    return f"{type(a).__name__} vs {type(b).__name__}"
