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

With ``--live``, the app's own tournament instead (what a teacher runs): the same server, a
class made by a teacher (its cookie), the teacher's projector following the live page's
stream (``/connect4/tournament/live/<code>/events``: each wake counts the standings, rated),
the heuristics and bosses started by the page's form (``POST .../start``), played by the
worker's runner in its games' lane; ``GET /`` timed the same way, idle then while it runs;
the wall time from the start to the final standings in the class store (``state`` done,
read from the store's SQLite file, which the bench only reads).

    .venv/bin/python bench/bench_tournament.py                  # 30 + 3 bosses, depth 4
    .venv/bin/python bench/bench_tournament.py --depth 6
    .venv/bin/python bench/bench_tournament.py --serve --depth 4
    .venv/bin/python bench/bench_tournament.py --live --depth 4
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
import re  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from urllib.parse import urlencode  # noqa: E402

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
    print(f"{len(entrants)} entrants, {args.openings} openings, depth {args.depth}, "
          f"{args.game}: {len(data['games'])} games, beside the server ({args.workers} workers)")
    print(f"the tournament's process: {wall:.2f} s from its start to its JSON; its work "
          f"(timing.total_ms) {timing['total_ms'] / 1000:.2f} s, start-up "
          f"{timing.get('startup_ms', 0) / 1000:.2f} s; games {timing['games_ms'] / 1000:.2f} s "
          f"({timing['games_per_second']:.0f} a second), standings "
          f"{timing['standings_ms'] / 1000:.2f} s")
    print_beside(times, statuses, load, after)
    return 0


def live(args, entrants) -> int:
    """The app's own tournament, played in its games' lane beside ``GET /`` (--live)."""
    import sqlite3
    import threading

    from attack import Server, start_server        # bench/attack.py: the server on a free port

    server: Server = start_server(args.workers)
    times: dict[str, list[float]] = {"idle": [], "tournament": [], "after": []}
    statuses: dict[str, list] = {"idle": [], "tournament": [], "after": []}
    phase = ["idle"]
    stop = threading.Event()
    woken = [0, 0]                  # the projector's live events, those with ratings

    def probe():
        while not stop.is_set():
            start = time.perf_counter()
            status, _ = server.request("GET", "/", timeout=30)
            times[phase[0]].append((time.perf_counter() - start) * 1000)
            statuses[phase[0]].append(status)
            time.sleep(0.02)

    def projector(code, cookie):
        """The teacher's projector: the live page's stream, read to its end."""
        import http.client
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        try:
            c.request("GET", f"/connect4/tournament/live/{code}/events",
                      headers={"Cookie": cookie, "Accept": "text/event-stream"})
            r = c.getresponse()
            event = False
            while not stop.is_set():
                line = r.fp.readline()
                if not line:
                    break
                if line.startswith(b"event: live"):
                    woken[0] += 1
                    event = True
                elif line.startswith(b"event:"):
                    event = False
                elif event and "±".encode() in line:     # its standings carry ratings
                    woken[1] += 1
                    event = False
        except OSError:
            pass
        finally:
            c.close()

    def state(code):
        db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True, timeout=5)
        try:
            row = db.execute("SELECT body FROM tournaments WHERE code = ?", (code,)).fetchone()
            n = db.execute("SELECT COUNT(*) FROM tournament_games WHERE code = ?",
                           (code,)).fetchone()[0]
        except sqlite3.Error:
            return None, 0, None
        finally:
            db.close()
        spec = json.loads(row[0]) if row else {}
        return spec.get("state"), n, spec.get("final")

    try:
        status, r = server.request("POST", "/class", "link=/connect4",
                                   {"Content-Type": "application/x-www-form-urlencoded"})
        code = re.search(r"(?:/class/|cls=)([A-Z0-9]+)", r.getheader("Location")).group(1)
        cookie = "; ".join(c.split(";", 1)[0] for c in r.msg.get_all("Set-Cookie"))
        probes = [threading.Thread(target=probe, daemon=True) for _ in range(2)]
        for t in probes:
            t.start()
        time.sleep(args.idle)
        lines = "\n".join(f"{e.name}:{e.heuristic}" for e in entrants if not e.level)
        body = urlencode([("lines", lines), ("depth", args.depth), ("openings", args.openings)]
                         + [("boss", e.level) for e in entrants if e.level])
        load = os.getloadavg()
        phase[0] = "tournament"
        wall = time.perf_counter()
        status, _ = server.request("POST", f"/connect4/tournament/live/{code}/start", body,
                                   {"Content-Type": "application/x-www-form-urlencoded",
                                    "Cookie": cookie}, timeout=60)
        if status != 303:
            sys.exit(f"the start answered {status}")
        # the projector's page, on the start's redirect, opens the stream
        threading.Thread(target=projector, args=(code, cookie), daemon=True).start()
        while True:
            done, played, final = state(code)
            if done == "done":
                break
            if time.perf_counter() - wall > args.most:
                sys.exit(f"not over after {args.most} s ({played} games)")
            time.sleep(0.1)
        wall = time.perf_counter() - wall
        phase[0] = "after"
        after = os.getloadavg()
        stop.set()
        for t in probes:
            t.join(35)
    finally:
        stop.set()
        server.proc.terminate()
        server.proc.wait(30)
    print(f"{len(entrants)} entrants, {args.openings} openings, depth {args.depth}: {played} "
          f"games, the app's own tournament (its games' lane; the server's {args.workers} "
          f"workers), the projector's stream woken {woken[0]} times, {woken[1]} of them "
          f"with the standings rated")
    print(f"wall time from the start to the final standings: {wall:.2f} s "
          f"({played / wall:.0f} games a second); rated: "
          f"{all(r['rating'] is not None for r in final['standings'])}")
    print_beside(times, statuses, load, after)
    return 0


def print_beside(times, statuses, load, after) -> None:
    """The plain page's side of a run: `GET /` p95 idle and while the tournament ran, its
    5xx and errors, and the load average before and after."""
    bad = {k: sum(1 for s in v if s == "error" or s >= 500) for k, v in statuses.items()}
    print(f"GET / p95: idle {p95(times['idle']):.0f} ms ({len(times['idle'])} requests), "
          f"while the tournament ran {p95(times['tournament']):.0f} ms "
          f"({len(times['tournament'])} requests); 5xx/errors {bad}")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  after: "
          f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f}  ({os.cpu_count()} cores)")


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
    parser.add_argument("--live", action="store_true",
                        help="the app's own tournament beside GET / (see above)")
    parser.add_argument("--most", type=float, default=600,
                        help="--live: seconds to wait for the final standings at most (600)")
    parser.add_argument("--workers", type=int, default=3,
                        help="--serve, --live: the server's workers")
    parser.add_argument("--idle", type=float, default=10,
                        help="--serve: seconds of GET / alone first, the baseline (10)")
    args = parser.parse_args(argv)

    game = games.load(args.game).Rules()
    entrants = [tournament.entrant(game, f"S{i + 1}:{h}")
                for i, h in enumerate(heuristics(args.game, args.entrants, args.seed))]
    entrants += [tournament.boss(b) for b in args.bosses.split(",") if b]
    if args.serve:
        return served(args, entrants)
    if args.live:
        return live(args, entrants)
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
