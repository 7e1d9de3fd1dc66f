#!/usr/bin/env python3
"""A tournament's wall time (``ai.teach.tournament``): a class of heuristic entrants (default
30, drawn at random among small weights of the game's terms with ``random.Random(seed)``, as a
student's steppers make them) and bosses (default beginner, easy, medium), double round robin,
both colours from each of the openings (default 2), every heuristic at the same depth (default
4). Prints the games, the wall time to the final standings, the games a second, the CPU time
of this process beside the wall time (the machine's other work shows as the gap), and the load
average before and after.

With ``--serve``, the app's server beside it (gunicorn, as ``scripts/serve``, on a free port):
``GET /`` timed one after another (two at a time) for ``--idle`` seconds alone (the baseline),
then while the tournament runs in a process of its own (``python -m ai tournament ... --json``,
as a teacher starts it): both p95s, and the tournament's own time (its JSON's ``timing``).
Goals (issue 39): depth 4 in <= 30 s; ``GET /`` p95 <= 300 ms while it runs.

    .venv/bin/python bench/bench_tournament.py                  # 30 + 3 bosses, depth 4
    .venv/bin/python bench/bench_tournament.py --depth 6
    .venv/bin/python bench/bench_tournament.py --serve --depth 4
    .venv/bin/python bench/bench_tournament.py --game tictactoe --entrants 30
    .venv/bin/python bench/bench_tournament.py --entrants 10 --bosses beginner

The comparison with kaggle-environments' ConnectX runner: ``bench/bench_connectx.py``.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")

from ai import games  # noqa: E402
from ai.teach import tournament  # noqa: E402

# Each game's terms a random heuristic draws from (every term but seed 004's slow one).
TERMS = {"connect4": ("cells", "open1", "open2", "open3", "center", "threats", "immediate",
                      "oddeven"),
         "tictactoe": ("lines", "open1", "open2", "center", "corners", "cells")}


def heuristics(game: str, count: int, seed: int) -> list[str]:
    """``count`` random heuristics, a few terms each weighing -2..16 (most positive)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        chosen = rng.sample(TERMS[game], rng.randint(1, 4))
        out.append(",".join(f"{n}={rng.choice([-2, -1, 1, 2, 3, 4, 8, 16])}" for n in chosen))
    return out


def p95(times: list[float]) -> float:
    times = sorted(times)
    return times[int(len(times) * 0.95)] if times else float("nan")


def served(args, entrants) -> int:
    """The tournament in a process of its own beside the server, ``GET /`` timed (--serve)."""
    import threading

    from attack import Server, start_server        # bench/attack.py: the server on a free port

    server: Server = start_server(args.workers)
    times: dict[str, list[float]] = {"idle": [], "tournament": []}
    statuses: dict[str, list] = {"idle": [], "tournament": []}
    phase = ["idle"]
    stop = threading.Event()

    def probe():
        while not stop.is_set():
            start = time.perf_counter()
            status, _ = server.request("GET", "/", timeout=30)
            took = (time.perf_counter() - start) * 1000
            times[phase[0]].append(took)
            statuses[phase[0]].append(status)
            time.sleep(0.02)

    command = [sys.executable, "-m", "ai", "tournament", args.game, "--depth", str(args.depth),
               "--openings", str(args.openings), "--json"]
    for e in entrants:
        command += ["--level", e.level] if e.level else ["--entrant", f"{e.name}:{e.heuristic}"]
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    try:
        probes = [threading.Thread(target=probe, daemon=True) for _ in range(2)]
        for t in probes:
            t.start()
        time.sleep(args.idle)
        load = os.getloadavg()
        phase[0] = "tournament"
        wall = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - wall
        phase[0] = "after"
        times["after"], statuses["after"] = [], []
        after = os.getloadavg()
        stop.set()
        for t in probes:
            t.join(35)
    finally:
        server.proc.terminate()
        server.proc.wait(30)
    if done.returncode:
        sys.exit(done.stderr)
    data = json.loads(done.stdout)
    timing = data["timing"]
    bad = {k: sum(1 for s in v if s == "error" or s >= 500) for k, v in statuses.items()}
    print(f"{len(entrants)} entrants, {args.openings} openings, depth {args.depth}, "
          f"{args.game}: {len(data['games'])} games, beside the server ({args.workers} workers)")
    print(f"the tournament's process: {wall:.2f} s from its start to its JSON; its work "
          f"(timing.total_ms) {timing['total_ms'] / 1000:.2f} s, start-up "
          f"{timing.get('startup_ms', 0) / 1000:.2f} s; games {timing['games_ms'] / 1000:.2f} s "
          f"({timing['games_per_second']:.0f} a second), standings "
          f"{timing['standings_ms'] / 1000:.2f} s")
    print(f"GET / p95: idle {p95(times['idle']):.0f} ms ({len(times['idle'])} requests), "
          f"while the tournament ran {p95(times['tournament']):.0f} ms "
          f"({len(times['tournament'])} requests); 5xx/errors {bad}")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  after: "
          f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f}  ({os.cpu_count()} cores)")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(TERMS), default="connect4",
                        help="the game (connect4)")
    parser.add_argument("--entrants", type=int, default=30, help="heuristic entrants (30)")
    parser.add_argument("--bosses", default="beginner,easy,medium",
                        help="levels as bosses, comma-separated (beginner,easy,medium)")
    parser.add_argument("--depth", type=int, default=4, help="every heuristic's depth (4)")
    parser.add_argument("--openings", type=int, default=2, help="balanced openings (2)")
    parser.add_argument("--seed", type=int, default=1, help="the heuristics' random seed (1)")
    parser.add_argument("--serve", action="store_true",
                        help="beside the app's server, GET / timed (see above)")
    parser.add_argument("--workers", type=int, default=3, help="--serve: the server's workers")
    parser.add_argument("--idle", type=float, default=10,
                        help="--serve: seconds of GET / alone first, the baseline (10)")
    args = parser.parse_args(argv)

    game = games.load(args.game).Rules()
    entrants = [tournament.entrant(game, f"S{i + 1}:{h}")
                for i, h in enumerate(heuristics(args.game, args.entrants, args.seed))]
    entrants += [tournament.boss(b) for b in args.bosses.split(",") if b]
    if args.serve:
        return served(args, entrants)
    for e in entrants:          # numba's code and the solver's openings: not the tournament's
        tournament.player(game, e, args.depth, None)(game.initial_state())
    game.tournament_openings(args.openings)
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    data = tournament.run(game, entrants, args.depth, args.openings, runner=tournament.local)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = os.getloadavg()
    print(f"{len(entrants)} entrants ({args.entrants} heuristics + {args.bosses or 'no bosses'}), "
          f"{args.openings} openings ({', '.join(o['moves'] for o in data['openings'])}), "
          f"depth {args.depth}, {args.game}: {len(data['games'])} games")
    moves = sum(len(g["moves"]) - len(g["opening"]) for g in data["games"])
    print(f"wall time to the final standings: {wall:.2f} s  CPU: {cpu:.2f} s  "
          f"games a second: {len(data['games']) / wall:.0f} (CPU: "
          f"{len(data['games']) / cpu:.0f})  moves a second: {moves / wall:.0f} "
          f"({moves} moves; CPU: {moves / cpu:.0f})")
    print(f"of which the standings (the rating's fit): {data['timing']['standings_ms']:.0f} ms")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  "
          f"after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}  ({os.cpu_count()} cores)")
    top = data["standings"][:5]
    print("top: " + ", ".join(f"{r['name']} {r['points']} ({r['rating']:+})" for r in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
