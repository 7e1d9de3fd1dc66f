"""Marienbad on the web: its page (a match a button), a move, the AI's reply by the theory,
the tree with every node's nim-sum on demand, the review, class mode, the theory page step by
step, in English and French; and the proof that the game is its folders and one entry of
the games table."""
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from ai.games.marienbad.grundy import nim_sum
from ai.games.marienbad.rules import Marienbad
from app import create_app

HX = {"HX-Request": "true"}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def mb_app(tmp_path):
    return create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                       "SOLVER_WARM_UP": False})


@pytest.fixture()
def mb(mb_app):
    return mb_app.test_client()


def test_the_films_heaps_a_match_a_button(mb):
    html = mb.get("/marienbad").get_data(as_text=True)
    moves = re.findall(r'data-move="([a-h]\d)"', html)
    assert len(moves) == 16 and moves[:4] == ["a1", "b3", "b2", "b1"]   # a match takes the rest
    assert 'aria-label="3 matches from heap B"' in html
    assert 'name="heaps" value="1,3,5,7"' in html
    fr = mb.get("/marienbad?lang=fr&heaps=2,2").get_data(as_text=True)
    assert 'aria-label="2 allumettes du tas B"' in fr and "Marienbad\u202f: le jeu du film" in fr


@pytest.mark.parametrize("link,says", [
    ("/marienbad?heaps=1,0", "Heaps: heaps are 1 to 8 numbers, each from 1 up to 9 matches"),
    ("/marienbad?heaps=1,2,3,4,5,6,7,8,9", "Heaps: heaps are 1 to 8 numbers"),
    ("/marienbad?variant=film", "Variant: one of normal, misere"),
    ("/marienbad?moves=e1", "move 1 of e1: there is no heap E: heaps A to D"),
    ("/marienbad?moves=a2", "move 1 of a2: cannot take 2 from heap A, which has 1"),
    ("/marienbad?moves=A1", "Moves: moves are a heap&#39;s letter (a to h) and a count")])
def test_bad_input_is_a_400_that_says_why(mb, link, says):
    r = mb.get(link)
    assert r.status_code == 400 and says in r.get_data(as_text=True)


def test_bad_heaps_are_said_in_french(mb):
    r = mb.get("/marienbad?heaps=1,0&lang=fr")
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Tas\u202f: les tas sont de 1 à 8 nombres, chacun" in html


def test_a_move_and_the_ai_reply_by_the_nim_sum(mb):
    r = mb.get("/marienbad/move?take=d7", headers=HX)       # leaves 1, 3, 5: nim-sum 7
    assert r.status_code == 200
    r = mb.get("/marienbad/ai?moves=d7", headers=HX)         # hard: the theory's reply
    moves = parse_qs(urlparse(r.headers["HX-Push-Url"]).query)["moves"][0]
    game = Marienbad()
    state = game.initial_state()
    for m in game.parse_moves(moves):
        state = game.result(state, m)
    assert moves.startswith("d7") and len(moves) == 4 and nim_sum(state.heaps) == 0
    assert "AI takes" in r.get_data(as_text=True)


def test_every_nodes_nim_sum_on_demand(mb):
    link = "/marienbad?moves=d7c1&mode=human-human&tree=1"
    plain = mb.get(link).get_data(as_text=True)
    assert "Show every node&#39;s nim-sum" in plain or "Show every node's nim-sum" in plain
    assert '<text class="name"' not in plain               # no number in the nodes
    shown = mb.get(link + "&notation=course").get_data(as_text=True)
    numbers = re.findall(r'<text class="name"[^>]*>(\d+)</text>', shown)
    assert numbers[0] == "6"                      # 1, 3, 4, 0: 1 xor 3 xor 4
    assert "0" in numbers and "Hide the nim-sums" in shown


