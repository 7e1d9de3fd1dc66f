"""Issue 21 in Chromium, as a teacher rehearsing a lesson sees it: the node being explained
and the algorithm's line in sight at every step without scrolling; Back leaving a replay after
its steps; the way back to the course's card and out of projector mode on every teaching page;
the settings drawer of projector mode; class mode served on 127.0.0.1 giving the phones an
address they can open. At 390x844, 1366x768 and 1920x1080 with proj=1; screenshots in
test-artifacts/."""
import re

import pytest
from playwright.sync_api import expect

from web.network import network_addresses

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768), "projector": (1920, 1080)}
# The course's cards "The MiniMax procedure, step by step" and "The table step by step".
MINIMAX = ("/nim?n=5&mode=ai-human&level=custom&heur=course&order=reverse&moves=1&tree=1"
           "&algo=minimax&depth=5&td=5&step=0")
TABLE = ("/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom&algo=alphabeta-tt"
         "&depth=4&order=natural&tree=1&step=0")

# The current node and the algorithm's current line, each inside the window and seen there:
# what is drawn at the node's centre is the node (not the sticky stepper over it).
IN_SIGHT = """() => {
  const seen = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === el || el.contains(at));
  };
  const node = document.querySelector('#tree-panel .tnode.current');
  const line = document.querySelector('#tree-panel .algo-lines .now');
  return seen(node) && seen(line);
}"""
WHERE = """() => {
  const box = (s) => { const e = document.querySelector(s); if (!e) return null;
    const r = e.getBoundingClientRect(); return [r.left|0, r.top|0, r.right|0, r.bottom|0]; };
  return {node: box('#tree-panel .tnode.current'), line: box('#tree-panel .algo-lines .now'),
          step: (document.querySelector('.step-count') || {}).textContent, y: scrollY,
          window: [innerWidth, innerHeight]};
}"""


def new_page(browser, size):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def proj(size):
    return "&proj=1" if size == "projector" else ""


def step_forward(page):
    count = page.locator(".step-count").inner_text()
    page.locator('[data-key="step"]').click()
    expect(page.locator(".step-count")).not_to_have_text(count)


def assert_in_sight(page, what):
    try:
        page.wait_for_function(IN_SIGHT, timeout=5_000)
    except Exception:
        raise AssertionError(f"{what}: node or line out of sight: {page.evaluate(WHERE)}") from None


@pytest.mark.parametrize("size", SIZES)
def test_the_node_and_the_line_stay_in_sight_at_every_step(browser, live_server, artifacts, size):
    """The MiniMax procedure's card, step by step (all its steps on the projector, the first
    twenty elsewhere), then the table stepper: at each step the node being explained and the
    line of the algorithm it executes are on the screen, without the teacher scrolling."""
    page = new_page(browser, size)
    for name, url, steps in (("minimax", MINIMAX, 56 if size == "projector" else 20),
                             ("table", TABLE, 25)):
        page.goto(live_server + url + "&lang=fr" + proj(size))
        step_forward(page)
        for step in range(1, steps + 1):
            assert_in_sight(page, f"{name} step {step}")
            if step in (7, 20):
                page.screenshot(path=str(artifacts / f"lesson-{name}-step{step}-{size}.png"))
            if step < steps:
                step_forward(page)
    # a jump (the table's next answer, step 96) lands in sight too
    page.get_by_role("link", name=re.compile("réponse suivante de la table")).click()
    expect(page.locator(".step-count")).to_contain_text("étape 96 sur")
    assert_in_sight(page, "table step 96")
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_back_leaves_the_replay_after_its_steps(browser, live_server, artifacts, size):
    page = new_page(browser, size)
    page.goto(live_server + "/course?lang=fr" + proj(size))
    page.locator("#fig-2-1 h3 a").click()                   # The MiniMax procedure
    expect(page.locator(".step-count")).to_contain_text("étape 0 sur")
    entries = page.evaluate("history.length")
    for _ in range(10):
        step_forward(page)
    assert "step=10" in page.url                           # the link still holds the step
    assert page.evaluate("history.length") == entries      # no entry per step
    page.go_back()
    expect(page.locator("h1")).to_have_text("Le cours, figure par figure")
    assert "/course?" in page.url and "step" not in page.url
    # and the way back from the replay goes to the card it came from
    page.go_forward()
    page.get_by_role("link", name="← Retour au cours").click()
    expect(page.locator("#fig-2-1")).to_be_in_viewport()
    assert page.url.endswith("#fig-2-1")
    page.context.close()


