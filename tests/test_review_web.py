"""The review's pages (``web/review.py``) as a client sees them: /<game>/review,
/<game>/review/learn and the teaching game, for every game of the games table."""
from __future__ import annotations

import re

import pytest

from app import create_app
from tests.test_games_table import Race
from web.games import GAMES, GameSpec, Param

HX = {"HX-Request": "true"}
# Yellow's 5 (move 5) and red's 5 (move 6) are blunders; yellow's 1 (move 9) an inaccuracy
GAME = "444455661"


@pytest.fixture()
def client():
    return create_app({"TESTING": True}).test_client()


def test_the_review_marks_every_move_with_sign_and_word(client):
    r = client.get(f"/connect4/review?moves={GAME}")
    assert r.status_code == 200
    rows = re.findall(r'<tr class="cls-(\w+) p(\d)', r.text)
    assert rows == [("best", "0"), ("best", "1"), ("best", "0"), ("best", "1"),
                    ("blunder", "0"), ("blunder", "1"), ("best", "0"), ("best", "1"),
                    ("inaccuracy", "0")]
    assert r.text.count('<td class="cls"><span class="mark" aria-hidden="true" translate="no">??</span> blunder</td>') == 2
    # the graph: one point per move, each a link to the move's detail
    assert r.text.count('<a href="/connect4/review?moves=444455661&amp;ply=') >= 9
    assert 'class="graph-svg"' in r.text and "<polyline" in r.text
    assert "Accuracy: 70.0 %" in r.text and "Accuracy: 75.0 %" in r.text


def test_a_blunder_shows_its_refutation_numbered_on_the_board_and_why(client):
    r = client.get(f"/connect4/review?moves={GAME}&ply=6", headers=HX)
    assert r.status_code == 200
    assert r.text.lstrip().startswith('<section id="review-detail"')     # the fragment alone
    assert "After column 5, Yellow wins in 2 moves" in r.text
    assert "Red cannot stop both threats" in r.text
    assert "The move that kept the value: 3." in r.text
    assert '<span class="disc-n">1</span>' in r.text and '<span class="disc-n">!</span>' in r.text
    assert r.headers["HX-Push-Url"].endswith("ply=6")


def test_the_review_speaks_french_and_keeps_the_projector_mode(client):
    r = client.get(f"/connect4/review?moves={GAME}&ply=5&lang=fr&proj=1")
    assert r.status_code == 200
    assert '<body class="projector"' in r.text
    assert "gaffe" in r.text and "Précision\u202f: 70,0 %" in r.text
    assert "Après la colonne 5, Rouge gagne en 18 coups" in r.text
    assert "proj=1" in re.search(r'href="(/connect4/review/learn[^"]*)"', r.text).group(1)


def test_a_wrong_move_is_a_400_that_says_why_and_reviews_the_moves_before_it(client):
    r = client.get("/connect4/review?moves=4444444")
    assert r.status_code == 400
    assert "column 4 is full" in r.text
    assert "The review below is of the first 6 moves, which were right." in r.text
    assert len(re.findall(r'<tr class="cls-', r.text)) == 6


@pytest.mark.parametrize("query,words", [
    ("moves=4455667" + "1", "move 8 of 44556671: the game is over"),
    ("moves=12x", "Moves"),
    ("moves=" + "1" * 250, "too long"),
    (f"moves={GAME}&ply=10", "from 1 to 9, not 10"),
])
def test_bad_input_is_a_400_never_a_500(client, query, words):
    r = client.get(f"/connect4/review?{query}")
    assert r.status_code == 400
    assert words in r.text


def test_nims_review_says_why_with_the_multiple_of_4(client):
    r = client.get("/nim/review?moves=123&ply=3")
    assert r.status_code == 200
    assert "After taking 3, 15 are left, not a multiple of 4: J1 takes 3 and leaves 12" in r.text
    assert r.text.count('class="step-n"') >= 2


def test_learn_from_your_mistakes_passes_a_value_keeping_move_and_explains_another(client):
    first = client.get(f"/connect4/review/learn?moves={GAME}")
    assert first.status_code == 200
    assert "Position 1 of 3: before move 5." in first.text
    assert "The move that kept" not in first.text          # no answer given
    passed = client.get(f"/connect4/review/learn?moves={GAME}&k=0&try=4", headers=HX)
    assert "Well played: 4 keeps the exact value." in passed.text
    failed = client.get(f"/connect4/review/learn?moves={GAME}&k=1&try=1", headers=HX)
    assert "1: blunder." in failed.text and "Yellow wins in 2 moves" in failed.text
    assert "Try again" in failed.text


