"""A large search is recorded around what the panel draws (``ai.course.record.Focus``): the root,
the children of the nodes on the principal variation and on the way to the node in focus,
the focus node's grandchildren; the rest is only counted. Whatever is kept must be exactly
what a whole recording of the same search holds, and the counts must stay exact.

And the "M" of "explored N of M": the Connect-4 count on bitboards agrees with a plain walk
of the game tree, and with the geometric sums of an empty board.
"""
import random

import pytest

from ai.games.connect4 import fast_search as fast_connect4
from ai.games.connect4.rules import Connect4
from ai.levels import LEVELS
from ai.course.record import Focus
from ai.teach.tree_view import path_of, subtree_sizes, unfold, walk


def position(moves: str):
    game = Connect4()
    return game, game.from_moves(moves)


def recorded(game, state, record, depth):
    """The fast loop's alpha-beta with the default level's heuristic, recording as asked."""
    heuristic = LEVELS["hard"].options(game)["heuristic"]
    return fast_connect4.alphabeta(game, state, depth, heuristic=heuristic, record=record)


@pytest.mark.parametrize("moves, focus", [("", ()), ("4453", ()), ("4453", (3, 2)),
                                          ("44", (2, 4, 4))])
def test_a_focused_recording_keeps_exactly_what_the_whole_one_has_around_the_focus(moves, focus):
    game, state = position(moves)
    whole = recorded(game, state, True, 8)
    assert whole.tree.explored > 3_000, "the case must be a large search"
    focused = recorded(game, state, Focus(focus, whole.pv), 8)
    assert (focused.move, focused.value, focused.stats.nodes) == \
        (whole.move, whole.value, whole.stats.nodes)
    # The counts of the whole search, not of the kept nodes.
    for count in ("explored", "pruned_count", "cutoffs", "table_hits"):
        assert getattr(focused.tree, count) == getattr(whole.tree, count), count
    assert focused.tree.explored == whole.stats.nodes
    assert len(focused.tree.nodes) < len(whole.tree.nodes) / 20
    # Each kept node: the same value, window, kind and subtree size as in the whole tree.
    whole_by_path = {path_of(whole.tree, n): n for n in whole.tree.nodes}
    whole_sizes, focused_sizes = subtree_sizes(whole.tree), subtree_sizes(focused.tree)
    for node in focused.tree.nodes:
        twin = whole_by_path[path_of(focused.tree, node)]
        assert (node.value, node.alpha, node.beta, node.kind, node.pruned, node.pv) == \
            (twin.value, twin.alpha, twin.beta, twin.kind, twin.pruned, twin.pv)
        assert focused_sizes[node.id] == whole_sizes[twin.id]
    # What the panel unfolds around the focus is all there: the same picture either way.
    def picture(tree):
        return [(v.path, v.node.value, v.folded) for v in walk(unfold(tree, focus, levels=2))]
    assert picture(focused.tree) == picture(whole.tree)
    # The principal variation is kept to its end.
    pv_nodes = [n for n in focused.tree.nodes if n.pv]
    assert len(pv_nodes) == len(whole.pv) + 1


def test_a_focused_recording_has_no_step_by_step_events():
    game, state = position("4453")
    r = recorded(game, state, Focus((), ()), 5)
    assert not r.tree.whole and r.tree.events == []


def test_the_engine_records_small_searches_whole_and_large_ones_around_the_focus():
    game = Connect4()
    small = LEVELS["easy"].play(game, game.from_moves("4453"), record=True)
    assert small.tree.whole and small.tree.events
    large = LEVELS["hard"].play(game, game.initial_state(), record=True, focus=(3,))
    assert not large.tree.whole
    root_children = [large.tree.nodes[c] for c in large.tree.nodes[0].children]
    assert {c.move for c in root_children} == set(range(7))
    column_4 = next(c for c in root_children if c.move == 3)
    assert column_4.children, "the node in focus has its children recorded"


def naive_size(game, state, depth):
    """The tree minimax walks, node by node: the reference."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return 1 + sum(naive_size(game, game.result(state, m), depth - 1) for m in game.actions(state))


def test_an_empty_board_s_tree_is_the_geometric_sum_until_a_four_is_possible():
    game = Connect4()
    # 1 + 7 + 49 + ... : nobody can have four stones before ply 7
    for depth in range(6):
        assert game.tree_size(game.initial_state(), depth) == sum(7 ** i for i in range(depth + 1))
    assert game.tree_size(game.initial_state(), 6) is None        # 137,257 > 25,000


@pytest.mark.parametrize("width, height", [(7, 6), (4, 4), (5, 4)])
def test_the_bitboard_count_is_the_walk_s_count(width, height):
    game, rng = Connect4(width, height), random.Random(width * 10 + height)
    for _ in range(25):
        state = game.initial_state()
        for _ in range(rng.randint(0, width * height)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        for depth in range(5):
            want = naive_size(game, state, depth)
            assert game.tree_size(state, depth) == (want if want <= 25_000 else None)
