"""A person in Chromium on a game the games table alone adds (tests/test_games_table.py's
Race): the nav link and the home card take them to it, the number keys play its moves, the
AI answers and the tree opens, as on the real games; at phone, laptop and projector sizes,
in English and French."""
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app import create_app
from web.games import GAMES, GameSpec, Param

from test_games_table import Race

pytestmark = pytest.mark.browser


@pytest.fixture()
def race_server(monkeypatch, tmp_path):
    """The app with the race in its games table, served from this process (the table is
    changed here, so not the gunicorn of the other browser tests)."""
    monkeypatch.setitem(GAMES, "race", GameSpec(
        "race", "Race to 7", Race, (Param("goal", "goal", "Goal", 7, 3, 30),), "add",
        card_text="Add 1 or 2; who reaches the goal wins."))
    app = create_app({"CLASS_DB": str(tmp_path / "classes.sqlite3"), "SOLVER_WARM_UP": False})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1920, 1080)],
                         ids=["phone", "laptop", "projector"])
def test_the_nav_the_card_and_the_number_keys_play_the_race(browser, race_server, size,
                                                            artifacts):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(60_000)
    proj = "&proj=1" if size[0] == 1920 else ""
    page.goto(race_server + "/?lang=en" + proj)
    card = page.locator("a.card", has_text="Race to 7")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Add 1 or 2; who reaches the goal wins.")
    if size[0] != 1920:                          # projector mode hides the site's header
        expect(page.get_by_role("navigation", name="Games").get_by_role(
            "link", name="Race to 7")).to_be_visible()
    card.click()
    expect(page.locator("h1")).to_have_text("Race to 7")
    expect(page.locator("#game .position")).to_have_text("total 0 of 7")
    # the page's scripts (deferred) listen for the keys once the page has loaded: a key
    # pressed before is lost (on a loaded machine the board shows well before that)
    page.wait_for_function("document.readyState === 'complete' && !!window.htmx")
    page.keyboard.press("2")                     # the number key presses the move "2"
    page.wait_for_function(                      # our 2, then the AI's reply
        "n => (new URLSearchParams(location.search).get('moves') || '').length >= n", arg=2)
    moves = page.evaluate("new URLSearchParams(location.search).get('moves')")
    assert moves[0] == "2" and moves[1] in "12"
    expect(page.locator("#game .position")).to_have_text(f"total {2 + int(moves[1])} of 7")
    expect(page.locator("#ai-summary")).to_contain_text("AI:")
    page.keyboard.press("t")                     # the tree of the AI's reply
    expect(page.locator("#tree-panel")).to_be_visible()
    expect(page.locator("#tree-caption")).to_contain_text("node")
    page.screenshot(path=str(artifacts / f"race-{size[0]}.png"), full_page=True)
    context.close()


def test_the_race_in_french_speaks_of_moves(browser, race_server, artifacts):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(race_server + "/race?lang=fr&mode=human-human")
    page.keyboard.press("?")
    expect(page.locator("dialog#help")).to_contain_text("jouer le coup de ce numéro")
    page.keyboard.press("Escape")
    page.keyboard.press("1")
    expect(page.locator("#game .position")).to_have_text("total 1 of 7")
    expect(page.locator("#status")).to_contain_text("J1")
    expect(page.locator("#game button[data-move='2']")).to_have_attribute("aria-label", "coup 2")
    context.close()
