"""The heuristic workshop's page (/connect4/workshop, web.connect4.workshop): the heuristic as
text in the link, the steppers' links, the board's value term by term, the root's choice and
its flip said in words, each column's value now and before, the accuracy beside the levels',
the worst choices, the tree, the links to play against it; bad input a translated 400; and the
custom level of the game page taking the same text. A browser test rehearses it on a phone.
"""
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from ai.games.connect4 import accuracy
from web.connect4.workshop import column_values, choice
from responses import text_of

FLIP = "/connect4/workshop?h=cells=1,open3=4&prev=cells=1&moves=6122"


def test_the_default_page_starts_from_seed_000(client):
    r = client.get("/connect4/workshop")
    assert r.status_code == 200
    page = text_of(r)
    assert "At depth 4 the AI plays column 2." in page
    report = accuracy.measure("cells=1", 4)
    assert f"{report.accuracy * 100:.1f} %" in page
    for term in ("cells", "adjusted", "open1", "open2", "open3", "center", "threats",
                 "immediate", "oddeven"):
        assert f'data-key="ws-{term}-plus"' in page
    assert 'class="tree-svg' in page
    assert "heur=cells%3D1" in page or "heur=cells=1" in page


def test_a_stepper_changes_one_weight_and_remembers_the_last(client):
    page = client.get("/connect4/workshop?moves=6122").get_data(as_text=True)
    href = unescape(re.search(r'data-key="ws-open3-plus" href="([^"]+)"', page).group(1))
    q = parse_qs(urlsplit(href).query)
    assert q["h"] == ["cells=1,open3=4"] and q["prev"] == ["cells=1"] and q["moves"] == ["6122"]


def test_the_flip_is_said_in_words_and_the_changed_columns_marked(client):
    r = client.get(FLIP)
    assert r.status_code == 200
    page = text_of(r)
    state = accuracy.GAME.from_moves("6122")
    now = column_values(accuracy.parse("cells=1,open3=4"), state, 4)
    before = column_values(accuracy.parse("cells=1"), state, 4)
    assert (choice(before), choice(now)) == (1, 3)
    assert "With open3 = 4 the AI now plays column 4 (before: column 2)." in page
    changed = sum(now[m] != before[m] for m in now)
    assert changed and page.count("ws-col chosen changed") + page.count("ws-col changed") == changed
    a, b = accuracy.measure("cells=1,open3=4", 4), accuracy.measure("cells=1", 4)
    assert a.accuracy != b.accuracy
    assert f"{a.accuracy * 100:.1f} % (before: {b.accuracy * 100:.1f} %)" in page


def rings(html) -> list[str]:
    """The titles of the tree's nodes drawn with the ring of a changed value."""
    return [unescape(t) for t in re.findall(
        r'<g class="tnode[^"]*"[^>]*>\s*<title>([^<]*)</title>\s*'
        r'(?:<a [^>]*>\s*<title>[^<]*</title>\s*)?<(?:rect|circle) class="changed-ring"', html)]


def test_the_tree_rings_the_values_the_change_changed(client):
    from ai.games.connect4.terms import WeightedHeuristic, parse
    from ai.teach.tree_view import walk
    from web.connect4.workshop import Workshop, tree_changes, workshop_tree
    from app import create_app
    html = client.get(FLIP).get_data(as_text=True)
    state = accuracy.GAME.from_moves("6122")
    now = column_values(parse("cells=1,open3=4"), state, 4)
    before = column_values(parse("cells=1"), state, 4)
    moved = {m for m in now if now[m] != before[m]}
    found = rings(html)
    # each column whose value changed is ringed, its value before said, and nothing else
    # but a leaf the two heuristics score differently
    for m in moved:
        assert any(t.startswith(f"min (after {m + 1}):") and "changed:" in t for t in found), (m, found)
    assert all("changed:" in t for t in found)
    with create_app({"TESTING": True}).test_request_context():
        w = Workshop(parse("cells=1,open3=4"), parse("cells=1"), "6122", 4, state)
        w.compute()
        panel = workshop_tree(w)
        changes = tree_changes(panel, w)
        h_now, h_before = (WeightedHeuristic(accuracy.GAME, parse(t))
                           for t in ("cells=1,open3=4", "cells=1"))
        for v in walk(panel.view):
            if v.node.kind == "horizon" and len(v.path) > 1:
                s = panel.state_at(v.path)
                assert (v.node.id in changes) == (h_now(s, 0) != h_before(s, 0))
    assert len(found) == len(changes) >= len(moved)
    # the same heuristic twice: nothing ringed, the legend says so
    same = client.get("/connect4/workshop?h=cells=1&prev=cells=1&moves=6122")
    page = same.get_data(as_text=True)
    assert rings(page) == [] and "No value drawn here changed since the last change." in page
    assert "Ringed:" in text_of(client.get(FLIP))


