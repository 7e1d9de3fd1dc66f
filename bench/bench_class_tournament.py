"""A class's tournament in the app, start to final standings: the runner of a worker
(``web.tournament.runner``) playing every game into the class store (SQLite, a temporary
file) and rating the standings, beside the engine alone on the same entrants
(``ai.teach.tournament.run`` in this process, no store), for any game with tournaments.

    .venv/bin/python bench/bench_class_tournament.py --game tictactoe --depth 2

30 random heuristics over the game's terms (a class) and three bosses (beginner, easy,
medium), 2 openings, both colours: 2,112 games. Wall and CPU time of each; the machine's load
is printed beside them (the figures depend on it: docs/benchmarks.md says at which).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ai.teach import tournament as T  # noqa: E402
from app import create_app  # noqa: E402
from test_classroom import start_class  # noqa: E402
from web.classroom.tournaments import tournaments_of  # noqa: E402
from web.tournament.game import by_name  # noqa: E402
from web.tournament.live import runner  # noqa: E402

BOSSES = ("beginner", "easy", "medium")


def heuristics(terms, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"S{i:02d}:" + ",".join(f"{t}={rng.randint(-3, 9)}" for t in rng.sample(terms, 3))
            for i in range(n)]


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tictactoe", help="a game with tournaments")
    parser.add_argument("--entrants", type=int, default=30, help="heuristic entrants (30)")
    parser.add_argument("--depth", type=int, default=2, help="every heuristic's depth (2)")
    parser.add_argument("--openings", type=int, default=2, help="openings (2)")
    parser.add_argument("--seed", type=int, default=1, help="the heuristics' seed (1)")
    args = parser.parse_args()
    tg = by_name(args.game)
    lines = heuristics(tg.terms, args.entrants, args.seed)
    print(f"load average before: {os.getloadavg()}")

    entrants = [T.entrant(tg.rules, x) for x in lines] + [T.boss(b) for b in BOSSES]
    data, w, c = timed(lambda: T.run(tg.rules, entrants, args.depth, args.openings,
                                     runner=T.local))
    print(f"engine alone: {len(data['games'])} games, wall {w:.2f} s, cpu {c:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "CLASS_DB": os.path.join(tmp, "c.sqlite3"),
                          "REDIS_URL": "", "TOURNAMENT_RUNNER": "manual",
                          "SOLVER_WARM_UP": False})
        try:
            teacher, code, _ = start_class(app, f"/{args.game}?mode=human-human")
            r = teacher.post(f"/{args.game}/tournament/live/{code}/start", data={
                "lines": "\n".join(lines), "boss": list(BOSSES), "depth": str(args.depth),
                "openings": str(args.openings)})
            assert r.status_code == 303, r.status_code
            with app.app_context():
                n, w, c = timed(lambda: runner().advance(code))
            t = tournaments_of(app.extensions["class_store"]).get(code)
            print(f"class tournament in the app: {n} games, {t.spec['state']}, "
                  f"wall {w:.2f} s, cpu {c:.2f} s")
        finally:
            app.extensions["class_hub"].stop()
            app.extensions["class_store"].close()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
