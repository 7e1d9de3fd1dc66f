"""Bursts of the most expensive requests the app allows, while plain pages are timed.

    python bench/burst.py                 # starts scripts/serve on a free port, 3 bursts of 20
    python bench/burst.py --url http://127.0.0.1:8000 --bursts 5 --size 40

Each burst sends ``--size`` requests at once for a 9x9 board, minimax to depth 8 with the
1 s budget and the tree panel (the worst request within the limits); meanwhile a prober loads
plain pages (/connect4, /nim, a static file, the home page) one after another. Prints the
burst's answers by status and the plain pages' latency (p50, p95, max). Goal (issue 11):
plain pages p95 <= 200 ms during the bursts. Loopback only.
"""
import argparse
import collections
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("/connect4/ai?w=9&h=9&mode=ai-human&level=custom&algo=minimax&depth=8&time=1000"
         "&tree=1&r={i}")
PLAIN = ["/connect4", "/nim?n=11", "/static/app.css", "/", "/connect4?moves=4453"]


def get(url, timeout=30):
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as err:
        status = err.code
    except OSError:
        status = "error"
    return status, (time.perf_counter() - start) * 1000


def serve():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(ROOT / "scripts/serve")], cwd=ROOT,
                            env={**os.environ, "BIND": f"127.0.0.1:{port}"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        if get(base + "/", 1)[0] == 200:
            return proc, base
        time.sleep(0.2)
    proc.kill()
    sys.exit("the server did not start")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (default: start scripts/serve)")
    p.add_argument("--bursts", type=int, default=3)
    p.add_argument("--size", type=int, default=20, help="requests per burst (default 20)")
    args = p.parse_args(argv)
    proc, base = (None, args.url.rstrip("/")) if args.url else serve()
    try:
        statuses, heavy_ms, plain_ms = collections.Counter(), [], []
        for b in range(args.bursts):
            stop = threading.Event()

            def probe():
                i = 0
                while not stop.is_set():
                    plain_ms.append(get(base + PLAIN[i % len(PLAIN)])[1])
                    i += 1
            prober = threading.Thread(target=probe)
            prober.start()
            start = time.perf_counter()
            with ThreadPoolExecutor(args.size) as pool:
                for status, ms in pool.map(get, [base + HEAVY.format(i=f"{b}-{i}")
                                                 for i in range(args.size)]):
                    statuses[status] += 1
                    heavy_ms.append(ms)
            busy_s = time.perf_counter() - start
            stop.set()
            prober.join()
            print(f"burst {b + 1}: {args.size} heavy requests answered in {busy_s:.2f} s")
        plain_ms.sort()
        p95 = plain_ms[int(len(plain_ms) * 0.95)] if plain_ms else float("nan")
        print()
        print("| heavy answers | " + " | ".join(f"{s}: {n}" for s, n in sorted(statuses.items(), key=str)) + " |")
        print(f"| heavy latency | p50 {statistics.median(heavy_ms):.0f} ms | max {max(heavy_ms):.0f} ms |")
        print(f"| plain pages during bursts ({len(plain_ms)}) | p50 {statistics.median(plain_ms):.0f} ms"
              f" | p95 {p95:.0f} ms | max {plain_ms[-1]:.0f} ms | goal p95 <= 200 ms: "
              f"{'met' if p95 <= 200 else 'NOT met'} |")
        return 0 if p95 <= 200 and "error" not in statuses else 1
    finally:
        if proc:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    sys.exit(main())
