"""Send many random and hostile requests to every route and report what came back.

    python bench/fuzz.py                      # 10,000 requests to the app in this process
    python bench/fuzz.py --count 500 --url http://127.0.0.1:8000   # to a running server

The requests come from ``tests/fuzzing.py`` (the suite's fuzz test sends a few hundred of
the same kind). Exit status 1 if any answer is a 5xx or slower than ``--bound`` seconds.
"""
import argparse
import collections
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.fuzzing import requests  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=10_000, help="requests to send (default 10000)")
    p.add_argument("--url", help="base URL of a running server (default: the app in-process)")
    p.add_argument("--bound", type=float, default=3.0,
                   help="slowest acceptable answer, seconds (default 3; searches stop at about 1)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)

    if args.url:
        def send(url, headers):
            req = urllib.request.Request(args.url.rstrip("/") + url, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.status
            except urllib.error.HTTPError as err:
                return err.code
    else:
        from app import create_app
        client = create_app().test_client()

        def send(url, headers):
            r = client.get(url, headers=headers)
            r.close()
            return r.status_code

    statuses, slow, errors, times = collections.Counter(), [], [], []

    @settings(max_examples=args.count, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(req=requests())
    def run(req):
        url, headers = req
        start = time.perf_counter()
        status = send(url, headers)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        statuses[status] += 1
        if status >= 500:
            errors.append((status, url))
        if elapsed > args.bound:
            slow.append((round(elapsed, 2), url))

    start = time.perf_counter()
    run()
    total = time.perf_counter() - start
    times.sort()
    report = {
        "requests": len(times), "seconds": round(total, 1),
        "statuses": dict(sorted(statuses.items())),
        "p50_ms": round(times[len(times) // 2] * 1000, 1),
        "p99_ms": round(times[int(len(times) * 0.99)] * 1000, 1),
        "max_ms": round(times[-1] * 1000, 1),
        "server_errors": errors[:20], "slower_than_bound": slow[:20],
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"requests: {report['requests']} in {report['seconds']} s "
              f"({'server ' + args.url if args.url else 'in-process'})")
        print("status  count")
        for status, n in report["statuses"].items():
            print(f"{status:>6}  {n}")
        print(f"latency: p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms, max {report['max_ms']} ms")
        print(f"5xx: {len(errors)}; slower than {args.bound} s: {len(slow)}")
        for item in errors[:20] + slow[:20]:
            print("  ", item)
    return 1 if errors or slow else 0


if __name__ == "__main__":
    sys.exit(main())
