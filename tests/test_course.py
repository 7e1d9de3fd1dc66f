"""Issue 13: /course, the course's figures one click away, each opening the app in its state."""
import re
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

from ai.games.connect4.rules import Connect4
from ai.games.connect4.heuristic import CellValues


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


# -- issue 21: every card opens what it is about -------------------------------------------------

def cards(client, lang="en"):
    """(title, [its links]) for every card of /course, the title's link first."""
    html = client.get(f"/course?lang={lang}").get_data(as_text=True)
    found = []
    for card in re.split(r'<article class="figure-card"[^>]*>', html)[1:]:
        title = re.search(r"<h3><a [^>]*>(.*?)</a>", card).group(1)
        links = [u.replace("&amp;", "&") for u in
                 re.findall(r'<h3><a href="([^"]*)"', card) + re.findall(r'<a class="button" href="([^"]*)"', card)]
        found.append((title, links))
    return found


STEP_0 = ["step 0 of", "is searching: its move appears at the last step of the replay"]
# What each card's page shows, as a teacher checks it: its figure's words, position or replay.
CARD_PAGES = {
    "Listing VIII.1 – the Nim tree (N = 4) as a dictionary": ["max_4-0", "15 nodes"],
    "Labelling the tree with minmax (N = 4)": ["4 matches, J0 to move: +1"],
    "Minmax with a heuristic, depth-limited": ["minimax explored 400 of 400 nodes · depth 3"],
    "Figure VIII.2 – the “rated” Connect-4 grid": ["J0 to play."],        # and its position, below
    "Figure VIII.1 – a game in progress: h(grille) = 2": ["7 yellow stones, 7 red stones."],
    "The MiniMax procedure, step by step": STEP_0 + ["minimax, step by step: 0 of 28 nodes"],
    "Alpha-beta, the same way": STEP_0 + ["alpha-beta, step by step: 0 of 28 nodes"],
    "O(b^m): the tree grows with the depth": ["O(b^m)"],
    "The same growth on a real position": ["minimax", "alpha-beta"],
    "The agent: perceive, decide, act": ["AI Yellow is thinking"],
    "Tic-tac-toe (le morpion): the whole tree": [
        "The whole game tree from here, to the end of the game: 6,812 nodes.",
        "alpha-beta + table", "exact solver, to the end of the game"],
    "The game of 11 matches": ["11 matches left", "Viewing move 0 of 5.", "Next move"],
    "The tree of dimension 5 and its MIN-MAX values": ["explored 28 of 28 nodes"],
    "Dimension 20: more than 250,000 nodes": ["266,079 nodes"],
    "Depth 3 with the evaluation +maxScore − remaining/total": ["minimax explored 22 of 28 nodes · depth 3"],
    "Alpha-beta on the tree of dimension 5": ["alpha-beta explored 12 of 28 nodes"],
    "Depth limit and pruning: 9 nodes of 28": ["explored 9 of 28 nodes"],
    "A computable game: the multiples of 4 lose": ["8 matches, J0 to move: −1"],
    "Misère Nim": ["Whoever takes the last match loses (misère)."],
    "The adjusted heuristic": ["alpha-beta explored", "depth 5"],
    "Alpha-beta with memory and Zobrist keys": ["Zobrist"],
    "The table step by step: keys, slots, probes and hits": ["alpha-beta + table, step by step: 0 of"],
    "Why a table of (alpha, beta, depth) did not work": ["Zobrist"],
}


def test_every_link_of_every_card_opens_what_the_card_is_about(client, monkeypatch):
    # The clock stands still: only the searches' node budgets stop them. With the wall clock
    # running 10 times too fast (a machine that busy), the adjusted heuristic's card, 4,698
    # nodes recorded in some 0.2 s of CPU, ran out of its 1 s (its time=MAX_TIME_MS, 0d9ae50)
    # and did not say "alpha-beta explored".
    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)
    found = cards(client)
    assert {title for title, _ in found} == set(CARD_PAGES)     # a new card needs its check
    for title, links in found:
        main, *others = links
        assert others and others[0] == main, title     # "Open in the app" = the title's link
        page = client.get(main)
        assert page.status_code == 200, (title, main)
        shown = text_of(page.get_data(as_text=True))
        for words in CARD_PAGES[title]:
            assert words in shown, (title, words)
        for link in others[1:]:          # the heuristic opened up, the tree as an exercise,
            assert client.get(link).status_code == 200, (title, link)   # step by step
            assert link.startswith(("/connect4/heuristic?", "/tree?")) or (
                "step=0" in link and "step=0" not in main), (title, link)
    exercises = {title: link for title, links in found for link in links if "/tree?" in link}
    assert len(exercises) == 4
    for title, link in exercises.items():           # the card's tree, asked, nothing answered
        page = text_of(client.get(link).get_data(as_text=True))
        assert "Your turn" in page and "right so far" not in page, title
    page = text_of(client.get(exercises["Depth limit and pruning: 9 nodes of 28"]).get_data(
        as_text=True))
    assert "depth 2 with +maxScore − remaining/5" in page and "12 nodes" in page


