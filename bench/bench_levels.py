#!/usr/bin/env python3
"""The ladder of levels, refereed by the exact solver.

First, **the same positions for every level** (``--positions``, paired): positions from games
between the levels ``easy``, ``medium`` and ``hard`` (random 4-ply openings,
``random.Random(10_000 + i)``, the two sides drawn from the same generator), kept when the
side to move can blunder: its position is not lost and some move would worsen the exact
outcome. Every column's exact score comes from ``ai.games.connect4.analysis``. Each level then plays each of
these positions: its blunder rate (with a 95% Wilson interval), and against the level below,
the positions where only one of the two blunders (a McNemar test: the two-sided binomial
p-value of that split). The same positions for all, so the comparison does not depend on which
positions a level's own play leads to.

Then, for each level from beginner to expert: ``--games`` games against the perfect level from
random 4-ply openings (``random.Random(i)``; the level takes the first player in even games,
the second in odd ones). Before and after each of the level's moves the referee (the compiled
solver with the book, ``ai.games.connect4.solver_fast``) gives the exact score; a move is a **blunder** when
it worsens the outcome (a won position to a draw or a loss, a drawn one to a loss), and
**worse** when it lowers Pons' score at all (a slower win, a quicker loss). Then each level
against the one above it (``--games`` games each way round, same openings): wins, draws and
losses of the stronger. Last, the reply times of the perfect level and the default level
over all those games (p50 / p95 / max; the perfect level's goal: p95 <= 300 ms).

Run from the repository root: ``python bench/bench_levels.py`` (``--parts`` to choose among
``positions,perfect,pairs``; ``--games 4 --positions 50`` for a quick look). The machine's load
average is printed: expert's moves, and so its strength, depend on it.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "bench")):
    if p not in sys.path:
        sys.path.insert(0, p)

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")   # every perfect reply searched, cold

from ai import analysis, opening_book  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from ai.games.connect4.solver_fast import FastSolver  # noqa: E402
from bench_solver import fmt_ms, percentile  # noqa: E402

LADDER = ["beginner", "easy", "medium", "hard", "expert"]
GAME = Connect4()
_times: dict[str, list[float]] = {}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def binomial_p(a: int, b: int) -> float:
    """Two-sided p-value of a split a / b of a + b fair coin tosses (sign test, McNemar)."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def test_positions(count: int):
    """``count`` positions where the side to move can blunder, with every column's exact
    score: [(state, position's score, {column: score})]."""
    out, i = [], 0
    rng_levels = ("easy", "medium", "hard")
    while len(out) < count:
        seed = 10_000 + i
        i += 1
        rng, state = random.Random(seed), opening(seed)
        sides = (rng.choice(rng_levels), rng.choice(rng_levels))
        while not GAME.is_terminal(state) and len(out) < count:
            a = analysis.analyse_position(state.current, state.mask, state.moves, store=None,
                                          time_limit=60.0)
            assert a.complete
            scores = {c: x.score for c, x in enumerate(a.columns) if x is not None}
            if a.score >= 0 and any(sign(v) < sign(a.score) for v in scores.values()):
                out.append((state, a.score, scores))
            state = GAME.result(state, LEVELS[sides[GAME.to_move(state)]].play(GAME, state).move)
    return out


def paired(levels, count: int) -> None:
    t0 = time.perf_counter()
    positions = test_positions(count)
    plies = sorted(s.moves for s, _, _ in positions)
    print(f"{len(positions)} positions where a blunder is possible (plies {plies[0]}-{plies[-1]},"
          f" median {statistics.median(plies)}), found in {time.perf_counter() - t0:.0f} s\n")
    print("| level | blunders | rate | 95% interval | worse score | "
          "vs the level below: only it blunders / only the lower one | p (McNemar) |")
    print("|---|---|---|---|---|---|---|")
    previous = None
    for level in levels:
        blunder, worse = [], 0
        for state, score, scores in positions:
            s = scores[move(level, state)]
            blunder.append(sign(s) < sign(score))
            worse += s < score
        k, n = sum(blunder), len(blunder)
        lo, hi = wilson(k, n)
        cmp = p = ""
        if previous is not None:
            only_me = sum(b and not a for a, b in zip(previous, blunder))
            only_below = sum(a and not b for a, b in zip(previous, blunder))
            cmp, p = f"{only_me} / {only_below}", f"{binomial_p(only_me, only_below):.2g}"
        print(f"| {level} | {k} of {n} | {k / n:.1%} | {lo:.1%}-{hi:.1%} | {worse / n:.1%} | "
              f"{cmp} | {p} |", flush=True)
        previous = blunder


