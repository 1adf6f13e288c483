"""The SPRT head-to-head format: stop as soon as the test decides.

Results arrive in any order from the workers; the monitor takes them in plan
order only, a whole duplicate group at a time, so the verdict and the point
where it was reached never depend on the number of workers. With duplicate
deals a group is a pair of matches with the seats swapped, scored on the
pentanomial model (candidate's points 0, ½, 1, 1½, 2 over the pair); without,
each match is scored on the trinomial model (loss, draw, win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.contracts.result import Result
from harness.stats.sprt import SPRT
from harness.stats.standings import pairwise_outcomes
from harness.tournament.config import TournamentConfig
from harness.tournament.format_settings import SprtSettings
from harness.tournament.plan import Job

if TYPE_CHECKING:
    from harness.tournament.store import Store

__all__ = ["SprtMonitor", "SprtVerdict", "recorded_of_planned"]


@dataclass(frozen=True)
class SprtVerdict:
    """Where an SPRT stands."""

    #: "H1" (the candidate is at least elo1 better), "H0", or "continue".
    status: str
    llr: float
    #: Wald's bounds as the test applies them: moved in by fishtest's overshoot
    #: correction (ref §2.9; one group is one batch).
    lower: float
    upper: float
    #: Samples taken: duplicate pairs (pentanomial) or matches (trinomial).
    samples: int
    model: str
    #: What elo0 and elo1 mean: "normalized" or "logistic" Elo.
    elo_model: str
    counts: tuple[int, ...]
    #: Raw logistic Elo estimate per sample and its 95% interval
    #: (biased after stopping).
    elo: float
    elo_lower: float
    elo_upper: float
    #: fishtest's median-unbiased Elo after stopping and its 95% interval (§2.10):
    #: the figure to compare across tests.
    sprt_elo: float = float("nan")
    sprt_elo_lower: float = float("nan")
    sprt_elo_upper: float = float("nan")
    #: The hypotheses, on the ``elo_model`` scale.
    elo0: float = float("nan")
    elo1: float = float("nan")

    def describe(self) -> str:
        """A few lines for a person."""
        verdict = {
            "H1": "H1 accepted: the candidate is stronger",
            "H0": "H0 accepted: the candidate is not stronger",
            "continue": "no decision yet",
        }[self.status]
        return (
            f"SPRT ({self.model}): H0 elo <= {self.elo0:g}, H1 elo >= {self.elo1:g} "
            f"in {self.elo_model} Elo; LLR {self.llr:.3f} in "
            f"[{self.lower:.3f}, {self.upper:.3f}] after {self.samples} samples "
            f"{self.counts}\nlogistic Elo per game: {self.elo:+.1f} "
            f"[{self.elo_lower:+.1f}, {self.elo_upper:+.1f}] (raw, biased after an "
            f"early stop), {self.sprt_elo:+.1f} [{self.sprt_elo_lower:+.1f}, "
            f"{self.sprt_elo_upper:+.1f}] (SPRT-adjusted, median-unbiased: the "
            "figure to compare across tests)"
            f"\n{_SCALES}\nverdict: {verdict}"
        )


#: The two Elo scales, said once wherever a verdict is printed.
_SCALES = (
    "(logistic Elo: 400 log10(s / (1 - s)) of the score s; normalized Elo: the "
    "score's distance from 1/2 in standard deviations of a game's result, "
    "fishtest's nElo, which does not depend on the draw rate)"
)


class SprtMonitor:
    """Feeds results to an SPRT in plan order and says when it has decided."""

    def __init__(self, config: TournamentConfig, jobs: Sequence[Job]) -> None:
        if config.sprt is None:
            raise ValueError("not an SPRT config")
        self._start(config.sprt, config.duplicate, jobs)

    @classmethod
    def from_store(cls, store: Store) -> SprtMonitor | None:
        """The test replayed over a database's results; None if not an SPRT."""
        snapshot = store.config_snapshot()
        if "sprt" not in snapshot:
            return None
        monitor = cls.__new__(cls)
        jobs = [Job.from_dict(m.job) for m in store.matches(void=True)]
        jobs += store.unfinished_jobs()
        monitor._start(
            SprtSettings(**snapshot["sprt"]), bool(snapshot.get("duplicate")), jobs
        )
        for match in store.matches(void=True):
            monitor.feed(Job.from_dict(match.job), match.result)
        return monitor

    def _start(
        self, settings: SprtSettings, duplicate: bool, jobs: Sequence[Job]
    ) -> None:
        self.settings = settings
        self.candidate = settings.candidate
        self.model = "pentanomial" if duplicate else "trinomial"
        groups: dict[str, list[str]] = {}
        for job in sorted(jobs, key=lambda j: j.index):
            groups.setdefault(job.group if duplicate else job.id, []).append(job.id)
        self.order = list(groups.values())
        self.scores: dict[str, float | None] = {}
        #: Groups passed over for a void match (not samples of the test).
        self.passed = 0
        self.cursor = 0
        self.sprt = SPRT(
            self.settings.elo0,
            self.settings.elo1,
            self.settings.alpha,
            self.settings.beta,
            model=self.model,
            elo_model=self.settings.elo_model,
        )
        self.status = "continue"

    def feed(self, job: Job, result: Result) -> None:
        """Take one result; advance the test over every complete group in order.

        A group with a void match (the game raised) is passed over, not
        counted: half a duplicate pair is no sample of the pentanomial model.
        """
        self.scores[job.id] = (
            None
            if result.void is not None
            else self._candidate_score(job.seating, result)
        )
        while self.status == "continue" and self.cursor < len(self.order):
            group = self.order[self.cursor]
            if not all(job_id in self.scores for job_id in group):
                break
            scores = [self.scores[job_id] for job_id in group]
            if None in scores:
                self.cursor += 1
                self.passed += 1
                continue
            self.sprt.add(sum(s for s in scores if s is not None))
            self.status = self.sprt.status
            self.cursor += 1

    def done(self) -> bool:
        """True once the test has decided (more matches would change nothing)."""
        return self.status != "continue"

    def progress(self) -> str:
        """The running test in one line, as fastchess prints it during a run."""
        o0, o1 = self.sprt.overshoot
        samples = "pairs" if self.model == "pentanomial" else "matches"
        return (
            f"SPRT LLR {self.sprt.llr:+.2f} "
            f"[{self.sprt.lower + o0:+.2f}, {self.sprt.upper - o1:+.2f}] "
            f"after {self.cursor - self.passed} {samples}"
        )

    def verdict(self) -> SprtVerdict:
        """The test's state at the last group taken."""
        estimate = self.sprt.elo_estimate()
        adjusted = self.sprt.sprt_elo()
        o0, o1 = self.sprt.overshoot
        return SprtVerdict(
            status=self.status,
            llr=self.sprt.llr,
            lower=self.sprt.lower + o0,
            upper=self.sprt.upper - o1,
            samples=self.cursor - self.passed,
            model=self.model,
            elo_model=self.settings.elo_model,
            counts=self.sprt.counts,
            elo=estimate.elo,
            elo_lower=estimate.lower,
            elo_upper=estimate.upper,
            sprt_elo=adjusted.elo,
            sprt_elo_lower=adjusted.lower,
            sprt_elo_upper=adjusted.upper,
            elo0=self.settings.elo0,
            elo1=self.settings.elo1,
        )

    def _candidate_score(self, seating: Sequence[str], result: Result) -> float:
        for a, b, score in pairwise_outcomes(seating, result):
            if a == self.candidate:
                return score
            if b == self.candidate:
                return 1.0 - score
        raise ValueError(f"the candidate {self.candidate!r} is not in {list(seating)}")


def recorded_of_planned(store: Store) -> tuple[int, int, SprtMonitor | None]:
    """(matches recorded, matches planned, the SPRT's monitor or None) of a
    database, as ``troef status`` and ``troef serve DB`` count them.

    A decided SPRT plays no more: its plan is a bound, not a target, so its
    planned count is then the recorded one.
    """
    done, planned = store.counts()
    monitor = SprtMonitor.from_store(store)
    if monitor is not None and monitor.done():
        planned = done
    return done, planned, monitor
