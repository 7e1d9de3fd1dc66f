"""The exercise lab's checker, on the textbook tree [[3,12,8],[2,4,6],[14,5,2]]:

        R (max) = 3                      alpha-beta, children left to right, window [−∞, +∞]:
      /      |      \\                   R  enters with α −∞, β +∞
   1 (min)  2 (min)  3 (min)             1  enters with α −∞, β +∞ and returns 3
   3 12 8   2 4 6    14 5 2              2  enters with α 3, β +∞: its 2 ≤ α cuts 2.2 and 2.3
                                         3  enters with α 3, β +∞ and returns 2

and on the course's trees (seed 000's N = 4, seed 003's tree of dimension 5 and its depth-2
figure), and random trees drawn from a seed.
"""
import pytest

from ai.teach.exercise import Answer, check, name, questions, solve
from ai.games.nim.course_trees import COURSE_TREES, nim_tree
from ai.teach.exercise_tree import ExerciseTree, format_tree, random_tree

INF = float("inf")
TREE = ExerciseTree("[[3,12,8],[2,4,6],[14,5,2]]")

# The whole answer, as a student writes it on the board
RIGHT = {"v.R": 3, "a.R": -INF, "b.R": INF,
         "v.1": 3, "a.1": -INF, "b.1": INF,
         "v.2": 2, "a.2": 3, "b.2": INF,
         "v.3": 2, "a.3": 3, "b.3": INF}


def test_alphabeta_explores_11_of_13_and_prunes_the_4_and_the_6():
    solved = solve(TREE, "alphabeta")
    assert (solved.explored, solved.size) == (11, 13)
    assert {name(p) for p in solved.pruned_roots()} == {"2.2", "2.3"}
    pruned_leaves = [n.value for n in solved.full.nodes if n.pruned]
    assert pruned_leaves == [4, 6]          # drawn struck out, with their values


def test_the_exercise_asks_values_windows_on_entry_and_the_pruned_branches():
    asked = [q.key for q in questions(solve(TREE))]
    assert asked == ["v.R", "a.R", "b.R", "v.1", "a.1", "b.1", "v.2", "a.2", "b.2",
                     "p.2.2", "p.2.3", "v.3", "a.3", "b.3"]
    assert [q.key for q in questions(solve(TREE, "minimax"))] == ["v.R", "v.1", "v.2", "v.3"]


def test_a_right_answer_scores_every_question_the_first_time():
    report = check(solve(TREE), Answer(RIGHT, {"2.2", "2.3"}))
    assert report.done, [(m.key, m.message) for m in report.marks if not m.ok]
    assert (report.first_time, report.total) == (14, 14)


def test_a_wrong_value_is_named_with_a_hint_not_the_answer():
    # node 2 (min) given 4: too high, and the mark does not say 2
    report = check(solve(TREE), Answer(dict(RIGHT, **{"v.2": 4}), {"2.2", "2.3"}))
    wrong = {m.key: m for m in report.marks if not m.ok}
    assert list(wrong) == ["v.2"]
    assert wrong["v.2"].message == "too high: a min node takes the smallest of its children's values"
    assert "2" not in wrong["v.2"].message and not wrong["v.2"].revealed
    assert report.tries_after({}) == {"v.2": 1}


def test_a_second_wrong_try_shows_the_answer_and_the_score_counts_it():
    solved = solve(TREE)
    first = check(solved, Answer(dict(RIGHT, **{"v.2": 4, "a.3": 2}), {"2.2"}))
    assert {m.key for m in first.wrong} == {"v.2", "a.3", "p.2.3"}
    notes = {m.key: m.message for m in first.wrong}
    assert notes["a.3"].startswith("too low: α on entry is its parent's α")
    assert notes["p.2.3"].startswith("is never explored")
    second = check(solved, Answer(dict(RIGHT, **{"v.2": 4, "a.3": 2}), {"2.2"},
                                  first.tries_after({})))
    notes = {m.key: m.message for m in second.wrong}
    assert notes == {"v.2": "it is 2, not 4", "a.3": "it is 3, not 2",
                     "p.2.3": "is pruned: the cut at node 2 skips it"}
    assert all(m.revealed for m in second.wrong)
    # corrected at the third check: done, 11 of 14 right the first time
    third = check(solved, Answer(RIGHT, {"2.2", "2.3"}, second.tries_after(first.tries_after({}))))
    assert third.done and (third.first_time, third.total) == (11, 14)


def test_ticking_an_explored_branch_is_a_mistake_and_blanks_are_no_try():
    report = check(solve(TREE), Answer({"v.R": 3}, {"2.2", "2.3", "1.1"}))
    by_key = {m.key: m for m in report.marks}
    assert by_key["p.1.1"].state == "wrong" and by_key["p.1.1"].message.startswith("is explored")
    assert by_key["v.1"].state == "missing" and by_key["v.1"].key not in report.tries_after({})
    assert not report.done


