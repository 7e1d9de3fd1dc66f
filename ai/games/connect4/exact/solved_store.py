"""A persistent table of solved Connect-4 positions, shared by every process that opens the same
file (the server's workers, the command line): a position analysed once is answered at once
for everyone after.

SQLite, one row per position: the board size, the position's key (``current + mask``, unique
per position; the smaller of the key and its mirror image's, which has the same score) and its
exact score in Pons' convention for the side to move. Only exact scores go in: a score is true
forever, so rows are only ever added (``INSERT OR IGNORE``), never updated, and concurrent
writers cannot disagree. The database runs in WAL mode (readers never wait for a writer) with a
busy timeout; a write that still meets a lock is dropped, since the table is only a cache.
Nothing here may break an analysis: if the file cannot be opened or written (read-only disk,
a corrupt file), the store says so once in ``error`` and answers nothing.

Connections are opened per call (a fraction of a millisecond): the server's searches run in
threads, and a connection is not shared between threads.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field

#: Where the store lives when nobody says: the app's instance directory (Flask's default).
_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))  # the repo
DEFAULT_PATH = os.path.join(_ROOT, "instance", "solved.sqlite3")
ENV = "MINIMAX_SOLVED_DB"   # overrides the path; "" or "off" disables the store
_SCHEMA = """CREATE TABLE IF NOT EXISTS solved (
    width INTEGER NOT NULL, height INTEGER NOT NULL, key INTEGER NOT NULL,
    score INTEGER NOT NULL, PRIMARY KEY (width, height, key)) WITHOUT ROWID"""
MAX_KEY_BITS = 63           # SQLite integers are signed 64-bit


def default_path() -> str | None:
    """``MINIMAX_SOLVED_DB``, or ``instance/solved.sqlite3`` beside the code; None if disabled."""
    path = os.environ.get(ENV)
    if path is None:
        return DEFAULT_PATH
    return None if path in ("", "off") else path


def _transient(err: sqlite3.OperationalError) -> bool:
    """A lock held by another process: the next call may succeed."""
    text = str(err).lower()
    return "locked" in text or "busy" in text


@dataclass
class SolvedStore:
    """The table in the SQLite file at ``path`` (created with its directory when missing)."""

    path: str
    timeout: float = 2.0          # seconds a writer waits for another one's lock
    error: str | None = field(default=None, init=False)
    _ready: bool = field(default=False, init=False, repr=False)

    def _connect(self) -> sqlite3.Connection | None:
        if self.error is not None:
            return None
        try:
            if not self._ready:
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            if not self._ready:
                con.execute("PRAGMA journal_mode=WAL")
                con.execute(_SCHEMA)
                self._ready = True
            con.execute("PRAGMA synchronous=NORMAL")
            return con
        except sqlite3.OperationalError as err:
            if _transient(err):     # workers starting together: another one sets the file up
                return None         # (switching to WAL does not wait): try again next time
            self.error = f"{self.path}: {err}"
            return None
        except (OSError, sqlite3.Error) as err:
            self.error = f"{self.path}: {err}"
            return None

    def get_many(self, width: int, height: int, keys) -> dict[int, int]:
        """The stored scores of those of ``keys`` that are stored."""
        keys = [k for k in keys if k.bit_length() <= MAX_KEY_BITS]
        if not keys:
            return {}
        con = self._connect()
        if con is None:
            return {}
        try:
            marks = ",".join("?" * len(keys))
            rows = con.execute(f"SELECT key, score FROM solved WHERE width=? AND height=? "
                               f"AND key IN ({marks})", (width, height, *keys)).fetchall()
            return dict(rows)
        except sqlite3.Error:
            return {}               # locked or damaged: answer from the search instead
        finally:
            con.close()

    def put_many(self, width: int, height: int, scores: dict[int, int]) -> int:
        """Store exact scores (``key -> score``); returns how many rows were new."""
        rows = [(width, height, k, s) for k, s in scores.items() if k.bit_length() <= MAX_KEY_BITS]
        if not rows:
            return 0
        con = self._connect()
        if con is None:
            return 0
        try:
            before = con.total_changes
            with con:
                con.execute("BEGIN IMMEDIATE")
                con.executemany("INSERT OR IGNORE INTO solved VALUES (?, ?, ?, ?)", rows)
            return con.total_changes - before
        except sqlite3.Error:
            return 0                # busy past the timeout: the next analysis stores them
        finally:
            con.close()

    def count(self) -> int:
        con = self._connect()
        if con is None:
            return 0
        try:
            return con.execute("SELECT count(*) FROM solved").fetchone()[0]
        finally:
            con.close()
