"""Issue 21: what the tree says, label by label, as a teacher reads it beside the course.

- defect 5: one notation, a setting read in one place and kept in links; every course card
  opens in the course's notation (+M/−M, M given its value once, the course's Nim estimate
  written M − r/n);
- defect 6: a cut node shows its bound ("≤ 11"), not a value;
- defect 8: α and β mean one thing (the window on entry); none on a minimax tree;
- defect 9: the step sentence names a node as the picture draws it;
- defect 10: one count (the tree's row and the phone's table), one side;
- defect 15: the handout has nothing to click, keys are written one way.
"""
import re

from ai.course.record import Node
from ai.teach.tree_view import bound_of, fit_text, text_width
from tests.test_tree_items import (HX, SEED_003, drawn_nodes, one_line, texts, tooltip,
                                   tree_svg)

NINE_OF_28_COURSE = SEED_003 + "&players=numbers&notation=course"
CUT_ROW = "/connect4?moves=4453&tree=1&mode=human-human"


# -- defect 6: bounds ------------------------------------------------------------------------

def test_a_value_returned_at_or_beyond_the_window_is_a_bound():
    """Seed 003's rule: a max node that finds s_i ≥ β stops: its value is at least β; a node
    that returns at or under α is worth at most that. A leaf's score is its value."""
    inner = Node(1, 0, 3, 1, is_max=False)
    assert bound_of(inner, 11, 11, float("inf")) == "upper"           # ≤ 11
    assert bound_of(inner, 12, float("-inf"), 12) == "lower"          # ≥ 12
    assert bound_of(inner, 5, 0, 11) is None                          # inside: exact
    assert bound_of(inner, 11, None, None) is None                    # minimax: no window
    leaf = Node(2, 1, 1, 2, is_max=True, kind="horizon")
    assert bound_of(leaf, 11, 11, 20) is None


def test_every_cut_move_of_the_row_reads_at_most_11_not_11(client):
    """/connect4?moves=4453&tree=1&mode=human-human: the six moves after the first are cut
    (✂) once 4 gave 11; each reads "≤ 11", its tooltip says it is a bound, the phone's table
    says the same, and the legend says what ≤ means."""
    html = client.get(CUT_ROW).get_data(as_text=True)
    nodes = drawn_nodes(html)
    row = {p: g for p, g in nodes.items() if len(p) == 1}
    cut = {p: g for p, g in row.items() if "✂" in texts(g)}
    assert len(cut) == 6 and "4" not in cut
    for g in cut.values():
        assert texts(g)[0] == "≤ 11", texts(g)
        assert "at most 11: a bound, not its value" in tooltip(g)
    assert texts(row["4"])[0] == "11"
    table = re.search(r'<table class="root-moves">.*?</table>', html, re.S).group(0)
    values = re.findall(r'<tr(?: class="pv")?><th scope="row">(\d)</th><td>(.*?)</td>', table)
    assert dict(values) == {**{p: "≤ 11" for p in cut}, "4": "11"}
    assert "≤ v, ≥ v: a bound, not a value" in one_line(html)


# -- defect 8: one meaning of α and β, none on minimax -----------------------------------------

def test_the_legend_states_the_window_on_entry_and_minimax_trees_have_no_window(client):
    html = client.get(SEED_003).get_data(as_text=True)
    assert "α, β under a node: its window when the search entered it" in one_line(html)
    minimax = client.get(SEED_003.replace("algo=alphabeta", "algo=minimax")).get_data(
        as_text=True)
    svg_text = " ".join(t.text or "" for t in tree_svg(minimax).iter("text"))
    assert "α" not in svg_text and "β" not in svg_text
    assert "window when the search entered" not in one_line(minimax)
    step = client.get(SEED_003.replace("algo=alphabeta", "algo=minimax") + "&step=2",
                      headers=HX).get_data(as_text=True)
    sentence = one_line(re.search(r'class="step-event"[^>]*>(.*?)</p>', step, re.S).group(1))
    assert sentence.startswith("Enter ") and "α" not in sentence, sentence


