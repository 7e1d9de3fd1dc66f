"""Class mode's state, and its fan-out: one small interface, two backends.

A class is a code students type (``K7PQMX``), a secret only the teacher's link holds, the
game the teacher shows (its game name and link parameters, as the URL carries any game), a
version that bumps with every change of the board, the vote rounds and their ballots, the
students' nicknames and who follows the class now. Nothing of it lives in a worker's
memory: any worker of any instance answers any request of the class, and a worker killed or
a server restarted mid-lesson loses no move or ballot.

- ``SqliteStore`` (the default, ``CLASS_DB``): an embedded database file, so ``scripts/serve``
  needs nothing else. The workers of one machine share the file; a change is also written to
  an ``events`` table, which each worker reads as soon as the database's write-ahead log
  changes (a ``stat`` every ``WAL_WATCH`` seconds), and every ``poll`` seconds anyway, to wake
  its streams.
- ``RedisStore`` (when ``REDIS_URL`` is set): hashes and sets with an expiry, and Redis
  pub/sub for the fan-out, so instances on several machines serve one class.

Both answer ``listen(callback)``: a background loop (a greenlet under gevent) that calls
``callback(code, kind)`` for every change of every class, ``kind`` one of ``EVENT_KINDS``
(a ballot's or an answer's ``tally`` names its voter: ``tally_event``)
(``web.classroom.live`` hands them to the streams of this worker). A class expires ``ttl``
seconds after its last change (a few hours of inactivity); an ended class is kept until then,
so its students see "the class has ended" rather than "no such class".
"""
from __future__ import annotations

import enum
import hashlib
import hmac
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

log = logging.getLogger("minimax-lab.classes")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, no 1/I: read off a projector
CODE_LENGTH = 6
TTL = int(os.environ.get("CLASS_TTL", 4 * 3600))      # seconds of inactivity before expiry
FOLLOWER_TIMEOUT = 45.0     # a stream not seen for this long (seen again every 15 s) is gone
MAX_BALLOTS = 500           # per round: five times a large class, a bound on a stuffed round
#                             (and as many again set aside: see ``room_tally``)
# A student who joined a moment ago votes "fresh"; past the first FRESH_BALLOTS fresh ballots of
# one address in a round, their ballot is set aside (``room_tally``)
FRESH_BALLOTS = int(os.environ.get("CLASS_FRESH_BALLOTS_PER_ADDRESS", 10))
# The teacher's bar flags the address that cast the most ballots in a round when it cast more
# than FRESH_BALLOTS (``Crowd``): how many, and how many of them are set aside
MAX_NAMES = 500             # nicknames per class, for the same reason
MAX_CLASSES = int(os.environ.get("CLASS_MAX", 2000))   # live classes on the whole server
# A class that no student followed and whose teacher did nothing with it (no board shown live,
# no move, no vote) is reclaimed after UNUSED_TTL seconds, not TTL: classes made by a script
# free their room by themselves. And one address holds at most LIVE_PER_ADDRESS live classes.
UNUSED_TTL = int(os.environ.get("CLASS_UNUSED_TTL", 15 * 60))
LIVE_PER_ADDRESS = int(os.environ.get("CLASS_LIVE_PER_ADDRESS", 20))
ADDRESS_FULL = "address full"   # create()'s answer when the address holds LIVE_PER_ADDRESS
BUSY_TIMEOUT = 1.5          # seconds a store call waits for a lock held elsewhere, then 503
# seconds between two looks (a stat) at SQLite's log for changes: each look wakes the worker's
# listener; three workers' looks cost ~6 ms of CPU a second at 0.05 (~25 at 0.02: the
# "upkeep" of bench/class_load.py, loaded; docs/benchmarks.md), for a change seen ~25 ms
# after its commit on average (~50 with the 0.1 s poll alone)
WAL_WATCH = 0.05
EVENT_KINDS = ("board", "vote", "tally", "followers", "closed", "tournament")


def tally_event(voter: str) -> str:
    """The event of ``voter``'s ballot or answer: the teacher's page redraws its tally, as
    for any event, and the voter's own phone its vote area (no other phone wakes). A phone's
    stream may be drawing from a read made just before the ballot, and send it after the
    ballot's own answer: without this event, that drawing (the form again, a verdict gone)
    would stay on the phone until the next change of the class."""
    return f"tally:{voter}"


class StoreError(Exception):
    """The store cannot do what was asked just now: the app answers 503 with Retry-After and
    a message saying what happened (``kind``), never a 500. Nothing was written."""

    kind = "busy"


class StoreBusy(StoreError):
    """Out of reach or locked by someone else (a backup, an admin's shell, Redis restarting):
    try again in a moment."""

    kind = "busy"


class StoreFull(StoreError):
    """It answers but refuses to write (disk full, file read-only, Redis at its memory
    limit): the host must act; reading still works."""

    kind = "full"


class StoreLost(StoreError):
    """The store's data has gone (its database file was deleted or replaced): never recreated
    empty behind the teacher's back; the host restores it or starts afresh on purpose."""

    kind = "lost"


_logged: dict[str, float] = {}


def report(err: StoreError, detail: str) -> StoreError:
    """Log a store failure (once a minute per kind and detail, not once per request) and
    give it back to raise."""
    now = time.monotonic()
    key = f"{err.kind}:{detail}"
    if now - _logged.get(key, -1e9) > 60:
        _logged[key] = now
        log.error("class store %s: %s", err.kind, detail)
    return err


class Vote(enum.Enum):
    """What became of a ballot. Only COUNTED is true."""

    COUNTED = "counted"
    AGAIN = "again"          # this student already voted in this round: the first is kept
    CLOSED = "closed"        # no such round open (closed meanwhile, class ended or expired)
    FULL = "full"            # the round holds MAX_BALLOTS already

    def __bool__(self):
        return self is Vote.COUNTED


