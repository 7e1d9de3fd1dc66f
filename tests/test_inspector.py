"""Issue 13, "the heuristic opened up": each Connect-4 heuristic on a position, term by term,
as the course writes it (/connect4/heuristic), and the terms the page adds up."""
import re
from html import unescape

import pytest

from ai.games.connect4.rules import Connect4
from ai.heuristics import make_heuristic
from ai.games.connect4.heuristic import AdjustedCells, CellValues, Threats
from ai.games.connect4.position import cell_value_terms, columns_of, parse_columns, state_of

GAME = Connect4()

# Seed 000, Figure VIII.1 as the course reads it (web/course.py): o is J0 (yellow), x J1 (red)
#   . . x . . . .
#   . . x o o . .
#   . o x x o . .
#   x o o o x x .
FIGURE_VIII_1 = "2-11-1222-121-211-2-"

# A small example to add up by hand (the moves 3 7 4 7 5): yellow's three in the bottom row
# (columns 3, 4, 5), red's two stones in column 7. Red to move.
#   . . . . . . .
#   . . . . . . x
#   . . o o o . x
SMALL = "--1-1-1--22"


def test_the_course_s_example_is_read_row_by_row_as_the_course_lists_its_terms():
    columns = parse_columns(FIGURE_VIII_1, GAME)
    terms = cell_value_terms(GAME, columns)
    # "h(grille) = [4+5+7+6+8+13+11] - [3+5+4+8+10+11+11] = 2"
    assert terms["j0"] == [4, 5, 7, 6, 8, 13, 11]
    assert terms["j1"] == [3, 5, 4, 8, 10, 11, 11]
    assert terms["h"] == 2 == CellValues(GAME)(state_of(GAME, columns), 0)
    # the grid, top row first: Figure VIII.2's values, with the stones on them
    assert [v for v, _ in terms["grid"][0]] == [3, 4, 5, 7, 5, 4, 3]
    assert terms["grid"][-1] == [(3, 1), (4, 0), (5, 0), (7, 0), (5, 1), (4, 1), (3, None)]


def test_a_position_set_up_by_hand_is_the_state_its_game_reaches():
    columns = parse_columns(FIGURE_VIII_1, GAME)
    reached = GAME.from_moves("44453353532621")
    state = state_of(GAME, columns)
    assert state == reached and state.key == reached.key and state.moves == 14
    assert GAME.to_move(state) == 0


def test_the_adjusted_heuristic_added_up_by_hand():
    # alpha x the cell value, plus each open direction's aligned count squared:
    #   yellow col 3 (cell 5): horizontal 2 (cols 4, 5) -> 4; vertical 0; the diagonal up
    #     to the right 0; the other diagonal leaves no room for four (blocked) -> 0.
    #   yellow col 4 (cell 7): horizontal 2 -> 4; the rest 0.
    #   yellow col 5 (cell 5): horizontal 2 -> 4; the rest 0 (one diagonal blocked).
    #   red col 7, bottom (cell 3): horizontal blocked by yellow's col 5 (room for 2);
    #     vertical 1 (the red above) -> 1; diagonals 0 (one blocked).
    #   red col 7, above (cell 4): vertical 1 -> 1; the rest 0.
    # yellow: alpha x (5 + 7 + 5) + 12, red: alpha x (3 + 4) + 2, so 10 alpha + 10.
    columns = parse_columns(SMALL, GAME)
    state = state_of(GAME, columns)
    assert state == GAME.from_moves("37475")
    for alpha, expected in ((0.2, 12.0), (0.5, 15.0), (0, 10.0)):
        h = AdjustedCells(GAME, alpha=alpha)
        assert h(state, 0) == pytest.approx(expected)
        assert h(state, 1) == pytest.approx(-expected)
    stones = AdjustedCells(GAME).stones(state, 0)
    assert [(s["column"], s["row"], s["sign"]) for s in stones] == [
        (2, 0, 1), (3, 0, 1), (4, 0, 1), (6, 0, -1), (6, 1, -1)]
    assert stones[0]["lines"] == ((2, True), (0, True), (0, True), (0, False))
    assert stones[3]["lines"] == ((0, False), (1, True), (0, False), (0, True))
    assert [s["base"] for s in stones] == [5, 7, 5, 3, 4]
    assert sum(s["sign"] * s["value"] for s in stones) == pytest.approx(12.0)


def test_alpha_is_the_adjusted_heuristic_s_setting_and_the_default_is_the_report_s():
    assert AdjustedCells(GAME).alpha == 0.2
    assert make_heuristic(GAME, "adjusted", alpha=0.5).alpha == 0.5
    assert isinstance(make_heuristic(GAME, "cells", alpha=0.5), CellValues)   # not its setting
    with pytest.raises(ValueError):
        AdjustedCells(GAME, alpha=-1)


# -- the page ----------------------------------------------------------------------------------

def page(client, query):
    r = client.get("/connect4/heuristic?" + query)
    return r.status_code, r.get_data(as_text=True)


