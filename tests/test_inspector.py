"""Issue 13, "the heuristic opened up": each Connect-4 heuristic on a position, term by term,
as the course writes it (/connect4/heuristic), and the terms the page adds up."""
import re
from html import unescape

import pytest

from ai.connect4 import Connect4
from ai.heuristics import AdjustedCells, CellValues, Threats, make_heuristic
from ai.position import cell_value_terms, columns_of, parse_columns, state_of

GAME = Connect4()

# Seed 000, Figure VIII.1 as the course reads it (web/course.py): o is J0 (yellow), x J1 (red)
#   . . x . . . .
#   . . x o o . .
#   . o x x o . .
#   x o o o x x .
FIGURE_VIII_1 = "2-11-1222-121-211-2-"

# A small example to add up by hand (the moves 3 7 4 7 5): yellow's three in the bottom row
# (columns 3, 4, 5), red's two stones in column 7. Red to move.
#   . . . . . . .
#   . . . . . . x
#   . . o o o . x
SMALL = "--1-1-1--22"


def test_the_course_s_example_is_read_row_by_row_as_the_course_lists_its_terms():
    columns = parse_columns(FIGURE_VIII_1, GAME)
    terms = cell_value_terms(GAME, columns)
    # "h(grille) = [4+5+7+6+8+13+11] - [3+5+4+8+10+11+11] = 2"
    assert terms["j0"] == [4, 5, 7, 6, 8, 13, 11]
    assert terms["j1"] == [3, 5, 4, 8, 10, 11, 11]
    assert terms["h"] == 2 == CellValues(GAME)(state_of(GAME, columns), 0)
    # the grid, top row first: Figure VIII.2's values, with the stones on them
    assert [v for v, _ in terms["grid"][0]] == [3, 4, 5, 7, 5, 4, 3]
    assert terms["grid"][-1] == [(3, 1), (4, 0), (5, 0), (7, 0), (5, 1), (4, 1), (3, None)]


def test_a_position_set_up_by_hand_is_the_state_its_game_reaches():
    columns = parse_columns(FIGURE_VIII_1, GAME)
    reached = GAME.from_moves("44453353532621")
    state = state_of(GAME, columns)
    assert state == reached and state.key == reached.key and state.moves == 14
    assert GAME.to_move(state) == 0


def test_the_adjusted_heuristic_added_up_by_hand():
    # alpha x the cell value, plus each open direction's aligned count squared:
    #   yellow col 3 (cell 5): horizontal 2 (cols 4, 5) -> 4; vertical 0; the diagonal up
    #     to the right 0; the other diagonal leaves no room for four (blocked) -> 0.
    #   yellow col 4 (cell 7): horizontal 2 -> 4; the rest 0.
    #   yellow col 5 (cell 5): horizontal 2 -> 4; the rest 0 (one diagonal blocked).
    #   red col 7, bottom (cell 3): horizontal blocked by yellow's col 5 (room for 2);
    #     vertical 1 (the red above) -> 1; diagonals 0 (one blocked).
    #   red col 7, above (cell 4): vertical 1 -> 1; the rest 0.
    # yellow: alpha x (5 + 7 + 5) + 12, red: alpha x (3 + 4) + 2, so 10 alpha + 10.
    columns = parse_columns(SMALL, GAME)
    state = state_of(GAME, columns)
    assert state == GAME.from_moves("37475")
    for alpha, expected in ((0.2, 12.0), (0.5, 15.0), (0, 10.0)):
        h = AdjustedCells(GAME, alpha=alpha)
        assert h(state, 0) == pytest.approx(expected)
        assert h(state, 1) == pytest.approx(-expected)
    stones = AdjustedCells(GAME).stones(state, 0)
    assert [(s["column"], s["row"], s["sign"]) for s in stones] == [
        (2, 0, 1), (3, 0, 1), (4, 0, 1), (6, 0, -1), (6, 1, -1)]
    assert stones[0]["lines"] == ((2, True), (0, True), (0, True), (0, False))
    assert stones[3]["lines"] == ((0, False), (1, True), (0, False), (0, True))
    assert [s["base"] for s in stones] == [5, 7, 5, 3, 4]
    assert sum(s["sign"] * s["value"] for s in stones) == pytest.approx(12.0)


def test_alpha_is_the_adjusted_heuristic_s_setting_and_the_default_is_the_report_s():
    assert AdjustedCells(GAME).alpha == 0.2
    assert make_heuristic(GAME, "adjusted", alpha=0.5).alpha == 0.5
    assert isinstance(make_heuristic(GAME, "cells", alpha=0.5), CellValues)   # not its setting
    with pytest.raises(ValueError):
        AdjustedCells(GAME, alpha=-1)