def offload(fn):
    """``fn()`` in a native thread of gevent's pool when gevent runs the server (a store call
    waiting for a lock then never stops the worker's event loop), else right here."""
    try:
        from gevent import monkey
    except ImportError:
        return fn()
    if not monkey.is_module_patched("threading"):
        return fn()
    import gevent
    return gevent.get_hub().threadpool.apply(fn)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class ClassState:
    """One class as the pages need it."""

    code: str
    game: str              # a name of the games table (web.games.GameSpec.name)
    query: str             # the game's link parameters (no proj, lang or cls): the board
    version: int           # bumps with every change of the board
    round: int             # the current vote round, 0 before the first
    vote_open: bool
    vote_query: str        # the position the current round votes on
    reveal: str            # the AI's move on that position, once the teacher reveals it
    closed: bool           # the teacher ended the class
    secret_hash: str
    expires: float
    vote_ends: float = 0.0  # when the open vote closes by itself (store's clock), 0: no timer

    def is_teacher(self, secret: str | None) -> bool:
        """Whether ``secret`` is this class's teacher secret (compared in constant time)."""
        return bool(secret) and hmac.compare_digest(secret_hash(secret), self.secret_hash)


def room_tally(ballots: dict, marks: dict) -> Counter:
    """The round's ballots by choice (``ballots``: voter -> choice), as the room decides:
    ballots set aside (``marks``: voter -> "fresh" or "aside", for students who had just
    joined; "" or none for one who followed the class a while) do not count once the round
    holds a ballot of a student who followed the class a while. A farm of new ids on a few
    addresses then weighs only the first few of each address, while a class that all joined
    just now (behind one school router, say), with no one to outvote it, counts whole."""
    if aside_excluded(ballots, marks):
        return Counter(c for v, c in ballots.items() if marks.get(v) != "aside")
    return Counter(ballots.values())


def aside_excluded(ballots: dict, marks: dict) -> bool:
    """Whether the round's set-aside ballots are left out of its count (``room_tally``): one
    ballot of a student who followed the class a while is in it."""
    return any(not marks.get(v) for v in ballots)


@dataclass(frozen=True)
class Crowd:
    """The address that cast the most ballots in a round, flagged on the teacher's bar when
    it cast more than ``FRESH_BALLOTS`` (a farm of ids, or a class behind one router: the
    teacher knows which): its ballots, and how many of them the round leaves out (set aside,
    ``room_tally``). Never the address itself."""

    ballots: int
    left_out: int


def crowd(most: int, aside: int, excluded: bool) -> Crowd | None:
    """The flag for an address that cast ``most`` ballots, ``aside`` of them set aside, in a
    round whose set-aside ballots are ``excluded``; None below the flag."""
    if most <= FRESH_BALLOTS:
        return None
    return Crowd(most, aside if excluded else 0)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class ClassStore:
    """What both backends do. ``clock`` is wall time (tests move it to expire a class). Every
    call either does what it says or raises ``StoreError`` having written nothing."""

    ttl: float
    clock: Callable[[], float]

    max_classes: int = MAX_CLASSES

    def create(self, game: str, query: str,
               address: str = "") -> tuple[ClassState, str] | str | None:
        """A new class showing ``game`` at ``query``; returns it and the teacher's secret,
        which is random and independent of the code (only its hash is stored); None when the
        server holds ``max_classes`` live classes already, ``ADDRESS_FULL`` when ``address``
        holds ``LIVE_PER_ADDRESS``. It lives ``first_life`` until used (``used``, or any
        change). Written in one step: a worker killed meanwhile leaves no half-made class."""
        raise NotImplementedError

    def first_life(self, address: str) -> float:
        """How long a new class lives before it is used: ``UNUSED_TTL`` for one a client made
        (``address``), the whole ``ttl`` for one made without (a script on the server)."""
        return min(self.unused_ttl, self.ttl) if address else self.ttl

    def used(self, code: str) -> None:
        """The class is in use (a live page follows it: a student's phone, the teacher's
        board): it lives ``ttl`` from now, no longer only ``UNUSED_TTL``."""
        raise NotImplementedError

    def hit(self, key: str, most: int, window: float) -> int:
        """Count one action of ``key`` (an address doing something) in the current window of
        ``window`` seconds, for every worker and instance sharing the store: 0 when it is
        within ``most``, else the seconds until the window ends (to wait)."""
        raise NotImplementedError

    def signing_key(self) -> bytes:
        """A random key made once per store and shared by every worker and instance using
        it: it signs the students' ids, so that only ids the server gave count."""
        raise NotImplementedError

    def get(self, code: str) -> ClassState | None:
        """The class, or None when there is none with this code or it has expired."""
        raise NotImplementedError

    def set_board(self, code: str, game: str, query: str) -> ClassState | None:
        """The teacher's board changed (a move, undo, settings, a tree step): store it and
        tell the followers. Nothing changes (no event) when it is the same board."""
        raise NotImplementedError

    def open_vote(self, code: str, seconds: int = 0) -> ClassState | None:
        """A new round on the board shown; the previous one closes. With ``seconds``, the
        round closes by itself that long after: ``vote_open`` reads false from then on and
        no ballot counts (no worker has to be awake at that moment)."""
        raise NotImplementedError

    def close_vote(self, code: str) -> ClassState | None:
        raise NotImplementedError

    def set_reveal(self, code: str, move_label: str) -> ClassState | None:
        """The AI's move on the round's position, shown beside the class's votes."""
        raise NotImplementedError

    def end(self, code: str) -> ClassState | None:
        raise NotImplementedError

    def vote(self, code: str, round_: int, voter: str, choice: str,
             fresh_from: str | None = None, address: str | None = None) -> Vote:
        """Count ``voter``'s ballot in ``round_`` if the round is open and they have not voted
        in it yet (``Vote.COUNTED``, true), else why not. Checked and written in one step.
        ``fresh_from``: the address of a student who joined a moment ago (None for one who
        followed the class a while): marked "fresh", or "aside" past ``FRESH_BALLOTS`` fresh
        ballots of that address in this round (``room_tally``); the round's ``MAX_BALLOTS``
        counts the ballots not set aside, and as many set aside at most. ``address``: the
        voter's, counted per address for the teacher's flag (``Crowd``)."""
        raise NotImplementedError

    def ballot(self, code: str, round_: int, voter: str) -> str | None:
        raise NotImplementedError

    def tally(self, code: str, round_: int) -> Counter:
        """The round's ballots by choice, as the room decides (``room_tally``)."""
        raise NotImplementedError

    def set_name(self, code: str, voter: str, name: str) -> bool:
        """Keep ``voter``'s nickname: False when the class has ``MAX_NAMES`` other names."""
        raise NotImplementedError

    def names(self, code: str) -> dict[str, str]:
        raise NotImplementedError

    def follower_seen(self, code: str, sid: str, stream: str = "") -> bool:
        """Follower ``sid``'s stream ``stream`` is open (called on connect and at each
        heartbeat); True when the follower was not counted yet, and then the teacher's count is
        told. Each stream is kept apart: a page reloaded opens its new stream before the old
        one ends, and the old one, still beating meanwhile, must not take the new one's place."""
        raise NotImplementedError

    def follower_gone(self, code: str, sid: str, stream: str = "") -> None:
        """Follower ``sid``'s stream ``stream`` ended; the follower stays counted while another
        of its streams is open (the teacher's count is told when it is not)."""
        raise NotImplementedError

    def followers(self, code: str) -> int:
        """Followers with a stream seen within ``FOLLOWER_TIMEOUT``: a worker killed without
        saying goodbye stops being counted by itself."""
        raise NotImplementedError

    def listen(self, callback: Callable[[str, str], None], stop: threading.Event) -> None:
        """Call ``callback(code, kind)`` for every change, until ``stop`` is set; runs in a
        background thread (a greenlet under gevent). ``code`` is None after a reconnection to
        the backend: every stream should then re-read its class."""
        raise NotImplementedError

    def close(self) -> None:
        pass


