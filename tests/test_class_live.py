"""Class mode in a live classroom (issue 26), through Flask's test client and on both stores
(SQLite, then Redis): a vote with a time limit closes by itself, a page reloaded stays
counted, the teacher's bar updates its parts in place (count, nicknames, vote), "45 of 60
answered", an ended class still offers its last position, the phones see the tree's step and
vote with buttons lined up with the board, the AI's choice is said as what it would play."""
import re
import threading

import pytest

from web.classroom.store import Vote, open_store
from web.classroom.views import phone_vote

from test_class_store import Clock
from test_classroom import discs, start_class, streams, student  # noqa: F401 (streams: a fixture)


@pytest.fixture()
def app(make_app):
    return make_app()


HX = {"HX-Request": "true"}


class LateInReads(Clock):
    """The store's clock, read 2 s late by the reads that ``late`` wraps, on time elsewhere
    (the teacher's requests): a loaded server whose stream reads the class that much later."""

    def __init__(self):
        super().__init__()
        self.reading = threading.local()

    def __call__(self):
        return self.now + (2 if getattr(self.reading, "late", False) else 0)

    def late(self, read):
        def late_read(code):
            self.reading.late = True
            try:
                return read(code)
            finally:
                self.reading.late = False
        return late_read


def test_a_vote_with_a_time_limit_closes_by_itself_and_counts_nothing_after(class_config):
    clock = Clock()
    store = open_store({**class_config, "CLASS_TTL": 3600}, clock=clock)
    try:
        state, _ = store.create("connect4", "")
        state = store.open_vote(state.code, 30)
        assert state.vote_open and state.vote_ends == clock.now + 30
        assert store.vote(state.code, 1, "a", "4") is Vote.COUNTED
        clock.now += 29.5
        assert store.get(state.code).vote_open
        assert store.vote(state.code, 1, "b", "3") is Vote.COUNTED
        clock.now += 1                                  # 30.5 s after it opened
        assert not store.get(state.code).vote_open
        assert store.vote(state.code, 1, "c", "4") is Vote.CLOSED
        assert store.tally(state.code, 1) == {"4": 1, "3": 1}
        # a vote without a time limit stays open
        state = store.open_vote(state.code)
        clock.now += 3000                               # (within the class's hour)
        assert store.get(state.code).vote_open and state.vote_ends == 0
    finally:
        store.close()


def test_a_reloaded_page_stays_counted_when_its_old_stream_ends_last(class_config):
    """The new stream says "still here" before the old one says "gone": the old one's
    goodbye must not remove the follower, even when the old stream, still beating until it
    ends, said "still here" after the new one had (the test through the app failed so, once,
    beside busy processes: the old stream's last "still here" was the follower's latest)."""
    clock = Clock()
    store = open_store({**class_config, "CLASS_TTL": 3600}, clock=clock)
    try:
        code = store.create("connect4", "")[0].code
        assert store.follower_seen(code, "phone", "first")      # the first page's stream
        clock.now += 20
        assert not store.follower_seen(code, "phone", "second")  # reloaded: the new stream
        clock.now += 15
        store.follower_seen(code, "phone", "first")      # the old one's heartbeat, after it
        store.follower_gone(code, "phone", "first")      # then the old one ends
        assert store.followers(code) == 1
        clock.now += 40                                  # the new one beats, and ends
        store.follower_seen(code, "phone", "second")
        assert store.followers(code) == 1
        store.follower_gone(code, "phone", "second")
        assert store.followers(code) == 0
        assert store.follower_seen(code, "phone", "third")       # back: counted anew
    finally:
        store.close()


def test_a_reload_through_the_app_keeps_the_count(app, streams):
    teacher, code, _ = start_class(app)
    bar = streams(teacher, f"/class/{code}/events")
    phone = student(app, code)
    first = streams(phone, f"/c/{code}/events")
    first.event("board")
    bar.event("followers", where=lambda d: "1 student following" in d)
    second = streams(phone, f"/c/{code}/events")            # the page reloaded
    second.event("board")
    first.close()                                            # its old stream ends after
    page = teacher.get(f"/connect4?mode=human-human&cls={code}").get_data(as_text=True)
    assert "1 student following" in page