def test_the_review_says_why_in_nim_sums(mb):
    # 1, 3, 5, 7 less d7: 1, 3, 5; c1 leaves 1, 3, 4 (nim-sum 6): a blunder, c2 won
    html = mb.get("/marienbad/review?moves=d7c1&mode=human-human&ply=2").get_data(as_text=True)
    assert "After c1, the nim-sum is 6, not 0" in html


def test_a_class_votes_on_marienbad(mb_app):
    teacher = mb_app.test_client()
    created = teacher.post("/class", data={"link": "/marienbad?mode=human-human&moves=d7"})
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    student = mb_app.test_client()
    html = student.get(f"/c/{code}").get_data(as_text=True)
    assert "Marienbad" in html and "matches left" in html
    teacher.post(f"/class/{code}/peer", data={"action": "hide", "value": "0"}, headers=HX)
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers=HX).status_code == 200
    vote = student.get(f"/c/{code}").get_data(as_text=True)
    assert "Choose a heap and how many matches to take." in vote
    assert ("c2", "2 matches from heap C") in re.findall(
        r'name="choice" value="([a-h]\d)" aria-label="([^"]*)"', vote)
    voted = student.post(f"/c/{code}/vote", data={"round": "1", "choice": "c2"}, headers=HX)
    assert "2 matches from heap C" in voted.get_data(as_text=True)


def test_the_theory_is_revealed_step_by_step(mb):
    steps = [mb.get(f"/marienbad/theory?step={n}", headers=HX).get_data(as_text=True)
             for n in range(6)]
    assert "should you play" in steps[0] and "mb-binary" not in steps[0]
    assert '<td class="bit1">1</td>' in steps[1] and "ones in the column" not in steps[1]
    assert "ones in the column" in steps[2] and "even or odd" not in steps[2]
    assert steps[3].count('class="even"') == 3 and "position paire" not in steps[3]
    assert "position paire" in steps[4] and "loses with best play" in steps[4]
    assert "The winning move" in steps[5] and "None: every move makes a column odd" in steps[5]
    nxt = re.search(r'id="next-step"', steps[0]) and re.search(r'hx-get="([^"]*step=1[^"]*)"', steps[0])
    assert nxt


def test_the_theory_of_a_won_position_and_of_the_films_endgame(mb):
    html = mb.get("/marienbad/theory?heaps=1,3,5,6&step=5").get_data(as_text=True)
    assert 'class="odd"' in html and "1 match from heap A: leaves 0, 3, 5, 6" in html
    html = mb.get("/marienbad/theory?heaps=1,1,2&variant=misere&step=5").get_data(as_text=True)
    assert "Misère (the film&#39;s game):" in html or "Misère (the film's game):" in html
    assert "1 match from heap C: leaves 1, 1, 1" in html        # an odd number of ones


def test_the_theory_in_french_on_the_projector_and_its_bad_input(mb):
    html = mb.get("/marienbad/theory?step=4&lang=fr&proj=1").get_data(as_text=True)
    assert "La règle\u202f: la «\u202fposition paire\u202f»" in html and "projector" in html
    for bad in ("heaps=1,x", "step=6", "variant=film"):
        r = mb.get(f"/marienbad/theory?{bad}&lang=fr")
        assert r.status_code == 400 and 'role="alert"' in r.get_data(as_text=True)


def test_marienbad_is_its_folders_and_one_entry_of_the_games_table():
    """The proof of issue 34: no shared module, template or script names the game."""
    own = {ROOT / "ai/games/marienbad", ROOT / "web/marienbad", ROOT / "templates/games/marienbad"}
    shared = [p for pattern in ("app.py", "ai/**/*.py", "web/**/*.py", "templates/**/*.html",
                                "templates/**/*.svg", "static/*.js", "static/*.css", "scripts/*",
                                "bench/*.py")
              for p in ROOT.glob(pattern)
              if p.is_file() and not any(d in p.parents for d in own)
              and p != ROOT / "web/games.py"]
    named = [str(p.relative_to(ROOT)) for p in shared
             if "marienbad" in p.read_text(errors="replace").lower()]
    assert len(shared) > 100 and named == []
