"""The strength ladders of docs/SEARCH.md: play them, then write their table.

Run from the repository root with the project's venv::

    python -m bench.ladder --games all --workers 2  # play what is missing, the table
    python -m bench.ladder --games klaverjassen,bezique --workers 1
    python -m bench.ladder --table-only              # the table alone, no play

Each ladder is a troef config, ``tournaments/ladder-<game>.toml``, played by
``troef run``'s own scheduler (:func:`harness.tournament.scheduler.run_tournament`)
into ``bench/results/ladder/ladder-<game>.sqlite`` (``--databases``). A run
that is stopped resumes where it stopped: the scheduler plays only the matches
a database lacks, so rerunning the same command finishes the night's work.

The table is written between :data:`BEGIN` and :data:`END` in docs/SEARCH.md,
the only generated part of that file. Its figures are ``troef report``'s, not
a second copy: the pairwise statistics of :func:`harness.report.model.stored_report`
(Wilcoxon's signed-rank test on the paired per-seed differences, Holm-corrected
across the game's pairs; Elo gap and 95% interval over duplicate sets) and the
paired differences of :func:`harness.stats.significance.paired_differences`.

Rulings (where issue 35 is silent):

1. The expected order is the config's entrant order, lowest first, except that
   the search bots (:data:`SEARCH_BOTS`) share the top: the ladder claims
   random < heuristic < each search bot, and reports ismcts against pimc
   without an expected winner (a significant gap there names the one ahead,
   never "REVERSED").
2. A step is *significant* when its Holm-adjusted p is below :data:`ALPHA` and
   the higher entrant is ahead, *REVERSED* when the lower one is significantly
   ahead, else *no*.
3. For a step that is not significant, the table gives the paired seeds that
   would give it 80% power (:func:`seeds_needed`) at Bonferroni's level
   ``ALPHA / m`` for the game's ``m`` pairs: the strictest threshold of Holm's
   procedure, so that a sample of that size is enough whatever the other pairs
   show; and never fewer than the test needs to reach that level at all.
4. A ladder's strength is the code's: each run records the commit it played
   with (:func:`record_code`, ``+changes`` when the bots' or games' files
   differ from it) in the database, and the table names every commit that
   played into a game's results, so a ladder resumed after the bots changed
   says so.
5. The databases are caches, not committed (a new checkout has none); what the
   table is generated from is: after every run, finished or stopped, each
   ladder's results are archived as text in ``bench/ladder-results/<config>.jsonl``
   (:func:`write_archive`: the config, the commits that played, and per match
   its job, result and thinking times, without the action log, which is most
   of a database's size and no part of the table). A checkout without a
   database restores it from the archive (:func:`restore`) before it plays or
   writes the table, and a database that lacks some of its archive's matches
   (an archive brought from another checkout) gets them, so a ladder played
   over several sessions or machines accumulates, and the committed table can
   be regenerated anywhere. An
   archive of another config is refused (but see rulings 6 and 7): deleting
   it replays that ladder.
6. A bot option added after an archive was made does not make it another
   config's when the ladder leaves it at its default (:func:`with_new_defaults`):
   a new option's default keeps the bot's old play, as PIMC's ``prior`` does
   (it draws no random number unless set). The archive's matches are renamed
   to the ids they have in today's plan, which digest the options. ``troef
   run`` itself stays strict: its database keeps the old ids, so it refuses
   rather than play every match again beside the old ones.
7. An archive whose config differs from today's in some entrants alone (their
   bot, options or clock; :func:`changed_entrants`) restores the matches of
   the others and leaves those of the changed entrants to be played again, as
   a tuned bot should be: every pair it sits in is measured anew, the pairs
   without it keep their results. Any other change (the game, its options, the
   seeds, the entrants' list) refuses the archive, but see ruling 8.
8. A ladder lengthened (a larger ``matches``, everything else as archived)
   keeps its archived matches: a match's seed and id depend on its index, not
   on how many follow (:func:`harness.tournament.plan.plan`), so the archive's
   matches are the new plan's first and only the seeds added are played. A
   shorter ``matches`` refuses the archive (its table would drop results).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import json
import math
import sqlite3
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: bench/ladder.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.contracts.errors import ConfigError
from harness.contracts.result import Result
from harness.report.model import stored_report
from harness.stats.ratings import PairResult
from harness.stats.significance import PairStats, pair_statistics, paired_differences
from harness.tournament.config import TournamentConfig, load_config
from harness.tournament.plan import plan
from harness.tournament.progress import Progress
from harness.tournament.scheduler import Interrupted, run_tournament
from harness.tournament.store import Store, describe_changes

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENTS = ROOT / "tournaments"
DOC = ROOT / "docs" / "SEARCH.md"
DATABASES = ROOT / "bench" / "results" / "ladder"
#: The committed record of every ladder's results (ruling 5).
ARCHIVES = ROOT / "bench" / "ladder-results"
#: The archive's layout; a reader refuses another.
ARCHIVE_FORMAT = 1

BEGIN = "<!-- BEGIN generated ladder table: python -m bench.ladder --table-only -->"
END = "<!-- END generated ladder table -->"

#: Family-wise significance level of each game's pairs (Holm).
ALPHA = 0.05
#: Power the needed sample is sized for.
POWER = 0.8
#: The search bots: they share the top of every ladder (ruling 1).
SEARCH_BOTS = frozenset({"ismcts", "pimc"})
#: Asymptotic relative efficiency of Wilcoxon's signed-rank test to the t-test
#: under normal differences, 3/π (Lehmann 1975, Nonparametrics, §2.4): the
#: rank test needs 1/0.955 times the t-test's sample.
WILCOXON_ARE = 3 / math.pi

HEADER = (
    "| game (matches) | step (lower < higher) | W-D-L of higher | paired seeds "
    "| Elo gap [95%] | p (Holm) | significant | seeds needed (80% power) |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- |"
)
THINKING_HEADER = (
    "| game | ismcts: s per decision (longest) | pimc: s per decision (longest) "
    "| played by |\n"
    "| --- | --- | --- | --- |"
)
#: The database table of the commits that played into a ladder (ruling 4).
CODE_TABLE = "bench_ladder_code"
#: The folders whose changes change a result (the bots, the games, the referee).
CODE_FOLDERS = ("bots", "games", "harness")


def ladder_configs(directory: Path = TOURNAMENTS) -> dict[str, Path]:
    """Every ladder config of ``directory``, by game: ``ladder-<game>.toml``."""
    return {
        path.stem.removeprefix("ladder-"): path
        for path in sorted(directory.glob("ladder-*.toml"))
    }


def choose(games: str, available: Sequence[str]) -> list[str]:
    """The games of ``--games``: ``all`` or names separated by commas.

    :raises ConfigError: a name with no ladder config (the accepted ones named).
    """
    if games.strip() == "all":
        return list(available)
    names = [name.strip() for name in games.split(",") if name.strip()]
    unknown = [name for name in names if name not in available]
    if unknown or not names:
        raise ConfigError(
            "--games: no ladder config tournaments/ladder-<game>.toml for "
            f"{', '.join(unknown) or repr(games)}; "
            f"accepted: all, {', '.join(available)}"
        )
    return names


def ladder_config(path: Path, databases: Path = DATABASES) -> TournamentConfig:
    """The config of ``path`` with its database in ``databases``."""
    config = load_config(path)
    return dataclasses.replace(config, database=databases / f"{path.stem}.sqlite")


def code_version(root: Path = ROOT) -> str:
    """The commit of ``root`` (12 digits), ``+changes`` when its bots, games or
    harness differ from it; ``unknown`` outside a git checkout."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        changed = git("status", "--porcelain", "--", *CODE_FOLDERS)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+changes" if changed else "")


