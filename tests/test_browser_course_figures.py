"""Issue 36, measured in Chromium on a 1920x1080 projector in French: the theory trees with
projector-sized labels on one screen (the 4-match tree was stretched to 1,972 px, or its
labels 9-10 px), and Connect-4's hints without the tree using the screen beside the board
(they were squeezed under it, "dé-faite" broken, the row cut at the bottom, two-thirds of
the screen empty)."""
import pytest

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}

THEORY = """() => {
  const svg = document.querySelector('svg.tree-svg');
  const r = svg.getBoundingClientRect();
  const scale = r.width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map(
      t => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {top: r.top, bottom: r.bottom, width: r.width, natural: +svg.getAttribute('width'),
          scale, smallest: Math.min(...sizes), labels: sizes.length};
}"""


@pytest.mark.parametrize("n", [4, 5])
def test_a_theory_tree_on_the_projector_is_on_one_screen_with_labels_of_18px(
        browser, live_server, artifacts, n):
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(live_server + f"/nim/theory?n={n}&lang=fr&proj=1")
    page.wait_for_selector("svg.tree-svg g.tnode")
    m = page.evaluate(THEORY)
    page.screenshot(path=str(artifacts / f"i36-theory-{n}-projector-fr.png"))
    page.close()
    assert m["bottom"] <= PROJECTOR["height"], m          # the whole tree on the first screen
    assert 0.99 <= m["scale"] <= 1.01, m                  # at its natural size: not blown up
    assert m["labels"] > 2 * {4: 15, 5: 28}[n] and m["smallest"] >= 18, m


HINTS = """() => {
  const box = e => e.getBoundingClientRect();
  const board = box(document.querySelector('table.board'));
  const hints = box(document.querySelector('#hints'));
  const row = box(document.querySelector('#hints .hints-row'));
  const words = [...document.querySelectorAll('#hints .hint-word')].map(w => ({
      text: w.textContent, lines: Math.round(box(w).height
                                             / parseFloat(getComputedStyle(w).lineHeight))}));
  const size = parseFloat(getComputedStyle(document.querySelector('#hints .hint-word')).fontSize);
  return {board: {left: board.left, right: board.right, top: board.top},
          hints: {left: hints.left, width: hints.width, top: hints.top}, rowBottom: row.bottom,
          words, size, page: document.documentElement.scrollHeight};
}"""


def test_the_hints_without_the_tree_use_the_projectors_screen(browser, live_server, artifacts):
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(live_server + "/connect4?moves=4453&hints=1&proj=1&lang=fr")
    page.wait_for_selector("#hints .hints-row .hint-word", timeout=60_000)
    m = page.evaluate(HINTS)
    page.screenshot(path=str(artifacts / "i36-hints-projector-fr.png"))
    page.close()
    assert m["hints"]["left"] >= m["board"]["right"], m       # beside the board, not under it
    assert m["hints"]["width"] >= 0.4 * PROJECTOR["width"], m
    assert m["rowBottom"] <= PROJECTOR["height"], m            # the row whole on the screen
    assert len(m["words"]) == 7 and all(w["lines"] == 1 for w in m["words"]), m["words"]
    assert m["size"] >= 22, m


def test_a_phone_in_projector_mode_gives_the_theory_tree_the_screens_width(
        browser, live_server, artifacts):
    """The projector's two columns on a 390 px phone left the tree 42 px wide."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live_server + "/nim/theory?n=5&lang=fr&proj=1")
    page.wait_for_selector("svg.tree-svg g.tnode")
    width = page.evaluate("document.querySelector('.theory-grid .tree-panel')"
                          ".getBoundingClientRect().width")
    page.screenshot(path=str(artifacts / "i36-theory-5-phone-projector-fr.png"))
    page.close()
    assert width >= 340, width