def test_the_stream_wakes_at_the_end_of_a_timed_vote(app, streams, monkeypatch):
    # the store's clock moved by hand: the vote stays open until the test ends it, however
    # late a loaded machine lets the phone's stream see it open (on the wall clock, a phone
    # slower than the vote's second saw it closed at once, rightly, and the test waited for
    # an open vote that was gone)
    clock = Clock()
    monkeypatch.setattr(app.extensions["class_store"], "clock", clock)
    teacher, code, _ = start_class(app)
    phone = student(app, code)
    live = streams(phone, f"/c/{code}/events")
    live.event("board")
    opened = teacher.post(f"/class/{code}/vote", data={"action": "open", "seconds": "1"},
                          headers=HX).get_data(as_text=True)
    assert "Vote open" in opened and 'data-left="1"' in opened      # 0:01 left
    live.event("vote", where=lambda d: 'name="choice"' in d)
    # nobody does anything, no event comes: the vote's time passes, and the phone is told
    clock.now += 1.5
    closed = live.event("vote", where=lambda d: "The vote is closed." in d)
    assert 'name="choice"' not in closed
    late = phone.post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}, headers=HX)
    assert late.status_code == 400 and "This vote is closed." in late.get_data(as_text=True)


def test_a_phone_that_learns_of_a_timed_vote_after_its_end_sees_it_closed(app, streams,
                                                                          monkeypatch):
    """A loaded server: the phone's stream reads the class only once the vote's time has
    passed. It shows the round closed, never a form whose ballot would be refused.

    Every read the stream's drawings are made of (through the hub's shared read) sees the
    store's clock 2 s late, past the 1 s vote's end, within the very read that draws it: a
    first version moved the clock from a read of its own made before the drawing's, and a
    vote opened between the two was drawn open (once, beside 4 busy processes, on Redis)."""
    clock = LateInReads()
    monkeypatch.setattr(app.extensions["class_store"], "clock", clock)
    teacher, code, _ = start_class(app)
    live = streams(student(app, code), f"/c/{code}/events")
    live.event("board")
    hub = app.extensions["class_hub"]
    latest = hub.latest

    def late(code, read, what="state", **keep):
        return latest(code, clock.late(read), what, **keep)
    monkeypatch.setattr(hub, "latest", late)
    teacher.post(f"/class/{code}/vote", data={"action": "open", "seconds": "1"}, headers=HX)
    first = live.event("vote", where=lambda d: 'name="choice"' in d
                       or "The vote is closed." in d)
    assert 'name="choice"' not in first


def test_a_vote_area_read_as_before_a_timed_vote_s_end_is_not_shared_after_it(app,
                                                                            monkeypatch):
    """The stream's state was read just before the teacher opened a timed vote, the phones'
    read just after it (the vote's event not yet come): drawn open, rightly. That read must
    not be shared as one made with the vote closed: once the vote's time passes, which no
    event tells, the stream draws from a state that says closed, and the phones' shared read
    found under that name showed them the ballot's buttons again, a ballot then refused,
    until the class's next change (the timed-vote stream test's wait, once, on Redis)."""
    clock = Clock()
    monkeypatch.setattr(app.extensions["class_store"], "clock", clock)
    teacher, code, _ = start_class(app)
    the_store, the_hub = app.extensions["class_store"], app.extensions["class_hub"]

    def vote_area(state):
        with app.test_request_context():
            return phone_vote(the_hub, the_store, state, None, "en", lambda draw: draw())
    before = the_store.get(code)                              # the stream's read: no vote
    teacher.post(f"/class/{code}/vote", data={"action": "open", "seconds": "1"}, headers=HX)
    assert 'name="choice"' in vote_area(before)               # the phones' read: open
    clock.now += 2                                            # its time passes, no event
    after = the_store.get(code)
    assert not after.vote_open
    closed = vote_area(after)
    assert "The vote is closed." in closed and 'name="choice"' not in closed


