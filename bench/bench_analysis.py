#!/usr/bin/env python3
"""Benchmark of the exact analysis (``ai/games/connect4/exact/analysis.py``: every column's score,
the best first) beside BitBully (Markus Thill's C++ solver, ``BitBullyCore.scoreMoves``) with
the same 12-ply opening book, and of the compiled solver (``ai/games/connect4/exact/solver_fast.py``)
beside Pascal Pons' C++ solver.

1. **Analysis by ply, beside BitBully** (``--parts plies``). Positions from whole games
   (``game_positions``: 4 random moves, ``random.Random(i)``, then the ``hard`` level against the
   ``medium`` level), the position at every ply 0-20 of ``--games`` games. Each position is
   analysed cold on both sides: our solver's table emptied and no table of solved positions;
   BitBully's transposition table reset. The two are interleaved position by position (the
   order alternating), so that both meet the same load, and their scores compared column by
   column (a difference stops the bench). Per ply and per band of plies: p50 / p95 / max of
   each, the ratio ours / BitBully, and the ratio of CPU times (each side's own thread or
   process: a comparison that the other work on the machine disturbs less). Goal (issue 24): at or below BitBully's p50 and p95 in
   every band, p95 <= 150 ms and max <= 600 ms at every ply.

   BitBully is AGPL: never a dependency of this project. It is measured from a scratch virtual
   environment outside the repository, run as a subprocess (``--bitbully-python``, default
   ``$BITBULLY_PYTHON`` or ``/tmp/bb-venv/bin/python``; make it with ``python3 -m venv
   /tmp/bb-venv && /tmp/bb-venv/bin/pip install bitbully bitbully-databases``). Without it
   the table shows ours alone. Its times are measured inside that process around
   ``scoreMoves`` (no pipe in them, the board built before); ours around
   ``analyse_position`` (the move string parsed before, likewise).
2. **Pons' sets** (``--parts pons``) L2_R2 (middle, medium) and L1_R2 (beginning, medium):
   every position solved (score only, as his benchmark) with the table reset before each,
   each score checked against the published one; L1_R2 also with the book.
   ``--sets L1_R3`` adds his hard set (about 11 s a position in his C++: long).
3. **Compile time** (``--parts compile``): ``warm_up`` in a fresh process with an empty numba
   cache, and with the cache filled (what a worker pays at start); the install sizes.
4. **Memory** (``--parts memory``): the resident size of one process after its warm-up, at
   the peak of ``--concurrent`` analyses at once, and after they end (the idle solvers freed).

The machine has 2 cores shared with other work: the load average is printed before and after.
Run from the repository root: ``python bench/bench_analysis.py`` (the table by ply, about 3
minutes with 20 games); ``--parts plies,pons,compile,memory`` for everything; ``--json``.
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
import threading  # noqa: E402
import time  # noqa: E402

from ai.games.connect4.exact import analysis, opening_book  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.games.connect4.exact.solver import parse_moves  # noqa: E402
from ai.course.game import play  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from ai.games.connect4.exact.solver_fast import FastSolver  # noqa: E402
from bench_solver import REFERENCE, fmt_ms, load, percentile  # noqa: E402

PLIES = tuple(range(21))
BANDS = ((0, 2), (3, 5), (6, 8), (9, 11), (12, 13), (14, 16), (17, 20))
GOAL_P95, GOAL_MAX = 0.150, 0.600
DATA_DIR = os.path.join(ROOT, "bench", "data")
PACKAGES = ("numba", "llvmlite", "numpy", "numpy.libs", "bitbully_databases")

#: The BitBully side, run by the scratch environment's python: one position a line on stdin
#: (1-indexed columns, "-" for the empty board), one JSON line back: its seven scores (None
#: for a full column), seconds inside scoreMoves, nodes.
BITBULLY_WORKER = r"""
import json, sys, time
from importlib.resources import files
import bitbully.bitbully_core as bc
book = str(files("bitbully_databases").joinpath("assets", "book_12ply_distances.dat"))
bb = bc.BitBullyCore(book)
assert bb.isBookLoaded()
print("ready", flush=True)
for line in sys.stdin:
    moves = line.strip().lstrip("-")
    b = bc.BoardCore()
    for ch in moves:
        b.play(int(ch) - 1)
    bb.resetTranspositionTable()
    bb.resetNodeCounter()
    c = time.process_time()
    t = time.perf_counter()
    scores = bb.scoreMoves(b)
    dt = time.perf_counter() - t
    cpu = time.process_time() - c
    legal = [moves.count(str(c + 1)) < 6 for c in range(7)]
    print(json.dumps({"scores": [s if ok else None for s, ok in zip(scores, legal)],
                      "seconds": dt, "cpu": cpu, "nodes": bb.getNodeCounter()}), flush=True)
