"""The class's answers beyond the vote: peer instruction, "predict the next step" questions
and class exercises, kept in the class store with the same guarantees as the votes.

A class has at most one *activity* at a time (``Activity``: a number ``seq`` that grows, a
kind, its data, open or closed, revealed or not); every activity stays in the class's
history for the summary at the end. Students' answers to the current one are checked and
written in one step, like ballots: only while it is open, one per student for a question
(the first kept), or, for an exercise (``again=True``), the latest kept beside the first
(the dashboard reads first tries, the student's own page the latest).

The same small interface on both backends, written with the store's own primitives (its
transactions and events on SQLite, Lua and WATCH on Redis): ``answers_of(store)``. Nothing
here lives in a worker's memory. A store that fails raises ``StoreError`` (a 503 saying so),
having written nothing.

Events: a change of the activity is a ``vote`` event (every page of the class re-reads it),
an answer a ``tally`` event of its voter (``tally_event``: the teacher's page and the voter's
own phone), as the vote's own.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .store import MAX_BALLOTS, RedisStore, SqliteSideTables, Vote, side_of, tally_event

MAX_ANSWER_TEXT = 16000       # characters of one stored answer (an exercise's form, encoded)
MAX_HISTORY = 200             # activities kept per class (a lesson has a few dozen)


@dataclass(frozen=True)
class Activity:
    seq: int
    kind: str                 # "peer", "predict", "exercise"
    data: dict = field(default_factory=dict)
    open: bool = True
    revealed: bool = False

    def as_json(self) -> str:
        return json.dumps({"seq": self.seq, "kind": self.kind, "data": self.data,
                           "open": self.open, "revealed": self.revealed},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> "Activity | None":
        if not text:
            return None
        try:
            d = json.loads(text)
            return cls(int(d["seq"]), str(d["kind"]), dict(d["data"]), bool(d["open"]),
                       bool(d["revealed"]))
        except (ValueError, KeyError, TypeError):
            return None               # written by another version: absent, never a 500


@dataclass(frozen=True)
class Given:
    """A student's answer to an activity: the first sent, the latest, how many were sent."""

    first: str
    latest: str
    sent: int


class Answers:
    """What both backends do (see the module)."""

    def current(self, code: str) -> Activity | None:
        raise NotImplementedError

    def history(self, code: str) -> list[Activity]:
        raise NotImplementedError

    def start(self, code: str, kind: str, data: dict) -> Activity | None:
        """A new activity, open, not revealed (the previous one is closed): None when the
        class is gone or ended."""
        raise NotImplementedError

    def change(self, code: str, seq: int, *, open: bool | None = None,
               revealed: bool | None = None, data: dict | None = None,
               event: str = "vote") -> Activity | None:
        """Close, reopen or reveal the activity ``seq``, or add to its data (merged), if it
        is still the current one; returns the current activity. ``event``: "tally" for a
        change only the teacher's page shows (a phone's form is not drawn again)."""
        raise NotImplementedError

    def answer(self, code: str, seq: int, voter: str, text: str, *,
               again: bool = False) -> Vote:
        """``voter``'s answer to activity ``seq``: counted when it is the open one (and,
        unless ``again``, this voter has not answered yet), else why not."""
        raise NotImplementedError

    def given(self, code: str, seq: int, voter: str) -> Given | None:
        raise NotImplementedError

    def all_given(self, code: str, seq: int) -> dict[str, Given]:
        raise NotImplementedError

    def settings(self, code: str) -> dict[str, str]:
        raise NotImplementedError

    def set_setting(self, code: str, key: str, value: str) -> None:
        raise NotImplementedError


