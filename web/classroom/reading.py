"""What one class page draws, read from the store in one round trip (``read_class``).

The class's state, the current round's ballots (its tally, and the student's own ballot), who
follows, the nicknames, the current activity (``web.classroom.answers``) with its answers and
the class's settings: everything the teacher's bar and a student's phone show. The views read
it once and hand it on (``web.classroom.page``); the page objects and the templates draw from
it and never ask the store again.

On SQLite it is one read transaction; on Redis one script (it reads keys it finds in the
class's hash, as the class's other scripts do: a single Redis, not a cluster).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .answers import Activity, Given, SqliteAnswers, answers_of
from .store import (FOLLOWER_TIMEOUT, FRESH_BALLOTS, ClassState, ClassStore, Crowd, RedisStore,
                    aside_excluded, crowd, room_tally, sqlite_room_tally)


@dataclass(frozen=True)
class ClassData:
    """A class as the store had it at one moment, for one page."""

    state: ClassState
    tally: Counter = field(default_factory=Counter)   # the current round's ballots by choice
    ballot: str | None = None      # the student's own ballot in the current round
    followers: int = 0             # streams seen within FOLLOWER_TIMEOUT
    names: dict = field(default_factory=dict)         # voter -> nickname
    activity: Activity | None = None                  # the current activity, if any
    settings: dict = field(default_factory=dict)      # the class's settings (peer, review...)
    given: dict = field(default_factory=dict)         # voter -> Given: all answers (teacher)
    mine: Given | None = None      # the student's own answer to the current activity
    tallies: dict = field(default_factory=dict)       # a peer activity's rounds -> tally
    now: float = 0.0               # the store's clock when read (a vote's time left)
    ballots: dict = field(default_factory=dict)       # voter -> ballot in the current round
    #                                                    (every phone's read: ``every_ballot``)
    crowd: Crowd | None = None     # the current round's busiest address, when it cast many

    def for_student(self, sid: str | None) -> ClassData:
        """What student ``sid``'s own read would have given, taken from a read of every
        ballot and answer (the phones' shared read, ``every_ballot`` and ``every_answer``):
        their ballot and their answer, nobody else's."""
        return replace(self, ballot=self.ballots.get(sid) if sid else None,
                       mine=self.given.get(sid) if sid else None, given={}, ballots={})

    def round_tally(self, round_: int) -> Counter:
        """The tally of ``round_``: the current one, or one of the peer activity's rounds."""
        if round_ and round_ == self.state.round:
            return self.tally
        return self.tallies.get(round_, Counter())


def _peer_rounds(activity: Activity | None) -> list[int]:
    """The rounds a peer activity compares (its first vote and its re-vote)."""
    if activity is None or activity.kind != "peer":
        return []
    out = []
    for key in ("first", "second"):
        try:
            r = int(activity.data.get(key) or 0)
        except (TypeError, ValueError):
            continue
        if r:
            out.append(r)
    return out


def read_class(store: ClassStore, code: str, *, voter: str | None = None,
               every_answer: bool = False, every_ballot: bool = False) -> ClassData | None:
    """Class ``code`` as one page draws it, in one round trip; None when there is no such
    class (or it has expired). ``voter``: the student looking (their ballot and answer);
    ``every_answer``: every student's answer to the current activity (the teacher's page);
    ``every_ballot``: every student's ballot in the current round (with ``every_answer``,
    the read every phone's page is drawn from: ``ClassData.for_student``)."""
    if isinstance(store, RedisStore):
        return _read_redis(store, code, voter, every_answer, every_ballot)
    return _read_sqlite(store, code, voter, every_answer, every_ballot)


# -- SQLite: one read transaction ------------------------------------------------------------------

def _read_sqlite(store, code, voter, every_answer, every_ballot) -> ClassData | None:
    answers: SqliteAnswers = answers_of(store)

    def read(db):
        state = store._row(db, code)
        if state is None:
            return None
        now = store.clock()
        r = state.round
        tally = sqlite_room_tally(db, code, r) if r else Counter()
        flag = _sqlite_crowd(db, code, r) if r else None
        row = db.execute("SELECT choice FROM ballots WHERE code = ? AND round = ? AND voter = ?",
                         (code, r, voter)).fetchone() if voter and r else None
        followers = db.execute("SELECT COUNT(DISTINCT sid) FROM follower_streams "
                               "WHERE code = ? AND seen > ?",
                               (code, now - FOLLOWER_TIMEOUT)).fetchone()[0]
        names = dict(db.execute("SELECT voter, name FROM names WHERE code = ?", (code,)))
        ballots = dict(db.execute("SELECT voter, choice FROM ballots WHERE code = ? AND "
                                  "round = ?", (code, r))) if every_ballot and r else {}
        data = dict(state=state, tally=tally, ballot=row[0] if row else None,
                    followers=followers, names=names, now=now, ballots=ballots,
                    crowd=flag)
        if not answers._there(db):    # no activity was ever started in this store
            return ClassData(**data)
        activity = answers._current(db, code)
        settings = dict(db.execute("SELECT key, value FROM class_settings WHERE code = ?",
                                   (code,)))
        given, mine = {}, None
        if activity is not None and every_answer:
            given = {v: Given(f, la, n) for v, f, la, n in db.execute(
                "SELECT voter, first, latest, sent FROM answers WHERE code = ? AND seq = ? "
                "ORDER BY rowid", (code, activity.seq))}
        if activity is not None and voter:
            found = db.execute("SELECT first, latest, sent FROM answers WHERE code = ? AND "
                               "seq = ? AND voter = ?", (code, activity.seq, voter)).fetchone()
            mine = Given(*found) if found else None
        tallies = {p: sqlite_room_tally(db, code, p) for p in _peer_rounds(activity)}
        return ClassData(**data, activity=activity, settings=settings, given=given,
                         mine=mine, tallies=tallies)
    return store._call(read)


def _sqlite_crowd(db, code: str, round_: int) -> Crowd | None:
    """``Crowd`` of a round, read in the SQLite store's transaction ``db``."""
    most = db.execute("SELECT COUNT(*) AS n, SUM(mark = 'aside') FROM ballot_marks WHERE code = ? "
                      "AND round = ? AND addr != '' GROUP BY addr ORDER BY n DESC LIMIT 1",
                      (code, round_)).fetchone()
    if most is None or most[0] <= FRESH_BALLOTS:
        return None
    excluded = db.execute(
        "SELECT EXISTS (SELECT 1 FROM ballots b LEFT JOIN ballot_marks m ON m.code = b.code "
        "AND m.round = b.round AND m.voter = b.voter WHERE b.code = ? AND b.round = ? "
        "AND (m.mark IS NULL OR m.mark = ''))", (code, round_)).fetchone()[0]
    return crowd(most[0], most[1] or 0, bool(excluded))


def redis_crowd(ballots: dict, marks: dict) -> Crowd | None:
    """``Crowd`` of a round from its Redis hashes: ``marks`` counts each address's ballots
    ("#<address>") and its fresh ones ("@<address>": those past ``FRESH_BALLOTS`` set aside)."""
    counts = {k[1:]: int(v) for k, v in marks.items() if k.startswith("#")}
    if not counts:
        return None
    address = max(counts, key=counts.get)
    aside = max(0, int(marks.get("@" + address, 0)) - FRESH_BALLOTS)
    return crowd(counts[address], aside, aside_excluded(ballots, marks))


# -- Redis: one script ---------------------------------------------------------------------------

# ARGV: the class's key, the oldest "still here" that counts, the voter ('' for none), '1' for
# every answer. The keys it reads are the class's own (see RedisStore, RedisAnswers): the
# round's ballots, followers, names, settings, the current activity and its answers.
_READ = """
local base = ARGV[1]
local h = redis.call('HGETALL', base)
if #h == 0 then return {h} end
local round = redis.call('HGET', base, 'round')
local ballots, marks = {}, {}
if round and round ~= '0' then
  ballots = redis.call('HGETALL', base .. ':ballots:' .. round)
  marks = redis.call('HGETALL', base .. ':marks:' .. round)
end
redis.call('ZREMRANGEBYSCORE', base .. ':followers', '-inf', ARGV[2])
local followers, counted = 0, {}      -- its members are "sid stream": each sid counted once
for _, m in ipairs(redis.call('ZRANGE', base .. ':followers', 0, -1)) do
  local sid = string.match(m, '^(.*) [^ ]*$') or m
  if not counted[sid] then counted[sid] = true; followers = followers + 1 end
end
local names = redis.call('HGETALL', base .. ':names')
local settings = redis.call('HGETALL', base .. ':settings')
local seq = redis.call('GET', base .. ':act')
local body = false
if seq then body = redis.call('HGET', base .. ':acts', seq) end
local mine, every, peer = {}, {}, {}
if body then
  local ans = base .. ':ans:' .. seq .. ':'
  if ARGV[3] ~= '' then
    for _, part in ipairs({'first', 'latest', 'sent'}) do
      mine[#mine + 1] = redis.call('HGET', ans .. part, ARGV[3])
    end
  end
  if ARGV[4] == '1' then
    for _, part in ipairs({'first', 'latest', 'sent'}) do
      every[#every + 1] = redis.call('HGETALL', ans .. part)
    end
    every[#every + 1] = redis.call('LRANGE', ans .. 'order', 0, -1)
  end
  local ok, act = pcall(cjson.decode, body)
  if ok and type(act) == 'table' and act.kind == 'peer' and type(act.data) == 'table' then
    for _, key in ipairs({'first', 'second'}) do
      local r = tonumber(act.data[key])
      if r and r > 0 then
        peer[#peer + 1] = tostring(r)
        peer[#peer + 1] = redis.call('HGETALL', base .. ':ballots:' .. tostring(r))
        peer[#peer + 1] = redis.call('HGETALL', base .. ':marks:' .. tostring(r))
      end
    end
  end
end
return {h, ballots, followers, names, settings, body, mine, every, peer, marks}
"""


def _pairs(flat) -> dict:
    return dict(zip(flat[::2], flat[1::2]))


def _read_redis(store, code, voter, every_answer, every_ballot) -> ClassData | None:
    script = getattr(store, "_read_script", None)
    if script is None:
        script = store._read_script = store.redis.register_script(_READ)
    with store._errors():
        now = store.clock()
        out = script(args=[store._key(code), now - FOLLOWER_TIMEOUT, voter or "",
                           "1" if every_answer else "0"])
    state = store._state(code, _pairs(out[0]))
    if state is None:
        return None
    h, ballots, followers, names, settings, body, mine, every, peer, marks = out
    ballots = _pairs(ballots)
    activity = Activity.from_json(body) if body else None
    given = {}
    if activity is not None and every:
        first, latest, sent = (_pairs(x) for x in every[:3])
        given = {v: Given(first[v], latest.get(v, first[v]), int(sent.get(v, 1)))
                 for v in every[3] if v in first}
    me = None
    if activity is not None and mine and mine[0] is not None:
        me = Given(mine[0], mine[1] if mine[1] is not None else mine[0], int(mine[2] or 1))
    tallies = {int(peer[i]): room_tally(_pairs(peer[i + 1]), _pairs(peer[i + 2]))
               for i in range(0, len(peer), 3)}
    marks = _pairs(marks)
    return ClassData(state=state, tally=room_tally(ballots, marks),
                     crowd=redis_crowd(ballots, marks),
                     ballot=ballots.get(voter) if voter else None, followers=int(followers),
                     names=_pairs(names), activity=activity, settings=_pairs(settings),
                     given=given, mine=me, tallies=tallies, now=now,
                     ballots=ballots if every_ballot else {})
