"""Tic-tac-toe's accuracy (``ai.games.tictactoe.accuracy``): a heuristic's move at a depth,
refereed by the solved game on every position (up to symmetry) where a move can throw the
game away; the figure a class tournament's entries show."""
import pytest

from ai.games.tictactoe import accuracy as A
from ai.games.tictactoe.board import canonical_key
from ai.games.tictactoe.solver import best_move, move_values
from ai.teach.match import Entrant, player


def sign(x):
    return (x > 0) - (x < 0)


def test_the_positions_are_each_one_where_a_move_can_throw_the_game_away_once():
    ps = A.positions()
    assert len(ps) == 431
    assert len({canonical_key(s) for s in ps}) == len(ps)             # none twice
    for s in ps:
        assert canonical_key(s) == (s.x | s.o << 9)                   # its smallest image
        signs = {sign(v) for v in move_values(s).values()}
        assert len(signs) > 1                                         # a move loses value
    assert {s.moves for s in ps} == set(range(1, 8))


def test_the_perfect_move_scores_all_and_the_worst_scores_none():
    perfect = A.judge(best_move)
    assert (perfect.accuracy, perfect.blunders) == (1.0, 0)

    def worst(s):
        values = move_values(s)
        return min(values, key=values.get)

    r = A.judge(worst)
    assert r.accuracy == 0.0 and r.blunders == r.positions == 431


def test_the_figure_is_the_share_of_positions_where_the_entrants_move_keeps_the_value():
    r = A.measure("lines=1,open2=4", 2)
    play = player(A.GAME, Entrant("Ada", "lines=1,open2=4"), 2, None)
    kept = blunders = 0
    for s in A.positions():
        values = move_values(s)
        got, best = values[play(s).move], max(values.values())
        kept += got == best
        blunders += sign(got) < sign(best)
    assert 0 < kept < len(A.positions())                     # the measure can tell them apart
    assert (r.accuracy, r.blunders, r.positions) == (kept / 431, blunders, 431)
    assert r.as_dict()["heuristic"] == "lines=1,open2=4" and r.depth == 2


def test_a_sensible_heuristic_beats_a_perverse_one_and_deeper_helps():
    good, bad = A.measure("lines=1,open2=4", 1), A.measure("lines=-1", 1)
    assert good.accuracy > bad.accuracy and good.blunders < bad.blunders
    assert A.measure("lines=-1", 4).blunders < bad.blunders


def test_the_same_weights_written_otherwise_are_measured_once():
    assert A.measure("open2=4, lines=1", 2) is A.measure("lines=1,open2=4", 2)


@pytest.mark.parametrize("depth", [0, 10, "2", True])
def test_a_depth_out_of_range_is_refused(depth):
    with pytest.raises(ValueError, match="depth"):
        A.measure("lines=1", depth)


def test_weights_over_unknown_terms_are_refused():
    with pytest.raises(ValueError):
        A.measure("open3=8", 2)
