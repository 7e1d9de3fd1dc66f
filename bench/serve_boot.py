"""Start-up, memory per worker and restarts of the README's server (``scripts/serve``, with
gunicorn.conf.py), with the exact solver loaded once in the master (PRELOAD_SOLVER=1, the
default) or in every worker (PRELOAD_SOLVER=0), side by side in one run.

    python bench/serve_boot.py                     # both ways, 3 workers, 3 restarts each
    python bench/serve_boot.py --busy 2            # with 2 busy processes beside (yes > /dev/null)
    python bench/serve_boot.py --only preload --restarts 5
    python bench/serve_boot.py --only preload --busy 2 --compare /tmp/before
                                                   # and another checkout's server (the code
                                                   # before a change), alternately

The server is started as a person starts it, ``scripts/serve`` (which runs ``scripts/setup``'s
quick checks first), on a free loopback port (``BIND``) with ``--workers`` workers
(``WEB_CONCURRENCY``); a checkout given to ``--compare`` must have been set up once
(``scripts/setup``).

For each way, alternately (``--rounds`` times):

- **start**: from running ``scripts/serve`` to the
  first 200 for ``GET /`` and to the first 200 for an AI reply (the default level, ``hard``),
  how long that first AI reply itself took (asked once ``GET /`` answered), and the CPU
  time the server (master and workers) used until then (less dependent on what else the
  machine runs than the wall-clock time);
- **memory** once every worker has answered a few AI replies: each process's RSS, PSS and USS
  (its own pages: Private_Clean + Private_Dirty), read from /proc/<pid>/smaps_rollup;
- **restart** (``--restarts`` times): from SIGTERM to the master (as systemd or Ctrl-C does)
  until a new server answers ``GET /`` with a 200 and an AI reply with a 200;
- **reload** (SIGHUP, gunicorn's code reload): until every worker is a new one and an AI reply
  comes from a new one.

Times are wall-clock on this machine (its load printed before and after): compare the two ways
of the same run, not figures of different runs. Linux only (/proc).
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the default level's reply to a first move (the page's own request when a person plays 4)
AI_REPLY = "/connect4/ai?moves=4&mode=human-ai&level=hard"
WAYS = {"preload": "1", "per-worker": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(url: str) -> int | None:
    """The answer's status (as the page asks: htmx's header, so an AI reply is the search's
    answer itself, not a redirect to the page); None when the server does not answer."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"HX-Request": "true"}),
                                    timeout=30) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return None


def wait_200(url: str, since: float, limit: float = 300.0, took: list | None = None) -> float:
    """Seconds from ``since`` until ``url`` answers 200 (polled every 20 ms); the seconds
    the answer itself took are appended to ``took``."""
    while True:
        asked = time.perf_counter()
        if status(url) == 200:
            break
        if time.perf_counter() - since > limit:
            raise RuntimeError(f"no 200 from {url} after {limit:.0f} s")
        time.sleep(0.02)
    if took is not None:
        took.append(time.perf_counter() - asked)
    return time.perf_counter() - since


