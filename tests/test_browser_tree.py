"""The tree panel in Chromium, measured: issue 9, item 2 (the position preview of a node).
The other items of the tree panel are checked on the server's HTML: tests/test_tree_items.py."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ITEM_2 = "/connect4?moves=4435&tree=1"


def assert_small_square_board(page):
    board = page.locator("#peek .mini-board")
    expect(board).to_be_visible()
    box = board.bounding_box()
    viewport = page.viewport_size
    # a small board: well within the screen (it was a column of ellipses 1,300 px tall)
    assert box["height"] <= viewport["height"] / 2, box
    assert box["width"] <= 300, box
    # 7 columns by 6 rows of round holes: the board is a little wider than tall ...
    assert 0.75 <= box["height"] / box["width"] <= 0.95, box
    # ... and every hole as tall as it is wide
    for cell in page.locator("#peek .mini-board td").all():
        c = cell.bounding_box()
        assert c["width"] > 10 and abs(c["width"] - c["height"]) <= 1.5, c


def test_the_position_preview_of_a_node_is_a_small_square_board(page, live_server, artifacts):
    """Issue 9, item 2: hover or tab to a node on /connect4?moves=4435&tree=1: the preview is a
    small board of round holes, not a column of ellipses taller than the screen."""
    page.goto(live_server + ITEM_2)
    # pointing: the root's first child, 4435 then the AI's first try
    page.locator("#tree-panel g.tnode").nth(1).hover()
    assert_small_square_board(page)
    expect(page.locator("#peek .mini-board .disc")).to_have_count(4)
    page.screenshot(path=str(artifacts / "tree-preview-hover.png"), full_page=True)
    # the keyboard: focus reaches a node's link (as Tab does) and shows its position
    title = page.locator("#peek .peek-title").inner_text()
    page.locator("#tree-panel g.tnode a").nth(2).focus()
    expect(page.locator("#peek .peek-title")).not_to_have_text(title)
    assert_small_square_board(page)


def test_on_a_projector_the_preview_floats_over_the_tree(browser, live_server, artifacts):
    """Issue 9, item 2, on a projector (1366x768, proj=1): the preview was hidden there; it
    now shows once a node is pointed at, small and square, inside the tree's area and on
    screen, without moving the tree."""
    pg = browser.new_page(viewport={"width": 1366, "height": 768})
    pg.goto(live_server + ITEM_2 + "&proj=1")
    expect(pg.locator("#peek")).to_be_hidden()                # nothing pointed at yet
    # the node on screen first (pointing at it scrolls the page to it, not the preview)
    pg.locator("#tree-panel g.tnode").nth(1).scroll_into_view_if_needed()
    tree = pg.locator("#tree-panel .tree-scroll").bounding_box()
    pg.locator("#tree-panel g.tnode").nth(1).hover()
    assert_small_square_board(pg)
    board = pg.locator("#peek .mini-board").bounding_box()
    assert pg.locator("#tree-panel .tree-scroll").bounding_box() == tree
    assert tree["x"] <= board["x"] and board["x"] + board["width"] <= tree["x"] + tree["width"]
    assert board["y"] + board["height"] <= 768
    pg.screenshot(path=str(artifacts / "tree-preview-projector-1366.png"))
    pg.close()


def test_a_pruned_node_opened_on_a_projector_shows_why_and_its_position(browser, live_server,
                                                                         artifacts):
    """The case reported on the projector: Connect-4, alpha-beta at depth 4, ``path=11`` (a
    node the cut at "min (after 1)" pruned). The panel says why where its dashed box was, and
    the position it stands for loads into its own box: the page stays (a load that took the
    page's target replaced the whole page); its link opens the parent, where the cut was."""
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    pg.goto(live_server + "/connect4?moves=44&tree=1&level=custom&algo=alphabeta&depth=4"
            "&path=11&proj=1&lang=fr")
    note = pg.locator("#tree-panel .pruned-focus")
    expect(note).to_contain_text("max (après 1, 1)\u202f: élagué, jamais exploré.")
    # the search behind the AI's last move was made after 4: then 1, 1
    expect(pg.locator("#peek .mini-board .disc")).to_have_count(3)
    expect(pg.locator("h1")).to_have_count(1)
    expect(pg.locator("#tree-panel g.tnode")).to_have_count(0)          # no empty box
    pg.screenshot(path=str(artifacts / "pruned-node-projector-fr.png"))
    note.get_by_role("link").click()
    expect(pg).to_have_url(re.compile(r"[?&]path=1(&|$)"))
    expect(pg.locator("#tree-panel g.tnode.pruned")).to_have_count(6)
    pg.close()