# -- SQLite --------------------------------------------------------------------------------------

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS activities (code TEXT NOT NULL, seq INTEGER NOT NULL, "
    "body TEXT NOT NULL, PRIMARY KEY (code, seq))",
    "CREATE TABLE IF NOT EXISTS answers (code TEXT NOT NULL, seq INTEGER NOT NULL, "
    "voter TEXT NOT NULL, first TEXT NOT NULL, latest TEXT NOT NULL, sent INTEGER NOT NULL, "
    "PRIMARY KEY (code, seq, voter))",
    "CREATE TABLE IF NOT EXISTS class_settings (code TEXT NOT NULL, key TEXT NOT NULL, "
    "value TEXT NOT NULL, PRIMARY KEY (code, key))",
)


class SqliteAnswers(SqliteSideTables, Answers):
    SCHEMA = SCHEMA
    TABLES = ("activities", "answers", "class_settings")

    @staticmethod
    def _current(db, code) -> Activity | None:
        if db is None:
            return None
        row = db.execute("SELECT body FROM activities WHERE code = ? ORDER BY seq DESC "
                         "LIMIT 1", (code,)).fetchone()
        return Activity.from_json(row[0]) if row else None

    def current(self, code):
        return self._read(lambda db: self._current(db, code))

    def history(self, code):
        def read(db):
            if db is None:
                return []
            rows = db.execute("SELECT body FROM activities WHERE code = ? ORDER BY seq",
                              (code,)).fetchall()
            return [a for a in (Activity.from_json(r[0]) for r in rows) if a is not None]
        return self._read(read)

    def _bump(self, db, code, kind):
        db.execute("UPDATE classes SET expires = ? WHERE code = ?",
                   (self.store.clock() + self.store.ttl, code))
        self.store._publish(db, code, kind)

    def start(self, code, kind, data):
        def start(db):
            state = self.store._row(db, code)
            if state is None or state.closed:
                return None
            before = self._current(db, code)
            if before is not None and before.open:
                db.execute("UPDATE activities SET body = ? WHERE code = ? AND seq = ?",
                           (Activity(before.seq, before.kind, before.data, False,
                                     before.revealed).as_json(), code, before.seq))
            made = Activity((before.seq if before else 0) + 1, kind, data)
            db.execute("INSERT INTO activities VALUES (?, ?, ?)", (code, made.seq,
                                                                    made.as_json()))
            db.execute("DELETE FROM activities WHERE code = ? AND seq <= ?",
                       (code, made.seq - MAX_HISTORY))
            # the answers of classes that have expired go with them (their class row is gone)
            db.execute("DELETE FROM answers WHERE code NOT IN (SELECT code FROM classes)")
            db.execute("DELETE FROM activities WHERE code NOT IN (SELECT code FROM classes)")
            self._bump(db, code, "vote")
            return made
        return self._write(start)

    def change(self, code, seq, *, open=None, revealed=None, data=None, event="vote"):
        def change(db):
            state = self.store._row(db, code)
            now = self._current(db, code)
            if state is None or state.closed or now is None or now.seq != seq:
                return now
            new = Activity(now.seq, now.kind, {**now.data, **(data or {})},
                           now.open if open is None else open,
                           now.revealed if revealed is None else revealed)
            if new != now:
                db.execute("UPDATE activities SET body = ? WHERE code = ? AND seq = ?",
                           (new.as_json(), code, seq))
                self._bump(db, code, event)
            return new
        return self._write(change)

    def answer(self, code, seq, voter, text, *, again=False):
        text = text[:MAX_ANSWER_TEXT]

        def answer(db):
            state = self.store._row(db, code)
            now = self._current(db, code)
            if state is None or state.closed or now is None or now.seq != seq or not now.open:
                return Vote.CLOSED
            known = db.execute("SELECT 1 FROM answers WHERE code = ? AND seq = ? AND voter = ?",
                               (code, seq, voter)).fetchone()
            if known and not again:
                return Vote.AGAIN
            if known:
                db.execute("UPDATE answers SET latest = ?, sent = sent + 1 WHERE code = ? "
                           "AND seq = ? AND voter = ?", (text, code, seq, voter))
            else:
                n = db.execute("SELECT COUNT(*) FROM answers WHERE code = ? AND seq = ?",
                               (code, seq)).fetchone()[0]
                if n >= MAX_BALLOTS:
                    return Vote.FULL
                db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, ?, 1)",
                           (code, seq, voter, text, text))
            self._bump(db, code, tally_event(voter))
            return Vote.COUNTED
        return self._write(answer)

    def given(self, code, seq, voter):
        def read(db):
            if db is None:
                return None
            row = db.execute("SELECT first, latest, sent FROM answers WHERE code = ? AND "
                             "seq = ? AND voter = ?", (code, seq, voter)).fetchone()
            return Given(*row) if row else None
        return self._read(read)

    def all_given(self, code, seq):
        def read(db):
            if db is None:
                return {}
            return {v: Given(f, l, n) for v, f, l, n in db.execute(
                "SELECT voter, first, latest, sent FROM answers WHERE code = ? AND seq = ? "
                "ORDER BY rowid", (code, seq))}
        return self._read(read)

    def settings(self, code):
        return self._read(lambda db: {} if db is None else dict(db.execute(
            "SELECT key, value FROM class_settings WHERE code = ?", (code,))))

    def set_setting(self, code, key, value):
        def write(db):
            if self.store._row(db, code) is None:
                return
            db.execute("INSERT OR REPLACE INTO class_settings VALUES (?, ?, ?)",
                       (code, key, value))
            self._bump(db, code, "vote")
        self._write(write)