def test_a_phone_s_own_answer_wakes_its_stream_so_a_drawing_read_before_it_does_not_stay(
        app, streams):
    """A loaded server: the phone's stream draws its vote area (an exercise's tree, in the
    trees' lane) from a read made just before the student's check, and sends it after the
    check's own reply, which showed the verdict. That drawing replaced the verdict, and the
    answer woke only the teacher's page: the phone showed the bare form until the class's
    next change (the browser test's verdict that never came, beside 4 busy processes). The
    phone's own answer, and its own ballot, wake its stream again: the last it is sent
    says what it answered."""
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    assert teacher.post(f"/class/{code}/exercise", headers=HX, data={
        "action": "start", "source": "ex:nim4", "algo": "minimax"}).status_code == 200
    phone = student(app, code)
    live = streams(phone, f"/c/{code}/events")
    before = live.event("vote")                  # read before the check: no verdict
    assert "Check my answer" in before and "right so far" not in before
    seq = re.search(r'name="seq" value="(\d+)"', before).group(1)
    checked = phone.post(f"/c/{code}/exercise", data={"seq": seq}, headers=HX)
    assert "right so far" in checked.get_data(as_text=True)
    # (a vote area drawn before the check may come first; one drawn after it follows)
    live.event("vote", where=lambda d: "right so far" in d)


def test_a_phone_s_own_ballot_wakes_its_stream_again(app, streams):
    """The same for a ballot: a drawing of the open vote read before it would offer the
    phone a ballot it has cast already."""
    teacher, code, _ = start_class(app)
    phone = student(app, code)
    live = streams(phone, f"/c/{code}/events")
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    opened = live.event("vote", where=lambda d: 'name="choice"' in d)
    round_ = re.search(r'name="round" value="(\d+)"', opened).group(1)
    assert phone.post(f"/c/{code}/vote", data={"round": round_, "choice": "4"},
                      headers=HX).status_code == 200
    live.event("vote", where=lambda d: "Your vote: column 4" in d)


def test_after_its_listener_reconnects_a_phone_redraws_its_vote_too(app, streams):
    """Events missed while a worker's listener (re)connects to the store (Redis restarting,
    or the listener's first look at the store coming after a change, on a loaded machine)
    wake every stream to read its class again. A phone redrew its board only, so a vote
    opened meanwhile never showed (the timed vote's test waited for it in vain, beside 4
    busy processes)."""
    teacher, code, _ = start_class(app)
    phone = student(app, code)
    live = streams(phone, f"/c/{code}/events")
    live.event("board")
    hub = app.extensions["class_hub"]
    hub.stop()                            # the listener gone: the vote's event is missed
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    hub.dispatch(None, "board")           # what the listener says when it is back
    live.event("vote", where=lambda d: 'name="choice"' in d)


def test_a_time_limit_out_of_range_is_a_clear_400(app):
    teacher, code, _ = start_class(app)
    for bad in ("-5", "abc", "100000"):
        r = teacher.post(f"/class/{code}/vote", data={"action": "open", "seconds": bad},
                         headers=HX)
        assert r.status_code == 400, bad
        assert "not" in r.get_data(as_text=True)