def record_code(config: TournamentConfig, code: str) -> None:
    """Record in ``config``'s database (made if missing) that ``code`` plays into it."""
    config.database.parent.mkdir(parents=True, exist_ok=True)
    with Store.open(config.database, config) as store:
        add_codes(store, [code])


def add_codes(store: Store, codes: Sequence[str]) -> None:
    """Record in ``store`` that ``codes`` played into it, in their order."""
    with store.db:
        store.db.execute(
            f"CREATE TABLE IF NOT EXISTS {CODE_TABLE} (code TEXT PRIMARY KEY)"
        )
        store.db.executemany(
            f"INSERT OR IGNORE INTO {CODE_TABLE} VALUES (?)", [(c,) for c in codes]
        )


def recorded_codes(store: Store) -> list[str]:
    """The commits that played into ``store``'s ladder, in the order they first did."""
    try:
        rows = store.db.execute(f"SELECT code FROM {CODE_TABLE} ORDER BY rowid")
    except sqlite3.OperationalError:  # a ladder played before ruling 4
        return []
    return [code for (code,) in rows]


def archive_of(config: TournamentConfig, archives: Path = ARCHIVES) -> Path:
    """The archive of ``config``'s ladder: named as its database."""
    return archives / f"{config.database.stem}.jsonl"


