"""Cheating bots: each tries to see a hidden hand, and reports what it found.

At its first decision each thief writes a JSON report to the file named by its
``report`` option: ``{"hand": [...] or null, "how": ..., "probes": {...}}``,
where ``hand`` is its guess of the next seat's hand at that moment. The tests
compare it with the truth, in-process (where thieves may succeed: in-process
bots are trusted code) and in process isolation (where they must find nothing).

The thieves, for the toy game:

- ``gc-thief`` walks ``gc.get_objects()`` for the live State;
- ``frame-thief`` walks the call stack (``sys._getframe``) for a State, or for
  the match seed to re-deal with;
- ``config-thief`` looks for the tournament config (environment, working
  directory, the parent's cwd and command line) to recover the seed;
- ``proc-thief`` probes the parent process through ``/proc``. It also runs
  without troef at all (``python cheating_bots.py REPORT``), so that a bot
  running as another user, under a Python that user can reach, can probe too.
"""

from __future__ import annotations

import json
import os
import sys


def probe_parent() -> dict[str, str]:
    """Try to read the parent's environment, command line, memory and cwd via /proc."""
    ppid = os.getppid()
    probes: dict[str, str] = {}
    for name in ("environ", "cmdline"):
        try:
            with open(f"/proc/{ppid}/{name}", "rb") as f:
                data = f.read()
            probes[name] = "read: " + data.replace(b"\0", b" ").decode(
                "utf-8", "replace"
            )
        except OSError as exc:
            probes[name] = f"refused: {type(exc).__name__}"
    try:
        with open(f"/proc/{ppid}/maps") as maps, open(f"/proc/{ppid}/mem", "rb") as mem:
            for line in maps:
                span, perms = line.split()[:2]
                if perms.startswith("r"):
                    start = int(span.split("-")[0], 16)
                    mem.seek(start)
                    probes["mem"] = f"read: {len(mem.read(4096))} bytes"
                    break
    except OSError as exc:
        probes["mem"] = f"refused: {type(exc).__name__}"
    try:
        probes["cwd"] = "read: " + ", ".join(sorted(os.listdir(f"/proc/{ppid}/cwd")))
    except OSError as exc:
        probes["cwd"] = f"refused: {type(exc).__name__}"
    probes["own-environ"] = " ".join(sorted(os.environ))
    probes["own-cwd"] = os.getcwd()
    probes["own-fds"] = " ".join(sorted(os.listdir("/proc/self/fd"), key=int))
    return probes


def _raw_proc_thief(report: str) -> None:
    """A stdlib-only protocol bot that probes /proc at its first decision."""
    out = sys.stdout
    reported = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            out.write('{"type":"ready"}\n')
        elif message["type"] == "act":
            if not reported:
                reported = True
                with open(report, "w") as f:
                    json.dump(
                        {"hand": None, "how": "proc", "probes": probe_parent()}, f
                    )
            legal = message["view"]["legal_actions"]
            out.write(json.dumps({"type": "action", "action": legal[0]}) + "\n")
        out.flush()


if __name__ == "__main__":
    _raw_proc_thief(sys.argv[1])
    sys.exit(0)


# -- plugin thieves (these need troef) ------------------------------------------

import gc  # noqa: E402
import tomllib  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from harness import Bot, Option, State, View, hookimpl  # noqa: E402
from harness.contracts.seeding import bot_seed  # noqa: E402


class Thief(Bot):
    """Plays the first legal action; at its first decision, steals and reports."""

    name = "thief"
    option_specs = (Option("report", "", "file for the findings"),)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reported = False

    def act(self, view: View) -> str:
        if not self.reported:
            self.reported = True
            hand, how, probes = self.steal(view)
            with open(self.options["report"], "w") as f:
                json.dump({"hand": hand, "how": how, "probes": probes}, f)
        return view.legal_actions[0]

    def steal(self, view: View) -> tuple[list[str] | None, str, dict[str, str]]:
        raise NotImplementedError

    def next_seat(self, view: View) -> int:
        return (view.seat + 1) % len(view.points)  # type: ignore[attr-defined]

    def hand_in(self, state: State, view: View) -> list[str]:
        return sorted(state.view(self.next_seat(view)).hand)  # type: ignore[attr-defined]

    def hand_from_seed(self, seed: int, view: View) -> list[str] | None:
        """Re-deal the match from ``seed`` and replay what the view saw played."""
        if bot_seed(seed, self.seat) != self.seed:
            return None  # not this match's seed
        state = self.game.new_match(len(view.points), seed)  # type: ignore[attr-defined]
        for _, card in view.played:  # type: ignore[attr-defined]
            state.apply(card)
        return self.hand_in(state, view)

    def is_my_state(self, obj: object, view: View) -> bool:
        return (
            isinstance(obj, State)
            and obj.to_act == self.seat
            and obj.view(self.seat) == view
        )


