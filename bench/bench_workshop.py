#!/usr/bin/env python3
"""The heuristic workshop's times: a heuristic's accuracy on the workshop's 240 positions at
depths 2, 4 and 6 (``ai.games.connect4.accuracy``, each heuristic new: nothing cached), and
the workshop's page after a change (``/connect4/workshop``, a new heuristic each time: its
accuracy, each column's value now and before, the tree of the custom level, the drawing),
p50 / p95 / max of the time it took and p50 / p95 of the CPU time this process spent (all its
threads, the page's offloaded searches included: what the other processes' load does not
inflate), with the load average before and after. The heuristics are drawn at random
(``random.Random(seed)``) among small weights of the terms, as a student's steppers make them.

    .venv/bin/python bench/bench_workshop.py            # ~1 min here
    .venv/bin/python bench/bench_workshop.py --runs 30
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")

from ai.games.connect4 import accuracy  # noqa: E402
from ai.games.connect4.terms import NAMES, Weights, format_weights  # noqa: E402


def percentile(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def show(name, times, cpu):
    ms, cpu = [t * 1000 for t in times], [t * 1000 for t in cpu]
    print(f"| {name} | {len(ms)} | {percentile(ms, 50):.0f} ms | {percentile(ms, 95):.0f} ms | "
          f"{max(ms):.0f} ms | {percentile(cpu, 50):.0f} ms | {percentile(cpu, 95):.0f} ms |",
          flush=True)


def heuristics(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        values = [0] * len(NAMES)
        for name in rng.sample(NAMES, rng.randint(1, 4)):
            values[NAMES.index(name)] = rng.choice([1, 2, 4, 8, -1, 3, 16])
        yield Weights(tuple(values))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(f"load average before: {os.getloadavg()}")
    positions = accuracy.default_positions()
    accuracy.measure("cells=1", 2)                  # compile and load once, not timed
    print("\n| what | runs | p50 | p95 | max | CPU p50 | CPU p95 |\n"
          "|---|---|---|---|---|---|---|")
    for depth in (2, 4, 6):
        times, cpu = [], []
        for w in heuristics(args.seed + depth, args.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            accuracy.judge(lambda s: accuracy.chosen_move(w, depth, s), positions,
                           format_weights(w), depth)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        show(f"accuracy on {len(positions)} positions, depth {depth}", times, cpu)

    from app import create_app
    client = create_app({"TESTING": True}).test_client()
    prev = "cells=1"
    client.get("/connect4/workshop")                 # the levels' rows, measured once per worker
    times, cpu = [], []
    for w in heuristics(args.seed, args.runs):
        text = format_weights(w)
        t0, c0 = time.perf_counter(), time.process_time()
        r = client.get(f"/connect4/workshop?h={text}&prev={prev}&moves=6122&depth=4")
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        assert r.status_code == 200, (text, r.status_code)
        prev = text
    show("the workshop page after a change (depth 4: accuracy, columns, tree, drawing)", times,
         cpu)
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