def test_the_lab_draws_no_window_on_a_minimax_tree_whole_or_step_by_step(client):
    """The lab's minimax, as the game's: α and β are alpha-beta's, never drawn on minimax."""
    for extra in ("", "&step=6"):                 # step 6: the first leaves are scored
        page = client.get("/tree?t=[[3,12,8],[2,4,6],[14,5,2]]&algo=minimax" + extra)
        svg_text = " ".join(t.text or "" for t in tree_svg(page.get_data(as_text=True)).iter("text"))
        assert "3" in svg_text and "α" not in svg_text and "β" not in svg_text, (extra, svg_text)
    alphabeta = client.get("/tree?t=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta")
    assert "α" in " ".join(t.text or "" for t in tree_svg(alphabeta.get_data(as_text=True)).iter("text"))


# -- defect 9: nodes named as drawn ------------------------------------------------------------

def test_the_step_sentence_names_the_node_by_the_matches_drawn_in_it(client):
    """In the course's notation a Nim node shows the matches left: the sentence names it by
    that number (and the move that leads there), not by its path alone."""
    html = client.get(NINE_OF_28_COURSE + "&step=12", headers=HX).get_data(as_text=True)
    sentence = one_line(re.search(r'class="step-event"[^>]*>(.*?)</p>', html, re.S).group(1))
    assert sentence == "min 3 (after 2) returns −M.", sentence
    drawn = drawn_nodes(html)["2"]                     # the node reached by taking 2
    assert texts(drawn)[0] == "3"                      # 5 − 2: three matches, in the circle
    french = client.get(NINE_OF_28_COURSE + "&step=12&lang=fr", headers=HX).get_data(
        as_text=True)
    assert "min 3 (après 2)" in one_line(french)
    deeper = client.get(NINE_OF_28_COURSE + "&step=4", headers=HX).get_data(as_text=True)
    assert "max 0 (after 3, 2)" in one_line(deeper)           # the edges' labels, one by one


# -- defect 5: one notation --------------------------------------------------------------------

def test_the_course_s_notation_writes_every_value_as_the_course_does(client):
    """Depth 3 with the evaluation +maxScore − remaining/total: the leaves at the limit read
    "M − 1/5", never 999.8; wins and losses ±M; M's value stated once in the legend."""
    url = (SEED_003.replace("algo=alphabeta&depth=2", "algo=minimax&depth=3")
           .replace("td=2", "td=3") + "&notation=course")
    html = client.get(url).get_data(as_text=True)
    values = [texts(g)[1] for g in drawn_nodes(html).values() if len(texts(g)) > 1]
    assert values and set(values) <= {"+M", "−M", "M − 1/5", "M − 2/5", "M − 3/5"}, values
    assert "M − 1/5" in values
    page = one_line(html)
    assert "999" not in page
    assert page.count("10,000") == 1 and "M = maxScore" in page


def test_the_notation_is_one_setting_kept_in_every_link(client):
    """Read in one place (web.params), kept in links like the language: a page in the
    course's notation links on in it; the header switches it; a wrong value is a 400 on a
    game page, named and translated."""
    html = client.get("/nim/theory?n=4&notation=course").get_data(as_text=True)
    links = re.findall(r'href="(/[^"]*)"', html)
    inner = [u for u in links if not u.startswith("/static")]
    kept = [u for u in inner if "notation=course" in u]
    assert len(kept) >= len(inner) - 1, [u for u in inner if "notation=course" not in u]
    switch = re.search(r'<a href="([^"]*)"[^>]*data-notation="plies"', html)
    assert switch and "notation=plies" in switch.group(1)
    assert '<input type="hidden" name="notation" value="course">' in html    # its form too
    bad = client.get("/nim?notation=roman&lang=fr")
    assert bad.status_code == 400 and "Notation" in bad.get_data(as_text=True)
    assert client.get("/course?notation=roman").status_code == 200     # elsewhere: the default


def test_every_course_card_opens_in_the_course_s_notation(client):
    html = client.get("/course").get_data(as_text=True)
    cards = re.findall(r'<h3><a href="([^"]*)"', html)
    assert len(cards) >= 15
    assert all("notation=course" in u for u in cards), [u for u in cards
                                                         if "notation=course" not in u]


# -- defect 10: one count ----------------------------------------------------------------------

