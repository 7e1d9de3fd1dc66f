"""A person in Chromium on Marienbad: a click on a match takes it and those to its right and
the AI answers with a position paire; the theory page reveals a step a click; no page is
wider than a phone, and the projector's theory table is large."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_click_takes_the_match_and_those_to_its_right_and_the_ai_answers(browser,
                                                                           live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server + "/marienbad?lang=fr")
    assert no_sideways_scroll(page)
    page.click('button[data-move="d7"]')        # the first match of heap D: all seven
    # the AI (hard: by the nim-sum) leaves 1, 3, 5 less its move: a nim-sum of 0
    expect(page).to_have_url(re.compile(r"moves=d7[a-d]\d"), timeout=15_000)
    moves = re.search(r"moves=([a-h0-9]+)", page.url).group(1)
    heaps = [1, 3, 5, 7]
    for i in range(0, len(moves), 2):
        heaps["abcd".index(moves[i])] -= int(moves[i + 1])
    assert heaps[0] ^ heaps[1] ^ heaps[2] ^ heaps[3] == 0
    expect(page.locator(".mb-match.just-taken")).not_to_have_count(0)
    context.close()


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)], ids=["phone", "projector"])
def test_the_theory_a_step_a_click(browser, live_server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(live_server + "/marienbad/theory?heaps=1,3,5,6" + ("&proj=1" if size[0] > 1000 else ""))
    expect(page.locator(".mb-binary")).to_have_count(0)
    for step in range(1, 6):
        page.click("#next-step")
        expect(page).to_have_url(re.compile(rf"step={step}"))
    expect(page.locator(".mb-parity td.odd")).to_have_count(1)
    expect(page.get_by_text("leaves 0, 3, 5, 6")).to_be_visible()
    assert no_sideways_scroll(page)
    if size[0] > 1000:       # read from the back of a room
        size_px = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.mb-binary td')).fontSize)")
        assert size_px >= 30          # 20 px elsewhere
    context.close()


@pytest.mark.parametrize("path", [
    "/marienbad?moves=d7c1&lang=fr",
    "/marienbad?moves=d7c1&mode=human-human&tree=1&notation=course",
    "/marienbad/theory?step=5&heaps=1,3,5,6&lang=fr",
    "/marienbad/theory?step=5&variant=misere&heaps=1,1,2&proj=1",
    "/marienbad?heaps=1,0"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation_on_marienbad(browser, live_server, path, scheme):
    import json
    from test_accessibility import audit
    bad = audit(browser, live_server + path, scheme=scheme)
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)
