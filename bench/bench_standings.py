#!/usr/bin/env python3
"""The standings' cost (``ai.teach.standings``): the rating's fit alone, the standings with and
without it, and the live page's whole count (``web.tournament.runner.results`` rated,
and a Swiss's byes: what ``web.tournament.live`` counts once per worker each time the class's
pages wake), on three fields whose results are drawn at random (``random.Random(seed)``, a
hidden strength per entrant):

- a class: 30 heuristics and 3 bosses, double round robin at 2 openings (2,112 games);
- the largest round robin: 43 entrants at 2 openings (3,612 games);
- the largest field: a Swiss of 200 at 4 openings (10 rounds, 8,000 games).

Wall time (best and median of ``--runs``) and the process's CPU time, and the load average
before and after. ``--against DIR``: also the fit of ``DIR/ai/teach/standings.py`` (another
checkout, e.g. main before a change), in the same run, and whether its rounded ratings are the
same.

    .venv/bin/python bench/bench_standings.py
    .venv/bin/python bench/bench_standings.py --against /work/main --runs 3
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")

from ai.teach import standings as S  # noqa: E402
from ai.teach.tournament import Entrant  # noqa: E402
from web.tournament import runner as R  # noqa: E402


def field(n: int, openings: int, seed: int) -> tuple[dict, dict[int, dict]]:
    """A live tournament's spec and every game's result (no game played: results drawn from
    each entrant's hidden strength, a draw one time in five)."""
    rng = random.Random(seed)
    spec = R.new_spec("connect4", [Entrant(f"E{i:03d}", f"cells={rng.randint(1, 9)}")
                                   for i in range(n)], 4, openings)
    strength = [rng.gauss(0, 1) for _ in range(n)]
    games: dict[int, dict] = {}
    while len(known := R.plan(spec, games)) > len(games):
        for i in range(len(games), len(known)):
            _r, _o, a, b = known[i]
            win = 1 / (1 + 10 ** (strength[b] - strength[a]))
            x = rng.random()
            res = "½-½" if x < 0.2 else "1-0" if x < 0.2 + 0.8 * win else "0-1"
            games[i] = {"first": spec["entrants"][a]["name"],
                        "second": spec["entrants"][b]["name"], "result": res}
    return spec, games


def timed(fn, runs: int) -> tuple[float, float, float]:
    """(best, median) wall ms and the median CPU ms of ``fn()`` over ``runs`` runs."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(1000 * (time.perf_counter() - w))
        cpu.append(1000 * (time.process_time() - c))
    return min(wall), statistics.median(wall), statistics.median(cpu)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="DIR",
                        help="also time DIR/ai/teach/standings.py's fit (another checkout)")
    args = parser.parse_args(argv)
    other = None
    if args.against:
        where = os.path.join(args.against, "ai", "teach", "standings.py")
        spec = importlib.util.spec_from_file_location("standings_against", where)
        other = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = other          # its dataclass looks its module up
        spec.loader.exec_module(other)
    print(f"load average before: {os.getloadavg()}")
    print("| field | games | what | best ms | median ms | CPU median ms |")
    print("|---|---|---|---|---|---|")
    for label, n, k in (("class: 30 + 3 bosses", 33, 2), ("round robin of 43", 43, 2),
                        ("Swiss of 200", 200, 4)):
        spec, games = field(n, k, args.seed)
        names = [e["name"] for e in spec["entrants"]]
        results = [S.Result(g["first"], g["second"], R._score(g))
                   for _, g in sorted(games.items())]
        rows = [("the fit", lambda: S.ratings(names, results)),
                ("standings, unrated", lambda: S.standings(names, results, rate=False)),
                ("standings, rated", lambda: S.standings(names, results)),
                ("the live page's count", lambda: (R.results(spec, games, rate=True),
                                                  R.sat_out(spec, games)))]
        if other is not None:
            theirs = [other.Result(r.first, r.second, r.score) for r in results]
            same = other.ratings(names, theirs) == S.ratings(names, results)
            rows.append((f"the fit of {args.against} (same ratings: {same})",
                         lambda: other.ratings(names, theirs)))
        for what, fn in rows:
            runs = 1 if what.startswith("the fit of") and n > 100 else args.runs
            best, med, cpu = timed(fn, runs)
            print(f"| {label} | {len(games):,} | {what} | {best:.1f} | {med:.1f} | {cpu:.1f} |")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
