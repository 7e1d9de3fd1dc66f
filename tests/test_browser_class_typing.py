"""What a student types on a phone (and what a teacher opens and chooses in the class bar)
survives the live stream's redraws, in Chromium against gunicorn. A phone's stream redraws
the part a field is in: its first drawing (late when the laptop is busy: the stream opens
after the page), a reconnection's, a teacher's change, a drawing read before the phone's own
answer that comes after the answer's reply. At
21:08 on 2026-11-27, beside 4 busy processes, the tournament's rehearsal typed Sami's
heuristic, the stream's first drawing came, and the phone sent the drawn "cells=1"."""
import re

import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, start_class  # noqa: F401

pytestmark = pytest.mark.browser

COUNT_VOTE_DRAWINGS = """
    window.voteDrawings = 0;
    document.addEventListener('htmx:sseMessage', function (e) {
      if (e.detail.type === 'vote') window.voteDrawings += 1; });"""


class LateStream:
    """A page's live stream (a phone's, or the teacher's bar's with ``events=TEACHER_EVENTS``)
    held until ``let_in`` (it opens after the page: late on a busy laptop)."""

    def __init__(self, phone, events=r"/c/[^/]+/events"):
        self.held, self.open = [], False
        phone.route(re.compile(events),
                    lambda route: route.continue_() if self.open else self.held.append(route))

    def let_in(self):
        self.open = True
        for route in self.held:
            route.continue_()


TEACHER_EVENTS = r"/class/[^/]+/events"


