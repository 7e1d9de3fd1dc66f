"""Tic-tac-toe's tournament in the web app (issue 39), on the shared pages
(``web.tournament``) with its own part (``web.tictactoe.tournament``): the link holds the
tournament (entrants over tic-tac-toe's terms, its levels as bosses, the depth, the openings);
the page shows the engine's standings, crosstable and games, each game replayable move by move
with the tree of the search behind each move and its exact review; bad input is a translated
400 in tic-tac-toe's terms; a game without tournaments has no page."""
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from ai.games.tictactoe import tournament as TT
from ai.games.tictactoe.terms import NAMES
from ai.levels import Level
from ai.teach import tournament as T
from responses import hrefs, text_of

ENTRANTS = ("Ada:lines=1,open2=4", "Bob:center=2,corners=1")
LINK = ("/tictactoe/tournament?e=Ada:lines=1,open2=4&e=Bob:center=2,corners=1"
        "&boss=beginner&boss=easy&depth=1&openings=3")


@pytest.fixture(scope="module")
def expected():
    return T.run(TT.GAME, [T.entrant(TT.GAME, e) for e in ENTRANTS] +
                 [T.boss("beginner"), T.boss("easy")], 1, 3, runner=T.local)


def test_the_page_shows_the_engines_standings_and_every_game(client, expected):
    r = client.get(LINK)
    assert r.status_code == 200
    page = text_of(r)
    assert "Tournament of heuristics: Tic-tac-toe" in page
    rows = page[page.index("Standings"):page.index("Crosstable")]
    for row in expected["standings"]:
        assert f"{row['W']}-{row['D']}-{row['L']}" in rows
    assert {row["L"] for row in expected["standings"]} != {0}     # the games decide something
    reviews = hrefs(r, "/tictactoe/review")
    assert {parse_qs(urlsplit(h).query)["moves"][0] for h in reviews} == {
        g["moves"] for g in expected["games"]}
    assert len(re.findall(r'href="[^"]*game=\d+#game"', r.get_data(as_text=True))) == len(
        expected["games"]) == 4 * 3 * 3
    for o in expected["openings"]:                       # the openings, shown, each a link
        assert hrefs(r, f"/tictactoe?moves={o['moves']}&")
    assert "X (first)" in page and "python -m ai tournament tictactoe" in page


def test_a_games_moves_open_the_game_page_with_the_movers_tree(client, expected):
    n = next(i for i, g in enumerate(expected["games"], 1)
             if g["first"] == "Ada" and g["second"] == "beginner")
    g = expected["games"][n - 1]
    r = client.get(LINK + f"&game={n}")
    assert r.status_code == 200
    assert "Game %d: Ada (X) against beginner (O)" % n in text_of(r).replace("Beginner",
                                                                              "beginner")
    moves = [h for h in hrefs(r, "/tictactoe?") if "tree=1" in h]
    assert len(moves) == len(g["moves"]) - len(g["opening"])
    first = parse_qs(urlsplit(moves[0]).query)
    assert first["heur"] == ["lines=1,open2=4"] and first["depth"] == ["1"]
    assert first["level"] == ["custom"] and first["mode"] == ["ai-human"]
    second = parse_qs(urlsplit(moves[1]).query)
    assert second["level"] == ["beginner"] and second["mode"] == ["human-ai"]
    # the game page's panel draws the search behind Ada's first move, which chose that move
    page = client.get(moves[0])
    assert page.status_code == 200 and 'class="tree-svg' in page.get_data(as_text=True)
    level = Level("custom", "alphabeta", 1, 1.0, 400_000, order="center", fast=False,
                  heuristic="lines=1,open2=4")
    state = TT.GAME.initial_state()
    for m in TT.GAME.parse_moves(g["opening"]):
        state = TT.GAME.result(state, m)
    assert TT.GAME.format_move(level.play(TT.GAME, state).move) == g["moves"][2]
    # and its exact review
    review = hrefs(r, "/tictactoe/review")[0]
    assert client.get(review).status_code == 200


def test_the_same_link_gives_the_same_page(client):
    strip = lambda s: re.sub(r'name="csrf[^>]*>', "", s)   # noqa: E731
    assert strip(client.get(LINK).get_data(as_text=True)) == strip(
        client.get(LINK).get_data(as_text=True))


def test_no_entrant_is_an_introduction_in_its_terms_with_an_example(client):
    r = client.get("/tictactoe/tournament")
    assert r.status_code == 200
    page = text_of(r)
    assert all(name in page for name in NAMES) and "workshop" not in page
    example = hrefs(r, "/tictactoe/tournament?e=")[0]
    assert client.get(example).status_code == 200


@pytest.mark.parametrize("query, words", [
    ("e=Ada:cells=1,open3=8&boss=easy", "unknown term"),     # Connect-4's terms
    ("e=Ada:lines=x&boss=easy", "must be a number"),
    ("e=Ada:lines=1&boss=easy&depth=8", "from 1 to 7"),
    ("e=Ada:lines=1&boss=easy&openings=13", "from 1 to 12"),
    ("e=Ada:lines=1&boss=perfect", "one of"),
    ("&".join(f"e=P{i}:lines={i}" for i in range(13)), "python -m ai tournament tictactoe"),
])
def test_bad_input_is_a_400_that_says_why_in_its_terms(client, query, words):
    r = client.get("/tictactoe/tournament?" + query)
    assert r.status_code == 400
    assert words in text_of(r)


def test_bad_input_in_french(client):
    r = client.get("/tictactoe/tournament?e=Ada:lines=1&lang=fr")
    assert r.status_code == 400 and "au moins deux" in text_of(r)
    r = client.get("/tictactoe/tournament?e=Ada:lines=1&boss=easy&lang=fr&game=1")
    page = unescape(r.get_data(as_text=True))          # text_of would take U+202F for a space
    assert "<h1>Tournoi d’heuristiques\u202f: Morpion</h1>" in page
    assert "Partie 1\u202f: Ada (X) contre facile (O)" in page and "X (premier)" in page


def test_a_game_without_tournaments_has_no_tournament_pages(client):
    assert client.get("/nim/tournament").status_code == 404
    assert client.get("/nim/tournament/results?t=x").status_code == 404


def test_its_openings_are_the_twelve_positions_up_to_symmetry():
    assert len(TT.candidates()) == TT.MAX_OPENINGS
