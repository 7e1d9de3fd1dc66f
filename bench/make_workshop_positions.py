#!/usr/bin/env python3
"""Make the heuristic workshop's positions (``ai/games/connect4/data/workshop-positions.txt``):
positions of real games between the app's levels, where the side to move can blunder (its
position is not lost and some column worsens the exact outcome), one early (plies 4-12), one
middle (13-26) and one late (27 and up) from each game where there is one, with every column's
exact score (the solver with the opening book), so that an accuracy is judged at once.

Kept apart from the levels' tuning set (``bench/data/level-positions.txt``, seeds 10000 and
up) and the tests' sample (``tests/data/level-sample.txt``, seeds 20000 and up): these games
start from seeds 30000 and up, and a position found in either file is left out.

    .venv/bin/python bench/make_workshop_positions.py            # 240 positions (~2 min)
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")

from ai.games.connect4.exact import analysis  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from bench_levels import game_start  # noqa: E402  (the same games' starts as the ladder's)

GAME = Connect4()
OUT = os.path.join(ROOT, "ai", "games", "connect4", "data", "workshop-positions.txt")
KEPT_APART = [os.path.join(ROOT, "bench", "data", "level-positions.txt"),
              os.path.join(ROOT, "tests", "data", "level-sample.txt")]
PHASES = ((4, 12), (13, 26), (27, 42))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def known() -> set[str]:
    out = set()
    for path in KEPT_APART:
        with open(path) as f:
            out.update(line.split()[0] for line in f if line.strip() and not line.startswith("#"))
    return out


def make(count: int, first_seed: int) -> None:
    t0, avoid, lines, i = time.perf_counter(), known(), [], 0
    while len(lines) < count:
        rng, state, moves, sides = game_start(first_seed + i)
        i += 1
        found: dict[int, list[str]] = {k: [] for k in range(len(PHASES))}
        while not GAME.is_terminal(state):
            text = GAME.format_moves(moves)
            a = analysis.analyse_position(state.current, state.mask, state.moves, store=None,
                                          time_limit=None)
            cols = [None if x is None else x.score for x in a.columns]
            if text not in avoid and a.score >= 0 and any(
                    x is not None and sign(x) < sign(a.score) for x in cols):
                phase = next(k for k, (lo, hi) in enumerate(PHASES) if lo <= state.moves <= hi)
                found[phase].append(f"{text} {a.score} "
                                    + " ".join("." if x is None else str(x) for x in cols))
            m = LEVELS[sides[GAME.to_move(state)]].play(GAME, state).move
            moves.append(m)
            state = GAME.result(state, m)
        for phase in found.values():
            if phase and len(lines) < count:
                lines.append(rng.choice(phase))
    head = (f"# {count} positions where a blunder is possible, one early (plies 4-12), middle "
            f"(13-26) and late (27+) from each of {i} games between the levels (seeds "
            f"{first_seed}-{first_seed + i - 1}): MOVES SCORE S1..S7 (Pons' scores, side to "
            "move; bench/make_workshop_positions.py)")
    with open(OUT, "w") as f:
        f.write("\n".join([head] + lines) + "\n")
    print(f"{len(lines)} positions from {i} games in {OUT} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=240)
    p.add_argument("--first-seed", type=int, default=30_000)
    args = p.parse_args()
    make(args.count, args.first_seed)
