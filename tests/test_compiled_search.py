"""ai.games.connect4.compiled_search (and its kernel, search_kernel) and the terms it evaluates
(ai.games.connect4.terms): for any weights of the terms, the values and moves of the
course's search with the same heuristic, depth and root move order (``course_move``; else
one of its best moves); for the levels' heuristics, fast_search's search node for node
(move, value, principal variation, counts, root values, where a budget stops it); the terms'
Python definitions and the kernel's agree to the last bit; the text form is strict.

Positions are built by playing drawn legal moves from the start (tests/strategies.py).
"""
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dataclasses import replace

from ai import engine
from ai.course.game import Game
from ai.course.scores import HEURISTIC_MAX
from ai.course.search import alphabeta as course_alphabeta, minimax
from ai.course.table import fresh_table
from ai.games.connect4 import compiled_search, compiled_terms, fast_search, search_kernel as K
from ai.games.connect4.heuristic import CellValues, Threats
from ai.games.connect4.rules import Connect4
from ai.games.connect4.terms import (LEVEL_WEIGHTS, NAMES, WeightedHeuristic, Weights,
                                     evaluate, format_weights, parse)
from ai.levels import LEVELS
from tests.strategies import connect4_games, reachable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = Connect4()
positions = reachable(st.just(GAME), 30)
weights = st.builds(
    lambda ws, alpha: Weights(tuple(ws), alpha),
    st.lists(st.one_of(st.integers(-20, 20), st.floats(-20, 20).map(lambda x: round(x, 2)),
                       st.just(0)), min_size=len(NAMES), max_size=len(NAMES)),
    st.sampled_from([0.2, 0, 0.5, 1.3]))
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Reference(WeightedHeuristic):
    """The weights evaluated by the terms' Python definition (``terms.evaluate``)."""

    def __call__(self, state, player):
        return evaluate(self.game, state, player, self.weights)


def kernel_value(state, player, w):
    mine = GAME.stones(state, player)
    geo = compiled_terms.board_constants(GAME, True)
    return K.evaluate(mine, mine ^ state.mask, state.mask, player == 0, geo,
                      compiled_terms.weights_array(w))


@settings(max_examples=150, **SLOW)
@given(positions, weights, st.integers(0, 1))
def test_the_kernel_adds_the_terms_as_their_python_definition(position, w, player):
    _, state = position
    expected = evaluate(GAME, state, player, w)
    assert kernel_value(state, player, w) == expected
    # the course's Python search evaluates through the kernel too (WeightedHeuristic)
    made = WeightedHeuristic(GAME, w)(state, player)
    assert made == expected and type(made) is type(expected)
    assert -HEURISTIC_MAX < expected < HEURISTIC_MAX


@settings(max_examples=80, **SLOW)
@given(positions)
def test_the_levels_heuristics_are_weights_of_the_terms_exactly(position):
    _, state = position
    if state.over:
        return
    for player in (0, 1):
        assert evaluate(GAME, state, player, LEVEL_WEIGHTS["threats"]) == Threats(GAME)(state, player)
        assert evaluate(GAME, state, player, LEVEL_WEIGHTS["cells"]) == CellValues(GAME)(state, player)


@settings(max_examples=40, **SLOW)
@given(positions, st.integers(1, 4), weights, st.sampled_from(["center", "natural", "reverse"]))
def test_the_course_s_values_and_moves_for_any_weights(position, depth, w, order):
    _, state = position
    h = WeightedHeuristic(GAME, w)
    # the course's search on the terms' Python definition, not the kernel's evaluation
    course = course_alphabeta(GAME, state, depth, heuristic=Reference(GAME, w), order=order)
    same = compiled_search.alphabeta(GAME, state, depth, heuristic=h, order=order,
                                     course_move=True)
    assert (same.move, same.value) == (course.move, course.value)
    ours = compiled_search.alphabeta(GAME, state, depth, heuristic=h)
    assert ours.value == course.value
    if state.over:
        assert ours.move is None
        return
    # without course_move, the move is one the course's minimax scores best (its root values
    # are exact); which of several equal moves is fast_search's root order (the levels')
    exact = minimax(GAME, state, depth, heuristic=Reference(GAME, w)).root_values
    assert exact[ours.move] == course.value


