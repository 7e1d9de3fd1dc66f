"""The Swiss system beyond a class's size (ai.teach.pairing, ai.teach.tournament): each round
every entrant plays one match (both colours from every opening) or sits it out once; nobody
meets twice while a pairing avoids it; the top of the standings meets the top; a bye scores
a drawn match; two runs give the same JSON but its timing; the standings never look at a
name (renaming the entrants changes no place). Tic-tac-toe at small depths: seconds.
"""
import json
from collections import Counter, defaultdict

import pytest

from ai.games.tictactoe import tournament as TT
from ai.teach import pairing
from ai.teach import tournament as T

GAME = TT.GAME
WEIGHTS = ["lines=1,open2=4", "center=2,corners=1", "cells=1", "open1=1", "lines=1,open2=-1",
           "open2=3,center=1", "corners=-1", "lines=-1", "open1=2,open2=2,cells=1"]


def entrants(names):
    out = [T.entrant(GAME, f"{n}:{w}") for n, w in zip(names, WEIGHTS)]
    return out + [T.boss("beginner")]


@pytest.fixture(scope="module")
def swiss():
    return T.run(GAME, entrants("ABCDEFGHI"), 2, 2, schedule="swiss", rounds=5)


def test_each_round_every_entrant_plays_one_match_or_sits_out_once(swiss):
    names = [e["name"] for e in swiss["entrants"]]
    assert len(names) == 10 and swiss["settings"]["schedule"] == "swiss"
    openings = [o["moves"] for o in swiss["openings"]]
    assert swiss["settings"]["rounds"] == 5 and swiss["byes"] == []      # an even number
    met = Counter()
    for r in range(1, 6):
        games = [g for g in swiss["games"] if g["round"] == r]
        pairs = {frozenset((g["first"], g["second"])) for g in games}
        assert len(pairs) == 5 and {n for p in pairs for n in p} == set(names)
        for p in pairs:                 # a match: both colours from every opening
            a, b = sorted(p)
            played = Counter((g["first"], g["second"], g["opening"]) for g in games
                             if {g["first"], g["second"]} == p)
            assert played == Counter({(x, y, o): 1 for x, y in ((a, b), (b, a))
                                      for o in openings})
        met.update(pairs)
    assert set(met.values()) == {1}                 # nobody met twice
    assert len(swiss["games"]) == 5 * 5 * 2 * 2


def test_an_odd_number_gives_each_bye_once_worth_a_drawn_match():
    data = T.run(GAME, entrants("ABCDEFGH"), 2, 2, schedule="swiss", rounds=4)
    names = [e["name"] for e in data["entrants"]]
    assert len(names) == 9
    byes = data["byes"]
    assert [b["round"] for b in byes] == [1, 2, 3, 4]
    assert len({b["name"] for b in byes}) == 4 and all(b["points"] == 2 for b in byes)
    for r in range(1, 5):
        playing = {n for g in data["games"] if g["round"] == r for n in (g["first"], g["second"])}
        assert playing == set(names) - {byes[r - 1]["name"]}
    for row in data["standings"]:
        assert row["points"] == row["W"] + row["D"] / 2 + row["byes"]
        assert row["byes"] == 2 * sum(b["name"] == row["name"] for b in byes)


def test_the_top_meets_the_top():
    # after round 1, the pairs are made in the order of the points: the leader meets the
    # best placed entrant it has not met
    points = [4, 0, 3, 1, 2, 2]
    pairs, bye = pairing.swiss_round(points, {frozenset((0, 2))}, set())
    assert bye is None
    assert pairs == [(0, 4), (2, 5), (3, 1)]
    # a choice that strands the last two (who met) is undone
    pairs, _ = pairing.swiss_round([3, 2, 1, 0], {frozenset((2, 3))}, set())
    assert pairs == [(0, 2), (1, 3)]
    # the bye: the lowest placed who has not had one
    pairs, bye = pairing.swiss_round([2, 1, 0], set(), {2})
    assert bye == 1 and pairs == [(0, 2)]
    # no pairing avoids a rematch: a rematch rather than nothing
    pairs, _ = pairing.swiss_round([1, 0], {frozenset((0, 1))}, set())
    assert pairs == [(0, 1)]


