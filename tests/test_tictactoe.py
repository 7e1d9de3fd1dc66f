"""Tic-tac-toe ("le morpion") as the course counts and solves it: the whole tree (549,946
nodes), its value with perfect play (a draw), the famous positions, and a perfect player that
never loses, whatever the opponent plays.

Cells are numbered as on a phone's keypad, top row first::

    1 | 2 | 3
    4 | 5 | 6
    7 | 8 | 9
"""
import pytest

from ai.course.game import play
from ai.games.tictactoe import TicTacToe, TicTacToeState
from ai.games.tictactoe.heuristic import CELL_VALUES, CellValues, OpenLines
from ai.games.tictactoe.board import SYMMETRIES
from ai.games.tictactoe.solver import (facts, move_values, principal_variation, solve,
                                       tree_size, value)
from ai.course.scores import MAX_SCORE
from ai.course.search import alphabeta, alphabeta_tt, minimax
from ai.levels import LEVELS

GAME = TicTacToe()


def after(moves: str) -> TicTacToeState:
    return play(GAME, GAME.parse_moves(moves))


def values(moves: str) -> dict[str, int]:
    """Every legal move's exact value, by cell number."""
    return {GAME.format_move(m): v for m, v in move_values(after(moves)).items()}


# -- the rules -----------------------------------------------------------------------------

def test_x_starts_and_the_players_alternate():
    s = after("51")
    assert GAME.rows(s) == [[1, None, None], [None, 0, None], [None, None, None]]
    assert GAME.to_move(s) == 0 and s.moves == 2


def test_three_in_a_row_wins_and_ends_the_game():
    # X: 1 2 3 along the top row; O: 4 5
    s = after("14253")
    assert GAME.is_terminal(s) and GAME.winner(s) == 0
    assert GAME.utility(s, 0) == 1 and GAME.utility(s, 1) == -1
    assert GAME.winning_cells(s) == {0, 1, 2}
    assert GAME.actions(s) == []


def test_a_full_board_without_a_line_is_a_draw():
    # X O X / X O O / O X X
    s = after("123587469")
    assert GAME.is_terminal(s) and GAME.winner(s) is None and GAME.utility(s, 0) == 0


@pytest.mark.parametrize("moves, message", [
    ("55", "cell 5 is taken"), ("14253" + "6", "the game is over")])
def test_an_illegal_move_is_refused_with_its_reason(moves, message):
    with pytest.raises(ValueError, match=message):
        after(moves)


@pytest.mark.parametrize("text", ["0", "10", "d1", "a4", "", "x", "٥"])
def test_a_cell_is_a_digit_1_to_9_or_a1_to_c3(text):
    with pytest.raises(ValueError, match="a cell is a digit from 1 to 9"):
        GAME.parse_move(text)


def test_cells_read_as_digits_or_coordinates():
    assert [GAME.parse_move(t) for t in ("1", "5", "9", "a1", "B2", "c3", "c1")] == [0, 4, 8, 0, 4, 8, 2]
    assert GAME.coordinates(2) == "c1" and GAME.format_move(4) == "5"
    assert GAME.format_moves(GAME.parse_moves("5139")) == "5139"
    with pytest.raises(ValueError, match="moves are cells 1 to 9"):
        GAME.parse_moves("501")


def test_states_are_immutable_and_transpositions_are_equal():
    # X 1 then X 9, or X 9 then X 1: the same stones, the same state and key
    assert after("1592") == after("9512") and hash(after("1592")) == hash(after("9512"))
    assert GAME.key(after("1592")) == GAME.key(after("9512"))
    assert GAME.key(after("15")) != GAME.key(after("51"))


def test_the_eight_symmetries_of_the_square_are_distinct():
    assert len(set(SYMMETRIES)) == 8
    # the four corner openings are one position up to symmetry, the centre another
    corners = {GAME.canonical(after(c)) for c in "1379"}
    assert len(corners) == 1 and GAME.canonical(after("5")) not in corners


# -- the heuristics --------------------------------------------------------------------------

def test_each_cell_is_worth_its_lines_as_seed_000_rates_connect4s():
    assert CELL_VALUES == (3, 2, 3,
                           2, 4, 2,
                           3, 2, 3)


@pytest.mark.parametrize("cell, score", [("5", 4), ("1", 3), ("2", 2)])
def test_open_lines_rate_the_centre_above_a_corner_above_an_edge(cell, score):
    # X's 8 open lines minus O's: the centre leaves O 4, a corner 5, an edge 6
    h = OpenLines(GAME)
    assert h(after(cell), 0) == score and h(after(cell), 1) == -score
    assert h(after(""), 0) == 0


def test_cell_values_score_my_cells_minus_the_opponents():
    assert CellValues(GAME)(after("51"), 0) == 4 - 3


# -- the whole tree, counted and solved -------------------------------------------------------

def test_the_whole_tree_has_549946_nodes_and_255168_games():
    f = facts()
    assert f["nodes"] == 549_946 == tree_size(GAME.initial_state())
    assert (f["games"], f["x_wins"], f["o_wins"], f["draws"]) == (255_168, 131_184, 77_904, 46_080)
    assert f["positions"] == 5_478 and f["positions_up_to_symmetry"] == 765


