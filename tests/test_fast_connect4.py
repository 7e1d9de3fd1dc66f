"""ai.games.connect4.fast_search: the specialised Connect-4 alpha-beta must give the generic engine's
answers (the value of minimax at the same depth, a legal move of that value), its statistics
must mean the same, and its budgets must stop it.

Reachable positions are built by playing drawn legal moves from the start, never by
filtering; board sizes are drawn from 4x4 to 9x9.
"""
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ai.games.connect4.rules import Connect4
import ai.games.connect4.fast_search as fc4
from ai.games.connect4.fast_search import fast_alphabeta, supports
from ai.games.connect4.heuristic import AdjustedCells, CellValues, Threats
from ai.course.scores import MAX_SCORE, WIN_THRESHOLD, SearchAborted
from ai.course.search import TranspositionTable, alphabeta, alphabeta_tt, minimax
from tests.strategies import connect4_games, reachable

HEURISTICS = [None, Threats, CellValues]


def connect4_positions(max_width=9, max_height=9, max_moves=81):
    return reachable(connect4_games(max_width, max_height), max_moves)


def make(h, game):
    return None if h is None else h(game)


def check_answer(game, state, depth, heuristic, quick_wins, answer):
    """The answer of fast_alphabeta equals minimax's, and its move is one of the best."""
    move, value, pv, stats = answer
    expected = minimax(game, state, depth, heuristic=heuristic, quick_wins=quick_wins)
    assert value == expected.value
    if game.is_terminal(state) or depth == 0:
        assert move is None and pv == []
    else:
        assert move in game.actions(state)
        assert expected.root_values[move] == expected.value
        assert pv[0] == move
        s = state
        for m in pv:                    # the principal variation is a legal line
            assert m in game.actions(s)
            s = game.result(s, m)
    assert stats["nodes"] >= 1 and stats["nodes"] >= stats["leaves"] >= 0
    return expected


# -- the value: minimax's, at every size, depth, heuristic -----------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(), depth=st.integers(0, 3), h=st.sampled_from(HEURISTICS),
       quick_wins=st.booleans(), use_table=st.booleans())
def test_fast_alphabeta_returns_the_minimax_value_and_a_best_move(pos, depth, h, quick_wins,
                                                                   use_table):
    game, state = pos
    heuristic = make(h, game)
    table = TranspositionTable() if use_table else None
    answer = fast_alphabeta(game, state, depth, heuristic=heuristic, table=table,
                            quick_wins=quick_wins)
    check_answer(game, state, depth, heuristic, quick_wins, answer)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(max_width=7, max_height=7), h=st.sampled_from(HEURISTICS),
       quick_wins=st.booleans(), use_table=st.booleans())
def test_fast_alphabeta_at_depth_4_returns_the_minimax_value(pos, h, quick_wins, use_table):
    game, state = pos
    heuristic = make(h, game)
    table = TranspositionTable() if use_table else None
    answer = fast_alphabeta(game, state, 4, heuristic=heuristic, table=table,
                            quick_wins=quick_wins)
    check_answer(game, state, 4, heuristic, quick_wins, answer)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(max_width=7, max_height=7), depth=st.integers(2, 4),
       h=st.sampled_from(HEURISTICS), quick_wins=st.booleans())
def test_the_table_near_the_leaves_keeps_the_minimax_value(pos, depth, h, quick_wins):
    # Searches of depth >= _TABLE_LOW_DEPTH also use the table at depth-1 and depth-2 nodes:
    # force that on these small searches, so minimax can check those paths too.
    game, state = pos
    heuristic = make(h, game)
    saved = fc4._TABLE_LOW_DEPTH
    fc4._TABLE_LOW_DEPTH = 1
    try:
        table = TranspositionTable()
        for d in (depth - 1, depth, depth):      # the second search at `depth` hits the table
            answer = fast_alphabeta(game, state, d, heuristic=heuristic, table=table,
                                    quick_wins=quick_wins)
            check_answer(game, state, d, heuristic, quick_wins, answer)
    finally:
        fc4._TABLE_LOW_DEPTH = saved


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(max_width=6, max_height=5),
       depths=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       h=st.sampled_from(HEURISTICS), quick_wins=st.booleans())
def test_a_table_shared_by_searches_of_any_depths_keeps_their_values(pos, depths, h, quick_wins):
    game, state = pos
    heuristic = make(h, game)
    table = TranspositionTable()
    for depth in depths:
        expected = alphabeta(game, state, depth, heuristic=heuristic, quick_wins=quick_wins)
        move, value, _, _ = fast_alphabeta(game, state, depth, heuristic=heuristic,
                                           table=table, quick_wins=quick_wins)
        assert value == expected.value
        if not game.is_terminal(state):
            assert move in game.actions(state)


# The inline scoring of the depth-1 nodes against the heuristic objects themselves:
# tests/test_one_search.py, test_the_fast_loops_tree_adds_up_and_counts_what_the_search_counted.


POSITIONS = ["", "4453", "274552224131661", "7532455277545526", "271713432331713132",
             "34651743747475571565", "4444443", "3344", "122334"]