# -- SQLite --------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
  code TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, game TEXT NOT NULL, query TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1, round INTEGER NOT NULL DEFAULT 0,
  vote_open INTEGER NOT NULL DEFAULT 0, vote_query TEXT NOT NULL DEFAULT '',
  reveal TEXT NOT NULL DEFAULT '', closed INTEGER NOT NULL DEFAULT 0, expires REAL NOT NULL,
  vote_ends REAL NOT NULL DEFAULT 0, addr TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS classes_expires ON classes (expires);
CREATE TABLE IF NOT EXISTS ballots (
  code TEXT NOT NULL, round INTEGER NOT NULL, voter TEXT NOT NULL, choice TEXT NOT NULL,
  PRIMARY KEY (code, round, voter));
CREATE TABLE IF NOT EXISTS ballot_marks (
  code TEXT NOT NULL, round INTEGER NOT NULL, voter TEXT NOT NULL, mark TEXT NOT NULL,
  addr TEXT NOT NULL, PRIMARY KEY (code, round, voter));
CREATE TABLE IF NOT EXISTS names (
  code TEXT NOT NULL, voter TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (code, voter));
CREATE TABLE IF NOT EXISTS follower_streams (
  code TEXT NOT NULL, sid TEXT NOT NULL, stream TEXT NOT NULL, seen REAL NOT NULL,
  PRIMARY KEY (code, sid, stream));
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, kind TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS events_at ON events (at);
CREATE TABLE IF NOT EXISTS limits (key TEXT PRIMARY KEY, start REAL NOT NULL, n INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS limits_start ON limits (start);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_FIELDS = ("code", "game", "query", "version", "round", "vote_open", "vote_query", "reveal",
           "closed", "secret_hash", "expires", "vote_ends")
# the queries the query plan test reads (tests/test_class_store.py): each uses an index
PURGE_SQL = "SELECT code FROM classes WHERE expires <= ?"
LIVE_SQL = "SELECT COUNT(*) FROM classes WHERE expires > ?"


def sqlite_room_tally(db, code: str, round_: int) -> Counter:
    """``room_tally`` of a round, read in the SQLite store's transaction ``db``."""
    ballots = dict(db.execute("SELECT voter, choice FROM ballots WHERE code = ? AND round = ?",
                              (code, round_)))
    marks = dict(db.execute("SELECT voter, mark FROM ballot_marks WHERE code = ? AND round = ?",
                            (code, round_)))
    return room_tally(ballots, marks)


class SqliteStore(ClassStore):
    """The embedded default: one database file shared by the workers of one machine (WAL, so
    readers never wait for a writer). One connection per process, behind a lock.

    Every call runs off the event loop (``offload``: a native thread under gevent) and waits
    at most ``BUSY_TIMEOUT`` for a lock held elsewhere (a backup, an admin's ``sqlite3``
    shell): then ``StoreBusy``, a 503 for that request only, and every other page goes on.

    The file is watched: a marker beside it (``<file>.store-id``) holds the id written inside
    the database when it was made. A database file deleted or replaced while the app runs
    (or between two worker starts) is noticed at the next call and refused (``StoreLost``,
    logged), never silently made again empty: the host restores the file, or deletes the
    marker too to start afresh on purpose."""

    def __init__(self, path: str | Path, *, ttl: float = TTL, poll: float = 0.1,
                 clock: Callable[[], float] = time.time, busy_timeout: float = BUSY_TIMEOUT):
        self.path, self.ttl, self.poll, self.clock = str(path), ttl, poll, clock
        self.marker = self.path + ".store-id"
        self.busy_timeout = busy_timeout
        self.max_classes = MAX_CLASSES
        self.unused_ttl, self.live_per_address = UNUSED_TTL, LIVE_PER_ADDRESS
        # two connections per process, each behind its lock: reads never queue behind a write
        # waiting for a lock held elsewhere (in WAL mode, readers do not wait for writers)
        self._locks = {False: threading.RLock(), True: threading.RLock()}
        self._dbs: dict[bool, sqlite3.Connection | None] = {False: None, True: None}
        self._pid = None
        self._inode = None
        self._key = None
        self._published = 0
        try:
            self._call(lambda db: None, write=True)     # made (or checked) now when it can be
        except StoreError:
            pass                            # else at the first call: the app starts anyway

    # -- the connections, the file's identity, errors --

    def _open(self) -> sqlite3.Connection:
        """A connection, checked to be the store's own file (see the class). It writes only
        when the file is new: opening needs no write lock."""
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        marker = Path(self.marker)
        known = marker.read_text().strip() if marker.exists() else None
        if not Path(self.path).exists() and known:
            raise report(StoreLost(), f"{self.path} has gone (its marker {self.marker} says "
                         "a store was made here): restore the file, or delete the marker "
                         "to start with no class")
        db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                             check_same_thread=False)
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if not {"classes", "limits", "meta", "classes_expires", "ballot_marks"} <= tables:
                db.executescript(SCHEMA)
            columns = {r[1] for r in db.execute("PRAGMA table_info(classes)")}
            if "vote_ends" not in columns:         # a store made before vote timers
                db.execute("ALTER TABLE classes ADD COLUMN vote_ends REAL NOT NULL DEFAULT 0")
            if "addr" not in columns:              # a store made before classes per address
                db.execute("ALTER TABLE classes ADD COLUMN addr TEXT NOT NULL DEFAULT ''")
            if "follower_streams" not in tables:   # a store made before streams were apart
                db.executescript(SCHEMA)           # (who follows: 45 s of presence, not kept)
                db.execute("DROP TABLE IF EXISTS followers")
            row = db.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
            if row is None:
                db.execute("INSERT OR IGNORE INTO meta VALUES ('store_id', ?)",
                           (secrets.token_hex(8),))
                row = db.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
            store_id = row[0]
            if known and known != store_id:
                raise report(StoreLost(), f"{self.path} is not the store its marker "
                             f"{self.marker} names: restore the file, or delete the marker "
                             "to use this one")
            if not known:
                marker.write_text(store_id + "\n")
            self._inode = os.stat(self.path).st_ino
        except BaseException:
            db.close()
            raise
        return db

    def _check(self, write: bool) -> sqlite3.Connection:
        """This process's connection (for writes, or for reads), on the file now at ``path``
        (a cheap stat)."""
        if self._pid != os.getpid():
            self._dbs = {False: None, True: None}   # a worker forked from a parent that had
            self._pid = os.getpid()                 # opened the file opens its own
        db = self._dbs[write]
        if db is not None:
            try:
                same = os.stat(self.path).st_ino == self._inode
            except FileNotFoundError:
                same = False
            if same:
                return db
            for kind, other in self._dbs.items():    # the file changed: both connections go
                if other is not None:
                    other.close()
                self._dbs[kind] = None
        db = self._dbs[write] = self._open()
        return db

    def _call(self, fn, write: bool = False):
        """``fn(db)`` with the process's connection for reads (or writes), off the event loop,
        the backend's errors said as ``StoreError``."""
        lock = self._locks[write]
        if not lock.acquire(timeout=self.busy_timeout * 2):
            raise report(StoreBusy(), "store calls queued behind a lock held elsewhere")
        try:
            return offload(lambda: self._run(fn, write))
        finally:
            lock.release()

    def _run(self, fn, write: bool = False):
        try:
            return fn(self._check(write))
        except StoreError:
            raise
        except sqlite3.Error as err:
            name = getattr(err, "sqlite_errorname", "")
            if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
                raise report(StoreBusy(), f"{self.path}: {err}") from err
            if name.startswith(("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR",
                                "SQLITE_CANTOPEN", "SQLITE_PERM")):
                raise report(StoreFull(), f"{self.path}: {err}") from err
            raise report(StoreError(), f"{self.path}: {err}") from err
        except OSError as err:
            raise report(StoreFull(), f"{self.path}: {err}") from err

    @staticmethod
    @contextmanager
    def _transaction(db):
        """One write transaction, taken at once (BEGIN IMMEDIATE: no other worker writes in
        between), committed at the end of the block, rolled back if it raises: all of it is
        written, or nothing."""
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _write(self, fn):
        def run(db):
            with self._transaction(db):
                return fn(db)
        return self._call(run, write=True)

    def _publish(self, db, code: str, kind: str) -> None:
        db.execute("INSERT INTO events (code, kind, at) VALUES (?, ?, ?)",
                   (code, kind, self.clock()))
        self._published += 1
        if self._published % 500 == 0:     # listeners read events within a second
            db.execute("DELETE FROM events WHERE at < ?", (self.clock() - 300,))

    def _row(self, db, code: str) -> ClassState | None:
        row = db.execute(f"SELECT {', '.join(_FIELDS)} FROM classes WHERE code = ?",
                         (code,)).fetchone()
        if row is None:
            return None
        state = ClassState(**dict(zip(_FIELDS, row)))
        timed_out = bool(state.vote_ends) and state.vote_ends <= self.clock()
        state = ClassState(**{**state.__dict__,
                              "vote_open": bool(state.vote_open) and not timed_out,
                              "closed": bool(state.closed)})
        return state if state.expires > self.clock() else None

    def _change(self, code: str, sql: str, args: tuple, kind: str,
                only_if: str = "1", only_args: tuple = ()) -> ClassState | None:
        def change(db):
            if self._row(db, code) is None:
                return None
            cur = db.execute(f"UPDATE classes SET {sql}, expires = ? WHERE code = ? "
                             f"AND ({only_if})", (*args, self.clock() + self.ttl, code,
                                                  *only_args))
            if cur.rowcount:
                self._publish(db, code, kind)
            return self._row(db, code)
        return self._write(change)

    # -- the interface --

    def create(self, game, query, address=""):
        secret = secrets.token_urlsafe(18)
        now = self.clock()

        def create(db):
            self._purge(db, now)
            if db.execute(LIVE_SQL, (now,)).fetchone()[0] >= self.max_classes:
                return None
            if address and db.execute(
                    "SELECT COUNT(*) FROM classes WHERE addr = ? AND expires > ?",
                    (address, now)).fetchone()[0] >= self.live_per_address:
                return ADDRESS_FULL
            while True:
                code = new_code()
                if not db.execute("SELECT 1 FROM classes WHERE code = ?", (code,)).fetchone():
                    break
            db.execute("INSERT INTO classes (code, secret_hash, game, query, expires, addr) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       (code, secret_hash(secret), game, query,
                        now + self.first_life(address), address))
            return self._row(db, code)
        state = self._write(create)
        return (state, secret) if isinstance(state, ClassState) else state

    def used(self, code):
        expires = self.clock() + self.ttl

        def used(db):
            db.execute("UPDATE classes SET expires = ? WHERE code = ? AND expires < ?",
                       (expires, code, expires - 60))
        self._write(used)

    def _purge(self, db, now):
        expired = [r[0] for r in db.execute(PURGE_SQL, (now,))]
        for table in ("classes", "ballots", "ballot_marks", "names", "follower_streams"):
            db.executemany(f"DELETE FROM {table} WHERE code = ?", [(c,) for c in expired])
        db.execute("DELETE FROM limits WHERE start < ?", (now - 86400,))

    def hit(self, key, most, window):
        now = self.clock()

        def hit(db):
            row = db.execute("SELECT start, n FROM limits WHERE key = ?", (key,)).fetchone()
            start, n = (now, 1) if row is None or row[0] <= now - window else (row[0], row[1] + 1)
            db.execute("INSERT OR REPLACE INTO limits VALUES (?, ?, ?)", (key, start, n))
            return 0 if n <= most else max(1, int(start + window - now + 0.999))
        return self._write(hit)

    def signing_key(self):
        if self._key is None:
            def read(db):
                row = db.execute("SELECT value FROM meta WHERE key = 'signing_key'").fetchone()
                return row[0] if row else None

            def make(db):
                db.execute("INSERT OR IGNORE INTO meta VALUES ('signing_key', ?)",
                           (secrets.token_hex(32),))
                return read(db)
            self._key = (self._call(read) or self._write(make)).encode()   # written once
        return self._key

    def get(self, code):
        return self._call(lambda db: self._row(db, code))

    def set_board(self, code, game, query):
        def change(db):
            state = self._row(db, code)
            if state is None or state.closed:
                return state
            if (state.game, state.query) != (game, query):
                db.execute("UPDATE classes SET game = ?, query = ?, version = version + 1, "
                           "expires = ? WHERE code = ?",
                           (game, query, self.clock() + self.ttl, code))
                self._publish(db, code, "board")
            return self._row(db, code)
        return self._write(change)

    def open_vote(self, code, seconds=0):
        ends = self.clock() + seconds if seconds else 0.0
        return self._change(code, "round = round + 1, vote_open = 1, vote_query = query, "
                            "reveal = '', vote_ends = ?", (ends,), "vote", only_if="closed = 0")

    def close_vote(self, code):
        return self._change(code, "vote_open = 0, vote_ends = 0", (), "vote",
                            only_if="vote_open = 1 AND (vote_ends = 0 OR vote_ends > ?)",
                            only_args=(self.clock(),))

    def set_reveal(self, code, move_label):
        return self._change(code, "reveal = ?", (move_label,), "vote", only_if="round > 0")

    def end(self, code):
        return self._change(code, "closed = 1, vote_open = 0", (), "closed",
                            only_if="closed = 0")

    def vote(self, code, round_, voter, choice, fresh_from=None, address=None):
        def vote(db):
            state = self._row(db, code)
            if (state is None or not state.vote_open or state.closed
                    or state.round != round_):
                return Vote.CLOSED
            if db.execute("SELECT 1 FROM ballots WHERE code = ? AND round = ? AND voter = ?",
                          (code, round_, voter)).fetchone():
                return Vote.AGAIN
            n = db.execute("SELECT COUNT(*) FROM ballots WHERE code = ? AND round = ?",
                           (code, round_)).fetchone()[0]
            aside = db.execute("SELECT COUNT(*) FROM ballot_marks WHERE code = ? AND round = ? "
                               "AND mark = 'aside'", (code, round_)).fetchone()[0]
            mark = ""
            if fresh_from is not None:
                mark = "aside" if db.execute(
                    "SELECT COUNT(*) FROM ballot_marks WHERE code = ? AND round = ? AND addr = ? "
                    "AND mark != ''", (code, round_, fresh_from)).fetchone()[0] \
                    >= FRESH_BALLOTS else "fresh"
            if (aside if mark == "aside" else n - aside) >= MAX_BALLOTS:
                return Vote.FULL
            db.execute("INSERT INTO ballots VALUES (?, ?, ?, ?)", (code, round_, voter, choice))
            if mark or address:     # a ballot of one who followed a while: mark '' (counted)
                db.execute("INSERT INTO ballot_marks VALUES (?, ?, ?, ?, ?)",
                           (code, round_, voter, mark, fresh_from if mark else address))
            db.execute("UPDATE classes SET expires = ? WHERE code = ?",
                       (self.clock() + self.ttl, code))
            self._publish(db, code, tally_event(voter))
            return Vote.COUNTED
        return self._write(vote)

    def ballot(self, code, round_, voter):
        row = self._call(lambda db: db.execute(
            "SELECT choice FROM ballots WHERE code = ? AND round = ? AND voter = ?",
            (code, round_, voter)).fetchone())
        return row[0] if row else None

    def tally(self, code, round_):
        return self._call(lambda db: sqlite_room_tally(db, code, round_))

    def set_name(self, code, voter, name):
        def set_name(db):
            known = db.execute("SELECT 1 FROM names WHERE code = ? AND voter = ?",
                               (code, voter)).fetchone()
            if not known and db.execute("SELECT COUNT(*) FROM names WHERE code = ?",
                                        (code,)).fetchone()[0] >= MAX_NAMES:
                return False
            db.execute("INSERT OR REPLACE INTO names VALUES (?, ?, ?)", (code, voter, name))
            self._publish(db, code, "followers")      # the teacher's list of names
            return True
        return self._write(set_name)

    def names(self, code):
        return self._call(lambda db: dict(db.execute(
            "SELECT voter, name FROM names WHERE code = ?", (code,))))

    def follower_seen(self, code, sid, stream=""):
        now = self.clock()

        def seen(db):
            new = not self._counted(db, code, sid, now)
            # (the student's streams that ended unheard, a worker killed: no longer counted,
            # not kept either, or each reconnection would leave a row until the class ends)
            db.execute("DELETE FROM follower_streams WHERE code = ? AND sid = ? AND seen <= ?",
                       (code, sid, now - FOLLOWER_TIMEOUT))
            db.execute("INSERT OR REPLACE INTO follower_streams VALUES (?, ?, ?, ?)",
                       (code, sid, stream, now))
            if new:
                self._publish(db, code, "followers")
            return new
        return self._write(seen)

    def follower_gone(self, code, sid, stream=""):
        def gone(db):
            if db.execute("DELETE FROM follower_streams WHERE code = ? AND sid = ? AND stream = ?",
                          (code, sid, stream)).rowcount and not self._counted(db, code, sid,
                                                                               self.clock()):
                self._publish(db, code, "followers")
        self._write(gone)

    @staticmethod
    def _counted(db, code, sid, now):
        return db.execute("SELECT 1 FROM follower_streams WHERE code = ? AND sid = ? AND seen > ?",
                          (code, sid, now - FOLLOWER_TIMEOUT)).fetchone() is not None

    def followers(self, code):
        return self._call(lambda db: db.execute(
            "SELECT COUNT(DISTINCT sid) FROM follower_streams WHERE code = ? AND seen > ?",
            (code, self.clock() - FOLLOWER_TIMEOUT)).fetchone()[0])

    def _log_mark(self):
        """What a commit changes in the write-ahead log beside the file (its time, size and
        inode; the log restarts from its beginning after a checkpoint, and its time changes
        then too): a ``stat``, no query."""
        try:
            st = os.stat(self.path + "-wal")
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def listen(self, callback, stop):
        """Reads the events table when the write-ahead log changed (looked at every
        ``WAL_WATCH`` seconds: a change reaches the streams of every worker within ~50 ms
        for the price of a ``stat``), and every ``poll`` seconds anyway; a failing store is
        tried again each second, and every stream re-reads its class when it answers
        again."""
        last, mark, read_at = None, None, 0.0
        while not stop.is_set():
            now = self._log_mark()
            if last is not None and now == mark and time.monotonic() - read_at < self.poll:
                stop.wait(min(WAL_WATCH, self.poll))
                continue
            # taken before the read: a commit made after it changes the mark again
            mark, read_at = now, time.monotonic()
            try:
                if last is None:
                    last = self._call(lambda db: db.execute(
                        "SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])
                    callback(None, "board")   # a change made before that read is not missed
                rows = self._call(lambda db: db.execute(
                    "SELECT id, code, kind FROM events WHERE id > ? ORDER BY id",
                    (last,)).fetchall())
            except StoreError:
                last = None
                stop.wait(1.0)
                continue
            for last, code, kind in rows:
                callback(code, kind)
            stop.wait(min(WAL_WATCH, self.poll))

    def close(self):
        if self._pid == os.getpid():
            for db in self._dbs.values():
                if db is not None:
                    db.close()
        self._dbs = {False: None, True: None}


# -- Redis ---------------------------------------------------------------------------------------

# A vote, checked and counted in one step inside Redis: the round must be the open one, and
# HSETNX keeps a voter's first ballot only; a counted one is told to the class's followers in
# the same step (a ballot is one round trip). Returns one of Vote's values.
_VOTE = """
local c = redis.call('HMGET', KEYS[1], 'round', 'vote_open', 'closed', 'expires', 'vote_ends')
if not c[1] or not c[4] or c[1] ~= ARGV[1] or c[2] ~= '1' or c[3] == '1' then
  return 'closed' end
if tonumber(c[4]) <= tonumber(ARGV[4]) then return 'closed' end
if c[5] and tonumber(c[5]) > 0 and tonumber(c[5]) <= tonumber(ARGV[4]) then
  return 'closed' end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'again' end
local aside = tonumber(redis.call('HGET', KEYS[4], '!aside') or '0')
local mark = ''
if ARGV[10] ~= '' then
  mark = 'fresh'
  if tonumber(redis.call('HGET', KEYS[4], '@' .. ARGV[10]) or '0') >= tonumber(ARGV[11]) then
    mark = 'aside' end
end
local n = redis.call('HLEN', KEYS[2])
if mark == 'aside' then n = aside else n = n - aside end
if n >= tonumber(ARGV[5]) then return 'full' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if mark ~= '' then
  redis.call('HSET', KEYS[4], ARGV[2], mark)
  redis.call('HINCRBY', KEYS[4], '@' .. ARGV[10], 1)
  if mark == 'aside' then redis.call('HINCRBY', KEYS[4], '!aside', 1) end
end
if ARGV[12] ~= '' then redis.call('HINCRBY', KEYS[4], '#' .. ARGV[12], 1) end
if mark ~= '' or ARGV[12] ~= '' then redis.call('EXPIRE', KEYS[4], ARGV[7]) end
redis.call('HSET', KEYS[1], 'expires', ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[8])
redis.call('PUBLISH', ARGV[9], ARGV[13])
return 'counted'
"""

# A new class in one step (a script runs whole or not at all: a worker killed meanwhile
# leaves nothing half-made): not over a code already taken, not beyond the server's number of
# live classes (a sorted set of codes by expiry), its expiry set with it. Its first write is
# the class's hash: at Redis's memory limit that write is refused and nothing is made.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[1], '+inf') >= tonumber(ARGV[2]) then
  return -1 end
if KEYS[3] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return -2 end
end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if KEYS[3] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5])
  redis.call('EXPIRE', KEYS[3], ARGV[7])
