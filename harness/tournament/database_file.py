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

__all__ = [
    "WRITER_KEY",
    "not_a_troef_database",
    "private_folders",
    "read_only_connection",
    "remove_database",
    "run_lock",
    "run_lock_held",
    "unmerged_wal",
    "wal_beside",
]

#: The meta key a store's writer sets while it writes (its -wal file may then
#: hold results the database file lacks) and deletes when it closes cleanly.
WRITER_KEY = "writer"


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
        db = read_only_connection(path)
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
        if not tables and _head_is_wal(path):
            if wal_beside(path):
                state = "is there but not this file's (SQLite ignored it)"
            elif Path(f"{path}-wal").exists():
                state = "is empty"
            else:
                state = "is missing"
            return (
                "an SQLite database in WAL mode whose file alone holds no tables: "
                f"if it is a troef database, the -wal file beside it holds the "
                f"results, and {path}-wal {state} (a copy of the database file "
                "alone?); copy its own -wal file with it"
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


def wal_beside(path: Path) -> bool:
    """Whether a -wal file with content is beside the database ``path``."""
    try:
        return Path(f"{path}-wal").stat().st_size > 0
    except FileNotFoundError:
        return False


def read_only_connection(path: Path) -> sqlite3.Connection:
    """A read-only connection (``mode=ro``) that makes no file beside ``path``.

    Readers beside a running ``troef run`` use it too (``troef serve DB``).
    Without a -wal file to read, SQLite is told the file is immutable: a
    read-only connection in WAL mode would otherwise make an empty -wal and
    a -shm beside it, and leave them (beside a foreign file too).
    """
    uri = path.absolute().as_uri() + "?mode=ro"
    if not wal_beside(path):
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True)


def _head_is_wal(path: Path) -> bool:
    """Whether the SQLite file ``path`` is in WAL mode (its header says so)."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    # Bytes 18 and 19, the read and write versions: 2 in WAL mode.
    return len(head) == 20 and head[18] == 2


def unmerged_wal(path: Path) -> str | None:
    """Why the troef database ``path`` may lack results: its -wal file is missing.

    None when nothing says so: a -wal file is beside it, or the last writer
    closed cleanly (it deletes the meta key :data:`WRITER_KEY`). A "may": a
    program that merged the -wal file of a killed run (SQLite does when its
    last connection closes) leaves the key behind with nothing lost.
    """
    if wal_beside(path):
        return None
    try:
        db = read_only_connection(path)
    except sqlite3.DatabaseError:
        return None
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (WRITER_KEY,))
        writer = row.fetchone()
    except sqlite3.DatabaseError:
        return None
    finally:
        db.close()
    if writer is None:
        return None
    return (
        f"the run that wrote it ({writer[0]}) did not end cleanly and {path}-wal "
        "is missing: if this is a copy of the database file alone, the -wal file "
        "beside the original holds the results this copy lacks (since the run's "
        "last checkpoint); copy it with the database"
    )


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


def run_lock_held(path: Path) -> bool:
    """Whether a run holds the run lock of the database at ``path`` now."""
    try:
        fd = os.open(f"{path}.lock", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False  # no lock file (or none this user may read): no run
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # and with it the shared lock, if it was taken
    return False


def _same_file(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is still the file at ``path``."""
    try:
        at_path = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (at_path.st_dev, at_path.st_ino)