def start(root: Path, port: int, workers: int, preload: str, log) -> subprocess.Popen:
    """``scripts/serve`` of the checkout ``root`` (it ends by exec'ing gunicorn: the process
    is the server's master)."""
    env = {**os.environ, "PRELOAD_SOLVER": preload, "BIND": f"127.0.0.1:{port}",
           "WEB_CONCURRENCY": str(workers)}
    return subprocess.Popen([str(root / "scripts" / "serve")], cwd=root, env=env, stdout=log,
                            stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) of a server: its master and its workers alive now."""
    total = 0.0
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def memory(pid: int) -> dict[str, float]:
    """RSS, PSS and USS of a process, in MB (/proc/<pid>/smaps_rollup)."""
    kb = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        kb[name] = int(rest.split()[0])
    return {"rss": kb["Rss"] / 1024, "pss": kb["Pss"] / 1024,
            "uss": (kb["Private_Clean"] + kb["Private_Dirty"]) / 1024}


def one_way(way: str, root: Path, args, log) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out: dict = {"start_page": [], "start_ai": [], "start_cpu": [], "first_ai": [],
                 "restart_page": [], "restart_ai": [], "reload_ai": []}
    t0 = time.perf_counter()
    proc = start(root, port, args.workers, WAYS[way], log)
    try:
        out["start_page"].append(wait_200(base + "/", t0))
        out["start_ai"].append(wait_200(base + AI_REPLY, t0, took=out["first_ai"]))
        out["start_cpu"].append(cpu_seconds(proc.pid))
        # every worker answers a few AI replies (a new connection each: spread over them)
        for i in range(4 * args.workers):
            status(base + AI_REPLY + f"&r={i}")
        time.sleep(1.0)
        workers = children(proc.pid)
        out["master"] = memory(proc.pid)
        out["workers"] = [memory(w) for w in workers]
        for _ in range(args.restarts):
            t0 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
            proc = start(root, port, args.workers, WAYS[way], log)
            out["restart_page"].append(wait_200(base + "/", t0))
            out["restart_ai"].append(wait_200(base + AI_REPLY, t0))
        for _ in range(args.reloads):
            old = set(children(proc.pid))
            t0 = time.perf_counter()
            proc.send_signal(signal.SIGHUP)
            while len(set(children(proc.pid)) & old) or len(children(proc.pid)) < args.workers:
                if time.perf_counter() - t0 > 300:
                    raise RuntimeError("the workers were not replaced after 300 s")
                time.sleep(0.02)
            out["reload_ai"].append(wait_200(base + AI_REPLY, t0))
    finally:
        stop(proc)
    return out


def fmt(values: list[float]) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f} s"
    return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (default 3: "
                        "a 2-core machine's, cores + 1)")
    parser.add_argument("--busy", type=int, default=0,
                        help="busy processes beside (yes > /dev/null), ended at the end")
    parser.add_argument("--rounds", type=int, default=1, help="starts of each way (alternated)")
    parser.add_argument("--restarts", type=int, default=3, help="SIGTERM-and-start, per round")
    parser.add_argument("--reloads", type=int, default=1, help="SIGHUP reloads, per round")
    parser.add_argument("--only", choices=sorted(WAYS), help="one way only")
    parser.add_argument("--compare", type=Path, metavar="CHECKOUT",
                        help="another checkout's server too (set up: scripts/setup), "
                             "alternately with this one's")
    args = parser.parse_args()
    roots = {"": ROOT}
    if args.compare:
        roots = {f"{args.compare.resolve()}: ": args.compare.resolve(), "this checkout: ": ROOT}
    ways = [(label + way, root, way) for label, root in roots.items()
            for way in ([args.only] if args.only else ["per-worker", "preload"])]
    busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    log_path = ROOT / "test-artifacts" / "serve_boot.log"
    log_path.parent.mkdir(exist_ok=True)
    results: dict[str, dict] = {name: {} for name, _, _ in ways}
    try:
        print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
              f"{args.workers} workers, {args.busy} busy processes beside", flush=True)
        with open(log_path, "ab") as log:
            for _ in range(args.rounds):
                for name, root, way in ways:
                    r = one_way(way, root, args, log)
                    for key, value in r.items():
                        if isinstance(value, list) and value and isinstance(value[0], float):
                            results[name].setdefault(key, []).extend(value)
                        else:
                            results[name].setdefault(key, []).append(value)
        print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        for p in busy:
            p.kill()
            p.wait()
    for name, _, way in ways:
        r = results[name]
        print(f"\n{name} (PRELOAD_SOLVER={WAYS[way]}):")
        print(f"  start to first 200 for GET /: {fmt(r['start_page'])}; for an AI reply: "
              f"{fmt(r['start_ai'])}")
        print(f"  CPU of the server (master and workers) until then: "
              f"{fmt(r['start_cpu'])}; the first AI reply itself took {fmt(r['first_ai'])}")
        print(f"  SIGTERM to first 200 of the new server, GET /: {fmt(r['restart_page'])}; "
              f"AI reply: {fmt(r['restart_ai'])}")
        print(f"  SIGHUP to every worker new and an AI reply: {fmt(r['reload_ai'])}")
        for i, (master, workers) in enumerate(zip(r["master"], r["workers"])):
            print(f"  memory (round {i + 1}, MB): master RSS {master['rss']:.0f} PSS "
                  f"{master['pss']:.0f} USS {master['uss']:.0f}")
            for w in workers:
                print(f"    worker RSS {w['rss']:.0f}  PSS {w['pss']:.0f}  USS {w['uss']:.0f}")
            total = master["pss"] + sum(w["pss"] for w in workers)
            print(f"    the server's PSS in all: {total:.0f} MB")


if __name__ == "__main__":
    main()
