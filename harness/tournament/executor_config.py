"""Where a config's matches run: ``workers``, ``executor`` and ``in_flight``.

:class:`ExecutorReader` reads the keys (an executor by name or an
``[executor]`` table checked against the executor's own settings);
:func:`check_executor` refuses an executor whose packages are missing and
:func:`describe_executor` says where the workers are (``troef validate``).
None of it is part of the snapshot: where matches run never changes a result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.contracts.errors import UnknownNameError
from harness.tournament.config_reader import ConfigReader, config_error
from harness.tournament.executor_plugins import executor_plugin

if TYPE_CHECKING:
    from harness.plugins import Registry
    from harness.tournament.config import TournamentConfig

__all__ = [
    "EXECUTORS",
    "MAX_WORKERS",
    "ExecutorReader",
    "check_executor",
    "describe_executor",
]

#: Most worker processes a config may ask for (a run also uses no more than
#: it has jobs).
MAX_WORKERS = 256
#: The built-in executors (plugins may register more: ``troef_executors``).
EXECUTORS = ("process", "inline", "dask")


class ExecutorReader(ConfigReader):
    """The keys of where the matches run."""

    def workers(self) -> int | None:
        value = self.data.get("workers", "auto")
        if value == "auto":
            return None
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and 1 <= value <= MAX_WORKERS
        ):
            return value
        raise self.error(
            "",
            "workers",
            f'{value!r} is not allowed; expected "auto" or an integer from 1 to '
            f"{MAX_WORKERS}",
        )

    def executor(self, registry: Registry) -> tuple[str, dict[str, Any]]:
        """The executor's name and settings: ``executor = "NAME"`` or a table
        ``[executor]`` with ``name`` and the executor's own keys."""
        value = self.data.get("executor", "process")
        accepted = (
            "an executor name or a table with its name and settings; executors: "
            + ", ".join(sorted(registry.executors))
        )
        settings: dict[str, Any] = {}
        if isinstance(value, str):
            name = value
        elif isinstance(value, dict):
            settings = dict(value)
            name = settings.pop("name", None)
            if not isinstance(name, str):
                raise self.error(
                    "executor",
                    "name" if "name" in value else None,
                    f'missing or bad "name"; expected {accepted}',
                )
        else:
            raise self.error(
                "", "executor", f"{value!r} is not allowed; expected {accepted}"
            )
        table = "executor" if isinstance(value, dict) else ""
        key = "name" if table else "executor"
        try:
            cls = registry.executor_class(name)
        except UnknownNameError as exc:
            raise self.error(table, key, str(exc)) from None
        known = {k: what for k, (_, what) in cls.settings.items()}
        self.check_keys("executor", settings, {"name": "the executor", **known})
        for setting, item in settings.items():
            kind, what = cls.settings[setting]
            if not isinstance(item, kind) or (
                isinstance(item, int)
                and (isinstance(item, bool) or not 1 <= item <= MAX_WORKERS)
            ):
                raise self.error(
                    "executor", setting, f"{item!r} is not allowed; expected {what}"
                )
        problem = cls.check(settings)
        if problem is not None:
            raise self.error("executor", problem[0], problem[1])
        return name, settings

    def in_flight(self) -> int:
        value = self.data.get("in_flight", 4)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.error(
                "", "in_flight", f"{value!r} is not allowed; expected an integer >= 1"
            )
        return value


def check_executor(config: TournamentConfig) -> None:
    """Refuse ``config``'s executor if its packages are missing, naming the
    config's file, line and key and the install command (``validate``, and
    ``run`` before it makes a database or lock file).

    :raises ConfigError: the executor cannot start here.
    """
    problem = executor_plugin(config.executor, config.plugin_source).missing()
    if problem is not None:
        table = isinstance(config.raw.get("executor"), dict)
        raise config_error(
            config,
            "executor" if table else "",
            "name" if table else "executor",
            problem,
        )


def describe_executor(config: TournamentConfig) -> str:
    """The executor of ``config`` for ``troef validate``: its kind and where
    its workers are (unset workers: one per core of the machine that runs)."""
    settings = dict(config.executor_settings)
    workers = config.workers
    count = "one worker per core" if workers is None else f"{workers} workers"
    if config.executor == "dask":
        address = settings.get("address")
        if address is None:
            return f"dask, a local cluster on the loopback interface of {count}"
        if workers is None:
            return (
                f"dask, the cluster at {address} (chunks in play at once: one per "
                "core here; set workers to the cluster's worker processes)"
            )
        return f"dask, the cluster at {address} ({workers} chunks in play at once)"
    if config.executor == "process":
        return f"process, a local pool of {count}"
    if config.executor == "inline":
        return "inline, every match in this process"
    extra = "".join(f", {k} = {v!r}" for k, v in settings.items())
    return f"{config.executor} ({count}{extra})"
