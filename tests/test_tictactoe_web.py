"""Tic-tac-toe in the app, as a class meets it: the board, a move, the AI's reply with its
tree, every level, two people, AI against AI, the exact value of every move, the comparison
and the course's card; a wrong link is a 400 that says why.

Cells are numbered as on a phone's keypad, top row first: 1 2 3 / 4 5 6 / 7 8 9.
"""
import re
from urllib.parse import parse_qs, urlparse

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ai.levels import LEVELS
from tests.fuzzing import ROUTES, requests

HX = {"HX-Request": "true"}


def pushed_moves(response) -> str:
    return parse_qs(urlparse(response.headers["HX-Push-Url"]).query).get("moves", [""])[0]


def cells(html: str) -> dict[int, str]:
    """What each cell of the board says to a screen reader: "X", "O" or "empty", by number."""
    found = dict(re.findall(r'aria-label="cell (\d) \([abc][123]\): ([^"]*)"', html))
    return {int(k): v for k, v in found.items()}


def test_the_page_shows_an_empty_board_of_nine_cell_buttons(client):
    r = client.get("/tictactoe")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "<h1>Tic-tac-toe</h1>" in html
    assert cells(html) == {i: "empty" for i in range(1, 10)}
    assert len(re.findall(r'<button type="submit" name="cell" value="\d"', html)) == 9
    assert 'data-move="5"' in html