def test_a_changed_mark_needs_a_value_drawn():
    from ai.teach.tree_view import Shown, mark_changed
    shown = {1: Shown(3), 2: Shown(None, pruned=True), 3: Shown(5)}
    out = mark_changed(shown, {1: 2, 2: 7, 9: 1})
    assert (out[1].changed, out[1].before) == (True, 2)
    assert not out[2].changed and not out[3].changed and 9 not in out


def test_the_accuracy_stands_beside_the_levels_and_the_worst_choices_link_to_hints(client):
    page = text_of(client.get("/connect4/workshop?h=open3=4&depth=2"))
    for words in ("cell values (beginner's and easy's heuristic), same depth",
                  "threats (medium's heuristic), same depth",
                  "the beginner level as it plays (1 ply)", "the medium level as it plays (5 plies)"):
        assert words in page
    worst = accuracy.measure("open3=4", 2).worst(3)
    for ch in worst:
        assert f"/connect4?moves={ch.position.moves}&hints=1&mode=human-human" in page


def test_play_against_it_the_custom_level_takes_the_text(client):
    page = client.get("/connect4/workshop?h=cells=1,open3=8&moves=6122").get_data(as_text=True)
    links = [unescape(h) for h in re.findall(r'href="(/connect4\?[^"]*level=custom[^"]*)"', page)]
    assert links
    for link in links:
        r = client.get(link)
        assert r.status_code == 200, link
        assert parse_qs(urlsplit(link).query)["heur"] == ["cells=1,open3=8"]
    tree = client.get("/connect4?moves=6122&level=custom&algo=alphabeta&depth=3"
                      "&heur=cells=1,open3=8&order=center&mode=human-human&tree=1")
    assert tree.status_code == 200 and "tree-svg" in tree.get_data(as_text=True)
    bad = client.get("/connect4?level=custom&heur=cells=1,open9=2")
    assert bad.status_code == 400 and "unknown term" in unescape(bad.get_data(as_text=True))
    bad = client.get("/connect4?level=custom&heur=cells=1,open9=2&lang=fr")
    assert bad.status_code == 400 and "terme inconnu" in unescape(bad.get_data(as_text=True))


@pytest.mark.parametrize("query, words", [
    ("h=cels=1&lang=fr", "écrivez des paires nom=poids"),
    ("h=cells=1,cells=2", "given twice"),
    ("h=cells=1,open4=2&lang=fr", "terme inconnu 'open4'\u202f: les termes sont cells"),
    ("h=cells=x&lang=fr", "cells='x'\u202f: le poids doit être un nombre"),
    ("h=" + "cells=1," * 40, "is too long"),
    ("moves=44444444&lang=fr", "la colonne 4 est pleine"),
    ("depth=9", "Depth"),
    ("prev=open3", "Previous heuristic"),
])
def test_bad_input_is_a_translated_400(client, query, words):
    r = client.get("/connect4/workshop?" + query)
    assert r.status_code == 400
    assert words in unescape(r.get_data(as_text=True))


def test_htmx_gets_the_section_alone(client):
    r = client.get(FLIP, headers={"HX-Request": "true"})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.lstrip().startswith('<section id="workshop"')


def test_a_finished_game_has_no_choice_but_the_rest(client):
    r = client.get("/connect4/workshop?moves=4545454")
    assert r.status_code == 200
    page = text_of(r)
    assert "The game is over: there is no search to draw." in page and "AI plays" not in page