def test_the_teacher_stream_updates_count_names_and_vote_each_in_its_place(app, streams):
    teacher, code, secret = start_class(app)
    bar = streams(teacher, f"/class/{code}/events")
    assert "Vote" in bar.event("bar")
    ada = student(app, code)
    streams(ada, f"/c/{code}/events").event("board")
    assert bar.event("followers", where=lambda d: "1 student" in d).strip() \
        == "1 student following"
    assert ada.post(f"/c/{code}/name", data={"name": "Ada"}, headers=HX).status_code == 200
    names = bar.event("names", where=lambda d: "Ada" in d)
    assert '<span class="name-chip">Ada</span>' in names
    # the live parts never carry the settings (kept open by the teacher) nor the teacher link
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    vote = bar.event("bar", where=lambda d: "Vote open" in d)
    assert "Class settings" not in vote and secret not in vote
    assert "0 of 1 answered" in vote
    ada.post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}, headers=HX)
    assert "1 of 1 answered" in bar.event("bar", where=lambda d: "1 of 1" in d)
    # the page itself keeps the settings and the teacher link, outside the live parts
    page = teacher.get(f"/connect4?mode=human-human&cls={code}&proj=1").get_data(as_text=True)
    live_part = page.split('class="class-live"', 1)[1]
    assert f"#key={secret}" in page and f"#key={secret}" not in live_part
    assert '<span class="name-chip">Ada</span>' in page


def test_the_phone_says_how_many_answered_and_never_what(app):
    teacher, code, _ = start_class(app)
    phones = [student(app, code) for _ in range(3)]
    for p in phones:                                  # three pages open: three followers
        app.extensions["class_store"].follower_seen(code, p.get_cookie("student").value[:16])
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    phones[0].post(f"/c/{code}/vote", data={"round": "1", "choice": "4"}, headers=HX)
    voted = phones[1].post(f"/c/{code}/vote", data={"round": "1", "choice": "3"},
                           headers=HX).get_data(as_text=True)
    assert "2 of 3 answered" in voted and "column 4" not in voted


def test_an_ended_class_reloaded_still_offers_its_last_position(app, streams):
    teacher, code, _ = start_class(app, "/connect4?mode=human-human&moves=445")
    phone = student(app, code)
    teacher.post(f"/class/{code}/end", headers=HX)
    page = phone.get(f"/c/{code}")
    html = page.get_data(as_text=True)
    assert page.status_code == 410 and f"The class {code} has ended." in html
    link = re.search(r'href="([^"]+)">Go on from its last position on my own', html).group(1)
    assert "moves=445" in link.replace("&amp;", "&")
    # its stream says the class ended (an event), instead of a 410 the browser retries for ever
    closed = streams(phone, f"/c/{code}/events").event("closed")
    assert "has ended" in closed and "moves=445" in closed.replace("&amp;", "&")


def test_back_to_projector_mode_in_class_leaves_the_tree_as_it_was(app):
    teacher, code, _ = start_class(app)
    page = teacher.get(f"/connect4?mode=human-human&cls={code}&proj=0").get_data(as_text=True)
    back = re.search(r'href="([^"]+)" data-key="projector"[^>]*>Projector mode', page).group(1)
    assert "proj=1" in back and "tree=1" not in back
    alone = app.test_client().get("/connect4?mode=human-human").get_data(as_text=True)
    assert "tree=1" in re.search(r'href="([^"]+)" data-key="projector"[^>]*>Projector mode',
                                 alone).group(1)


def test_the_phone_s_buttons_line_up_with_the_columns_a_full_one_a_gap(app):
    # column 1 full (six discs), so six columns can be chosen, in seven places
    teacher, code, _ = start_class(app, "/connect4?mode=human-human&moves=111111")
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    html = student(app, code).get(f"/c/{code}").get_data(as_text=True)
    row = re.search(r'<div class="vote-buttons slots cols-7">(.*?)</div>', html, re.S).group(1)
    assert re.findall(r'<span class="vote-gap"|value="(\d)"', row) == \
        ["", "2", "3", "4", "5", "6", "7"]


