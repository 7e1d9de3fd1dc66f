"""Issue 9, items 9, 10, 12, 13, 14: what a person sees and where their focus goes while the
AI thinks, in Debian's Chromium against the README's gunicorn. The AI's request is held by
the test (page.route) so the "meanwhile" can be looked at, without any sleep."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def hold(page, pattern):
    """Requests matching ``pattern`` wait in the returned list until the test lets them go."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def release(page, held, pattern):
    for route in held:
        route.continue_()
    page.unroute(pattern)


def board_discs(page):
    return page.locator("#game table.board .disc").count()


def test_item9_our_disc_shows_at_once_the_ai_is_seen_thinking_and_a_click_meanwhile_is_refused(page, live_server):
    page.goto(live_server + "/connect4?moves=4453&level=expert")
    held = hold(page, "**/connect4/ai?*")
    page.locator('#game button[data-col="4"]').click()
    expect(page.locator("#status")).to_contain_text("is thinking")
    assert board_discs(page) == 5                       # our disc, before the AI's reply
    page.wait_for_function("() => true")                # let the held request arrive
    page.locator('#game button[data-col="5"]').click(force=True)
    expect(page.locator("#game .wait-note")).to_be_visible()      # refused, and says so
    assert board_discs(page) == 5
    release(page, held, "**/connect4/ai?*")
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves').length === 6")
    assert board_discs(page) == 6


def test_item10_showing_the_tree_says_it_is_drawing_meanwhile(page, live_server):
    page.goto(live_server + "/connect4?moves=4453")
    held = hold(page, "**/connect4?*tree=1*")
    page.locator('#game [data-key="tree"]').click()
    expect(page.locator("#tree-loading")).to_be_visible()
    release(page, held, "**/connect4?*tree=1*")
    expect(page.locator("#tree-panel svg.tree-svg")).to_be_visible()
    expect(page.locator("#tree-loading")).to_be_hidden()


def test_item12_the_tree_opened_on_a_laptop_is_brought_into_view(browser, live_server):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto(live_server + "/connect4?moves=4453")
    page.locator('#game [data-key="tree"]').click()
    expect(page.locator("#tree-panel svg.tree-svg")).to_be_visible()
    # it opens ~1,280 px down: its beginning is brought inside the 768 px window
    page.wait_for_function("() => { const top = document.getElementById('tree-panel')"
                           ".getBoundingClientRect().top; return top >= -1 && top < innerHeight - 300; }")
    context.close()


def test_item13_and_14_focus_stays_on_the_column_and_the_reply_is_read_from_one_live_region(page, live_server):
    page.goto(live_server + "/connect4?moves=4453&level=easy")
    live = page.locator("#live")
    assert live.count() == 1 and page.locator("#game #live").count() == 0   # outside the swap
    page.locator('#game button[data-col="3"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves').length === 6")
    expect(live).to_contain_text("AI plays column")
    assert page.evaluate("document.activeElement.dataset.col") == "3"