end
return 1
"""

# A class in use lives the whole TTL (its hash, and its place among the live classes, the
# server's and its address's), unless it does already or is gone.
_USED = """
local e = redis.call('HGET', KEYS[1], 'expires')
if not e or tonumber(e) >= tonumber(ARGV[1]) - 60 then return 0 end
redis.call('HSET', KEYS[1], 'expires', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[3])
local addr = redis.call('HGET', KEYS[1], 'addr')
if addr and addr ~= '' then
  redis.call('ZADD', ARGV[4] .. addr, ARGV[1], ARGV[3])
  redis.call('EXPIRE', ARGV[4] .. addr, ARGV[2])
end
return 1
"""

# A counter of actions in a fixed window, for every worker: returns (count, seconds left).
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('TTL', KEYS[1])
if left < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); left = tonumber(ARGV[1]) end
return {n, left}
"""

_STATE_FIELDS = ("game", "query", "version", "round", "vote_open", "vote_query", "reveal",
                 "closed", "secret_hash", "expires")


def side_of(store, attr: str, redis_side, sqlite_side):
    """A class-mode feature's side of ``store``: ``redis_side(store)`` or
    ``sqlite_side(store)`` as the store is, made once per store and kept on it as ``attr``."""
    made = getattr(store, attr, None)
    if made is None:
        made = redis_side(store) if isinstance(store, RedisStore) else sqlite_side(store)
        setattr(store, attr, made)
    return made


