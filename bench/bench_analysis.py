#!/usr/bin/env python3
"""Benchmark of the exact analysis (``ai/games/connect4/analysis.py``: every column's score, the best first) and
of the compiled solver (``ai/games/connect4/solver_fast.py``) beside Pascal Pons' C++ solver.

1. **Analysis by ply.** Positions from whole games: an opening of 4 random moves
   (``random.Random(i)``), then the ``hard`` level against the ``medium`` level; the position at
   each ply of 0, 4, 8, 12, 13, 14, 16 and 20, 20 games (ply 0: the empty board, 20 times).
   Each analysis starts cold: no table of solved positions, the solver's table emptied. For
   each ply: the time until the best move is known and until every column is, p50 / p95 /
   max (goal: all columns p95 <= 1 s, max <= 3 s).
2. **Pons' sets** L2_R2 (middle, medium) and L1_R2 (beginning, medium): every position solved
   (score only, as his benchmark) with the table reset before each and no book, each score
   checked against the published one; per position the median of ``--repeats`` runs; the mean
   beside his C++ solver's mean on a machine like this one (``../shared/connect4-testsets``),
   as a ratio. L1_R2 is also given with the book.
3. **Compile time**: the first call in a fresh process with an empty numba cache, and with the
   cache filled (what a worker pays at start: ``ai.games.connect4.solver_fast.warm_up``); the book's load
   time and size; the size the new dependencies add to the install.

The machine has 2 cores shared with other work: the load average is printed before and after.
Run from the repository root: ``python bench/bench_analysis.py`` (about 15 minutes, most of it
L1_R2 without the book); ``--games 5 --limit 100`` for a quick look; ``--parts plies`` for the
first table only; ``--json``.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "bench")):
    if p not in sys.path:
        sys.path.insert(0, p)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from ai import analysis, opening_book  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.course.game import play  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from ai.games.connect4.solver_fast import FastSolver  # noqa: E402
from bench_solver import REFERENCE, fmt_ms, load, percentile  # noqa: E402

PLIES = (0, 4, 8, 12, 13, 14, 16, 20)
DATA_DIR = os.path.join(ROOT, "bench", "data")
PACKAGES = ("numba", "llvmlite", "numpy", "numpy.libs", "bitbully_databases")


def game_positions(games: int, plies=PLIES) -> dict[int, list[str]]:
    """The position at each ply of ``games`` games: 4 random moves, then hard against medium."""
    out: dict[int, list[str]] = {p: [] for p in plies}
    c4 = Connect4()
    for i in range(games):
        rng = random.Random(i)
        moves = ""
        while len(moves) < max(plies):
            state = play(c4, c4.parse_moves(moves))
            if c4.is_terminal(state):
                break
            if len(moves) < 4:
                move = rng.choice(list(c4.actions(state)))
            else:
                level = LEVELS["hard" if len(moves) % 2 == 0 else "medium"]
                move = level.play(c4, state).move
            moves += c4.format_move(move)
        for p in plies:
            if len(moves) >= p and not c4.is_terminal(play(c4, c4.parse_moves(moves[:p]))):
                out[p].append(moves[:p])
    return out


def analysis_by_ply(positions: dict[int, list[str]]) -> list[dict]:
    rows = []
    for ply, moves_list in positions.items():
        best, full, nodes = [], [], []
        for moves in moves_list:
            s = analysis._borrow(7, 6, True)
            s.reset()
            analysis._give_back(s, True)
            a = analysis.analyse(moves, store=None, time_limit=30.0)
            assert a.complete, moves
            best.append(a.best_elapsed)
            full.append(a.elapsed)
            nodes.append(a.nodes)
        best.sort()
        full.sort()
        rows.append({"ply": ply, "positions": len(moves_list),
                     "best_p50_ms": statistics.median(best) * 1e3,
                     "best_p95_ms": percentile(best, 95) * 1e3,
                     "best_max_ms": best[-1] * 1e3,
                     "all_p50_ms": statistics.median(full) * 1e3,
                     "all_p95_ms": percentile(full, 95) * 1e3,
                     "all_max_ms": full[-1] * 1e3,
                     "nodes_p50": statistics.median(nodes),
                     "pass": percentile(full, 95) <= 1.0 and full[-1] <= 3.0})
    return rows


def pons_set(name: str, limit: int | None, repeats: int, book) -> dict:
    solver = FastSolver(7, 6, book=book)
    times, nodes, wrong = [], 0, 0
    for moves, expected in load(name, DATA_DIR, limit):
        runs = []
        for _ in range(repeats):
            solver.reset()
            t0 = time.perf_counter()
            r = solver.solve(moves)
            runs.append(time.perf_counter() - t0)
        times.append(statistics.median(runs))
        nodes += r.nodes
        wrong += r.score != expected
    mean = sum(times) / len(times)
    cpp = REFERENCE[name][0]
    return {"set": name + (" + book" if book is not None else ""), "positions": len(times),
            "mismatches": wrong, "mean_ms": mean * 1e3,
            "p95_ms": percentile(sorted(times), 95) * 1e3, "max_ms": max(times) * 1e3,
            "mean_nodes": nodes / len(times), "nodes_per_s": nodes / sum(times),
            "cpp_mean_ms": cpp * 1e3, "cpp_nodes": REFERENCE[name][1], "ratio": mean / cpp}


def compile_times() -> dict:
    """Seconds for ``warm_up()`` in fresh processes: empty cache, then the cache it filled."""
    code = "import time; t=time.perf_counter(); from ai.games.connect4.solver_fast import warm_up; " \
           "w=warm_up(); print(time.perf_counter()-t)"
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold", "cached"):
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               cwd=ROOT, env=env, timeout=600)
            out[label] = float(r.stdout.strip())
    return out


def install_sizes() -> dict:
    import numpy
    site = os.path.dirname(os.path.dirname(numpy.__file__))
    sizes = {}
    for name in PACKAGES:
        path = os.path.join(site, name)
        total = 0
        for base, _, files in os.walk(path):
            total += sum(os.path.getsize(os.path.join(base, f)) for f in files)
        sizes[name] = total
    return sizes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_analysis.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="positions per ply (default 20)")
    ap.add_argument("--limit", type=int, default=None, help="first N positions of each Pons set")
    ap.add_argument("--repeats", type=int, default=3, help="runs per Pons position (median)")
    ap.add_argument("--parts", default="plies,pons,compile",
                    help="which parts to run, comma-separated (default: %(default)s)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    parts = set(args.parts.split(","))
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    book = opening_book.load()
    book_load = time.perf_counter() - t0
    analysis.analyse("4", store=None, max_nodes=1000)         # compile/load before timing
    result = {"load_before": load_before, "book_load_ms": book_load * 1e3,
              "book_mb": book.nbytes / 1e6}
    result["by_ply"] = analysis_by_ply(game_positions(args.games)) if "plies" in parts else []
    result["pons"] = [pons_set("L2_R2", args.limit, args.repeats, None),
                      pons_set("L1_R2", args.limit, 1, None),
                      pons_set("L1_R2", args.limit, args.repeats, book)] if "pons" in parts else []
    result["compile_s"] = compile_times() if "compile" in parts else None
    result["install_bytes"] = install_sizes() if "compile" in parts else None
    result["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}; "
          f"after: {' '.join(f'{x:.2f}' for x in result['load_after'])} ({os.cpu_count()} CPUs)")
    print(f"book: {len(book):,} positions, {book.nbytes / 1e6:.0f} MB in memory, "
          f"loaded in {book_load * 1e3:.0f} ms")
    print("\nanalysis of every column, cold (no stored positions, solver table emptied), "
          "by ply:")
    print("| ply | positions | best move p50 | p95 | max | all columns p50 | p95 | max | "
          "goal p95 <= 1 s, max <= 3 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in result["by_ply"]:
        print(f"| {r['ply']} | {r['positions']} | {fmt_ms(r['best_p50_ms'])} | "
              f"{fmt_ms(r['best_p95_ms'])} | {fmt_ms(r['best_max_ms'])} | "
              f"{fmt_ms(r['all_p50_ms'])} | {fmt_ms(r['all_p95_ms'])} | "
              f"{fmt_ms(r['all_max_ms'])} | {'met' if r['pass'] else 'NOT met'} |")
    print("\nPons' sets, table reset per position, score only (median of runs per position):")
    print("| set | positions | wrong | mean | p95 | max | mean nodes | nodes/s | C++ mean | "
          "ours / C++ |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in result["pons"]:
        print(f"| {r['set']} | {r['positions']} | {r['mismatches']} | {fmt_ms(r['mean_ms'])} | "
              f"{fmt_ms(r['p95_ms'])} | {fmt_ms(r['max_ms'])} | {r['mean_nodes']:,.0f} | "
              f"{r['nodes_per_s'] / 1e6:.2f}M | {fmt_ms(r['cpp_mean_ms'])} | "
              f"{r['ratio']:.2f}x |")
    c = result["compile_s"]
    if c:
        print(f"\nfirst call in a fresh process (import + warm_up): {c['cold']:.1f} s with an "
              f"empty numba cache, {c['cached']:.2f} s with the cache filled")
        sizes = result["install_bytes"]
        print("install size added: " + ", ".join(f"{k} {v / 1e6:.0f} MB"
                                                for k, v in sizes.items())
              + f"; total {sum(sizes.values()) / 1e6:.0f} MB")
    return 1 if any(r["mismatches"] for r in result["pons"]) else 0


if __name__ == "__main__":
    sys.exit(main())