def board_discs(html: str) -> tuple[int, int]:
    board = re.search(r'<table class="board.*?</table>', html, re.S).group(0)
    return board.count('class="disc p0"'), board.count('class="disc p1"')


def test_figure_viii_2_opens_the_course_s_position_not_an_empty_board(client):
    link = dict(cards(client))["Figure VIII.2 – the “rated” Connect-4 grid"][0]
    html = client.get(link).get_data(as_text=True)
    assert board_discs(html) == (7, 7)                  # J0's 7 stones and J1's 7 (Fig. VIII.1)
    assert "moves=44453353532621" in link and "heur=cells" in link


def test_the_game_of_11_matches_replays_3_2_2_1_3_and_player_1_wins(client):
    # seed 003: "le joueur 1 retire 3 allumettes ... le joueur 1 retire 3 allumettes: fin du
    # jeu, le joueur 1 gagne"
    link = dict(cards(client))["The game of 11 matches"][0]
    left, said = [], []
    html = client.get(link).get_data(as_text=True)
    for _ in range(6):
        left.append(int(re.search(r'<p class="count"><strong>(\d+)</strong>', html).group(1)))
        said.append(text_of(re.search(r'<p class="count">.*?</p>', html, re.S).group(0)).strip())
        nxt = re.search(r'<a class="button primary" href="([^"]*)"[^>]*>Next move', html)
        if not nxt:
            break
        html = client.get(nxt.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert left == [11, 8, 6, 4, 3, 0]
    assert said[1:] == ["8 matches left · Player 1 took 3", "6 matches left · Player 2 took 2",
                        "4 matches left · Player 1 took 2", "3 matches left · Player 2 took 1",
                        "0 matches left · Player 1 took 3"]
    assert "Player 1 wins!" in text_of(re.search(r'<p class="status".*?</p>', html, re.S).group(0))


def test_a_card_about_the_steps_opens_at_step_0_with_nothing_of_the_ai_s_move(client):
    steps = [(t, links[0]) for t, links in cards(client, "fr") if "step=0" in links[0]]
    assert len(steps) == 3
    for title, link in steps:
        html = client.get(link).get_data(as_text=True)
        board = html[html.index('id="board-wrap"'):html.index('class="side"')]
        assert "en a pris" not in board and "étape 0 sur" in html, title
    # the replay's last step shows the AI's move on the board (sent with the tree, htmx)
    link = next(link for title, link in steps if "minimax" in link)
    tree = link.replace("/nim?", "/nim/tree?")
    last = re.search(r"étape 0 sur (\d+)", client.get(link).get_data(as_text=True)).group(1)
    before = client.get(tree.replace("step=0", f"step={int(last) - 1}"),
                        headers={"HX-Request": "true"}).get_data(as_text=True)
    after = client.get(tree.replace("step=0", f"step={last}"),
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="board-wrap" hx-swap-oob="true"' in before and "en a pris" not in before
    assert "5 allumettes restantes" in text_of(before)
    assert "4 allumettes restantes · IA (J0) en a pris 1" in text_of(after)


def test_the_thumbnails_draw_the_question_not_the_answer(client):
    html = client.get("/course?lang=en").get_data(as_text=True)
    thumbs = [u.replace("&amp;", "&") for u in re.findall(r'<img src="([^"]*)"', html)]
    assert len(thumbs) == 9 and all(u.startswith("/course/") for u in thumbs)
    for url in thumbs:
        r = client.get(url)
        svg = re.sub(r"<style>.*?</style>", "", r.get_data(as_text=True), flags=re.S)
        assert r.status_code == 200 and r.mimetype == "image/svg+xml", url
        assert svg.count('class="tnode') >= 4, url
        for answer in ('class="val', "α", "β", "✂", "pruned", " pv", "+M", "W1", "L1", "None"):
            assert answer not in svg, (url, answer)
    # the tree of dimension 5: its 28 states, each with its matches left
    five = next(u for u in thumbs if "algo=minimax&depth=5" in u and "players=numbers" in u)
    svg = client.get(five).get_data(as_text=True)
    assert svg.count('class="tnode') == 28
    assert re.findall(r'<text class="name"[^>]*>(\d)</text>', svg)[0] == "5"


def test_an_edited_thumbnail_link_is_a_400_in_words_never_a_500(client):
    for url, says in [("/course/nim/figure.svg?n=abc", "Matches: a whole number from 1 to 99"),
                      ("/course/nim/figure.svg?n=5&moves=5", "cannot take 5 matches"),
                      ("/course/nim/figure.svg?n=5&path=9", "no child '9' was searched there"),
                      ("/course/connect4/figure.svg?level=perfect",
                       "the exact solver chose this move")]:
        r = client.get(url)
        assert r.status_code == 400 and says in r.get_data(as_text=True), url


# The Connect-4 tree cards whose search is too large to replay (a rehearsal found no step by
# step there, so no question on the next step): depth 3's 400 nodes and the adjusted
# heuristic's 4,698 are drawn folded; each card's third link replays the same position, the
# same search and heuristic, at depth 2, a tree drawn whole.
STEPPED_AT_DEPTH_2 = {"Minmax with a heuristic, depth-limited": ("minimax", 57, 114),
                      "The adjusted heuristic": ("alpha-beta", 57, 94)}


def test_the_large_connect4_trees_cards_step_through_the_same_search_at_depth_2(client):
    found = dict(cards(client))
    for title, (algo, nodes, steps) in STEPPED_AT_DEPTH_2.items():
        main, *others = found[title]
        assert 'class="stepper"' not in client.get(main).get_data(as_text=True), title
        link = next(u for u in others if "step=0" in u)
        query = lambda url: dict(parse_qsl(urlsplit(url).query))      # noqa: E731
        assert query(link) == {**query(main), "depth": "2", "step": "0"}, title
        assert urlsplit(link).path == urlsplit(main).path == "/connect4"
        page = text_of(client.get(link).get_data(as_text=True))
        assert f"{algo}, step by step: 0 of {nodes} nodes explored so far" in page, title
        assert f"step 0 of {steps}" in page and "Before the search: press forward." in page
        # the step control: forward enters the root, back returns to step 0
        tree = link.replace("/connect4?", "/connect4/tree?")
        one = text_of(client.get(tree.replace("step=0", "step=1"), headers={"HX-Request": "true"})
                      .get_data(as_text=True))
        assert f"step 1 of {steps}" in one and "Enter max (root)" in one, title
        assert f"{algo}, step by step: 1 of {nodes} nodes explored so far" in one


def test_a_class_can_be_asked_the_next_step_on_the_large_connect4_trees_cards(make_app):
    from test_classroom import start_class
    app = make_app()
    links = dict(cards(app.test_client()))
    for title in STEPPED_AT_DEPTH_2:
        link = next(u for u in links[title] if "step=0" in u).replace("step=0", "step=1")
        teacher, code, _ = start_class(app, link)
        page = text_of(teacher.get(f"{link}&cls={code}&proj=1").get_data(as_text=True))
        assert "Ask the class about the next step" in page, title
        asked = text_of(teacher.post(f"/class/{code}/ask", data={"kind": "move"},
                                     headers={"HX-Request": "true"}).get_data(as_text=True))
        assert "Which move does the search try next at max (root)?" in asked, title


def test_a_tree_drawn_folded_says_why_it_has_no_step_by_step_and_links_one_drawn_whole(
        client, monkeypatch):
    # the clock stands still, as in the check of every card: the adjusted heuristic's 4,698
    # nodes are stopped by no budget but their own (a search its clock cut short says so
    # instead of why it has no step by step)
    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)
    found = dict(cards(client, "fr"))
    main = found["Algorithme minmax avec fonction heuristique (profondeur limitée)"][0]
    html = client.get(main).get_data(as_text=True)
    # (text_of reads the narrow no-break spaces, U+202F, as spaces)
    assert ("Pas de pas à pas ici : un pas à pas dessine tous les sommets de l’arbre, "
            "60 au plus, et celui-ci en a 400.") in text_of(html)
    why = re.search(r'<p class="stepper-why">.*?</p>', html, re.S).group(0)
    link = re.search(r'<a class="button" href="([^"]*)"', why).group(1).replace("&amp;", "&")
    assert "Pas à pas, profondeur 2" in why
    query = lambda url: dict(parse_qsl(urlsplit(url).query))      # noqa: E731
    assert query(link) == {**query(main), "depth": "2", "step": "0"}
    assert "étape 0 sur 114" in text_of(client.get(link).get_data(as_text=True))
    # the adjusted heuristic's tree: its pruned nodes are drawn too, 6,118 with its 4,698
    main = found["L’heuristique ajustée"][0]
    shown = text_of(client.get(main).get_data(as_text=True))
    assert "et celui-ci en a 6 118." in shown and "Pas à pas, profondeur 2" in shown
    # the search behind a move the AI played at depth 3: why, and no depth 2, which would
    # not be the search behind that move; nor for a preset level's
    for link in ("/connect4?moves=4453&mode=human-ai&level=custom&algo=minimax&depth=3&tree=1",
                 "/connect4?moves=4453&mode=human-human&level=medium&tree=1"):
        html = client.get(link + "&lang=fr").get_data(as_text=True)
        why = re.search(r'<p class="stepper-why">.*?</p>', html, re.S).group(0)
        assert "Pas de pas à pas ici" in why and "<a " not in why, link
    # a tree replayed step by step has its stepper, not the sentence
    html = client.get(found["Algorithme minmax avec fonction heuristique (profondeur limitée)"][0]
                      .replace("depth=3", "depth=2")).get_data(as_text=True)
    assert "Pas à pas" in html and 'class="stepper-why"' not in html
