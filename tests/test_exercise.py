"""The exercise lab's checker, on the textbook tree [[3,12,8],[2,4,6],[14,5,2]]:

        R (max) = 3
      /      |      \\
   1 (min)  2 (min)  3 (min)
   3 12 8   2 4 6    14 5 2       alpha-beta prunes 2.2 and 2.3 (the 4 and the 6)
"""
import pytest

from ai.exercise import check, name, solve
from ai.exercise_tree import ExerciseTree

TREE = ExerciseTree("[[3,12,8],[2,4,6],[14,5,2]]")


def test_alphabeta_explores_11_of_13_and_prunes_the_4_and_the_6():
    solved = solve(TREE, "alphabeta")
    assert (solved.explored, solved.size) == (11, 13)
    assert {name(p) for p in solved.pruned_roots()} == {"2.2", "2.3"}
    pruned_leaves = [n.value for n in solved.full.nodes if n.pruned]
    assert pruned_leaves == [4, 6]          # drawn struck out, with their values


def test_a_correct_answer_is_accepted_node_by_node():
    verdicts = check(solve(TREE), {"R": 3, "1": 3, "2": 2, "3": 2}, {"2.2", "2.3"})
    assert all(v.ok for v in verdicts), [(v.name, v.message) for v in verdicts]
    assert [v.name for v in verdicts] == ["R", "1", "2", "2.2", "2.3", "3"]


def test_a_wrong_answer_names_the_wrong_nodes():
    verdicts = {v.name: v for v in check(solve(TREE), {"R": 3, "1": 3, "2": 4, "3": 2},
                                         {"2.2", "1.1"})}
    assert not verdicts["2"].ok and "is 2, not 4" in verdicts["2"].message
    assert not verdicts["2.3"].ok and "should be marked pruned" in verdicts["2.3"].message
    assert not verdicts["1.1"].ok and "its value 3 is used" in verdicts["1.1"].message
    assert verdicts["2.2"].ok and verdicts["R"].ok


def test_minimax_mode_prunes_nothing():
    solved = solve(TREE, "minimax")
    assert solved.explored == solved.size == 13 and not solved.pruned_roots()
    assert all(v.ok for v in check(solved, {"R": 3, "1": 3, "2": 2, "3": 2}, set()))


def test_marking_a_whole_pruned_subtree_by_its_top_is_enough():
    #            R (max) = 3
    #        /              \
    #    1 (min) = 2       2 (min) = 3
    #    5   1.2 (max) = 2  3   2.2 (max) = 9: its 9 >= beta 3 cuts 2.2.2
    #         1  2              9   2.2.2 (min) = 7, pruned whole: the student marks its top
    #                                8  7
    tree = ExerciseTree("[[5, [1, 2]], [3, [9, [8, 7]]]]")
    solved = solve(tree, "alphabeta")
    answer = {"R": 3, "1": 2, "1.2": 2, "2": 3, "2.2": 9, "2.2.2": 7}
    verdicts = check(solved, answer, {"2.2.2"})
    assert all(v.ok for v in verdicts), [(v.name, v.message) for v in verdicts]


def test_unknown_node_names_are_refused():
    with pytest.raises(ValueError, match="no node named 7"):
        check(solve(TREE), {"7": 1}, set())