def test_the_ai_s_choice_is_what_it_would_play_then_what_it_would_have_played(app, streams):
    teacher, code, _ = start_class(app, "/connect4?mode=human-human&moves=4433")
    phone = student(app, code)
    live = streams(phone, f"/c/{code}/events")
    live.event("board")
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    phone.post(f"/c/{code}/vote", data={"round": "1", "choice": "2"}, headers=HX)
    teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HX)
    revealed = teacher.post(f"/class/{code}/vote", data={"action": "reveal"},
                            headers=HX).get_data(as_text=True)
    ai = re.search(r"The AI would play column (\d) here", revealed).group(1)
    live.event("vote", where=lambda d: f"The AI would play column {ai} here" in d)
    # the class's move is played: the AI's choice was not a reply, and the words say so
    teacher.post(f"/class/{code}/sync",
                 data={"link": "/connect4?mode=human-human&moves=44332"})
    after = live.event("vote", where=lambda d: "would have played" in d)
    assert f"The AI would have played column {ai} here" in after
    assert "The AI plays" not in after


def test_the_phones_read_the_tree_s_step_the_projector_shows(app, streams):
    teacher, code, _ = start_class(app, "/nim?n=5&k=2&mode=human-human")
    live = streams(student(app, code), f"/c/{code}/events")
    live.event("board")
    teacher.post(f"/class/{code}/sync",
                 data={"link": "/nim?n=5&k=2&mode=human-human&tree=1&step=1"})
    board = live.event("board", where=lambda d: "phone-step" in d)
    assert "On the projector: the search tree, step 1 of" in board
    assert re.search(r'<p class="step-event">\s*Enter ', board)     # the step's own words


def test_the_stream_beats_with_its_period_for_the_page_s_watchdog(app, streams):
    _, code, _ = start_class(app)
    s = streams(student(app, code), f"/c/{code}/events")
    assert s.event("beat") == "200"              # CLASS_HEARTBEAT is 0.2 s in the tests
    assert discs(s.event("board")) == 0


def test_the_streams_of_a_worker_read_a_change_once_between_them():
    """100 phones of one class in one worker: a move is read from the store once, not 100
    times; the next change is read again."""
    from web.classroom.live import Hub

    reads = []

    def read(code):
        reads.append(code)
        return f"{code} after {len(reads)} reads"

    hub = Hub(store=None)
    hub.dispatch("K7PQMX", "board")
    seen = {hub.latest("K7PQMX", read) for _ in range(100)}
    assert reads == ["K7PQMX"] and seen == {"K7PQMX after 1 reads"}
    hub.dispatch("K7PQMX", "board")                       # the next move
    assert hub.latest("K7PQMX", read) == "K7PQMX after 2 reads"
    hub.dispatch("OTHER2", "board")                       # another class's change
    assert hub.latest("K7PQMX", read) == "K7PQMX after 2 reads"
    hub.dispatch(None, "board")                           # the store reconnected: all again
    assert hub.latest("K7PQMX", read) == "K7PQMX after 3 reads"


def twenty_streams_at_once(stream, started, release):
    """``stream()`` in twenty threads at once, as twenty streams woken by one change; the
    first to start its work (``started`` then holds something) is held until the others
    have woken too, then ``release`` lets it finish."""
    import threading

    threads = [threading.Thread(target=stream) for _ in range(20)]
    for t in threads:
        t.start()
    while not started:
        threading.Event().wait(0.01)
    threading.Event().wait(0.2)                 # the others have woken, and wait
    release.set()
    for t in threads:
        t.join(10)


def test_streams_that_wake_while_a_read_runs_wait_for_it_rather_than_read_too():
    """Under gevent a read yields, and the other streams woken by the same move run
    meanwhile: they must wait for that read, not start 99 more."""
    import threading

    from web.classroom.live import Hub

    reads, release = [], threading.Event()

    def slow_read(code):
        reads.append(code)
        release.wait(5)
        return f"{code} read"

    hub = Hub(store=None)
    hub.dispatch("K7PQMX", "board")
    got = []
    twenty_streams_at_once(lambda: got.append(hub.latest("K7PQMX", slow_read)), reads, release)
    assert reads == ["K7PQMX"] and got == ["K7PQMX read"] * 20
    # each kind of read is shared apart: the phones' read is not the state's
    assert hub.latest("K7PQMX", lambda code: "phones", what="phones") == "phones"


