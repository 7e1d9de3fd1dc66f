"""Send many random and hostile requests to every route and report what came back.

    python bench/fuzz.py                      # 10,000 requests to the app in this process
    python bench/fuzz.py --count 500 --url http://127.0.0.1:8000   # to a running server

The requests come from ``tests/fuzzing.py`` (``hostile_requests``: GET, HEAD and form POSTs,
hostile parameters, url_for's own names, Host headers that are no host name; the suite's
fuzz tests send a few hundred of the same kind). Exit status 1 if any answer is a 5xx or
slower than ``--bound`` seconds. Against a server, one keep-alive connection at a time
(opened again when the server closes it), as a browser would.
"""
import argparse
import collections
import http.client
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.fuzzing import hostile_requests, wsgi_status  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=10_000, help="requests to send (default 10000)")
    p.add_argument("--url", help="base URL of a running server (default: the app in-process)")
    p.add_argument("--bound", type=float, default=3.0,
                   help="slowest acceptable answer, seconds (default 3; searches stop at about 1)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)

    if args.url:
        host, _, port = args.url.removeprefix("http://").rstrip("/").partition(":")
        conn = [None]

        def send(method, url, headers, body):
            for attempt in range(2):
                if conn[0] is None:
                    conn[0] = http.client.HTTPConnection(host, int(port or 80), timeout=30)
                c = conn[0]
                try:
                    c.putrequest(method, url, skip_host="Host" in headers,
                                 skip_accept_encoding=True)
                    for name, value in headers.items():
                        c.putheader(name, value.encode("utf-8"))
                    if body is not None:
                        c.putheader("Content-Length", str(len(body)))
                    c.endheaders(body)
                    r = c.getresponse()
                    r.read()
                    if r.will_close:
                        c.close()
                        conn[0] = None
                    return r.status
                except (http.client.HTTPException, OSError) as err:
                    c.close()
                    conn[0] = None
                    if attempt:
                        return f"no answer ({type(err).__name__})"
    else:
        from app import create_app
        app = create_app()

        def send(method, url, headers, body):
            return wsgi_status(app, method, url, headers, body)

    statuses, slow, errors, times = collections.Counter(), [], [], []

    @settings(max_examples=args.count, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(req=hostile_requests())
    def run(req):
        method, url, headers, body = req
        start = time.perf_counter()
        status = send(method, url, headers, body)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        statuses[status] += 1
        if isinstance(status, str) or status >= 500:
            errors.append((status, method, url, headers.get("Host"), body))
        if elapsed > args.bound:
            slow.append((round(elapsed, 2), url))

    start = time.perf_counter()
    run()
    total = time.perf_counter() - start
    times.sort()
    report = {
        "requests": len(times), "seconds": round(total, 1),
        "statuses": dict(sorted(statuses.items(), key=str)),
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
        for status, n in sorted(report["statuses"].items(), key=str):
            print(f"{status:>6}  {n}")
        print(f"latency: p50 {report['p50_ms']} ms, p99 {report['p99_ms']} ms, max {report['max_ms']} ms")
        print(f"5xx: {len(errors)}; slower than {args.bound} s: {len(slow)}")
        for item in errors[:20] + slow[:20]:
            print("  ", item)
    return 1 if errors or slow else 0


if __name__ == "__main__":
    sys.exit(main())