def same_search(a, b):
    assert (a.move, a.value, a.pv, a.complete, a.root_values) == \
        (b.move, b.value, b.pv, b.complete, b.root_values)
    for k in ("nodes", "leaves", "cutoffs", "tt_probes", "tt_hits", "depth"):
        assert getattr(a.stats, k) == getattr(b.stats, k), k


@settings(max_examples=120, **SLOW)
@given(positions, st.integers(1, 7), st.sampled_from([None, Threats, CellValues]),
       st.booleans(), st.booleans())
def test_fast_search_s_search_node_for_node(position, depth, kind, table, quick):
    _, state = position
    h = None if kind is None else kind(GAME)
    runs = [f(GAME, state, depth, heuristic=h, quick_wins=quick,
              table=fresh_table(None) if table else None)
            for f in (fast_search.alphabeta, compiled_search.alphabeta)]
    same_search(*runs)


@settings(max_examples=60, **SLOW)
@given(positions, st.integers(3, 7), st.integers(1, 400))
def test_a_node_budget_stops_it_where_it_stops_fast_search(position, depth, budget):
    _, state = position
    runs = [f(GAME, state, depth, heuristic=Threats(GAME), max_nodes=budget,
              table=fresh_table(None))
            for f in (fast_search.alphabeta, compiled_search.alphabeta)]
    same_search(*runs)


def the_engine_s_usual_way(loop, *args, **options):
    """``ai.engine.search`` as it runs without the rules' ``fast_run``: through the rules'
    ``fast_alphabeta``, here pointed at ``loop`` (fast_search's or this search's alpha-beta)."""
    own = Connect4.fast_run, Connect4.fast_alphabeta
    Connect4.fast_run = Game.fast_run
    Connect4.fast_alphabeta = lambda self, **o: loop
    try:
        return engine.search(*args, **options)
    finally:
        Connect4.fast_run, Connect4.fast_alphabeta = own


def without_clock(result):
    return replace(result, stats=replace(result.stats, elapsed=0))


@settings(max_examples=150, **SLOW)
@given(reachable(connect4_games(7, 6), 40), st.one_of(st.none(), st.integers(0, 6)),
       st.sampled_from([None, Threats, CellValues]), st.booleans(),
       st.sampled_from(["alphabeta", "alphabeta-tt"]),
       st.one_of(st.none(), st.integers(1, 300)), st.booleans())
def test_the_engine_s_direct_way_gives_its_usual_result(position, depth, kind, quick,
                                                        algorithm, budget, table):
    """The rules' fast_run (compiled_search.direct: one call of the kernel, no engine layer)
    returns what the engine's way through fast_alphabeta returns: fast_search's search node
    for node, and this search's result field for field (the clock's reading aside)."""
    game, state = position
    if depth is None and game.cells - state.moves > 12:
        depth = 3                       # to the end of the game: only near it
    h = None if kind is None else kind(game)
    options = dict(heuristic=h, quick_wins=quick, max_nodes=budget, order="center")
    if table:
        options["table"] = fresh_table(None)
    assert compiled_search.direct(game, algorithm, state, depth, dict(
        options, table=fresh_table(None) if table else None)) is not None
    direct = engine.search(algorithm, game, state, depth, fast=True, **options)
    if table:
        options["table"] = fresh_table(None)
    usual = the_engine_s_usual_way(compiled_search.alphabeta, algorithm, game, state, depth,
                                   fast=True, **options)
    assert without_clock(direct) == without_clock(usual)
    assert type(direct.value) is type(usual.value)
    assert [type(v) for v in direct.root_values.values()] == \
        [type(v) for v in usual.root_values.values()]
    assert list(direct.root_values) == list(usual.root_values)
    if table:
        options["table"] = fresh_table(None)
    same_search(direct, the_engine_s_usual_way(fast_search.alphabeta, algorithm, game, state,
                                               depth, fast=True, **options))