@pytest.mark.browser
def test_rehearsal_on_a_phone_in_french(live_server, browser, artifacts):
    """A student starts from the cell values, adds open-3 windows with +, sees the choice
    flip and the accuracy move, and stays where the stepper is."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    pg = context.new_page()
    pg.goto(live_server + "/connect4/workshop?lang=fr")
    assert "l’IA joue la colonne 2" in pg.locator(".ws-choice").inner_text()
    before = pg.locator(".ws-summary").inner_text()
    plus = pg.locator('[data-key="ws-open3-plus"]')
    plus.scroll_into_view_if_needed()
    y = pg.evaluate("window.scrollY")
    plus.click()
    expect(pg.locator(".ws-choice")).to_contain_text("open3 = 4")
    assert "maintenant la colonne 4" in pg.locator(".ws-choice").inner_text()
    assert pg.locator(".ws-summary").inner_text() != before
    assert "open3%3D4" in pg.url or "open3=4" in pg.url
    assert abs(pg.evaluate("window.scrollY") - y) < 200      # no jump to the bottom
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    pg.screenshot(path=str(artifacts / "workshop-phone.png"))
    context.close()


# Every header cell of the weights' table is what the browser finds at its own centre (nothing
# drawn over it), and it is on screen.
HEADER_UNCOVERED = """() => [...document.querySelectorAll('.ws-terms thead th')].map(th => {
  const r = th.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {text: th.innerText, onScreen: r.top >= 0 && r.bottom <= innerHeight,
          free: !!hit && th.contains(hit)};
})"""
# Each text the tree draws, at the size it reaches the screen: its font size times the scale of
# the SVG (its viewBox to its box) and of its own transform (a value shrunk to fit its node).
TREE_TEXT_PX = """() => [...document.querySelectorAll('.ws-tree svg text')].map(t => ({
  text: t.textContent, cls: t.getAttribute('class') || '',
  px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)
}))"""


@pytest.mark.browser
def test_on_a_phone_nothing_covers_the_table_and_the_tree_reads(live_server, browser, artifacts):
    """On a phone (390 px, French), scrolled to the weights' table and down its steppers, the
    sentence saying the choice covers none of the table's header cells (sticky, it hid them);
    and the tree's values are drawn at 12 px and more (shrunk to the screen's width they were
    5 px), the tree scrolling sideways in its frame, the page not."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    pg = context.new_page()
    pg.goto(live_server + FLIP + "&lang=fr")
    assert "maintenant la colonne 4" in pg.locator(".ws-choice").inner_text()
    for where in ("document.querySelector('.ws-terms table').getBoundingClientRect().top - 10",
                  "document.querySelector('[data-key=\"ws-open3-plus\"]')"
                  ".getBoundingClientRect().top - 300",
                  "document.querySelector('[data-key=\"ws-oddeven-plus\"]')"
                  ".getBoundingClientRect().top - 300"):
        pg.evaluate(f"window.scrollBy(0, {where})")
        cells = pg.evaluate(HEADER_UNCOVERED)
        assert len(cells) == 3, cells
        assert all(c["onScreen"] and c["free"] for c in cells), (where, cells)
        banner = pg.locator(".ws-choice").bounding_box()
        for th in pg.locator(".ws-terms thead th").all():
            box = th.bounding_box()
            assert (banner["y"] + banner["height"] <= box["y"]
                    or box["y"] + box["height"] <= banner["y"]), (where, banner, box)
    # the choice stays said in the header the steppers scroll under
    assert "IA\u202f: colonne 4 (avant\u202f: 2)" in pg.locator(".ws-now").inner_text()
    pg.screenshot(path=str(artifacts / "workshop-phone-table.png"))

    pg.locator(".ws-tree").scroll_into_view_if_needed()
    texts = pg.evaluate(TREE_TEXT_PX)
    values = [t for t in texts if t["cls"] in ("", "bound")]    # the values in the nodes
    assert len(values) >= 8, texts                       # the root, its 7 moves, the line
    assert min(t["px"] for t in texts) >= 12, sorted(texts, key=lambda t: t["px"])[:5]
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    frame = pg.evaluate("(() => { const f = document.querySelector('.ws-tree');"
                        " return [f.scrollWidth, f.clientWidth]; })()")
    assert frame[0] > frame[1]                           # the tree scrolls in its frame
    pg.locator(".ws-tree").screenshot(path=str(artifacts / "workshop-phone-tree.png"))
    context.close()


def test_in_projector_mode_the_tree_is_laid_out_for_the_projector(client):
    """proj=1 gives the tree the projector's geometry, whose columns are wide enough for the
    projector's larger labels (laid out for a laptop, its "16 nodes" ran into each other)."""
    def tree_width(url):
        svg = re.search(r'<svg [^>]*class="tree-svg[^"]*"[^>]*>', client.get(url).get_data(
            as_text=True)).group(0)
        return float(re.search(r'width="([\d.]+)"', svg).group(1))
    assert tree_width(FLIP + "&proj=1") > tree_width(FLIP)
