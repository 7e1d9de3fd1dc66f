"""A heuristic typed as weights of a game's terms (ai.course.weights): one parser for
Connect-4 and tic-tac-toe, each game giving its terms, its example and its extra keys; what a
student types, good or bad, read the same way in both games, every refusal said in words the
shared catalogue translates (French with its narrow no-break spaces), on the page too."""
import re
from html import unescape
from pathlib import Path

import pytest
from babel.support import Translations

from ai.course.weights import MAX_TEXT, Terms
from ai.games.connect4 import terms as c4
from ai.games.connect4.rules import Connect4
from ai.games.tictactoe import terms as ttt
from ai.games.tictactoe.rules import TicTacToe
from ai.messages import GameError, translate

ROOT = Path(__file__).resolve().parent.parent
NNBSP = "\u202f"
GAMES = {"connect4": (c4, "cells"), "tictactoe": (ttt, "lines")}


def french(err: Exception) -> str:
    """``err`` as a French page says it: the shared catalogue only (no game's)."""
    fr = Translations.load(ROOT / "translations", ["fr"])
    return translate(err, lambda template, **values: fr.ugettext(template) % values)


def refusal(parse, text: str) -> GameError:
    with pytest.raises(GameError) as caught:
        parse(text)
    return caught.value


def test_seed_004s_heuristic_typed_by_a_student_in_connect_4():
    # "valeur ajustée": alpha x cotation + squares of the aligned neighbours, with threats
    w = c4.parse(" cells=1, adjusted=2 ,alpha=0.3,open3=8 ")
    assert (w["cells"], w["adjusted"], w["open3"], w.alpha) == (1, 2, 8, 0.3)
    assert w["center"] == 0                          # not named: weighs 0
    assert c4.format_weights(w) == "cells=1,adjusted=2,open3=8,alpha=0.3"
    assert c4.parse(str(w)) == w


def test_nilsson_s_open_lines_typed_by_a_student_in_tic_tac_toe():
    w = ttt.parse("lines=1, open2=4.5 ,center=-2")
    assert w == (1, 0, 4.5, -2, 0, 0)
    assert ttt.format_weights(w) == "lines=1,open2=4.5,center=-2"
    assert ttt.parse(ttt.format_weights(w)) == w


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("typed, english, francais", [
    ("", "name=weight pairs", "paires nom=poids"),
    ("   ", "name=weight pairs", "paires nom=poids"),
    ("{term}", "is not name=weight", "n’est pas de la forme nom=poids"),
    ("=3", "is not name=weight", "n’est pas de la forme nom=poids"),
    ("{term}=1,,open2=2", "is not name=weight", "n’est pas de la forme nom=poids"),
    ("{term}=1,{term}=2", "is given twice", "est donné deux fois"),
    ("open9=1", "unknown term 'open9'", f"terme inconnu 'open9'{NNBSP}: les termes sont"),
    ("{term}=deux", "must be a number", f"{NNBSP}: le poids doit être un nombre"),
    ("{term}=nan", "is a number from -1e+06 to 1e+06", "est un nombre de −1e+06 à 1e+06"),
    ("{term}=inf", "is a number from", "est un nombre de"),
    ("{term}=-1e7", "is a number from", "est un nombre de"),
    ("{term}=1," * 200, "at most 500 characters", "au plus 500 caractères"),
])
def test_a_bad_heuristic_is_refused_alike_in_both_games_and_said_in_french(
        game, typed, english, francais):
    module, term = GAMES[game]
    err = refusal(module.parse, typed.format(term=term))
    assert english in str(err)
    said = french(err)
    assert francais in said and said != str(err)
    # the French puts a narrow no-break space before its colons, never a plain one
    assert " :" not in said and " ;" not in said


