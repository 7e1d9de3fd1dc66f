#!/usr/bin/env python3
"""The Connect-4 tournament's wall time (``ai.games.connect4.tournament``): a class of
heuristic entrants (default 30, drawn at random among small weights of the terms with
``random.Random(seed)``, as a student's steppers make them) and bosses (default beginner,
easy, medium), double round robin, both colours from each of the openings (default 2), every
heuristic at the same depth (default 4). Prints the games, the wall time to the final
standings, the games a second, the CPU time of this process beside the wall time (the
machine's other work shows as the gap), and the load average before and after.

    .venv/bin/python bench/bench_tournament.py                  # 30 + 3 bosses, depth 4
    .venv/bin/python bench/bench_tournament.py --depth 6
    .venv/bin/python bench/bench_tournament.py --entrants 10 --bosses beginner
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")

from ai.games.connect4 import compiled_search, tournament  # noqa: E402
from ai.games.connect4.terms import NAMES, Weights, format_weights  # noqa: E402


def heuristics(count: int, seed: int) -> list[str]:
    """``count`` random heuristics, a few terms each weighing -2..16 (most positive)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        chosen = rng.sample([n for n in NAMES if n != "adjusted"], rng.randint(1, 4))
        weights = {n: rng.choice([-2, -1, 1, 2, 3, 4, 8, 16]) for n in chosen}
        out.append(format_weights(Weights.of(**weights)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=30, help="heuristic entrants (30)")
    parser.add_argument("--bosses", default="beginner,easy,medium",
                        help="levels as bosses, comma-separated (beginner,easy,medium)")
    parser.add_argument("--depth", type=int, default=4, help="every heuristic's depth (4)")
    parser.add_argument("--openings", type=int, default=2, help="balanced openings (2)")
    parser.add_argument("--seed", type=int, default=1, help="the heuristics' random seed (1)")
    args = parser.parse_args(argv)

    entrants = [tournament.entrant(f"S{i + 1}:{h}")
                for i, h in enumerate(heuristics(args.entrants, args.seed))]
    entrants += [tournament.boss(b) for b in args.bosses.split(",") if b]
    compiled_search.warm_up(tournament.GAME)      # numba's code loaded: not the tournament's
    tournament.candidates()                       # the solver's openings, once per process
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    data = tournament.run(entrants, args.depth, args.openings)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = os.getloadavg()
    print(f"{len(entrants)} entrants ({args.entrants} heuristics + {args.bosses or 'no bosses'}), "
          f"{args.openings} openings ({', '.join(o['moves'] for o in data['openings'])}), "
          f"depth {args.depth}: {len(data['games'])} games")
    print(f"wall time to the final standings: {wall:.2f} s  CPU: {cpu:.2f} s  "
          f"games a second: {len(data['games']) / wall:.0f}")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  "
          f"after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}  ({os.cpu_count()} cores)")
    top = data["standings"][:5]
    print("top: " + ", ".join(f"{r['name']} {r['points']} ({r['rating']:+})" for r in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
