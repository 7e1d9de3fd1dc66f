"""A class's tournament, kept in the class store: what was started (its ``spec``: the game,
the entrants, the settings, its state), every game played so far (by its number in the
schedule), and who plays the missing ones now (a lease). Names no game: the games' own
module (a game's web package) decides what a spec and a game hold.

Nothing of it lives in a worker's memory, as the rest of class mode: a worker killed or a
server restarted mid-tournament loses no game played, and the next runner plays only the
missing ones (``missing`` over ``games``). A game is written once (the first write of a
number is kept): a game played twice, by two runners that both thought the lease theirs, is
the same game (the games are decided by counts, never the clock) and counts once.

The lease: a runner holds a tournament for ``seconds`` of the store's clock and renews it
after each game; another runner (another worker, or the same worker after a restart) takes
it when it has run out. Each change is a ``tournament`` event of the class (its live pages
wake: ``web.classroom.live``).

The same interface on both backends, on the store's own primitives (``tournaments_of``):
SQLite tables beside the classes', or Redis hashes with the class's expiry.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .store import RedisStore, SqliteSideTables, side_of

EVENT = "tournament"
MAX_GAMES = 20_000            # games kept per class (a Swiss of 200 entrants is far fewer)


@dataclass
class Tournament:
    spec: dict
    games: dict[int, dict] = field(default_factory=dict)
    lease: str = ""
    lease_until: float = 0.0


def _dump(d: dict) -> str:
    return json.dumps(d, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def _load(text) -> dict | None:
    try:
        d = json.loads(text)
        return d if isinstance(d, dict) else None
    except (TypeError, ValueError):
        return None           # written by another version: absent, never a 500


class Tournaments:
    """What both backends do."""

    def get(self, code: str) -> Tournament | None:
        """The class's tournament with every game played so far; None when there is none
        (or the class has gone)."""
        raise NotImplementedError

    def start(self, code: str, spec: dict) -> bool:
        """A new tournament for the class (the previous one, its games and lease go); False
        when the class is gone or ended."""
        raise NotImplementedError

    def change(self, code: str, changes: dict) -> dict | None:
        """The spec with ``changes`` merged in (state, finale...); None when there is none."""
        return self.update(code, lambda spec: {**spec, **changes})

    def update(self, code: str, fn) -> dict | None:
        """The spec as ``fn(spec)`` makes it, read and written in one step (two phones adding
        their entries at once both count); None when there is none."""
        raise NotImplementedError

    def add_game(self, code: str, number: int, game: dict, spec_id: str,
                 publish: bool = True) -> bool:
        """Game ``number`` of the tournament ``spec_id`` (its ``spec["id"]``: a game of a
        tournament since replaced is dropped); False when it was there already. ``publish``:
        wake the class's live pages (a runner wakes them every few games, not at each)."""
        raise NotImplementedError

    def claim(self, code: str, owner: str, seconds: float) -> bool:
        """The lease for ``owner`` for ``seconds`` when it is free, run out, or ``owner``'s
        already (renewed); False when another holds it."""
        raise NotImplementedError

    def running(self) -> list[str]:
        """The classes whose tournament is running (games to play)."""
        raise NotImplementedError


# -- SQLite --------------------------------------------------------------------------------------

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tournaments (code TEXT PRIMARY KEY, body TEXT NOT NULL, "
    "running INTEGER NOT NULL, lease TEXT NOT NULL, lease_until REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_games (code TEXT NOT NULL, number INTEGER NOT NULL, "
    "body TEXT NOT NULL, PRIMARY KEY (code, number))",
)


class SqliteTournaments(SqliteSideTables, Tournaments):
    SCHEMA = SCHEMA
    TABLES = ("tournaments", "tournament_games")

    def _live(self, db, code) -> bool:
        state = self.store._row(db, code)
        return state is not None and not state.closed

    def get(self, code):
        def read(db):
            if db is None or self.store._row(db, code) is None:
                return None
            row = db.execute("SELECT body, lease, lease_until FROM tournaments WHERE code = ?",
                             (code,)).fetchone()
            spec = _load(row[0]) if row else None
            if spec is None:
                return None
            games = {}
            for number, body in db.execute("SELECT number, body FROM tournament_games WHERE "
                                           "code = ? ORDER BY number", (code,)):
                g = _load(body)
                if g is not None:
                    games[number] = g
            return Tournament(spec, games, row[1], row[2])
        return self._read(read)

    def start(self, code, spec):
        def start(db):
            if not self._live(db, code):
                return False
            db.execute("DELETE FROM tournament_games WHERE code = ?", (code,))
            # those of classes that have expired go with them (their class row is gone)
            db.execute("DELETE FROM tournament_games WHERE code NOT IN (SELECT code FROM "
                       "classes)")
            db.execute("DELETE FROM tournaments WHERE code NOT IN (SELECT code FROM classes)")
            db.execute("INSERT OR REPLACE INTO tournaments VALUES (?, ?, ?, '', 0)",
                       (code, _dump(spec), int(spec.get("state") == "running")))
            self.store._publish(db, code, EVENT)
            return True
        return self._write(start)

    def update(self, code, fn):
        def update(db):
            row = db.execute("SELECT body FROM tournaments WHERE code = ?", (code,)).fetchone()
            spec = _load(row[0]) if row else None
            if spec is None or self.store._row(db, code) is None:
                return None
            spec = fn(spec)
            db.execute("UPDATE tournaments SET body = ?, running = ? WHERE code = ?",
                       (_dump(spec), int(spec.get("state") == "running"), code))
            self.store._publish(db, code, EVENT)
            return spec
        return self._write(update)

    def add_game(self, code, number, game, spec_id, publish=True):
        def add(db):
            row = db.execute("SELECT body FROM tournaments WHERE code = ?", (code,)).fetchone()
            spec = _load(row[0]) if row else None
            if spec is None or spec.get("id") != spec_id:
                return False
            n = db.execute("SELECT COUNT(*) FROM tournament_games WHERE code = ?",
                           (code,)).fetchone()[0]
            if n >= MAX_GAMES:
                return False
            added = db.execute("INSERT OR IGNORE INTO tournament_games VALUES (?, ?, ?)",
                               (code, number, _dump(game))).rowcount
            if added and publish:
                self.store._publish(db, code, EVENT)
            return bool(added)
        return self._write(add)

    def claim(self, code, owner, seconds):
        now = self.store.clock()

        def claim(db):
            return bool(db.execute(
                "UPDATE tournaments SET lease = ?, lease_until = ? WHERE code = ? AND "
                "running = 1 AND (lease = '' OR lease = ? OR lease_until <= ?) AND code IN "
                "(SELECT code FROM classes WHERE closed = 0 AND expires > ?)",
                (owner, now + seconds, code, owner, now, now)).rowcount)
        return self._write(claim)

    def running(self):
        now = self.store.clock()
        return self._read(lambda db: [] if db is None else [r[0] for r in db.execute(
            "SELECT t.code FROM tournaments t JOIN classes c ON c.code = t.code WHERE "
            "t.running = 1 AND c.closed = 0 AND c.expires > ? ORDER BY t.code", (now,))])