class SqliteSideTables:
    """Tables a class-mode feature keeps beside the classes' in a ``SqliteStore`` (its
    ``SCHEMA``, which makes the ``TABLES``), made by its first write inside that write's own
    transaction (all or nothing): reading never changes a store no one wrote them in, and a
    read before them calls ``fn(None)``."""
    SCHEMA: tuple[str, ...] = ()
    TABLES: tuple[str, ...] = ()

    def __init__(self, store: SqliteStore):
        self.store = store
        self._made = False

    def _ready(self, db) -> None:
        if not self._made:
            for sql in self.SCHEMA:       # inside the caller's transaction: all or nothing
                db.execute(sql)
            self._made = True

    def _there(self, db) -> bool:
        """All the ``TABLES`` are in the store (read in the caller's connection ``db``)."""
        marks = ", ".join("?" * len(self.TABLES))
        n = db.execute(f"SELECT COUNT(*) FROM sqlite_master WHERE name IN ({marks})",
                       self.TABLES).fetchone()[0]
        return n == len(self.TABLES)

    def _read(self, fn):
        return self.store._call(lambda db: fn(db if self._there(db) else None))

    def _write(self, fn):
        def run(db):
            self._ready(db)
            return fn(db)
        try:
            return self.store._write(run)
        except Exception:
            # rolled back with the tables it made, or the file changed: check them again
            self._made = False
            raise


