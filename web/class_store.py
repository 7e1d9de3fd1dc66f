"""Class mode's state, and its fan-out: one small interface, two backends.

A class is a code students type (``K7PQMX``), a secret only the teacher's link holds, the
game the teacher shows (its game name and link parameters, as the URL carries any game), a
version that bumps with every change of the board, the vote rounds and their ballots, the
students' nicknames and who follows the class now. Nothing of it lives in a worker's
memory: any worker of any instance answers any request of the class, and a worker killed or
a server restarted mid-lesson loses no move or ballot.

- ``SqliteStore`` (the default, ``CLASS_DB``): an embedded database file, so ``scripts/serve``
  needs nothing else. The workers of one machine share the file; a change is also written to
  an ``events`` table, which each worker reads every ``poll`` seconds to wake its streams.
- ``RedisStore`` (when ``REDIS_URL`` is set): hashes and sets with an expiry, and Redis
  pub/sub for the fan-out, so instances on several machines serve one class.

Both answer ``listen(callback)``: a background loop (a greenlet under gevent) that calls
``callback(code, kind)`` for every change of every class, ``kind`` one of ``EVENT_KINDS``
(``web.class_live`` hands them to the streams of this worker). A class expires ``ttl``
seconds after its last change (a few hours of inactivity); an ended class is kept until then,
so its students see "the class has ended" rather than "no such class".
"""
from __future__ import annotations

import hashlib
import hmac
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

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, no 1/I: read off a projector
CODE_LENGTH = 6
TTL = int(os.environ.get("CLASS_TTL", 4 * 3600))      # seconds of inactivity before expiry
FOLLOWER_TIMEOUT = 45.0     # a stream not seen for this long (heartbeats every 15 s) is gone
MAX_BALLOTS = 2000          # per round: a script forging cookies cannot grow a round forever
MAX_NAMES = 2000            # nicknames per class, for the same reason
EVENT_KINDS = ("board", "vote", "tally", "followers", "closed")


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class ClassState:
    """One class as the pages need it."""

    code: str
    game: str              # a name of the games table: connect4, nim
    query: str             # the game's link parameters (no proj, lang or cls): the board
    version: int           # bumps with every change of the board
    round: int             # the current vote round, 0 before the first
    vote_open: bool
    vote_query: str        # the position the current round votes on
    reveal: str            # the AI's move on that position, once the teacher reveals it
    closed: bool           # the teacher ended the class
    secret_hash: str
    expires: float

    def is_teacher(self, secret: str | None) -> bool:
        """Whether ``secret`` is this class's teacher secret (compared in constant time)."""
        return bool(secret) and hmac.compare_digest(secret_hash(secret), self.secret_hash)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class ClassStore:
    """What both backends do. ``clock`` is wall time (tests move it to expire a class)."""

    ttl: float
    clock: Callable[[], float]
    # what the backend raises when it cannot be reached (the app answers 503, try again)
    unavailable: tuple[type[BaseException], ...] = ()

    def create(self, game: str, query: str) -> tuple[ClassState, str]:
        """A new class showing ``game`` at ``query``; returns it and the teacher's secret,
        which is random and independent of the code (only its hash is stored)."""
        raise NotImplementedError

    def get(self, code: str) -> ClassState | None:
        """The class, or None when there is none with this code or it has expired."""
        raise NotImplementedError

    def set_board(self, code: str, game: str, query: str) -> ClassState | None:
        """The teacher's board changed (a move, undo, settings, a tree step): store it and
        tell the followers. Nothing changes (no event) when it is the same board."""
        raise NotImplementedError

    def open_vote(self, code: str) -> ClassState | None:
        """A new round on the board shown; the previous one closes."""
        raise NotImplementedError

    def close_vote(self, code: str) -> ClassState | None:
        raise NotImplementedError

    def set_reveal(self, code: str, move_label: str) -> ClassState | None:
        """The AI's move on the round's position, shown beside the class's votes."""
        raise NotImplementedError

    def end(self, code: str) -> ClassState | None:
        raise NotImplementedError

    def vote(self, code: str, round_: int, voter: str, choice: str) -> bool:
        """Count ``voter``'s ballot in ``round_`` if the round is open and they have not voted
        in it yet: True when counted. Checked and written in one step (no race)."""
        raise NotImplementedError

    def ballot(self, code: str, round_: int, voter: str) -> str | None:
        raise NotImplementedError

    def tally(self, code: str, round_: int) -> Counter:
        raise NotImplementedError

    def set_name(self, code: str, voter: str, name: str) -> None:
        raise NotImplementedError

    def names(self, code: str) -> dict[str, str]:
        raise NotImplementedError

    def follower_seen(self, code: str, sid: str) -> bool:
        """A follower's stream is open (called on connect and at each heartbeat); True when
        it was not counted yet, and then the teacher's count is told."""
        raise NotImplementedError

    def follower_gone(self, code: str, sid: str) -> None:
        raise NotImplementedError

    def followers(self, code: str) -> int:
        """Streams seen within ``FOLLOWER_TIMEOUT``: a worker killed without saying goodbye
        stops being counted by itself."""
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
  reveal TEXT NOT NULL DEFAULT '', closed INTEGER NOT NULL DEFAULT 0, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ballots (
  code TEXT NOT NULL, round INTEGER NOT NULL, voter TEXT NOT NULL, choice TEXT NOT NULL,
  PRIMARY KEY (code, round, voter));
