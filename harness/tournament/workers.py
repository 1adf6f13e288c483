"""A worker that owns its state: plugins loaded once, chunks of jobs played.

A :class:`Worker` is built from a :class:`~harness.plugins.PluginSource` and
the runner's :func:`fingerprint`; it pickles as those two alone, so it can be
sent to any worker process (a Dask worker keeps it as a worker plugin). The
first chunk it plays loads the plugins and checks that this process runs the
same troef and the same plugin code as the runner: a worker that differs
refuses the work with :class:`WorkerMismatch` instead of producing other results.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import TroefError
from harness.contracts.game import Game
from harness.contracts.result import Result
from harness.plugins import PluginSource, Registry, load_plugins
from harness.tournament.plan import Job

if TYPE_CHECKING:
    from harness.tournament.executors import Channel

__all__ = ["Worker", "WorkerMismatch", "fingerprint"]

_HARNESS = Path(__file__).parent


class WorkerMismatch(TroefError):
    """A worker runs another troef or other plugin code than the runner."""


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


#: The digest of troef's own sources as this process imported them: taken at
#: import, so that files edited later do not pass for the code that runs.
_HARNESS_DIGEST = _digest(list(_HARNESS.glob("*.py")))


def fingerprint(registry: Registry) -> dict[str, str]:
    """What the results depend on besides the jobs: troef's version and code,
    and, per plugin, a digest of the source files of the classes it registers.

    The harness's own sources are digested too, since an editable install
    keeps one version number across changes.
    """
    found: dict[str, str] = {
        "troef": f"{importlib.metadata.version('troef')} ({_HARNESS_DIGEST})",
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }
    files: dict[str, set[Path]] = {}
    tables: dict[str, dict[str, Any]] = {
        "game": dict(registry.games),
        "bot": dict(registry.bots),
        "executor": dict(registry.executors),
    }
    for (kind, name), plugin in registry.provider.items():
        source = inspect.getsourcefile(tables[kind][name])
        if source is not None:
            files.setdefault(plugin, set()).add(Path(source))
    for plugin, paths in sorted(files.items()):
        found[f"plugin {plugin}"] = _digest(sorted(paths))
    return found


def _differences(mine: dict[str, str], theirs: dict[str, str]) -> list[str]:
    return [
        f"{key}: worker has {mine.get(key, 'none')}, runner has "
        f"{theirs.get(key, 'none')}"
        for key in sorted(set(mine) | set(theirs))
        if mine.get(key) != theirs.get(key)
    ]


@dataclass
class Worker:
    """Plays chunks of jobs in one worker process; loads the plugins once.

    :param source: how the runner loaded its plugins.
    :param expected: the runner's :func:`fingerprint` (None: not checked).
    :param where: names this worker in messages (e.g. its Dask address).
    """

    source: PluginSource
    expected: dict[str, str] | None = None
    where: str = "a worker"
    #: Where each finished match is streamed, and the stop signal (not pickled:
    #: each executor gives its workers their own).
    channel: Channel | None = field(default=None, repr=False, compare=False)
    _registry: Registry | None = field(default=None, repr=False, compare=False)
    _games: dict[Any, Game] = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        # Only how to build the state travels; the state is built where it runs.
        return {"source": self.source, "expected": self.expected, "where": self.where}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def load(self) -> Registry:
        """The registry, loaded and checked on first use.

        :raises WorkerMismatch: this process's troef or plugins differ from
            the runner's.
        """
        if self._registry is None:
            registry = load_plugins(**asdict(self.source))
            if self.expected is not None:
                differences = _differences(fingerprint(registry), self.expected)
                if differences:
                    raise WorkerMismatch(
                        f"{self.where} refuses the work: it runs other code than "
                        f"the runner ({'; '.join(differences)}); install the same "
                        "troef and plugins on every worker (docs/DISTRIBUTED.md)"
                    )
            self._registry = registry
        return self._registry

    def play(
        self,
        jobs: Sequence[Job],
        keep_logs: bool,
        in_flight: int = 4,
        secret: bytes = b"",
    ) -> list[tuple[str, Result]]:
        """Play ``jobs``; return (job id, Result) for each, in order (plain data).

        ``secret`` keys the bot seeds (``harness.contracts.seeding.bot_seed``)."""
        from harness.tournament.executors import play_chunk

        return play_chunk(
            self.load(), self._games, self.channel, jobs, keep_logs, in_flight, secret
        )
