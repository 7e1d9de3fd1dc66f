"""Properties every search variant must keep, checked on many random games (hypothesis).

Random nested-list trees catch alpha-beta window bugs that shallow real-game positions let
through (see ../shared/STYLE.md); reachable Nim and Connect-4 states are built by playing
drawn legal moves, never by filtering.
"""
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from ai.games.connect4 import fast_search as fast_connect4
from ai.games.connect4.rules import Connect4
from ai.teach.exercise_tree import ExerciseTree
from ai.games.connect4.heuristic import AdjustedCells, CellValues, Threats
from ai.games.nim.heuristic import NimCourse, NimExact
from ai.course.search import TranspositionTable, alphabeta, alphabeta_tt, iterative_deepening, minimax
from tests.strategies import connect4_games, nim_games, reachable

leaf = st.integers(-20, 20)
trees = st.recursive(leaf, lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40)
inner_trees = st.lists(trees, min_size=1, max_size=4)
variants = st.fixed_dictionaries({
    "window": st.sampled_from(["infinite", "course"]),
    "order": st.sampled_from([None, "reverse", "center"]),
    "table": st.booleans(),
    "record": st.booleans(),
    "quick_wins": st.booleans(),
})


def run_variant(game, state, depth, heuristic, v):
    kwargs = dict(heuristic=heuristic, window=v["window"], order=v["order"],
                  record=v["record"], quick_wins=v["quick_wins"])
    if v["table"]:
        return alphabeta_tt(game, state, depth, **kwargs)
    return alphabeta(game, state, depth, **kwargs)


@settings(max_examples=300, deadline=None)
@given(tree=inner_trees, root=st.sampled_from(["max", "min"]), v=variants)
def test_every_alphabeta_variant_returns_the_minimax_value_on_random_trees(tree, root, v):
    game = ExerciseTree(tree, root)
    expected = minimax(game)
    result = run_variant(game, None, None, None, v)
    assert result.value == expected.value
    assert result.move in game.actions(game.initial_state())
    assert expected.root_values[result.move] == expected.value


@settings(max_examples=200, deadline=None)
@given(tree=inner_trees, depth=st.integers(1, 3), v=variants)
def test_depth_limited_alphabeta_agrees_with_depth_limited_minimax_on_random_trees(tree, depth, v):
    game = ExerciseTree(tree)
    h = lambda state, player: 0
    assert run_variant(game, None, depth, h, v).value == minimax(game, None, depth, heuristic=h).value


def nim_positions():
    return reachable(nim_games(), 6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=nim_positions(), depth=st.one_of(st.none(), st.integers(0, 6)),
       h=st.sampled_from([NimCourse, NimExact]), v=variants)
def test_every_alphabeta_variant_returns_the_minimax_value_on_reachable_nim_states(pos, depth, h, v):
    game, state = pos
    heuristic = h(game)
    expected = minimax(game, state, depth, heuristic=heuristic, quick_wins=v["quick_wins"])
    result = run_variant(game, state, depth, heuristic, v)
    assert result.value == expected.value
    if not game.is_terminal(state) and depth != 0:
        assert result.move in game.actions(state)
        assert expected.root_values[result.move] == expected.value


def connect4_positions():
    return reachable(connect4_games(7, 6), 20)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(), depth=st.integers(1, 3),
       h=st.sampled_from([Threats, CellValues, AdjustedCells]), v=variants)
def test_every_alphabeta_variant_returns_the_minimax_value_on_reachable_connect4_states(pos, depth, h, v):
    game, state = pos
    heuristic = h(game)
    expected = minimax(game, state, depth, heuristic=heuristic, quick_wins=v["quick_wins"])
    result = run_variant(game, state, depth, heuristic, v)
    assert result.value == expected.value
    if not game.is_terminal(state):
        assert result.move in game.actions(state)
        assert expected.root_values[result.move] == expected.value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(), seed=st.integers(0, 2**16))
def test_random_tie_breaks_pick_one_of_the_best_moves(pos, seed):
    game, state = pos
    assume(not game.is_terminal(state))
    heuristic = CellValues(game)
    expected = minimax(game, state, 2, heuristic=heuristic)
    result = alphabeta(game, state, 2, heuristic=heuristic, tie_break="random", seed=seed)
    assert expected.root_values[result.move] == expected.value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=connect4_positions(), depth=st.integers(1, 4))
def test_iterative_deepening_to_a_depth_gives_that_depths_value(pos, depth):
    game, state = pos
    assume(not game.is_terminal(state))
    heuristic = Threats(game)
    result = iterative_deepening(game, state, depth, time_limit=None, heuristic=heuristic)
    reached = result.stats.depth
    assert 1 <= reached <= depth
    assert result.value == minimax(game, state, reached, heuristic=heuristic).value


def test_a_shared_table_across_searches_keeps_values_exact():
    game = Connect4()
    state = game.from_moves("4453")
    table = TranspositionTable()
    h = Threats(game)
    for depth in (3, 1, 4, 2, 4):
        assert (alphabeta_tt(game, state, depth, heuristic=h, table=table).value
                == alphabeta(game, state, depth, heuristic=h).value)


def test_a_search_stopped_by_its_budget_says_so_and_still_returns_a_legal_move():
    game = Connect4()
    state = game.from_moves("4453")
    r = minimax(game, state, 9, heuristic=Threats(game), max_nodes=5_000)
    assert not r.complete and r.move in game.actions(state)
    assert r.stats.nodes <= 5_001
    r = alphabeta(game, state, 6, heuristic=Threats(game), max_nodes=3_000, order="center")
    assert not r.complete and r.move in game.actions(state)
    quick = fast_connect4.alphabeta(game, state, 8, heuristic=Threats(game), max_nodes=200)
    assert not quick.complete and quick.move in game.actions(state)
    # with enough budget for a few root moves, the best of those is kept
    assert set(r.root_values) <= set(game.actions(state))
