"""Read from the back of a classroom: in projector mode (1920x1080, proj=1), no visible text
of the teaching pages is drawn under 18 px, SVG text included (its size times the drawing's
scale on screen). The course's pages, in French as the class sees them."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALLEST = 18       # px on a 1920x1080 projector

PAGES = {
    "home": "/",
    "course": "/course",
    "tree": "/connect4?moves=4453&tree=1",
    "nim steps": ("/nim?n=5&mode=ai-human&level=custom&algo=alphabeta&depth=2&heur=course"
                  "&window=course&order=reverse&moves=1&tree=1&td=2&step=7"),
    "table steps": ("/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom"
                    "&algo=alphabeta-tt&depth=4&order=natural&tree=1&step=96"),
    "compare": "/connect4/compare?moves=4453",
    "theory": "/nim/theory?n=4&variant=misere",
    "editor": "/connect4/edit?board=2-11-1112-121-222-2-",
    "table": "/connect4/table?moves=4453",
    "growth": "/tree/growth?b=3&m=6",
    "lab": "/lab?mode=exercise",
}

SMALL_TEXT = """(smallest) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const e = walker.currentNode.parentElement;
    if (!text || !e) continue;
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    if (e.closest('[hidden], .sr-only, dialog:not([open])')) continue;
    let size = parseFloat(style.fontSize);
    if (e.closest('svg')) { const m = e.getScreenCTM(); if (m) size *= Math.hypot(m.a, m.b); }
    if (size < smallest - 0.05) small.push(`${e.tagName}.${e.getAttribute('class') || ''} ${size.toFixed(1)}px: ${text.slice(0, 40)}`);
  }
  return small;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_no_text_under_18_px_on_a_projector(browser, live_server, artifacts, name):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    url = PAGES[name]
    page.goto(live_server + url + ("&" if "?" in url else "?") + "proj=1&lang=fr")
    page.wait_for_load_state("networkidle")
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.close()
    assert not small, small[:8]


def test_the_class_bar_on_the_teacher_s_projector(browser, live_server):
    """Class mode's bar above the projected board (code, followers, vote, its settings)."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + "/connect4?moves=4453&proj=1&lang=fr")
    page.get_by_text("Mode classe").first.click()
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Ouvrir un vote").click()
    page.get_by_role("button", name="Clore le vote").wait_for()
    page.locator(".class-more > summary").click()          # the settings, opened
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.close()
    assert not small, small[:8]


@pytest.mark.parametrize("name", ["tree", "nim steps"])
def test_the_small_board_of_a_pointed_node_on_a_projector(browser, live_server, artifacts, name):
    """The small board shown on pointing at a node floats over the tree's corner, titled with
    the node's name (b89d40f): its title and its text were drawn at 13-14 px, the panel's
    .9rem, unreadable from the back of the room."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + PAGES[name] + "&proj=1&lang=fr")
    node = page.locator("#tree-panel g.tnode").nth(1)
    node.scroll_into_view_if_needed()
    node.hover()
    title = page.locator("#peek .peek-title")
    expect(title).to_be_visible()
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.screenshot(path=str(artifacts / f"peek-projector-{name.replace(' ', '-')}.png"))
    page.close()
    assert not small, small[:8]


