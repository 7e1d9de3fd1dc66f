"""The tournament (ai.teach.tournament, with each game's part: ai.games.connect4.tournament,
ai.games.tictactoe.tournament) and its command line, for Connect-4 and tic-tac-toe: two runs
give the same JSON but its ``timing``; every pair meets with both colours from every opening; a
heuristic beats its own weights sign-flipped over a tournament; the openings are the exact
solver's draws; bad input is a clear error (exit 2). The standings' rules
(ai.teach.standings): points, then head-to-head, then rating, never the name. Tic-tac-toe's
weighted terms give its named heuristics' values exactly.
"""
import json
import subprocess
import sys
from collections import Counter
from itertools import combinations

import pytest

from ai.course.game import play
from ai.games.connect4 import tournament as T
from ai.games.tictactoe import tournament as TT
from ai.games.tictactoe.heuristic import CellValues, OpenLines
from ai.games.tictactoe.solver import solve
from ai.games.tictactoe.terms import WeightedHeuristic
from ai.games.connect4.exact import analyse
from ai.teach.standings import Result, standings

COMMANDS = {
    "connect4": ["tournament", "connect4", "--entrant", "Ada:cells=1,open3=8",
                 "--entrant", "Bob:open1=1,open2=4,open3=16,center=2",
                 "--entrant", "Cy:center=1", "--level", "beginner", "--level", "easy",
                 "--depth", "3", "--openings", "2", "--json"],
    "tictactoe": ["tournament", "tictactoe", "--entrant", "Ada:lines=1,open2=4",
                  "--entrant", "Bob:center=2,corners=1", "--entrant", "Cy:open1=-1",
                  "--level", "beginner", "--level", "easy", "--depth", "2", "--openings", "3",
                  "--json"],
}


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module", params=sorted(COMMANDS))
def two_runs(request):
    out = []
    for _ in range(2):
        p = run(*COMMANDS[request.param])
        assert p.returncode == 0, p.stderr
        out.append(json.loads(p.stdout))
    return out


def test_two_runs_give_the_same_json_but_the_timing(two_runs):
    a, b = two_runs
    for data in (a, b):
        assert all(isinstance(v, (int, float)) for v in data.pop("timing").values())
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    # and no other measured time hides elsewhere: nothing in it is called a time
    assert "ms" not in json.dumps(a).replace("games", "")


def test_every_pair_meets_with_both_colours_from_every_opening(two_runs):
    data = two_runs[0]
    names = [e["name"] for e in data["entrants"]]
    assert names == ["Ada", "Bob", "Cy", "beginner", "easy"]      # a boss by its level
    openings = [o["moves"] for o in data["openings"]]
    k = data["settings"]["openings"]
    assert len(openings) == k == {"connect4": 2, "tictactoe": 3}[data["game"]]
    met = Counter((g["first"], g["second"], g["opening"]) for g in data["games"])
    expected = {(a, b, o) for a, b in combinations(names, 2) for a, b in ((a, b), (b, a))
                for o in openings}
    assert set(met) == expected and set(met.values()) == {1}
    for g in data["games"]:
        assert g["moves"].startswith(g["opening"])
        assert g["result"] in ("1-0", "½-½", "0-1")
        assert g["winner"] == {"1-0": g["first"], "0-1": g["second"], "½-½": None}[g["result"]]
    for row in data["standings"]:
        assert row["games"] == 2 * k * (len(names) - 1)
        assert row["W"] + row["D"] + row["L"] == row["games"]
        assert row["points"] == row["W"] + row["D"] / 2
    cross = {r["name"]: r["against"] for r in data["crosstable"]}
    for a, b in combinations(names, 2):
        assert cross[a][b]["points"] + cross[b][a]["points"] == 2 * k
    assert {g["result"] for g in data["games"]} != {"½-½"}          # something was decided


def test_a_game_replays_move_by_move_as_the_game_page_searches(two_runs):
    """Each move of a heuristic's game is the move of the app's custom level with that
    heuristic and depth (the course's alpha-beta in Python, centre first, as the game page's
    tree panel re-runs it): the compiled search gave the same move, ties included."""
    from ai import games
    from ai.levels import Level
    data = two_runs[0]
    game = games.load(data["game"]).Rules()
    level = {e["name"]: Level("custom", "alphabeta", data["settings"]["depth"], 100.0, 400_000,
                              order="center", fast=False, heuristic=e["heuristic"])
             for e in data["entrants"] if e["name"] in ("Ada", "Cy")}
    checked = 0
    for g in data["games"]:
        if {g["first"], g["second"]} != {"Ada", "Cy"}:
            continue
        state = play(game, game.parse_moves(g["opening"]))
        players = (g["first"], g["second"])
        for i, move in enumerate(game.parse_moves(g["moves"][len(g["opening"]):])):
            assert level[players[i % 2]].play(game, state).move == move, (g, i)
            state = game.result(state, move)
            checked += 1
        assert game.is_terminal(state)
    assert checked > 20


def test_the_openings_are_the_solvers_draws_up_to_the_mirror():
    openings = T.openings(6)
    assert [o["score"] for o in openings] == [0] * 6
    seen = set()
    for o in openings:
        a, b = o["moves"]
        assert -analyse(a, store=None).scores[int(b) - 1] == 0
        mirror = "".join(str(8 - int(c)) for c in o["moves"])
        assert mirror not in seen
        seen.add(o["moves"])
    assert T.openings(8)[6]["score"] == 1           # then the latest win
    with pytest.raises(ValueError):
        T.openings(0)