def write_archive(config: TournamentConfig, archive: Path) -> int:
    """Write every match of ``config``'s database to ``archive`` (ruling 5):
    one JSON line of the config and the commits, then one per match in plan
    order. Written to a temporary file first, so a kill leaves the old one.

    :returns: the matches archived.
    """
    with Store.existing(config.database) as store:
        matches = list(store.matches(void=True))
        thinking = store.thinking_by_match()
        codes = recorded_codes(store)
    header = {"format": ARCHIVE_FORMAT, "config": config.snapshot(), "codes": codes}
    lines = [json.dumps(header, sort_keys=True)]
    for match in matches:
        result = match.result.to_dict()
        del result["log"]
        row = {
            "job": match.job["id"],
            "result": result,
            "thinking": thinking.get(match.job["id"]),
        }
        lines.append(json.dumps(row, sort_keys=True))
    archive.parent.mkdir(parents=True, exist_ok=True)
    partial = archive.with_suffix(".jsonl.partial")
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(archive)
    return len(matches)


def with_new_defaults(config: TournamentConfig, old: dict[str, Any]) -> dict[str, Any]:
    """Snapshot ``old`` with every bot option it lacks filled in at the
    option's default, for the entrants of ``config`` whose bot is the same
    (ruling 6): an option added to a bot since, at its default, plays as the
    bot did before the option existed."""
    upgraded: dict[str, Any] = copy.deepcopy(old)
    for entrant in config.entrants:
        then = upgraded.get("entrants", {}).get(entrant.label)
        if isinstance(then, dict) and then.get("bot") == entrant.bot:
            then["options"] = {**dict(entrant.defaults), **then.get("options", {})}
    return upgraded


def changed_entrants(config: TournamentConfig, old: dict[str, Any]) -> set[str] | None:
    """The entrants of ``config`` that play otherwise than snapshot ``old``
    recorded (another bot, options or clock; ruling 7), after
    :func:`with_new_defaults`; None when more than entrants differ."""
    then, now = with_new_defaults(config, old), config.snapshot()
    aside = {"entrants": None, "matches": None}  # ruling 8: a ladder may grow
    if {**then, **aside} != {**now, **aside} or now["matches"] < then["matches"]:
        return None
    if set(then.get("entrants", {})) != set(now["entrants"]):
        return None
    return {
        label for label, e in now["entrants"].items() if then["entrants"][label] != e
    }


def config_as_recorded(
    config: TournamentConfig, old: dict[str, Any]
) -> TournamentConfig:
    """``config`` with its entrants' options and its length as snapshot ``old``
    recorded them."""
    entrants = tuple(
        dataclasses.replace(
            e, options=tuple(sorted(old["entrants"][e.label]["options"].items()))
        )
        for e in config.entrants
    )
    return dataclasses.replace(config, entrants=entrants, matches=old["matches"])


