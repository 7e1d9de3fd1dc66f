"""Issue 14: hints in Debian's Chromium against the README's gunicorn. Hints on, a move
played: the hints follow the move (a thinking indicator while they are computed, held by the
test with page.route, no sleep), are read out, stay on in the link; in projector mode they are
large. Screenshots go to test-artifacts/."""
import pytest
from playwright.sync_api import expect

from test_hints import fresh_hints_app

pytestmark = pytest.mark.browser


def test_hints_update_after_a_move_and_are_announced(page, live_server, artifacts):
    page.goto(live_server + "/connect4?mode=human-human&hints=1")
    hints = page.locator("#hints .hint")
    expect(hints).to_have_count(7)
    # Pons' empty board: the centre wins, its neighbours draw, the rest lose
    expect(page.locator("#hints .hint").nth(3)).to_contain_text("win")
    expect(page.locator("#hints .hint").nth(3)).to_contain_text("best")
    expect(page.locator("#hints .hint").nth(2)).to_contain_text("draw")
    # the best move named first, above the row
    expect(page.locator("#hints-best")).to_have_text("★ Best: column 4, win in 21 moves.")
    page.screenshot(path=str(artifacts / "hints-empty-board.png"), full_page=True)

    held = []
    page.route("**/connect4/hints?*", lambda route: held.append(route))
    page.locator('#game button[data-col="4"]').click()
    expect(page.locator("#hints .hints-loading")).to_be_visible()     # thinking, meanwhile
    assert page.locator("#hints .hint").count() == 0                  # no stale hints
    page.wait_for_function("() => true")
    for route in held:
        route.continue_()
    page.unroute("**/connect4/hints?*")
    expect(hints).to_have_count(7)
    # after 4 every column loses for the second player (the first wins): the slowest is marked
    expect(page.locator("#hints .hint.best")).not_to_have_count(0)
    assert "hints=1" in page.url and "moves=4" in page.url            # kept in the link
    expect(page.locator("#live")).to_contain_text("Best: column")      # read out, best first
    assert page.locator("#live").inner_text().startswith("Best: column")
    page.screenshot(path=str(artifacts / "hints-after-a-move.png"), full_page=True)


def test_hints_are_large_in_projector_mode_and_words_not_only_colour(page, live_server, artifacts):
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(live_server + "/connect4?mode=human-human&hints=1&moves=4453&proj=1")
    expect(page.locator("#hints .hint")).to_have_count(7)
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#hints .hint-word')).fontSize)")
    assert size >= 18
    # every column says its outcome in a word and a sign, not only by its colour
    for i in range(7):
        text = page.locator("#hints .hint").nth(i).inner_text()
        assert any(w in text for w in ("win", "draw", "loss", "full")), text
    page.screenshot(path=str(artifacts / "hints-projector.png"), full_page=True)


def test_the_hints_toggle_turns_them_on_and_off(page, live_server):
    page.goto(live_server + "/connect4?mode=human-human&moves=44")
    expect(page.locator("#hints")).to_have_count(0)
    page.locator('#game [data-key="hints"]').click()
    expect(page.locator("#hints .hint")).to_have_count(7)
    assert "hints=1" in page.url
    page.locator('#game [data-key="hints"]').click()
    expect(page.locator("#hints")).to_have_count(0)


def test_on_a_phone_a_column_still_computing_shows_its_spinner_not_a_broken_word(
        page, live_server, tmp_path, artifacts):
    # The first answer names the best move and leaves the other columns "computing…" (the
    # app's HINTS_THEN_SECONDS at 0 on an empty table of solved positions, as
    # tests/test_hints.py does, whatever the machine's speed; the live server's is 60, so the
    # test answers the page's hints request with that first answer, and holds the second).
    app = fresh_hints_app(tmp_path)
    moves = "2164422266"      # tests/test_hints.py's: the best in a few ms, 3+ columns after
    first = app.test_client().get(f"/connect4/hints?moves={moves}&hints=1&lang=fr",
                                  headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "hint-unknown pending" in first, first[:800]
    held = []
    page.route("**/connect4/hints?*", lambda route: (
        held.append(route) if "rest=1" in route.request.url else
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=first)))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server}/connect4?mode=human-human&moves={moves}&hints=1&lang=fr")
    pending = page.locator("#hints .hint.pending")
    expect(pending.first).to_be_visible()
    assert pending.count() >= 1
    for i in range(pending.count()):
        cell = pending.nth(i)
        expect(cell.locator(".spinner")).to_be_visible()
        assert cell.locator(".hint-word").bounding_box()["width"] <= 1      # hidden, not broken
        assert cell.locator(".hint-word").inner_text() == "calcul en cours…"  # still read out
    expect(page.locator("#hints .hints-loading")).to_contain_text("en cours de calcul")
    page.screenshot(path=str(artifacts / "hints-pending-phone-fr.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})              # a laptop: in words
    assert pending.first.locator(".hint-word").bounding_box()["width"] > 30
    for route in held:
        route.abort()
