"""Marienbad, the fourth game: its rules and links, the theory (nim-sums, Sprague-Grundy)
checked against full searches, the levels, and its command line."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ai.course.game import play
from ai.course.scores import MAX_SCORE
from ai.course.search import minimax
from ai.games.marienbad import Marienbad
from ai.games.marienbad.grundy import column_parities, mover_loses, nim_sum, winning_moves
from ai.games.marienbad.rules import MarienbadState, heaps_text, parse_heaps
from ai.games.marienbad.solve import every_move, outcome
from ai.games.marienbad.tree import tree_size
from ai.levels import LEVELS
from ai.messages import GameError

ROOT = Path(__file__).resolve().parent.parent
SMALL_HEAPS = st.lists(st.integers(1, 4), min_size=1, max_size=3).filter(lambda h: sum(h) <= 7)


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


# -- the rules and how links write them -----------------------------------------------------

def test_the_films_heaps_and_a_move_from_one_heap():
    game = Marienbad()
    s = game.initial_state()
    assert s == MarienbadState((1, 3, 5, 7), 0)
    assert len(game.actions(s)) == 16                      # 1 + 3 + 5 + 7 ways to take
    s = game.result(s, (3, 7))                             # all of heap D
    assert s == MarienbadState((1, 3, 5, 0), 1)
    with pytest.raises(GameError, match="cannot take 2 from heap A"):
        game.result(s, (0, 2))
    with pytest.raises(GameError, match="no heap E"):
        game.result(s, (4, 1))


def test_moves_are_two_characters_a_heap_letter_and_a_count():
    game = Marienbad()
    assert game.parse_moves("d7b2a1") == [(3, 7), (1, 2), (0, 1)]
    assert game.format_moves([(3, 7), (1, 2)]) == "d7b2" and game.format_move((2, 5)) == "c5"
    assert game.parse_move("c5") == (2, 5) and game.parse_moves("") == []
    for bad in ("d", "D7", "d0", "i1", "d7b", "7d", "d 7", "d10", "dd"):
        with pytest.raises(GameError):
            game.parse_moves(bad)


def test_heaps_are_read_strictly():
    assert parse_heaps("1,3,5,7") == (1, 3, 5, 7) and heaps_text("9") == "9"
    assert Marienbad("2,2").heaps == (2, 2)
    for bad in ("", "0,3", "1,,3", "1,3,", "10", "1;3", " 1,3", "1,2,3,4,5,6,7,8,9", "a"):
        with pytest.raises(GameError):
            parse_heaps(bad)
    with pytest.raises(GameError):
        Marienbad((1, 3), "film")


def test_who_takes_the_last_match_wins_or_in_the_films_game_loses():
    for variant, winner in (("normal", 0), ("misere", 1)):
        game = Marienbad("2", variant)
        end = play(game, [(0, 2)])                         # J0 takes both
        assert game.is_terminal(end) and game.winner(end) == winner
        assert game.utility(end, winner) == 1 and game.utility(end, 1 - winner) == -1


# -- the theory against the search ----------------------------------------------------------

def test_1357_is_a_position_paire_lost_for_the_player_to_move_in_both_games():
    assert nim_sum((1, 3, 5, 7)) == 0 and column_parities((1, 3, 5, 7)) == [2, 2, 4]
    assert mover_loses((1, 3, 5, 7)) and mover_loses((1, 3, 5, 7), "misere")
    assert winning_moves((1, 3, 5, 7)) == [] == winning_moves((1, 3, 5, 7), "misere")
    assert outcome((1, 3, 5, 7)) == (-1, 16)               # the loser takes one at a time
    assert outcome((1, 3, 5, 7), "misere")[0] == -1


def test_misere_differs_only_where_every_heap_is_at_most_one():
    assert mover_loses((1, 1)) and not mover_loses((1, 1), "misere")     # take one, leave one
    assert not mover_loses((1,)) and mover_loses((1,), "misere")
    assert mover_loses((2, 2)) and mover_loses((2, 2), "misere")          # nim-sum 0
    assert winning_moves((1, 1, 2), "normal") == [(2, 2)]
    assert winning_moves((1, 1, 2), "misere") == [(2, 1)]                  # leave 1, 1, 1


@settings(max_examples=60, deadline=None)
@given(SMALL_HEAPS, st.sampled_from(["normal", "misere"]))
def test_the_nim_sum_rule_is_what_a_full_minimax_finds(heaps, variant):
    game = Marienbad(tuple(heaps), variant)
    r = minimax(game, game.initial_state(), quick_wins=False)
    assert (r.value < 0) == mover_loses(tuple(heaps), variant)
    assert r.stats.nodes == tree_size(tuple(heaps))        # the count is the walked tree's


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=5), st.sampled_from(["normal", "misere"]))
def test_grundy_play_keeps_the_exact_outcome(heaps, variant):
    game = Marienbad(tuple(heaps), variant)
    s = game.initial_state()
    assert (outcome(s.heaps, variant)[0] < 0) == mover_loses(s.heaps, variant)
    rows = {r["move"]: r for r in every_move(game, s)}
    winning = {game.format_move(m) for m in winning_moves(s.heaps, variant)}
    assert winning == {m for m, r in rows.items() if r["outcome"] == "win"}
    # the perfect level plays one of them when there is one
    move = game.format_move(LEVELS["perfect"].play(game, s).move)
    assert move in winning or not winning


def test_hard_and_perfect_answer_d7_with_a_move_back_to_nim_sum_0():
    game = Marienbad()
    s = game.result(game.initial_state(), (3, 7))          # 1, 3, 5, 0: nim-sum 7
    for level in ("hard", "expert", "perfect"):
        after = game.result(s, LEVELS[level].play(game, s).move)
        assert nim_sum(after.heaps) == 0, level
    for level in ("beginner", "easy", "medium"):
        assert LEVELS[level].play(game, s).move in game.actions(s)


# -- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_search_full_gives_the_value_with_perfect_play(variant):
    out = run("search", "marienbad", "--heaps", "1,2,3", "--variant", variant, "--full",
              "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["complete"] and data["value"] < 0          # nim-sum 0: the mover loses
    out = run("search", "marienbad", "--heaps", "1,2,4", "--variant", variant, "--full",
              "--json")
    data = json.loads(out.stdout)
    assert data["complete"] and data["value"] > 0 and data["move"] == "c1"   # 4 -> 3


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_search_full_of_1357_the_film_loses_for_the_player_to_move(variant):
    # the whole tree, by alpha-beta (about 0.7 million nodes): a budget of nodes, not time
    out = run("search", "marienbad", "--heaps", "1,3,5,7", "--variant", variant, "--full",
              "--json", "--max-nodes", "2000000", "--time", "3600")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    won, plies = outcome((1, 3, 5, 7), variant)
    assert data["complete"] and won == -1 and data["value"] == -(MAX_SCORE - plies)


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_every_move_of_1357_loses_and_of_135_one_wins(variant):
    out = run("search", "marienbad", "--heaps", "1,3,5,7", "--variant", variant, "--analyse",
              "--json", "--max-nodes", "5000000", "--time", "3600")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["complete"] and len(data["moves"]) == 16
    assert {m["outcome"] for m in data["moves"]} == {"loss"}
    data = json.loads(run("search", "marienbad", "--heaps", "1,3,5", "--variant", variant,
                          "--analyse", "--json").stdout)
    # 1, 3, 5 has nim-sum 7: c3 leaves 1, 3, 2 (nim-sum 0), the only winning move
    assert data["best"] == ["c3"]
    assert [m["move"] for m in data["moves"] if m["outcome"] == "win"] == ["c3"]


def test_grundy_command_every_move_of_1357():
    for variant in ("normal", "misere"):
        out = run("grundy", "1,3,5,7", "--variant", variant, "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["nim_sum"] == 0 and data["mover_loses"] and data["outcome"] == "loss"
        assert data["binary"] == ["001", "011", "101", "111"] and data["columns"] == [2, 2, 4]
        assert len(data["moves"]) == 16 and {m["outcome"] for m in data["moves"]} == {"loss"}
    out = run("grundy", "1,3,5", "--moves", "c1", "--json")     # 1, 3, 4: nim-sum 6
    data = json.loads(out.stdout)
    assert data["nim_sum"] == 6 and not data["mover_loses"]
    assert [m["move"] for m in data["moves"] if m["outcome"] == "win"] == ["c2"]


def test_the_command_line_rejects_bad_heaps_in_one_line():
    out = run("grundy", "1,0,3")
    assert out.returncode == 2 and out.stderr.startswith("error: heaps are") and "Traceback" not in out.stderr
    out = run("search", "marienbad", "--moves", "e1", "--depth", "2")
    assert out.returncode == 2 and "no heap E" in out.stderr


def test_count_and_review_work_for_marienbad():
    out = run("count", "marienbad", "--heaps", "1,2", "--enumerate", "--json")
    data = json.loads(out.stdout)
    assert data["nodes"] == data["enumerated"] == 12 and data["heaps"] == [1, 2]
    out = run("review", "marienbad", "b2", "--heaps", "1,2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["classes"][0] in ("mistake", "blunder")   # b2 left 1: b1 won
