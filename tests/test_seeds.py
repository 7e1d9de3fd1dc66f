"""The course's own figures (../shared/seeds), reproduced to the digit.

Seed 000: "Algorithme minmax - Utilisation d'une heuristique" (Nim tree N=4, Connect-4 grid).
Seed 003: "Exploration d'espace d'état" (le jeu des allumettes, dimensions 5, 11 and 20).
Seed 004: the ENSIIE report (misere Nim, seed 004's heuristic, Zobrist table).
"""
import pytest

from ai.games.connect4.rules import Connect4
from ai.teach.exercise_tree import ExerciseTree
from ai.course.game import play
from ai.games.connect4.heuristic import CellValues, cell_values
from ai.games.nim.heuristic import NimCourse
from ai.games.nim.rules import Nim
from ai.games.nim.tree import course_minmax, course_tree, nim_tree_size
from ai.course.scores import MAX_SCORE
from ai.course.search import alphabeta, alphabeta_tt, minimax

# Seed 000, Listing VIII.1: the printed dictionary for N=4, key for key.
SEED_000_DICT = {
    'max_4-0': ['min_3-2', 'min_2-11', 'min_1-16'], 'min_3-2': ['max_2-3', 'max_1-8', 'max_0-11'],
    'max_2-3': ['min_1-4', 'min_0-7'], 'min_1-4': ['max_0-5'], 'max_0-5': [], 'min_0-7': [],
    'max_1-8': ['min_0-8'], 'min_0-8': [], 'max_0-11': [], 'min_2-11': ['max_1-11', 'max_0-14'],
    'max_1-11': ['min_0-12'], 'min_0-12': [], 'max_0-14': [], 'min_1-16': ['max_0-15'],
    'max_0-15': [],
}


def test_seed_000_dictionary_of_the_nim_tree_with_4_tokens_is_reproduced_key_for_key():
    tree = course_tree(4)
    assert tree == SEED_000_DICT
    assert list(tree) == list(SEED_000_DICT)   # same order as the printed dictionary


def test_seed_000_minmax_labels_the_root_of_the_4_token_tree_plus_one():
    # Listing VIII.2 on Listing VIII.1's dictionary: ">>> print(minmax('max_4-0',arbre))  1"
    assert course_minmax('max_4-0', course_tree(4)) == 1


def test_seed_000_is_the_misere_game_and_our_search_agrees_on_its_15_nodes_and_value():
    # Seed 000 gives +1 to a leaf where J0 is to move: J1 took the last token and J0 wins.
    # That is the misere rule (whoever takes the last match loses), not normal play, where
    # 4 tokens are a loss for the player to move (seed 003: "un multiple de 4 ... perd").
    result = minimax(Nim(4, 3, "misere"))
    assert result.stats.nodes == 15
    # J0 takes 3 and J1 must take the last one: the game ends 2 plies down, J0 the winner.
    assert result.proven == +1 and result.value == MAX_SCORE - 2
    assert result.move == 3            # take 3, leave the last token to J1
    flat = minimax(Nim(4, 3, "misere"), quick_wins=False)
    assert flat.value == MAX_SCORE     # the seed's label +1, on the maxScore scale


def test_seed_003_full_tree_of_dimension_5_has_28_nodes_and_the_first_player_wins_taking_1():
    result = minimax(Nim(5))
    assert result.stats.nodes == 28 == nim_tree_size(5)
    assert result.proven == +1
    assert result.move == 1
    assert result.root_values[1] > 0 > result.root_values[2] and result.root_values[3] < 0


def test_seed_003_dimension_20_tree_has_266079_nodes():
    # "l'arbre du jeu des allumettes de dimension 20 contient plus de 250'000 sommets"
    assert nim_tree_size(20) == 266_079
    assert minimax(Nim(20)).stats.nodes == 266_079


@pytest.mark.parametrize("quick_wins", [True, False])
def test_seed_003_alphabeta_depth_2_explores_9_of_28_nodes_trying_3_2_1(quick_wins):
    # "ici évaluation avec élagage et profondeur limitée à 2: Seuls 9 sommets sur 28 sont
    # explorés", with the window initialised to [-maxScore, +maxScore].
    game = Nim(5)
    result = alphabeta(game, depth=2, heuristic=NimCourse(game), window="course",
                       order=(3, 2, 1), record=True, quick_wins=quick_wins)
    assert result.stats.nodes == 9
    assert result.tree.explored == 9
    assert result.move == 1


def test_seed_003_alphabeta_depth_2_explores_12_nodes_trying_1_2_3():
    game = Nim(5)
    result = alphabeta(game, depth=2, heuristic=NimCourse(game), window="course",
                       order=(1, 2, 3))
    assert result.stats.nodes == 12


