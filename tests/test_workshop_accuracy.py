"""The heuristic workshop's measure (ai.games.connect4.accuracy) and its command line: a
heuristic written as weights of the named terms plays as the named heuristic it spells out;
the exact solver's referee tells a heuristic from its opposite; a level's own heuristic scores
the same whether measured by the workshop or by playing the level as the ladder bench does.

(The kernel's own tests, tests/test_compiled_search.py, check the terms' values against the
named heuristics position by position: ``cells=1`` is ``CellValues`` and the threats weights
``Threats``, exactly. These check it where a student meets it: the search and the command line.)
"""
import json
import subprocess
import sys

import pytest

from ai.course.search import alphabeta
from ai.games.connect4 import accuracy
from ai.games.connect4.rules import Connect4
from ai.games.connect4.terms import LEVEL_WEIGHTS, WeightedHeuristic, parse
from ai.heuristics import make_heuristic
from ai.levels import LEVELS

GAME = Connect4()
SAMPLE = ["", "4453", "44433", "4343332211", "1234567123"] + [
    p.moves for p in accuracy.default_positions()[1::60]]


def run(*args):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("moves", SAMPLE)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_seed_000_as_text_is_the_cells_heuristic(moves, depth):
    state = GAME.from_moves(moves)
    named = alphabeta(GAME, state, depth, heuristic=make_heuristic(GAME, "cells"), order="center")
    text = alphabeta(GAME, state, depth, heuristic=make_heuristic(GAME, "cells=1"), order="center")
    assert isinstance(make_heuristic(GAME, "cells=1"), WeightedHeuristic)
    assert (text.move, text.value, text.root_values) == (named.move, named.value,
                                                         named.root_values)


@pytest.mark.parametrize("moves", SAMPLE)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_seed_004_alpha_02_as_text_is_the_adjusted_heuristic(moves, depth):
    """``adjusted=1`` (α = 0.2, the default) against the named ``adjusted``: the same moves,
    the same values to the 6 decimals the named heuristic rounds its sum to (the weighted sum
    is not rounded: 3.5999999999999996 where the named one says 3.6)."""
    state = GAME.from_moves(moves)
    named = alphabeta(GAME, state, depth, heuristic=make_heuristic(GAME, "adjusted"),
                      order="center")
    text = alphabeta(GAME, state, depth, heuristic=make_heuristic(GAME, "adjusted=1"),
                     order="center")
    assert text.move == named.move
    assert round(text.value, 6) == round(named.value, 6)
    assert {m: round(v, 6) for m, v in text.root_values.items()} == \
        {m: round(v, 6) for m, v in named.root_values.items()}


def test_the_command_line_searches_with_a_text_as_with_the_named_heuristic():
    for moves in ("4453", "4343332211"):
        out = [json.loads(run("search", "connect4", "--moves", moves, "--depth", "4",
                              "--heuristic", h, "--json").stdout) for h in ("cells", "cells=1")]
        keep = ("move", "value", "pv", "nodes", "leaves")
        assert {k: out[0][k] for k in keep} == {k: out[1][k] for k in keep}
    bad = run("search", "connect4", "--depth", "2", "--heuristic", "cells=one")
    assert bad.returncode == 2 and "must be a number" in bad.stderr
    nim = run("search", "nim", "--depth", "2", "--heuristic", "cells=1")
    assert nim.returncode == 2 and "no weighted terms" in nim.stderr


def test_the_workshop_positions_are_many_real_and_kept_apart():
    positions = accuracy.default_positions()
    assert len(positions) >= 200
    plies = [p.plies for p in positions]
    assert min(plies) <= 12 and sum(13 <= n <= 26 for n in plies) >= 40 and \
        sum(n >= 27 for n in plies) >= 40
    apart = set()
    for path in ("bench/data/level-positions.txt", "tests/data/level-sample.txt"):
        with open(path) as f:
            apart.update(line.split()[0] for line in f if line.strip() and line[0] != "#")
    assert not apart & {p.moves for p in positions}
    for p in positions:     # a blunder is possible in each: not lost, some column worse
        assert p.score >= 0 and max(s for s in p.scores if s is not None) == p.score
        assert any(s is not None and accuracy.sign(s) < accuracy.sign(p.score)
                   for s in p.scores)


def test_the_cached_labels_are_the_solver_s():
    for p in accuracy.default_positions()[::40]:
        assert accuracy.label.__wrapped__(p.moves) == p


@pytest.mark.parametrize("text", ["cells=1", "cells=1,open3=8", str(LEVEL_WEIGHTS["threats"])])
def test_a_heuristic_beats_its_opposite(text):
    w = parse(text)
    ours, theirs = accuracy.measure(w, 4), accuracy.measure(accuracy.flipped(w), 4)
    assert ours.accuracy > theirs.accuracy
    assert ours.blunders < theirs.blunders


@pytest.mark.parametrize("level", ["beginner", "easy", "medium"])
def test_a_level_s_accuracy_two_ways(level):
    """The workshop's measure of the level's heuristic at its depth, and the level itself
    played on the same positions, judged as bench/bench_levels.py judges it (the blunder:
    the sign of the move's score below the position's)."""
    lv = LEVELS[level]
    weights = LEVEL_WEIGHTS[GAME.level_heuristics[level]]
    measured = accuracy.measure(weights, lv.depth)
    kept = blunders = 0
    for p in accuracy.default_positions():
        s = p.scores[lv.play(GAME, p.state).move]
        kept += s == p.score
        blunders += accuracy.sign(s) < accuracy.sign(p.score)
    assert measured.accuracy == kept / measured.positions
    assert measured.blunders == blunders


def test_the_accuracy_command(tmp_path):
    out = run("accuracy", "connect4", "--heuristic", "cells=1", "--depth", "4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    r = accuracy.measure("cells=1", 4)
    assert (data["accuracy"], data["blunders"], data["positions"]) == \
        (round(r.accuracy, 6), r.blunders, len(accuracy.default_positions()))
    assert [c["move"] for c in data["choices"]] == [c.move + 1 for c in r.choices]
    named = json.loads(run("accuracy", "connect4", "--heuristic", "cells", "--depth", "4",
                           "--json").stdout)
    assert named["accuracy"] == data["accuracy"]
    f = tmp_path / "pos.txt"
    f.write_text("4453\n# a comment\n3344 18 " + " ".join(["0"] * 7) + "\n")
    data = json.loads(run("accuracy", "connect4", "--heuristic", "cells=1", "--depth", "2",
                          "--positions", str(f), "--json").stdout)
    assert data["positions"] == 2
    assert data["choices"][0]["best"] == accuracy.label("4453").score
    for args, words in [(("--heuristic", "open9=1"), "unknown term"),
                        (("--heuristic", "cells=1", "--depth", "0"), "depth"),
                        (("--heuristic", "cells=1", "--positions", str(tmp_path / "no")),
                         "cannot read")]:
        bad = run("accuracy", "connect4", *args)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("text", ["cells=1", "open2=2,open3=8,center=3,oddeven=5",
                                  "adjusted=1,alpha=0.3,threats=-2"])
def test_the_measured_move_is_the_compiled_alphabeta_s(text):
    from ai.games.connect4 import compiled_search
    w = parse(text)
    for depth in (1, 2, 4):
        for p in accuracy.default_positions()[::7]:
            assert accuracy.chosen_move(w, depth, p.state) == compiled_search.alphabeta(
                accuracy.GAME, p.state, depth, heuristic=WeightedHeuristic(accuracy.GAME, w)).move