class GcThief(Thief):
    name = "gc-thief"

    def steal(self, view: View) -> tuple[list[str] | None, str, dict[str, str]]:
        states = [o for o in gc.get_objects() if isinstance(o, State)]
        for state in states:
            if self.is_my_state(state, view):
                return self.hand_in(state, view), "gc", {"states": str(len(states))}
        return None, "gc", {"states": str(len(states))}


class FrameThief(Thief):
    name = "frame-thief"

    def steal(self, view: View) -> tuple[list[str] | None, str, dict[str, str]]:
        frame = sys._getframe(1)
        seen = []
        while frame is not None:
            seen.append(frame.f_code.co_name)
            for value in list(frame.f_locals.values()):
                inner = getattr(value, "gi_frame", None)  # a suspended generator
                candidates = [value, *(inner.f_locals.values() if inner else ())]
                for candidate in candidates:
                    if self.is_my_state(candidate, view):
                        return self.hand_in(candidate, view), "frame:state", {}
            seed = frame.f_locals.get("seed")
            if isinstance(seed, int) and seed != self.seed:
                hand = self.hand_from_seed(seed, view)
                if hand is not None:
                    return hand, "frame:seed", {}
            frame = frame.f_back  # type: ignore[assignment]
        return None, "frame", {"frames": " < ".join(seen)}


class ConfigThief(Thief):
    name = "config-thief"

    def steal(self, view: View) -> tuple[list[str] | None, str, dict[str, str]]:
        places: list[Path] = []
        if "TROEF_CONFIG" in os.environ:
            places.append(Path(os.environ["TROEF_CONFIG"]))
        places += sorted(Path.cwd().glob("*.toml"))
        ppid = os.getppid()
        try:
            places += sorted(Path(f"/proc/{ppid}/cwd").glob("*.toml"))
        except OSError:
            pass
        try:
            with open(f"/proc/{ppid}/cmdline", "rb") as f:
                places += [
                    Path(a.decode())
                    for a in f.read().split(b"\0")
                    if a.endswith(b".toml")
                ]
        except OSError:
            pass
        probes = {"places": " ".join(str(p) for p in places)}
        for place in places:
            try:
                seed = tomllib.loads(place.read_text())["seed"]
            except (OSError, KeyError, tomllib.TOMLDecodeError):
                continue
            hand = self.hand_from_seed(seed, view)
            if hand is not None:
                return hand, f"config:{place}", probes
        return None, "config", probes


class ProcThief(Thief):
    name = "proc-thief"

    def steal(self, view: View) -> tuple[list[str] | None, str, dict[str, str]]:
        return None, "proc", probe_parent()