def test_learn_refuses_an_illegal_try_in_a_400(client):
    r = client.get(f"/connect4/review/learn?moves={GAME}&k=0&try=8")
    assert r.status_code == 400
    assert "column 8 does not exist" in r.text


def test_a_game_with_no_hook_of_its_own_is_reviewed_by_the_generic_solve(monkeypatch, client):
    monkeypatch.setitem(GAMES, "race", GameSpec(
        "race", "Race to 7", Race, (Param("goal", "goal", "Goal", 7, 3, 30),), "add"))
    # from 0, the first player adds 1 (leaves 1 = 7 - 6: a loss for the other), then 2 and 1
    r = client.get("/race/review?moves=1221&mode=human-human&ply=2")
    assert r.status_code == 200
    assert len(re.findall(r'<tr class="cls-', r.text)) == 4


def test_the_teaching_game_warns_at_once_and_offers_to_take_the_move_back(client):
    r = client.get("/connect4/move?moves=4444&teach=1&col=5", headers=HX)
    assert r.status_code == 200
    assert "Careful: this move turns your win into a loss." in r.text
    assert 'href="/connect4?moves=4444&amp;teach=1"' in r.text          # take it back
    assert "hx-trigger=\"load" not in r.text                            # the AI waits
    assert r.headers["HX-Push-Url"] == "/connect4?moves=44445&teach=1"
    calm = client.get("/connect4/move?moves=4444&teach=1&col=4", headers=HX)
    assert "teach-warning" not in calm.text
    off = client.get("/connect4/move?moves=4444&col=5", headers=HX)
    assert "teach-warning" not in off.text


def test_a_finished_game_offers_its_review(client):
    r = client.get("/connect4?moves=4455667&mode=human-human")
    assert 'href="/connect4/review?moves=4455667&amp;mode=human-human"' in r.text


def test_a_review_too_long_for_one_request_fills_in_as_it_goes(monkeypatch, client, tmp_path):
    # a node budget per request (a count, not the clock), a fresh table of solved positions
    # and fresh solvers: the first answer has some moves, the page asks again, and each
    # round keeps what the one before solved until every move is classed
    from ai.games.connect4.exact import analysis
    from web import review as review_view
    monkeypatch.setattr(review_view, "SCORE_NODES", 100_000)
    monkeypatch.setattr(review_view, "SCORE_SECONDS", 1000.0)      # only the count binds
    monkeypatch.setattr(review_view, "MAX_SCORE_SECONDS", 1000.0)
    monkeypatch.setattr(analysis, "_chosen", [str(tmp_path / "solved.sqlite3")])
    monkeypatch.setattr(analysis, "_idle", [])
    r = client.get("/connect4/review?moves=2577712224414446333331141")
    assert r.status_code == 200
    rounds = 0
    while 'class="note review-filling"' in r.text:
        url = re.search(r'hx-get="([^"]*fill=\d+)"', r.text).group(1).replace("&amp;", "&")
        r = client.get(url, headers=HX)
        rounds += 1
    assert rounds >= 1
    assert len(re.findall(r'<tr class="cls-(?!none)', r.text)) == 25      # all classed
    assert "not solved within the time allowed" not in r.text


def test_a_class_game_over_offers_its_review_to_the_teacher_and_the_students(client):
    # the teacher's projector gets the review in projector mode; each student's phone a
    # review of its own (an ordinary page: the class code is not carried into it)
    made = client.post("/class", data={"link": "/connect4?moves=4455667&mode=human-human"})
    board = made.headers["Location"]
    code = board.split("cls=")[1]
    teacher = client.get(board).text
    assert 'href="/connect4/review?moves=4455667&amp;mode=human-human&amp;proj=1"' in teacher
    student = client.get(f"/c/{code}").text
    assert 'href="/connect4/review?moves=4455667&amp;mode=human-human"' in student
    review = client.get("/connect4/review?moves=4455667&mode=human-human&proj=1")
    assert '<body class="projector"' in review.text


def test_tic_tac_toe_is_reviewed_through_the_games_table(client):
    r = client.get("/tictactoe/review?moves=5213&mode=human-human&ply=2")
    assert r.status_code == 200
    assert [c for c in re.findall(r'<tr class="cls-(\w+)', r.text)] == [
        "best", "mistake", "best", "inaccuracy"]
