"""Class mode when things go wrong, on both stores (``class_config``: SQLite, then a real
redis-server): a store locked, full, read-only or deleted, a worker killed mid-write, forged
student cookies, a round or a class at its limits, a script guessing codes or making classes,
and the teacher's secret kept out of URLs. Each answer is a clear, translated 4xx or 503, and
no ballot the page said was taken is lost."""
import logging
import os
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app import create_app
from web.classroom import store as class_store, views as classroom
from web.classroom.store import (LIVE_SQL, PURGE_SQL, StoreBusy, StoreError, StoreLost,
                             SqliteStore, Vote, open_store)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def app(make_app):
    return make_app()


def start_class(app, link="/connect4?mode=human-human", addr="10.0.0.1"):
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": link},
                           environ_overrides={"REMOTE_ADDR": addr})
    assert created.status_code == 303, created.get_data(as_text=True)
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    return teacher, code


def student(app, code, addr="10.0.0.2"):
    s = app.test_client()
    s.environ_base["REMOTE_ADDR"] = addr
    assert s.get(f"/c/{code}").status_code == 200      # the server gives its signed id
    return s


def open_vote(teacher, code):
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"}).status_code == 303


def vote(s, code, choice="4", round_="1"):
    return s.post(f"/c/{code}/vote", data={"round": round_, "choice": choice},
                  headers={"HX-Request": "true"})


def tally(app, code):
    st = app.extensions["class_store"]
    return sum(st.tally(code, st.get(code).round).values())


def text(response):
    return response.get_data(as_text=True)


# -- 4: the store never holds up a page ------------------------------------------------------------

class FailingStore:
    """A store that fails at every call, as one locked by someone else does."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise StoreBusy()
        return fail


def test_plain_pages_ask_nothing_of_the_store(app, monkeypatch):
    """A locked or broken store changes nothing for pages that are not a class's: the home
    page, the games, the lab, a game page with a class code (then an ordinary game)."""
    monkeypatch.setitem(app.extensions, "class_store", FailingStore())
    client = app.test_client()
    client.set_cookie("joined", "ABCDEF")
    client.set_cookie("teach", "ABCDEF:secret")
    for path in ["/", "/connect4", "/nim?n=11", "/tree", "/connect4?moves=44&cls=ABCDEF",
                 "/connect4?cls=ABCDEF&proj=1&lang=fr", "/course"]:
        page = client.get(path)
        assert page.status_code == 200, path
        assert "class-bar" not in text(page)
    # a class's own page says the store is busy: a 503 to try again, in the page's language
    busy = client.get("/c/ABCDEF?lang=fr")
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    assert "ne peut pas être joint" in text(busy)


LOCKED_LOOP = textwrap.dedent("""
    import sys
    from gevent import monkey
    monkey.patch_all()
    import gevent
    from web.classroom.store import SqliteStore, StoreBusy
    store = SqliteStore(sys.argv[1], busy_timeout=1.0)
    ticks = 0
    def ticker():
        global ticks
        while True:
            ticks += 1
            gevent.sleep(0.01)
    gevent.spawn(ticker)
    gevent.sleep(0)
    try:
        store.vote(sys.argv[2], 1, "s1", "4")
        print("counted", ticks)
    except StoreBusy:
        print("busy", ticks)