class RedisStore(ClassStore):
    """State in Redis hashes that expire with the class, fan-out by pub/sub (one channel per
    class, every worker subscribed to the pattern): instances on several machines serve one
    class. Run Redis with persistence (appendonly) if a restart of Redis itself must lose
    nothing. Every write is one step (a Lua script, or MULTI/EXEC with the expiry inside):
    a worker killed or Redis refusing a write (``maxmemory``) leaves no half-written class;
    Redis's errors are said as ``StoreError`` (a 503, never a 500)."""

    def __init__(self, url: str, *, ttl: float = TTL, prefix: str = "minimax-lab:",
                 clock: Callable[[], float] = time.time):
        import redis

        self.redis = redis.Redis.from_url(url, decode_responses=True, health_check_interval=30,
                                          socket_timeout=5, socket_connect_timeout=2)
        self.url, self.ttl, self.prefix, self.clock = url, ttl, prefix, clock
        self.max_classes = MAX_CLASSES
        self.unused_ttl, self.live_per_address = UNUSED_TTL, LIVE_PER_ADDRESS
        self._used = self.redis.register_script(_USED)
        self._vote = self.redis.register_script(_VOTE)
        self._create = self.redis.register_script(_CREATE)
        self._hit = self.redis.register_script(_HIT)
        self._signing_key = None

    @contextmanager
    def _errors(self):
        """Redis's errors as the store's: out of reach → busy; refusing writes (memory
        limit, a read-only replica, a script or transaction refused) → full."""
        import redis

        try:
            yield
        except StoreError:
            raise
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError) as err:
            raise report(StoreBusy(), f"{self.url}: {err}") from err
        except redis.RedisError as err:
            raise report(StoreFull(), f"{self.url}: {err}") from err

    def _key(self, code, *rest) -> str:
        return ":".join((f"{self.prefix}class", code, *map(str, rest)))

    @property
    def _classes(self) -> str:
        return f"{self.prefix}classes"

    def _publish(self, code, kind):
        with self._errors():
            self.redis.publish(f"{self.prefix}events:{code}", kind)

    def _keep(self, pipe, code, expires, round_=None):
        seconds = int(self.ttl) + 60
        pipe.expire(self._key(code), seconds)
        for part in ("names", "followers"):
            pipe.expire(self._key(code, part), seconds)
        if round_:
            pipe.expire(self._key(code, "ballots", round_), seconds)
            pipe.expire(self._key(code, "marks", round_), seconds)
        pipe.zadd(self._classes, {code: expires})

    def _state(self, code, h) -> ClassState | None:
        """The class in hash ``h``; None when there is none, it has expired, or it is not
        whole (a class half-written by an older version: absent, a 404, never a 500)."""
        if not h or any(f not in h for f in _STATE_FIELDS):
            return None
        try:
            ends = float(h.get("vote_ends") or 0)
            timed_out = bool(ends) and ends <= self.clock()
            state = ClassState(code, h["game"], h["query"], int(h["version"]),
                               int(h["round"]), h["vote_open"] == "1" and not timed_out,
                               h["vote_query"], h["reveal"], h["closed"] == "1",
                               h["secret_hash"], float(h["expires"]), ends)
        except ValueError:
            return None
        return state if state.expires > self.clock() else None

    def create(self, game, query, address=""):
        secret = secrets.token_urlsafe(18)
        now = self.clock()
        lives = self.first_life(address)
        fields = dict(game=game, query=query, version=1, round=0, vote_open=0,
                      vote_query="", reveal="", closed=0, secret_hash=secret_hash(secret),
                      expires=now + lives, addr=address)
        flat = [str(x) for kv in fields.items() for x in kv]
        with self._errors():
            while True:
                code = new_code()
                made = self._create(
                    keys=[self._key(code), self._classes,
                          self._address_key(address) if address else ""],
                    args=[now, self.max_classes, now + lives, int(lives) + 60, code,
                          self.live_per_address, int(self.ttl) + 60, *flat])
                if made == -1:
                    return None
                if made == -2:
                    return ADDRESS_FULL
                if made == 1:
                    return self.get(code), secret

    def _address_key(self, address: str) -> str:
        return f"{self.prefix}address-classes:{address}"

    def used(self, code):
        with self._errors():
            self._used(keys=[self._key(code), self._classes],
                       args=[self.clock() + self.ttl, int(self.ttl) + 60, code,
                             self._address_key("")])

    def hit(self, key, most, window):
        with self._errors():
            n, left = self._hit(keys=[f"{self.prefix}limit:{key}"], args=[int(window)])
        return 0 if n <= most else max(1, int(left))

    def signing_key(self):
        if self._signing_key is None:
            key = f"{self.prefix}meta"
            with self._errors():
                self.redis.hsetnx(key, "signing_key", secrets.token_hex(32))
                self._signing_key = self.redis.hget(key, "signing_key").encode()
        return self._signing_key

    def get(self, code):
        with self._errors():
            return self._state(code, self.redis.hgetall(self._key(code)))

    def _change(self, code, check, update, kind) -> ClassState | None:
        """Read, check and write under WATCH: a change made meanwhile by another worker
        retries, never overwrites; the write and its expiry in one MULTI/EXEC."""
        import redis

        key = self._key(code)
        with self._errors(), self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    state = self._state(code, pipe.hgetall(key))
                    if state is None or not check(state):
                        pipe.unwatch()
                        return state
                    expires = self.clock() + self.ttl
                    pipe.multi()
                    pipe.hset(key, mapping={**update(state), "expires": expires})
                    self._keep(pipe, code, expires, state.round)
                    pipe.publish(f"{self.prefix}events:{code}", kind)
                    pipe.execute()
                    return self.get(code)
                except redis.WatchError:
                    continue

    def set_board(self, code, game, query):
        return self._change(
            code, lambda s: not s.closed and (s.game, s.query) != (game, query),
            lambda s: dict(game=game, query=query, version=s.version + 1), "board")

    def open_vote(self, code, seconds=0):
        ends = self.clock() + seconds if seconds else 0.0
        return self._change(code, lambda s: not s.closed,
                            lambda s: dict(round=s.round + 1, vote_open=1, vote_query=s.query,
                                           reveal="", vote_ends=ends), "vote")

    def close_vote(self, code):
        return self._change(code, lambda s: s.vote_open,
                            lambda s: dict(vote_open=0, vote_ends=0), "vote")

    def set_reveal(self, code, move_label):
        return self._change(code, lambda s: s.round > 0, lambda s: dict(reveal=move_label),
                            "vote")

    def end(self, code):
        return self._change(code, lambda s: not s.closed,
                            lambda s: dict(closed=1, vote_open=0), "closed")

    def vote(self, code, round_, voter, choice, fresh_from=None, address=None):
        now = self.clock()
        with self._errors():
            result = Vote(self._vote(
                keys=[self._key(code), self._key(code, "ballots", round_), self._classes,
                      self._key(code, "marks", round_)],
                args=[round_, voter, choice, now, MAX_BALLOTS, now + self.ttl,
                      int(self.ttl) + 60, code, f"{self.prefix}events:{code}",
                      "" if fresh_from is None else fresh_from or "?", FRESH_BALLOTS,
                      fresh_from or address or "", tally_event(voter)]))
        return result

    def ballot(self, code, round_, voter):
        with self._errors():
            return self.redis.hget(self._key(code, "ballots", round_), voter)

    def tally(self, code, round_):
        with self._errors(), self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self._key(code, "ballots", round_))
            pipe.hgetall(self._key(code, "marks", round_))
            ballots, marks = pipe.execute()
        return room_tally(ballots, marks)

    def set_name(self, code, voter, name):
        import redis

        key = self._key(code, "names")
        with self._errors(), self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    if not pipe.hexists(key, voter) and pipe.hlen(key) >= MAX_NAMES:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.hset(key, voter, name)
                    pipe.expire(key, int(self.ttl) + 60)
                    pipe.publish(f"{self.prefix}events:{code}", "followers")   # the names
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def names(self, code):
        with self._errors():
            return self.redis.hgetall(self._key(code, "names"))

    # the class's followers: a sorted set of "sid stream" scored by when that stream was seen

    def _followers_seen(self, code, now) -> set[str]:
        """The followers (sids) with a stream seen within ``FOLLOWER_TIMEOUT``."""
        members = self.redis.zrangebyscore(self._key(code, "followers"),
                                           f"({now - FOLLOWER_TIMEOUT!r}", "+inf")
        return {m.rpartition(" ")[0] or m for m in members}     # (or a sid alone: before)

    def follower_seen(self, code, sid, stream=""):
        key, now = self._key(code, "followers"), self.clock()
        with self._errors():
            new = sid not in self._followers_seen(code, now)
            with self.redis.pipeline() as pipe:
                pipe.zadd(key, {f"{sid} {stream}": now})
                pipe.expire(key, int(self.ttl) + 60)
                pipe.execute()
        if new:
            self._publish(code, "followers")
        return new

    def follower_gone(self, code, sid, stream=""):
        with self._errors():
            gone = (self.redis.zrem(self._key(code, "followers"), f"{sid} {stream}")
                    and sid not in self._followers_seen(code, self.clock()))
        if gone:
            self._publish(code, "followers")

    def followers(self, code):
        key = self._key(code, "followers")
        now = self.clock()
        with self._errors():
            self.redis.zremrangebyscore(key, "-inf", now - FOLLOWER_TIMEOUT)
            return len(self._followers_seen(code, now))

    def listen(self, callback, stop):
        import redis

        prefix = f"{self.prefix}events:"
        while not stop.is_set():
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(prefix + "*")
                callback(None, "board")   # (re)connected: events may have been missed
                while not stop.is_set():
                    msg = pubsub.get_message(timeout=1.0)
                    if msg and msg["type"] == "pmessage":
                        callback(msg["channel"][len(prefix):], msg["data"])
            except (redis.RedisError, OSError):
                stop.wait(1.0)            # Redis restarting: try again, then resynchronise
            finally:
                pubsub.close()

    def close(self):
        self.redis.close()


def open_store(config: dict, clock: Callable[[], float] = time.time) -> ClassStore:
    """The app's store: Redis when ``REDIS_URL`` is set (config or environment), else SQLite
    at ``CLASS_DB`` (default ``var/classes.sqlite3`` beside the app)."""
    url = config["REDIS_URL"] if "REDIS_URL" in config else os.environ.get("REDIS_URL")
    ttl = float(config.get("CLASS_TTL", TTL))
    if url:
        return RedisStore(url, ttl=ttl, clock=clock)
    path = (config.get("CLASS_DB") or os.environ.get("CLASS_DB")
            or Path(__file__).resolve().parent.parent / "var" / "classes.sqlite3")
    return SqliteStore(path, ttl=ttl, clock=clock)
