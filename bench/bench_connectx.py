#!/usr/bin/env python3
"""Games a second of kaggle-environments' ConnectX runner with its own negamax agent, beside
our tournament's (``bench/bench_tournament.py``), at the same depth: the comparison issue 39
asks for. kaggle-environments is not one of the app's packages (it brings jax, transformers,
pygame...: 1.6 GB): run this with the Python of a scratch environment that has it, never
.venv::

    python3 -m venv /work/scratch/kaggle-venv
    /work/scratch/kaggle-venv/bin/pip install kaggle-environments
    /work/scratch/kaggle-venv/bin/python bench/bench_connectx.py --depth 4 --seconds 120

Its negamax (``kaggle_environments/envs/connectx/connectx.py``) searches every column to a
fixed ``max_depth`` (4 as shipped) with no pruning, and at ``max_depth`` plies down scores each
move of the next ply by its neighbours: ``max_depth`` d looks d + 1 plies ahead. So our depth
D is its ``max_depth`` D - 1 (``--depth`` is ours; the agent is the shipped function with that
one constant changed). Each game: ``env.run([agent, agent])`` from the empty board, the
runner's timeouts lifted (a deep move takes seconds), until ``--games`` games or ``--seconds``.
Prints the games, the moves, games and moves a second, and the load average.
"""
from __future__ import annotations

import argparse
import inspect
import os
import sys
import time


def agent(depth: int):
    """kaggle's negamax agent searching ``depth`` plies (its max_depth ``depth - 1``)."""
    from kaggle_environments.envs.connectx import connectx
    source = inspect.getsource(connectx.negamax_agent)
    assert "max_depth = 4" in source, "kaggle's negamax agent changed: read it again"
    namespace = dict(vars(connectx))
    exec(source.replace("max_depth = 4", f"max_depth = {depth - 1}"), namespace)
    return namespace["negamax_agent"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--depth", type=int, default=4, help="plies ahead, as our depth (4)")
    p.add_argument("--games", type=int, default=50, help="games at most (50)")
    p.add_argument("--seconds", type=float, default=120, help="time at most (120 s)")
    args = p.parse_args(argv)
    if args.depth < 1:
        sys.exit("--depth is 1 or more")
    started = time.perf_counter()
    from importlib.metadata import version

    from kaggle_environments import make
    imported = time.perf_counter() - started
    negamax = agent(args.depth)
    load = os.getloadavg()
    games = moves = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while games < args.games and time.perf_counter() - wall < args.seconds:
        env = make("connectx", configuration={"actTimeout": 1e6, "runTimeout": 1e9,
                                              "agentTimeout": 1e6}, debug=True)
        steps = env.run([negamax, negamax])
        statuses = {s["status"] for s in steps[-1]}
        if not statuses <= {"DONE"}:
            sys.exit(f"a game ended with {statuses}: not a finished game")
        games += 1
        moves += len(steps) - 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = os.getloadavg()
    print(f"kaggle-environments {version('kaggle-environments')}: ConnectX, negamax (max_depth {args.depth - 1}: "
          f"{args.depth} plies ahead) against itself: {games} games, {moves} moves "
          f"(import {imported:.1f} s, not counted)")
    print(f"wall {wall:.2f} s  CPU {cpu:.2f} s  games a second {games / wall:.3f} (CPU: "
          f"{games / cpu:.3f})  moves a second {moves / wall:.1f}")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  after: "
          f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f}  ({os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
