"""Issue 10: one search decides and records. The tree panel shows the search that chose the
move played: with and without recording, the same move, value and node count, at every level,
from the engine, from the command line (``--level``, ``--record``) and from the app.

The clock is simulated (``SteadyClock``), so that ``expert``, whose move depends on its time
budget, is as deterministic here as the levels decided by counts.
"""
import json
import random
import re
import time
from dataclasses import replace

import pytest

from ai.games.connect4.exact import analysis

from ai import cli
from ai.games.connect4.rules import Connect4
from ai.engine import search
from ai.games.connect4.heuristic import CellValues, Threats
from ai.levels import LEVELS
from ai.games.nim.rules import Nim


class SteadyClock:
    """``time.perf_counter`` advancing 10.3 ms at each reading (about 100,000 nodes a second
    for the fast loop): a search's time budget becomes a node count. 10.3, not 10: a deadline
    is then never an exact multiple of the step, so two searches that start at different
    readings stop at the same node (with exact ties, float rounding decides)."""

    def __init__(self):
        self.readings = 0

    def __call__(self):
        self.readings += 1
        return self.readings * 0.0103


def sample_positions(n=6, seed=10):
    """``n`` Connect-4 positions of 0 to 20 random moves (random.Random(seed)), none over,
    and two Nim positions."""
    rng, game, out = random.Random(seed), Connect4(), []
    while len(out) < n:
        state, moves = game.initial_state(), []
        for _ in range(rng.randint(0, 20)):
            if game.is_terminal(state):
                break
            m = rng.choice(game.actions(state))
            state, moves = game.result(state, m), moves + [m]
        if not game.is_terminal(state):
            out.append((game, game.format_moves(moves)))
    return out + [(Nim(21), "3"), (Nim(11), "")]


POSITIONS = sample_positions()


def position(game, moves):
    if isinstance(game, Nim):
        state = game.initial_state()
        for m in game.parse_moves(moves):
            state = game.result(state, m)
        return state
    return game.from_moves(moves)


def cli_json(capsys, game, moves, level, *record):
    args = ["search", game.name, "--moves", moves, "--level", level, "--json", *record]
    if isinstance(game, Nim):
        args += ["--n", str(game.n)]
    assert cli.main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("level", [name for name, lv in LEVELS.items() if not lv.exact])
def test_recording_the_tree_never_changes_the_move_value_or_node_count(monkeypatch, capsys,
                                                                       level):
    monkeypatch.setattr(time, "perf_counter", SteadyClock())
    for game, moves in POSITIONS:
        state = position(game, moves)
        plain = LEVELS[level].play(game, state)
        recorded = LEVELS[level].play(game, state, record=True)
        seen = (game.name, moves, level)
        if plain.algorithm == "exact":
            # hard, expert: the exact solver proved the move within the level's budget; no
            # tree to draw, recorded or not
            assert LEVELS[level].exact_nodes and plain.complete, seen
            assert (recorded.move, recorded.value, recorded.tree) == \
                (plain.move, plain.value, None), seen
            data = cli_json(capsys, game, moves, level, "--record")
            assert (data["move"], data["value"]) == (plain.move + 1, plain.value), seen
            continue
        assert (recorded.move, recorded.value, recorded.stats.nodes, recorded.stats.depth) == \
            (plain.move, plain.value, plain.stats.nodes, plain.stats.depth), seen
        assert plain.tree is None and recorded.tree is not None, seen
        tree = recorded.tree
        root = tree.nodes[0]
        assert root.value == plain.value, seen          # the tree's root is the search's value
        if root.children:                               # (not a root a rule settled at once)
            best = [tree.nodes[c] for c in root.children if tree.nodes[c].pv]
            assert [n.move for n in best] == [plain.move], seen     # its line: the move played
        if plain.algorithm != "iterative":              # every node it counted, it drew
            assert tree.explored == plain.stats.nodes, seen
        else:                                           # the last depth's search, drawn
            assert tree.explored <= plain.stats.nodes, seen
        # the command line plays the level as the app does, with and without --record
        for record in ((), ("--record",)):
            data = cli_json(capsys, game, moves, level, *record)
            move = None if plain.move is None else (
                plain.move if isinstance(game, Nim) else plain.move + 1)
            assert (data["move"], data["value"], data["nodes"], data["depth"]) == \
                (move, plain.value, plain.stats.nodes, plain.stats.depth), (seen, record)
            assert ("explored" in data) == bool(record)