def test_two_swiss_runs_give_the_same_json_but_the_timing(swiss):
    again = T.run(GAME, entrants("ABCDEFGHI"), 2, 2, schedule="swiss", rounds=5)
    a, b = dict(swiss), again
    a.pop("timing"), b.pop("timing")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_the_standings_never_look_at_a_name(swiss):
    """The same entrants renamed in the reverse alphabetical order: every game and place the
    same (pairing, colours and ties go by points, head-to-head, rating and entry order)."""
    renamed = T.run(GAME, entrants("ZYXWVUTSR"), 2, 2, schedule="swiss", rounds=5)
    old = [e["name"] for e in swiss["entrants"]]
    new = [e["name"] for e in renamed["entrants"]]
    to_new = dict(zip(old, new))
    assert [(to_new[r["name"]], r["rank"], r["points"]) for r in swiss["standings"]] == \
        [(r["name"], r["rank"], r["points"]) for r in renamed["standings"]]
    assert [(to_new[g["first"]], to_new[g["second"]], g["moves"]) for g in swiss["games"]] == \
        [(g["first"], g["second"], g["moves"]) for g in renamed["games"]]
    ranks = defaultdict(list)
    for r in swiss["standings"]:
        ranks[(r["points"], r["head_to_head"], r["rating"])].append(r["rank"])
    assert all(len(set(v)) == 1 for v in ranks.values())     # level on all three: one place


def test_a_double_round_robin_up_to_a_class_swiss_beyond():
    assert pairing.ROUND_ROBIN_MAX == 45                      # 40 students and 5 bosses
    assert not T.check_schedule("auto", 45) and T.check_schedule("auto", 46)
    with pytest.raises(ValueError, match="Swiss"):
        T.check_schedule("round robin", 46)
    many = [T.entrant(GAME, f"S{i}:lines=1,open2={i % 7 - 3},center={i % 5}")
            for i in range(41)] + [T.boss(b) for b in ("beginner", "easy", "medium", "hard",
                                                          "expert")]
    data = T.run(GAME, many, 1, 1)
    assert data["settings"]["schedule"] == "swiss"
    assert data["settings"]["rounds"] == pairing.swiss_rounds(46) == 8
    assert len(data["games"]) == 8 * 23 * 2
    pairs = Counter(frozenset((g["first"], g["second"])) for g in data["games"])
    assert set(pairs.values()) == {2}                         # no rematch
    assert data["standings"][-1]["points"] < data["standings"][0]["points"]


@pytest.mark.parametrize("kwargs, words", [
    ({"schedule": "league"}, "schedule"),
    ({"schedule": "swiss", "rounds": 10}, "rounds"),
    ({"schedule": "round robin", "rounds": 2}, "Swiss"),
])
def test_bad_schedules_are_clear_errors(kwargs, words):
    with pytest.raises(ValueError, match=words):
        T.run(GAME, entrants("ABC"), 2, 1, **kwargs)


def test_the_command_line_runs_a_swiss_system():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "ai", "tournament", "tictactoe",
                        *[a for i, w in enumerate(WEIGHTS[:5]) for a in ("--entrant", f"E{i}:{w}")],
                        "--depth", "2", "--openings", "1", "--schedule", "swiss", "--rounds", "3",
                        "--json"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["settings"]["schedule"] == "swiss" and data["settings"]["rounds"] == 3
    assert len(data["byes"]) == 3 and {g["round"] for g in data["games"]} == {1, 2, 3}
    p = subprocess.run([sys.executable, "-m", "ai", "tournament", "tictactoe", "--entrant",
                        "A:lines=1", "--level", "easy", "--schedule", "swiss", "--rounds", "2"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "rounds" in p.stderr and "Traceback" not in p.stderr