"""


def parse_plies(text: str) -> tuple[int, ...]:
    """``"0-20"``, ``"12,13"`` or ``"9-11,14"``: the plies, each from 0 to 20."""
    plies = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        plies.update(range(int(lo), int(hi or lo) + 1))
    if not plies or not plies <= set(PLIES):
        raise SystemExit(f"--plies: plies from {PLIES[0]} to {PLIES[-1]}, not {text!r}")
    return tuple(sorted(plies))


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


class BitBully:
    """BitBully in its own process (the scratch environment's python), or None if absent."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen([python, "-c", BITBULLY_WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    @classmethod
    def start(cls, python: str | None):
        if not python or not os.path.exists(python):
            return None
        try:
            return cls(python)
        except (OSError, AssertionError):
            return None

    def analyse(self, moves: str) -> dict:
        self.proc.stdin.write((moves or "-") + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def ours_cold(moves: str) -> tuple[analysis.Analysis, float]:
    """One analysis, cold (the solver's table emptied, no table of solved positions), and the
    CPU seconds it took."""
    s = analysis._borrow(7, 6, True)
    s.reset()
    analysis._give_back(s, True)
    current, mask, plies = parse_moves(moves)          # as BitBully's board, built untimed
    c = time.thread_time()
    a = analysis.analyse_position(current, mask, plies, store=None, time_limit=60.0,
                                  moves=moves)
    cpu = time.thread_time() - c
    assert a.complete, moves
    return a, cpu


def analysis_by_ply(positions: dict[int, list[str]], bb: BitBully | None,
                    times: dict, runs: int = 1, apart: bool = False) -> list[dict]:
    """Ours and BitBully's times, interleaved, per ply (``times`` gets them all); raises on
    any score that differs. With ``runs`` > 1 each position is analysed that many times,
    cold each time, and its time is the median of its runs (ours and BitBully's alike): a
    position's cost, not a moment when the machine was busy elsewhere.

    Interleaved position by position (the default), each side is timed just after the
    other ran: after BitBully's table reset (~40 ms writing ~130 MB), which empties the
    processor's caches for both. ``apart``: ply by ply instead, every position of the ply
    on one side, then on the other (the first side alternating from ply to ply): each side
    is timed after its own table reset only, as it would run alone."""
    times.update({p: {"ours": [], "best": [], "bb": [], "nodes": [], "bb_nodes": [],
                      "cpu": [], "bb_cpu": []} for p in positions})
    k = 0
    for ply, moves_list in positions.items():
        got = {moves: {key: [] for key in times[ply]} for moves in moves_list}
        seen: dict = {}
        for _ in range(runs):
            if apart:
                sides = ("bb", "ours") if ply % 2 else ("ours", "bb")
                for side in sides:
                    for moves in moves_list:
                        _one(side, moves, bb, got[moves], seen)
                continue
            for moves in moves_list:
                k += 1
                sides = ("bb", "ours") if k % 2 else ("ours", "bb")
                for side in sides:
                    _one(side, moves, bb, got[moves], seen)
        for moves in moves_list:
            for key, values in got[moves].items():
                if values:            # (nodes are the same every run: kept as integers)
                    times[ply][key].append(values[0] if key.endswith("nodes")
                                           else statistics.median(values))
    return [summary(f"{p}", times[p]) for p in positions]


def _one(side: str, moves: str, bb: BitBully | None, got: dict, seen: dict) -> None:
    """One cold analysis of ``moves`` by one side, its time (and nodes, CPU time) added to
    ``got``; BitBully's scores checked against ours once both are in ``seen``."""
    if side == "ours":
        a, cpu = ours_cold(moves)
        got["ours"].append(a.elapsed)
        got["best"].append(a.best_elapsed)
        got["nodes"].append(a.nodes)
        got["cpu"].append(cpu)
        seen[moves, "ours"] = a.scores
    elif bb is not None:
        other = bb.analyse(moves)
        got["bb"].append(other["seconds"])
        got["bb_nodes"].append(other["nodes"])
        got["bb_cpu"].append(other["cpu"])
        seen[moves, "bb"] = other["scores"]
    ours, theirs = seen.get((moves, "ours")), seen.get((moves, "bb"))
    if ours is not None and theirs is not None and ours != theirs:
        raise AssertionError(f"{moves}: ours {ours}, BitBully {theirs}")


def summary(label: str, t: dict) -> dict:
    ours, best, bbt = sorted(t["ours"]), sorted(t["best"]), sorted(t["bb"])
    row = {"plies": label, "positions": len(ours),
           "best_p95_ms": percentile(best, 95) * 1e3,
           "p50_ms": statistics.median(ours) * 1e3, "p95_ms": percentile(ours, 95) * 1e3,
           "max_ms": ours[-1] * 1e3, "nodes_p50": statistics.median(t["nodes"]),
           "nodes_max": max(t["nodes"])}
    if bbt:
        row.update(bb_p50_ms=statistics.median(bbt) * 1e3, bb_p95_ms=percentile(bbt, 95) * 1e3,
                   bb_max_ms=bbt[-1] * 1e3, bb_nodes_p50=statistics.median(t["bb_nodes"]),
                   bb_nodes_max=max(t["bb_nodes"]))
        row["ratio_p50"] = row["p50_ms"] / row["bb_p50_ms"]
        row["ratio_p95"] = row["p95_ms"] / row["bb_p95_ms"]
        cpu, bb_cpu = sorted(t["cpu"]), sorted(t["bb_cpu"])
        row["cpu_ratio_p50"] = statistics.median(cpu) / max(1e-9, statistics.median(bb_cpu))
        row["cpu_ratio_p95"] = percentile(cpu, 95) / max(1e-9, percentile(bb_cpu, 95))
    row["goal"] = (row["p95_ms"] <= GOAL_P95 * 1e3 and row["max_ms"] <= GOAL_MAX * 1e3
                   and (not bbt or (row["p50_ms"] <= row["bb_p50_ms"]
                                    and row["p95_ms"] <= row["bb_p95_ms"])))
    return row


def by_band(positions: dict[int, list[str]], rows_times: dict) -> list[dict]:
    out = []
    for lo, hi in BANDS:
        merged = {key: [x for p in range(lo, hi + 1) if p in rows_times
                        for x in rows_times[p][key]] for key in next(iter(rows_times.values()))}
        if merged["ours"]:
            out.append(summary(f"{lo}-{hi}", merged))
    return out


def pons_set(name: str, limit: int | None, repeats: int, book) -> dict:
    solver = FastSolver(7, 6, book=book)
    times, nodes, wrong = [], 0, 0
    for moves, expected in load(name, DATA_DIR if name != "L1_R3" else SHARED_SETS, limit):
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


SHARED_SETS = os.path.join(os.path.dirname(ROOT), "shared", "connect4-testsets")


def compile_times() -> dict:
    """Seconds for ``warm_up()`` in fresh processes: empty cache, then the cache it filled."""
    code = "import time; t=time.perf_counter(); " \
           "from ai.games.connect4.exact.analysis import warm_up; " \
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


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def memory(concurrent: int) -> dict:
    """Resident size of a process holding what a web worker holds (``create_app()``: the app,
    the book, the solver warmed up), idle; at the peak of ``concurrent`` perfect-level replies
    at once (threads, as the server's admission lanes run them; each borrows a solver and its
    table); and idle again after them."""
    from app import create_app
    create_app({"TESTING": True})
    game = Connect4()
    positions = [m for ms in game_positions(concurrent, plies=(6,)).values() for m in ms]
    LEVELS["perfect"].play(game, play(game, game.parse_moves("4")))
    out = {"warm_mb": rss_mb()}
    barrier = threading.Barrier(len(positions) + 1)
    done = threading.Event()
    peak = [0.0]

    def one(moves):
        state = play(game, game.parse_moves(moves))
        barrier.wait()
        LEVELS["perfect"].play(game, state)

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb())
            time.sleep(0.005)

    threads = [threading.Thread(target=one, args=(m,)) for m in positions]
    for t in threads:
        t.start()
    sampler = threading.Thread(target=sample)
    sampler.start()
    barrier.wait()
    for t in threads:
        t.join()
    done.set()
    sampler.join()
    out.update(concurrent=len(positions), peak_mb=peak[0], after_mb=rss_mb(),
               idle_solvers=analysis.idle_solvers())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_analysis.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="positions per ply (default 20)")
    ap.add_argument("--plies", default="0-20",
                    help="plies of the table by ply, a range or a list (default %(default)s)")
    ap.add_argument("--limit", type=int, default=None, help="first N positions of each Pons set")
    ap.add_argument("--repeats", type=int, default=3, help="runs per Pons position (median)")
    ap.add_argument("--runs", type=int, default=1,
                    help="cold runs per position of the table by ply, its time their median "
                         "(default 1)")
    ap.add_argument("--apart", action="store_true",
                    help="the table by ply: each ply's positions on one side, then on the other "
                         "(each side timed after its own table reset, not just after the "
                         "other's; default: position by position)")
    ap.add_argument("--sets", default="L2_R2,L1_R2", help="Pons' sets (default: %(default)s)")
    ap.add_argument("--parts", default="plies",
                    help="plies, pons, compile, memory, comma-separated (default: %(default)s)")
    ap.add_argument("--bitbully-python",
                    default=os.environ.get("BITBULLY_PYTHON", "/tmp/bb-venv/bin/python"),
                    help="python of a scratch environment with bitbully (default: %(default)s)")
    ap.add_argument("--concurrent", type=int, default=40, help="memory: analyses at once")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    parts = set(args.parts.split(","))
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    book = opening_book.load()
    book_load = time.perf_counter() - t0
    result = {"load_before": load_before, "book_load_ms": book_load * 1e3,
              "book_mb": book.nbytes / 1e6, "runs": max(1, args.runs), "apart": args.apart}
    if "memory" in parts:                      # first: a process that did nothing else
        del book                               # the app loads its own (opening_book.shared)
        result["memory"] = memory(args.concurrent)
        book = opening_book.shared()
    analysis.analyse("4", store=None, max_nodes=1000)         # compile/load before timing
    result["by_ply"], result["by_band"], result["bitbully"] = [], [], None
    if "plies" in parts:
        positions = game_positions(args.games, parse_plies(args.plies))
        bb = BitBully.start(args.bitbully_python)
        result["bitbully"] = args.bitbully_python if bb else None
        raw: dict = {}
        try:
            result["by_ply"] = analysis_by_ply(positions, bb, raw, result["runs"], args.apart)
        finally:
            if bb:
                bb.close()
        result["by_band"] = by_band(positions, raw)
    result["pons"] = []
    if "pons" in parts:
        for name in args.sets.split(","):
            result["pons"].append(pons_set(name, args.limit, args.repeats, None))
            if name.startswith("L1"):
                result["pons"].append(pons_set(name, args.limit, args.repeats, book))
    result["compile_s"] = compile_times() if "compile" in parts else None
    result["install_bytes"] = install_sizes() if "compile" in parts else None
    result["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    report(result, book, book_load)
    return 1 if any(r["mismatches"] for r in result["pons"]) else 0


def report(result: dict, book, book_load: float) -> None:
    print(f"load average before: {' '.join(f'{x:.2f}' for x in result['load_before'])}; "
          f"after: {' '.join(f'{x:.2f}' for x in result['load_after'])} ({os.cpu_count()} CPUs)")
    print(f"book: {len(book):,} positions, {book.nbytes / 1e6:.0f} MB in memory, "
          f"loaded in {book_load * 1e3:.0f} ms")
    if result["by_ply"]:
        who = "BitBully + its 12-ply book (" + result["bitbully"] + ")" if result["bitbully"] \
            else "BitBully not found: ours alone"
        runs = (f" (each position's median of {result['runs']} cold runs)"
                if result["runs"] > 1 else "")
        how = "ply by ply" if result.get("apart") else "position by position"
        print(f"\nevery column's score, cold{runs}, interleaved {how} with {who}; goal p95 <= "
              f"{GOAL_P95 * 1e3:.0f} ms, max <= {GOAL_MAX * 1e3:.0f} ms, at or below BitBully:")
        for title, rows in (("by band", result["by_band"]), ("by ply", result["by_ply"])):
            print(f"\n{title}:\n| plies | positions | best move p95 | all p50 | p95 | max | "
                  "nodes p50 / max | BitBully p50 | p95 | max | nodes p50 / max | "
                  "ours / BB p50 | p95 | CPU time: ours / BB p50 | p95 | goal |")
            print("|---" * 16 + "|")
            for r in rows:
                bb = (f"{fmt_ms(r['bb_p50_ms'])} | {fmt_ms(r['bb_p95_ms'])} | "
                      f"{fmt_ms(r['bb_max_ms'])} | {r['bb_nodes_p50']:,.0f} / "
                      f"{r['bb_nodes_max']:,} | {r['ratio_p50']:.2f}x | {r['ratio_p95']:.2f}x | "
                      f"{r['cpu_ratio_p50']:.2f}x | {r['cpu_ratio_p95']:.2f}x"
                      if "bb_p50_ms" in r else "- | - | - | - | - | - | - | -")
                print(f"| {r['plies']} | {r['positions']} | {fmt_ms(r['best_p95_ms'])} | "
                      f"{fmt_ms(r['p50_ms'])} | {fmt_ms(r['p95_ms'])} | {fmt_ms(r['max_ms'])} | "
                      f"{r['nodes_p50']:,.0f} / {r['nodes_max']:,} | {bb} | "
                      f"{'met' if r['goal'] else 'NOT met'} |")
    if result["pons"]:
        print("\nPons' sets, table reset per position, score only (median of runs per position):")
        print("| set | positions | wrong | mean | p95 | max | mean nodes | nodes/s | C++ mean | "
              "ours / C++ |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in result["pons"]:
            print(f"| {r['set']} | {r['positions']} | {r['mismatches']} | "
                  f"{fmt_ms(r['mean_ms'])} | {fmt_ms(r['p95_ms'])} | {fmt_ms(r['max_ms'])} | "
                  f"{r['mean_nodes']:,.0f} | {r['nodes_per_s'] / 1e6:.2f}M | "
                  f"{fmt_ms(r['cpp_mean_ms'])} | {r['ratio']:.2f}x |")
    c = result["compile_s"]
    if c:
        print(f"\nfirst call in a fresh process (import + warm_up): {c['cold']:.1f} s with an "
              f"empty numba cache, {c['cached']:.2f} s with the cache filled")
        sizes = result["install_bytes"]
        print("install size added: " + ", ".join(f"{k} {v / 1e6:.0f} MB"
                                                for k, v in sizes.items())
              + f"; total {sum(sizes.values()) / 1e6:.0f} MB")
    m = result.get("memory")
    if m:
        print(f"\nresident size of a process holding the app: {m['warm_mb']:.0f} MB after the "
              f"warm-up, {m['peak_mb']:.0f} MB at the peak of {m['concurrent']} perfect replies "
              f"at once, {m['after_mb']:.0f} MB after them ({m['idle_solvers']} idle solver(s) "
              "kept)")


if __name__ == "__main__":
    sys.exit(main())
