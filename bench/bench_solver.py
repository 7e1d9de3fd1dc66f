#!/usr/bin/env python3
"""Benchmark of the exact Connect-4 solver (``ai/games/connect4/exact/solver.py``) on Pascal Pons' test sets.

Every line ``MOVES SCORE`` of each chosen set is solved from scratch (transposition table
reset before each position, as in Pons' reference times), its score checked against the
published one, and the time measured around ``Solver.solve(moves)``, parsing included: wall
clock (``time.perf_counter``, what the targets judge) and CPU time. The table gives, per set:
positions, mismatches, mean and 95th-percentile time, mean CPU time, mean nodes, nodes per
second, Pons' C++ reference (mean time and nodes, from his tutorial's benchmark), the ratio
ours / C++, the target mean time and whether it is met.

Last, it checks that a time budget stops a solve promptly (wall clock, under 1 s for budgets
of 0.1-0.2 s, from positions that would take hours), as a web request relies on.

Run from the repository root:  ``python bench/bench_solver.py`` (all 3 x 1000 positions, about
two minutes), ``--sets L2_R1 --limit 100`` for a quick look, ``--json`` for one JSON document.
Exit status: 1 if any score differs from the published one, 2 on a usage error, 0 otherwise
(a missed time target only shows as FAIL in the table, unless ``--check-targets``: then 3).
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402

from ai.games.connect4.exact.solver import Solver  # noqa: E402

DATA_DIR = os.path.join(ROOT, "bench", "data")

#: Pons' C++ solver, no opening book, table reset per position: mean seconds and nodes.
REFERENCE = {
    "L3_R1": (11e-6, 51),
    "L2_R1": (70e-6, 450),
    "L2_R2": (6.9e-3, 40_000),
    "L1_R1": (0.46e-3, 3_300),
    "L1_R2": (0.22, 1_200_000),
    "L1_R3": (11.0, 58_000_000),
}

#: Targets for this Python solver: mean seconds per position.
TARGET = {"L3_R1": 0.5e-3, "L2_R1": 3e-3, "L2_R2": 150e-3}

DEFAULT_SETS = ("L3_R1", "L2_R1", "L2_R2")


def load(name: str, data_dir: str, limit: int | None) -> list[tuple[str, int]]:
    path = os.path.join(data_dir, f"Test_{name}")
    with open(path, encoding="ascii") as f:
        rows = [line.split() for line in f if line.strip()]
    out = [(moves, int(score)) for moves, score in rows]
    return out if limit is None else out[:limit]


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return math.nan
    k = max(0, math.ceil(q / 100 * len(sorted_values)) - 1)
    return sorted_values[k]


def run_set(name: str, positions: list[tuple[str, int]], progress: bool) -> dict:
    solver = Solver(7, 6)
    times, nodes, mismatches = [], 0, []
    cpu = 0.0
    for i, (moves, expected) in enumerate(positions, 1):
        solver.reset()
        c0 = time.process_time()
        t0 = time.perf_counter()
        r = solver.solve(moves)
        dt = time.perf_counter() - t0
        cpu += time.process_time() - c0
        times.append(dt)
        nodes += r.nodes
        if r.score != expected or not r.complete:
            mismatches.append({"moves": moves, "expected": expected, "got": r.score})
        if progress and i % 100 == 0:
            print(f"  {name}: {i}/{len(positions)}", file=sys.stderr, flush=True)
    n = len(positions)
    total = sum(times)
    mean = total / n if n else math.nan
    ref_time, ref_nodes = REFERENCE.get(name, (None, None))
    target = TARGET.get(name)
    return {
        "set": name,
        "positions": n,
        "mismatches": len(mismatches),
        "mismatch_examples": mismatches[:5],
        "mean_ms": mean * 1e3,
        "cpu_mean_ms": cpu / n * 1e3 if n else math.nan,
        "p95_ms": percentile(sorted(times), 95) * 1e3,
        "max_ms": max(times) * 1e3 if times else math.nan,
        "mean_nodes": nodes / n if n else math.nan,
        "nodes_per_s": nodes / total if total else math.nan,
        "cpp_mean_ms": None if ref_time is None else ref_time * 1e3,
        "cpp_nodes": ref_nodes,
        "ratio": None if ref_time is None else mean / ref_time,
        "target_ms": None if target is None else target * 1e3,
        "pass": None if target is None else mean <= target,
    }


def fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "-"
    if ms < 1:
        return f"{ms * 1000:.0f} µs"
    if ms < 1000:
        return f"{ms:.3g} ms" if ms < 100 else f"{ms:.0f} ms"
    return f"{ms / 1000:.3g} s"


def fmt_count(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 1e6:
        return f"{x / 1e6:.3g}M"
    if x >= 1e4:
        return f"{x / 1e3:.3g}k"
    return f"{x:.0f}"


def table(rows: list[dict]) -> str:
    head = ["set", "positions", "mismatches", "mean", "p95", "CPU mean", "mean nodes", "nodes/s",
            "C++ mean", "C++ nodes", "ours/C++", "target", "result"]
    body = []
    for r in rows:
        body.append([
            r["set"], str(r["positions"]), str(r["mismatches"]), fmt_ms(r["mean_ms"]),
            fmt_ms(r["p95_ms"]), fmt_ms(r["cpu_mean_ms"]), fmt_count(r["mean_nodes"]),
            fmt_count(r["nodes_per_s"]),
            fmt_ms(r["cpp_mean_ms"]), fmt_count(r["cpp_nodes"]),
            "-" if r["ratio"] is None else f"{r['ratio']:.0f}x",
            "-" if r["target_ms"] is None else "<= " + fmt_ms(r["target_ms"]),
            "-" if r["pass"] is None else ("pass" if r["pass"] else "FAIL"),
        ])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    line = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(b) for b in body])


# A time budget stops a solve within about a clock reading of it (every CHECK_EVERY nodes):
# (label, moves, width, height, time budget in s), each checked against BUDGET_BOUND seconds.
BUDGETS = [("empty 7x6", "", 7, 6, 0.2), ("9x9 after 5", "5", 9, 9, 0.1)]
BUDGET_BOUND = 1.0


def budgets() -> list[dict]:
    """Wall time of solves that their time budget must stop (what a web request relies on)."""
    rows = []
    for label, moves, w, h, limit in BUDGETS:
        t0 = time.perf_counter()
        r = Solver(w, h).solve(moves, time_limit=limit)
        spent = time.perf_counter() - t0
        rows.append({"position": label, "time_limit_s": limit, "seconds": spent,
                     "complete": r.complete, "pass": not r.complete and spent < BUDGET_BOUND})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python bench/bench_solver.py",
        description="Solve Pascal Pons' Connect-4 test positions with ai.games.connect4.exact.solver, check every "
                    "score against the published one and compare the times with his C++ "
                    "solver and with this project's targets. Table reset before each position.",
        epilog="Exit status: 0 all scores right; 1 a score is wrong (or a search incomplete); "
               "2 a usage error; 3 with --check-targets, a mean time missed its target.")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS),
                        help="comma-separated test sets among " + ", ".join(REFERENCE)
                             + " (default: %(default)s; the L1 sets need --data-dir pointing "
                               "at a folder that has them, and are slow)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="solve only the first N positions of each set (default: all 1000)")
    parser.add_argument("--data-dir", default=DATA_DIR,
                        help="folder holding the Test_<SET> files (default: bench/data)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document instead of the table")
    parser.add_argument("--check-targets", action="store_true",
                        help="exit with status 3 if a set's mean time misses its target")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)

    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in names if s not in REFERENCE]
    if unknown or not names:
        parser.error(f"unknown set(s) {', '.join(unknown) or '(none given)'}; "
                     f"choose among {', '.join(REFERENCE)}")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")

    rows = []
    for name in names:
        try:
            positions = load(name, args.data_dir, args.limit)
        except FileNotFoundError:
            parser.error(f"no file Test_{name} in {args.data_dir}")
        rows.append(run_set(name, positions, progress=not (args.quiet or args.json)))

    mismatches = sum(r["mismatches"] for r in rows)
    missed = [r["set"] for r in rows if r["pass"] is False]
    stops = budgets()
    missed += [f"time budget ({s['position']})" for s in stops if not s["pass"]]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "cpus": os.cpu_count(), "sets": rows, "budgets": stops}, indent=2))
    else:
        loadavg = f", load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
        print(f"ai.games.connect4.exact.solver on Pons' test sets (Python {platform.python_version()}, "
              f"{os.cpu_count()} CPUs{loadavg}; table reset before each position)")
        print("mean, p95: wall clock per position (what the targets judge); CPU mean: process "
              "time, less sensitive to other programs sharing the machine")
        print(table(rows))
        for r in rows:
            for m in r["mismatch_examples"]:
                print(f"MISMATCH {r['set']}: {m['moves']} expected {m['expected']} got {m['got']}")
        for s in stops:
            print(f"time budget {s['time_limit_s']:g} s, {s['position']}: stopped after "
                  f"{s['seconds']:.2f} s (bound {BUDGET_BOUND:g} s): "
                  + ("pass" if s["pass"] else "FAIL"))
        print(f"{mismatches} mismatch(es)"
              + (f"; target missed: {', '.join(missed)}" if missed else ""))
    if mismatches:
        return 1
    if args.check_targets and missed:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
