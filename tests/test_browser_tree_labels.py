"""Issue 21, measured in Chromium at 390x844, 1366x768 and 1920x1080 in projector mode, in
French and English: what a teacher meets in front of a class, tree by tree.

- defect 4: the Nim trees fit their box (no 3,000 px page, no tree scrolled off both sides),
  every value inside its node, no ±1 label crossed by an edge on the theory page;
- defect 6: the cut moves of a Connect-4 row read "≤ 11";
- defect 15: the row's sizes do not touch; "1 000" is inside the O(b^m) chart; the phone's
  table breaks its headers between words; the AI's summary is 18 px or more on a projector.
"""
import pytest

from tests.test_browser_readable_tree import crosses, overlap

pytestmark = pytest.mark.browser

SIZES = {"projector": (1920, 1080, "&proj=1"), "laptop": (1366, 768, ""),
         "phone": (390, 844, "")}
LANGS = ("fr", "en")
NIM_TREES = {"misere": "/nim?variant=misere&tree=1",
             "n21": "/nim?n=21&moves=1&tree=1",
             "nine-of-28": ("/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2"
                            "&heur=course&window=course&order=reverse&moves=1&td=2"
                            "&notation=course")}

GEOMETRY = """() => {
  const svg = document.querySelector('svg.tree-svg');
  const box = e => { const r = e.getBoundingClientRect();
                     return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const inside = [...svg.querySelectorAll('g.tnode')].map(g => {
      const shape = g.querySelector('.node');
      const value = [...g.querySelectorAll(':scope > text, :scope > a > text')]
          .find(t => !t.classList.length || t.classList.contains('bound'));
      return {shape: box(shape), value: value ? box(value) : null,
              text: value ? value.textContent : null}; });
  const edges = [...svg.querySelectorAll('line.edge')].map(l => {
      const m = l.getScreenCTM();
      const p = (x, y) => ({x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f});
      return [p(+l.getAttribute('x1'), +l.getAttribute('y1')),
              p(+l.getAttribute('x2'), +l.getAttribute('y2'))]; });
  const labels = [...svg.querySelectorAll('text.lbl, text.size')].map(t => ({
      text: t.textContent, box: box(t)}));
  return {svg: box(svg), inside, edges, labels, page: document.documentElement.scrollHeight,
          pageWidth: document.documentElement.scrollWidth, width: innerWidth,
          height: innerHeight};
}"""


def open_page(browser, url, size, lang, artifacts=None, name=None):
    w, h, extra = SIZES[size]
    page = browser.new_page(viewport={"width": w, "height": h})
    page.goto(url + extra + f"&lang={lang}")
    return page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(NIM_TREES))
