"""The tournament's page (/connect4/tournament, web.tournament.page): the link holds
the tournament; the page shows the standings, crosstable and games the engine gives; every
game links to its review and to its moves, each move to the game page at that move with the
tree on and the mover's settings, whose panel re-runs the search behind that move; the
workshop links to it; bad input and oversized tournaments are a translated 400.
"""
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from ai.games.connect4 import tournament as T
from responses import hrefs, text_of

LINK = ("/connect4/tournament?e=Ada:cells=1,open3=8&e=Cy:center=1&boss=beginner"
        "&depth=3&openings=2")


@pytest.fixture(scope="module")
def expected():
    return T.run([T.entrant("Ada:cells=1,open3=8"), T.entrant("Cy:center=1"),
                  T.boss("beginner")], 3, 2)


def test_the_page_shows_the_engines_standings_and_every_game(client, expected):
    r = client.get(LINK)
    assert r.status_code == 200
    page = text_of(r)
    names = [row["name"] for row in expected["standings"]]
    order = [page.index(f">{n}<") if n != "beginner" else page.index("tn-boss") for n in names]
    assert order == sorted(order)                        # in the standings' order
    for row in expected["standings"]:
        assert f"{row['W']}-{row['D']}-{row['L']}" in page
    reviews = hrefs(r, "/connect4/review")
    assert {parse_qs(urlsplit(h).query)["moves"][0] for h in reviews} == {
        g["moves"] for g in expected["games"]}
    assert len(re.findall(r'href="[^"]*game=\d+#game"', r.get_data(as_text=True))) == len(
        expected["games"]) == 12
    assert "34" in page and "24" in page                 # the openings, shown


def test_a_games_moves_open_the_game_page_with_the_movers_tree(client, expected):
    n = next(i for i, g in enumerate(expected["games"], 1)
             if g["first"] == "Ada" and g["second"] == "beginner")
    g = expected["games"][n - 1]
    r = client.get(LINK + f"&game={n}")
    assert r.status_code == 200
    links = hrefs(r, "/connect4?")
    moves = [h for h in links if "tree=1" in h]
    assert len(moves) == len(g["moves"]) - len(g["opening"])
    first = parse_qs(urlsplit(moves[0]).query)
    assert first["heur"] == ["cells=1,open3=8"] and first["depth"] == ["3"]
    assert first["level"] == ["custom"] and first["mode"] == ["ai-human"]
    second = parse_qs(urlsplit(moves[1]).query)
    assert second["level"] == ["beginner"] and second["mode"] == ["human-ai"]
    # the game page's panel draws the search behind Ada's first move: it chose that move
    page = client.get(moves[0])
    assert page.status_code == 200
    assert 'class="tree-svg' in page.get_data(as_text=True)
    assert "The search behind the AI's last move" in text_of(page)
    from ai.levels import Level
    level = Level("custom", "alphabeta", 3, 1.0, 400_000, order="center", fast=False,
                  heuristic="cells=1,open3=8")
    state = T.GAME.from_moves(g["opening"])
    assert level.play(T.GAME, state).move + 1 == int(g["moves"][2])


def test_the_same_link_gives_the_same_page(client):
    a, b = client.get(LINK).get_data(as_text=True), client.get(LINK).get_data(as_text=True)
    strip = lambda s: re.sub(r'name="csrf[^>]*>', "", s)   # noqa: E731
    assert strip(a) == strip(b)


def test_no_entrant_is_an_introduction_with_an_example(client):
    r = client.get("/connect4/tournament")
    assert r.status_code == 200
    example = hrefs(r, "/connect4/tournament?e=")[0]
    assert client.get(example).status_code == 200


def test_the_workshop_links_to_a_tournament_of_its_heuristic(client):
    r = client.get("/connect4/workshop?h=cells=1,open3=8")
    link = hrefs(r, "/connect4/tournament?")[0]
    q = parse_qs(urlsplit(link).query)
    assert q["e"][0].endswith(":cells=1,open3=8") and q["boss"] == ["beginner", "easy"]
    assert client.get(link).status_code == 200


@pytest.mark.parametrize("query, words", [
    ("e=Ada:cells=1", "at least two"),
    ("e=Ada&boss=easy", "colon"),
    ("e=Ada:open3=x&boss=easy", "must be a number"),
    ("e=Ada:cells=1&boss=perfect", "one of"),
    ("e=Ada:cells=1&e=ada:cells=2", "Two entrants"),
    ("e=Ada:cells=1&boss=easy&depth=9", "from 1 to 6"),
    ("e=Ada:cells=1&boss=easy&openings=13", "from 1 to 12"),
    ("e=Ada:cells=1&boss=easy&game=99", "from 0 to"),
    ("&".join(f"e=P{i}:cells={i}" for i in range(13)), "At most 12"),
    ("&".join(f"e=P{i}:cells={i}" for i in range(7)) + "&openings=4", "command line"),
])
def test_bad_input_is_a_400_that_says_why(client, query, words):
    r = client.get("/connect4/tournament?" + query)
    assert r.status_code == 400
    assert words in text_of(r)


def test_bad_input_in_french(client):
    r = client.get("/connect4/tournament?e=Ada:cells=1&lang=fr")
    assert r.status_code == 400
    page = text_of(r)
    assert "au moins deux" in page
    r = client.get("/connect4/tournament?e=Ada:cells=1&e=ada:cells=2&lang=fr")
    assert "Deux participants" in text_of(r)


@pytest.mark.browser
def test_rehearsal_on_a_phone_and_the_projector_in_french(live_server, browser, artifacts):
    """From the workshop's link, a student's heuristic against two bosses on a phone: the
    page fits the width (its tables scroll inside), a game's moves open, a move opens the
    game page with the tree of the search behind it; then the projector's view."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(live_server + "/connect4/workshop?h=cells=1,open3=8&lang=fr")
    pg.get_by_text("Inscrire cette heuristique à un tournoi").click()
    expect(pg.locator("h2", has_text="Tableau croisé")).to_be_visible()
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    pg.screenshot(path=str(artifacts / "tournament-phone.png"), full_page=True)
    pg.locator(".tn-games td.num a").first.click()
    expect(pg.locator("#game")).to_contain_text("Partie 1")
    pg.screenshot(path=str(artifacts / "tournament-phone-game.png"))
    pg.locator(".tn-moves a").first.click()
    tree = pg.locator(".tree-svg, svg.tree").first
    expect(tree).to_be_visible()
    tree.scroll_into_view_if_needed()
    pg.screenshot(path=str(artifacts / "tournament-phone-tree.png"))
    context.close()

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(live_server + LINK + "&lang=fr&proj=1")
    expect(pg.locator("h2", has_text="Classement")).to_be_visible()
    assert "projector" in pg.locator("body").get_attribute("class")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 1920
    pg.screenshot(path=str(artifacts / "tournament-projector.png"))
    context.close()