@pytest.mark.parametrize("moves", POSITIONS)
@pytest.mark.parametrize("h", HEURISTICS, ids=["none", "threats", "cells"])
def test_fast_alphabeta_agrees_with_alphabeta_at_depths_5_to_7(moves, h):
    game = Connect4()
    state = game.from_moves(moves)
    heuristic = make(h, game)
    table = TranspositionTable()
    for depth in (5, 6, 7):
        expected = alphabeta_tt(game, state, depth, heuristic=heuristic, order="center")
        move, value, pv, stats = fast_alphabeta(game, state, depth, heuristic=heuristic,
                                                table=TranspositionTable())
        assert value == expected.value
        assert move in game.actions(state)
        # the move is worth the value: searching the position after it says so (a win or
        # loss found there is one ply further from our root)
        after = alphabeta(game, game.result(state, move), depth - 1, heuristic=heuristic,
                          order="center").value
        if abs(after) >= WIN_THRESHOLD:
            after -= 1 if after > 0 else -1
        assert -after == value
        # a table shared across depths keeps every value exact
        assert fast_alphabeta(game, state, depth, heuristic=heuristic, table=table)[1] == value


@pytest.mark.parametrize("size", [(4, 4), (5, 4), (6, 5), (9, 9), (8, 7)])
def test_other_board_sizes_at_depth_5(size):
    game = Connect4(*size)
    state = game.from_moves("1" + str(size[0]) + "2")
    for h in (Threats, CellValues, None):
        heuristic = make(h, game)
        for quick_wins in (True, False):
            expected = alphabeta(game, state, 5, heuristic=heuristic, quick_wins=quick_wins)
            move, value, _, _ = fast_alphabeta(game, state, 5, heuristic=heuristic,
                                               quick_wins=quick_wins, table={})
            assert value == expected.value


def test_flat_scores_without_quick_wins():
    game = Connect4()
    state = game.from_moves("271713432331713132")      # lost in 4 plies for the side to move
    for depth in (4, 5, 6):
        expected = alphabeta(game, state, depth, heuristic=Threats(game), quick_wins=False)
        _, value, _, _ = fast_alphabeta(game, state, depth, heuristic=Threats(game),
                                        quick_wins=False)
        assert value == expected.value == -MAX_SCORE


def test_a_shared_table_across_depths_and_orders_keeps_values_exact():
    game = Connect4()
    state = game.from_moves("4453")
    h = Threats(game)
    table = TranspositionTable()
    for depth in (3, 1, 4, 2, 6, 4, 5, 2, 6):
        assert (fast_alphabeta(game, state, depth, heuristic=h, table=table)[1]
                == alphabeta(game, state, depth, heuristic=h, order="center").value)


def test_whole_game_search_with_depth_none():
    game = Connect4(4, 4)
    state = game.from_moves("1234123412")              # 6 empty cells
    expected = minimax(game, state, None)
    move, value, pv, _ = fast_alphabeta(game, state, None)
    assert value == expected.value
    assert expected.root_values[move] == value


def test_a_table_with_max_entries_is_kept_bounded():
    game = Connect4()
    table = TranspositionTable(max_entries=500)
    fast_alphabeta(game, game.from_moves("44"), 7, heuristic=Threats(game), table=table)
    assert len(table) <= 500 + 1024     # emptied when past the bound, looked at every 1024 nodes
    # generic entries and fast ones never share a key (fast keys are negative)
    assert all(k < 0 for k in table.data)


# -- the rules the search uses are exact (the winning cells: tests/test_bitboard.py) ----------

def test_an_immediate_win_and_a_forced_loss_score_as_minimax():
    game = Connect4()
    win = game.from_moves("121212")                    # X plays 1 and wins
    move, value, pv, stats = fast_alphabeta(game, win, 3, heuristic=Threats(game))
    assert (move, value, pv) == (0, MAX_SCORE - 1, [0])
    lost = game.from_moves("22334")                    # O cannot block both ends of X's 234
    expected = minimax(game, lost, 3, heuristic=Threats(game))
    move, value, pv, stats = fast_alphabeta(game, lost, 3, heuristic=Threats(game))
    assert value == expected.value == -(MAX_SCORE - 2)
    assert expected.root_values[move] == value


# -- statistics ------------------------------------------------------------------------------

def test_stats_count_every_node_entered():
    game = Connect4()
    s = game.initial_state()
    move, value, pv, stats = fast_alphabeta(game, s, 1, heuristic=Threats(game))
    assert stats == {"nodes": 8, "leaves": 7, "cutoffs": 0, "tt_probes": 0, "tt_hits": 0}
    assert stats["nodes"] == alphabeta(game, s, 1, heuristic=Threats(game)).stats.nodes
    # a finished game and depth 0: the root alone, scored
    over = game.from_moves("1212121")
    assert fast_alphabeta(game, over, 4)[1] == -(MAX_SCORE - 0)
    assert fast_alphabeta(game, over, 4)[3]["nodes"] == 1
    _, v, _, st0 = fast_alphabeta(game, game.from_moves("44"), 0, heuristic=Threats(game))
    assert v == Threats(game)(game.from_moves("44"), 0) and st0["nodes"] == st0["leaves"] == 1