TEACHING_PAGES = {
    "replay": MINIMAX.replace("step=0", "step=3"),
    "table": "/connect4/table?moves=4453",
    "compare": "/connect4/compare?moves=4453",
    "compare nim": "/nim/compare?n=20",
    "growth": "/tree/growth?b=3&m=6",
    "inspector": "/connect4/heuristic?board=--2-12-1--",
    "theory": "/nim/theory?n=8",
    "lab": "/tree",
    "editor": "/connect4/edit?board=--2-12-1--",
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", TEACHING_PAGES)
def test_every_teaching_page_in_projector_mode_leads_back_to_the_course_and_out(
        browser, live_server, artifacts, name, size):
    """Projector mode hides the header: the way back to the course's card is at the top of
    the page, in sight when it opens (a replay opened at a step below the board scrolls to its
    node), and the way out of projector mode is on the page."""
    page = new_page(browser, size)
    url = TEACHING_PAGES[name]
    page.goto(live_server + url + ("&" if "?" in url else "?") + "lang=fr&proj=1&card=fig-3-2")
    expect(page.locator("header.site")).to_be_hidden()
    back = page.get_by_role("link", name="← Retour au cours")
    if name == "replay" and size != "projector":
        expect(back).to_be_visible()       # above: the page opened scrolled to the step's node
    else:
        expect(back).to_be_in_viewport()
    assert back.get_attribute("href").endswith("#fig-3-2")
    leave = page.get_by_role("link", name="Quitter le mode projecteur")
    expect(leave).to_be_visible()
    if name == "table" and size == "projector":
        page.screenshot(path=str(artifacts / "lesson-table-projector-way-back.png"))
        leave.click()
        expect(page.locator("body")).not_to_have_class(re.compile("projector"))
        expect(page.locator("header.site")).to_be_visible()
        assert "moves=4453" in page.url and "proj=0" in page.url
    page.context.close()


def test_the_settings_drawer_changes_the_depth_without_leaving_projector_mode(browser, live_server, artifacts):
    page = new_page(browser, "projector")
    page.goto(live_server + "/connect4?moves=4453&mode=human-human&level=custom&algo=alphabeta"
              "&depth=5&heur=adjusted&tree=1&lang=fr&proj=1")
    drawer = page.locator("summary[data-key=drawer]")
    expect(drawer).to_be_in_viewport()
    expect(drawer).to_have_text(re.compile("Réglages et coups"))
    drawer.click()
    body = page.locator(".drawer-body")
    expect(body).to_be_visible()
    box, window = body.bounding_box(), page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= window["width"] and box["y"] + box["height"] <= window["height"]
    expect(body.locator(".move-list")).to_contain_text("4. 3")       # the moves, in the drawer
    small = body.evaluate("""b => [...b.querySelectorAll('label, select, input, button, a, summary')]
        .filter(e => e.offsetParent && parseFloat(getComputedStyle(e).fontSize) < 17.95)
        .map(e => e.tagName + ' ' + getComputedStyle(e).fontSize)""")
    assert not small                                          # read from the back of the room
    page.screenshot(path=str(artifacts / "lesson-drawer-projector.png"))
    body.get_by_role("spinbutton", name="Profondeur").fill("3")
    body.get_by_role("button", name="Appliquer").click()
    expect(page.locator(".tree-caption")).to_contain_text("profondeur 3")
    assert "depth=3" in page.url and "proj=1" in page.url
    expect(page.locator("body")).to_have_class(re.compile("projector"))
    expect(page.locator(".drawer-body")).to_be_hidden()      # closed: the new tree in sight
    page.context.close()


def test_the_settings_drawer_on_a_phone_in_projector_mode_closes_with_its_button_and_escape(browser, live_server):
    page = new_page(browser, "phone")
    page.goto(live_server + "/nim?moves=1&mode=human-human&lang=en&proj=1")
    page.locator("summary[data-key=drawer]").click()
    close = page.get_by_role("button", name="Close ✕")
    expect(close).to_be_in_viewport()
    close.click()
    expect(page.locator(".drawer-body")).to_be_hidden()
    page.locator("summary[data-key=drawer]").click()
    expect(page.get_by_label("Level")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".drawer-body")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize("size,lang", [("projector", "fr"), ("laptop", "en"), ("phone", "en")])
def test_class_mode_on_127_0_0_1_shows_an_address_phones_can_open(browser, live_server, artifacts, size, lang):
    """The test server runs on 127.0.0.1, as scripts/serve does by default."""
    page = new_page(browser, size)
    page.goto(live_server + f"/connect4?moves=4453&lang={lang}" + proj(size))
    page.locator('[data-key="class"]').click()
    note = page.locator(".loopback-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("127.0.0.1")
    expect(note).to_contain_text("scripts/serve --lan")
    addresses = network_addresses()           # this machine's, as the server finds them
    join = page.locator(".class-join .join-link").first
    if addresses:
        expect(join).to_have_text(re.compile(rf"^http://{re.escape(addresses[0])}:\d+/c/[A-Z0-9]{{6}}$"))
        # the QR code of that link: the join screen's (a class just started), else the bar's
        qr = page.locator(".class-bar svg.qr >> visible=true").first
        expect(qr).to_be_visible()
        assert addresses[0] in page.locator("#class-lobby .lobby-link").inner_text()
    else:
        expect(note).to_contain_text("aucun réseau" if lang == "fr" else "no address on a network")
    expect(note).to_contain_text("ne peuvent pas ouvrir" if lang == "fr" else "Phones cannot open")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")   # nothing cut off
    page.screenshot(path=str(artifacts / f"lesson-class-loopback-{size}-{lang}.png"))
    page.context.close()
