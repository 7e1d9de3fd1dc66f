#!/usr/bin/env python3
"""The ladder of levels, refereed by the exact solver.

For each level from beginner to expert: ``--games`` games against the perfect level from
random 4-ply openings (``random.Random(i)``; the level takes the first player in even games,
the second in odd ones). Before and after each of the level's moves the referee (the compiled
solver with the book, ``ai.solver_fast``) gives the exact score; a move is a **blunder** when
it worsens the outcome (a won position to a draw or a loss, a drawn one to a loss), and
**worse** when it lowers Pons' score at all (a slower win, a quicker loss). Then each level
against the one above it (``--games`` games each way round, same openings): wins, draws and
losses of the stronger. Last, the reply times of the perfect level and the default level
over all those games (p50 / p95 / max; the perfect level's goal: p95 <= 300 ms).

Run from the repository root: ``python bench/bench_levels.py`` (expert thinks up to 1 s a move:
about 15 minutes at 20 games); ``--games 4`` for a quick look. The machine's load average is
printed: expert's moves, and so its strength, depend on it.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "bench")):
    if p not in sys.path:
        sys.path.insert(0, p)

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")   # every perfect reply searched, cold

from ai import opening_book  # noqa: E402
from ai.connect4 import Connect4  # noqa: E402
from ai.levels import DEFAULT_LEVEL, LEVELS  # noqa: E402
from ai.solver_fast import FastSolver  # noqa: E402
from bench_solver import fmt_ms, percentile  # noqa: E402

LADDER = ["beginner", "easy", "medium", "hard", "expert"]
GAME = Connect4()
_times: dict[str, list[float]] = {}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


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
    args = ap.parse_args(argv)
    load_before = os.getloadavg()
    referee = FastSolver(7, 6, book=opening_book.shared())
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)} "
          f"({os.cpu_count()} CPUs); {args.games} games per pairing\n")
    print("| level | its moves | blunders (outcome worsened) | worse score | vs perfect W-D-L | "
          "first blunder, median ply |")
    print("|---|---|---|---|---|---|")
    for level in LADDER:
        moves = blunders = worse = 0
        wdl = [0, 0, 0]
        first_blunders = []
        for i in range(args.games):
            level_first = i % 2 == 0
            u, seen = play_game(i, *((level, "perfect") if level_first else ("perfect", level)),
                                referee=referee, watch=level)
            u = u if level_first else -u
            wdl[1 - u] += 1
            moves += len(seen)
            b = [ply for ply, before, after in seen if sign(after) < sign(before)]
            blunders += len(b)
            worse += sum(after < before for _, before, after in seen)
            if b:
                first_blunders.append(b[0])
        first = statistics.median(first_blunders) if first_blunders else "-"
        print(f"| {level} | {moves} | {blunders / moves:.1%} | {worse / moves:.1%} | "
              f"{wdl[0]}-{wdl[1]}-{wdl[2]} | {first} |", flush=True)
    print("\n| stronger vs weaker | games | W-D-L of the stronger |")
    print("|---|---|---|")
    for weak, strong in zip(LADDER, LADDER[1:]):
        wdl = [0, 0, 0]
        for i in range(args.games):
            for strong_first in (True, False):
                u, _ = play_game(i, *((strong, weak) if strong_first else (weak, strong)))
                u = u if strong_first else -u
                wdl[1 - u] += 1
        print(f"| {strong} vs {weak} | {sum(wdl)} | {wdl[0]}-{wdl[1]}-{wdl[2]} |", flush=True)
    print("\nreply time over these games:")
    for level in ("perfect", DEFAULT_LEVEL):
        t = sorted(_times.get(level, []))
        print(f"- {level}: {len(t)} moves, p50 {fmt_ms(statistics.median(t) * 1e3)}, "
              f"p95 {fmt_ms(percentile(t, 95) * 1e3)}, max {fmt_ms(t[-1] * 1e3)}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
