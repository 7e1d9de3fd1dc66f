"""Tic-tac-toe in Chromium, as a student on a phone and a teacher on a projector play it:
real taps and number keys, in English and in French."""
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from test_browser_class import box as box_in_one_step

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}


def moves_of(page) -> str:
    return parse_qs(urlparse(page.url).query).get("moves", [""])[0]


def wait_moves(page, count):
    page.wait_for_function(
        "n => (new URLSearchParams(location.search).get('moves') || '').length >= n", arg=count)
    expect(page.locator("#game")).not_to_have_class(re.compile("htmx-request"))


def wait_for_my_turn_or_the_end(page, n):
    page.wait_for_function(
        "n => (new URLSearchParams(location.search).get('moves') || '').length >= n + 2"
        " || document.querySelector('#status strong')", arg=n)
    expect(page.locator("#game")).not_to_have_class(re.compile("htmx-request"))


def test_a_whole_game_on_a_phone_against_the_perfect_ai_never_wins(browser, live_server,
                                                                     artifacts):
    page = browser.new_page(viewport=PHONE)
    page.goto(live_server + "/tictactoe?level=perfect")
    expect(page.locator("h1")).to_have_text("Tic-tac-toe")
    board = page.locator(".ttt-board")
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]      # the whole grid shows
    first = page.locator(".ttt-cell").first.bounding_box()
    assert first["width"] >= 80 and first["height"] >= 80                  # a thumb's target
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for _ in range(5):
        if page.locator("#status strong").count():
            break
        n = len(moves_of(page))
        page.locator("#game button.ttt-cell").first.click()
        wait_for_my_turn_or_the_end(page, n)
    expect(page.locator("#status strong")).to_have_text(re.compile("The AI wins!|Draw."))
    assert page.locator(".ttt-cell .mark.x").count() >= 3
    expect(page.locator("h1")).to_have_count(1)
    page.screenshot(path=str(artifacts / "tictactoe-phone-en.png"), full_page=True)
    page.close()


def test_the_number_keys_play_cells_on_the_projector_in_french(browser, live_server, artifacts):
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(live_server + "/tictactoe?lang=fr&proj=1&tree=1&hints=1")
    expect(page.locator("h1")).to_have_text("Morpion")
    page.keyboard.press("5")                          # the centre, as on a phone's keypad
    wait_moves(page, 2)
    assert moves_of(page)[0] == "5" and moves_of(page)[1] in "1379"   # a corner: the only draw
    expect(page.locator("[aria-label^='case 5 (b2)']")).to_have_attribute("aria-label", re.compile("X"))
    cell = page.locator(".ttt-cell").first.bounding_box()
    assert cell["height"] >= 120                      # read from the back of the room
    expect(page.locator("#tree-panel")).to_be_visible()
    expect(page.locator("#truth")).to_contain_text("Aucune case ne fait mieux.")
    page.screenshot(path=str(artifacts / "tictactoe-projector-fr.png"))
    page.keyboard.press("3")
    wait_moves(page, 4)
    assert moves_of(page)[2] == "3" or moves_of(page)[1] == "3"
    page.close()


def test_two_people_on_a_phone_in_french(browser, live_server, artifacts):
    page = browser.new_page(viewport=PHONE)
    page.goto(live_server + "/tictactoe?lang=fr&mode=human-human")
    for i, cell in enumerate("15293", 1):     # X 1, O 5, X 2, O 9, X 3: the top row
        page.locator(f"#game button.ttt-cell[data-move='{cell}']").click()
        wait_moves(page, i)
    expect(page.locator("#status strong")).to_have_text("Victoire : X !")
    expect(page.locator(".ttt-cell.win")).to_have_count(3)
    page.screenshot(path=str(artifacts / "tictactoe-phone-fr.png"), full_page=True)
    page.close()


def test_a_class_follows_the_projector_and_votes_on_a_phone_in_french(browser, live_server,
                                                                       artifacts):
    teacher_ctx = browser.new_context(viewport=PROJECTOR)
    student_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        teacher, student = teacher_ctx.new_page(), student_ctx.new_page()
        teacher.goto(live_server + "/tictactoe?mode=human-human&lang=fr")
        teacher.locator('[data-key="class"]').click()
        code = teacher.locator(".class-bar .class-code").inner_text().strip()
        student.goto(f"{live_server}/c/{code}?lang=fr")
        expect(student.locator("#class-live[data-live='on']")).to_have_count(1)
        teacher.keyboard.press("5")                             # the teacher plays the centre
        expect(student.locator("#class-board .ttt-cell.p0")).to_have_count(1)   # it follows
        expect(student.locator("#class-board .status")).to_contain_text("O")
        # the vote opens, its counts live (the teacher turns off "counts hidden until the vote
        # closes", on by default)
        teacher.get_by_role("button", name="Les montrer en direct").click()
        teacher.keyboard.press("v")
        student.locator('#class-vote button[value="1"]').click()
        expect(student.locator("#class-vote")).to_contain_text("case 1")
        expect(teacher.locator(".vote-title")).to_contain_text("1 vote")
        # found and measured in one step: the class's stream may redraw the board meanwhile
        board = box_in_one_step(student, "#class-board .ttt-board")
        assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
        student.screenshot(path=str(artifacts / "tictactoe-class-phone-fr.png"), full_page=True)
        teacher.screenshot(path=str(artifacts / "tictactoe-class-projector-fr.png"))
    finally:
        teacher_ctx.close()
        student_ctx.close()


def test_ai_against_ai_on_a_laptop_plays_to_a_draw(browser, live_server, artifacts):
    # both sides search to the end of the game (hard): perfect play from both is a draw
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.set_default_timeout(30_000)
    page.goto(live_server + "/tictactoe?mode=ai-ai&level=hard")
    expect(page.locator("#status strong")).to_have_text("Draw.", timeout=30_000)
    assert len(moves_of(page)) == 9
    expect(page.locator(".ttt-cell .mark")).to_have_count(9)
    page.screenshot(path=str(artifacts / "tictactoe-laptop-ai-ai.png"))
    page.close()