def test_minimax_visits_every_node_of_the_whole_tree_and_finds_a_draw():
    r = minimax(GAME)
    assert r.stats.nodes == 549_946 and r.value == 0 and r.complete


def test_the_tree_to_a_depth_counts_the_plies_below():
    # 1 root + 9 + 9x8
    assert tree_size(GAME.initial_state(), 2) == 1 + 9 + 72
    assert tree_size(after("14253")) == 1          # a finished game is a leaf


def test_alpha_beta_cuts_the_tree_and_a_table_cuts_it_again():
    # The course's ±1 scores, cells tried 1 to 9: about 18,000 nodes (a French notebook's
    # count); centre first, and with a transposition table, far fewer. Same value: a draw.
    ab = alphabeta(GAME, quick_wins=False)
    tt = alphabeta_tt(GAME, None, 9, quick_wins=False)
    centre = alphabeta(GAME, quick_wins=False, order="center")
    centre_tt = alphabeta_tt(GAME, None, 9, quick_wins=False, order="center")
    assert (ab.stats.nodes, tt.stats.nodes) == (18_297, 4_852)
    assert (centre.stats.nodes, centre_tt.stats.nodes) == (7_275, 1_999)
    assert ab.value == tt.value == centre.value == centre_tt.value == 0


def test_the_empty_board_is_a_draw_whatever_x_opens_with():
    assert solve(after("")) == (0, 9)
    assert set(values("").values()) == {0}


def test_after_a_centre_opening_o_must_take_a_corner():
    # an edge reply loses: X forks
    v = values("5")
    assert {c for c, x in v.items() if x == 0} == {"1", "3", "7", "9"}
    assert all(v[c] < 0 for c in "2468")


def test_after_a_corner_opening_only_the_centre_draws():
    v = values("1")
    assert v["5"] == 0 and all(x < 0 for c, x in v.items() if c != "5")


def test_a_fork_wins_two_threats_cannot_both_be_blocked():
    # X 1, O 2, X 5 threatens 9; O blocks at 9; X 7 makes two threats (4 and 3): X wins
    #   X O .        X O .
    #   . X .   ->   . X .
    #   . . O        X . O
    assert values("1259")["7"] == MAX_SCORE - 3      # X's move, X's next move wins
    s = after("12597")
    assert solve(s) == (-1, 2)                       # O to move loses in 2 plies
    assert all(v == -(MAX_SCORE - 2) for v in move_values(s).values())


def test_the_perfect_line_from_the_start_fills_the_board_in_a_draw():
    pv = principal_variation(after(""))
    assert len(pv) == 9 and GAME.winner(play(GAME, pv)) is None


def test_exact_values_equal_alpha_beta_to_the_end_in_every_position():
    seen, todo = set(), [after("")]
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        for m in GAME.actions(s):
            todo.append(GAME.result(s, m))
    checked = 0
    for s in seen:
        if GAME.is_terminal(s):
            continue
        r = alphabeta(GAME, s, order="center")
        assert r.value == value(*solve(s)), GAME.render(s)
        assert r.value == max(move_values(s).values())
        checked += 1
    assert checked == 4_520      # 5,478 positions, 958 of them finished games


# -- the levels: perfect or weaker -------------------------------------------------------------

def games_against_every_reply(level: str, ai_side: int) -> tuple[int, int, int]:
    """The level plays ``ai_side`` against an opponent who tries every legal move at each of
    its turns: (games it lost, drew, won), over the whole tree of those games."""
    seen = {}

    def walk(s):
        if GAME.is_terminal(s):
            w = GAME.winner(s)
            return (1, 0, 0) if w == 1 - ai_side else (0, 1, 0) if w is None else (0, 0, 1)
        if s not in seen:
            if GAME.to_move(s) == ai_side:
                seen[s] = walk(GAME.result(s, LEVELS[level].play(GAME, s).move))
            else:
                seen[s] = tuple(map(sum, zip(*(walk(GAME.result(s, m)) for m in GAME.actions(s)))))
        return seen[s]

    return walk(GAME.initial_state())


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "perfect"])
@pytest.mark.parametrize("ai_side", [0, 1])
def test_from_medium_up_no_level_ever_loses_whatever_the_opponent_plays(level, ai_side):
    lost, drawn, won = games_against_every_reply(level, ai_side)
    assert lost == 0 and drawn + won > 50           # every line of play was tried


def test_the_perfect_level_plays_the_solved_game():
    r = LEVELS["perfect"].play(GAME, after("1259"))
    assert r.algorithm == "exact" and GAME.format_move(r.move) == "7"    # the fork, centre first
    assert r.root_values == move_values(after("1259"))


@pytest.mark.parametrize("level, side", [("beginner", 0), ("beginner", 1), ("easy", 1)])
def test_beginner_and_easy_can_be_beaten(level, side):
    lost, drawn, won = games_against_every_reply(level, side)
    assert lost > 0


def test_easy_sees_two_plies_so_a_fork_catches_it():
    # X 1, O 5, X 8: O must not play 3 (X 7 then threatens 4 and 9 at once); easy does
    s = after("158")
    assert move_values(s)[2] < 0 and move_values(s)[3] == 0
    assert GAME.format_move(LEVELS["easy"].play(GAME, s).move) == "3"
    assert LEVELS["medium"].play(GAME, s).move not in (1, 2)       # medium sees the fork