def test_stats_with_and_without_a_table():
    game = Connect4()
    s = game.from_moves("4453")
    _, _, _, plain = fast_alphabeta(game, s, 6, heuristic=Threats(game))
    assert plain["tt_probes"] == plain["tt_hits"] == 0
    assert plain["cutoffs"] > 0 and plain["nodes"] > plain["leaves"] > 0
    table = TranspositionTable()
    _, _, _, first = fast_alphabeta(game, s, 6, heuristic=Threats(game), table=table)
    assert first["tt_probes"] > 0 and 0 <= first["tt_hits"] <= first["tt_probes"]
    # the same search again: the root's children are found in the table at once
    _, _, _, again = fast_alphabeta(game, s, 6, heuristic=Threats(game), table=table)
    assert again["nodes"] < first["nodes"] and again["tt_hits"] > 0


# -- budgets ---------------------------------------------------------------------------------

def test_a_node_budget_raises_search_aborted_with_the_stats_so_far():
    game = Connect4()
    s = game.from_moves("4453")
    root_values = {}
    with pytest.raises(SearchAborted) as err:
        fast_alphabeta(game, s, 9, heuristic=Threats(game), max_nodes=3_000,
                       root_values=root_values)
    nodes = err.value.stats["nodes"]
    assert 3_000 < nodes <= 3_000 + game.width + 1
    assert set(root_values) <= set(game.actions(s))


def test_a_node_budget_also_stops_a_depth_1_search():
    game = Connect4()
    with pytest.raises(SearchAborted):
        fast_alphabeta(game, game.initial_state(), 1, heuristic=Threats(game), max_nodes=3)
    assert fast_alphabeta(game, game.initial_state(), 1, heuristic=Threats(game),
                          max_nodes=8)[0] == 3


def test_after_an_abort_root_values_hold_only_searched_moves():
    game = Connect4()
    # X to move must block O's three in column 1 (X's other moves lose at once): those
    # losing moves are not reported before the search ends, so an aborted search's
    # best-so-far can never be one of them.
    state = game.from_moves("417141")
    values = {}
    with pytest.raises(SearchAborted):
        fast_alphabeta(game, state, 9, heuristic=Threats(game), max_nodes=50,
                       root_values=values)
    assert set(values) <= {0}
    values = {}
    move, value, _, _ = fast_alphabeta(game, state, 3, heuristic=Threats(game),
                                       root_values=values)
    assert move == 0 and set(values) == set(game.actions(state))
    assert all(v == -(MAX_SCORE - 2) for m, v in values.items() if m != 0)


def test_a_search_within_its_node_budget_completes():
    game = Connect4()
    s = game.from_moves("4453")
    _, value, _, stats = fast_alphabeta(game, s, 6, heuristic=Threats(game))
    n = stats["nodes"]
    assert fast_alphabeta(game, s, 6, heuristic=Threats(game), max_nodes=n)[1] == value
    with pytest.raises(SearchAborted):
        fast_alphabeta(game, s, 6, heuristic=Threats(game), max_nodes=n - 1)


def test_a_deadline_raises_search_aborted_at_the_next_look_at_the_clock(monkeypatch):
    # The clock is read every 1024 nodes; on a clock that moves 1 s a reading, a deadline
    # 2.5 s ahead is passed at the third look. (How promptly in real time: the benchmark.)
    ticks = iter(range(1, 10**6))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    game = Connect4()
    with pytest.raises(SearchAborted) as err:
        fast_alphabeta(game, game.initial_state(), 14, heuristic=Threats(game),
                       deadline=time.perf_counter() + 2.5)
    # (a depth-1 node adds its scored children at once, then looks)
    assert 2 * 1024 < err.value.stats["nodes"] <= 3 * (1024 + game.width + 1)
    with pytest.raises(SearchAborted):
        fast_alphabeta(game, game.initial_state(), 10, heuristic=Threats(game),
                       deadline=time.perf_counter() - 1)


# -- what is supported ----------------------------------------------------------------------

def test_supports():
    game = Connect4()
    assert supports(game, None)
    assert supports(game, Threats(game), quick_wins=False, window="course", order="center",
                    table=TranspositionTable(), depth=7)
    assert supports(game, CellValues(game), depth=None)
    assert supports(Connect4(9, 4), Threats(Connect4(9, 4)))
    assert not supports(game, AdjustedCells(game))
    assert not supports(game, Threats(Connect4(6, 6)))          # another board size
    assert not supports(game, lambda state, player: 0)
    assert supports(game, Threats(game), record=True)          # it records its own tree
    assert not supports(game, Threats(game), tie_break="random")
    assert not supports(game, Threats(game), window=(-5, 5))

    class Heavier(Threats):
        weights = (0, 1, 5, 25)
    assert not supports(game, Heavier(game))
    from ai.games.nim.rules import Nim
    assert not supports(Nim(10, 3, "normal"), None)
    with pytest.raises(ValueError):
        fast_alphabeta(game, game.initial_state(), 3, heuristic=AdjustedCells(game))
    with pytest.raises(ValueError):
        fast_alphabeta(game, game.initial_state(), -1)