def test_a_move_puts_an_x_in_its_cell_and_asks_for_the_ais_reply(client):
    r = client.get("/tictactoe/move?cell=5", headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and pushed_moves(r) == "5"
    assert cells(html)[5].startswith("X") and "is thinking" in html
    assert 'hx-get="/tictactoe/ai?moves=5"' in html


def test_a_cell_may_be_written_b2_as_well_as_5(client):
    r = client.get("/tictactoe/move?cell=b2", headers=HX)
    assert r.status_code == 200 and pushed_moves(r) == "5"


def test_the_ai_answers_the_centre_with_a_corner_and_shows_its_tree(client):
    # after X in the centre only a corner draws (an edge loses): the default level searches
    # to the end of the game and finds it
    r = client.get("/tictactoe/ai?moves=5&tree=1", headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    moves = pushed_moves(r)
    assert moves[0] == "5" and moves[1] in "1379"
    assert 'id="tree-panel"' in html and "explored" in html
    assert cells(html)[int(moves[1])].startswith("O")


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_replies_with_a_legal_move(client, level):
    r = client.get(f"/tictactoe/ai?moves=51&mode=ai-human&level={level}", headers=HX)
    assert r.status_code == 200
    moves = pushed_moves(r)
    assert moves[:2] == "51" and len(moves) == 3 and moves[2] not in "51"


def test_two_people_play_on_one_screen_without_the_ai(client):
    r = client.get("/tictactoe/move?mode=human-human&moves=5&cell=1", headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and pushed_moves(r) == "51"
    assert "/tictactoe/ai" not in html and cells(html)[1].startswith("O")


def test_ai_against_ai_plays_x_first(client):
    r = client.get("/tictactoe/ai?mode=ai-ai", headers=HX)
    assert r.status_code == 200 and len(pushed_moves(r)) == 1


def test_three_in_a_row_ends_the_game_and_marks_the_line(client):
    # X 1 2 3 along the top row, O 4 5
    html = client.get("/tictactoe?mode=human-human&moves=14253").get_data(as_text=True)
    assert "X wins!" in html
    assert [n for n, v in cells(html).items() if "winning line" in v] == [1, 2, 3]
    assert 'name="cell"' not in html            # no cell to play any more


@pytest.mark.parametrize("url, message", [
    ("/tictactoe?moves=55", "cell 5 is taken"),
    ("/tictactoe?moves=5x", "moves are cells 1 to 9"),
    ("/tictactoe?moves=142536", "the game is over"),
    ("/tictactoe/move?moves=5&cell=5&mode=human-human", "cell 5 is taken"),
    ("/tictactoe/move?cell=0", "a cell is a digit from 1 to 9"),
    ("/tictactoe/move?cell=d4", "a cell is a digit from 1 to 9"),
    ("/tictactoe/move?mode=human-human&moves=14253&cell=9", "the game is over"),
    ("/tictactoe/ai?moves=5&mode=human-human", "it is your turn"),
    ("/tictactoe/compare?moves=14253", "the game is over"),
])
def test_a_wrong_link_is_a_400_that_says_why(client, url, message):
    r = client.get(url, headers=HX)
    assert r.status_code == 400
    assert message in r.get_data(as_text=True)


def test_the_exact_value_of_every_move_shows_on_the_board(client):
    # X took a corner: O draws only in the centre, every other cell loses
    html = client.get("/tictactoe?mode=human-human&moves=1&hints=1").get_data(as_text=True)
    said = cells(html)
    assert said[5] == "empty, draw"
    assert all(said[n].startswith("empty, loss in") for n in (2, 3, 4, 6, 7, 8, 9))
    assert "Best: cell 5, draw." in html


def test_a_fork_shows_as_a_win_in_3_plies(client):
    # X 1, O 2, X 5, O 9 (forced): X 7 (or 4) makes two threats at once
    html = client.get("/tictactoe?mode=human-human&moves=1259&hints=1").get_data(as_text=True)
    said = cells(html)
    assert said[4] == said[7] == "empty, win in 3 plies"
    assert "Best: cells 4, 7, win in 3 plies." in html


def test_beside_the_tree_the_truth_judges_the_searchs_choice(client):
    r = client.get("/tictactoe/ai?moves=5&tree=1&hints=1", headers=HX)
    html = r.get_data(as_text=True)
    chosen = pushed_moves(r)[1]
    assert f"The search chose cell {chosen} (value 0); with perfect play that cell is a draw." in html
    assert "No cell does better." in html
    # the edges lose with perfect play (the search's values there are bounds: ≤ 0)
    truth = html[html.index('id="truth"'):]
    assert truth.count("hint-loss") == 4 and truth.count("hint-draw") == 4


def test_an_easy_ai_that_lets_a_fork_through_is_told_it_misjudged(client):
    # X 1, O 5, X 8: easy (O, two plies) plays 3, and X 7 will threaten 4 and 9 at once
    r = client.get("/tictactoe/ai?moves=158&level=easy&tree=1&hints=1", headers=HX)
    html = r.get_data(as_text=True)
    assert pushed_moves(r) == "1583"
    assert "The search chose cell 3" in html and "that cell is a loss in 4 plies" in html
    assert "Misjudged: a better cell exists." in html


def test_the_comparison_counts_minimax_alpha_beta_and_the_table(client):
    # X centre, O corner: the rest of the game, 6,812 nodes for minimax
    html = client.get("/tictactoe/compare?moves=51&cd=7").get_data(as_text=True)
    rows = dict(re.findall(r'<th scope="row">([^<]+)</th>\s*<td>[^<]*</td><td>[^<]*</td>\s*'
                           r'<td class="num">([\d,]+)</td>', html))
    assert rows["minimax"] == "6,812"
    assert int(rows["alpha-beta"].replace(",", "")) < 6_812
    assert int(rows["alpha-beta + table"].replace(",", "")) < int(rows["alpha-beta"].replace(",", ""))


def test_the_course_card_gives_the_whole_trees_549946_nodes(client):
    html = client.get("/course").get_data(as_text=True)
    card = html[html.index("Tic-tac-toe (le morpion)"):]
    card = card[:card.index("</article>")]
    assert "549,946" in card and "18,297" in card and "4,852" in card and "765" in card
    assert "/tictactoe/compare?" in card


def test_the_page_speaks_french(client):
    html = client.get("/tictactoe?lang=fr&mode=human-human&moves=1&hints=1").get_data(as_text=True)
    assert "<h1>Morpion</h1>" in html and "case 5" in html and "nulle" in html


# -- the rest of the app: class mode, the peek, the handout, the home page ----------------------

def test_a_class_votes_on_a_cell_and_sees_the_ais_choice(app):
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": "/tictactoe?mode=human-human&moves=51"})
    assert created.status_code == 303
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    teacher.post(f"/class/{code}/peer", data={"action": "hide", "value": "0"}, headers=HX)  # live
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers=HX).status_code == 200
    student = app.test_client()
    page = student.get(f"/c/{code}").get_data(as_text=True)
    assert cells(page)[5].startswith("X") and cells(page)[1].startswith("O")
    buttons = re.findall(r'name="choice" value="(\d)" aria-label="cell \d"', page)
    assert buttons == list("2346789")                     # the free cells
    voted = student.post(f"/c/{code}/vote", data={"round": "1", "choice": "3"}, headers=HX)
    assert "Your vote: cell 3." in voted.get_data(as_text=True)
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"}, headers=HX)
    assert "Play the class's choice: cell 3" in closed.get_data(as_text=True)
    revealed = teacher.post(f"/class/{code}/vote", data={"action": "reveal"}, headers=HX)
    assert re.search(r"The AI would play cell [2346789] here", revealed.get_data(as_text=True))


def test_a_vote_for_a_taken_cell_is_refused(app):
    teacher = app.test_client()
    created = teacher.post("/class", data={"link": "/tictactoe?mode=human-human&moves=51"})
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    teacher.post(f"/class/{code}/vote", data={"action": "open"}, headers=HX)
    student = app.test_client()
    student.get(f"/c/{code}")
    for choice in ("5", "0", "x"):
        r = student.post(f"/c/{code}/vote", data={"round": "1", "choice": choice}, headers=HX)
        assert r.status_code == 400


def test_the_peek_shows_the_position_at_a_node_small(client):
    html = client.get("/tictactoe/peek?moves=51").get_data(as_text=True)
    assert 'class="ttt-board small"' in html
    assert cells(html)[5] == "X" and cells(html)[1] == "O (last move)"


def test_the_handout_draws_the_searched_position_and_its_tree(client):
    r = client.get("/tictactoe/tree.svg?moves=51&tree=1")
    svg = r.get_data(as_text=True)
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert "Position after 5" in svg and "<circle" in svg


def test_the_home_page_and_the_nav_lead_to_the_game(client):
    html = client.get("/?lang=fr").get_data(as_text=True)
    assert '<a href="/tictactoe?lang=fr" data-game="tictactoe">Morpion</a>' in html
    assert '<a class="card" href="/tictactoe?lang=fr">' in html


def test_the_comparison_ends_with_the_solved_games_row(client):
    html = client.get("/tictactoe/compare?moves=51&cd=7").get_data(as_text=True)
    row = html[html.index('class="exact-row"'):]
    assert re.search(r"<td>[2-9]</td><td>0 \(draw\)</td>", row[:400])


def test_the_tree_replays_alpha_beta_step_by_step_in_the_courses_notation(client):
    # X 5, O 1, X 2, O 8 (the AI, easy: alpha-beta to depth 2, open lines at the depth limit,
    # blocking 2-5-8): its search is small enough to replay node by node
    link = "/tictactoe/tree?moves=5128&level=easy&tree=1&notation=course"
    first = client.get(link + "&step=1", headers=HX).get_data(as_text=True)
    assert "step 1 of 92" in first and "Enter max (root) with α = −∞, β = +∞." in first
    assert "AlphaBeta(node, depth, α, β)" in first
    fifth = client.get(link + "&step=5", headers=HX).get_data(as_text=True)
    assert "At min (after 3) the window becomes α = −∞, β = -2." in fifth
    # during the replay the board shows the position searched, nothing to play, no answer
    assert 'name="cell"' not in fifth and "is searching" in fifth
    assert client.get(link + "&step=93", headers=HX).status_code == 400


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(req=requests(), route=st.sampled_from([r for r in ROUTES if r.startswith("/tictactoe")]))
def test_no_request_to_the_game_crashes_it(client, req, route):
    # the fuzz test's hostile requests (tests/fuzzing.py), all sent to tic-tac-toe's routes
    url, headers = req
    url = route + url[len(url.split("?")[0]):]
    r = client.get(url, headers=headers)
    assert r.status_code < 500, (url, r.status_code)
