"""A student's ballot goes blueprint -> store -> view in at most 3 round trips to the store
(issue 34): the class (to check the choice), the ballot (checked and counted in one step),
then what the phone shows (``web.classroom.reading``: one read). Counted by a wrapper around
the real store, on both backends (SQLite, then Debian's redis-server); the ballots are still
recorded and counted exactly, none lost."""
import threading
from collections import Counter
from contextlib import contextmanager

import pytest
import redis.connection

from test_classroom import start_class, student

HTMX = {"HX-Request": "true"}
MOST = 3


@contextmanager
def round_trips(store):
    """The store's round trips made by this thread while the block runs, as a list of the
    calls that made them: on SQLite each use of its connection (``_call``: one transaction,
    read or write), on Redis each request sent (a command, a pipeline or a script). Other
    threads (the store's listener) are not counted."""
    me = threading.get_ident()
    made = []
    if hasattr(store, "redis"):
        send = redis.connection.AbstractConnection.send_packed_command

        def counted(conn, command, *args, **kwargs):
            if threading.get_ident() == me:
                made.append(command)
            return send(conn, command, *args, **kwargs)

        redis.connection.AbstractConnection.send_packed_command = counted
        try:
            yield made
        finally:
            redis.connection.AbstractConnection.send_packed_command = send
    else:
        call = store._call

        def counted(fn, write=False):
            if threading.get_ident() == me:
                made.append(getattr(fn, "__qualname__", fn))
            return call(fn, write)

        store._call = counted
        try:
            yield made
        finally:
            del store._call


@pytest.fixture()
def app(make_app):
    return make_app()


def vote(s, code, choice, round_="1"):
    return s.post(f"/c/{code}/vote", data={"round": round_, "choice": choice}, headers=HTMX)


def test_the_counter_sees_every_round_trip(app):
    """The wrapper counts: three plain store calls are three round trips."""
    _, code, _ = start_class(app)
    store = app.extensions["class_store"]
    with app.test_request_context(), round_trips(store) as trips:
        store.get(code)
        store.tally(code, 1)
        store.names(code)
    assert len(trips) == 3


def test_a_ballot_takes_at_most_three_round_trips_and_is_counted(app):
    teacher, code, _ = start_class(app)
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers=HTMX).status_code == 200
    store = app.extensions["class_store"]
    students = [student(app, code) for _ in range(4)]
    # the first ballot of the server loads its scripts into Redis (one more request each,
    # once): the ballots after it are counted
    assert vote(students[0], code, "4").status_code == 200
    for s, choice in zip(students[1:], "344"):
        with round_trips(store) as trips:
            answer = vote(s, code, choice)
        assert answer.status_code == 200
        assert f"Your vote: column {choice}" in answer.get_data(as_text=True)
        assert len(trips) <= MOST, trips
    assert store.tally(code, 1) == Counter({"4": 3, "3": 1})
    # a second ballot of the same student: refused, the first one kept, as cheaply
    with round_trips(store) as trips:
        again = vote(students[1], code, "5")
    assert "Your vote: column 3" in again.get_data(as_text=True)
    assert len(trips) <= MOST, trips
    assert store.tally(code, 1) == Counter({"4": 3, "3": 1})
    # the teacher sees every ballot
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"},
                          headers=HTMX).get_data(as_text=True)
    assert "Vote closed: 4 votes" in closed


def test_a_ballot_during_a_question_or_after_a_discussion_stays_within_three(app):
    """The phone's vote area is read in one trip whatever the class is doing: a re-vote after
    a peer discussion (two rounds' tallies), the counts hidden or shown."""
    teacher, code, _ = start_class(app)
    store = app.extensions["class_store"]
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HTMX)
    students = [student(app, code) for _ in range(3)]
    for s, choice in zip(students, "344"):
        assert vote(s, code, choice).status_code == 200
    teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HTMX)
    teacher.post(f"/class/{code}/peer", data={"action": "discuss", "seconds": "0"},
                 headers=HTMX)
    assert teacher.post(f"/class/{code}/peer", data={"action": "revote"},
                        headers=HTMX).status_code == 200
    for s, choice in zip(students, "443"):
        with round_trips(store) as trips:
            answer = vote(s, code, choice, round_="2")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert f"Your vote: column {choice}" in answer.get_data(as_text=True)
        assert len(trips) <= MOST, trips
    assert store.tally(code, 2) == Counter({"4": 2, "3": 1})
    assert store.tally(code, 1) == Counter({"4": 2, "3": 1})


def test_no_ballot_is_lost_when_a_class_votes_at_once(app):
    teacher, code, _ = start_class(app)
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HTMX)
    students = [student(app, code) for _ in range(12)]
    answers = {}

    def send(i, s):
        answers[i] = vote(s, code, "1234567"[i % 7]).status_code

    threads = [threading.Thread(target=send, args=(i, s)) for i, s in enumerate(students)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(answers.values()) == [200] * 12
    tally = app.extensions["class_store"].tally(code, 1)
    assert tally == Counter("1234567"[i % 7] for i in range(12))
