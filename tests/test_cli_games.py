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


# -- a game whose moves are pairs, defined here: the command line reads and writes its moves ----
# through its own methods (issue 34: ``move + 1`` crashed on a move that is not a number)

import types
from typing import NamedTuple

import pytest

from ai import cli
from ai.course.game import Game
from ai.messages import GameError


class HeapsState(NamedTuple):
    heaps: tuple
    to_move: int


class TwoHeaps(Game):
    """Nim on heaps of 1 and 2 matches: a move is (heap, taken), heaps counted from 0, written
    ``2-1`` (heap 2, take 1), a game's moves separated by commas; who takes the last wins."""

    name = "twoheaps"

    def initial_state(self):
        return HeapsState((1, 2), 0)

    def to_move(self, s):
        return s.to_move

    def actions(self, s):
        return [(h, t) for h, n in enumerate(s.heaps) for t in range(1, n + 1)]

    def result(self, s, move):
        if move not in self.actions(s):
            raise GameError("cannot take %(move)s", move=self.format_move(move))
        h, t = move
        return HeapsState(s.heaps[:h] + (s.heaps[h] - t,) + s.heaps[h + 1:], 1 - s.to_move)

    def is_terminal(self, s):
        return not any(s.heaps)

    def utility(self, s, player):
        return -1 if player == s.to_move else 1         # the player to move took nothing last

    def parse_move(self, text):
        heap, _, taken = text.partition("-")
        if not (heap.isdigit() and taken.isdigit()):
            raise GameError("a move is heap-taken, such as 2-1, not %(text)r", text=text)
        return int(heap) - 1, int(taken)

    def format_move(self, move):
        return f"{move[0] + 1}-{move[1]}"

    def parse_moves(self, text):
        return [self.parse_move(m) for m in text.split(",")] if text else []

    def format_moves(self, moves):
        return ",".join(map(self.format_move, moves))


@pytest.fixture()
def twoheaps(monkeypatch):
    """``python -m ai`` with a game folder ``ai/games/twoheaps`` whose rules are TwoHeaps."""
    package = types.ModuleType("ai.games.twoheaps")
    package.Rules = TwoHeaps
    monkeypatch.setitem(sys.modules, "ai.games.twoheaps", package)
    names = games.names()
    monkeypatch.setattr(games, "names", lambda: sorted(names + ["twoheaps"]))


def test_search_reads_and_writes_a_game_s_moves_in_its_own_format(twoheaps, capsys):
    # Heaps 1 and 2: the only winning move evens them (take 1 from heap 2), and wins in 3 plies.
    assert cli.main(["search", "twoheaps", "--full", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] == "2-1" and data["value"] > 0 and data["proven"] == 1
    assert data["pv"][0] == "2-1" and len(data["pv"]) == 3
    assert cli.main(["search", "twoheaps", "--moves", "2-1", "--full"]) == 0
    text = capsys.readouterr().out               # now the player to move loses whatever it takes
    assert re.search(r"^move: [12]-1$", text, re.M) and "value: -" in text
    assert cli.main(["search", "twoheaps", "--moves", "2-1,2-1", "--full", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == "1-1"   # the last match: the win
    assert cli.main(["search", "twoheaps", "--moves", "2-3", "--full"]) == 2
    assert "cannot take 2-3" in capsys.readouterr().err


def test_review_and_analyse_write_a_game_s_moves_in_its_own_format(twoheaps, capsys):
    assert cli.main(["search", "twoheaps", "--analyse", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] == ["2-1"] and {m["move"] for m in data["moves"]} == {"1-1", "2-1", "2-2"}
    assert cli.main(["review", "twoheaps", "1-1,2-2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["classes"] == ["blunder", "best"] and data["best_moves"][0] == "2-1"
