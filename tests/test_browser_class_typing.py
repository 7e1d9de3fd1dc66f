"""What a student types on a phone survives the live stream's redraws, in Chromium against
gunicorn. A phone's stream redraws the part a field is in: its first drawing (late when the
laptop is busy: the stream opens after the page), a reconnection's, a teacher's change. At
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
    """A phone's live stream held until ``let_in`` (it opens after the page: late on a busy
    laptop)."""

    def __init__(self, phone):
        self.held, self.open = [], False
        phone.route(re.compile(r"/c/[^/]+/events"),
                    lambda route: route.continue_() if self.open else self.held.append(route))

    def let_in(self):
        self.open = True
        for route in self.held:
            route.continue_()


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