def restore(config: TournamentConfig, archive: Path) -> int:
    """Make ``config``'s missing database from ``archive``, or add to it the
    archived matches it lacks (ruling 5); nothing when no archive exists.

    :returns: the matches newly recorded (not those of an entrant changed
        since, ruling 7).
    :raises ConfigError: the archive is of another config (beyond rulings 6
        and 7) or layout, or names a match the config does not plan.
    """
    if not archive.exists():
        return 0
    fresh = not config.database.exists()
    header, *rows = (
        json.loads(line) for line in archive.read_text(encoding="utf-8").splitlines()
    )
    if header.get("format") != ARCHIVE_FORMAT:
        raise ConfigError(
            f"{archive}: archive format {header.get('format')!r}; this version "
            f"reads {ARCHIVE_FORMAT}"
        )
    old = header["config"]
    changed = changed_entrants(config, old)
    if changed is None:
        changes = describe_changes(old, config.snapshot())
        raise ConfigError(
            f"{archive}: results of another config than {config.path} ({changes}); "
            "delete the archive to play that ladder afresh, or restore the config"
        )
    # A job's id digests its bots' options, so an archive made before a bot
    # gained an option names its matches by the ids of the plan it then had.
    then = plan(config_as_recorded(config, old))
    # Ruling 8: a lengthened plan begins with the archived one, job for job.
    jobs = {
        was.id: job for was, job in zip(then, plan(config)[: len(then)], strict=True)
    }
    played = []
    dropped = 0
    for row in rows:
        job = jobs.get(row["job"])
        if job is None:
            raise ConfigError(
                f"{archive}: match {row['job']} is not in {config.path}'s plan"
            )
        if changed.intersection(job.seating):
            dropped += 1
            continue
        result = Result.from_dict({**row["result"], "log": None})
        if row["thinking"] is not None:
            spent = tuple((int(d), float(t), float(x)) for d, t, x in row["thinking"])
            result = dataclasses.replace(result, thinking=spent)
        played.append((job, result))
    config.database.parent.mkdir(parents=True, exist_ok=True)
    with Store.open(config.database, config) as store:
        store.add_jobs(jobs.values())
        written = store.record_many(played)
        add_codes(store, header["codes"])
    if dropped and fresh:  # said once, when the database is made
        changes = describe_changes(old, config.snapshot())
        print(
            f"{archive}: {dropped} matches of {', '.join(sorted(changed))} left to "
            f"play again ({changes}); {len(played)} restored",
            file=sys.stderr,
        )
    return len(written)


def play(config: TournamentConfig, workers: int | None) -> None:
    """Play every match of ``config`` its database lacks (``troef run``'s scheduler)."""
    record_code(config, code_version())
    summary = run_tournament(config, workers=workers, progress=Progress())
    print(
        f"{config.game}: played {summary.played} matches in {summary.seconds:.0f}s "
        f"({summary.already_done} were already recorded; {summary.forfeits} forfeits)",
        file=sys.stderr,
    )


@dataclass(frozen=True)
class Step:
    """One pair of a game's ladder, oriented lower < higher (ruling 1)."""

    lower: str
    higher: str
    #: False for the pair of search bots: no winner is expected.
    ordered: bool
    #: The higher entrant's pair results against the lower.
    wins: int
    draws: int
    losses: int
    seeds: int
    #: Elo of higher minus lower, and its 95% interval.
    elo: float
    low: float
    high: float
    p_holm: float
    #: Mean and standard deviation of the paired differences (higher - lower).
    mean: float
    sd: float
    #: Holm's family size: the game's pairs.
    pairs: int

    @property
    def verdict(self) -> str:
        """``significant``, ``REVERSED`` or ``no`` (ruling 2); unordered pairs
        name the one ahead."""
        if self.p_holm >= ALPHA:
            return "no"
        ahead = self.elo > 0
        if not self.ordered:
            return f"yes, {self.higher if ahead else self.lower} ahead"
        return "yes" if ahead else "REVERSED"

    def needed(self) -> int | None:
        """Paired seeds for 80% power at ``ALPHA / pairs`` (ruling 3)."""
        return seeds_needed(self.mean, self.sd, ALPHA / self.pairs, POWER)


def seeds_needed(mean: float, sd: float, alpha: float, power: float) -> int | None:
    """Paired samples a two-sided test at ``alpha`` needs to detect ``mean``.

    The normal approximation for a one-sample (paired) test, n = ((z(1 - alpha/2)
    + z(power))·sd/mean)² (Chow, Shao & Wang 2008, Sample Size Calculations in
    Clinical Research, §3.1), divided by Wilcoxon's efficiency 3/π, rounded
    up; then raised to the first size at which troef's test can give a p below
    ``alpha`` at all (:func:`p_floor`: with every seed won alike, a small sample
    cannot, however clear). None when no difference was observed (mean 0: no
    sample is enough).
    """
    if mean == 0:
        return None
    normal = statistics.NormalDist()
    z = normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power)
    n = max(2, math.ceil((z * sd / mean) ** 2 / WILCOXON_ARE))
    while p_floor(n) >= alpha:
        n += 1
    return n


