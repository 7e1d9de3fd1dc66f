"""``python -m ai`` finds the games by their folders (``ai/games/<name>/``): tic-tac-toe's
whole tree counted and walked as a French notebook counts it, and the command line itself
naming no game."""
import json
import re
import subprocess
import sys
from pathlib import Path

from ai import games

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_count_tictactoe_walks_the_whole_tree_549946_nodes_and_finds_a_draw():
    out = run("count", "tictactoe", "--enumerate", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["nodes"] == data["enumerated"] == 549_946
    assert data["value"] == 0 and data["outcome"] == "draw"
    assert (data["games"], data["positions"], data["positions_up_to_symmetry"]) == (255_168, 5_478, 765)
    # about 18,000 with alpha-beta (cells tried 1 to 9), fewer with a table, fewer centre first
    assert (data["alphabeta"], data["alphabeta_tt"]) == (18_297, 4_852)
    assert (data["alphabeta_centre"], data["alphabeta_tt_centre"]) == (7_275, 1_999)


def test_search_tictactoe_to_the_end_counts_against_the_whole_tree():
    # X centre, O corner: the rest of the game has 6,812 nodes; alpha-beta explores fewer
    out = run("search", "tictactoe", "--moves", "51", "--full", "--record")
    assert out.returncode == 0, out.stderr
    explored = re.search(r"explored (\d+) nodes of 6812", out.stdout)
    assert explored and int(explored.group(1)) < 6812
    assert "value: 0" in out.stdout


def test_the_perfect_level_plays_the_fork():
    # X 1, O 2, X 5, O 9: X 7 makes two threats (3 and 4) and wins in 3 plies
    out = run("search", "tictactoe", "--moves", "1259", "--level", "perfect", "--json")
    data = json.loads(out.stdout)
    assert data["move"] in (4, 7) and data["proven"] == 1 and data["algorithm"] == "exact"


def test_a_taken_cell_is_one_clear_line_and_exit_2():
    out = run("search", "tictactoe", "--moves", "55", "--depth", "2")
    assert out.returncode == 2 and out.stderr.strip() == "error: move 2 (5): cell 5 is taken"


def test_a_game_whose_tree_is_too_large_to_count_says_which_can():
    out = run("count", "connect4")
    assert out.returncode == 2
    assert "far too large to count" in out.stderr and "tictactoe" in out.stderr


def test_every_game_folder_is_a_choice_of_the_command_line():
    out = run("search", "--help")
    choices = re.search(r"\{([a-z0-9,]+)\}\n", out.stdout).group(1).split(",")
    assert games.names() and set(games.names()) <= set(choices)


def test_the_command_line_names_no_game():
    text = (ROOT / "ai" / "cli.py").read_text()
    found = re.findall(r"connect|nim\b|tictactoe|tic-tac|morpion|isinstance\([a-z]+, (Connect4|Nim|TicTacToe)", text, re.I)
    assert not found
    assert "games.names()" in text              # what it reads instead


def test_two_games_may_share_an_option_of_their_settings():
    # two games with a misère variant both define --variant: argparse refuses a second
    # definition, so the first serves both, and sets the one setting they read
    import argparse
    from ai.cli import _GameOptions
    parser = argparse.ArgumentParser()
    for name in ("first", "second"):
        _GameOptions(parser.add_argument_group(name)).add_argument(
            "--variant", choices=("normal", "misere"), default="normal")
    assert parser.parse_args(["--variant", "misere"]).variant == "misere"
    assert parser.parse_args([]).variant == "normal"


def test_search_analyse_gives_every_moves_exact_outcome_for_any_game():
    # X centre, O corner: every X move keeps the draw
    out = run("search", "tictactoe", "--moves", "51", "--analyse", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["complete"] and len(data["moves"]) == 7
    assert {m["outcome"] for m in data["moves"]} == {"draw"} and len(data["best"]) == 7
    # 7 matches, take 1 to 3: taking 3 leaves 4, a multiple of 4 (seed 003's theory)
    data = json.loads(run("search", "nim", "--n", "7", "--analyse", "--json").stdout)
    assert data["best"] == [3] and [m["outcome"] for m in data["moves"]] == ["loss", "loss", "win"]
    out = run("search", "nim", "--n", "7", "--analyse", "--depth", "3")
    assert out.returncode == 2 and "leave out --depth" in out.stderr
