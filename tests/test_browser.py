"""A person in Chromium: the README's gunicorn, Debian's Chromium, real clicks and keys."""
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def moves_of(page):
    return parse_qs(urlparse(page.url).query).get("moves", [""])[0]


def wait_moves(page, count):
    page.wait_for_function(
        "n => (new URLSearchParams(location.search).get('moves') || '').length >= n", arg=count)


def game_over(page):
    return page.locator("#status strong").count() > 0


def test_play_a_whole_connect4_game_against_the_ai(page, live_server, artifacts):
    page.goto(live_server + "/connect4?level=beginner")
    expect(page.locator("h1")).to_have_text("Connect-4")
    for turn in range(30):
        if game_over(page):
            break
        n = len(moves_of(page))
        page.locator("#game .drop-button:not([disabled])").first.click()
        page.wait_for_function(
            "n => (new URLSearchParams(location.search).get('moves') || '').length >= n + 2"
            " || document.querySelector('#status strong')", arg=n)
        # the AI's move is marked, and its search summarised
        expect(page.locator("#game td.last")).to_have_count(1)
    assert game_over(page)
    expect(page.locator("#status")).to_contain_text(re.compile("You win!|The AI wins!|Draw"))
    expect(page.locator("h1")).to_have_count(1)        # no page inside a page, after many clicks
    page.screenshot(path=str(artifacts / "connect4-game-over.png"), full_page=True)


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_play_a_whole_nim_game_in_both_variants(page, live_server, variant):
    page.goto(f"{live_server}/nim?n=11&variant={variant}")
    while not game_over(page):
        n = len(moves_of(page))
        page.locator("#game .take button:not([disabled])").first.click()
        # Our take shows at once, then the AI thinks (the buttons refuse clicks meanwhile):
        # wait for the AI's reply, that is our turn again or the end of the game.
        page.wait_for_function(
            "n => (new URLSearchParams(location.search).get('moves') || '').length > n + 1"
            " || document.querySelector('#status strong')", arg=n)
        expect(page.locator("#game")).not_to_have_class(re.compile("htmx-request"))
    # Against the exact AI, playing 1 each time loses: the AI wins.
    expect(page.locator("#status strong")).to_have_text("The AI wins!")
    expect(page.locator("h1")).to_have_count(1)