# -- Redis ---------------------------------------------------------------------------------------

# An answer, checked and counted in one step: the class live and not ended, the activity the
# open one; the first answer kept (HSETNX), the latest beside it when ``again``.
_ANSWER = """
local c = redis.call('HMGET', KEYS[1], 'closed', 'expires')
if not c[2] or c[1] == '1' or tonumber(c[2]) <= tonumber(ARGV[4]) then return 'closed' end
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 'closed' end
local body = redis.call('HGET', KEYS[3], ARGV[1])
if not body or not string.find(body, '"open":true', 1, true) then return 'closed' end
if redis.call('HEXISTS', KEYS[4], ARGV[2]) == 1 then
  if ARGV[5] ~= '1' then return 'again' end
else
  if redis.call('HLEN', KEYS[4]) >= tonumber(ARGV[6]) then return 'full' end
  redis.call('HSET', KEYS[4], ARGV[2], ARGV[3])
  redis.call('RPUSH', KEYS[7], ARGV[2])
end
redis.call('HSET', KEYS[5], ARGV[2], ARGV[3])
redis.call('HINCRBY', KEYS[6], ARGV[2], 1)
for i = 4, 7 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
redis.call('HSET', KEYS[1], 'expires', ARGV[8])
redis.call('EXPIRE', KEYS[1], ARGV[7])
return 'counted'
"""