""")


def test_a_store_call_waiting_for_a_lock_held_elsewhere_lets_the_worker_serve_others(tmp_path):
    """An admin's sqlite3 shell holds the write lock: a ballot waits for it, then gets "busy"
    (a 503), and all the while the worker's other greenlets (its pages, its streams) run."""
    path = tmp_path / "classes.sqlite3"
    store = SqliteStore(path)
    code = store.create("connect4", "")[0].code
    store.open_vote(code)
    store.close()
    shell = sqlite3.connect(path, isolation_level=None)
    shell.execute("BEGIN IMMEDIATE")                  # the admin's shell, in a transaction
    try:
        run = subprocess.run([sys.executable, "-c", LOCKED_LOOP, str(path), code], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    finally:
        shell.execute("ROLLBACK")
        shell.close()
    assert run.returncode == 0, run.stderr
    outcome, ticks = run.stdout.split()
    assert outcome == "busy"
    # the other greenlet ran about every 10 ms during the wait (before: the loop stopped)
    assert int(ticks) >= 3, run.stdout     # a blocked loop ticks once at most; a loaded one still often


def test_while_someone_else_holds_the_write_lock_students_still_see_the_class(tmp_path):
    """A backup or an admin's shell holds the write lock: the class's pages and the teacher's
    chart still show (reads do not wait for writers); a ballot is told to try again (503)
    and counted once sent again after the lock goes."""
    path = tmp_path / "classes.sqlite3"
    app = create_app({"TESTING": True, "CLASS_DB": str(path), "REDIS_URL": ""})
    teacher, code = start_class(app)
    open_vote(teacher, code)
    pupil = student(app, code)
    shell = sqlite3.connect(path, isolation_level=None)
    shell.execute("BEGIN IMMEDIATE")
    try:
        page = pupil.get(f"/c/{code}")
        assert page.status_code == 200 and 'name="choice"' in text(page)
        board = teacher.get(f"/connect4?mode=human-human&cls={code}")
        assert "Vote open" in text(board) and re.search(r"0 of \d+ answered", text(board))
        busy = vote(pupil, code)
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
        assert "try again in a moment" in text(busy)
    finally:
        shell.execute("ROLLBACK")
        shell.close()
    assert vote(pupil, code).status_code == 200 and tally(app, code) == 1
    app.extensions["class_hub"].stop()
    app.extensions["class_store"].close()


# -- 5: a vanished store is said, a half-made class never exists ------------------------------------

@pytest.fixture()
def sqlite_app(tmp_path):
    app = create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                      "REDIS_URL": ""})
    yield app
    app.extensions["class_hub"].stop()
    app.extensions["class_store"].close()


def test_a_deleted_database_file_is_said_never_silently_made_again_empty(sqlite_app, tmp_path,
                                                                         caplog):
    app = sqlite_app
    teacher, code = start_class(app)
    open_vote(teacher, code)
    pupil = student(app, code)
    assert vote(pupil, code).status_code == 200 and tally(app, code) == 1
    path = tmp_path / "classes.sqlite3"
    kept = {p.name: p.read_bytes() for p in tmp_path.glob("classes.sqlite3*")
            if not p.name.endswith("-shm")}
    for p in tmp_path.glob("classes.sqlite3*"):
        if not p.name.endswith(".store-id"):
            p.unlink()                                     # rm classes.sqlite3 (and -wal, -shm)
    with caplog.at_level(logging.ERROR, "minimax-lab.classes"):
        page = pupil.get(f"/c/{code}?lang=fr")
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "Les données de la classe ont disparu du serveur" in text(page)
    assert "has gone" in caplog.text and str(path) in caplog.text
    assert vote(pupil, code).status_code == 503
    # a worker started afresh (a recycle) says so too: no empty database behind its back
    with pytest.raises(StoreLost):
        open_store({"CLASS_DB": str(path), "REDIS_URL": ""}).get(code)
    assert not path.exists()
    # the file restored (from a backup): everything is back, the ballot too
    for name, data in kept.items():
        (tmp_path / name).write_bytes(data)
    assert pupil.get(f"/c/{code}").status_code == 200 and tally(app, code) == 1


class Killed(BaseException):
    """The worker dies here (as SIGKILL would: nothing after it runs in that request)."""


