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
- views do not depend on the views taken before: at every probed point each
  seat's view equals the view of the same match played by ``apply`` alone,
  with no view taken on the way (a cached view keyed by too little, stale
  after a new deal, would otherwise reach the samplers built from it);
- information sets: ``sample_state(view_p).view(p) == view_p`` and, across
  samples, what p cannot see varies (a leaked fact never would);
- hidden information, at each probed decision point, for every seat p, acting
  or not, in three classes a failure names:

  (a) **twins**: each world sampled from p's view is a twin of the true State
  for p (they differ only in cards p cannot know, copies of one card included:
  the sampler places copies as it places any card). The next action, where it
  is legal in both, is narrated on both; when afterwards the places p can see
  hold the same cards in both (the action revealed nothing that differs) and
  the deal goes on, then where p's views after it are equal (the action told
  p nothing, such as a "stuk" said, that the twin would not tell), so must the
  narration be as p hears it (:func:`~harness.contracts.game.heard_by`).
  (b) **hidden card names**: no card name appears in p's view (its JSON) or in
  the narration p hears unless p has seen a copy of it in a place it can see
  (``card_locations`` minus ``hidden_from(p)``), now, earlier in the deal or
  in the deal before (a view may show the last deal's record),
  or p's information places it: every world sampled for p holds its copies in
  the same hidden places as the truth (a meld declared from the hand). A view
  leak the sampler follows is thus left to the "never varied" check below.
  (c) **sampled worlds**: every world is consistent: its view for p is p's
  view, its cards are conserved, and a State that has the optional
  ``validate()`` hook (it raises when the deal's own constraints break) passes
  it. Replaying a world's public history is not checked: the State contract
  has no public history to replay.
- duplicate deals: the same seed deals the same cards whatever is played;
- the encoding for learning bots, when the game offers one
  (:meth:`Game.encoding <harness.contracts.game.Game.encoding>`): at every
  probed decision point and for every seat, the observation has the
  encoding's shape, is float32 and finite, the mask marks exactly the view's
  legal actions, and every legal action's id names it again.

Ruling: a twin step, and the card names in the narration of an action and the
view after it, are checked only for an action within a deal: not for one that
ends a deal or the match. The next deal is dealt from the match seed, which a
sampled world does not share, so its new hands legitimately differ; and the
count at a deal's end shows cards (the skart, the last trick, the hands laid
down) that the game may still list in hidden places.

Short and full checks. By default the check is short: it plays the game that
:meth:`Game.for_checks <harness.contracts.game.Game.for_checks>` builds (the
game's ``check_options``, a low target or few deals, with any options given
laid over them), and it stops a match that reaches ``budget`` actions
(:data:`DEFAULT_BUDGET`), and it probes at most :data:`PROBES_A_MATCH` decision
points a match, fewer for more than 4 seats (:func:`probe_points`:
:data:`PROBED_VIEWS_A_MATCH` seat views a match). A match cut there has had
every check made at each action and each probe up to the cut, and its deals
take part in the duplicate deal check; it has no Result, so the checks that
need a whole match (a well-formed Result, repeatability, replay to the same
Result) are skipped for it, and the report counts it as cut. ``full=True``
(``troef check --full``) plays the game's default options (with the options
given) and has no budget beyond the endless-match guard, :data:`MAX_ACTIONS`,
which is a failure.

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
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConformanceError, OptionError
from harness.contracts.game import Game, State
from harness.contracts.result import Result, competition_ranks
from harness.contracts.seeding import derive_seed
from harness.match.information import _TOKEN, InformationChecks, _first_difference
from harness.match.referee import replay

if TYPE_CHECKING:
    from harness.contracts.encoding import Encoding
    from harness.contracts.view import View

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_ACTIONS",
    "PROBED_VIEWS_A_MATCH",
    "PROBES_A_MATCH",
    "ConformanceReport",
    "check_game",
    "probe_points",
]

#: Actions after which a match is declared endless (a failure, in either mode).
MAX_ACTIONS = 200_000
#: Actions after which the short check stops a match (it is cut, not failed).
#: Random gin rummy needs thousands of actions to finish one scoring hand; with
#: this budget about two matches in three finish, and the short check of any
#: registered game costs a few seconds.
DEFAULT_BUDGET = 10_000
#: Decision points a match of the short check probes at most (each seat's view,
#: a sampler built for it, its worlds and twins). The tarot games would probe 80
#: a match at six seats, and 25 matches (5 a seat count) took 21 s of CPU.
#: The full check probes every point it draws.
PROBES_A_MATCH = 25
#: Seat views a match of the short check probes at most: a probed point costs
#: one view, sampler and set of worlds per seat, so a game for many seats gets
#: fewer points (Triomphe Forcée, 2 to 10 seats, took 13 s of CPU with 25 points
#: a match at every seat count). Up to 4 seats this leaves PROBES_A_MATCH.
PROBED_VIEWS_A_MATCH = 100