def test_streams_woken_while_a_board_is_drawn_wait_for_that_drawing():
    """The same for a drawing shared by key (a class's board at a version, in a language): a
    suite run beside 4 busy processes drew one board three times for ten phones, each stream
    starting its own while the first was still drawing. A drawing that fails is made again,
    once, by a stream that waited for it."""
    import threading

    from web.classroom.live import Hub

    drawn, release = [], threading.Event()

    def slow_drawing():
        drawn.append("board")
        release.wait(5)
        if len(drawn) == 1:
            raise RuntimeError("the first drawing failed")
        return "<svg>board</svg>"

    hub = Hub(store=None)
    got, failed = [], []

    def stream():
        try:
            got.append(hub.cached(("K7PQMX", 2, "fr"), slow_drawing))
        except RuntimeError:
            failed.append(True)
    twenty_streams_at_once(stream, drawn, release)
    assert drawn == ["board", "board"] and len(failed) == 1
    assert got == ["<svg>board</svg>"] * 19
    assert hub.cached(("K7PQMX", 2, "fr"), slow_drawing) == "<svg>board</svg>"
    assert drawn == ["board", "board"]


def test_students_joining_leave_the_teacher_s_open_forms_alone(app, streams):
    """A student who joins or names themselves changes the count and the names, each in its
    place: the rest of the bar (where the teacher may have a class exercise's form open) is
    not redrawn, so the form does not close under the teacher's hands."""
    teacher, code, _ = start_class(app)
    ada = student(app, code)
    followed = streams(ada, f"/c/{code}/events")
    followed.event("board")
    # the worker's listener started with Ada's stream: its first look at the store wakes
    # every stream (its board again); the teacher's bar, opened before it, was redrawn by it
    followed.event("board")
    bar = streams(teacher, f"/class/{code}/events")
    assert "1 student following" in bar.event("followers")
    bar.buffer = ""                                  # the bar as it opened: set aside
    assert ada.post(f"/c/{code}/name", data={"name": "Ada"}, headers=HX).status_code == 200
    text = ""                                        # the stream as it comes, until Ada's name
    while "name-chip\">Ada" not in text:
        text += bar.chunks.get(timeout=30)
    kinds = [line[7:] for line in (bar.buffer + text).split("\n") if line.startswith("event: ")]
    assert "names" in kinds and "bar" not in kinds, kinds
    bar.buffer = ""
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    assert "Vote open" in bar.event("bar")           # a change of the vote redraws it


