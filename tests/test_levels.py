"""The levels (``ai.levels``): a shared link shows the same reply whatever the server's load and
whatever the worker did before (issues 11 and 24), the perfect level keeps the exact value, and
the ladder climbs: on the same positions, each level worsens the exact outcome less often than
the one below.

The preset levels are decided by counts (depths and node budgets); their time budget only
keeps a request from pinning a worker, and stays out of the way on a server ten times slower
than this machine."""
import random
import time
from pathlib import Path

import pytest

from ai.course.game import play
from ai.games.connect4 import Connect4
from ai.games.connect4.exact import opening_book
from ai.games.connect4.exact.solver_fast import FastSolver
from ai.levels import DEFAULT_LEVEL, LEVELS

GAME = Connect4()
LADDER = ["beginner", "easy", "medium", "hard", "expert", "perfect"]
# Positions where the default level needs 30,000-42,000 nodes (most need 5,000-20,000).
HEAVY_POSITIONS = ["44744475", "144444", "4674451414", "44444"]


class SlowClock:
    """``time.perf_counter`` of a loaded server: 10 ms pass between two readings, whatever the
    real speed of the machine running the test (the fast loop reads it every 1,024 nodes: about
    100,000 nodes a second, a tenth of this machine's speed)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.010
        return self.now


def reply(level, state):
    r = LEVELS[level].play(GAME, state)
    return r.move, r.value, r.algorithm, r.stats.nodes, r.stats.depth


@pytest.mark.parametrize("level", ["medium", DEFAULT_LEVEL, "expert"])
@pytest.mark.parametrize("moves", HEAVY_POSITIONS)
def test_a_level_plays_the_same_move_on_a_loaded_server(monkeypatch, moves, level):
    state = play(GAME, GAME.parse_moves(moves))
    quiet = reply(level, state)
    monkeypatch.setattr(time, "perf_counter", SlowClock())
    assert reply(level, state) == quiet


def test_the_heavy_positions_test_the_search_and_the_solver():
    # the default level's search to its full depth, and the exact solver's proof within
    # its budget, are each checked on a loaded clock above
    kinds = {reply(DEFAULT_LEVEL, GAME.from_moves(m))[2::2] for m in HEAVY_POSITIONS}
    assert kinds == {("iterative", LEVELS[DEFAULT_LEVEL].depth), ("exact", 0)}


def test_only_the_perfect_level_depends_on_the_clock():
    # perfect only when its 3 s run out before the value is proven (then it plays hard's move)
    assert [name for name, lv in LEVELS.items() if not lv.load_independent] == ["perfect"]
    assert LEVELS[DEFAULT_LEVEL].load_independent


def game_positions(seeds, start_ply=6):
    """Positions of games between the easy and the default level from random openings."""
    out = []
    for seed in seeds:
        rng, state = random.Random(seed), GAME.initial_state()
        for _ in range(4):
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        sides = ("easy", DEFAULT_LEVEL) if seed % 2 else (DEFAULT_LEVEL, "easy")
        while not GAME.is_terminal(state):
            if state.moves >= start_ply:
                out.append(state)
            state = GAME.result(state, LEVELS[sides[GAME.to_move(state)]].play(GAME, state).move)
    return out


def test_every_level_gives_the_same_reply_in_any_order_and_after_any_other_work():
    """The same link, the same reply: the positions played in one order, then in the reverse
    order after the perfect level (whose solver keeps its table) has solved them all and on a
    loaded clock, give the same move, value and counts at every level."""
    states = game_positions(range(2))[::4]
    assert len(states) >= 8
    first = {(level, s): reply(level, s) for s in states for level in LADDER if level != "perfect"}
    for s in states:
        LEVELS["perfect"].play(GAME, s)
    for s in reversed(states):
        for level in reversed(LADDER[:-1]):
            assert reply(level, s) == first[level, s], (level, GAME.render(s))


class Referee:
    """The exact score of a move, from the compiled solver with the opening book (its own
    solver and table, so the levels' share nothing with it)."""

    def __init__(self):
        self.solver = FastSolver(7, 6, book=opening_book.shared())

    def score(self, state):
        return self.solver.solve_bitboard(state.current, state.mask, state.moves).score

    def after(self, state, move):
        """The score of ``move`` for the side that plays it (Pons' scale)."""
        child = GAME.result(state, move)
        if GAME.is_terminal(child):
            return (43 - state.moves) // 2 if child.over == 1 else 0
        return -self.score(child)


def sign(x):
    return (x > 0) - (x < 0)


@pytest.fixture(scope="module")
def referee():
    return Referee()


def test_the_perfect_level_never_changes_the_value(referee):
    states = game_positions(range(3, 5), start_ply=8)[::2]
    assert len(states) >= 10
    for s in states:
        r = LEVELS["perfect"].play(GAME, s, time_limit=None)    # its node budget only
        assert r.complete
        assert referee.after(s, r.move) == referee.score(s), GAME.render(s)


SAMPLE = Path(__file__).parent / "data" / "level-sample.txt"


@pytest.fixture(scope="module")
def blunder_positions():
    """The test's own positions (``tests/data/level-sample.txt``, from games of its own seeds:
    not the bench's) where the side to move can worsen the exact outcome, with every column's
    exact score (the solver and the opening book; its first line says how it was made)."""
    out = []
    for line in SAMPLE.read_text().splitlines():
        if line.startswith("#"):
            continue
        moves, score, *cols = line.split()
        out.append((GAME.from_moves(moves), int(score),
                    {c: int(v) for c, v in enumerate(cols) if v != "."}))
    return out


def test_the_sample_s_scores_are_the_solver_s(blunder_positions, referee):
    late = sorted(blunder_positions, key=lambda p: -p[0].moves)[:8]
    for s, score, cols in late:
        assert referee.score(s) == score
        assert {m: referee.after(s, m) for m in GAME.actions(s)} == cols
        assert score >= 0 and any(sign(v) < sign(score) for v in cols.values())


def test_the_ladder_climbs_on_a_fixed_sample(blunder_positions):
    """Blunders (a won position to a draw or a loss, a drawn one to a loss) on the same
    positions: fewer at each level up, none at perfect. The levels decide by counts, so these
    numbers are the same on every machine."""
    assert len(blunder_positions) == 120
    def move(level, s):      # perfect within its node budget only, not its 3 s
        return LEVELS[level].play(GAME, s, **({"time_limit": None} if level == "perfect"
                                               else {})).move
    blunders = {level: sum(sign(cols[move(level, s)]) < sign(score)
                           for s, score, cols in blunder_positions)
                for level in LADDER}
    counts = [blunders[level] for level in LADDER]
    assert counts == sorted(counts, reverse=True), blunders
    assert blunders["beginner"] > blunders["medium"] > blunders["expert"] > 0, blunders
    assert blunders["hard"] > blunders["expert"] > blunders["perfect"] == 0, blunders
