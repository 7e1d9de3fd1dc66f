"""Issue 24: one search per tree. The tree panel's tree is recorded by the search that decides
the move (``ai.record.Recording``), not by a second search replaying it: its tree must be,
node for node, the tree that replay recorded (whole with its events for a small search, around
the focus and the principal variation for a large one), with the same move, value and counts.
"""
import pytest

from ai import engine
from ai.course.record import Focus, Recording
from ai.games.connect4 import fast_search
from ai.games.connect4.rules import Connect4
from ai.games.nim.rules import Nim
from ai.levels import LEVELS


def fingerprint(tree):
    """Everything a recorded tree holds, node by node, and its counts and events."""
    nodes = [(n.id, n.parent, n.move, n.ply, n.is_max, n.alpha, n.beta, n.value, n.kind,
              n.cutoff, n.pruned, n.table, n.pv, tuple(n.children)) for n in tree.nodes]
    return (nodes, list(tree.hidden), tree.explored, tree.pruned_count, tree.cutoffs,
            tree.table_hits, tree.whole, tree.events)


def replayed(level, game, state, result, focus):
    """The tree of ``result`` as a second search recorded it before issue 24: its last depth
    replayed with no clock, whole if the search took at most ``WHOLE_TREE_NODES`` nodes, else
    around ``Focus(focus, its principal variation)``."""
    options = level.options(game)
    fast = options.pop("fast")
    options.pop("depth")
    alphabeta = engine._alphabeta_for(level.algorithm, game, fast, options)
    record = (True if result.stats.nodes <= engine.WHOLE_TREE_NODES
              else Focus(focus, tuple(result.pv)))
    if level.algorithm == "iterative":
        alphabeta = engine._recording_only_at(result.depth, alphabeta)
    again = engine._runner(level.algorithm, alphabeta)(
        game, state, result.depth, record=record,
        **dict(options, time_limit=None, max_nodes=result.stats.nodes))
    assert (again.move, again.value) == (result.move, result.value)
    return again.tree


# (positions the default level searches: where the exact solver proves the move within the
# level's budget, ai.levels, there is no tree to compare)
CASES = [("hard", "", ()), ("hard", "4453", ()), ("hard", "4453", (3, 2)),
         ("hard", "44", (2, 4, 4)), ("hard", "445343", (5,)), ("hard", "274552224131661", ()),
         ("medium", "4", ()), ("medium", "4453", (2,)), ("easy", "4453", ()),
         ("beginner", "", ())]


@pytest.mark.parametrize("level, moves, focus", CASES)
def test_the_deciding_search_records_the_tree_its_replay_recorded(level, moves, focus):
    game = Connect4()
    state = game.from_moves(moves)
    plain = LEVELS[level].play(game, state)
    one = LEVELS[level].play(game, state, record=True, focus=focus)
    assert (one.move, one.value, one.stats.nodes, one.stats.depth) == \
        (plain.move, plain.value, plain.stats.nodes, plain.stats.depth)
    assert fingerprint(one.tree) == fingerprint(replayed(LEVELS[level], game, state, plain,
                                                         focus))


def test_both_kinds_of_tree_are_met():
    # the cases above hold small searches (recorded whole, with their events) and large ones
    # (recorded around the focus): the comparison covers both
    game = Connect4()
    kinds = {LEVELS[lv].play(game, game.from_moves(m), record=True, focus=f).tree.whole
             for lv, m, f in CASES}
    assert kinds == {True, False}


@pytest.mark.parametrize("n, depth", [(21, 6), (11, None)])
def test_the_course_search_on_nim_records_its_tree_in_the_search_that_decides(n, depth):
    game = Nim(n)
    for algorithm in ("minimax", "alphabeta", "alphabeta-tt"):
        plain = engine.search(algorithm, game, None, depth, max_nodes=200_000)
        one = engine.search(algorithm, game, None, depth, max_nodes=200_000, record=True)
        record = (True if plain.stats.nodes <= engine.WHOLE_TREE_NODES
                  else Focus((), tuple(plain.pv)))
        again = engine._runner(algorithm, engine.textbook.alphabeta)(
            game, game.initial_state(), depth, record=record)
        assert (one.move, one.value, one.stats.nodes) == (plain.move, plain.value,
                                                          plain.stats.nodes)
        assert fingerprint(one.tree) == fingerprint(again.tree), algorithm


def test_a_search_stopped_by_its_node_budget_keeps_the_tree_of_what_it_explored():
    game = Connect4()
    state = game.from_moves("4453")
    stopped = engine.search("alphabeta", game, state, 8, fast=True, max_nodes=9_000,
                            heuristic=LEVELS["hard"].options(game)["heuristic"], record=True)
    assert not stopped.complete and stopped.tree is not None
    assert stopped.tree.explored == stopped.stats.nodes and not stopped.tree.whole
    again = fast_search.alphabeta(game, state, 8, max_nodes=9_000,
                                           heuristic=LEVELS["hard"].options(game)["heuristic"],
                                           record=Focus((), tuple(stopped.pv)))
    assert fingerprint(stopped.tree) == fingerprint(again.tree)


def test_a_recording_past_its_limit_keeps_no_tree_and_the_same_move():
    game = Connect4()
    plain = LEVELS["hard"].play(game, game.initial_state())
    small = fast_search.alphabeta(game, None, 7, record=Recording((), 0, 100))
    assert small.tree.overflow
    limited = LEVELS["hard"].play(game, game.initial_state(), record=True,
                                  record_limit=plain.stats.nodes // 2)
    assert limited.tree is None and (limited.move, limited.value) == (plain.move, plain.value)