def test_a_change_is_read_once_and_drawn_once_per_ballot_however_many_phones(app, streams,
                                                                              monkeypatch):
    """After a reveal, playing the class's choice redraws every phone's vote area ("you
    voted ...", "would have played"): ten phones of one worker, seven ballots for three moves,
    cost one read of the class, four drawings of the vote area (one per ballot, one for no
    ballot) and one of the board, each in a request context of its own, and no context for
    the phones that take a drawing made already: not ten of each. Each phone still gets its
    own ballot."""
    from web.classroom import reading, views

    teacher, code, _ = start_class(app, "/connect4?mode=human-human&moves=4433")
    ballots = ["2", "2", "2", "3", "3", "4", "4", None, None, None]
    phones = [student(app, code) for _ in ballots]
    lives = [streams(phones[0], f"/c/{code}/events")]
    # the worker's listener starts with the first stream: its first look at the store wakes
    # every stream (the board again); on a loaded machine it came after the reveal, and its
    # drawings were counted with the change's
    lives[0].event("board")
    lives[0].event("board")
    lives += [streams(p, f"/c/{code}/events") for p in phones[1:]]
    for live in lives[1:]:
        live.event("board")
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    for phone, choice in zip(phones, ballots):
        if choice:
            phone.post(f"/c/{code}/vote", data={"round": "1", "choice": choice}, headers=HX)
    teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HX)
    teacher.post(f"/class/{code}/vote", data={"action": "reveal"}, headers=HX)
    for live in lives:
        live.event("vote", where=lambda d: "The AI would play" in d)

    reads, drawings, contexts = [], [], []
    for name in ("_read_sqlite", "_read_redis"):
        def counted(*args, _read=getattr(reading, name)):
            reads.append(args[1])
            return _read(*args)
        monkeypatch.setattr(reading, name, counted)

    def drawing(template, block, **context):
        drawings.append((block, context.get("ballot")))
        return render_block(template, block, **context)
    render_block = views.render_block
    monkeypatch.setattr(views, "render_block", drawing)

    def context(environ, _context=app.request_context):
        if environ.get("PATH_INFO", "").endswith("/events"):
            contexts.append(environ["PATH_INFO"])
        return _context(environ)
    monkeypatch.setattr(app, "request_context", context)

    teacher.post(f"/class/{code}/sync", data={"link": "/connect4?mode=human-human&moves=44332"})
    for live, choice in zip(lives, ballots):
        after = live.event("vote", where=lambda d: "would have played" in d)
        assert (f"You voted column {choice}." in after) if choice else "You voted" not in after
    assert reads == [code]
    assert sorted(drawings, key=str) == [("board", None), ("vote", "2"), ("vote", "3"),
                                         ("vote", "4"), ("vote", None)]
    assert len(contexts) == len(drawings)


def test_a_class_board_page_reads_its_bar_once_and_other_pages_never(app, monkeypatch):
    """The bar of a page opened with ``cls=`` is read once, when the view builds the page
    (web.page_bar); a block for htmx, or a page that shows no game, reads nothing."""
    from web.classroom import reading

    teacher, code, _ = start_class(app, "/nim?n=7&k=3&mode=human-human")
    reads = []
    for name in ("_read_sqlite", "_read_redis"):
        def counted(*args, _read=getattr(reading, name)):
            reads.append(args[1])
            return _read(*args)
        monkeypatch.setattr(reading, name, counted)
    page = teacher.get(f"/nim?n=7&k=3&mode=human-human&cls={code}&proj=1")
    assert 'class="class-bar' in page.get_data(as_text=True) and reads == [code]
    block = teacher.get(f"/nim?n=7&k=3&mode=human-human&cls={code}&proj=1", headers=HX)
    assert block.status_code == 200 and "class-bar" not in block.get_data(as_text=True)
    assert teacher.get(f"/course?cls={code}").status_code == 200
    assert reads == [code]


def status(html):
    """The page's status line as read (without its "Review the game" link)."""
    line = re.search(r'<p class="status" id="status">(.*?)</p>', html, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.sub(r"<a .*?</a>", "", line))).strip()


@pytest.mark.parametrize("moves, said", [
    ("", "Yellow to play."),                      # the class's turn against the AI
    ("4455667", "Yellow wins!"),                  # the class's side won
    ("14253667", "Red wins!"),                    # the AI's side won
])
def test_the_projector_and_the_phones_say_whose_turn_it_is_in_the_same_words(app, moves, said):
    """Against the AI, the teacher's page spoke to the one player at the laptop ("Your turn.",
    "You win!", "The AI wins!") while the phones said "Yellow to play.": in class mode the
    projector speaks to the room as the phones do."""
    link = f"/connect4?mode=human-ai&level=easy&moves={moves}"
    teacher, code, _ = start_class(app, link)
    projector = teacher.get(f"{link}&cls={code}").get_data(as_text=True)
    phone = student(app, code).get(f"/c/{code}").get_data(as_text=True)
    assert status(projector) == status(phone) == said
    alone = app.test_client().get(link).get_data(as_text=True)   # one player: spoken to
    assert status(alone) == {"": "Your turn.", "4455667": "You win!",
                             "14253667": "The AI wins!"}[moves]
