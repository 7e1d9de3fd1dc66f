"""What a search stopped by its budget plays (``ai.course.scores.best_so_far``), the rule
every engine shares: the best root move whose search ended, the first of equals, else the
first move in the search's order with the value 0.

The course's exercise tree makes it visible: ``[[3, 12], [3, 8], [14, 9]]``, a max root over
three min nodes worth 3, 3 and 9. Minimax enters the root (node 1), the first min node and
its two leaves (nodes 2-4), the second and its two leaves (5-7), and a budget of 7 nodes
stops it as it enters the third (node 8): it has settled two moves worth 3 each and not
seen the 9.
"""
import pytest

from ai.course.scores import best_so_far
from ai.course.search import alphabeta, minimax
from ai.teach.exercise_tree import ExerciseTree

TREE = [[3, 12], [3, 8], [14, 9]]


def test_a_search_stopped_after_two_moves_plays_the_first_of_the_two_equal_best():
    game = ExerciseTree(TREE, "max")
    whole = minimax(game, depth=None)
    assert (whole.move, whole.value, whole.complete) == (2, 9, True)
    stopped = minimax(game, depth=None, max_nodes=7)
    assert not stopped.complete
    assert stopped.root_values == {0: 3, 1: 3}
    assert (stopped.move, stopped.value, stopped.pv) == (0, 3, (0,))


def test_a_min_root_picks_its_own_best_the_lowest_for_max():
    # negamax values are the side to move's: the min root's 2 is worth -2 to it, 5 is worth
    # -5, and the third move's 1, its best, is never seen
    game = ExerciseTree([[5, 3], [2, 1], [0, 1]], "min")
    assert minimax(game, depth=None).move == 2
    stopped = minimax(game, depth=None, max_nodes=7)
    assert stopped.root_values == {0: -5, 1: -2}
    assert (stopped.move, stopped.value) == (1, -2)


def test_a_search_stopped_before_any_move_plays_the_first_in_its_order_with_value_0():
    game = ExerciseTree(TREE, "max")
    for order, first in ((None, 0), ("reverse", 2)):
        stopped = alphabeta(game, depth=None, order=order, max_nodes=1)
        assert not stopped.complete and stopped.root_values == {}
        assert (stopped.move, stopped.value, stopped.pv) == (first, 0, (first,))


@pytest.mark.parametrize("values, moves, played", [
    ({4: 1, 2: 7, 6: 7}, [1, 2, 3, 4], (2, 7)),     # the first of equals, in the values' order
    ({6: 7, 2: 7}, [1, 2, 3, 4], (6, 7)),           # ... which is the order they ended in
    ({3: -4, 5: -9}, [1, 2], (3, -4)),              # the side to move maximises its own value
    ({}, [5, 1, 2], (5, 0)),                        # nothing settled: the order's first
    ({}, [], (None, 0)),                            # no move at all
])
def test_the_rule_itself(values, moves, played):
    assert best_so_far(values, moves) == played