def phone_with_a_late_stream(contexts):  # noqa: F811
    """A French phone counting its stream's vote drawings, its stream held (``LateStream``)."""
    phone = contexts(PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    phone.add_init_script(COUNT_VOTE_DRAWINGS)
    return phone, LateStream(phone)


def test_a_heuristic_being_typed_survives_a_redraw_and_is_the_one_sent(
        contexts, live_server):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/connect4?mode=human-human&lang=fr")
    assert teacher.context.request.post(
        f"{live_server}/class/{code}/heuristic", headers={"HX-Request": "true"},
        form={"action": "start", "depth": "2"}).ok
    phone, stream = phone_with_a_late_stream(contexts)
    phone.goto(f"{live_server}/c/{code}?lang=fr")
    phone.fill("#nickname-field", "Sami")
    phone.press("#nickname-field", "Enter")
    expect(phone.locator("#class-h")).to_have_value("cells=1")        # the drawn start
    phone.fill("#class-h", "open1=1,open3=4")
    assert stream.held and phone.evaluate("window.voteDrawings") == 0
    stream.let_in()
    phone.wait_for_function("() => window.voteDrawings >= 1")          # the stream's first
    expect(phone.locator("#class-h")).to_have_value("open1=1,open3=4")
    drawn = phone.evaluate("window.voteDrawings")
    # the teacher's change wakes every phone's vote area (a setting of the class: "vote")
    assert teacher.context.request.post(
        f"{live_server}/class/{code}/peer", headers={"HX-Request": "true"},
        form={"action": "hide", "value": "1"}).ok
    phone.wait_for_function("n => window.voteDrawings > n", arg=drawn)
    field = phone.locator("#class-h")
    expect(field).to_have_value("open1=1,open3=4")
    assert phone.evaluate("document.activeElement.id") == "class-h"    # still typing there
    phone.locator("form.heuristic-form button[type=submit]").click()
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open1=1,open3=4")
    teacher.reload()
    expect(teacher.locator(".class-heuristics")).to_contain_text("open1=1,open3=4")


def test_a_nickname_being_typed_survives_the_streams_drawings_and_is_the_one_saved(
        contexts, live_server):  # noqa: F811
    """The nickname's form is in no part a stream draws: the stream's first drawing (late) and
    a teacher's change leave the text being typed, and the focus, where they are."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/nim?n=5&k=3&mode=human-human&lang=fr")
    phone, stream = phone_with_a_late_stream(contexts)
    phone.goto(f"{live_server}/c/{code}?lang=fr")
    phone.locator("#nickname-field").press_sequentially("Sam")
    assert stream.held and phone.evaluate("window.voteDrawings") == 0
    stream.let_in()
    phone.wait_for_function("() => window.voteDrawings >= 1")          # the stream's first
    phone.locator("#nickname-field").press_sequentially("i")
    drawn = phone.evaluate("window.voteDrawings")
    assert teacher.context.request.post(                                # the teacher's change
        f"{live_server}/class/{code}/vote", headers={"HX-Request": "true"},
        form={"action": "open"}).ok
    phone.wait_for_function("n => window.voteDrawings > n", arg=drawn)
    expect(phone.locator("#class-vote .vote-form")).to_be_visible()
    expect(phone.locator("#nickname-field")).to_have_value("Sami")
    assert phone.evaluate("document.activeElement.id") == "nickname-field"   # still typing
    phone.keyboard.press("Enter")
    expect(phone.locator("#class-name .saved")).to_have_text("Enregistré\u202f: Sami")
    expect(teacher.locator(".class-bar .bar-names .name-chip")).to_have_text(["Sami"])


HELD_VOTE_DRAWINGS = """
    // The stream's vote drawings as htmx's SSE extension receives them (it listens on its
    // EventSource): each one's text kept in window.voteTexts; while window.heldVotes is a list,
    // the stream's next drawings wait in it; window.deliverVote(text) hands one on to the
    // extension, as the stream would.
    window.voteTexts = []; window.heldVotes = null; window.voteSource = null;
    (function () {
      var add = EventSource.prototype.addEventListener;
      EventSource.prototype.addEventListener = function (type, listener, options) {
        if (type !== 'vote') return add.call(this, type, listener, options);
        window.voteSource = this;
        return add.call(this, type, function (e) {
          if (!e.delivered) {
            window.voteTexts.push(e.data);
            if (window.heldVotes) { window.heldVotes.push(e.data); return; }
          }
          return listener.call(this, e);
        }, options);
      };
      window.deliverVote = function (text) {
        var e = new MessageEvent('vote', { data: text });
        e.delivered = true;
        window.voteSource.dispatchEvent(e);
      };
    })();"""


def phone_holding_its_drawings(contexts):  # noqa: F811
    """A French phone counting its stream's vote drawings, able to hold them back and to be
    handed an earlier one (``HELD_VOTE_DRAWINGS``)."""
    phone = contexts(PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    phone.add_init_script(COUNT_VOTE_DRAWINGS + HELD_VOTE_DRAWINGS)
    return phone


def an_earlier_drawing(phone):
    """The stream's drawing read before the phone's answer (its first) handed on after that
    answer: a stream reads the class, draws, sends, and the phone's own answer, stored
    meanwhile, may reach the phone first (web.classroom.store.tally_event)."""
    drawn = phone.evaluate("window.voteDrawings")
    phone.evaluate("window.deliverVote(window.voteTexts[0])")
    phone.wait_for_function("n => window.voteDrawings > n", arg=drawn)


def the_held_drawings(phone):
    """The drawings held back (the one the answer woke), in the stream's order."""
    drawn = phone.evaluate("window.voteDrawings")
    held = phone.evaluate("""() => { const held = window.heldVotes; window.heldVotes = null;
                                     held.forEach(window.deliverVote); return held.length; }""")
    phone.wait_for_function("n => window.voteDrawings >= n", arg=drawn + held)


def a_phone_at_a_heuristic_workshop(contexts, live_server):  # noqa: F811
    """A French class's heuristic workshop (depth 2), and a phone holding its drawings
    (``phone_holding_its_drawings``) once its stream's first has come: (phone, code)."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/connect4?mode=human-human&lang=fr")
    assert teacher.context.request.post(
        f"{live_server}/class/{code}/heuristic", headers={"HX-Request": "true"},
        form={"action": "start", "depth": "2"}).ok
    phone = phone_holding_its_drawings(contexts)
    phone.goto(f"{live_server}/c/{code}?lang=fr")
    phone.wait_for_function("() => window.voteDrawings >= 1")          # the stream's first
    return phone, code


def test_a_heuristic_being_typed_after_an_answer_survives_a_drawing_read_before_it(
        contexts, live_server):  # noqa: F811
    """Sami sends a heuristic, then types another; a drawing the stream read before the first
    was stored comes after its answer: it draws the form as it was (cells=1), not a change of
    the field by the server. The text being typed stays, as does the focus, and is the one
    sent next."""
    phone, _ = a_phone_at_a_heuristic_workshop(contexts, live_server)
    assert "cells=1" in phone.evaluate("window.voteTexts[0]")
    phone.evaluate("window.heldVotes = []")
    phone.fill("#class-h", "open1=1")
    phone.locator("form.heuristic-form button[type=submit]").click()
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open1=1")   # its answer
    phone.wait_for_function("() => window.heldVotes.length >= 1")     # the drawing it woke
    phone.fill("#class-h", "open3=4")
    an_earlier_drawing(phone)
    expect(phone.locator("#class-h")).to_have_value("open3=4")
    the_held_drawings(phone)
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open1=1")   # the woken one
    expect(phone.locator("#class-h")).to_have_value("open3=4")
    assert phone.evaluate("document.activeElement.id") == "class-h"    # still typing there
    phone.locator("form.heuristic-form button[type=submit]").click()
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open3=4")


def test_an_exercise_answer_being_corrected_survives_a_drawing_read_before_its_check(
        contexts, live_server):  # noqa: F811
    """The same order of events for a class exercise: the phone checks its answers (R wrong),
    corrects R, and a drawing read before the check (R empty) comes after its reply."""
    from ai.teach.exercise import questions
    from web.classroom.exercise import solved
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + "/nim?n=5&k=3&mode=human-human")
    teacher.locator(".exercise-start summary").click()
    teacher.locator(".exercise-start select[name=source]").select_option("ex:nim4")
    teacher.locator(".exercise-start select[name=algo]").select_option("minimax")
    teacher.get_by_role("button", name="Send to the class").click()
    expect(teacher.locator(".class-exercise-dashboard")).to_be_visible()
    phone = phone_holding_its_drawings(contexts)
    phone.goto(f"{live_server}/c/{code}?lang=fr")
    phone.wait_for_function("() => window.voteDrawings >= 1")          # the stream's first
    assert 'name="v.R"' in phone.evaluate("window.voteTexts[0]")
    right = {q.key: str(int(q.answer)) for q in questions(solved("ex=nim4&algo=minimax")["solved"])}
    assert right["v.R"] != "-1"
    for key, value in right.items():
        phone.locator(f".exercise-student input[name='{key}']").fill(
            "-1" if key == "v.R" else value)
    phone.evaluate("window.heldVotes = []")
    check = phone.locator(".exercise-student form.answer button[type=submit]")
    check.click()
    expect(phone.locator(".exercise-student .verdict")).to_have_class(re.compile(r"\bwrong\b"))
    phone.wait_for_function("() => window.heldVotes.length >= 1")     # the drawing it woke
    field = phone.locator(".exercise-student input[name='v.R']")
    field.fill(right["v.R"])
    an_earlier_drawing(phone)
    expect(field).to_have_value(right["v.R"])
    the_held_drawings(phone)
    expect(phone.locator(".exercise-student .verdict")).to_have_class(re.compile(r"\bwrong\b"))
    expect(field).to_have_value(right["v.R"])
    assert phone.evaluate("document.activeElement.name") == "v.R"      # still typing there
    check.click()
    expect(phone.locator(".exercise-student .verdict")).to_have_class(re.compile(r"\bok\b"))


def test_the_teachers_exercise_menu_opened_before_the_bars_first_drawing_stays_open(
        contexts, live_server):  # noqa: F811
    """The teacher opens the "Class exercise" menu and chooses a tree as the page comes; the
    bar's stream opens late (a busy laptop) and its first drawing redraws the bar. The menu
    stays open with the choices made (at 05:52 on 2026-11-28, beside 4 busy processes, the
    menu was found closed and its tree list hidden)."""
    teacher = contexts(PROJECTOR)
    teacher.add_init_script("""
        window.barDrawings = 0;
        document.addEventListener('htmx:sseMessage', function (e) {
          if (e.detail.type === 'bar') window.barDrawings += 1; });""")
    stream = LateStream(teacher, events=TEACHER_EVENTS)
    start_class(teacher, live_server + "/nim?n=5&k=3&mode=human-human")
    teacher.locator(".exercise-start summary").click()
    teacher.locator(".exercise-start select[name=source]").select_option("ex:nim4")
    teacher.locator(".exercise-start select[name=algo]").select_option("minimax")
    assert stream.held and teacher.evaluate("window.barDrawings") == 0
    stream.let_in()
    teacher.wait_for_function("() => window.barDrawings >= 1")        # the bar's first drawing
    expect(teacher.locator(".exercise-start")).to_have_attribute("open", "")
    expect(teacher.locator(".exercise-start select[name=source]")).to_have_value("ex:nim4")
    expect(teacher.locator(".exercise-start select[name=algo]")).to_have_value("minimax")
    teacher.get_by_role("button", name="Send to the class").click()
    expect(teacher.locator(".class-exercise-dashboard")).to_be_visible()


BAR_DRAWINGS = """
    // The teacher's stream's bar drawings, counted (window.barDrawings); window.barAgain()
    // hands the last one on to htmx's SSE extension once more, as a reconnection's would be.
    window.barDrawings = 0; window.barText = null; window.barSource = null;
    (function () {
      var add = EventSource.prototype.addEventListener;
      EventSource.prototype.addEventListener = function (type, listener, options) {
        if (type !== 'bar') return add.call(this, type, listener, options);
        window.barSource = this;
        return add.call(this, type, function (e) {
          window.barDrawings += 1;
          if (!e.again) { window.barText = e.data; }
          return listener.call(this, e);
        }, options);
      };
      window.barAgain = function () {
        var e = new MessageEvent('bar', { data: window.barText });
        e.again = true;
        window.barSource.dispatchEvent(e);
      };
    })();"""


def test_the_teachers_exercise_menu_first_drawn_by_the_stream_stays_open_across_its_redraws(
        contexts, live_server):  # noqa: F811
    """A page opened during a class exercise (its dashboard, no exercise menu); the exercise
    ends from another device (the teacher's phone), and the stream draws the board's bar with
    the menu, new to the page. The teacher opens it; the stream's next drawing of the same bar
    (a reconnection's) leaves it open."""
    teacher = contexts(PROJECTOR)
    teacher.add_init_script(BAR_DRAWINGS)
    code = start_class(teacher, live_server + "/nim?n=5&k=3&mode=human-human")

    def from_another_device(action):
        assert teacher.context.request.post(
            f"{live_server}/class/{code}/exercise", headers={"HX-Request": "true"},
            form={"action": action, "source": "ex:nim4", "algo": "minimax"}).ok

    from_another_device("start")
    teacher.reload()
    expect(teacher.locator(".class-exercise-dashboard")).to_be_visible()
    expect(teacher.locator(".exercise-start")).to_have_count(0)
    teacher.wait_for_function("() => window.barDrawings >= 1")        # the stream is open
    drawn = teacher.evaluate("window.barDrawings")
    from_another_device("end")
    teacher.wait_for_function("n => window.barDrawings > n", arg=drawn)
    expect(teacher.locator(".class-exercise-dashboard")).to_have_count(0)
    teacher.locator(".exercise-start summary").click()
    expect(teacher.locator(".exercise-start select[name=source]")).to_be_visible()
    drawn = teacher.evaluate("window.barDrawings")
    teacher.evaluate("window.barAgain()")
    teacher.wait_for_function("n => window.barDrawings > n", arg=drawn)
    expect(teacher.locator(".exercise-start")).to_have_attribute("open", "")


def test_a_heuristic_the_student_sends_from_another_page_is_drawn_over_the_one_typed(
        contexts, live_server):  # noqa: F811
    """The other side of the rule: a field the stream draws otherwise than it and the phone's
    replies did is the server's change (the same student's heuristic sent from another page),
    and the field starts afresh from it."""
    phone, code = a_phone_at_a_heuristic_workshop(contexts, live_server)
    drawn = phone.evaluate("window.voteDrawings")
    phone.fill("#class-h", "open1=1")
    phone.locator("form.heuristic-form button[type=submit]").click()
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open1=1")   # its answer
    phone.wait_for_function("n => window.voteDrawings > n", arg=drawn)  # the drawing it woke
    phone.fill("#class-h", "open3=4")
    drawn = phone.evaluate("window.voteDrawings")
    seq = phone.locator("form.heuristic-form input[name=seq]").input_value()
    assert phone.context.request.post(                                  # the same student
        f"{live_server}/c/{code}/heuristic", headers={"HX-Request": "true"},
        form={"h": "open2=2", "seq": seq}).ok
    phone.wait_for_function("n => window.voteDrawings > n", arg=drawn)
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("open2=2")
    expect(phone.locator("#class-h")).to_have_value("open2=2")