CREATE TABLE IF NOT EXISTS names (
  code TEXT NOT NULL, voter TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (code, voter));
CREATE TABLE IF NOT EXISTS followers (
  code TEXT NOT NULL, sid TEXT NOT NULL, seen REAL NOT NULL, PRIMARY KEY (code, sid));
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, kind TEXT NOT NULL, at REAL NOT NULL);
"""
_FIELDS = ("code", "game", "query", "version", "round", "vote_open", "vote_query", "reveal",
           "closed", "secret_hash", "expires")


class SqliteStore(ClassStore):
    """The embedded default: one database file shared by the workers of one machine (WAL, so
    readers never wait for a writer). One connection per process, behind a lock: each
    statement takes microseconds, and under gevent the lock is a greenlet lock."""

    unavailable = (sqlite3.OperationalError,)

    def __init__(self, path: str | Path, *, ttl: float = TTL, poll: float = 0.1,
                 clock: Callable[[], float] = time.time):
        self.path, self.ttl, self.poll, self.clock = str(path), ttl, poll, clock
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = None
        self._pid = None
        self._published = 0
        with self._conn() as db:
            db.executescript(SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        # A worker forked from a parent that had opened the file opens its own connection.
        if self._db is None or self._pid != os.getpid():
            self._db = sqlite3.connect(self.path, timeout=5, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._pid = os.getpid()
        return _Locked(self._db, self._lock)

    @contextmanager
    def _transaction(self):
        """One write transaction, taken at once (BEGIN IMMEDIATE: no other worker writes in
        between), committed at the end of the block, rolled back if it raises. A block that
        returns early has written nothing, so its commit changes nothing."""
        with self._conn() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

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
        state = ClassState(**{**state.__dict__, "vote_open": bool(state.vote_open),
                              "closed": bool(state.closed)})
        return state if state.expires > self.clock() else None

    def _change(self, code: str, sql: str, args: tuple, kind: str,
                only_if: str = "1") -> ClassState | None:
        with self._transaction() as db:
            if self._row(db, code) is None:
                return None
            cur = db.execute(f"UPDATE classes SET {sql}, expires = ? WHERE code = ? "
                             f"AND ({only_if})", (*args, self.clock() + self.ttl, code))
            if cur.rowcount:
                self._publish(db, code, kind)
            return self._row(db, code)

    def create(self, game, query):
        secret = secrets.token_urlsafe(18)
        now = self.clock()
        with self._transaction() as db:
            self._purge(db, now)
            while True:
                code = new_code()
                if not db.execute("SELECT 1 FROM classes WHERE code = ?", (code,)).fetchone():
                    break
            db.execute("INSERT INTO classes (code, secret_hash, game, query, expires) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (code, secret_hash(secret), game, query, now + self.ttl))
        return self.get(code), secret

    def _purge(self, db, now):
        expired = [r[0] for r in db.execute("SELECT code FROM classes WHERE expires <= ?",
                                            (now,))]
        for table in ("classes", "ballots", "names", "followers"):
            db.executemany(f"DELETE FROM {table} WHERE code = ?", [(c,) for c in expired])

    def get(self, code):
        with self._conn() as db:
            return self._row(db, code)

    def set_board(self, code, game, query):
        with self._transaction() as db:
            state = self._row(db, code)
            if state is None or state.closed:
                return state
            if (state.game, state.query) != (game, query):
                db.execute("UPDATE classes SET game = ?, query = ?, version = version + 1, "
                           "expires = ? WHERE code = ?",
                           (game, query, self.clock() + self.ttl, code))
                self._publish(db, code, "board")
            return self._row(db, code)

    def open_vote(self, code):
        return self._change(code, "round = round + 1, vote_open = 1, vote_query = query, "
                            "reveal = ''", (), "vote", only_if="closed = 0")

    def close_vote(self, code):
        return self._change(code, "vote_open = 0", (), "vote", only_if="vote_open = 1")

    def set_reveal(self, code, move_label):
        return self._change(code, "reveal = ?", (move_label,), "vote", only_if="round > 0")

    def end(self, code):
        return self._change(code, "closed = 1, vote_open = 0", (), "closed",
                            only_if="closed = 0")

    def vote(self, code, round_, voter, choice):
        with self._transaction() as db:
            state = self._row(db, code)
            counted = False
            if (state is not None and state.vote_open and not state.closed
                    and state.round == round_):
                n = db.execute("SELECT COUNT(*) FROM ballots WHERE code = ? AND round = ?",
                               (code, round_)).fetchone()[0]
                if n < MAX_BALLOTS:
                    counted = db.execute("INSERT OR IGNORE INTO ballots VALUES (?, ?, ?, ?)",
                                         (code, round_, voter, choice)).rowcount == 1
            if counted:
                db.execute("UPDATE classes SET expires = ? WHERE code = ?",
                           (self.clock() + self.ttl, code))
                self._publish(db, code, "tally")
            return counted

    def ballot(self, code, round_, voter):
        with self._conn() as db:
            row = db.execute("SELECT choice FROM ballots WHERE code = ? AND round = ? AND "
                             "voter = ?", (code, round_, voter)).fetchone()
        return row[0] if row else None

    def tally(self, code, round_):
        with self._conn() as db:
            rows = db.execute("SELECT choice, COUNT(*) FROM ballots WHERE code = ? AND "
                              "round = ? GROUP BY choice", (code, round_)).fetchall()
        return Counter(dict(rows))

    def set_name(self, code, voter, name):
        with self._conn() as db:
            n = db.execute("SELECT COUNT(*) FROM names WHERE code = ?", (code,)).fetchone()[0]
            if n < MAX_NAMES:
                db.execute("INSERT OR REPLACE INTO names VALUES (?, ?, ?)", (code, voter, name))
            else:
                db.execute("UPDATE names SET name = ? WHERE code = ? AND voter = ?",
                           (name, code, voter))

    def names(self, code):
        with self._conn() as db:
            return dict(db.execute("SELECT voter, name FROM names WHERE code = ?", (code,)))

    def follower_seen(self, code, sid):
        now = self.clock()
        with self._transaction() as db:
            new = db.execute("SELECT seen FROM followers WHERE code = ? AND sid = ?",
                             (code, sid)).fetchone() is None
            db.execute("INSERT OR REPLACE INTO followers VALUES (?, ?, ?)", (code, sid, now))
            if new:
                self._publish(db, code, "followers")
            return new

    def follower_gone(self, code, sid):
        with self._conn() as db:
            if db.execute("DELETE FROM followers WHERE code = ? AND sid = ?",
                          (code, sid)).rowcount:
                self._publish(db, code, "followers")

    def followers(self, code):
        with self._conn() as db:
            return db.execute("SELECT COUNT(*) FROM followers WHERE code = ? AND seen > ?",
                              (code, self.clock() - FOLLOWER_TIMEOUT)).fetchone()[0]

    def listen(self, callback, stop):
        with self._conn() as db:
            last = db.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]
        callback(None, "board")     # a change made before that read is not missed either
        while not stop.wait(self.poll):
            with self._conn() as db:
                rows = db.execute("SELECT id, code, kind FROM events WHERE id > ? ORDER BY id",
                                  (last,)).fetchall()
            for last, code, kind in rows:
                callback(code, kind)

    def close(self):
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None


class _Locked:
    """``with store._conn() as db``: the process's connection, held by one thread (greenlet)
    at a time."""

    def __init__(self, db, lock):
        self.db, self.lock = db, lock

    def __enter__(self):
        self.lock.acquire()
        return self.db

    def __exit__(self, *exc):
        self.lock.release()


# -- Redis ---------------------------------------------------------------------------------------

# A vote, checked and counted in one step inside Redis: the round must be the open one, and
# HSETNX keeps a voter's first ballot only.
_VOTE = """
local c = redis.call('HMGET', KEYS[1], 'round', 'vote_open', 'closed', 'expires')
if not c[1] or c[1] ~= ARGV[1] or c[2] ~= '1' or c[3] == '1' then return 0 end
if tonumber(c[4]) <= tonumber(ARGV[4]) then return 0 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
local n = redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3])
if n == 1 then
  redis.call('HSET', KEYS[1], 'expires', ARGV[6])
  redis.call('EXPIRE', KEYS[2], ARGV[7])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