def test_undo_takes_back_the_ai_reply_and_your_move(page, live_server):
    page.goto(live_server + "/connect4")
    page.locator('button[data-col="4"]').click()
    wait_moves(page, 2)
    before = moves_of(page)
    page.locator('[data-key="undo"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === '0'")
    expect(page.locator("#game .board .disc")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.locator('[data-key="redo"]').click()
    page.wait_for_function("() => !new URLSearchParams(location.search).get('at')")
    assert moves_of(page) == before
    expect(page.locator("#game .board .disc")).to_have_count(2)


def test_copy_link_opens_the_same_position_and_settings_in_a_new_page(page, live_server, browser):
    page.goto(live_server + "/connect4?w=6&h=5&level=easy&mode=human-ai")
    page.locator('button[data-col="3"]').click()
    wait_moves(page, 2)
    page.locator("button.copy-link").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(live_server) and "w=6" in link and "level=easy" in link
    other = browser.new_page()
    other.goto(link)
    for sel in ["#game .board .disc.p0", "#game .board .disc.p1", "#game .board tbody tr"]:
        assert other.locator(sel).count() == page.locator(sel).count()
    assert other.locator("select[name=level]").input_value() == "easy"
    assert other.locator("#game .drop-button").count() == 6
    other.close()


def test_keys_1_to_7_drop_a_disc(page, live_server):
    page.goto(live_server + "/connect4?mode=human-human")
    page.locator("body").press("5")
    wait_moves(page, 1)
    assert moves_of(page) == "5"
    page.keyboard.press("2")
    wait_moves(page, 2)
    assert moves_of(page) == "52"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === '1'")


def test_screenshots_at_phone_and_projector_sizes(browser, live_server, artifacts):
    for name, size in (("phone", (390, 844)), ("projector", (1920, 1080))):
        pg = browser.new_page(viewport={"width": size[0], "height": size[1]})
        pg.goto(live_server + "/connect4?moves=4453342&mode=human-ai")
        pg.screenshot(path=str(artifacts / f"connect4-{name}.png"), full_page=True)
        # nothing wider than the screen: no sideways scrolling on a phone
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
        pg.goto(live_server + "/nim?moves=32&n=15")
        pg.screenshot(path=str(artifacts / f"nim-{name}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
        for page_name, url in (("compare", "/connect4/compare?moves=4453"), ("lab", "/tree"),
                               ("theory", "/nim/theory?n=5"),
                               ("tree", "/connect4?moves=4453&tree=1&level=medium")):
            pg.goto(live_server + url)
            pg.screenshot(path=str(artifacts / f"{page_name}-{name}.png"), full_page=True)
            assert pg.evaluate("document.documentElement.scrollWidth") <= size[0], page_name
        pg.close()


def test_without_javascript_the_board_still_works_through_forms(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(live_server + "/connect4")
    pg.locator('button[data-col="4"]').click()
    pg.wait_for_url(lambda url: "moves=4" in url)
    assert len(moves_of(pg)) == 2                      # my move and the AI's reply
    assert pg.locator("#game .board .disc").count() == 2
    pg.locator('[data-key="undo"]').click()
    pg.wait_for_url(lambda url: "at=0" in url)
    assert pg.locator("#game .board .disc").count() == 0
    context.close()


def test_ai_against_ai_plays_by_itself_and_pauses(page, live_server):
    page.goto(live_server + "/nim?mode=ai-ai&n=9&level=easy")
    wait_moves(page, 2)                                # it plays move after move
    page.locator('[data-key="pause"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('play') === '0'")
    # Paused: the element that asks for the next AI move is gone, and so is the request.
    expect(page.locator("#game .ai-trigger")).to_have_count(0)
    expect(page.locator('[data-key="pause"]')).to_have_text("Resume")
    expect(page.locator("h1")).to_have_count(1)


def test_tree_panel_after_an_ai_move_unfold_step_and_reload(page, live_server, artifacts):
    page.goto(live_server + "/connect4?level=medium")
    page.locator('[data-key="tree"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('tree') === '1'")
    page.locator('button[data-col="4"]').click()
    wait_moves(page, 2)
    expect(page.locator("#tree-title")).to_have_text("The search behind the AI's last move")
    expect(page.locator("#tree-caption")).to_contain_text("explored")
    page.screenshot(path=str(artifacts / "tree-panel.png"), full_page=True)
    # pointing at a node shows its position as a small board
    page.locator("#tree-panel g.tnode").nth(1).hover()
    expect(page.locator("#peek .mini-board")).to_be_visible()
    # the search was made before the AI replied (1 stone); a child of its root has 2
    assert page.locator("#peek .mini-board .disc").count() == 2
    # unfold: click a folded grandchild; its path goes into the URL
    node = page.locator("#tree-panel .tnode a").nth(8)
    node.click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('path')")
    expect(page.locator("#tree-panel .crumbs")).to_be_visible()
    path = parse_qs(urlparse(page.url).query)["path"][0]
    assert len(path) >= 1
    # step through the search of a small tree
    page.goto(live_server + "/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2"
              "&heur=course&window=course&order=reverse&play=0")
    expect(page.locator("#tree-caption")).to_contain_text("explored 9 of 28 nodes")
    page.locator('[data-key="step-start"]').click()
    expect(page.locator(".step-count")).to_have_text(re.compile("step 0 of"))
    page.keyboard.press(" ")
    expect(page.locator(".step-count")).to_have_text(re.compile("step 1 of"))
    page.locator('[data-key="step"]').click()
    # the next click must reach the new "forward" link (step 3), not the one being replaced
    expect(page.locator(".step-count")).to_have_text(re.compile("step 2 of"))
    page.locator('[data-key="step"]').click()
    expect(page.locator(".step-count")).to_have_text(re.compile("step 3 of"))
    page.locator('[data-key="step-back"]').click()
    expect(page.locator(".step-count")).to_have_text(re.compile("step 2 of"))
    text = page.locator(".step-event").inner_text()
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '2'")
    page.reload()
    expect(page.locator(".step-count")).to_have_text(re.compile("step 2 of"))
    assert page.locator(".step-event").inner_text() == text
    page.screenshot(path=str(artifacts / "tree-step.png"), full_page=True)


def test_export_the_tree_as_svg(page, live_server, tmp_path):
    import xml.etree.ElementTree as ET
    page.goto(live_server + "/connect4?moves=4453&tree=1&level=medium")
    with page.expect_download() as info:
        page.locator("#tree-panel a[download]").click()
    target = tmp_path / "tree.svg"
    info.value.save_as(target)
    root = ET.parse(target).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    shapes = root.findall(f".//{ns}rect") + root.findall(f".//{ns}circle")
    assert root.tag.endswith("svg") and len(shapes) >= 8      # the root and its 7 moves at least


def test_projector_mode_at_1920_and_1280(browser, live_server, artifacts):
    url = (live_server + "/nim?n=5&mode=ai-human&tree=1&proj=1&level=custom&algo=alphabeta"
           "&depth=2&heur=course&window=course&order=reverse&moves=1&td=2")
    for w, h in ((1920, 1080), (1280, 720)):
        pg = browser.new_page(viewport={"width": w, "height": h})
        pg.goto(url)
        expect(pg.locator("body")).to_have_class("projector")
        expect(pg.locator("header.site")).to_be_hidden()
        box = pg.locator("#tree-panel").bounding_box()
        board = pg.locator(".heap").bounding_box()
        assert box["x"] > board["x"] + board["width"] - 1        # the tree beside the board
        assert pg.evaluate("document.documentElement.scrollWidth") <= w
        pg.screenshot(path=str(artifacts / f"projector-{w}x{h}.png"))
        pg.keyboard.press("t")                                    # t hides the tree
        pg.wait_for_function("() => new URLSearchParams(location.search).get('tree') === '0'")
        pg.close()
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    pg.goto(live_server + "/connect4?moves=445343&tree=1&proj=1&mode=human-human&level=medium")
    pg.screenshot(path=str(artifacts / "projector-connect4.png"))
    pg.close()


def test_exercise_lab_in_the_browser(page, live_server, artifacts):
    page.goto(live_server + "/tree")
    expect(page.locator("#tree-caption")).to_contain_text("explored 11 of 13 nodes")
    page.get_by_role("link", name="Do it as an exercise").click()
    expect(page.locator("input[name='v.R']")).to_be_visible()
    for name, value in {"R": "3", "1": "3", "2": "2", "3": "2"}.items():
        page.locator(f"input[name='v.{name}']").fill(value)
        page.locator(f"input[name='a.{name}']").fill("-inf" if name in "R1" else "3")
        page.locator(f"input[name='b.{name}']").fill("inf")
    page.locator("input[name=p][value='2.2']").check()
    page.locator(".answer button[type=submit]").click()
    expect(page.locator(".verdict")).to_contain_text("13 of 14 right so far. 1 mistake")
    expect(page.locator(".marks")).to_have_text(re.compile(r"pruned: is never explored"))
    page.locator("input[name=p][value='2.3']").check()
    page.locator(".answer button[type=submit]").click()
    expect(page.locator(".verdict")).to_contain_text("All correct!")
    expect(page.locator(".verdict")).to_contain_text("Score: 13 of 14 right the first time.")
    page.screenshot(path=str(artifacts / "lab-exercise.png"), full_page=True)
    expect(page.locator("h1")).to_have_count(1)


def test_no_content_security_policy_violation_while_playing(page, live_server):
    page.add_init_script("""
        window.__csp = [];
        document.addEventListener('securitypolicyviolation',
            e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
    """)
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server + "/connect4?tree=1&level=easy")
    page.locator('button[data-col="4"]').click()
    wait_moves(page, 2)
    page.locator("#tree-panel g.tnode").nth(1).hover()
    expect(page.locator("#peek .mini-board")).to_be_visible()
    page.goto(live_server + "/tree?step=3")
    page.goto(live_server + "/nim/theory")
    assert page.evaluate("window.__csp") == []
    assert not [e for e in errors if "Content Security Policy" in e]
    r = page.request.get(live_server + "/connect4")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_switch_to_french_and_back_and_a_french_link_opens_in_french(browser, live_server):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(live_server + "/connect4")
    expect(page.locator("h1")).to_have_text("Connect-4")
    page.locator("nav.langs a[hreflang=fr]").click()
    expect(page.locator("h1")).to_have_text("Puissance 4")
    page.locator('button[data-col="4"]').click()
    wait_moves(page, 2)
    assert "lang=fr" in page.url
    expect(page.locator("#status")).to_contain_text("À vous de jouer")
    link = page.url
    page.locator("nav.langs a[hreflang=en]").click()
    expect(page.locator("h1")).to_have_text("Connect-4")
    context.close()
    # someone with an English browser opens the French link: French
    other = browser.new_context(locale="en-US")
    pg = other.new_page()
    pg.goto(link)
    expect(pg.locator("html")).to_have_attribute("lang", "fr")
    expect(pg.locator("h1")).to_have_text("Puissance 4")
    assert pg.locator("#game .board .disc").count() == 2
    other.close()


def test_play_a_move_with_the_keyboard_alone(page, live_server):
    page.goto(live_server + "/nim?n=7")
    page.keyboard.press("?")
    expect(page.locator("dialog#help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog#help")).to_be_hidden()
    page.keyboard.press("2")                                   # take 2
    wait_moves(page, 2)
    assert moves_of(page).startswith("2")
    # and by Tab and Enter, the way a keyboard user reaches any button
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.take === '1'"):
            break
    page.keyboard.press("Enter")
    wait_moves(page, 4)
    expect(page.locator("#status")).to_contain_text(re.compile("turn|win"))