def test_the_expert_level_searches_and_records_where_the_solver_does_not_prove_its_move(
        monkeypatch):
    # a node budget of 1 stands in for a position the solver cannot prove in its budget
    # (no table of solved positions: it would know the positions other tests analysed)
    monkeypatch.setattr(time, "perf_counter", SteadyClock())
    monkeypatch.setattr(analysis, "default_store", lambda: None)
    expert = replace(LEVELS["expert"], exact_nodes=1)
    searched = 0
    for game, moves in POSITIONS:
        state = position(game, moves)
        plain = expert.play(game, state)
        if plain.algorithm == "exact":      # settled by the rules or the book: no search
            continue
        searched += 1
        recorded = expert.play(game, state, record=True)
        assert (recorded.move, recorded.value, recorded.stats.nodes) == \
            (plain.move, plain.value, plain.stats.nodes), moves
        assert recorded.tree is not None and recorded.tree.nodes[0].value == plain.value
    assert searched >= 4


def test_the_perfect_level_draws_no_tree_and_asking_for_one_changes_nothing():
    # The exact solver is not a depth-limited search: there is no tree to draw.
    for game, moves in POSITIONS:
        state = position(game, moves)
        plain = LEVELS["perfect"].play(game, state)
        recorded = LEVELS["perfect"].play(game, state, record=True)
        assert (recorded.move, recorded.value, recorded.tree) == (plain.move, plain.value, None)


def adds_up(tree) -> bool:
    """Every node that searched its children holds the best of their values (from its
    player's side), and every leaf a value."""
    for node in tree.nodes:
        kids = [tree.nodes[c] for c in node.children if not tree.nodes[c].pruned]
        if node.pruned or node.table == "hit" or not kids:
            continue
        values = [k.value for k in kids]
        if node.value != (max(values) if node.is_max else min(values)):
            return False
    return all(n.value is not None for n in tree.nodes if not n.pruned)


@pytest.mark.parametrize("moves", ["", "4453", "274552224131661", "7532455277545526"])
@pytest.mark.parametrize("h", [Threats, CellValues])
def test_the_fast_loops_tree_adds_up_and_counts_what_the_search_counted(moves, h):
    # The depth-1 nodes score their children inline, from their running heuristic state; the
    # tree scores the same children with the heuristic object itself: a tree that adds up
    # means the inline scoring is the heuristic's.
    game = Connect4()
    state = game.from_moves(moves)
    for depth in (2, 3, 6):
        r = search("alphabeta-tt", game, state, depth, fast=True, heuristic=h(game),
                   record=True)
        assert adds_up(r.tree)
        counts = (r.tree.explored, sum(n.cutoff for n in r.tree.nodes),
                  sum(n.table == "hit" for n in r.tree.nodes))
        assert counts == (r.stats.nodes, r.stats.cutoffs, r.stats.tt_hits)


def test_a_search_larger_than_the_record_limit_keeps_no_tree_and_its_move():
    game = Connect4()
    state = game.from_moves("4453")
    plain = LEVELS["hard"].play(game, state)
    small = LEVELS["hard"].play(game, state, record=True, record_limit=plain.stats.nodes - 1)
    assert small.tree is None
    assert (small.move, small.value, small.stats.nodes) == \
        (plain.move, plain.value, plain.stats.nodes)


def test_a_recorded_search_is_not_given_a_table_its_replay_could_not_start_from():
    from ai.course.search import TranspositionTable
    with pytest.raises(ValueError, match="table"):
        search("alphabeta-tt", Nim(5), None, 2, record=True, table=TranspositionTable())


# -- the app: the AI's move with the tree panel on is the move without it -------------------

def ai_reply(client, url):
    """The column the AI played after the person's move in ``url`` (the redirect's moves)."""
    response = client.get(url)
    assert response.status_code == 303, url
    return re.search(r"moves=(\d+)", response.headers["Location"]).group(1)


@pytest.mark.parametrize("moves, col", [("11", 5), ("4455", 3), ("44", 3), ("4453", 2),
                                        ("", 4), ("2233", 4)])
def test_turning_the_tree_on_does_not_change_the_ais_move(client, moves, col):
    # The example: /connect4/move?moves=11&col=5 played 3 at depth 9, and with the
    # tree on, 4 (the tree's search was another, slower one).
    url = f"/connect4/move?moves={moves}&col={col}"
    assert ai_reply(client, url) == ai_reply(client, url + "&tree=1")


def test_the_summary_and_the_tree_panel_count_the_same_search(client):
    # medium: alpha-beta with a table at depth 5, one search: the summary's node count is the
    # number of nodes the panel draws as explored
    html = client.get("/connect4/ai?moves=4&level=medium&tree=1",
                      headers={"HX-Request": "true"}).get_data(as_text=True)
    summary = re.search(r"depth 5, value [^,]+, ([\d,]+) nodes", html)
    caption = re.search(r"explored ([\d,]+)", html)
    assert summary and caption, html[:2000]
    assert summary.group(1) == caption.group(1)