@functools.cache
def p_floor(seeds: int) -> float:
    """The smallest p of troef's paired test on ``seeds`` paired seeds, every one
    won by the same margin: :attr:`PairStats.p_floor`, from troef's own code."""
    results = [PairResult("a", "b", 1.0, group=str(i)) for i in range(seeds)]
    (pair,) = pair_statistics(results, paired={("a", "b"): [1.0] * seeds})
    return pair.p_floor


def steps(config: TournamentConfig, store: Store) -> list[Step]:
    """The game's pairs as ``troef report`` tests them, in the config's order."""
    order = [entrant.label for entrant in config.entrants]
    rank = {
        label: min(order.index(x) for x in SEARCH_BOTS if x in order)
        if label in SEARCH_BOTS
        else order.index(label)
        for label in order
    }
    report = stored_report(store)
    diffs = paired_differences(
        (m.job["seating"], m.result, m.job["group"]) for m in store.matches()
    )
    out = []
    for lower_index, lower in enumerate(order):
        for higher in order[lower_index + 1 :]:
            pair = _find(report.pairs, lower, higher)
            if pair is None:
                continue
            out.append(_oriented(pair, lower, higher, rank, diffs, len(report.pairs)))
    return out


def _find(pairs: Sequence[PairStats], x: str, y: str) -> PairStats | None:
    return next((p for p in pairs if {p.a, p.b} == {x, y}), None)


def _oriented(
    pair: PairStats,
    lower: str,
    higher: str,
    rank: dict[str, int],
    diffs: dict[tuple[str, str], list[float]],
    pairs: int,
) -> Step:
    # PairStats holds a's view of a < b by name; the table reads higher's.
    flip = pair.a != higher
    d = diffs.get((pair.a, pair.b), [])
    mean = statistics.fmean(d) if d else 0.0
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    return Step(
        lower=lower,
        higher=higher,
        ordered=rank[lower] < rank[higher],
        wins=pair.losses if flip else pair.wins,
        draws=pair.draws,
        losses=pair.wins if flip else pair.losses,
        seeds=pair.samples,
        elo=-pair.elo if flip else pair.elo,
        low=-pair.upper if flip else pair.lower,
        high=-pair.lower if flip else pair.upper,
        p_holm=pair.p_holm,
        mean=-mean if flip else mean,
        sd=sd,
        pairs=pairs,
    )


def _elo(x: float) -> str:
    return "-" if math.isinf(x) or math.isnan(x) else f"{round(x):+d}"


def _needed(step: Step) -> str:
    if step.verdict != "no":
        return ""
    if step.seeds < 2:
        return "a spread needs two seeds"
    n = step.needed()
    if n is None:
        return "no difference observed"
    against = step.ordered and step.mean < 0
    return f"{n}" + (" (lower ahead)" if against else "")


def rows(game: str, config: TournamentConfig) -> list[str]:
    """The table's rows of one game; one row saying "not run yet" without results."""
    if not config.database.exists():
        return [f"| {game} | not run yet | | | | | | |"]
    with Store.existing(config.database) as store:
        done, planned = store.counts()
        if done == 0:
            return [f"| {game} (0/{planned}) | not run yet | | | | | | |"]
        found = steps(config, store)
    out = []
    for step in found:
        joiner = "<" if step.ordered else "vs"
        out.append(
            f"| {game} ({done}/{planned}) | {step.lower} {joiner} {step.higher} "
            f"| {step.wins}-{step.draws}-{step.losses} | {step.seeds} "
            f"| {_elo(step.elo)} [{_elo(step.low)}, {_elo(step.high)}] "
            f"| {step.p_holm:.2g} | {step.verdict} | {_needed(step)} |"
        )
    return out