def test_nim_trees_fit_their_box_with_every_value_inside_its_node(
        browser, live_server, artifacts, name, size, lang):
    """/nim?variant=misere&tree=1&proj=1 was a page 3,048 px tall with "-999" spilling out
    of every node: the tree is never blown up past its natural size, never taller than the
    screen, never wider than the page, and each value lies inside its square or circle."""
    page = open_page(browser, live_server + NIM_TREES[name], size, lang)
    page.wait_for_selector("svg.tree-svg g.tnode")
    m = page.evaluate(GEOMETRY)
    page.screenshot(path=str(artifacts / f"i21-nim-{name}-{size}-{lang}.png"), full_page=True)
    page.close()
    assert m["pageWidth"] <= m["width"], "the page scrolls sideways"
    assert m["svg"]["h"] <= m["height"], m["svg"]
    if size == "projector":           # the board beside the tree: the page about a screen
        assert m["page"] < 2 * m["height"], m["page"]
    values = [n for n in m["inside"] if n["value"] and n["text"] not in ("", "?")]
    assert values
    for n in values:
        s, v = n["shape"], n["value"]
        if name == "nine-of-28":          # the course's notation: the value beside the node
            continue
        assert s["x"] - 1 <= v["x"] and v["x"] + v["w"] <= s["x"] + s["w"] + 1, n


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("n", [4, 8])
def test_the_theory_tree_is_whole_and_no_edge_crosses_its_labels(
        browser, live_server, artifacts, n, size, lang):
    """/nim/theory?n=8&proj=1 was cut off on both sides; the n=4 tree's ±1 labels were
    crossed by its edges."""
    page = open_page(browser, live_server + f"/nim/theory?n={n}", size, lang)
    page.wait_for_selector("svg.tree-svg g.tnode")
    m = page.evaluate(GEOMETRY)
    page.screenshot(path=str(artifacts / f"i21-theory-{n}-{size}-{lang}.png"))
    page.close()
    assert m["pageWidth"] <= m["width"], "the page scrolls sideways"
    if size == "projector" or n == 4:           # the whole tree on screen, side to side
        assert m["svg"]["x"] >= 0 and m["svg"]["x"] + m["svg"]["w"] <= m["width"], m["svg"]
    if size == "projector":
        assert m["svg"]["h"] <= m["height"]
    labels = [lb for lb in m["labels"] if lb["text"] in ("+1", "−1")]
    assert len(labels) == {4: 15, 8: 177}[n]
    if n == 4:
        for lb in labels:
            for e in m["edges"]:
                assert not crosses(e, lb["box"]), lb


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_cut_moves_read_as_bounds_and_their_sizes_do_not_touch(
        browser, live_server, artifacts, size, lang):
    """/connect4?moves=4453&tree=1&mode=human-human: every ✂ move read "11"; each reads
    "≤ 11" now, and the sizes under the row ("3 268 nodes 1 510 nodes") stay apart."""
    page = open_page(browser, live_server + "/connect4?moves=4453&tree=1&mode=human-human",
                     size, lang)
    page.wait_for_selector("svg.tree-svg g.tnode")
    row = page.evaluate("""() => [...document.querySelectorAll('svg.tree-svg g.tnode')]
        .filter(g => g.dataset.path.length === 1)
        .map(g => ({path: g.dataset.path, cut: [...g.querySelectorAll('text.cut')].length > 0,
                    value: [...g.querySelectorAll('text')].map(t => t.textContent)[0]}))""")
    m = page.evaluate(GEOMETRY)
    page.screenshot(path=str(artifacts / f"i21-cut-row-{size}-{lang}.png"))
    page.close()
    cut = [r for r in row if r["cut"]]
    assert len(cut) == 6 and all(r["value"] == "≤ 11" for r in cut), row
    sizes = [lb for lb in m["labels"] if lb["box"]["y"] < m["inside"][0]["shape"]["y"] + 400
             and lb["text"][0].isdigit()]
    assert len(sizes) >= 7
    for i, a in enumerate(sizes):
        for b in sizes[i + 1:]:
            assert not overlap(a["box"], b["box"], slack=-2), (a["text"], b["text"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_the_growth_chart_keeps_its_axis_labels(browser, live_server, artifacts, size, lang):
    page = open_page(browser, live_server + "/tree/growth?b=3&m=6", size, lang)
    m = page.evaluate("""() => { const svg = document.querySelector('.growth-chart');
        const s = svg.getBoundingClientRect();
        return {svg: [s.left, s.right], ticks: [...svg.querySelectorAll('.ytick')].map(t => {
            const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right]; })}; }""")
    page.close()
    assert any(t[0].replace("\u202f", " ").replace(",", " ") == "1 000" for t in m["ticks"])
    for text, left, right in m["ticks"]:
        assert m["svg"][0] - 0.5 <= left and right <= m["svg"][1] + 0.5, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_s_table_breaks_its_headers_between_words(browser, live_server, lang):
    page = open_page(browser, live_server + "/connect4?moves=4453&tree=1&mode=human-human",
                     "phone", lang)
    broken = page.evaluate("""() => {
        const out = [];
        for (const th of document.querySelectorAll('.root-moves thead th')) {
          const node = th.firstChild; const text = node.textContent; let i = 0;
          for (const word of text.split(' ')) {
            const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + word.length);
            const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
            if (word && lines.size > 1) out.push(word);
            i += word.length + 1; }
        }
        return [out, document.querySelectorAll('.root-moves thead th').length]; }""")
    page.close()
    assert broken[1] == 4 and broken[0] == [], broken


@pytest.mark.parametrize("lang", LANGS)
def test_the_ai_summary_is_readable_on_a_projector(browser, live_server, lang):
    page = open_page(browser, live_server + "/nim?n=21&moves=1&tree=1", "projector", lang)
    page.wait_for_selector("#ai-summary")        # the AI's reply, asked for by the page
    px = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#ai-summary')).fontSize)")
    page.close()
    assert px >= 18, px


@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_s_breadcrumb_keeps_each_value_and_separator_with_its_node(
        browser, live_server, lang):
    """Seed 003's tree in the plies' notation (the longest names: "min (après 3 ; 2
    allumettes restantes)"), opened at the node after 3, 2, at step 9 (the node after 3 has
    its bound, "(≤ D2)"): on a phone a name longer than the line wraps inside, but its value
    is never cut in two ("(≤" then "D2)") and its "›" never stands alone on a line."""
    plies = NIM_TREES["nine-of-28"].replace("&notation=course", "")
    page = open_page(browser, live_server + plies + "&path=32&step=9", "phone", lang)
    found = page.evaluate("""() => {
        const lines = r => new Set([...r.getClientRects()].map(q => Math.round(q.bottom)));
        const out = {values: [], seps: [], crumbs: 0};
        for (const crumb of document.querySelectorAll('.crumbs .crumb')) {
          out.crumbs += 1;
          const value = crumb.querySelector('.crumb-value');
          if (value) { const r = document.createRange(); r.selectNodeContents(value);
                       out.values.push(lines(r).size); }
          const sep = crumb.lastChild, link = crumb.querySelector('a');
          const r = document.createRange(); r.selectNodeContents(sep);
          const last = [...link.getClientRects()].pop();
          out.seps.push(Math.abs([...r.getClientRects()].pop().bottom - last.bottom) < 4);
        }
        return out; }""")
    page.close()
    assert found["crumbs"] == 2 and found["values"] == [1], found    # the root has no value yet
    assert found["seps"] == [True, True], found