def probe_points(n_seats: int) -> int:
    """Decision points a short-check match at ``n_seats`` probes at most."""
    return max(1, min(PROBES_A_MATCH, PROBED_VIEWS_A_MATCH // n_seats))


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
    #: Twin steps compared: a sampled world and the true State, the same next
    #: action narrated on both, the seat's views and narration after it.
    twins: int = 0
    #: Seat views encoded and checked against their legal actions (0: the game
    #: offers no encoding).
    encoded: int = 0
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
            f"{self.samples} sampled worlds, {self.twins} twin pairs"
            + (f", {self.encoded} encoded views" if self.encoded else "")
            + ": "
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


class _Run(InformationChecks):
    """The checks for one seat count: matches, probes and their tallies (the
    hidden-information ones from
    :class:`~harness.match.information.InformationChecks`)."""

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
        self.encoding = self.game_encoding()

    def game_encoding(self) -> Encoding | None:
        """The game's encoding at this table, or None if it offers none."""
        try:
            return self.game.encoding(self.n)
        except NotImplementedError:
            return None
        except Exception as exc:
            self.fail(
                f"Game.encoding({self.n}) raised {type(exc).__name__}: {exc}; a game "
                "without an encoding raises NotImplementedError"
            )
            return None

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
        if self.encoding is not None:
            self.tell(
                f"[{self.n} seats] encoding {self.encoding.fingerprint}: "
                "checked at every probed point"
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
        # Per seat, every card name it has seen in a place it can see, in this
        # deal and the one before (views tell the last deal's record).
        seen: list[set[str]] = [set() for _ in range(n)]
        last_deal: list[set[str]] = [set() for _ in range(n)]
        probed = 0
        # The same match played without views or narration (the "fresh" check).
        fresh = game.new_match(n, match_seed) if probe else None
        if probe:
            self.see(state, seen)
            # The probed match is told as it is played (narrate, not apply), so
            # that the State has told all it has to tell, as a sampled world has.
            state.narrate_start()
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
            action = choices.choice(legal)
            if probe:
                self.check_views(state, seat, legal)
                if probes.random() < self.probe_rate and (
                    self.budget is None or probed < probe_points(n)
                ):
                    probed += 1
                    assert fresh is not None
                    views = [state.view(p) for p in range(n)]
                    self.check_fresh_views(views, fresh, len(log) + 1)
                    self.check_encoding(views)
                    known = [a | b for a, b in zip(seen, last_deal, strict=True)]
                    self.probe(state, probes, action, known, len(log) + 1)
                    self.check_clone(state, probes)
            deal_before = state.deal
            if probe:
                state.narrate(action)
            else:
                state.apply(action)
            log.append(action)
            if fresh is not None:
                fresh.apply(action)
            if probe:
                if state.deal != deal_before:
                    # The action that ended the deal was played in the open.
                    played = set(_TOKEN.findall(action))
                    last_deal = [cards | played for cards in seen]
                    for cards in seen:
                        cards.clear()
                self.see(state, seen)
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

    def check_fresh_views(self, views: list[View], fresh: State, step: int) -> None:
        """Every seat's view (of a State viewed and narrated at every step)
        equals its view of ``fresh`` (the same actions applied, no view taken)."""
        for p, view in enumerate(views):
            again = fresh.view(p)
            if view != again:
                raise ConformanceError(
                    f"at action {step}, view({p}) depends on the views taken before "
                    "it: played again without views, the match gives another view "
                    f"(without views != as viewed: {_first_difference(again, view)}); "
                    "a view cached under a key that misses a change (a new deal, a "
                    "card shown again) is stale"
                )

    def check_encoding(self, views: list[View]) -> None:
        """Every seat's view encodes to the encoding's shape, finite float32,
        and its mask marks exactly the view's legal actions."""
        encoding = self.encoding
        if encoding is None:
            return
        import numpy as np  # only for a game that offers an encoding

        for p, view in enumerate(views):
            name = f"the encoding of view({p})"
            obs = encoding.encode(view)
            if obs.shape != encoding.shape or obs.dtype != np.float32:
                raise ConformanceError(
                    f"{name} is {obs.dtype} of shape {obs.shape}; the encoding "
                    f"promises float32 of shape {encoding.shape}"
                )
            if not np.isfinite(obs).all():
                raise ConformanceError(
                    f"{name} holds a value that is not finite at "
                    f"{int(np.flatnonzero(~np.isfinite(obs))[0])}"
                )
            mask = encoding.mask(view)
            if mask.shape != (encoding.num_actions,) or mask.dtype != np.bool_:
                raise ConformanceError(
                    f"the mask of view({p}) is {mask.dtype} of shape {mask.shape}; "
                    f"expected bool of shape ({encoding.num_actions},)"
                )
            marked = {encoding.actions.action(int(i)) for i in np.flatnonzero(mask)}
            if marked != set(view.legal_actions):
                raise ConformanceError(
                    f"the mask of view({p}) marks {sorted(marked)}, but its legal "
                    f"actions are {sorted(view.legal_actions)}"
                )
            for action in view.legal_actions:
                again = encoding.actions.action(encoding.actions.action_id(action))
                if again != action:
                    raise ConformanceError(
                        f"the encoding's action id of {action!r} names {again!r}"
                    )
            self.report.encoded += 1

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