def opening(i: int):
    rng = random.Random(i)
    state = GAME.initial_state()
    for _ in range(4):
        state = GAME.result(state, rng.choice(GAME.actions(state)))
    return state


def move(level: str, state):
    t0 = time.perf_counter()
    r = LEVELS[level].play(GAME, state)
    _times.setdefault(level, []).append(time.perf_counter() - t0)
    return r.move


def play_game(i: int, first: str, second: str, referee=None, watch: str | None = None):
    """One game; returns (utility for ``first``, [(ply, before, after)] of ``watch``'s moves)."""
    state = opening(i)
    seen = []
    while not GAME.is_terminal(state):
        level = first if GAME.to_move(state) == 0 else second
        m = move(level, state)
        after = GAME.result(state, m)
        if referee is not None and level == watch:
            before = referee.solve_bitboard(state.current, state.mask, state.moves).score
            if GAME.is_terminal(after):
                now = (42 + 1 - state.moves) // 2 if after.over == 1 else 0
            else:
                now = -referee.solve_bitboard(after.current, after.mask, after.moves).score
            seen.append((state.moves, before, now))
        state = after
    return GAME.utility(state, 0), seen


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_levels.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    ap.add_argument("--positions", type=int, default=300,
                    help="positions of the paired table (default 300)")
    ap.add_argument("--parts", default="positions,perfect,pairs",
                    help="which tables, comma-separated (default: %(default)s)")
    ap.add_argument("--levels", default=",".join(LADDER),
                    help="which levels, comma-separated (default: %(default)s)")
    args = ap.parse_args(argv)
    parts = set(args.parts.split(","))
    ladder = args.levels.split(",")
    load_before = os.getloadavg()
    referee = FastSolver(7, 6, book=opening_book.shared())
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)} "
          f"({os.cpu_count()} CPUs); {args.games} games per pairing\n")
    if "positions" in parts:
        paired(ladder, args.positions)
        print()
    if "perfect" in parts:
        vs_perfect(ladder, args.games, referee)
    if "pairs" in parts:
        pairs(ladder, args.games)
    print("\nreply time over these games:")
    for level in ("perfect", *ladder):
        t = sorted(_times.get(level, []))
        if t:
            print(f"- {level}: {len(t)} moves, p50 {fmt_ms(statistics.median(t) * 1e3)}, "
                  f"p95 {fmt_ms(percentile(t, 95) * 1e3)}, max {fmt_ms(t[-1] * 1e3)}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def vs_perfect(ladder, games: int, referee) -> None:
    print("| level | its moves | blunders (outcome worsened) | per move from a position not lost "
          "| worse score | vs perfect W-D-L | first blunder, median ply |")
    print("|---|---|---|---|---|---|---|")
    for level in ladder:
        moves = blunders = worse = not_lost = 0
        wdl = [0, 0, 0]
        first_blunders = []
        for i in range(games):
            level_first = i % 2 == 0
            u, seen = play_game(i, *((level, "perfect") if level_first else ("perfect", level)),
                                referee=referee, watch=level)
            u = u if level_first else -u
            wdl[1 - u] += 1
            moves += len(seen)
            b = [ply for ply, before, after in seen if sign(after) < sign(before)]
            blunders += len(b)
            worse += sum(after < before for _, before, after in seen)
            not_lost += sum(before >= 0 for _, before, _ in seen)
            if b:
                first_blunders.append(b[0])
        first = statistics.median(first_blunders) if first_blunders else "-"
        print(f"| {level} | {moves} | {blunders / moves:.1%} | "
              f"{blunders / max(1, not_lost):.1%} of {not_lost} | {worse / moves:.1%} | "
              f"{wdl[0]}-{wdl[1]}-{wdl[2]} | {first} |", flush=True)


def pairs(ladder, games: int) -> None:
    print("\n| stronger vs weaker | games | W-D-L of the stronger | p (sign test on the "
          "decisive games) |")
    print("|---|---|---|---|")
    for weak, strong in zip(ladder, ladder[1:]):
        wdl = [0, 0, 0]
        for i in range(games):
            for strong_first in (True, False):
                u, _ = play_game(i, *((strong, weak) if strong_first else (weak, strong)))
                u = u if strong_first else -u
                wdl[1 - u] += 1
        print(f"| {strong} vs {weak} | {sum(wdl)} | {wdl[0]}-{wdl[1]}-{wdl[2]} | "
              f"{binomial_p(wdl[0], wdl[2]):.2g} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
