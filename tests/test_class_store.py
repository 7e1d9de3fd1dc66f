"""Class mode's store, the same tests on both backends (``class_config``: the embedded
SQLite default, then a real ``redis-server``): classes, the board's fan-out, vote rounds
counted once per student, followers, expiry, and a restart that keeps everything."""
import queue
import sqlite3
import threading

import pytest

from web.classroom.store import CODE_ALPHABET, CODE_LENGTH, FOLLOWER_TIMEOUT, Vote, open_store


class Clock:
    """Wall time the test moves by hand (expiry without sleeping)."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture()
def clock():
    return Clock()


@pytest.fixture()
def store(class_config, clock):
    s = open_store({**class_config, "CLASS_TTL": 3600}, clock=clock)
    yield s
    s.close()


class Listener:
    """The store's events as they come, from its background loop (as a worker's hub)."""

    def __init__(self, store):
        self.events = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=store.listen, daemon=True,
                                       args=(lambda c, k: self.events.put((c, k)), self.stop))
        self.thread.start()
        # listening starts with a "read everything again" notice (code None): from then on no
        # change is missed (before it, Redis may not have subscribed yet)
        assert self.events.get(timeout=30)[0] is None

    def next(self, code, timeout=30.0):
        """The next event of class ``code`` (another reconnection notice is skipped)."""
        while True:
            c, kind = self.events.get(timeout=timeout)    # queue.Empty: the test fails
            if c == code:
                return kind

    def close(self):
        self.stop.set()
        self.thread.join(5)


@pytest.fixture()
def listener(store):
    lst = Listener(store)
    yield lst
    lst.close()


def test_a_class_has_a_short_code_and_a_teacher_secret_unrelated_to_it(store):
    a, secret_a = store.create("connect4", "moves=44")
    b, secret_b = store.create("connect4", "moves=44")
    assert len(a.code) == CODE_LENGTH and set(a.code) <= set(CODE_ALPHABET)
    assert a.code != b.code and secret_a != secret_b
    assert len(secret_a) >= 24 and a.code not in secret_a
    assert a.is_teacher(secret_a) and not a.is_teacher(secret_b) and not a.is_teacher("")
    assert secret_a not in repr(store.get(a.code))       # only its hash is stored
    assert store.get(a.code).query == "moves=44" and store.get("ZZZZZZ") is None


def test_a_board_change_reaches_a_listener_and_the_same_board_sends_nothing(store, listener):
    state, _ = store.create("nim", "n=11")
    changed = store.set_board(state.code, "nim", "n=11&moves=3")
    assert changed.version == state.version + 1 and changed.query == "n=11&moves=3"
    assert listener.next(state.code) == "board"
    assert store.set_board(state.code, "nim", "n=11&moves=3").version == changed.version
    store.open_vote(state.code)                    # the next event is the vote, not a board
    assert listener.next(state.code) == "vote"


def test_sqlite_wakes_its_listener_at_a_commit_not_at_its_next_poll(tmp_path):
    """The events table is read when SQLite's log changes (a stat), not only every ``poll``
    seconds: with a poll of an hour, a board change still reaches the listener (within the
    test's bound against a hang, 30 s)."""
    from web.classroom.store import SqliteStore

    store = SqliteStore(tmp_path / "classes.sqlite3", poll=3600.0)
    listener = Listener(store)
    try:
        for moves in ("3", "31", "312"):
            state, _ = store.create("nim", "n=11")
            store.set_board(state.code, "nim", f"n=11&moves={moves}")
            assert listener.next(state.code) == "board"
    finally:
        listener.close()
        store.close()


def test_each_student_is_counted_once_per_round(store, listener):
    code = store.create("connect4", "")[0].code
    assert not store.vote(code, 1, "s1", "4")      # no round open yet
    r = store.open_vote(code).round
    assert store.vote(code, r, "s1", "4")
    assert not store.vote(code, r, "s1", "5")      # a second ballot is refused, the first kept
    assert store.vote(code, r, "s2", "5") and store.vote(code, r, "s3", "4")
    assert store.tally(code, r) == {"4": 2, "5": 1}
    assert store.ballot(code, r, "s1") == "4" and store.ballot(code, r, "s9") is None
    assert [listener.next(code) for _ in range(4)] == ["vote", "tally:s1", "tally:s2", "tally:s3"]
    store.close_vote(code)
    assert not store.vote(code, r, "s4", "4")      # closed
    r2 = store.open_vote(code).round
    assert r2 == r + 1 and not store.vote(code, r, "s4", "4")   # an old round stays closed
    assert store.vote(code, r2, "s1", "3") and store.tally(code, r2) == {"3": 1}
    assert store.tally(code, r) == {"4": 2, "5": 1}


def test_ballots_sent_at_once_by_many_threads_are_each_counted_once(store):
    code = store.create("connect4", "")[0].code
    r = store.open_vote(code).round
    counted = queue.Queue()

    def student(i):
        for choice in ("1", "2", "3"):             # every student tries three times
            counted.put(store.vote(code, r, f"s{i}", choice))

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    results = [counted.get_nowait() for _ in range(90)]
    assert results.count(Vote.COUNTED) == 30
    assert sum(store.tally(code, r).values()) == 30


def test_a_restarted_server_keeps_the_class_its_board_and_its_ballots(class_config, clock):
    first = open_store(class_config, clock=clock)
    state, secret = first.create("connect4", "moves=4")
    first.set_board(state.code, "connect4", "moves=44")
    r = first.open_vote(state.code).round
    first.vote(state.code, r, "s1", "3")
    first.close()
    second = open_store(class_config, clock=clock)      # another process, after a restart
    again = second.get(state.code)
    assert again.query == "moves=44" and again.vote_open and again.is_teacher(secret)
    assert second.tally(state.code, r) == {"3": 1}
    assert not second.vote(state.code, r, "s1", "4")     # still counted once
    second.close()


def test_a_class_expires_after_hours_without_activity_and_activity_keeps_it(store, clock):
    code = store.create("nim", "")[0].code
    clock.now += 3000
    store.set_board(code, "nim", "moves=1")               # activity: the clock starts again
    clock.now += 3000
    assert store.get(code) is not None
    clock.now += 700
    assert store.get(code) is None
    assert store.set_board(code, "nim", "moves=12") is None
    assert not store.vote(code, 1, "s1", "1")


def test_an_ended_class_refuses_changes_and_votes(store, listener):
    code = store.create("nim", "")[0].code
    r = store.open_vote(code).round
    assert store.end(code).closed
    assert listener.next(code) == "vote" and listener.next(code) == "closed"
    assert not store.vote(code, r, "s1", "1")
    assert store.set_board(code, "nim", "moves=1").query == ""
    assert store.open_vote(code).round == r


def test_followers_are_counted_while_their_streams_are_seen(store, clock, listener):
    code = store.create("connect4", "")[0].code
    assert store.follower_seen(code, "a") and store.follower_seen(code, "b")
    assert not store.follower_seen(code, "a")              # a heartbeat, not a new follower
    assert store.followers(code) == 2
    assert [listener.next(code) for _ in range(2)] == ["followers", "followers"]
    store.follower_gone(code, "b")
    assert store.followers(code) == 1 and listener.next(code) == "followers"
    clock.now += FOLLOWER_TIMEOUT + 1                        # "a"'s worker was killed
    assert store.followers(code) == 0


def test_nicknames_are_kept_per_student(store):
    code = store.create("connect4", "")[0].code
    store.set_name(code, "s1", "Ada")
    store.set_name(code, "s1", "Ada L.")
    store.set_name(code, "s2", "Alan")
    assert store.names(code) == {"s1": "Ada L.", "s2": "Alan"}


def test_a_store_made_before_streams_were_kept_apart_opens_and_counts(tmp_path):
    """A SQLite store whose followers were one row per student (before each stream was kept
    apart) opens, and counts followers in the new table: who follows is a few seconds'
    presence, not kept over the upgrade."""
    path = tmp_path / "classes.sqlite3"
    store = open_store({"CLASS_DB": str(path), "REDIS_URL": ""})
    code = store.create("connect4", "")[0].code
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE follower_streams")
        db.execute("CREATE TABLE followers (code TEXT NOT NULL, sid TEXT NOT NULL, "
                   "seen REAL NOT NULL, PRIMARY KEY (code, sid))")
    store = open_store({"CLASS_DB": str(path), "REDIS_URL": ""})
    try:
        assert store.follower_seen(code, "a", "s") and store.followers(code) == 1
        with sqlite3.connect(path) as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        assert "followers" not in tables
    finally:
        store.close()


def test_a_student_s_streams_that_ended_unheard_are_not_kept(tmp_path):
    """Each stream has its row (SQLite): one that ended without a goodbye (its worker
    killed) is dropped once it no longer counts, not kept until the class ends."""
    clock = Clock()
    path = tmp_path / "classes.sqlite3"
    store = open_store({"CLASS_DB": str(path), "REDIS_URL": ""}, clock=clock)
    try:
        code = store.create("connect4", "")[0].code
        for n in range(20):                              # 20 streams, none said goodbye
            store.follower_seen(code, "phone", f"s{n}")
            clock.now += FOLLOWER_TIMEOUT + 1
        store.follower_seen(code, "phone", "last")
        assert store.followers(code) == 1
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT stream FROM follower_streams").fetchall() == [("last",)]
    finally:
        store.close()