# -- Redis ---------------------------------------------------------------------------------------

# The lease in one step: free, run out, or the owner's own.
_CLAIM = """
local t = redis.call('HMGET', KEYS[1], 'running', 'lease', 'lease_until')
if t[1] ~= '1' then return 0 end
if t[2] and t[2] ~= '' and t[2] ~= ARGV[1] and tonumber(t[3]) > tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], 'lease', ARGV[1], 'lease_until', ARGV[3])
return 1
"""
# A game kept once, for the tournament it was played for.
_ADD = """
local body = redis.call('HGET', KEYS[1], 'id')
if body ~= ARGV[1] then return 0 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
local added = redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3])
if added == 1 then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
return added
"""


class RedisTournaments(Tournaments):
    def __init__(self, store: RedisStore):
        self.store = store
        self.redis = store.redis
        self._claim = self.redis.register_script(_CLAIM)
        self._add = self.redis.register_script(_ADD)

    def _k(self, code, *rest):
        return self.store._key(code, "tournament", *rest)

    @property
    def _seconds(self) -> int:
        return int(self.store.ttl) + 60

    @property
    def _running(self) -> str:
        return f"{self.store.prefix}tournaments:running"

    def get(self, code):
        with self.store._errors():
            if self.store.get(code) is None:
                return None
            with self.redis.pipeline() as pipe:
                pipe.hgetall(self._k(code))
                pipe.hgetall(self._k(code, "games"))
                t, games = pipe.execute()
        spec = _load(t.get("body"))
        if spec is None:
            return None
        out = {}
        for number, body in games.items():
            g = _load(body)
            if g is not None:
                out[int(number)] = g
        return Tournament(spec, dict(sorted(out.items())), t.get("lease", ""),
                          float(t.get("lease_until", 0) or 0))

    def _write_spec(self, pipe, code, spec):
        running = spec.get("state") == "running"
        pipe.hset(self._k(code), mapping={"body": _dump(spec), "id": str(spec.get("id", "")),
                                          "running": "1" if running else "0"})
        pipe.expire(self._k(code), self._seconds)
        if running:
            pipe.sadd(self._running, code)
        else:
            pipe.srem(self._running, code)

    def start(self, code, spec):
        with self.store._errors():
            state = self.store.get(code)
            if state is None or state.closed:
                return False
            with self.redis.pipeline() as pipe:
                pipe.delete(self._k(code), self._k(code, "games"))
                pipe.hset(self._k(code), mapping={"lease": "", "lease_until": "0"})
                self._write_spec(pipe, code, spec)
                pipe.execute()
        self.store._publish(code, EVENT)
        return True

    def update(self, code, fn):
        import redis

        with self.store._errors(), self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self._k(code))
                    spec = _load(pipe.hget(self._k(code), "body"))
                    if spec is None or self.store.get(code) is None:
                        pipe.unwatch()
                        return None
                    spec = fn(spec)
                    pipe.multi()
                    self._write_spec(pipe, code, spec)
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue
        self.store._publish(code, EVENT)
        return spec

    def add_game(self, code, number, game, spec_id, publish=True):
        with self.store._errors():
            added = self._add(keys=[self._k(code), self._k(code, "games")],
                              args=[str(spec_id), number, _dump(game), MAX_GAMES,
                                    self._seconds])
        if added and publish:
            self.store._publish(code, EVENT)
        return bool(added)

    def claim(self, code, owner, seconds):
        now = self.store.clock()
        state = self.store.get(code)
        if state is None or state.closed:
            return False
        with self.store._errors():
            return bool(self._claim(keys=[self._k(code)], args=[owner, now, now + seconds]))

    def running(self):
        with self.store._errors():
            codes = sorted(self.redis.smembers(self._running))
        out = []
        for code in codes:
            state = self.store.get(code)
            if state is None or state.closed:
                with self.store._errors():
                    self.redis.srem(self._running, code)
            else:
                out.append(code)
        return out


def tournaments_of(store) -> Tournaments:
    """The tournaments' side of ``store`` (made once per store)."""
    return side_of(store, "_tournaments", RedisTournaments, SqliteTournaments)
