"""The course's alpha-beta with a table stores what it proves when it searches to the end of
the game (issue 36): Nim(21) and tic-tac-toe's empty board find positions again in the table
and explore fewer nodes than plain alpha-beta, for the same value; and the entries it shows
say which are exact and which are bounds."""
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from ai.course.search import alphabeta, alphabeta_tt, minimax
from ai.games.nim.rules import Nim
from ai.games.tictactoe.rules import TicTacToe
from tests.strategies import nim_games, reachable

ROOT = Path(__file__).resolve().parent.parent


def test_nim_21_to_the_end_finds_its_positions_again_in_the_table():
    game = Nim(21)
    plain, tt = alphabeta(game), alphabeta_tt(game)
    assert tt.stats.tt_hits > 0
    assert tt.stats.nodes < plain.stats.nodes
    assert (tt.value, tt.move) == (plain.value, plain.move)


def test_tictactoe_empty_board_to_the_end_finds_its_positions_again_in_the_table():
    game = TicTacToe()
    plain, tt = alphabeta(game), alphabeta_tt(game)
    assert tt.stats.tt_hits > 0
    assert tt.stats.nodes < plain.stats.nodes
    assert tt.value == plain.value == 0


def _search(*args):
    out = subprocess.run([sys.executable, "-m", "ai", "search", *args, "--full", "--json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_command_line_reports_the_hits_on_nim_21_and_tictactoe():
    for game in (["nim", "--n", "21"], ["tictactoe"]):
        plain = _search(*game, "--algorithm", "alphabeta")
        tt = _search(*game, "--algorithm", "alphabeta-tt")
        assert plain["tt_hits"] == 0 and tt["tt_hits"] > 0
        assert tt["nodes"] < plain["nodes"]
        assert tt["value"] == plain["value"]


def tictactoe_positions(max_moves=9, min_moves=0):
    @st.composite
    def build(draw):
        game = TicTacToe()
        state = game.initial_state()
        for _ in range(draw(st.integers(min_moves, max_moves))):
            moves = game.actions(state)
            if not moves:
                break
            state = game.result(state, draw(st.sampled_from(moves)))
        return game, state
    return build()


searches = st.fixed_dictionaries({
    "window": st.sampled_from(["infinite", "course"]),
    "order": st.sampled_from([None, "reverse", "center"]),
    "quick_wins": st.booleans(),
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=reachable(nim_games(max_n=16), 6), kw=searches)
def test_a_table_to_the_end_keeps_minimax_value_on_nim(position, kw):
    game, state = position
    expected = minimax(game, state, quick_wins=kw["quick_wins"]).value
    assert alphabeta(game, state, **kw).value == expected
    assert alphabeta_tt(game, state, **kw).value == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=tictactoe_positions(min_moves=3), kw=searches)
def test_a_table_to_the_end_keeps_minimax_value_on_tictactoe(position, kw):
    game, state = position
    exact = minimax(game, state, quick_wins=kw["quick_wins"])
    assert alphabeta(game, state, **kw).value == exact.value
    result = alphabeta_tt(game, state, **kw)
    assert result.value == exact.value
    if result.move is not None:     # the move it picks is worth that value
        assert exact.root_values[result.move] == exact.value


def test_a_recorded_hit_says_whether_the_table_kept_a_value_or_a_bound():
    tree = alphabeta_tt(Nim(8), record=True).tree
    hits = [n for n in tree.nodes if n.table == "hit"]
    assert hits and {n.table_bound for n in hits} <= {"exact", "lower", "upper"}
    stores = [e for e in tree.events if e[0] == "store"]
    assert stores and all(e[5][0] is None for e in stores)     # stored to the end of the game
