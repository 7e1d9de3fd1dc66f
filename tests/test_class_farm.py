"""The room outvotes a farm of student ids (issue 37). ``GET /c/<code>`` gives an id to anyone
(300 an hour per address), so two addresses can hold 600 ids. A ballot of an id given less
than ``FOLLOW_SECONDS`` ago (by the store's clock, simulated here) is "fresh"; past the first
``FRESH_BALLOTS`` fresh ballots of an address in a round it is set aside, and set-aside ballots
do not count once a student who followed the class a while voted. Both stores."""
from collections import Counter

import pytest

from web.classroom import store as class_store
from web.classroom.views import FOLLOW_SECONDS

HX = {"HX-Request": "true"}


@pytest.fixture()
def app(make_app):
    return make_app()


def start_class(app):
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": "/connect4?mode=human-human"})
    assert created.status_code == 303
    return teacher, created.headers["Location"].split("cls=")[1][:6]


def student(app, code, addr):
    s = app.test_client()
    s.environ_base["REMOTE_ADDR"] = addr
    assert s.get(f"/c/{code}").status_code == 200
    return s


def vote(s, code, choice):
    return s.post(f"/c/{code}/vote", data={"round": "1", "choice": choice}, headers=HX)


def open_vote(teacher, code):
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"}).status_code == 303


def test_two_addresses_with_300_ids_each_do_not_outvote_the_class(app, class_clock):
    teacher, code = start_class(app)
    room = [student(app, code, f"10.0.1.{i}") for i in range(1, 31)]   # the class's Wi-Fi
    class_clock[0] += FOLLOW_SECONDS + 40             # the lesson goes on: the class follows it
    open_vote(teacher, code)
    farm = [student(app, code, addr) for addr in ("198.51.100.1", "198.51.100.2")
            for _ in range(300)]
    answers = Counter(vote(s, code, "1").status_code for s in farm)     # the farm first
    assert answers[200] >= 500                  # answered as ever: a farm learns nothing
    assert all(vote(s, code, "4").status_code == 200 for s in room)     # the room is counted
    st = app.extensions["class_store"]
    tally = st.tally(code, 1)
    assert tally == Counter({"4": 30, "1": 2 * class_store.FRESH_BALLOTS})
    assert tally.most_common(1)[0][0] == "4"
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HX)
    assert "Vote closed: 50 votes" in closed.get_data(as_text=True)


@pytest.mark.parametrize("follows", [True, False])
def test_a_class_of_30_behind_one_router_is_counted_whole(app, class_clock, follows):
    """Whether its students joined a while ago or just now (no one to outvote it then)."""
    teacher, code = start_class(app)
    if not follows:
        open_vote(teacher, code)
    room = [student(app, code, "192.0.2.1") for _ in range(30)]
    if follows:
        class_clock[0] += FOLLOW_SECONDS + 1
        open_vote(teacher, code)
    assert all(vote(s, code, str(1 + i % 7)).status_code == 200 for i, s in enumerate(room))
    assert sum(app.extensions["class_store"].tally(code, 1).values()) == 30


def test_ids_given_before_ids_said_when_count_as_following(app, class_clock):
    """A student cookie signed before this change (no time in it) still votes, and counts."""
    teacher, code = start_class(app)
    open_vote(teacher, code)
    s = app.test_client()
    s.get(f"/c/{code}")
    with app.test_request_context():
        from web.classroom.views import signer
        old = signer().sign("0123456789abcdef").decode()
    s.set_cookie("student", old)
    assert vote(s, code, "4").status_code == 200
    assert app.extensions["class_store"].tally(code, 1) == Counter({"4": 1})


# -- the projector's flag on an address casting many ballots ---------------------------------------

def bar_text(teacher, code, lang="en"):
    """The teacher's board page (projector) as words."""
    import re
    html = teacher.get(f"/connect4?mode=human-human&cls={code}&proj=1&lang={lang}").get_data(
        as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_projector_flags_the_farm_s_address_and_the_votes_it_left_out(app, class_clock):
    teacher, code = start_class(app)
    room = [student(app, code, f"10.0.1.{i}") for i in range(1, 31)]
    class_clock[0] += FOLLOW_SECONDS + 40
    open_vote(teacher, code)
    farm = [student(app, code, "198.51.100.1") for _ in range(300)]
    assert all(vote(s, code, "1").status_code == 200 for s in farm)
    shown = bar_text(teacher, code)
    # no one who followed the class voted yet: the farm's ballots all count, flagged
    assert "300 votes from one address" in shown and "not counted" not in shown
    assert all(vote(s, code, "4").status_code == 200 for s in room)
    shown = bar_text(teacher, code)
    left_out = 300 - class_store.FRESH_BALLOTS
    assert f"300 votes from one address, {left_out} of them not counted (just joined)" in shown
    assert "198.51.100.1" not in shown                  # never the address itself
    french = bar_text(teacher, code, "fr")
    assert (f"300 votes venus d’une même adresse, dont {left_out} non comptés "
            "(arrivés à l’instant)") in french
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HX)
    assert "300 votes from one address" in closed.get_data(as_text=True)   # closed: still said
    phone = room[0].get(f"/c/{code}").get_data(as_text=True)
    assert "from one address" not in phone                # the teacher's, not the phones'


def test_a_farm_whose_ids_waited_is_flagged_too(app, class_clock):
    """Ids older than FOLLOW_SECONDS vote as the class does (counted): the teacher sees them."""
    teacher, code = start_class(app)
    farm = [student(app, code, "198.51.100.7") for _ in range(40)]
    room = [student(app, code, f"10.0.1.{i}") for i in range(1, 11)]
    class_clock[0] += FOLLOW_SECONDS + 1
    open_vote(teacher, code)
    assert all(vote(s, code, "1").status_code == 200 for s in farm + room)
    shown = bar_text(teacher, code)
    assert "40 votes from one address" in shown and "not counted" not in shown


@pytest.mark.parametrize("follows", [True, False])
def test_a_class_behind_one_router_is_flagged_as_counted(app, class_clock, follows):
    teacher, code = start_class(app)
    if not follows:
        open_vote(teacher, code)
    room = [student(app, code, "192.0.2.1") for _ in range(30)]
    if follows:
        class_clock[0] += FOLLOW_SECONDS + 1
        open_vote(teacher, code)
    assert all(vote(s, code, "3").status_code == 200 for s in room)
    shown = bar_text(teacher, code)
    assert "30 votes from one address" in shown and "not counted" not in shown


def test_no_flag_for_a_few_ballots_of_an_address(app, class_clock):
    teacher, code = start_class(app)
    class_clock[0] += 0
    open_vote(teacher, code)
    few = [student(app, code, "192.0.2.9") for _ in range(class_store.FRESH_BALLOTS)]
    assert all(vote(s, code, "2").status_code == 200 for s in few)
    assert "from one address" not in bar_text(teacher, code)
