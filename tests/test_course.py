"""Issue 13: /course, the course's figures one click away, each opening the app in its state."""
import re

import pytest

from ai.connect4 import Connect4
from ai.heuristics import CellValues


@pytest.fixture
def page(client):
    return client.get("/course?lang=fr&proj=1").get_data(as_text=True)


def links(html):
    return [u.replace("&amp;", "&") for u in re.findall(r'<h3><a href="([^"]*)"', html)]


def test_every_chapter_of_the_course_has_its_figures(page):
    chapters = re.findall(r"<h2 id=\"chapter-\d+\">(.*?)</h2>", page)
    assert len(chapters) == 5                       # seeds 000 to 004
    assert "Algorithme minmax – utilisation d’une heuristique (cours, chapitre minmax)" in chapters
    assert len(links(page)) >= 18


def test_every_figure_opens_in_the_page_s_language_and_projector_mode(client, page):
    for url in links(page):
        assert "lang=fr" in url and "proj=1" in url, url
        assert client.get(url).status_code == 200, url


def test_the_figures_numbers_are_computed_by_the_app(page):
    # Listing VIII.1's first key, as the course prints it
    assert "&#39;max_4-0&#39;: [&#39;min_3-2&#39;, &#39;min_2-11&#39;, &#39;min_1-16&#39;]" in page
    # Figure VIII.1: h(grille) = 2, from the position's own stones
    formula = re.search(r'<p class="formula"[^>]*>(.*?)</p>', page).group(1)
    assert formula.endswith("= 54 − 52 = <strong>2</strong>")
    state = Connect4().from_moves("44412625353533")
    assert CellValues(Connect4())(state, 0) == 2
    # seed 003: "plus de 250'000" nodes for 20 matches
    assert re.search(r'<p class="big-number">266\u202f079</p>', page)
    # Figure VIII.2: the rated grid, centre value 13
    grid = re.search(r'<table class="rated-grid".*?</table>', page, re.S).group(0)
    assert re.findall(r"<td>(\d+)</td>", grid)[:7] == ["3", "4", "5", "7", "5", "4", "3"]


def test_the_9_of_28_figure_opens_the_course_s_tree(client, page):
    url = next(u for u in links(page) if "algo=alphabeta" in u and "depth=2" in u and "step" not in u)
    html = client.get(url).get_data(as_text=True)
    assert "alpha-bêta a exploré 9 sommets sur 28" in html


def test_the_course_is_linked_from_home_and_every_page(client):
    for url in ["/", "/connect4", "/nim/theory", "/tree"]:
        assert 'href="/course' in client.get(url).get_data(as_text=True), url


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# Each figure's own numbers or words, as the page its card opens shows them (not only the card's
# picture): a teacher who clicks must find the figure there.
FIGURE_WORDS = {
    "Listing VIII.1 – the Nim tree (N = 4) as a dictionary": ["max_4-0", "15 nodes"],
    "Labelling the tree with minmax (N = 4)": ["4 matches, J0 to move: +1"],
    "Figure VIII.1 – a game in progress: h(grille) = 2": [
        "[4+5+7+6+8+13+11] − [3+5+4+8+10+11+11]", "= 2"],
    "The tree of dimension 5 and its MIN-MAX values": ["explored 28 of 28 nodes"],
    "Dimension 20: more than 250,000 nodes": ["266,079 nodes"],
    "Depth limit and pruning: 9 nodes of 28": ["explored 9 of 28 nodes"],
    "A computable game: the multiples of 4 lose": ["8 matches, J0 to move: −1"],
}


def test_each_figure_s_page_shows_the_figure_s_numbers(client):
    html = client.get("/course?lang=en").get_data(as_text=True)
    cards = {title: url.replace("&amp;", "&")
             for url, title in re.findall(r'<h3><a href="([^"]*)"[^>]*>(.*?)</a>', html)}
    for title, words in FIGURE_WORDS.items():
        page = client.get(cards[title]).get_data(as_text=True)
        shown = text_of(page) + " ".join(re.findall(r"<title>([^<]*)</title>", page))
        for w in words:
            assert w in shown, (title, w)


def test_the_heuristic_cards_open_the_inspector_on_the_course_s_figures(client):
    html = client.get("/course?lang=en").get_data(as_text=True)
    inspector = {}
    for card in html.split('<article class="figure-card"')[1:]:
        title = re.search(r"<h3><a [^>]*>(.*?)</a>", card).group(1)
        link = re.search(r'<a class="button" href="(/connect4/heuristic[^"]*)"', card)
        if link:
            inspector[title] = link.group(1).replace("&amp;", "&")
    assert len(inspector) == 4
    page = client.get(inspector["Figure VIII.2 – the “rated” Connect-4 grid"]).get_data(as_text=True)
    grid = text_of(re.sub(r'<span class="sr-only">[^<]*</span>', "", page))   # "red", "yellow"
    # Figure VIII.2's rows, top to bottom, in the page's grid of cell values
    for row in ("3 4 5 7 5 4 3", "4 6 8 10 8 6 4", "5 8 11 13 11 8 5"):
        assert row in re.sub(r"[+−-]", "", grid), row
    adjusted = text_of(client.get(inspector["The adjusted heuristic"]).get_data(as_text=True))
    assert "α = 0.2" in adjusted


def test_the_chapters_name_the_players_as_the_course_does(client):
    html = client.get("/course?lang=fr").get_data(as_text=True)
    cards = {title: url.replace("&amp;", "&")
             for url, title in re.findall(r'<h3><a href="([^"]*)"[^>]*>(.*?)</a>', html)}
    minmax = cards["Algorithme minmax avec fonction heuristique (profondeur limitée)"]
    min_max = cards["L’arbre de dimension 5 et ses valeurs MIN-MAX"]
    assert "players=j" in minmax and "players=numbers" in min_max
    assert "Vous (J0)" in text_of(client.get(minmax.replace("mode=human-human", "mode=human-ai"))
                                   .get_data(as_text=True))
    page = text_of(client.get(min_max).get_data(as_text=True))
    assert "IA (Joueur 1) en a pris 1" in page


def test_a_naming_the_game_does_not_have_is_refused_in_the_page_s_language(client):
    r = client.get("/nim?players=colours&lang=fr")         # matches have no colour
    assert r.status_code == 400
    assert "Noms des joueurs" in text_of(r.get_data(as_text=True))
    assert client.get("/connect4?players=colours&lang=fr").status_code == 200