def thinking_row(game: str, config: TournamentConfig) -> str | None:
    """The search bots' mean and longest seconds per decision in ``game``, as the
    referee measured them (``Store.thinking``); None before a match is recorded."""
    if not config.database.exists():
        return None
    with Store.existing(config.database) as store:
        spent = {entrant: rest for entrant, *rest in store.thinking()}
        codes = recorded_codes(store)
    cells = []
    for bot in sorted(SEARCH_BOTS):
        if bot not in spent or not spent[bot][0]:
            return None
        decisions, total, longest = spent[bot]
        cells.append(f"{total / decisions:.3f} ({longest:.2f})")
    cells.append(", ".join(codes) or "not recorded")
    return f"| {game} | {' | '.join(cells)} |"


def table(configs: dict[str, TournamentConfig]) -> str:
    """The whole generated table, every ladder in ``configs``, and the search
    bots' time per decision in those played (equal time, as measured)."""
    lines = [HEADER]
    for game, config in configs.items():
        lines.extend(rows(game, config))
    thinking = [row for g, c in configs.items() if (row := thinking_row(g, c))]
    if thinking:
        lines += ["", THINKING_HEADER, *thinking]
    return "\n".join(lines)


def write_table(text: str, doc: Path = DOC) -> None:
    """Replace what lies between :data:`BEGIN` and :data:`END` in ``doc``.

    :raises ConfigError: the markers are missing, repeated or out of order.
    """
    content = doc.read_text(encoding="utf-8")
    if content.count(BEGIN) != 1 or content.count(END) != 1:
        raise ConfigError(
            f"{doc}: expected the markers {BEGIN!r} and {END!r} once each; found "
            f"{content.count(BEGIN)} and {content.count(END)}"
        )
    if content.index(END) < content.index(BEGIN):
        raise ConfigError(f"{doc}: the marker {END!r} comes before {BEGIN!r}")
    head, rest = content.split(BEGIN)
    _, tail = rest.split(END)
    doc.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Play the chosen ladders (unless ``--table-only``), then write the table."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.ladder", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", help="all, or ladder games separated by commas (needed to play)"
    )
    parser.add_argument("--workers", type=int, default=None, help="worker processes")
    parser.add_argument(
        "--table-only", action="store_true", help="write the table without playing"
    )
    parser.add_argument(
        "--databases", type=Path, default=DATABASES, help="folder of the databases"
    )
    parser.add_argument(
        "--tournaments", type=Path, default=TOURNAMENTS, help="folder of the configs"
    )
    parser.add_argument(
        "--archives", type=Path, default=ARCHIVES, help="folder of the archives"
    )
    parser.add_argument("--doc", type=Path, default=DOC, help="the page of the table")
    args = parser.parse_args(argv)
    available = ladder_configs(args.tournaments)
    if args.games is None and not args.table_only:
        # A night's run is never started by a bare command.
        parser.error("--games is needed (all, or names separated by commas)")
    try:
        chosen = [] if args.games is None else choose(args.games, list(available))
    except ConfigError as exc:
        parser.error(str(exc))
    configs = {
        game: ladder_config(path, args.databases) for game, path in available.items()
    }
    try:
        for config in configs.values():
            restore(config, archive_of(config, args.archives))
    except ConfigError as exc:
        parser.error(str(exc))
    if not args.table_only:
        for game in chosen:
            config = configs[game]
            archive = archive_of(config, args.archives)
            try:
                play(config, args.workers)
            except Interrupted:
                # Not troef run's advice: that would play into the config's
                # own database, not this ladder's.
                with Store.existing(config.database) as store:
                    done, planned = store.counts()
                print(
                    f"bench.ladder: stopped: {done} of {planned} matches of the "
                    f"{game} ladder are recorded in {config.database} and archived "
                    f"in {archive}; rerun this command to resume every ladder it "
                    "names",
                    file=sys.stderr,
                )
                return 130
            finally:  # a failed run's matches are kept too
                if config.database.exists():
                    write_archive(config, archive)
    # Every ladder's rows, played now or before: the table is the databases'.
    write_table(table(configs), args.doc)
    print(f"wrote the ladder table of {len(configs)} games into {args.doc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