class DyingConnection:
    """A SQLite connection whose worker dies at its ``fail_at``-th statement."""

    def __init__(self, db, calls, fail_at):
        self.db, self.calls, self.fail_at = db, calls, fail_at

    def _step(self, sql):
        self.calls.append(sql)
        if len(self.calls) == self.fail_at:
            raise Killed(sql)

    def execute(self, sql, *args):
        self._step(sql)
        return self.db.execute(sql, *args)

    def executemany(self, sql, *args):
        self._step(sql)
        return self.db.executemany(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_worker_killed_while_making_a_class_leaves_no_half_made_class(class_config):
    """The worker dies at each of the steps a creation takes in turn: afterwards there is a
    whole class (with its expiry), or none at all."""
    store = open_store(class_config)
    redis = bool(class_config.get("REDIS_URL"))
    killed = 0
    for fail_at in range(1, 12):
        calls = []
        if redis:                         # each command or MULTI/EXEC sent is a step
            from redis.connection import Connection
            real = Connection.send_packed_command

            def dying(connection, command, *args, **kwargs):
                calls.append(command)
                if len(calls) == fail_at:
                    raise Killed(command)
                return real(connection, command, *args, **kwargs)
            Connection.send_packed_command = dying
        else:
            real = store._run
            store._run = lambda fn, write=False: real(
                lambda db: fn(DyingConnection(db, calls, fail_at)), write)
        try:
            store.create("nim", "n=11")
        except Killed:
            killed += 1
        finally:
            if redis:
                Connection.send_packed_command = real
                store.redis.connection_pool.disconnect()   # a dead worker's connections go
            else:
                store._run = real
        if redis:
            keys = [k for k in store.redis.scan_iter(store.prefix + "class:*")
                    if k.count(":") == 2]                      # the classes' own hashes
            codes = [k.rsplit(":", 1)[1] for k in keys]
            assert all(store.redis.ttl(k) > 0 for k in keys), keys
        else:
            codes = [c for (c,) in store._call(
                lambda db: db.execute("SELECT code FROM classes").fetchall())]
        assert all(store.get(c) is not None for c in codes), codes     # each one whole
    assert killed >= 1            # the creation was cut short at least once (the first step)
    store.close()


def test_a_half_written_class_is_no_class_not_a_500(redis_url):
    """On Redis, a class half-written by an older version (a hash with its secret only, no
    expiry) answers "no such class", never a 500. (A SQLite row is whole or absent.)"""
    import redis

    with redis.Redis.from_url(redis_url) as r:
        r.flushdb()
    app = create_app({"TESTING": True, "REDIS_URL": redis_url})
    st = app.extensions["class_store"]
    st.redis.hset(st._key("HALFAB"), "secret_hash", "x")
    assert st.get("HALFAB") is None
    page = app.test_client().get("/c/HALFAB")
    assert page.status_code == 404 and "There is no class with the code HALFAB" in text(page)
    app.extensions["class_hub"].stop()
    st.close()


# -- 6: only the students the server admitted vote, and a refusal says why ----------------------

def test_forged_student_cookies_count_no_ballot(app):
    teacher, code = start_class(app)
    open_vote(teacher, code)
    forged = [f"{i:016x}" for i in range(30)]                 # the old format of the id
    forged += [f"{i:016x}.AbCdEfGhIjKlMnOpQrStUv" for i in range(30)]   # a made-up signature
    for cookie in forged:
        c = app.test_client()
        c.set_cookie("student", cookie)
        refused = vote(c, code)
        assert refused.status_code == 400
        assert "did not keep this page" in text(refused)
        assert c.post(f"/c/{code}/name", data={"name": "Bot"}).status_code == 400
    assert tally(app, code) == 0 and app.extensions["class_store"].names(code) == {}
    assert vote(student(app, code), code).status_code == 200 and tally(app, code) == 1


def test_a_class_of_a_hundred_behind_one_router_meets_no_limit(app):
    """100 phones, one address (the school's router): each joins, gives a nickname and votes
    in two rounds; every ballot and name is kept."""
    teacher, code = start_class(app, addr="192.0.2.1")
    open_vote(teacher, code)
    phones = [student(app, code, addr="192.0.2.1") for _ in range(100)]
    for i, phone in enumerate(phones):
        assert vote(phone, code, str(1 + i % 7)).status_code == 200
        assert phone.post(f"/c/{code}/name", data={"name": f"Élève {i}"},
                          headers={"HX-Request": "true"}).status_code == 200
    assert tally(app, code) == 100 and len(app.extensions["class_store"].names(code)) == 100
    teacher.post(f"/class/{code}/vote", data={"action": "close"})
    open_vote(teacher, code)
    for phone in phones:
        assert vote(phone, code, "4", "2").status_code == 200
    assert tally(app, code) == 100


@pytest.mark.parametrize("lang, words", [("en", "yours was not counted"),
                                         ("fr", "le vôtre n’a pas été compté")])
def test_a_ballot_past_the_rounds_limit_says_it_was_not_counted(app, monkeypatch, lang, words):
    monkeypatch.setattr(class_store, "MAX_BALLOTS", 3)
    monkeypatch.setattr(classroom, "MAX_BALLOTS", 3)
    teacher, code = start_class(app)
    open_vote(teacher, code)
    for _ in range(3):
        assert vote(student(app, code), code).status_code == 200
    late = student(app, code)
    refused = late.post(f"/c/{code}/vote?lang={lang}", data={"round": "1", "choice": "4"},
                        headers={"HX-Request": "true"})
    assert refused.status_code == 409 and words in text(refused)
    assert tally(app, code) == 3
    assert app.extensions["class_store"].vote(code, 1, "someone", "4") is Vote.FULL


def test_a_nickname_past_the_class_limit_says_it_was_not_saved(app, monkeypatch):
    monkeypatch.setattr(class_store, "MAX_NAMES", 2)
    monkeypatch.setattr(classroom, "MAX_NAMES", 2)
    _, code = start_class(app)
    pupils = [student(app, code) for _ in range(3)]
    for s in pupils[:2]:
        assert s.post(f"/c/{code}/name", data={"name": "Ada"}).status_code == 303
    refused = pupils[2].post(f"/c/{code}/name", data={"name": "Alan"},
                             headers={"HX-Request": "true"})
    assert refused.status_code == 409 and "yours was not saved" in text(refused)
    assert "Saved" not in text(refused)
    assert pupils[0].post(f"/c/{code}/name", data={"name": "Ada L."}).status_code == 303


def test_guessing_class_codes_is_held_back_across_workers(make_app):
    """A script trying codes: after 30 wrong ones in 10 s from its address (counted in the
    store, so across the workers), a 429 with Retry-After, even for a right code; a phone on
    another address joins meanwhile."""
    a, b = make_app(), make_app()              # two workers sharing the store
    _, code = start_class(a)
    guesser_a, guesser_b = a.test_client(), b.test_client()
    for client in (guesser_a, guesser_b):
        client.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    answers = [(guesser_a if i % 2 else guesser_b).get(f"/c/ZZZZ{i:02d}").status_code
               for i in range(40)]
    assert answers[:30] == [404] * 30 and set(answers[30:]) == {429}
    held = guesser_b.get(f"/c/{code}?lang=fr")
    assert held.status_code == 429 and int(held.headers["Retry-After"]) >= 1
    assert "Trop de codes de classe erronés" in text(held)
    assert student(b, code, addr="198.51.100.8")


def test_a_guesser_behind_the_schools_router_does_not_stop_its_class(app):
    """The guesser shares its address with the class: held back, it learns nothing, while
    the students who joined before (and the teacher) go on voting."""
    teacher, code = start_class(app, addr="192.0.2.9")
    open_vote(teacher, code)
    pupils = [student(app, code, addr="192.0.2.9") for _ in range(3)]
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    answers = [guesser.get(f"/c/ZZZZ{i:02d}").status_code for i in range(35)]
    assert answers[-1] == 429
    assert guesser.get(f"/c/{code}").status_code == 429          # a right code: no word
    forged = app.test_client()
    forged.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    forged.set_cookie("joined", code)                               # not signed: no way in
    assert forged.get(f"/c/{code}").status_code == 429
    forged.set_cookie("teach", f"{code}:guess")                     # no secret: no way in
    assert forged.get(f"/c/{code}").status_code == 429
    for pupil in pupils:
        assert vote(pupil, code).status_code == 200
    assert teacher.post(f"/class/{code}/vote", data={"action": "close"}).status_code == 303
    assert tally(app, code) == 3


def test_new_student_ids_per_address_are_bounded(app, monkeypatch):
    monkeypatch.setattr(classroom, "NEW_STUDENTS", (3, 3600.0))
    _, code = start_class(app)
    for _ in range(3):
        student(app, code, addr="203.0.113.5")
    script = app.test_client()
    script.environ_base["REMOTE_ADDR"] = "203.0.113.5"
    refused = script.get(f"/c/{code}")
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "student" not in (refused.headers.get("Set-Cookie") or "")


# -- 8: a store that fails mid-lesson is a 503 that says so ---------------------------------------

def break_writes(app, class_config):
    """The store refuses every write from now on: SQLite read-only, or Redis at maxmemory."""
    st = app.extensions["class_store"]
    if class_config.get("REDIS_URL"):
        st.redis.config_set("maxmemory-policy", "noeviction")
        st.redis.config_set("maxmemory", 1)
        return lambda: st.redis.config_set("maxmemory", 0)
    st._call(lambda db: db.execute("PRAGMA query_only = 1"), write=True)
    return lambda: st._call(lambda db: db.execute("PRAGMA query_only = 0"), write=True)


def test_a_store_refusing_writes_is_a_503_that_says_so_never_a_500(app, class_config):
    teacher, code = start_class(app)
    open_vote(teacher, code)
    pupil = student(app, code)
    assert vote(pupil, code, "3").status_code == 200
    other = student(app, code)
    mend = break_writes(app, class_config)
    try:
        for response in [vote(other, code, "4"),
                         other.get(f"/c/{code}/events?lang=fr"),
                         teacher.post(f"/class/{code}/sync", data={"link": "/connect4?moves=4"}),
                         teacher.post("/class", data={"link": "/nim"}),
                         other.post(f"/c/{code}/name", data={"name": "Ada"})]:
            assert response.status_code == 503, (response.request.path, response.status_code)
            assert int(response.headers["Retry-After"]) > 0
        fr = other.get(f"/c/{code}/events?lang=fr")
        assert "ne peut rien enregistrer" in text(fr)
        # reading still works: the page and the count the teacher saw
        assert other.get(f"/c/{code}").status_code == 200
        assert tally(app, code) == 1
    finally:
        mend()
    assert vote(other, code, "4").status_code == 200 and tally(app, code) == 2


def test_a_store_failing_mid_stream_ends_the_stream_cleanly(app, monkeypatch):
    """A live page's stream, open, when the store fails (here: every read refused): the
    stream ends (the page's event source comes back later, to a 503 until the store answers)
    instead of breaking with a 500 mid-answer."""
    teacher, code = start_class(app)
    pupil = student(app, code)
    response = pupil.get(f"/c/{code}/events", buffered=False)
    assert response.status_code == 200
    chunks = iter(response.response)
    first = ""
    while "event: board" not in first:
        first += next(chunks).decode()
    st = app.extensions["class_store"]

    def refused(*args):
        raise class_store.StoreFull()
    monkeypatch.setattr(st, "get", refused)
    monkeypatch.setattr(st, "follower_seen", refused)
    monkeypatch.setattr(st, "follower_gone", refused)
    app.extensions["class_hub"].dispatch(code, "board")      # the next change comes
    rest = b"".join(chunks).decode()                         # ...and the stream ends
    assert "event: board" not in rest
    response.close()


# -- 9: classes are bounded and looked up by index --------------------------------------------------

def test_the_expiry_lookups_use_an_index(tmp_path):
    store = SqliteStore(tmp_path / "classes.sqlite3")
    for sql in (PURGE_SQL, LIVE_SQL):
        plan = store._call(lambda db: db.execute("EXPLAIN QUERY PLAN " + sql, (0,)).fetchall())
        details = " ".join(row[-1] for row in plan)
        assert "classes_expires" in details and "SCAN classes" not in details, details
    store.close()


def test_classes_are_bounded_per_address_across_workers_and_in_all(make_app, monkeypatch):
    monkeypatch.setattr(classroom, "NEW_CLASSES", (3, 3600.0))
    a, b = make_app(), make_app()
    for i in range(3):                  # cookies forged anew each time change nothing
        start_class(a if i % 2 else b, addr="198.51.100.20")
    refused = b.test_client().post("/class", data={"link": "/nim"},
                                   environ_overrides={"REMOTE_ADDR": "198.51.100.20"})
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    # the server's bound on live classes, whoever asks
    for app in (a, b):
        app.extensions["class_store"].max_classes = 5
    start_class(a, addr="198.51.100.21")
    start_class(b, addr="198.51.100.22")
    full = a.test_client().post("/class?lang=fr", data={"link": "/nim"},
                                environ_overrides={"REMOTE_ADDR": "198.51.100.23"})
    assert full.status_code == 503 and full.headers["Retry-After"]
    assert "5 classes" in text(full)


# -- 10: the teacher's secret in no URL, Secure cookies, no link makes a teacher -----------------

def test_the_teacher_secret_is_in_no_url_and_cookies_are_secure_over_https(app):
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": "/connect4"}, base_url="https://localhost")
    secret = teacher.get_cookie("teach", domain="localhost").value.partition(":")[2]
    assert created.status_code == 303 and secret not in created.headers["Location"]
    cookies = created.headers.getlist("Set-Cookie")
    assert any(c.startswith("teach=") and "Secure" in c and "HttpOnly" in c for c in cookies)
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    joined = app.test_client().get(f"/c/{code}", base_url="https://localhost")
    assert all("Secure" in c for c in joined.headers.getlist("Set-Cookie"))
    plain = app.test_client().get(f"/c/{code}")
    assert not any("Secure" in c for c in plain.headers.getlist("Set-Cookie"))
    # behind a proxy gunicorn trusts, the scheme it reports counts the same
    proxied = app.test_client().get(f"/c/{code}", environ_overrides={"wsgi.url_scheme": "https"})
    assert all("Secure" in c for c in proxied.headers.getlist("Set-Cookie"))


def test_a_link_alone_never_makes_a_teacher(app):
    teacher, code = start_class(app)
    secret = teacher.get_cookie("teach").value.partition(":")[2]
    board = text(teacher.get(f"/connect4?mode=human-human&cls={code}&proj=1"))
    link = re.search(r'value="([^"]*/class/%s/teach[^"]*)"' % code, board).group(1)
    assert link.endswith("#key=" + secret) and "?key=" not in link
    # the secret shows only behind "Teach from another device", never in the bar itself
    assert board.count(secret) == 1
    assert board.index('class="teacher-link"') < board.index(secret)
    # another browser opening the link (the old ?key= form too): a page asking, no cookie
    other, other_code = start_class(app)      # a browser teaching a class of its own
    mine = other.get_cookie("teach")
    for url in (f"/class/{code}/teach", f"/class/{code}/teach?key={secret}"):
        asked = other.get(url)
        assert asked.status_code == 200 and "Teach this class" in text(asked)
        assert f"This browser teaches class {other_code} now" in text(asked)
        assert not asked.headers.getlist("Set-Cookie")
    # a form on another site posting the key: refused, the teacher cookie unchanged
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        forged = other.post(f"/class/{code}/teach", data={"key": secret}, headers=headers)
        assert forged.status_code == 403 and other.get_cookie("teach").value == mine.value
    assert other.post("/class", data={"link": "/nim"},
                      headers={"Origin": "https://evil.example"}).status_code == 403
    assert other.get_cookie("teach").value == mine.value
    # the person confirms on this site: now this browser teaches the class
    taken = other.post(f"/class/{code}/teach", data={"key": secret},
                       headers={"Origin": "http://localhost"})
    assert taken.status_code == 303 and other.get_cookie("teach").value == f"{code}:{secret}"
    wrong = app.test_client().post(f"/class/{code}/teach", data={"key": "guess"})
    assert wrong.status_code == 403 and "not right" in text(wrong)
