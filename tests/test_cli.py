"""``python -m ai`` as a teacher types it: real processes, real output."""
import json
import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=120)


def test_count_gives_seed_003s_266079_nodes_for_20_matches():
    out = run("count", "nim", "--n", "20", "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout)["nodes"] == 266_079


def test_count_an_explicit_tree():
    out = run("count", "tree", "--tree", "[[3,12,8],[2,4,6],[14,5,2]]", "--json")
    assert json.loads(out.stdout) == {"game": "tree", "nodes": 13, "leaves": 9}


def test_nim_dict_prints_seed_000s_dictionary():
    out = run("nim-dict", "4")
    assert out.returncode == 0
    assert out.stdout.startswith("Dictionnaire de l'arbre : {'max_4-0': ['min_3-2', 'min_2-11', 'min_1-16'],")


def test_search_reproduces_9_explored_of_28():
    out = run("search", "nim", "--n", "5", "--depth", "2", "--window", "course", "--order",
              "3,2,1", "--tree-size")
    assert out.returncode == 0
    assert "explored 9 nodes of 28" in out.stdout


def test_search_connect4_json_has_a_1_indexed_column_value_and_nodes():
    out = run("search", "connect4", "--moves", "4453", "--depth", "4", "--order", "center", "--json")
    data = json.loads(out.stdout)
    assert out.returncode == 0
    assert 1 <= data["move"] <= 7
    assert isinstance(data["value"], (int, float)) and data["nodes"] > 1


def test_search_finds_the_winning_column_in_1_indexed_notation():
    # X has three in the bottom row, columns 1-3; column 4 wins at once.
    out = run("search", "connect4", "--moves", "112233", "--depth", "2", "--json")
    data = json.loads(out.stdout)
    assert data["move"] == 4 and data["proven"] == 1


@pytest.mark.parametrize("args, message", [
    (("search", "connect4", "--moves", "44448", "--depth", "3"), "column 8 does not exist"),
    (("search", "connect4", "--moves", "4444444", "--depth", "3"), "column 4 is full"),
    (("search", "connect4", "--moves", "1122334", "--depth", "2", "--json"), None),
    (("search", "connect4", "--moves", "11223344", "--depth", "2"), "the game is over"),
    (("search", "connect4", "--moves", "4x", "--depth", "2"), "a column is a digit"),
    (("search", "connect4", "--depth", "-1"), "depth must be"),
    (("search", "nim", "--n", "5", "--moves", "4", "--depth", "2"), "cannot take 4"),
    (("search", "nim", "--n", "0", "--depth", "2"), "n must be"),
    (("search", "connect4", "--width", "12", "--depth", "2"), "width must be"),
    (("search", "tree", "--tree", "[[1,2],[3,", "--full"), "not well formed"),
    (("count", "nim", "--n", "30", "--enumerate"), "too large to enumerate"),
    (("nim-dict", "40"), "n must be 0 to 14"),
    (("solve", "connect4", "48"), "column 8"),
])
def test_bad_input_prints_one_clear_line_and_exits_2(args, message):
    out = run(*args)
    if message is None:   # a finished game is a position too: no move, its value
        assert out.returncode == 0 and json.loads(out.stdout)["move"] is None
        return
    assert out.returncode == 2, out.stderr
    assert message in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_unknown_game_is_a_usage_error_with_exit_2():
    out = run("search", "chess")
    assert out.returncode == 2 and "invalid choice" in out.stderr


@pytest.mark.parametrize("command", ["count", "nim-dict", "search", "solve"])
def test_every_subcommand_has_help(command):
    out = run(command, "--help")
    assert out.returncode == 0 and "usage: python -m ai " + command in out.stdout


def test_solve_prints_pascal_pons_published_score():
    # Test_L2_R2, line 1: "274552224131661 0" (a draw)
    out = run("solve", "connect4", "274552224131661", "--json")
    data = json.loads(out.stdout)
    assert out.returncode == 0 and data["score"] == 0 and data["complete"]
    assert 1 <= data["move"] <= 7


def test_solve_within_a_budget_says_what_is_proven():
    out = run("solve", "connect4", "4453", "--time", "0.3")
    assert out.returncode == 0
    assert "not proven within the budget; it lies between" in out.stdout
