"""Evaluation functions: bounded inside the win scores, and pointing the right way."""
from hypothesis import given, settings, strategies as st

from ai.games.connect4.rules import Connect4
from ai.heuristics import make_heuristic
from ai.games.connect4.heuristic import AdjustedCells, CellValues, Threats
from ai.games.nim.heuristic import NimCourse, NimExact
from ai.games.nim.rules import Nim
from ai.course.scores import HEURISTIC_MAX, MAX_SCORE, WIN_THRESHOLD
from ai.course.search import alphabeta

import pytest

from tests.strategies import connect4_games, reachable


def positions():
    return reachable(connect4_games(), 60)   # any size, up to 60 moves


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from([Threats, CellValues, AdjustedCells]))
def test_connect4_heuristics_stay_strictly_inside_the_heuristic_bound(pos, h):
    game, state = pos
    for player in (0, 1):
        v = h(game)(state, player)
        assert -HEURISTIC_MAX < v < HEURISTIC_MAX
    assert HEURISTIC_MAX < WIN_THRESHOLD < MAX_SCORE - 81   # below the slowest 9x9 win


@settings(max_examples=100, deadline=None)
@given(positions(), st.sampled_from([Threats, CellValues, AdjustedCells]))
def test_connect4_heuristics_are_zero_sum(pos, h):
    game, state = pos
    f = h(game)
    assert f(state, 0) == pytest.approx(-f(state, 1))


def test_the_threats_heuristic_prefers_an_open_three_to_a_scattered_position():
    game = Connect4()
    h = Threats(game)
    three = game.from_moves("33445")     # X: 3, 4, 5 on the bottom row; O: 3, 4 above
    scattered = game.from_moves("13475")  # X: 1, 4, 5 ; O: 3, 7
    assert h(three, 0) > h(scattered, 0)


def test_the_centre_is_worth_more_than_the_edge_for_every_heuristic():
    game = Connect4()
    for h in (Threats(game), CellValues(game), AdjustedCells(game)):
        assert h(game.from_moves("4"), 0) > h(game.from_moves("1"), 0)


def test_seed_004_adjusted_values_reward_aligned_stones():
    game = Connect4()
    h = AdjustedCells(game)
    # X: 3 and 4 side by side in the bottom row (O far away, on 7 and 7) vs X: 1 and 4 apart.
    together = game.from_moves("3747")
    apart = game.from_moves("1747")
    assert h(together, 0) > h(apart, 0)
    # A single X stone in column 4 alone: 0.2 x its cell value 7, no aligned neighbour.
    assert h(game.from_moves("4"), 0) == pytest.approx(0.2 * 7)


def test_nim_course_heuristic_is_maxscore_minus_the_share_left_for_J0():
    game = Nim(5)
    state = game.result(game.initial_state(), 1)     # 4 left
    assert NimCourse(game)(state, 0) == HEURISTIC_MAX - 4 / 5
    assert NimCourse(game)(state, 1) == -(HEURISTIC_MAX - 4 / 5)


@pytest.mark.parametrize("variant, losing", [("normal", {0, 4, 8, 12}), ("misere", {1, 5, 9})])
def test_nim_exact_heuristic_at_depth_1_plays_perfectly(variant, losing):
    for n in range(1, 13):
        game = Nim(n, 3, variant)
        result = alphabeta(game, depth=1, heuristic=NimExact(game))
        if n in losing:
            assert result.value < 0, n
        else:
            assert (n - result.move) in losing or result.proven == 1, n


def test_make_heuristic_names_the_choices_on_a_typo():
    with pytest.raises(ValueError, match="threats, cells, adjusted"):
        make_heuristic(Connect4(), "treats")
    assert make_heuristic(Nim(5)).name == "course"