def test_each_game_gives_its_own_terms_and_example():
    empty_c4, empty_ttt = refusal(c4.parse, ""), refusal(ttt.parse, "")
    assert "e.g. open2=4,open3=16,center=2 (terms: cells, adjusted" in str(empty_c4)
    assert "e.g. lines=1,open2=4 (terms: lines, open1, open2, center, corners, cells)" \
        in str(empty_ttt)
    # alpha is Connect-4's extra key (seed 004's coefficient), not tic-tac-toe's
    assert "(and alpha)" in str(refusal(c4.parse, "corners=1"))
    assert french(refusal(c4.parse, "corners=1")).endswith("oddeven (et alpha)")
    assert "terms are lines, open1, open2, center, corners, cells" in \
        str(refusal(ttt.parse, "alpha=0.3"))
    assert "alpha" not in str(refusal(ttt.parse, "alpha=0.3")).split(":")[1]


def test_the_same_text_reads_the_same_in_both_games_where_their_terms_meet():
    # open2, center and cells are terms of both: a heuristic of those reads in both
    typed = "open2=4,center=2,cells=1"
    assert c4.parse(typed)["open2"] == 4 and c4.parse(typed)["cells"] == 1
    assert ttt.parse(typed) == (0, 0, 4, 2, 0, 1)


def test_weights_given_as_numbers_are_checked_as_the_text_is():
    with pytest.raises(GameError, match="9 weights"):
        c4.Weights((1, 2))
    with pytest.raises(GameError, match="the weight of open2 is a number"):
        c4.Weights.of(open2=float("inf"))
    with pytest.raises(GameError, match="the weight of cells is a number"):
        c4.Weights.of(cells=True)                   # a bool is not a weight
    with pytest.raises(GameError, match="6 weights"):
        ttt.WeightedHeuristic(TicTacToe(), (1, 2))
    assert "6 poids (lines, open1" in french(refusal(lambda t: ttt.WeightedHeuristic(
        TicTacToe(), t), (1, 2)))
    with pytest.raises(GameError, match="unknown term 'open9'"):
        c4.Weights.of(open9=1)


def test_a_game_s_rules_hand_the_text_to_the_parser():
    assert Connect4().weights_text(" open3=8, cells=1 ") == "cells=1,open3=8"
    assert TicTacToe().weights_text(" open2=4 , lines=1.0") == "lines=1,open2=4"
    with pytest.raises(GameError, match="unknown term"):
        TicTacToe().weighted_heuristic("lines=1,open3=1")


def test_the_parser_is_the_games_own_example_and_names_no_game():
    shared = Terms(("a", "b"), "a=1,b=2", extras=("k",))
    assert shared.read("b=2, k=0.5") == {"b": 2, "k": 0.5}
    assert shared.weights(shared.read("b=2, k=0.5")) == (0, 2)
    assert "(e.g. a=1,b=2)" in str(refusal(shared.read, "b"))
    assert MAX_TEXT == 500


def page_text(resp) -> str:
    # plain white space only: \s would take the narrow no-break spaces too
    return re.sub(r"[ \t\r\n]+", " ", unescape(resp.get_data(as_text=True)))


@pytest.mark.parametrize("query, words", [
    ("/tictactoe?level=custom&heur=lines=1,open9=2&lang=fr",
     f"terme inconnu 'open9'{NNBSP}: les termes sont lines, open1, open2"),
    ("/tictactoe?level=custom&heur=lines=1,open2=deux&lang=fr",
     f"open2='deux'{NNBSP}: le poids doit être un nombre"),
    ("/tictactoe?level=custom&heur=lines=1,lines=2", "'lines' is given twice"),
    ("/connect4?level=custom&heur=cells=1,alpha=x&lang=fr",
     f"alpha='x'{NNBSP}: le poids doit être un nombre"),
    ("/nim?level=custom&heur=a=1&lang=fr",
     f"ce jeu n’a pas de termes pondérés{NNBSP}: 'a=1'"),
])
def test_a_game_page_given_a_bad_heuristic_is_a_translated_400(client, query, words):
    r = client.get(query)
    assert r.status_code == 400 and words in page_text(r)


def test_a_game_page_plays_a_student_s_tic_tac_toe_heuristic(client):
    r = client.get("/tictactoe?level=custom&heur=lines=1,open2=4,center=2&moves=1")
    assert r.status_code == 200