def test_a_node_the_tree_does_not_have_is_refused():
    with pytest.raises(ValueError, match="no node named 7"):
        check(solve(TREE), Answer({"v.7": 1}))


def test_marking_a_whole_pruned_subtree_by_its_top_is_enough():
    #            R (max) = 3
    #        /              \
    #    1 (min) = 2       2 (min) = 3
    #    5   1.2 (max) = 2  3   2.2 (max) = 9: its 9 >= beta 3 cuts 2.2.2
    #         1  2              9   2.2.2 (min) = 7, pruned whole: the student marks its top
    #                                8  7
    solved = solve(ExerciseTree("[[5, [1, 2]], [3, [9, [8, 7]]]]"), "minimax")
    values = {"v.R": 3, "v.1": 2, "v.1.2": 2, "v.2": 3, "v.2.2": 9, "v.2.2.2": 7}
    assert check(solved, Answer(values)).done
    solved = solve(ExerciseTree("[[5, [1, 2]], [3, [9, [8, 7]]]]"), "alphabeta")
    assert {name(p) for p in solved.pruned_roots()} == {"2.2.2"}
    asked = {q.key for q in questions(solved)}
    assert "p.2.2.2" in asked and "v.2.2.2" not in asked


# -- the course's trees ------------------------------------------------------------------------

def test_seed_000_the_nim_tree_n_4_is_listing_viii_1_and_its_root_is_plus_1():
    # Listing VIII.1: 15 keys; Listing VIII.2: minmax('max_4-0', arbre) = 1
    tree = ExerciseTree(COURSE_TREES["nim4"]["tree"])
    solved = solve(tree, "minimax")
    assert solved.size == 15 and solved.result.value == 1


def test_seed_003_the_tree_of_dimension_5_has_28_nodes_and_the_maximiser_wins():
    # "le joueur qui commence est certain de pouvoir gagner (score sur la racine = +maxScore):
    #  il lui suffit de retirer 1 allumette"
    solved = solve(ExerciseTree(COURSE_TREES["nim5"]["tree"]), "minimax")
    assert solved.size == 28 and solved.result.value == 1 and solved.result.move == 0


def test_seed_003_depth_2_and_pruning_explores_9_nodes_as_the_course_says():
    ex = COURSE_TREES["nim5d2"]
    # +maxScore − remaining/5 with maxScore = 1: 4 matches left after two moves = 1 − 4/5
    assert ex["tree"][0] == [0.4, 0.6, 0.8] and nim_tree(5, depth=2) == ex["tree"]
    solved = solve(ExerciseTree(ex["tree"]), "alphabeta", window=ex["window"], order=ex["order"])
    assert solved.explored == 9            # "Seuls 9 sommets sur 28 sont explorés"


def test_the_course_tree_of_dimension_5_graded_right_and_wrong():
    ex = COURSE_TREES["nim5"]
    solved = solve(ExerciseTree(ex["tree"]), "alphabeta", window=ex["window"], order=ex["order"])
    right = {q.key: q.answer for q in questions(solved) if q.what != "pruned"}
    ticked = {q.name for q in questions(solved) if q.what == "pruned"}
    assert check(solved, Answer(right, ticked)).done
    # the root is +maxScore (written 1): a student who says −1 is told it is too low
    report = check(solved, Answer(dict(right, **{"v.R": -1}), ticked))
    assert [(m.key, m.message) for m in report.wrong] == [
        ("v.R", "too low: a max node takes the largest of its children's values")]


# -- random trees --------------------------------------------------------------------------------

def test_a_random_tree_is_the_same_for_the_same_seed_and_prunes_something():
    for depth in (2, 3, 4):
        tree = random_tree(2026, depth)
        assert tree == random_tree(2026, depth)
        assert solve(ExerciseTree(tree)).pruned_roots()
    assert format_tree(random_tree(2026, 3)) != format_tree(random_tree(2027, 3))


def test_a_random_tree_of_another_depth_is_refused():
    with pytest.raises(ValueError, match="one of 2, 3, 4, not 7"):
        random_tree(1, 7)


def test_answers_are_read_as_a_student_writes_them():
    from web.exercise import read_number
    # maxScore = 12 in the course's window: M and −M stand for it
    assert [read_number(raw, 12) for raw in ("3", "−2", "2,5", "2.5", " -inf ", "−∞", "+∞",
                                             "∞", "M", "-M", "+maxScore")] == \
        [3, -2, 2.5, 2.5, -INF, -INF, INF, INF, 12, -12, 12]
    assert read_number("abc", 12) == "abc" and read_number("nan", 12) == "nan"