class RedisAnswers(Answers):
    def __init__(self, store: RedisStore):
        self.store = store
        self.redis = store.redis
        self._answer = self.redis.register_script(_ANSWER)

    def _k(self, code, *rest):
        return self.store._key(code, *rest)

    @property
    def _seconds(self) -> int:
        return int(self.store.ttl) + 60

    def current(self, code):
        with self.store._errors():
            seq = self.redis.get(self._k(code, "act"))
            return Activity.from_json(self.redis.hget(self._k(code, "acts"), seq)) if seq else None

    def history(self, code):
        with self.store._errors():
            acts = self.redis.hgetall(self._k(code, "acts"))
        found = [Activity.from_json(body) for body in acts.values()]
        return sorted((a for a in found if a is not None), key=lambda a: a.seq)

    def _edit(self, code, make, event="vote"):
        """``make(state, current)`` -> (activity to write, or None; value to return), under
        WATCH of the class and its activities: all written in one MULTI/EXEC, or retried."""
        import redis

        keys = [self._k(code), self._k(code, "act"), self._k(code, "acts")]
        with self.store._errors(), self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(*keys)
                    state = self.store._state(code, pipe.hgetall(keys[0]))
                    seq = pipe.get(keys[1])
                    now = Activity.from_json(pipe.hget(keys[2], seq)) if seq else None
                    writes, result = make(state, now)
                    if not writes:
                        pipe.unwatch()
                        return result
                    expires = self.store.clock() + self.store.ttl
                    pipe.multi()
                    for a in writes:
                        pipe.hset(keys[2], str(a.seq), a.as_json())
                    pipe.set(keys[1], str(writes[-1].seq), ex=self._seconds)
                    pipe.expire(keys[2], self._seconds)
                    pipe.hset(keys[0], "expires", expires)
                    pipe.expire(keys[0], self._seconds)
                    pipe.publish(f"{self.store.prefix}events:{code}", event)
                    pipe.execute()
                    return result
                except redis.WatchError:
                    continue

    def start(self, code, kind, data):
        def make(state, now):
            if state is None or state.closed:
                return None, None
            writes = []
            if now is not None and now.open:
                writes.append(Activity(now.seq, now.kind, now.data, False, now.revealed))
            made = Activity((now.seq if now else 0) + 1, kind, data)
            return writes + [made], made
        made = self._edit(code, make)
        if made is not None and made.seq > MAX_HISTORY:
            with self.store._errors():
                self.redis.hdel(self._k(code, "acts"), str(made.seq - MAX_HISTORY))
        return made

    def change(self, code, seq, *, open=None, revealed=None, data=None, event="vote"):
        def make(state, now):
            if state is None or state.closed or now is None or now.seq != seq:
                return None, now
            new = Activity(now.seq, now.kind, {**now.data, **(data or {})},
                           now.open if open is None else open,
                           now.revealed if revealed is None else revealed)
            return ([new] if new != now else None), new
        return self._edit(code, make, event)

    def answer(self, code, seq, voter, text, *, again=False):
        text = text[:MAX_ANSWER_TEXT]
        now = self.store.clock()
        keys = [self._k(code), self._k(code, "act"), self._k(code, "acts"),
                self._k(code, "ans", seq, "first"), self._k(code, "ans", seq, "latest"),
                self._k(code, "ans", seq, "sent"), self._k(code, "ans", seq, "order")]
        with self.store._errors():
            result = Vote(self._answer(keys=keys, args=[
                str(seq), voter, text, now, "1" if again else "0", MAX_BALLOTS,
                self._seconds, now + self.store.ttl]))
        if result:
            self.store._publish(code, tally_event(voter))
        return result

    def given(self, code, seq, voter):
        with self.store._errors(), self.redis.pipeline() as pipe:
            for part in ("first", "latest", "sent"):
                pipe.hget(self._k(code, "ans", seq, part), voter)
            first, latest, sent = pipe.execute()
        return Given(first, latest, int(sent)) if first is not None else None

    def all_given(self, code, seq):
        with self.store._errors(), self.redis.pipeline() as pipe:
            for part in ("first", "latest", "sent"):
                pipe.hgetall(self._k(code, "ans", seq, part))
            pipe.lrange(self._k(code, "ans", seq, "order"), 0, -1)
            first, latest, sent, order = pipe.execute()
        return {v: Given(first[v], latest.get(v, first[v]), int(sent.get(v, 1)))
                for v in order if v in first}

    def settings(self, code):
        with self.store._errors():
            return self.redis.hgetall(self._k(code, "settings"))

    def set_setting(self, code, key, value):
        with self.store._errors():
            if self.store.get(code) is None:
                return
            with self.redis.pipeline() as pipe:
                pipe.hset(self._k(code, "settings"), key, value)
                pipe.expire(self._k(code, "settings"), self._seconds)
                pipe.execute()
        self.store._publish(code, "vote")


def answers_of(store) -> Answers:
    """The answers' side of ``store`` (made once per store)."""
    return side_of(store, "_answers", RedisAnswers, SqliteAnswers)