end
return n
"""


class RedisStore(ClassStore):
    """State in Redis hashes that expire with the class, fan-out by pub/sub (one channel per
    class, every worker subscribed to the pattern): instances on several machines serve one
    class. Run Redis with persistence (appendonly) if a restart of Redis itself must lose
    nothing."""

    def __init__(self, url: str, *, ttl: float = TTL, prefix: str = "minimax-lab:",
                 clock: Callable[[], float] = time.time):
        import redis

        self.redis = redis.Redis.from_url(url, decode_responses=True,
                                          health_check_interval=30)
        self.url, self.ttl, self.prefix, self.clock = url, ttl, prefix, clock
        self._vote = self.redis.register_script(_VOTE)
        self.unavailable = (redis.ConnectionError, redis.TimeoutError)

    def _key(self, code, *rest) -> str:
        return ":".join((f"{self.prefix}class", code, *map(str, rest)))

    def _publish(self, code, kind):
        self.redis.publish(f"{self.prefix}events:{code}", kind)

    def _keep(self, pipe, code, round_=None):
        seconds = int(self.ttl) + 60
        pipe.expire(self._key(code), seconds)
        for part in ("names", "followers"):
            pipe.expire(self._key(code, part), seconds)
        if round_:
            pipe.expire(self._key(code, "ballots", round_), seconds)

    def _state(self, code, h) -> ClassState | None:
        if not h or float(h["expires"]) <= self.clock():
            return None
        return ClassState(code, h["game"], h["query"], int(h["version"]), int(h["round"]),
                          h["vote_open"] == "1", h["vote_query"], h["reveal"],
                          h["closed"] == "1", h["secret_hash"], float(h["expires"]))

    def create(self, game, query):
        secret = secrets.token_urlsafe(18)
        while True:
            code = new_code()
            fields = dict(game=game, query=query, version=1, round=0, vote_open=0,
                          vote_query="", reveal="", closed=0, secret_hash=secret_hash(secret),
                          expires=self.clock() + self.ttl)
            # HSETNX on one field first: a code already taken is never overwritten
            if self.redis.hsetnx(self._key(code), "secret_hash", fields["secret_hash"]):
                break
        with self.redis.pipeline() as pipe:
            pipe.hset(self._key(code), mapping=fields)
            self._keep(pipe, code)
            pipe.execute()
        return self.get(code), secret

    def get(self, code):
        return self._state(code, self.redis.hgetall(self._key(code)))

    def _change(self, code, check, update, kind) -> ClassState | None:
        """Read, check and write under WATCH: a change made meanwhile by another worker
        retries, never overwrites."""
        import redis

        key = self._key(code)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    state = self._state(code, pipe.hgetall(key))
                    if state is None or not check(state):
                        pipe.unwatch()
                        return state
                    pipe.multi()
                    pipe.hset(key, mapping={**update(state),
                                            "expires": self.clock() + self.ttl})
                    self._keep(pipe, code, state.round)
                    pipe.publish(f"{self.prefix}events:{code}", kind)
                    pipe.execute()
                    return self.get(code)
                except redis.WatchError:
                    continue

    def set_board(self, code, game, query):
        return self._change(
            code, lambda s: not s.closed and (s.game, s.query) != (game, query),
            lambda s: dict(game=game, query=query, version=s.version + 1), "board")

    def open_vote(self, code):
        return self._change(code, lambda s: not s.closed,
                            lambda s: dict(round=s.round + 1, vote_open=1, vote_query=s.query,
                                           reveal=""), "vote")

    def close_vote(self, code):
        return self._change(code, lambda s: s.vote_open, lambda s: dict(vote_open=0), "vote")

    def set_reveal(self, code, move_label):
        return self._change(code, lambda s: s.round > 0, lambda s: dict(reveal=move_label),
                            "vote")

    def end(self, code):
        return self._change(code, lambda s: not s.closed,
                            lambda s: dict(closed=1, vote_open=0), "closed")

    def vote(self, code, round_, voter, choice):
        now = self.clock()
        counted = self._vote(keys=[self._key(code), self._key(code, "ballots", round_)],
                             args=[round_, voter, choice, now, MAX_BALLOTS, now + self.ttl,
                                   int(self.ttl) + 60]) == 1
        if counted:
            self._publish(code, "tally")
        return counted

    def ballot(self, code, round_, voter):
        return self.redis.hget(self._key(code, "ballots", round_), voter)

    def tally(self, code, round_):
        return Counter(self.redis.hvals(self._key(code, "ballots", round_)))

    def set_name(self, code, voter, name):
        key = self._key(code, "names")
        if self.redis.hexists(key, voter) or self.redis.hlen(key) < MAX_NAMES:
            with self.redis.pipeline() as pipe:
                pipe.hset(key, voter, name)
                pipe.expire(key, int(self.ttl) + 60)
                pipe.execute()

    def names(self, code):
        return self.redis.hgetall(self._key(code, "names"))

    def follower_seen(self, code, sid):
        key = self._key(code, "followers")
        with self.redis.pipeline() as pipe:
            pipe.zadd(key, {sid: self.clock()})
            pipe.expire(key, int(self.ttl) + 60)
            new = pipe.execute()[0] == 1
        if new:
            self._publish(code, "followers")
        return new

    def follower_gone(self, code, sid):
        if self.redis.zrem(self._key(code, "followers"), sid):
            self._publish(code, "followers")

    def followers(self, code):
        key = self._key(code, "followers")
        now = self.clock()
        with self.redis.pipeline() as pipe:
            pipe.zremrangebyscore(key, "-inf", now - FOLLOWER_TIMEOUT)
            pipe.zcard(key)
            return pipe.execute()[1]

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
            except (redis.ConnectionError, redis.TimeoutError, OSError):
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
