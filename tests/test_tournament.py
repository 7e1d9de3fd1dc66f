"""The Connect-4 tournament (ai.games.connect4.tournament) and its command line: two runs give
the same JSON but its ``timing``; every pair meets with both colours from every opening; a
heuristic beats its own weights sign-flipped over a tournament; the openings are the exact
solver's draws; bad input is a clear error (exit 2). The standings' rules
(ai.teach.standings): points, then head-to-head, then rating, never the name.
"""
import json
import subprocess
import sys
from collections import Counter
from itertools import combinations

import pytest

from ai.games.connect4 import tournament as T
from ai.games.connect4.exact import analyse
from ai.teach.standings import Result, standings

COMMAND = ["tournament", "connect4", "--entrant", "Ada:cells=1,open3=8",
           "--entrant", "Bob:open1=1,open2=4,open3=16,center=2",
           "--entrant", "Cy:center=1", "--level", "beginner", "--level", "easy",
           "--depth", "3", "--openings", "2", "--json"]


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def two_runs():
    out = []
    for _ in range(2):
        p = run(*COMMAND)
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
    assert len(openings) == 2
    met = Counter((g["first"], g["second"], g["opening"]) for g in data["games"])
    expected = {(a, b, o) for a, b in combinations(names, 2) for a, b in ((a, b), (b, a))
                for o in openings}
    assert set(met) == expected and set(met.values()) == {1}
    for g in data["games"]:
        assert g["moves"].startswith(g["opening"])
        assert g["result"] in ("1-0", "½-½", "0-1")
        assert g["winner"] == {"1-0": g["first"], "0-1": g["second"], "½-½": None}[g["result"]]
    for row in data["standings"]:
        assert row["games"] == 2 * 2 * (len(names) - 1)
        assert row["W"] + row["D"] + row["L"] == row["games"]
        assert row["points"] == row["W"] + row["D"] / 2
    cross = {r["name"]: r["against"] for r in data["crosstable"]}
    for a, b in combinations(names, 2):
        assert cross[a][b]["points"] + cross[b][a]["points"] == 4


def test_a_game_replays_move_by_move_as_the_game_page_searches(two_runs):
    """Each move of a heuristic's game is the move of the app's custom level with that
    heuristic and depth (the course's alpha-beta in Python, centre first, as the game page's
    tree panel re-runs it): the compiled search gave the same move, ties included."""
    from ai.levels import Level
    level = {name: Level("custom", "alphabeta", 3, 100.0, 400_000, order="center", fast=False,
                         heuristic=text)
             for name, text in (("Ada", "cells=1,open3=8"), ("Cy", "center=1"))}
    for g in two_runs[0]["games"]:
        if {g["first"], g["second"]} != {"Ada", "Cy"}:
            continue
        state = T.GAME.from_moves(g["opening"])
        players = (g["first"], g["second"])
        for i, ch in enumerate(g["moves"][len(g["opening"]):]):
            assert level[players[i % 2]].play(T.GAME, state).move + 1 == int(ch), (g, i)
            state = T.GAME.result(state, int(ch) - 1)
        assert T.GAME.is_terminal(state)


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