class SeedCracker(Bot):
    """Searches master seeds 0..``seeds`` and match indexes 0..``indexes`` with
    the public recipe (``plan``: match seed = derive_seed("match", master, m))
    for the one whose ``bot_seed`` is its own; found, it could deal every hand.

    Appends one JSON line per match to ``report``: ``{"found": [master, m] or
    null, "tried": n}``. Plays the first legal action.
    """

    name = "seed-cracker"
    option_specs = (
        Option("report", "", "file for the findings"),
        Option("seeds", 64, "master seeds to try"),
        Option("indexes", 16, "match indexes to try"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from harness.contracts.seeding import derive_seed

        found = None
        tried = 0
        for master in range(self.options["seeds"]):
            for m in range(self.options["indexes"]):
                tried += 1
                match_seed = derive_seed("match", master, m)
                if bot_seed(match_seed, self.seat) == self.seed:
                    found = [master, m]
                    break
            if found:
                break
        with open(self.options["report"], "a") as f:
            f.write(json.dumps({"found": found, "tried": tried}) + "\n")

    def act(self, view: View) -> str:
        return view.legal_actions[0]


class HandCracker(SeedCracker):
    """The same search, matched on its first hand instead of its bot seed: a
    master seed and index whose deal gives it this hand (no seed needed)."""

    name = "hand-cracker"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Bot.__init__(self, *args, **kwargs)
        self.searched = False

    def act(self, view: View) -> str:
        if not self.searched:
            self.searched = True
            from harness.contracts.seeding import derive_seed

            n = len(view.points)  # type: ignore[attr-defined]
            found, tried = None, 0
            for master in range(self.options["seeds"]):
                for m in range(self.options["indexes"]):
                    tried += 1
                    match_seed = derive_seed("match", master, m)
                    state = self.game.new_match(n, match_seed)
                    hand = state.view(self.seat).hand  # type: ignore[attr-defined]
                    if view.deal == 0 and hand == view.hand:  # type: ignore[attr-defined]
                        found = [master, m]
                        break
                if found:
                    break
            with open(self.options["report"], "a") as f:
                f.write(json.dumps({"found": found, "tried": tried}) + "\n")
        return view.legal_actions[0]


#: What a Rememberer process has seen: (its hand at a deal's start, the other
#: seat's cards it saw played in that deal), for the toy game at two seats.
_SEEN: list[tuple[frozenset[str], set[str]]] = []


class Rememberer(Bot):
    """Remembers the deals it saw; predicts the other seat's hand in a twin.

    With duplicate deals the same cards come again in rotated seats: holding
    what the other seat held in a remembered deal, it predicts the other seat
    now holds what it held then. It keeps its memory in the process and in a
    file of its working folder (``memory.json``), reads both at every deal, and
    appends one JSON line per deal to ``report``: ``{"predicted": n, "right":
    n, "cwd": ...}`` (cards predicted, and those the other seat then played).
    """

    name = "rememberer"
    option_specs = (
        Option("report", "", "file for the findings"),
        Option("store", "", "a file outside its folder to keep memory in too"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deal = -1
        self.record: tuple[frozenset[str], set[str]] | None = None
        self.prediction: frozenset[str] = frozenset()

    def _memory(self) -> list[tuple[frozenset[str], set[str]]]:
        seen = list(_SEEN)
        for path in ("memory.json", self.options["store"]):
            try:
                with open(path) as f:
                    seen += [(frozenset(a), set(b)) for a, b in json.load(f)]
            except (OSError, ValueError):
                pass
        return seen

    def _save(self) -> None:
        for path in ("memory.json", self.options["store"]):
            if not path:
                continue
            memory = _SEEN
            if path != "memory.json":  # shared: what other processes wrote too
                memory = self._memory()
            try:
                with open(path, "w") as f:
                    json.dump([[sorted(a), sorted(b)] for a, b in memory], f)
            except OSError:
                pass  # a read-only file system

    def _close_deal(self, played: Sequence[tuple[int, str]]) -> None:
        if self.record is None:
            return
        theirs = {card for seat, card in played if seat != self.seat}
        self.record[1].update(theirs)
        right = len(self.prediction & self.record[1])
        with open(self.options["report"], "a") as f:
            f.write(
                json.dumps(
                    {
                        "predicted": len(self.prediction),
                        "right": right,
                        "cwd": os.getcwd(),
                    }
                )
                + "\n"
            )
        self._save()

    def act(self, view: View) -> str:
        played = view.played  # type: ignore[attr-defined]
        if view.deal != self.deal:  # type: ignore[attr-defined]
            self.deal = view.deal  # type: ignore[attr-defined]
            hand = frozenset(view.hand)  # type: ignore[attr-defined]
            self.prediction = frozenset()
            for mine, theirs in self._memory():
                if len(theirs) >= 2 and theirs <= hand:
                    self.prediction = mine
            self.record = (hand, set())
            _SEEN.append(self.record)
        assert self.record is not None
        self.record[1].update(card for seat, card in played if seat != self.seat)
        if len(view.hand) == 1:  # type: ignore[attr-defined]
            self._close_deal(played)
        return view.legal_actions[0]


class WorkerKiller(Bot):
    """At its first decision kills its parent: the worker process playing it."""

    name = "worker-killer"
    option_specs = (Option("signal", 9, "the signal to send"),)

    def act(self, view: View) -> str:
        os.kill(os.getppid(), self.options["signal"])
        return view.legal_actions[0]


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [
        GcThief,
        FrameThief,
        ConfigThief,
        ProcThief,
        SeedCracker,
        HandCracker,
        WorkerKiller,
        Rememberer,
    ]