def test_seed_003_depth_limited_value_is_maxscore_minus_the_share_of_matches_left():
    # Depth 2 from 5 matches: J0 takes 1, and whatever J1 takes, J0 is to move with 3, 2 or 1
    # matches left; J1 leaves the most, 3 of 5: maxScore - 3/5, with maxScore the heuristic's
    # ceiling 1000.
    game = Nim(5)
    result = minimax(game, depth=2, heuristic=NimCourse(game))
    assert result.value == pytest.approx(1000 - 3 / 5)
    assert result.move == 1


def test_seed_003_game_of_dimension_11_plays_out_as_the_trace():
    # "déroulement d'un jeu de dimension 11, le joueur 1 débute": 3, 2, 2, 1, 3.
    game = Nim(11)
    trace = [(3, 8), (2, 6), (2, 4), (1, 3), (3, 0)]
    state = game.initial_state()
    for (take, left), mover in zip(trace, [0, 1, 0, 1, 0]):
        assert game.to_move(state) == mover
        state = game.result(state, take)
        assert state.remaining == left
    assert game.is_terminal(state)
    assert game.winner(state) == 0          # "le joueur 1 gagne..." (our player 0)


def test_seed_003_losing_positions_are_the_multiples_of_4_and_search_agrees():
    game = Nim(12)
    assert game.losing_positions() == [0, 4, 8, 12]
    for n in range(1, 13):
        value = minimax(Nim(n)).value
        assert (value < 0) == (n % 4 == 0), n


def test_seed_004_misere_losing_positions_are_one_more_than_a_multiple_of_4():
    # Seed 004: "Le perdant est le joueur qui retire la dernière allumette."
    assert Nim(13, 3, "misere").losing_positions() == [1, 5, 9, 13]
    for n in range(1, 13):
        value = minimax(Nim(n, 3, "misere")).value
        assert (value < 0) == (n % 4 == 1), n


def test_seed_000_cell_value_grid():
    assert cell_values(7, 6) == (
        (3, 4, 5, 7, 5, 4, 3),
        (4, 6, 8, 10, 8, 6, 4),
        (5, 8, 11, 13, 11, 8, 5),
        (5, 8, 11, 13, 11, 8, 5),
        (4, 6, 8, 10, 8, 6, 4),
        (3, 4, 5, 7, 5, 4, 3),
    )


def test_cell_values_count_the_fours_through_each_cell_on_other_board_sizes():
    # 4x4: each corner lies on a row, a column and a diagonal; the rest on a row and a column,
    # and the four centre cells on one diagonal too.
    assert cell_values(4, 4) == ((3, 2, 2, 3), (2, 3, 3, 2), (2, 3, 3, 2), (3, 2, 2, 3))
    # The 69 windows of 7x6 have 4 cells each.
    assert sum(map(sum, cell_values(7, 6))) == 69 * 4


def test_seed_000_heuristic_of_the_example_position_is_2():
    # A position with J0 on cells worth 4, 5, 7, 6, 8, 13, 11 and J1 on 3, 5, 4, 8, 10, 11, 11:
    # "h(grille) = [4+5+7+6+8+13+11] - [3+5+4+8+10+11+11] = 2".
    #   . . . . . . .
    #   . . . . . . .
    #   . . O . . . .
    #   . . X X O . .
    #   . X X O O . .
    #   O X X X O O .
    game = Connect4()
    state = game.from_moves("44412625353533")
    assert CellValues(game)(state, 0) == 2
    assert CellValues(game)(state, 1) == -2


def test_textbook_tree_minimax_value_is_3_and_alphabeta_prunes_two_leaves():
    # AIMA Figure 5.2 / the exercise of seed 004, Question 1: [[3,12,8],[2,4,6],[14,5,2]].
    game = ExerciseTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    assert minimax(game).value == 3
    result = alphabeta(game, record=True)
    assert result.value == 3 and result.move == 0
    pruned = [(n.parent, n.move) for n in result.tree.nodes if n.pruned]
    second_min = result.tree.nodes[0].children[1]
    assert pruned == [(second_min, 1), (second_min, 2)]   # the 4 and the 6
    assert result.tree.explored == 11


def test_seed_004_zobrist_table_gives_the_same_values_as_plain_alphabeta_on_connect4():
    # Seed 004 "n'a pas su corriger les problèmes": here the table stores bounds, not windows.
    game = Connect4()
    state = play(game, [3, 3, 2, 4])
    for depth in (1, 2, 3, 4, 5):
        plain = alphabeta(game, state, depth, heuristic=CellValues(game))
        tt = alphabeta_tt(game, state, depth, heuristic=CellValues(game), order="center")
        assert tt.value == plain.value, depth
        assert tt.stats.tt_probes > 0
