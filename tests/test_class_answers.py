"""The class's answers (peer instruction, predict-the-step questions, class exercises), the
same tests on both backends (SQLite, then a real ``redis-server``): an answer is counted
only while its activity is open, once per student for a question, the latest kept beside the
first for an exercise; nothing is lost across a restart; answers sent at once by many
threads are each counted once."""
import queue
import threading

from web.classroom.answers import answers_of
from web.classroom.store import Vote, open_store

from test_class_store import Listener, clock, store  # noqa: F401  (fixtures)


def test_a_question_counts_each_students_first_answer_only_while_it_is_open(store):
    code = store.create("nim", "n=5")[0].code
    a = answers_of(store)
    assert a.current(code) is None and a.history(code) == []
    q = a.start(code, "predict", {"kind": "cut", "answer": "yes"})
    assert q.seq == 1 and q.open and not q.revealed
    assert a.answer(code, 1, "s1", "yes") is Vote.COUNTED
    assert a.answer(code, 1, "s1", "no") is Vote.AGAIN        # the first is kept
    assert a.answer(code, 1, "s2", "no") is Vote.COUNTED
    assert a.answer(code, 2, "s3", "no") is Vote.CLOSED       # no such question
    assert a.given(code, 1, "s1").latest == "yes"
    closed = a.change(code, 1, open=False)
    assert not closed.open and closed.data["answer"] == "yes"
    assert a.answer(code, 1, "s3", "yes") is Vote.CLOSED      # closed: not counted
    assert {v: g.first for v, g in a.all_given(code, 1).items()} == {"s1": "yes", "s2": "no"}
    shown = a.change(code, 1, revealed=True, data={"then": 7})
    assert shown.revealed and shown.data == {"kind": "cut", "answer": "yes", "then": 7}


def test_an_exercise_keeps_the_first_answer_and_the_latest(store):
    code = store.create("nim", "")[0].code
    a = answers_of(store)
    seq = a.start(code, "exercise", {"lab": "ex=nim5"}).seq
    assert a.answer(code, seq, "s1", "v.R=1", again=True)
    assert a.answer(code, seq, "s1", "v.R=-1", again=True)
    g = a.given(code, seq, "s1")
    assert (g.first, g.latest, g.sent) == ("v.R=1", "v.R=-1", 2)


def test_a_new_activity_closes_the_previous_one_which_stays_in_the_history(store):
    code = store.create("connect4", "")[0].code
    a = answers_of(store)
    first = a.start(code, "predict", {"n": 1})
    second = a.start(code, "exercise", {"n": 2})
    assert second.seq == first.seq + 1 and a.current(code) == second
    assert [(x.seq, x.kind, x.open) for x in a.history(code)] == [
        (1, "predict", False), (2, "exercise", True)]
    assert a.answer(code, first.seq, "s1", "x") is Vote.CLOSED
    assert a.change(code, first.seq, revealed=True) == second    # an old one is not changed


def test_an_ended_class_takes_no_answer_and_starts_nothing(store):
    code = store.create("connect4", "")[0].code
    a = answers_of(store)
    seq = a.start(code, "predict", {}).seq
    store.end(code)
    assert a.answer(code, seq, "s1", "x") is Vote.CLOSED
    assert a.start(code, "predict", {}) is None
    assert a.start("ZZZZZZ", "predict", {}) is None


def test_answers_and_changes_reach_the_listeners_as_tally_and_vote_events(store):
    code = store.create("nim", "")[0].code
    a = answers_of(store)
    listener = Listener(store)
    try:
        seq = a.start(code, "predict", {}).seq
        assert listener.next(code) == "vote"
        a.answer(code, seq, "s1", "x")
        assert listener.next(code) == "tally:s1"          # its voter's phone wakes too
        a.change(code, seq, open=False)
        assert listener.next(code) == "vote"
        a.set_setting(code, "hide", "0")
        assert listener.next(code) == "vote"
        assert a.settings(code) == {"hide": "0"}
    finally:
        listener.close()


def test_answers_sent_at_once_by_many_threads_are_each_counted_once(store):
    code = store.create("nim", "")[0].code
    a = answers_of(store)
    seq = a.start(code, "predict", {}).seq
    counted = queue.Queue()

    def student(i):
        for choice in ("1", "2", "3"):
            counted.put(a.answer(code, seq, f"s{i}", choice))

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    results = [counted.get_nowait() for _ in range(90)]
    assert results.count(Vote.COUNTED) == 30
    assert len(a.all_given(code, seq)) == 30


def test_a_restarted_server_keeps_the_activity_and_its_answers(class_config, clock):  # noqa: F811
    first = open_store(class_config, clock=clock)
    code = first.create("nim", "n=5")[0].code
    seq = answers_of(first).start(code, "predict", {"answer": "2"}).seq
    answers_of(first).answer(code, seq, "s1", "2")
    first.close()
    second = open_store(class_config, clock=clock)       # another process, after a restart
    a = answers_of(second)
    assert a.current(code).data == {"answer": "2"} and a.given(code, seq, "s1").first == "2"
    assert a.answer(code, seq, "s1", "3") is Vote.AGAIN
    second.close()


def test_answers_expire_with_their_class(store, clock):  # noqa: F811
    code = store.create("nim", "")[0].code
    a = answers_of(store)
    seq = a.start(code, "predict", {}).seq
    a.answer(code, seq, "s1", "x")
    clock.now += 3600 + 1
    assert a.answer(code, seq, "s2", "x") is Vote.CLOSED
    assert store.get(code) is None
