#!/usr/bin/env python3
"""Benchmark of the exact review of a whole Connect-4 game (``ai/teach/review.py``).

20 whole games of 20 to 42 plies: 10 from the levels' play (4 random moves, then ``hard``
against ``medium``, the first seeds whose game lasts 20 plies or more), 10 from random play (the first seeds whose random game lasts
20 plies or more). Each review starts **cold**: no table of solved positions, the solver's
transposition table emptied; the opening book loaded and the solver compiled beforehand (a
worker does that at start, ``ai.games.connect4.exact.analysis.warm_up``).

Per game: the time to the first ply's answer (the empty board's score), the whole review's
scores and classes (what the review page needs first: goal p95 <= 1 s for a 42-ply game),
and, separately, every erring move's kept move, refutation line and sentence (what
``python -m ai review`` adds; the page asks for them one move at a time). p50 / p95 / max.

Run from the repository root: ``python bench/bench_review.py`` (about 2 minutes on a quiet
machine); ``--games 6`` for a quick look; ``--json``. The load average is printed before and
after: the machine is shared.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.environ["MINIMAX_SOLVED_DB"] = "off"          # cold: no table of solved positions

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

from ai.games.connect4 import Connect4  # noqa: E402
from ai.games.connect4.exact import analysis, opening_book  # noqa: E402
from ai.games.connect4.exact.analysis import warm_up  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from ai.teach.review import Budget, explain, review  # noqa: E402


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))]


def level_game(seed: int, game: Connect4) -> list[int]:
    rng = random.Random(seed)
    s, moves = game.initial_state(), []
    while not game.is_terminal(s):
        if len(moves) < 4:
            m = rng.choice(game.actions(s))
        else:
            m = LEVELS["hard" if len(moves) % 2 else "medium"].play(game, s).move
        moves.append(m)
        s = game.result(s, m)
    return moves


def random_game(seed: int, game: Connect4) -> list[int]:
    rng = random.Random(seed)
    s, moves = game.initial_state(), []
    while not game.is_terminal(s):
        m = rng.choice(game.actions(s))
        moves.append(m)
        s = game.result(s, m)
    return moves


def games(n: int, game: Connect4) -> list[tuple[str, list[int]]]:
    out, seed = [], 0
    while len(out) < n // 2:                  # the levels' games of 20 plies or more
        moves = level_game(seed, game)
        if len(moves) >= 20:
            out.append(("levels", moves))
        seed += 1
    seed = 0
    while len(out) < n:
        moves = random_game(seed, game)
        if len(moves) >= 20:
            out.append(("random", moves))
        seed += 1
    return out


def cold() -> None:
    """Every idle solver's table emptied (the table of solved positions is off)."""
    for solver in analysis._idle:
        solver.reset()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    c4 = Connect4()
    opening_book.shared()
    warm_up()
    rows = []
    for kind, moves in games(args.games, c4):
        cold()
        t = time.perf_counter()
        r = review(c4, moves, time_limit=None, lines=False)
        scores = time.perf_counter() - t
        t = time.perf_counter()
        for item in r.items:
            explain(r, item, Budget(None, None))
        lines = time.perf_counter() - t
        rows.append({"kind": kind, "moves": c4.format_moves(moves), "plies": len(moves),
                     "first_ms": round(r.first_elapsed * 1000, 1),
                     "scores_ms": round(scores * 1000, 1), "lines_ms": round(lines * 1000, 1),
                     "score_nodes": r.score_nodes, "erring": len(r.erring()),
                     "complete": r.complete})
        print(f"{kind:6} {len(moves):2} plies  first {rows[-1]['first_ms']:7.1f} ms  scores "
              f"{rows[-1]['scores_ms']:7.1f} ms  lines {rows[-1]['lines_ms']:8.1f} ms  "
              f"({rows[-1]['erring']} erring moves)", file=sys.stderr)
    summary = {}
    for key in ("first_ms", "scores_ms", "lines_ms"):
        xs = [row[key] for row in rows]
        summary[key] = {"p50": percentile(xs, 50), "p95": percentile(xs, 95), "max": max(xs)}
    long_games = [row["scores_ms"] for row in rows if row["plies"] >= 40]
    summary["scores_ms_40_plus"] = ({"n": len(long_games), "p95": percentile(long_games, 95),
                                     "max": max(long_games)} if long_games else None)
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    if args.json:
        print(json.dumps({"games": rows, "summary": summary}))
    else:
        for key, v in summary.items():
            print(f"{key}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
