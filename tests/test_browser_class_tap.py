"""A tap on a form or button a live stream has just drawn goes through htmx, in Chromium against
gunicorn (phones 390x844, the projector 1920x1080). htmx wires what it swaps in only when the
swap settles (20 ms on); a tap before was sent by the browser itself, as a full page load: the
phone jumped to the top, a class exercise's verdict was not brought into view. Here the tap
falls in that window every time: the page taps (a click, as a tap ends) from inside the
stream's message (htmx's ``htmx:sseMessage``, right after the swap, before the settle), and
records that the form was not wired yet; the page must not reload (a marker set on the page
survives) and the answer is sent once. The nickname form is drawn by no stream, only by its
own answer (a nickname saved): it is tapped from inside that swap (``htmx:afterSwap``), as
early before the settle. Screenshot in test-artifacts/tap-phone-exercise.png."""
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, join, start_class  # noqa: F401

pytestmark = pytest.mark.browser

NIM = "/nim?n=5&k=3&mode=human-human"
# The page taps ``window.tapWhat`` (a selector, given by the test once the page is loaded: a
# reloaded page taps nothing) from inside the first stream message that draws it (or, when
# ``window.tapOn`` says "htmx:afterSwap", the first swap that draws it), after filling
# ``window.tapValues`` in; ``window.taps`` says whether its form was wired by htmx yet.
TAP = """
    window.taps = [];
    function tap(event) {
      if (event.type !== (window.tapOn || 'htmx:sseMessage')) return;
      var button = window.tapWhat && document.querySelector(window.tapWhat);
      if (!button || window.taps.length) return;
      if (event.type === 'htmx:afterSwap' && !event.target.contains(button)) return;
      Object.entries(window.tapValues || {}).forEach(function (kv) {
        document.querySelector('[name="' + kv[0] + '"]').value = kv[1];
      });
      var form = button.closest('form'), data = form && form['htmx-internal-data'];
      window.taps.push({ wired: !!(data && data.firstInitCompleted),
                         drawn: !!button.closest('.htmx-added') });
      button.click();
    }
    document.addEventListener('htmx:sseMessage', tap);
    document.addEventListener('htmx:afterSwap', tap);"""


def ready_to_tap(page, selector, values=None, on="htmx:sseMessage", bodies=None):
    """``page`` taps ``selector`` as soon as its stream (or the swap ``on`` names) draws it;
    it watches its own posts (their bodies too, in ``bodies`` if given)."""
    posts = []

    def posted(r):
        if r.method == "POST":
            posts.append(r.url)
            if bodies is not None:
                bodies.append((urlsplit(r.url).path, parse_qs(r.post_data or "")))
    page.on("request", posted)
    page.evaluate("([s, v, on]) => { window.tapWhat = s; window.tapValues = v; window.tapOn = on;"
                  " window.marker = 1; }", [selector, values or {}, on])
    return posts


def tapped_in_the_window_without_leaving(page):
    """The tap fell before htmx wired the form, and the page is the same page."""
    assert page.evaluate("window.marker") == 1, "the page reloaded: the browser sent the form"
    assert page.evaluate("window.taps") == [{"wired": False, "drawn": True}]


def sent(posts, path) -> int:
    """How many of ``posts`` went to ``path``."""
    return sum(urlsplit(url).path == path for url in posts)


def teacher_post(teacher, live_server, code, path, **form):
    assert teacher.context.request.post(f"{live_server}/class/{code}/{path}",
                                        headers={"HX-Request": "true"}, form=form).ok


