"""A results database as a file: its private folders, whether an existing
file is a sound troef database, and the run lock beside it.

What :class:`~harness.tournament.store.Store` checks before it opens a file,
and what a run holds while it writes one (``troef run``: one run per database).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from harness.contracts.errors import TroefError

__all__ = ["not_a_troef_database", "private_folders", "remove_database", "run_lock"]


def private_folders(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each readable by the owner only."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for created in reversed(missing):
        try:
            created.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise TroefError(
                f"cannot create the folder {created} for the database "
                f"(the config's 'database' key): {exc.strerror}"
            ) from None


def remove_database(path: Path) -> None:
    """Delete the database at ``path`` with its ``-wal`` and ``-shm`` files."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


_SQLITE_HEADER = b"SQLite format 3\x00"


def not_a_troef_database(path: Path) -> str | None:
    """What keeps the existing file ``path`` from being a sound troef database.

    None when it is one: an SQLite file that passes SQLite's quick check and
    holds a config snapshot.
    """
    if path.exists() and not path.is_file():
        return _not_a_regular_file(path)
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    if not head:
        return (
            "the file is empty (0 bytes), not a troef database (a database "
            "whose -wal file was lost can look like this)"
        )
    if head != _SQLITE_HEADER:
        return "not a troef database (not even an SQLite file)"
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        return f"cannot open it as SQLite ({exc})"
    try:
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            found = "no answer" if check is None else check[0]
            return f"the database is damaged (SQLite's quick check: {found})"
        tables = sorted(
            row[0]
            for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        )
        if "meta" not in tables:
            listed = ", ".join(tables) if tables else "none"
            return f"an SQLite database of something else, not troef (tables: {listed})"
        row = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        if row is None:
            return (
                "a troef database without its config (damaged, or its -wal file "
                "was lost)"
            )
    except sqlite3.DatabaseError as exc:
        return f"the database is damaged ({exc})"
    finally:
        db.close()
    return None


@contextlib.contextmanager
def run_lock(path: Path) -> Iterator[Path]:
    """Hold the run lock of the database at ``path`` (a ``.lock`` file beside it).

    One run per database: a second is refused at once, naming the holder.
    The lock is the kernel's (flock), so it goes with a killed process.
    Yields the lock file's path: its holder may delete it before it lets go
    (a run that made nothing to keep); a run that opened that file before
    it went takes the file at the path instead.
    """
    if path.exists() and not path.is_file():
        # Refused before a lock is made beside it (in /dev, for /dev/null).
        raise TroefError(
            f"{path}: {_not_a_regular_file(path)}; set another 'database' path"
        )
    private_folders(path.parent)
    lock_path = Path(str(path) + ".lock")
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip()
            os.close(fd)
            raise TroefError(
                f"{path} is in use by another run ({holder or 'holder unknown'}); "
                "wait for it to end or stop it"
            ) from None
        if _same_file(fd, lock_path):
            break
        os.close(fd)  # deleted by its last holder after we opened it
    try:
        os.ftruncate(fd, 0)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        os.pwrite(fd, f"pid {os.getpid()} since {stamp} UTC\n".encode(), 0)
        yield lock_path
    finally:
        os.close(fd)


def _not_a_regular_file(path: Path) -> str:
    kind = "a folder" if path.is_dir() else "a device, pipe or socket"
    return f"not a troef database (not a regular file but {kind})"


def _same_file(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is still the file at ``path``."""
    try:
        at_path = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (at_path.st_dev, at_path.st_ino)