def number(text: str) -> float:
    """A number as the page writes it (French: 12,6; a minus sign −) back to a float."""
    return float(unescape(text).replace("\u2212", "-").replace("\u202f", "").replace(",", "."))


def total(html: str) -> float:
    return number(re.search(r'<strong class="total">([^<]*)</strong>', html).group(1))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_inspector_on_the_course_s_example_writes_h_as_the_course_does(client, lang):
    status, html = page(client, f"board={FIGURE_VIII_1}&lang={lang}&proj=1")
    assert status == 200
    formula = re.search(r'<p class="formula inspect-formula"[^>]*>(.*?)</p>', html).group(1)
    assert formula == ("h(grille) = [4+5+7+6+8+13+11] − [3+5+4+8+10+11+11] = "
                       "<strong>2</strong>")
    # Figure VIII.2 with the stones on it: the bottom row's cells, yellow's counted +
    grid = re.search(r'<table class="rated-grid inspect-grid.*?</table>', html, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", grid, re.S)
    assert re.findall(r"<td>(\d+)</td>", rows[0]) == ["3", "4", "5", "7", "5", "4", "3"]
    bottom = [re.sub(r"<span[^>]*>.*?</span>", "", cell)
              for cell in re.findall(r"<td[^>]*>(.*?)</td>", rows[-1])]
    assert bottom == ["−3", "+4", "+5", "+7", "−5", "−4", "3"]


def test_from_red_s_side_every_value_is_the_opposite(client):
    _, html = page(client, f"board={FIGURE_VIII_1}&side=1&lang=fr")
    formula = re.search(r'<p class="formula inspect-formula"[^>]*>(.*?)</p>', html).group(1)
    assert formula == ("−h(grille) = [3+5+4+8+10+11+11] − [4+5+7+6+8+13+11] = "
                       "<strong>−2</strong>")
    assert "Valeurs pour les rouges (J1)" in html


@pytest.mark.parametrize("board, moves", [(SMALL, "37475"), (FIGURE_VIII_1, "44453353532621"),
                                          ("--2-121-12-1-2", None), ("", "")])
@pytest.mark.parametrize("alpha", ["0.2", "0,5", "1.25", "0"])
@pytest.mark.parametrize("side", [0, 1])
def test_the_adjusted_page_adds_up_to_the_heuristic(client, board, moves, alpha, side):
    status, html = page(client, f"board={board}&heur=adjusted&alpha={alpha}&side={side}&lang=fr")
    assert status == 200
    state = state_of(GAME, parse_columns(board, GAME))
    if moves is not None:
        assert state == GAME.from_moves(moves)
    h = AdjustedCells(GAME, alpha=number(alpha))
    assert total(html) == pytest.approx(h(state, side), abs=1e-9)
    # one row per stone, each with its 4 directions
    rows = re.findall(r'<tr class="p[01]">(.*?)</tr>', html, re.S)
    assert len(rows) == bin(state.mask).count("1")


def test_the_adjusted_page_on_the_small_example_shows_the_hand_computed_terms(client):
    _, html = page(client, f"board={SMALL}&heur=adjusted&alpha=0.5&lang=fr")
    rows = re.findall(r'<tr class="p[01]">(.*?)</tr>', html, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in rows]
    clean = [[re.sub(r"<[^>]+>", "", c) for c in row] for row in cells]
    # yellow, column 3: cell 5, α × 5 = 2,5, horizontal 2² = 4, vertical 0, diagonal 0,
    # the other diagonal blocked (✕, read out "bloqué : 0"), 2,5 + 4 = 6,5
    assert clean[0] == ["5", "2,5", "2² = 4", "0", "0", "✕bloqué\u202f: 0", "+6,5"]
    # red, column 7, bottom: cell 3, horizontal blocked, vertical 1² = 1: 1,5 + 1 = 2,5
    blocked = "✕bloqué\u202f: 0"
    assert clean[3] == ["3", "1,5", blocked, "1² = 1", blocked, "0", "−2,5"]
    assert total(html) == 15.0                     # 10 α + 10 with α = 0.5


@pytest.mark.parametrize("board", [SMALL, FIGURE_VIII_1, "--2-121-12-1-2"])
@pytest.mark.parametrize("side", [0, 1])
def test_the_threats_page_adds_its_windows_up_to_the_heuristic(client, board, side):
    _, html = page(client, f"board={board}&heur=threats&side={side}")
    state = state_of(GAME, parse_columns(board, GAME))
    assert total(html) == Threats(GAME)(state, side)
    rows = re.findall(r'<table class="windows-table">.*?<tbody>(.*?)</tbody>', html, re.S)[0]
    assert len(re.findall(r"<tr>", rows)) == 4     # windows of 1, 2, 3 stones; the centre


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("heur", ["cells", "adjusted", "threats"])
def test_each_heuristic_s_page_answers_in_both_languages(client, lang, heur):
    status, html = page(client, f"board={FIGURE_VIII_1}&heur={heur}&lang={lang}&proj=1")
    assert status == 200 and f'lang="{lang}"' in html
    assert html.count("<h1>") == 1
    # its links keep the language and projector mode
    section = re.search(r'<section id="inspector".*?</section>', html, re.S).group(0)
    for url in re.findall(r'href="(/connect4/heuristic\?[^"]*)"', section):
        assert f"lang={lang}" in url and "proj=1" in url


@pytest.mark.parametrize("query, message", [
    ("board=xyz", "la grille a 7 colonnes, pas 1"),
    ("board=3------", "colonne 1\u202f: un pion est 1 (jaune) ou 2 (rouge), pas '3'"),
    ("board=2------", "les jaunes commencent"),
    ("board=&heur=adjusted&alpha=abc",
     "α (heuristique ajustée)\u202f: un nombre de 0 à 10 (par exemple 0,2), pas «\u202fabc\u202f»"),
    ("board=&alpha=-1", "un nombre de 0 à 10"),
    ("board=&alpha=11", "un nombre de 0 à 10"),
    ("board=&alpha=0.0001", "un nombre de 0 à 10"),
    ("board=&heur=nope", "Heuristique\u202f: l’une de ces valeurs, threats, cells, adjusted"),
    ("board=&side=2", "Du côté de"),
    ("board=&w=3", "de 4 à 9"),
])
def test_a_wrong_link_is_a_400_that_says_why_in_the_page_s_language(client, query, message):
    status, html = page(client, query + "&lang=fr")
    assert status == 400
    assert message in unescape(re.search(r'role="alert">(.*?)</p>', html).group(1))


def test_the_editor_opens_its_position_in_the_inspector(client):
    html = client.get(f"/connect4/edit?board={FIGURE_VIII_1}&lang=fr").get_data(as_text=True)
    url = unescape(re.search(r'href="(/connect4/heuristic\?[^"]*)"', html).group(1))
    assert url == f"/connect4/heuristic?board={FIGURE_VIII_1}&lang=fr"
    assert client.get(url).status_code == 200


def test_the_course_s_heuristic_cards_open_the_inspector(client):
    html = client.get("/course?lang=fr&proj=1").get_data(as_text=True)
    urls = [unescape(u) for u in re.findall(r'href="(/connect4/heuristic\?[^"]*)"', html)]
    assert len(urls) == 4 and any("heur=adjusted" in u for u in urls)
    for url in urls:
        assert "lang=fr" in url and "proj=1" in url
        r = client.get(url)
        assert r.status_code == 200
    course_example = next(u for u in urls if f"board={FIGURE_VIII_1}" in u)
    assert "[4+5+7+6+8+13+11] − [3+5+4+8+10+11+11] = <strong>2</strong>" in \
        client.get(course_example).get_data(as_text=True)


@pytest.mark.parametrize("moves, heur", [("4453", "cells"), ("445", "adjusted")])
def test_a_leaf_of_the_tree_opens_the_inspector_on_its_position_with_the_same_value(
        client, moves, heur):
    # minimax to depth 2 (7 x 7 leaves): small enough to be drawn whole. After 4 4 5 red is
    # the root player: the tree's values are red's, and so are the inspector's (side=1).
    html = client.get(f"/connect4?moves={moves}&mode=human-human&level=custom&algo=minimax"
                      f"&depth=2&heur={heur}&alpha=0.5&tree=1&lang=fr").get_data(as_text=True)
    leaves = [re.search(r'data-path="(\d+)".*<a class="inspect" href="([^"]*)">.*?'
                        r'<text x="[^"]*" y="[^"]*">([^<]*)</text>', node, re.S).groups()
              for node in html.split('<g class="tnode')[1:] if 'class="inspect"' in node]
    assert len(leaves) == 49 and {len(path) for path, _, _ in leaves} == {2}
    for path, url, shown in leaves[::8]:
        url = unescape(url)
        assert (f"heur={heur}" in url) == (heur != "cells")       # cells: the default
        assert ("alpha=0.5" in url) == (heur == "adjusted")
        assert ("side=1" in url) == (len(moves) % 2 == 1)
        page_html = client.get(url).get_data(as_text=True)
        value = re.search(r'<tr class="on"><th scope="row">.*?<td class="num">([^<]*)</td>',
                          page_html, re.S).group(1)
        assert number(value) == pytest.approx(number(shown)), (path, url)


def test_alpha_is_a_setting_of_a_custom_level_kept_in_its_links(client):
    html = client.get("/connect4?moves=4453&level=custom&algo=alphabeta&depth=3&heur=adjusted"
                      "&alpha=0,5&tree=1").get_data(as_text=True)
    assert 'name="alpha" min="0" max="10" step="0.001" value="0.5"' in html
    assert "alpha=0.5" in unescape(re.search(r'href="(/connect4/compare\?[^"]*)"', html).group(1))
    r = client.get("/connect4?moves=4453&level=custom&heur=adjusted&alpha=x&lang=fr")
    assert r.status_code == 400 and 'id="error-alpha"' in r.get_data(as_text=True)