def test_the_row_s_counts_are_the_table_s(client):
    """"N nodes" under a move is the nodes searched from it, itself included: the number the
    phone's table gives for that move."""
    html = client.get(CUT_ROW).get_data(as_text=True)
    row = {p: g for p, g in drawn_nodes(html).items() if len(p) == 1}
    drawn = {p: int(t.split()[0].replace(",", "")) for p, g in row.items() for t in texts(g)
             if t.endswith(" nodes") or t.endswith(" node")}
    table = re.search(r'<table class="root-moves">.*?</table>', html, re.S).group(0)
    counted = {m: int(n.replace(",", "")) for m, n in re.findall(
        r'<th scope="row">(\d)</th><td>.*?</td><td class="num">([\d,]+)</td>', table)}
    assert len(drawn) == 7 and drawn == counted


# -- defect 4: a value stays inside its node ---------------------------------------------------

def test_a_long_value_is_drawn_smaller_to_stay_inside_its_node():
    assert fit_text("11", 46, 22) == 22
    size = fit_text("−999", 46, 22)
    assert size < 22 and text_width("−999", size) <= 46
    assert text_width("≤ 11", fit_text("≤ 11", 36, 22)) <= 36


def test_the_misere_tree_keeps_its_minus_999_inside_every_node(client):
    """/nim?variant=misere&tree=1&proj=1: "-999" spilled out of every node. Each node is now
    as wide as its value at the projector's 22 px, or the value is drawn smaller to fit.
    (Issue 36: the evaluation's ceiling -999 is written "L", a loss without its plies.)"""
    html = client.get("/nim?variant=misere&tree=1&proj=1").get_data(as_text=True)
    checked = 0
    for g in drawn_nodes(html).values():
        shape = next(e for e in g.iter() if e.get("class") == "node")
        radius = float(shape.get("r") or float(shape.get("width")) / 2)
        for t in g.iter("text"):
            assert t.text != "-999"
            if t.text in ("L", "≤ L") and not t.get("class"):
                scale = re.search(r"scale\(([\d.]+)\)", t.get("transform") or "")
                size = 22 * (float(scale.group(1)) if scale else 1)
                assert text_width(t.text, size) <= 2 * radius - 8 + 0.5, (radius, size)
                checked += 1
    assert checked >= 10


# -- defect 15 ---------------------------------------------------------------------------------

def test_zobrist_keys_are_written_one_way(client):
    """The table page and the step-by-step table both write a key as 4 groups of 4 hex
    digits."""
    page = client.get("/connect4/table?moves=4453&depth=2").get_data(as_text=True)
    keys = re.findall(r'class="hex" translate="no">(?:[=⊕] )?([0-9a-f ]+)</td>', page)
    assert keys and all(re.fullmatch(r"[0-9a-f]{4}( [0-9a-f]{4}){3}", k) for k in keys), keys
    shown = []
    for step in range(1, 8):          # the first steps: the root's probe, a move's XOR
        steps = client.get("/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom"
                           f"&algo=alphabeta-tt&depth=4&order=natural&tree=1&step={step}",
                           headers=HX).get_data(as_text=True)
        shown += re.findall(r'<dd class="key">([^<]*)</dd>', steps)
    assert shown and all(re.fullmatch(r"[0-9a-f]{4}( [0-9a-f]{4}){3}", k) for k in shown)


def test_the_ai_s_summary_gives_a_proven_value_in_the_tree_s_unit(client):
    """"défaite en 2 coups" beside "D4": the summary writes a proven value as the tree does,
    with its unit (plies)."""
    html = client.get("/nim/ai?n=5&moves=1&lang=fr", headers=HX).get_data(as_text=True)
    summary = one_line(re.search(r'id="ai-summary">(.*?)</p>', html, re.S).group(1))
    assert re.search(r"valeur [VD]\d+ \((gagné|perdu) en \d+ demi-coups?\)", summary), summary


def test_the_table_page_s_nim_demonstration_in_the_course_s_notation(client):
    """The 8 matches of the (alpha, beta, depth) demonstration: M − 1/8, not 999.88."""
    page = one_line(client.get("/connect4/table?moves=4453&depth=2&notation=course")
                    .get_data(as_text=True))
    assert "M − 1/8" in page and "999" not in page
