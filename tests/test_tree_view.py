"""Folding, laying out and replaying recorded trees (what the tree panel draws)."""
import pytest

from ai.games.connect4.rules import Connect4
from ai.teach.exercise_tree import ExerciseTree
from ai.games.connect4.heuristic import Threats
from ai.games.nim.heuristic import NimCourse
from ai.games.nim.rules import Nim
from ai.course.search import alphabeta, alphabeta_tt, iterative_deepening
from ai.teach.tree_view import caption_counts, node_at, replay, subtree_sizes, unfold, walk, width


def seed_003_tree():
    game = Nim(5)
    return alphabeta(game, depth=2, heuristic=NimCourse(game), window="course",
                     order=(3, 2, 1), record=True).tree


def test_seed_003_view_shows_9_explored_and_the_3_pruned_subtrees():
    tree = seed_003_tree()
    view = unfold(tree)
    nodes = list(walk(view))
    assert len(nodes) == 12                                  # 9 explored + 3 pruned
    assert caption_counts(tree) == {"explored": 9, "pruned": 3, "cutoffs": 2, "table_hits": 0,
                                   "table_saved": 0}
    pruned = sorted(v.path for v in nodes if v.node.pruned)
    assert pruned == [(2, 1), (2, 2), (3, 1)]               # after a min node found -maxScore
    assert [v.node.is_max for v in nodes[:2]] == [True, False]


def test_parents_sit_over_their_children_and_leaves_one_unit_apart():
    view = unfold(seed_003_tree())
    leaves = [v.x for v in walk(view) if not v.children]
    assert leaves == list(range(len(leaves)))
    for v in walk(view):
        if v.children:
            assert v.x == (v.children[0].x + v.children[-1].x) / 2


def test_deeper_levels_are_folded_and_counted():
    game = Connect4()
    tree = alphabeta(game, game.from_moves("4453"), 4, heuristic=Threats(game),
                     order="center", record=True).tree
    view = unfold(tree, levels=2)
    sizes = subtree_sizes(tree)
    assert sizes[0] == tree.explored
    visible_explored = sum(1 for v in walk(view) if not v.node.pruned)
    assert visible_explored + sum(v.folded for v in walk(view)) == tree.explored
    # unfolding a grandchild shows what was folded under it
    deep = next(v for v in walk(view) if v.folded)
    sub = unfold(tree, deep.path, levels=2)
    assert sub.node is deep.node and sub.path == deep.path


def test_a_path_that_was_not_searched_is_a_clear_error():
    with pytest.raises(ValueError, match="step 2 of the path"):
        node_at(seed_003_tree(), (1, 9))


def test_replay_walks_through_the_events_and_shows_the_window_at_each_node():
    tree = ExerciseTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    t = alphabeta(tree, record=True).tree
    states, current = replay(t, 0)
    assert current is None and not any(s.seen for s in states)
    states, current = replay(t, len(t.events))
    assert all(s.seen for s in states)
    assert states[0].value == 3
    kinds = [e[0] for e in t.events]
    assert kinds[0] == "enter" and kinds[-1] == "exit" and "cut" in kinds
    # after the first min node is done, the root's alpha is 3: the second min node enters
    # with the window [3, +inf]
    second_min = t.nodes[0].children[1]
    i = next(i for i, e in enumerate(t.events) if e[:2] == ("enter", second_min))
    states, current = replay(t, i + 1)
    assert (states[second_min].alpha, states[second_min].beta) == (3, float("inf"))
    with pytest.raises(ValueError):
        replay(t, len(t.events) + 1)


def test_table_hits_are_marked_in_the_recorded_tree():
    game = Connect4()
    r = alphabeta_tt(game, game.from_moves("4453"), 5, heuristic=Threats(game), order="center",
                     record=True)
    assert caption_counts(r.tree)["table_hits"] == r.stats.tt_hits > 0


def test_iterative_deepening_records_the_tree_of_its_last_depth():
    game = Connect4()
    r = iterative_deepening(game, game.from_moves("4453"), depth=4, time_limit=None,
                            heuristic=Threats(game), record=True)
    assert r.tree is not None and max(n.ply for n in r.tree.nodes) == 4
    assert width(unfold(r.tree)) > 7