def test_an_exercise_answer_tapped_as_the_stream_draws_it(
        contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + NIM)
    phone = contexts(PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(TAP)
    join(phone, live_server, code)
    from ai.teach.exercise import questions
    from web.classroom.exercise import solved
    right = {q.key: str(int(q.answer)) for q in questions(solved("ex=nim4&algo=minimax")["solved"])}
    posts = ready_to_tap(phone, ".exercise-student form.answer button[type=submit]", right)
    teacher_post(teacher, live_server, code, "exercise", action="start", source="ex:nim4",
                 algo="minimax")
    verdict = phone.locator(".exercise-student .verdict")
    expect(verdict).to_have_text("All correct!")
    tapped_in_the_window_without_leaving(phone)
    expect(verdict).to_be_in_viewport()                    # brought into view, no jump to the top
    phone.screenshot(path=str(artifacts / "tap-phone-exercise.png"))
    assert sent(posts, f"/c/{code}/exercise") == 1
    expect(teacher.locator(".class-exercise-dashboard .answered-count")).to_have_text(
        "1 of 1 finished · 1 answer sent")


def test_a_ballot_tapped_as_the_stream_draws_it(contexts, live_server):  # noqa: F811
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + NIM)
    phone = contexts(PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(TAP)
    join(phone, live_server, code)
    posts = ready_to_tap(phone, "#class-vote .vote-form button[name=choice][value='1']")
    teacher_post(teacher, live_server, code, "vote", action="open")
    expect(phone.locator("#class-vote .voted")).to_be_visible()
    tapped_in_the_window_without_leaving(phone)
    assert sent(posts, f"/c/{code}/vote") == 1
    expect(teacher.locator(".class-bar .answered-count")).to_have_text(re.compile("^1 of 1"))


def test_the_teachers_bar_tapped_as_the_stream_draws_it(contexts, live_server):  # noqa: F811
    teacher = contexts(PROJECTOR)
    teacher.add_init_script(TAP)
    code = start_class(teacher, live_server + NIM)
    expect(teacher.locator(".class-bar[data-live='on']")).to_have_count(1)
    posts = ready_to_tap(teacher, ".class-live button[name=action][value=close]")
    teacher_post(teacher, live_server, code, "vote", action="open")   # from another device
    expect(teacher.locator(".class-live")).to_contain_text("Vote closed: 0 votes")
    tapped_in_the_window_without_leaving(teacher)
    assert sent(posts, f"/class/{code}/vote") == 1


def test_a_heuristic_tapped_as_the_stream_draws_the_workshop(contexts, live_server):  # noqa: F811
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + "/connect4?mode=human-human")
    phone = contexts(PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(TAP)
    join(phone, live_server, code)
    phone.fill("#nickname-field", "Sami")
    phone.press("#nickname-field", "Enter")
    expect(phone.locator("#class-name .saved")).to_have_text("Saved: Sami")
    bodies = []
    posts = ready_to_tap(phone, "form.heuristic-form button[type=submit]",
                         {"h": "open1=1,open3=4"}, bodies=bodies)
    teacher_post(teacher, live_server, code, "heuristic", action="start", depth="2")
    expect(phone.locator(".phone-workshop .voted")).to_contain_text("Sent: open1=1,open3=4")
    tapped_in_the_window_without_leaving(phone)
    assert sent(posts, f"/c/{code}/heuristic") == 1
    assert [b["h"] for path, b in bodies if path == f"/c/{code}/heuristic"] == [
        ["open1=1,open3=4"]]
    expect(phone.locator("#class-h")).to_have_value("open1=1,open3=4")
    row = teacher.locator(".class-heuristics tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Sami")
    expect(row).to_contain_text("open1=1,open3=4")


def test_a_nickname_tapped_as_its_answer_draws_the_form_again(contexts, live_server):  # noqa: F811
    """A student saves a nickname, then taps Save again (another nickname) as the first
    answer draws the form again, before its settle: the form is not drawn by any stream."""
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + NIM)
    phone = contexts(PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(TAP)
    join(phone, live_server, code)
    bodies = []
    posts = ready_to_tap(phone, "#class-name form.nickname button[type=submit]",
                         {"name": "Samira"}, on="htmx:afterSwap", bodies=bodies)
    phone.fill("#nickname-field", "Sami")
    phone.press("#nickname-field", "Enter")          # the page's own form, wired long ago
    expect(phone.locator("#class-name .saved")).to_have_text("Saved: Samira")
    tapped_in_the_window_without_leaving(phone)
    assert sent(posts, f"/c/{code}/name") == 2
    assert [b["name"] for path, b in bodies if path == f"/c/{code}/name"] == [
        ["Sami"], ["Samira"]]
    expect(phone.locator("#nickname-field")).to_have_value("Samira")
    expect(teacher.locator(".class-bar .bar-names .name-chip")).to_have_text(["Samira"])