def test_the_direct_way_leaves_the_rest_to_the_engine():
    """What the rules' fast_run does not run goes the engine's usual way (None), and a bad
    depth or budget gets the engine's error."""
    state = GAME.from_moves("4453")
    h = Threats(GAME)
    for algorithm, game, options in [
            ("iterative", GAME, dict(heuristic=h)), ("minimax", GAME, dict(heuristic=h)),
            ("alphabeta", GAME, dict(heuristic=WeightedHeuristic(GAME, parse("open2=3")))),
            ("alphabeta", GAME, dict(heuristic=Threats(Connect4(6, 5)))),
            ("alphabeta", GAME, dict(heuristic=h, window=(-5, 5))),
            ("alphabeta", GAME, dict(heuristic=h, tie_break="random")),
            ("alphabeta", GAME, dict(heuristic=h, table=fresh_table())),    # slots
            ("alphabeta", GAME, dict(heuristic=h, course_move=True)),
            ("alphabeta", Connect4(9, 9), dict())]:
        assert compiled_search.direct(game, algorithm, game.initial_state(), 2, options) is None
    for depth, options, words in [(-1, {}, "depth"), (2.5, {}, "depth"),
                                  (2, {"max_nodes": 0}, "max_nodes"),
                                  (2, {"time_limit": 0}, "time_limit")]:
        with pytest.raises(ValueError, match=words):
            engine.search("alphabeta-tt", GAME, state, depth, fast=True, heuristic=h, **options)


def test_the_direct_way_s_root_values_are_a_dict_when_read():
    """The direct way leaves the root values' dict to be made when first read (SearchResult's
    __getattr__): read, copied, pickled or replaced, they are the usual way's, a dict; any
    other missing attribute is still missing."""
    import copy
    import pickle
    h = Threats(GAME)
    for moves, depth, budget in [("4453", 2, None), ("44", 3, None), ("4453", 4, 5)]:
        state = GAME.from_moves(moves)
        usual = the_engine_s_usual_way(compiled_search.alphabeta, "alphabeta-tt", GAME, state,
                                       depth, fast=True, heuristic=h, max_nodes=budget)
        made = [lambda: engine.search("alphabeta-tt", GAME, state, depth, fast=True,
                                      heuristic=h, max_nodes=budget)]
        made.append(lambda: copy.copy(made[0]()))
        made.append(lambda: pickle.loads(pickle.dumps(made[0]())))
        made.append(lambda: replace(made[0](), tree=None))
        for make in made:
            result = make()
            assert type(result.root_values) is dict
            assert list(result.root_values.items()) == list(usual.root_values.items())
            assert result.root_values is result.root_values     # made once
        assert without_clock(made[0]()) == without_clock(usual)
        assert not hasattr(made[0](), "root_value")


def test_the_direct_way_keeps_its_checks_per_options_not_across():
    """``direct`` keeps what it checked per game, algorithm and options: the same options
    for another board, or another heuristic, are checked again; options whose values have
    no hash are checked at every call."""
    h = Threats(GAME)
    options = dict(heuristic=h, order="center")
    state = GAME.from_moves("4453")
    first = compiled_search.direct(GAME, "alphabeta", state, 2, options)
    assert without_clock(first) == without_clock(
        compiled_search.direct(GAME, "alphabeta", state, 2, dict(options)))
    small = Connect4(6, 5)
    assert compiled_search.direct(small, "alphabeta", small.from_moves("4453"), 2,
                                  options) is None                  # h is for 7x6
    assert compiled_search.direct(GAME, "minimax", state, 2, options) is None
    unhashed = dict(heuristic=h, order=[3, 2, 4, 1, 5, 0, 6])
    assert without_clock(compiled_search.direct(GAME, "alphabeta", state, 2, unhashed)) == \
        without_clock(first)
    assert compiled_search.direct(GAME, "alphabeta", state, 2, dict(
        heuristic=h, order=[3], window=["infinite"])) is None       # checked, no hash


