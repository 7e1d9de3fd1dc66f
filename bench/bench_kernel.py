#!/usr/bin/env python3
"""The compiled depth-limited search (``ai.games.connect4.compiled_search``) beside the pure
Python loop it replaces (``ai.games.connect4.fast_search``) and the exact solver's kernel.

Three sections, in one process, interleaved so that both sides see the same load:

1. **The default level's reply.** On the positions of ``--file`` (by default
   ``bench/data/level-positions.txt``: positions of games between the levels, the levels'
   tuning set, kept apart from the tests; the first ``--positions`` of them), the CPU time (``time.process_time``) of ``LEVELS[DEFAULT_LEVEL].play`` (the exact
   solver within its node budget, else the search: what the app's ``/ai`` runs, rendering
   aside), with the compiled search and with the Python loop (the rules' fast hook pointed at
   ``fast_search`` for that run); each position best of ``--repeat``. Checks that both give
   the same move, value and node count.
2. **The whole request**: the same reply as the page asks for it (htmx's
   ``GET /connect4/ai?moves=...&mode=...&level=<default>``, through the app in this process:
   parsing, the search, the rendering of the ``game`` block), its CPU time, each request cold
   (the worker's recent searches emptied first; the level's shipped book of first replies
   stays, as in production); compiled and pure Python, best of ``--repeat`` each.
3. **Nodes per second**: the default level's search alone (iterative deepening to 9 plies,
   threats) on the same positions, compiled and in Python; and the exact solver's compiled
   kernel on Pons' set ``Test_L2_R1`` (``bench/data``, its 1,000 positions), its table reset
   per position.

Run from the repository root: ``python bench/bench_kernel.py`` (``--json`` for one JSON
document). Say the machine's load (``uptime``) beside any figure you record.
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
import time  # noqa: E402
from contextlib import contextmanager  # noqa: E402

from ai.course.game import Game  # noqa: E402
from ai.games.connect4 import compiled_search, fast_search  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.levels import DEFAULT_LEVEL, LEVELS  # noqa: E402

POSITIONS = os.path.join(ROOT, "bench", "data", "level-positions.txt")
PONS_SET = os.path.join(ROOT, "bench", "data", "Test_L2_R1")


def read_positions(path: str, limit: int) -> list[str]:
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(line.split()[0])
    return out[:limit]


def state_of(game, moves: str):
    s = game.initial_state()
    for ch in moves:
        s = game.result(s, int(ch) - 1)
    return s


@contextmanager
def python_loop(game):
    """The rules' fast hook pointed at the pure-Python loop, as before the compiled search
    (on the rules' class: the app builds its own rules), and their ``fast_run`` (the
    compiled search in one call) taken away."""
    def hook(self, **options):
        return fast_search.alphabeta if fast_search.supports(self, **options) else None
    rules = type(game)
    own = rules.fast_alphabeta, rules.fast_run
    rules.fast_alphabeta, rules.fast_run = hook, Game.fast_run
    try:
        yield
    finally:
        rules.fast_alphabeta, rules.fast_run = own


def percentile(values, q):
    s = sorted(values)
    if not s:
        return math.nan
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def cpu_of(f, repeat):
    best, result = math.inf, None
    for _ in range(repeat):
        c0 = time.process_time()
        result = f()
        best = min(best, time.process_time() - c0)
    return best, result


def section_reply(game, states, repeat, out):
    level = LEVELS[DEFAULT_LEVEL]
    level.play(game, states[0])         # the exact solver's first call loads its book
    with python_loop(game):
        level.play(game, states[0])
    compiled, python, searched, differ = [], [], 0, 0
    for s in states:
        t_c, r_c = cpu_of(lambda: level.play(game, s), repeat)
        with python_loop(game):
            t_p, r_p = cpu_of(lambda: level.play(game, s), repeat)
        compiled.append(t_c)
        python.append(t_p)
        searched += r_c.algorithm == level.algorithm
        if (r_c.move, r_c.value, r_c.stats.nodes) != (r_p.move, r_p.value, r_p.stats.nodes):
            differ += 1
    row = {"positions": len(states), "searched": searched, "different_replies": differ}
    for name, xs in (("compiled", compiled), ("python", python)):
        row[name] = {"p50_ms": percentile(xs, 50) * 1e3, "p95_ms": percentile(xs, 95) * 1e3,
                     "mean_ms": sum(xs) / len(xs) * 1e3, "max_ms": max(xs) * 1e3}
    out["reply"] = row


def section_request(game, moves_list, repeat, out):
    from app import create_app
    app = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 1e9})
    client = app.test_client()
    hx = {"HX-Request": "true"}

    def url(moves):
        # the AI plays the side to move: second after an odd number of moves, else first
        mode = "human-ai" if len(moves) % 2 else "ai-human"
        return f"/connect4/ai?moves={moves}&mode={mode}&level={DEFAULT_LEVEL}"

    def request(moves):
        app.extensions.pop("recent_searches", None)
        r = client.get(url(moves), headers=hx)
        assert r.status_code == 200, (moves, r.status_code)
        return r
    request(moves_list[0])
    with python_loop(game):
        request(moves_list[0])
    compiled, python = [], []
    for moves in moves_list:
        t_c, _ = cpu_of(lambda: request(moves), repeat)
        with python_loop(game):
            t_p, _ = cpu_of(lambda: request(moves), repeat)
        compiled.append(t_c)
        python.append(t_p)
    row = {"positions": len(moves_list)}
    for name, xs in (("compiled", compiled), ("python", python)):
        row[name] = {"p50_ms": percentile(xs, 50) * 1e3, "p95_ms": percentile(xs, 95) * 1e3,
                     "mean_ms": sum(xs) / len(xs) * 1e3, "max_ms": max(xs) * 1e3}
    out["request"] = row


def section_nps(game, states, repeat, out):
    level = LEVELS[DEFAULT_LEVEL]
    opts = level.options(game)
    from ai.engine import search

    def run(s):
        return search(level.algorithm, game, s, **opts)
    rows = {}
    for name, ctx in (("compiled", None), ("python", python_loop)):
        nodes, cpu = 0, 0.0
        for s in states:
            if ctx is None:
                t, r = cpu_of(lambda: run(s), repeat)
            else:
                with ctx(game):
                    t, r = cpu_of(lambda: run(s), repeat)
            nodes += r.stats.nodes
            cpu += t
        rows[name] = {"nodes": nodes, "cpu_s": cpu, "nodes_per_s": nodes / cpu if cpu else math.nan}
    from ai.games.connect4.exact.solver_fast import FastSolver
    solver = FastSolver(7, 6)
    nodes, cpu = 0, 0.0
    for moves in read_positions(PONS_SET, 1000):
        solver.reset()
        c0 = time.process_time()
        r = solver.solve(moves)
        cpu += time.process_time() - c0
        nodes += r.nodes
    rows["exact"] = {"nodes": nodes, "cpu_s": cpu, "nodes_per_s": nodes / cpu if cpu else math.nan}
    out["nodes_per_s"] = rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300, metavar="N",
                        help="how many positions of the file (default 300)")
    parser.add_argument("--file", default=POSITIONS, metavar="PATH",
                        help="the positions, one a line, its moves first (default "
                             "bench/data/level-positions.txt, the levels' tuning set; "
                             "ai/games/connect4/data/workshop-positions.txt holds 240 from "
                             "other games)")
    parser.add_argument("--repeat", type=int, default=3, metavar="K",
                        help="each timing the best of K runs (default 3)")
    parser.add_argument("--sections", default="1,2,3", help="which sections (default 1,2,3)")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    args = parser.parse_args(argv)
    game = Connect4()
    compiled_search.warm_up(Connect4())
    moves_list = read_positions(args.file, args.positions)
    states = [state_of(game, m) for m in moves_list]
    out = {"load": os.getloadavg(), "positions_file": os.path.relpath(args.file, ROOT)}
    sections = set(args.sections.split(","))
    if "1" in sections:
        section_reply(game, states, args.repeat, out)
    if "2" in sections:
        section_request(game, moves_list, args.repeat, out)
    if "3" in sections:
        section_nps(game, states, args.repeat, out)
    out["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"load (1, 5, 15 min) before {out['load']}, after {out['load_after']}")
    if "reply" in out:
        r = out["reply"]
        print(f"\nDefault level ({DEFAULT_LEVEL}) reply, CPU per position, {r['positions']} "
              f"positions ({r['searched']} searched), {r['different_replies']} different replies")
        for name in ("compiled", "python"):
            x = r[name]
            print(f"  {name:9} p50 {x['p50_ms']:7.2f} ms  p95 {x['p95_ms']:7.2f} ms  "
                  f"mean {x['mean_ms']:7.2f} ms  max {x['max_ms']:7.2f} ms")
    if "request" in out:
        r = out["request"]
        print(f"\nThe whole request (GET /connect4/ai, htmx, in-process), CPU per request, "
              f"{r['positions']} positions")
        for name in ("compiled", "python"):
            x = r[name]
            print(f"  {name:9} p50 {x['p50_ms']:7.2f} ms  p95 {x['p95_ms']:7.2f} ms  "
                  f"mean {x['mean_ms']:7.2f} ms  max {x['max_ms']:7.2f} ms")
    if "nodes_per_s" in out:
        print("\nNodes per second (CPU)")
        for name, x in out["nodes_per_s"].items():
            print(f"  {name:9} {x['nodes_per_s']:>14,.0f}  ({x['nodes']:,} nodes, {x['cpu_s']:.2f} s)")


if __name__ == "__main__":
    main()
