#!/usr/bin/env python3
"""How long the server takes to answer "show me the tree", at every level (issue 12's goal: at
most 300 ms p95 at the default level).

For each level, the same positions (random Connect-4 games, seeded, 0 to 20 moves, none
over) are opened with the tree panel on, as a person does with "Show the tree":
``GET /connect4/tree?moves=...&tree=1&mode=human-human&level=...`` (htmx), through the app
in this process, the search, its recording and the drawing included. Every request is
cold: the worker's recent searches are emptied first (``web.recent``), so what is timed is
a search that was never made; only the default level's shipped book of first replies
(``ai.games.connect4.level_book``) stays, as in production, and the table says how many requests it
answered. One request per position and level, after one warm-up request per level.

``--steps``: a teacher's step by step instead, on the projector: a few small searches the
course replays (seed 003's worked example among them), each opened on a node below the root
(so the breadcrumb has ancestors with their values) and requested at every step of its replay,
``GET /<game>/tree?...&step=i`` (htmx), as the stepper's "forward" asks; the search itself
comes from the worker's recent searches after the first request, as when a class steps on.
The table gives each replay's CPU (or wall-clock) time per step, and how many times the
search was replayed (``ai.teach.tree_view.replay``) per request and the time those replays
took.

Run from the repository root:  python bench/tree_panel.py [--positions 40] [--seed 1]
[--levels hard] [--cpu]  (the default level alone: ~10 s; every level: a few minutes;
--cpu: CPU time, steadier than the wall clock when the machine is shared)
python bench/tree_panel.py --steps [--rounds 5] [--cpu]   (~30 s on the loaded 2-core machine)
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ai.games.connect4 import level_book  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.levels import DEFAULT_LEVEL, LEVELS  # noqa: E402
from app import create_app  # noqa: E402


def positions(n: int, seed: int) -> list[str]:
    rng, game, out = random.Random(seed), Connect4(), []
    while len(out) < n:
        state, moves = game.initial_state(), ""
        for _ in range(rng.randint(0, 20)):
            move = rng.choice(game.actions(state))
            state = game.result(state, move)
            if game.is_terminal(state):
                break
            moves += game.format_move(move)
        if not game.is_terminal(state):
            out.append(moves)
    return out


# small searches a class replays step by step: (name, tree request, the node opened)
STEP_REPLAYS = [
    ("seed 003, Nim 5 alpha-beta d2",
     "/nim/tree?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2&heur=course"
     "&window=course&order=reverse&moves=1&td=2", "32"),
    ("Nim 6 (1-3) alpha-beta d3",
     "/nim/tree?n=6&k=3&mode=human-human&algo=alphabeta&depth=3&level=custom&tree=1", "11"),
    ("Connect-4 minimax d2",
     "/connect4/tree?moves=44&mode=human-human&algo=minimax&depth=2&level=custom&tree=1", "43"),
    ("Connect-4 alpha-beta+table d2",
     "/connect4/tree?moves=44&mode=human-human&algo=alphabeta-tt&depth=2&level=custom&tree=1",
     "43"),
]


def counted_replays(clock):
    """Counts the calls of ``ai.teach.tree_view.replay`` under every name a loaded module
    binds it to, and the time they take by ``clock`` (ms); returns the counters
    ``[calls, ms]``."""
    from ai.teach import tree_view
    original, calls = tree_view.replay, [0, 0.0]

    def counting(*args, **kwargs):
        start = clock()
        try:
            return original(*args, **kwargs)
        finally:
            calls[0] += 1
            calls[1] += (clock() - start) * 1000
    for module in list(sys.modules.values()):
        for name, value in list(vars(module).items()) if module else ():
            if value is original:
                setattr(module, name, counting)
    return calls


def steps(args) -> int:
    """A teacher's step by step (``--steps``): every step of each of ``STEP_REPLAYS``."""
    import re
    app = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 1e9})
    client = app.test_client()
    hx = {"HX-Request": "true"}
    clock = time.process_time if args.cpu else time.perf_counter
    calls = counted_replays(clock)
    print(f"every step of each replay, {args.rounds} rounds; {os.cpu_count()} CPUs; times in ms "
          f"({'CPU' if args.cpu else 'wall clock'}) per request, server side\n")
    print(f"{'replay':<32}{'steps':>6}{'p50':>8}{'p95':>8}{'max':>8}{'replays/req':>13}"
          f"{'replay ms/req':>15}")
    for name, url, path in STEP_REPLAYS:
        url = f"{url}&path={path}"
        html = client.get(f"{url}&step=0", headers=hx).get_data(as_text=True)
        n = int(re.search(r"step 0 of ([\d,]+)", html).group(1).replace(",", ""))
        times, before = [], list(calls)
        for _ in range(args.rounds):
            for step in range(n + 1):
                start = clock()
                r = client.get(f"{url}&step={step}", headers=hx)
                times.append((clock() - start) * 1000)
                assert r.status_code == 200, (url, step, r.status_code)
        per_request = (calls[0] - before[0]) / len(times)
        replay_ms = (calls[1] - before[1]) / len(times)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"{name:<32}{n:>6}{statistics.median(times):>8.2f}{p95:>8.2f}{times[-1]:>8.2f}"
              f"{per_request:>13.2f}{replay_ms:>15.3f}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", action="store_true",
                        help="time each request by this process's CPU time, not the wall "
                             "clock (far steadier on a loaded machine)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="the levels to time, comma-separated (default: all)")
    parser.add_argument("--steps", action="store_true",
                        help="time a teacher's step by step through small replays instead")
    parser.add_argument("--rounds", type=int, default=5,
                        help="--steps: how many times each replay is stepped through")
    args = parser.parse_args(argv)
    if args.steps:
        return steps(args)
    names = args.levels.split(",")
    unknown = [n for n in names if n not in LEVELS]
    if unknown:
        parser.error(f"unknown level(s): {', '.join(unknown)}")
    app = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 1e9})
    client = app.test_client()
    hx = {"HX-Request": "true"}
    sample = positions(args.positions, args.seed)
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"{len(sample)} positions of 0-20 random moves (seed {args.seed}); "
          f"{os.cpu_count()} CPUs; times in ms ({'CPU' if args.cpu else 'wall clock'}), server "
          "side, cold (no recent search)\n")
    print(f"{'level':<10}{'p50':>8}{'p95':>8}{'max':>8}{'nodes p50':>11}{'from book':>11}")
    game = Connect4()
    for name in names:
        times, nodes, booked = [], [], 0
        client.get(f"/connect4/tree?moves=4&tree=1&mode=human-human&level={name}", headers=hx)
        for moves in sample:
            app.extensions.pop("recent_searches", None)
            start = clock()
            r = client.get(f"/connect4/tree?moves={moves}&tree=1&mode=human-human&level={name}",
                           headers=hx)
            times.append((clock() - start) * 1000)
            assert r.status_code == 200, (moves, r.status_code)
            state = game.from_moves(moves)
            booked += level_book.reply(LEVELS[name], game, state) is not None
            nodes.append(LEVELS[name].play(game, state).stats.nodes)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        mark = "  (default)" if name == DEFAULT_LEVEL else ""
        print(f"{name:<10}{statistics.median(times):>8.0f}{p95:>8.0f}{times[-1]:>8.0f}"
              f"{statistics.median(nodes):>11,.0f}{booked:>11}{mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