def test_the_questions_on_the_next_step_on_the_teacher_s_projector(browser, live_server):
    """Class mode on a tree stepped through (seed 005's table card, step 3): the bar's menu of
    questions on the next step, its heading ("Interroger la classe sur la prochaine étape", was
    16 px) and its links to the next step where each can be asked ("α : étape 4 →", 17 px)."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + PAGES["table steps"].replace("&step=96", "") + "&proj=1&lang=fr")
    page.get_by_text("Mode classe").first.click()
    expect(page.locator(".class-bar .class-code")).to_be_visible()
    for step in range(4):                   # step by step, as the teacher: Space
        page.keyboard.press(" ")
        expect(page).to_have_url(re.compile(rf"step={step}\b"))
    expect(page.locator(".ask-menu h3")).to_be_visible()
    expect(page.locator(".ask-menu a.button.quiet").first).to_be_visible()
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.close()
    assert not small, small[:8]


def test_the_small_board_goes_when_the_pointer_leaves_the_node(browser, live_server, artifacts):
    """On a projector the small board floats over the tree's corner: it stayed there once the
    teacher's pointer had left the node, over whatever the tree draws in that corner (the
    root itself, beside a class's question, which narrows the tree: seen rehearsing Nim's
    minimax card). It shows while a node is pointed at or focused, and only then."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + PAGES["tree"] + "&proj=1&lang=fr")
    node = page.locator("#tree-panel g.tnode").nth(1)
    node.scroll_into_view_if_needed()
    node.hover()
    expect(page.locator("#peek .peek-title")).to_be_visible()
    page.locator(".status").first.hover()                                  # the pointer away
    expect(page.locator("#peek")).to_be_hidden()
    page.locator("#tree-panel g.tnode a").nth(1).focus()        # the keyboard, as Tab
    expect(page.locator("#peek .peek-title")).to_be_visible()
    page.close()


UNDER_THE_PEEK = """() => {
    const peek = document.getElementById('peek').getBoundingClientRect();
    const found = [];
    document.querySelectorAll('#tree-panel g.tnode').forEach((g, i) => {
        const shape = g.querySelector('circle, rect');      // the node's own mark, its centre
        if (!shape) return;
        const r = shape.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (peek.left < x && x < peek.right && peek.top < y && y < peek.bottom) found.push([i, x, y]);
    });
    return found;
}"""


def test_a_node_under_the_small_board_can_be_pointed_at(browser, live_server):
    """The small board shows only while a node is pointed at: a node drawn under it (the
    root's last child, in the tree's top corner) must still be the one pointed at once the
    board comes over it, or the board would go and come back with every move of the mouse
    (a 1366x768 projector: the tree narrower, its top corner under the board)."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(live_server + PAGES["tree"] + "&proj=1&lang=fr")
    page.locator("#tree-panel g.tnode").nth(1).hover()
    expect(page.locator("#peek .peek-title")).to_be_visible()
    under = page.evaluate(UNDER_THE_PEEK)
    assert under, "no node under the small board: nothing to check"
    i, x, y = under[0]
    page.mouse.move(x, y)
    assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('g.tnode')", [x, y])
    expect(page.locator("#peek .peek-title")).to_be_visible()
    page.close()


IN_WINDOW = """selectors => selectors.map(s => {
    const e = document.querySelector(s);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
})"""


def test_a_class_s_vote_and_tree_share_the_projector_s_first_screen(browser, live_server, artifacts):
    """Class mode on Nim's minimax card, stepped through, a vote open (as a lesson goes): the
    teacher's bar took ~460 px of the 1080 (QR code, link, note on 127.0.0.1, hints), the
    stepped tree started below the fold, and stepping scrolled the bar, the vote with it, out
    of the window. The bar's vote (its heading, how many answered) and the tree's root are in
    the window together, every label still 18 px and more."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + "/nim?card=fig-2-1&n=5&mode=ai-human&level=custom&heur=course"
              "&order=reverse&moves=1&tree=1&algo=minimax&depth=5&td=5&step=0&notation=course"
              "&proj=1&lang=fr")
    page.get_by_text("Mode classe").first.click()
    page.get_by_role("button", name="Commencer").click()          # the join screen folds away
    expect(page.locator("#class-lobby")).not_to_have_attribute("open", "")
    for step in range(1, 4):                     # step by step, as the teacher: Space
        page.keyboard.press(" ")
        expect(page).to_have_url(re.compile(rf"step={step}\b"))
    page.keyboard.press("v")
    expect(page.locator(".class-bar .vote-title")).to_have_text("Vote ouvert")
    expect(page.locator(".class-bar .answered-count")).to_be_visible()
    page.screenshot(path=str(artifacts / "projector-class-vote-and-tree.png"))
    seen = page.evaluate(IN_WINDOW, [".class-bar .vote-title", ".class-bar .answered-count",
                                     "#tree-panel g.tnode"])
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.close()
    assert seen == [True, True, True], seen
    assert not small, small[:8]


