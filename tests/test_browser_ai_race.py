"""A click that replaces the game wins over the AI's move the page asked for by itself.

The page asks for the AI's move on its own (its ``.ai-trigger``, on load, after a delay). On
a busy laptop a pause raced it: the pause's page came back first, then the AI's move was
drawn over it, and AI against AI played on without its pause. Here the race is made on
purpose, in both orders, with the page's clock paused (Playwright's ``page.clock``) and the
request that must lose held on its way (``page.route``): nothing depends on the machine's
speed.
"""
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Error, expect

pytestmark = pytest.mark.browser

# Counts, in the page, the AI's requests: asked (htmx's beforeRequest, before the page's own
# listeners can call it off), sent, and ended (loadend comes after htmx has drawn the answer).
COUNT_AI_REQUESTS = """
window.ai = {asked: 0, sent: 0, ended: 0};
document.addEventListener("htmx:beforeRequest", function (event) {
  if (event.detail.elt.classList.contains("ai-trigger")) window.ai.asked += 1;
});
const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.open = function (method, url) {
  this.isAi = /\\/ai\\?/.test(url);
  return open.apply(this, arguments);
};
XMLHttpRequest.prototype.send = function () {
  if (this.isAi) {
    window.ai.sent += 1;
    this.addEventListener("loadend", function () { window.ai.ended += 1; });
  }
  return send.apply(this, arguments);
};
"""


def query(page):
    return parse_qs(urlparse(page.url).query)


def hold(page, pattern):
    """Requests matching ``pattern`` wait until the test lets them go (``release``)."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_held(page, held):
    for _ in range(1000):                 # the route's message comes after the request's
        if held:
            return
        page.wait_for_timeout(10)
    raise AssertionError("the request was never held")


def release(held):
    for route in held:
        try:
            route.continue_()
        except Error:                     # the page called it off: nothing left to answer
            pass


@pytest.fixture
def race(page):
    page.add_init_script(COUNT_AI_REQUESTS)
    # the page's timers move only when the test says (run_for): installed, the clock still
    # flows with the wall clock; paused, it does not (a busy machine's slow click found the
    # AI's 700 ms gone by)
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    return page


def test_a_pause_while_the_ai_move_is_on_its_way_wins(race, live_server):
    page = race
    held = hold(page, "**/nim/ai?**")
    page.goto(live_server + "/nim?mode=ai-ai&n=9&level=easy&moves=31")
    page.clock.run_for(1000)              # the page asks for the AI's move (700 ms on)
    wait_held(page, held)
    assert page.evaluate("window.ai.sent") == 1
    page.locator('[data-key="pause"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('play') === '0'")
    release(held)                         # the AI's answer may now come back: too late
    page.wait_for_function("() => window.ai.ended === 1")
    page.clock.run_for(1000)
    assert query(page)["play"] == ["0"]
    assert query(page)["moves"] == ["31"]
    expect(page.locator('[data-key="pause"]')).to_have_text("Resume")
    expect(page.locator("#game .ai-trigger")).to_have_count(0)
    expect(page.locator("#not-sent")).to_be_hidden()   # called off is not "not sent"
    assert page.evaluate("window.ai.sent") == 1


def test_the_ai_move_is_not_asked_while_a_pause_is_on_its_way(race, live_server):
    page = race
    held = hold(page, "**/nim?*play=0*")
    page.goto(live_server + "/nim?mode=ai-ai&n=9&level=easy&moves=31")
    page.locator('[data-key="pause"]').click()
    wait_held(page, held)
    page.clock.run_for(1000)              # the old page's trigger fires meanwhile...
    assert page.evaluate("window.ai.asked") == 1
    assert page.evaluate("window.ai.sent") == 0       # ...and asks nothing
    release(held)
    page.wait_for_function("() => new URLSearchParams(location.search).get('play') === '0'")
    page.clock.run_for(1000)
    expect(page.locator('[data-key="pause"]')).to_have_text("Resume")
    assert query(page)["moves"] == ["31"]
    assert page.evaluate("window.ai.sent") == 0


def test_an_undo_while_the_ai_thinks_wins(race, live_server):
    page = race
    held = hold(page, "**/nim/ai?**")
    page.goto(live_server + "/nim?n=9&moves=1")    # you took 1: the AI is to move
    page.clock.run_for(1000)
    wait_held(page, held)
    page.locator('#game [data-key="undo"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === '0'")
    release(held)
    page.wait_for_function("() => window.ai.ended === 1")
    page.clock.run_for(1000)
    assert query(page)["at"] == ["0"]                # back at the start, your take kept to redo
    assert query(page)["moves"] == ["1"]
    expect(page.locator("#game .take button:not([disabled])").first).to_be_visible()
    expect(page.locator("#not-sent")).to_be_hidden()