def test_tictactoe_openings_are_the_solved_games_draws_first_up_to_symmetry():
    openings = TT.openings(12)
    assert [o["score"] for o in openings] == [0] * 5 + [1] * 7
    seen = set()
    for o in openings:
        state = play(TT.GAME, TT.GAME.parse_moves(o["moves"]))
        assert solve(state)[0] == o["score"]
        assert TT.GAME.canonical(state) not in seen
        seen.add(TT.GAME.canonical(state))
    assert openings[0]["moves"] == "15"             # a corner answered by the centre
    with pytest.raises(ValueError):
        TT.openings(13)


def test_tictactoe_weights_give_its_named_heuristics_values():
    import random
    rng, game = random.Random(7), TT.GAME
    lines, cells = OpenLines(game), CellValues(game)
    weighted = {"lines": WeightedHeuristic(game, "lines=1"),
                "cells": WeightedHeuristic(game, "cells=1")}
    for _ in range(500):
        state = game.initial_state()
        for _ in range(rng.randint(0, 7)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        for p in (0, 1):
            assert weighted["lines"](state, p) == lines(state, p)
            assert weighted["cells"](state, p) == cells(state, p)
    assert game.weights_text(" open2=4 , lines=1.0,center=0.5") == "lines=1,open2=4,center=0.5"


def test_a_tictactoe_heuristic_beats_its_weights_sign_flipped():
    from ai.teach import tournament as shared
    game = TT.GAME
    data = shared.run(game, [shared.entrant(game, "Good:lines=1,open2=4,center=2"),
                             shared.entrant(game, "Flipped:lines=-1,open2=-4,center=-2")], 2, 5)
    top = data["standings"][0]
    assert top["name"] == "Good" and top["points"] > 5 and top["rating"] > 0


def test_a_heuristic_beats_its_weights_sign_flipped():
    data = T.run([T.entrant("Good:open1=1,open2=4,open3=16,center=2"),
                  T.entrant("Flipped:open1=-1,open2=-4,open3=-16,center=-2")], 4, 4)
    top = data["standings"][0]
    assert top["name"] == "Good" and top["points"] > 6 and top["rating"] > 0


@pytest.mark.parametrize("args, words", [
    (["--entrant", "Ada:cells=1,open3=x", "--level", "easy"], "must be a number"),
    (["--entrant", "Ada", "--level", "easy"], "NAME:weights"),
    (["--entrant", ":cells=1", "--level", "easy"], "needs a name"),
    (["--entrant", "Ada:foo=1", "--level", "easy"], "unknown term"),
    (["--entrant", "Ada:cells=1", "--entrant", "ada:cells=2"], "two entrants"),
    (["--entrant", "easy:cells=1", "--level", "easy"], "two entrants"),
    (["--entrant", "Ada:cells=1", "--level", "perfect"], "clock"),
    (["--entrant", "Ada:cells=1", "--level", "grandmaster"], "unknown level"),
    (["--entrant", "Ada:cells=1"], "at least two"),
    (["--entrant", "Ada:cells=1", "--level", "easy", "--depth", "0"], "depth"),
    (["--entrant", "Ada:cells=1", "--level", "easy", "--openings", "99"], "openings"),
])
def test_bad_input_is_a_clear_error(args, words):
    p = run("tournament", "connect4", *args)
    assert p.returncode == 2
    assert words in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("args, words", [
    (["--entrant", "Ada:lines=1", "--entrant", "Bob:open3=1"], "unknown term"),
    (["--entrant", "Ada:lines=1", "--level", "easy", "--openings", "13"], "openings"),
    (["--entrant", "Ada:lines=1", "--level", "easy", "--depth", "13"], "depth"),
])
def test_bad_tictactoe_input_is_a_clear_error(args, words):
    p = run("tournament", "tictactoe", *args)
    assert p.returncode == 2
    assert words in p.stderr and "Traceback" not in p.stderr


def test_ties_go_to_head_to_head_then_rating_never_to_the_name():
    # a cycle, each beat one and lost to one: all level on points and head-to-head and
    # rating; they share the place, in the order they were entered (never sorted by name)
    games = [Result("Z", "A", 1), Result("A", "M", 1), Result("M", "Z", 1)]
    rows, _ = standings(["A", "M", "Z"], games)
    assert [r["points"] for r in rows] == [1, 1, 1]
    assert len({r["rank"] for r in rows}) == 1                 # share the place
    assert [r["name"] for r in rows] == ["A", "M", "Z"]        # entry order, not sorted
    rows, _ = standings(["Z", "A", "M"], games)
    assert [r["name"] for r in rows] == ["Z", "A", "M"]        # the same: entry order
    games += [Result("A", "B", 1), Result("Z", "B", 0.5)]
    rows, _ = standings(["A", "B", "M", "Z"], games)
    top = [(r["name"], r["points"]) for r in rows[:2]]
    assert top == [("A", 2), ("Z", 1.5)]
    games += [Result("M", "B", 0.5)]                          # M and Z level on 1.5
    rows, _ = standings(["A", "B", "M", "Z"], games)
    assert [r["name"] for r in rows[1:3]] == ["M", "Z"]       # M beat Z
    assert rows[1]["rank"] == 2 and rows[2]["rank"] == 3


def test_the_rating_orders_by_results_and_has_an_uncertainty():
    games = [Result("A", "B", 1)] * 6 + [Result("B", "C", 1)] * 6 + [Result("A", "C", 0.5)]
    rows, _ = standings(["C", "B", "A"], games)
    rating = {r["name"]: (r["rating"], r["rating_error"]) for r in rows}
    assert rating["A"][0] > rating["B"][0] and rating["B"][0] > rating["C"][0]
    assert abs(sum(r[0] for r in rating.values())) < 0.5            # centred on 0
    assert all(0 < r[1] < 1000 for r in rating.values())
    more, _ = standings(["C", "B", "A"], games * 4)
    assert {r["name"]: r["rating_error"] for r in more}["A"] < rating["A"][1]
