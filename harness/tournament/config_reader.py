"""Reading a config's keys: each value checked, each error at its ``file:line``.

:class:`ConfigReader` holds a config's parsed TOML and its text. It finds the
line where a key stands, words every error as ``file:line: key: problem;
expected ...`` (an unknown key lists the close names), and reads the values
every part of a config shares: typed top-level keys, numbers in a range, a
``[time_control]`` table, a user name. The parts of a config are read on top of
it: the entrants (:mod:`harness.tournament.entrants`), the format settings
(:mod:`harness.tournament.format_settings`), where the matches run
(:mod:`harness.tournament.executor_config`) and the rest
(:mod:`harness.tournament.config`).
"""

from __future__ import annotations

import pwd
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import ConfigError, OptionError, close_names
from harness.match.referee import TimeControl

if TYPE_CHECKING:
    from harness.tournament.config import TournamentConfig

__all__ = ["ConfigReader", "config_error"]

_TIME_KEYS = {
    "move": "most seconds for any one decision",
    "match": "seconds for all of a bot's decisions in a match",
    "increment": "seconds added to the match budget after each decision",
}


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def config_error(
    config: TournamentConfig, table: str, key: str | None, message: str
) -> ConfigError:
    """An error found after loading, as loading words it: ``file:line: key: ...``
    (the line looked up again in the config's file; none if it is gone)."""
    try:
        text = config.path.read_text(encoding="utf-8")
    except OSError:
        text = ""
    return ConfigReader(config.path, text, dict(config.raw)).error(table, key, message)


class ConfigReader:
    """A config's data and text: its keys read and checked, its errors worded."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]) -> None:
        self.path = path
        self.base = path.parent
        self.lines = text.splitlines()
        self.data = data
        self.blocked: tuple[str, ...] = ()
        #: The config's plugin files: a bot they provide runs in its own process.
        self.plugin_files: set[str] = set()

    # -- error reporting --------------------------------------------------

    def line_of(self, table: str, key: str | None = None) -> int | None:
        """The line of ``key`` in ``[table]`` ('' = top level), or of the table."""
        current = ""
        header = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
        table_line = None
        for number, line in enumerate(self.lines, 1):
            m = header.match(line)
            if m:
                current = m.group(1).replace('"', "").replace(" ", "")
                if current == table:
                    table_line = number
                continue
            if current == table and key is not None:
                if re.match(rf'^\s*"?{re.escape(key)}"?\s*=', line):
                    return number
        if key is not None and table:
            # Dotted or inline forms: entrants.alice.bot = ..., alice = { bot = ... }
            parts = table.split(".")
            for number, line in enumerate(self.lines, 1):
                if parts[-1] in line and re.search(rf"\b{re.escape(key)}\b\s*=", line):
                    return number
        return table_line

    def error(self, table: str, key: str | None, message: str) -> ConfigError:
        line = self.line_of(table, key)
        where = f"{self.path}:{line}" if line else str(self.path)
        name = ".".join(p for p in (table, key) if p)
        return ConfigError(
            f"{where}: {name}: {message}" if name else f"{where}: {message}"
        )

    def check_keys(
        self, table: str, data: Mapping[str, Any], known: Mapping[str, str]
    ) -> None:
        for key in data:
            if key not in known:
                raise self.error(table, key, f"unknown key; {close_names(key, known)}")

    def get(
        self, key: str, kind: type | tuple[type, ...], default: Any, accepted: str
    ) -> Any:
        if key not in self.data:
            return default
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.error("", key, f"{value!r} is not allowed; expected {accepted}")
        return value

    def number(
        self,
        table: str,
        raw: Mapping[str, Any],
        key: str,
        default: float | None,
        low: float,
        high: float,
        accepted: str,
    ) -> float:
        if key not in raw:
            if default is None:
                raise self.error(
                    table, None, f"missing key {key!r}; expected {accepted}"
                )
            return default
        value = raw[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise self.error(
                table, key, f"{value!r} is not allowed; expected {accepted}"
            )
        return float(value)

    def user_name(self, where: str, raw: Any) -> str:
        """A ``user`` key: the name of a user of this machine."""
        if not isinstance(raw, str) or not raw:
            raise self.error(
                where, "user", f"{raw!r} is not allowed; expected a user name"
            )
        if not _user_exists(raw):
            raise self.error(
                where,
                "user",
                f"there is no user {raw!r} on this machine; expected a user name "
                'from /etc/passwd (e.g. "nobody"), or "root"',
            )
        return raw

    def time_control(self, where: str, raw: Any) -> TimeControl | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.error(
                "",
                where,
                "expected a table with move, match and/or increment (seconds)",
            )
        self.check_keys(where, raw, _TIME_KEYS)
        try:
            return TimeControl(**raw)
        except (OptionError, TypeError) as exc:
            key = next((k for k in raw if f"{k!r}" in str(exc)), None)
            raise self.error(where, key, str(exc)) from None