def test_the_levels_run_it_and_a_tree_replays_it():
    """Without a tree the default level runs the kernel; the tree panel's replay (fast_search,
    which records) finds the same move, value and count: ai.engine checks it."""
    state = GAME.initial_state()
    for m in (3, 3, 2, 4, 2, 2, 4, 1, 0, 6, 5, 5, 4, 3):
        state = GAME.result(state, m)
    assert GAME.fast_alphabeta(heuristic=Threats(GAME), order="center") is compiled_search.alphabeta
    for name in ("medium", "hard"):
        level = LEVELS[name]
        played = level.play(GAME, state)
        shown = level.with_tree(GAME, state, played)
        assert shown.tree is not None and (shown.move, shown.value) == (played.move, played.value)
        recorded = level.play(GAME, state, record=True)
        assert (recorded.move, recorded.value, recorded.stats.nodes) == \
            (played.move, played.value, played.stats.nodes)


def test_the_text_form_reads_back():
    w = parse(" cells=1, adjusted=0,open2=2,open3=8,center=3,oddeven=5 ")
    assert w["open3"] == 8 and w["adjusted"] == 0 and w.alpha == 0.2
    assert format_weights(w) == "cells=1,open2=2,open3=8,center=3,oddeven=5"
    again = parse("adjusted=1.5,alpha=0.3,threats=-2")
    assert parse(format_weights(again)) == again
    assert str(LEVEL_WEIGHTS["threats"]) == "open1=1,open2=4,open3=16,center=2"


@pytest.mark.parametrize("text, words", [
    ("", "name=weight"), ("cells", "not name=weight"), ("=3", "not name=weight"),
    ("cels=1", "unknown term 'cels'"), ("cells=1,cells=2", "given twice"),
    ("open2=two", "must be a number"), ("open2=nan", "is a number"), ("open2=1e9", "is a number"),
    ("alpha=-1", "alpha is a number >= 0"),
])
def test_bad_text_says_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        parse(text)


def test_the_warm_up_compiles_every_path_of_the_levels_search():
    # In a fresh process: after the warm-up (what the app's start does), the levels' searches,
    # the engine's direct way with a node and a time budget, a caller's table and the
    # course's root order, and the kernel's evaluation compile nothing more (numba's compile
    # events): a compile on a player's request would take seconds.
    code = """
from numba.core import event
from ai.engine import search
from ai.games.connect4 import compiled_search
from ai.games.connect4.heuristic import CellValues, Threats
from ai.games.connect4.rules import Connect4
from ai.games.connect4.terms import WeightedHeuristic, parse
from ai.course.table import fresh_table
from ai.levels import LEVELS
game = Connect4()
compiled_search.warm_up(game)
compiled = event.RecordingListener()
with event.install_listener("numba:compile", compiled):
    state = game.from_moves("4453")
    for name in ("beginner", "easy", "medium", "hard"):
        LEVELS[name].play(game, state)
    for h in (None, Threats(game), CellValues(game)):
        search("alphabeta-tt", game, state, 2, fast=True, heuristic=h, max_nodes=10**6,
               time_limit=5.0)
        search("alphabeta", game, state, 3, fast=True, heuristic=h, table=fresh_table(None))
    w = WeightedHeuristic(game, parse("cells=1.5,adjusted=1,oddeven=2"))
    compiled_search.alphabeta(game, state, 3, heuristic=w, course_move=True, order="natural")
    w(state, 0)
print("compiled:", [str(e.data.get("dispatcher")) for _, e in compiled.buffer])
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "compiled: []"