NIM_MINIMAX_CARD = ("/nim?card=fig-2-1&n=5&mode=ai-human&level=custom&heur=course&order=reverse"
                    "&moves=1&tree=1&algo=minimax&depth=5&td=5&step=0&notation=course&proj=1&lang=fr")
DEEP_STEP = 21          # the step after it enters a node four levels under the root


def test_a_vote_s_counts_beside_a_tree_leave_the_board_and_its_current_node_on_screen(
        browser, live_server, artifacts):
    """The vote's counts shown beside a stepped tree (closed, then "Montrer les décomptes"):
    the chart across the bar's width made the bar ~630 px, and the board and the tree's
    current node went below the 1080 px screen. The chart, the vote's heading, the board and
    the current node are in the window together, every label 18 px and more."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + NIM_MINIMAX_CARD)
    page.get_by_text("Mode classe").first.click()
    page.get_by_role("button", name="Commencer").click()
    for step in range(1, 3):                     # to a node one level under the root
        page.keyboard.press(" ")
        expect(page).to_have_url(re.compile(rf"step={step}\b"))
    page.keyboard.press("v")
    expect(page.locator(".class-bar .vote-title")).to_have_text("Vote ouvert")
    page.keyboard.press("v")
    expect(page.locator(".class-bar .vote-title")).to_contain_text("Vote clos")
    page.get_by_role("button", name="Montrer les décomptes").click()
    expect(page.locator(".class-bar .vote-chart")).to_be_visible()
    page.screenshot(path=str(artifacts / "projector-class-counts-and-tree.png"))
    seen = page.evaluate(IN_WINDOW, [".class-bar .vote-title", ".class-bar .vote-chart",
                                     "#game .heap", "#tree-panel .tnode.current"])
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    page.close()
    assert seen == [True] * 4, seen
    assert not small, small[:8]


def test_a_deep_step_s_current_node_stays_on_screen_when_v_opens_a_vote(
        browser, live_server, artifacts):
    """Step by step deep in Nim's minimax tree, then v: the vote's bar came back into view
    above the tree (a457192) and pushed the current node below the screen until the next
    step. The node stays in the window, the vote opened and closed; the bar's heading, out
    of the window then, is said by a pill in the screen's corner (18 px and more), which
    goes up to the bar."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(live_server + NIM_MINIMAX_CARD.replace("step=0", f"step={DEEP_STEP}"))
    page.get_by_text("Mode classe").first.click()
    page.get_by_role("button", name="Commencer").click()
    page.keyboard.press(" ")                     # one step, as the teacher: the page follows
    expect(page).to_have_url(re.compile(rf"step={DEEP_STEP + 1}\b"))
    expect(page.locator("#tree-panel .tnode.current")).to_be_in_viewport(ratio=1)
    page.keyboard.press("v")
    expect(page.locator(".class-bar .vote-title")).to_have_text("Vote ouvert")
    pill = page.locator("[data-bar-pill]")
    expect(pill).to_have_text("Vote ouvert")
    page.screenshot(path=str(artifacts / "projector-class-deep-step-vote.png"))
    seen = page.evaluate(IN_WINDOW, ["#tree-panel .tnode.current", "[data-bar-pill]"])
    small = page.evaluate(SMALL_TEXT, SMALLEST)
    # closed with v: the bar grows (how many answered, the peer instruction's buttons), and
    # the stream's redraw of it comes close behind the teacher's own
    page.keyboard.press("v")
    expect(page.locator(".class-bar .vote-title")).to_contain_text("Vote clos")
    page.wait_for_load_state("networkidle")
    seen += page.evaluate(IN_WINDOW, ["#tree-panel .tnode.current"])
    expect(pill).to_contain_text("Vote clos")
    pill.click()                                 # up to the bar: its heading in the window
    expect(page.locator(".class-bar .vote-title")).to_be_in_viewport(ratio=1)
    expect(pill).to_be_hidden()
    page.close()
    assert seen == [True, True, True], seen
    assert not small, small[:8]
