"""Class mode under load, on loopback: one class of 60 followers and 10 classes of 30 (360 live
pages), against the README's server (gunicorn with gevent workers, started here); then the
same with two app instances sharing a Redis server (the followers split between them).

    python bench/class_load.py                 # SQLite (the default store), then Redis
    python bench/class_load.py --only sqlite   # or --only redis; --moves 15 --interval 1.0

Each teacher makes ``--moves`` moves of Nim (a page change sent as the teacher's page does,
``POST /class/<code>/sync``), about one every ``--interval`` seconds, the classes out of step.
Each follower is a student's page: ``GET /c/<code>`` for its anonymous id, then the live stream
``/c/<code>/events``, read as a browser does. Measured:

- the time from the teacher's move (before its POST) to the event reaching the *last*
  follower of the class: p50, p95, max over every move of every class;
- lost events: a move whose board never reached a follower (within 15 s);
- votes: every teacher opens a vote, every follower votes once and then tries a second ballot
  (refused), as fast as 100 concurrent clients go: ballots per second held (both kinds), and
  the counts the teachers' pages show against the number of followers (lost or double
  ballots).

Everything is bounded (at most 360 streams, 720 ballots, a few hundred moves) and on
127.0.0.1 only. The client is one gevent process on the same two cores as the server: the
figures include its own work. Prints a table; timings belong here, never in tests.
"""
from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gevent.pool import Pool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLASSES = [60] + [30] * 10          # followers per class
PLAYED = re.compile(r"(\d+) moves? played")
VOTES = re.compile(r"Vote open: (\d+) votes?")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, proc, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{what} stopped at start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            gevent.sleep(0.1)
    sys.exit(f"{what} did not start")


def start_server(port: int, env: dict, log):
    proc = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "app:create_app()"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_for(port, proc, "gunicorn")
    return proc


def request(port, method, path, body=None, cookies="", headers=None):
    """One request on a fresh loopback connection: (status, headers, body text)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = {"Cookie": cookies, **(headers or {})}
    if body is not None:
        body = urllib.parse.urlencode(body)
        h["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=h)
    r = conn.getresponse()
    data = r.read().decode()
    conn.close()
    return r.status, r, data


def cookie_of(response, name) -> str:
    for key, value in response.getheaders():
        if key.lower() == "set-cookie" and value.startswith(name + "="):
            return value.split(";", 1)[0]
    return ""


class Teacher:
    def __init__(self, port, followers):
        self.port, self.followers = port, followers
        status, r, _ = request(port, "POST", "/class",
                               {"link": "/nim?n=60&k=3&mode=human-human"})
        teach = urllib.parse.urlsplit(r.getheader("Location"))
        self.code = teach.path.split("/")[2]
        _, r, _ = request(port, "GET", f"{teach.path}?{teach.query}")
        self.cookie = cookie_of(r, "teach")
        self.sent = {}                   # move number -> time its POST started

    def play(self, moves, interval):
        gevent.sleep(random.uniform(0, interval))          # classes out of step
        for i in range(1, moves + 1):
            self.sent[i] = time.monotonic()
            status, _, _ = request(self.port, "POST", f"/class/{self.code}/sync",
                                   {"link": f"/nim?n=60&k=3&mode=human-human&moves={'1' * i}"},
                                   self.cookie, {"HX-Request": "true"})
            assert status == 204, status
            gevent.sleep(interval * random.uniform(0.8, 1.2))

    def vote(self, action):
        status, _, _ = request(self.port, "POST", f"/class/{self.code}/vote",
                               {"action": action}, self.cookie, {"HX-Request": "true"})
        assert status == 200, status

    def counted(self) -> int:
        _, _, page = request(self.port, "GET",
                             f"/nim?n=60&k=3&mode=human-human&cls={self.code}", None,
                             self.cookie)
        found = VOTES.search(page)
        return int(found.group(1)) if found else 0


class Follower:
    """A student's page: its anonymous id, then its live stream, read line by line."""

    def __init__(self, port, code):
        self.port, self.code = port, code
        _, r, _ = request(port, "GET", f"/c/{code}")
        self.cookie = cookie_of(r, "student")
        self.seen = {}                   # move number -> time its board arrived
        self.vote_open = gevent.event.Event()
        self.connected = gevent.event.Event()

    def listen(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", f"/c/{self.code}/events", headers={"Cookie": self.cookie})
        r = conn.getresponse()
        assert r.status == 200, r.status
        self.connected.set()
        event, data = None, []
        try:
            while True:
                line = r.readline().decode()
                if not line:
                    return
                line = line.rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif not line and event:
                    text = "\n".join(data)
                    if event == "board":
                        played = PLAYED.search(text)
                        n = int(played.group(1)) if played else 0
                        self.seen.setdefault(n, time.monotonic())
                    elif event == "vote" and 'name="choice"' in text:
                        self.vote_open.set()
                    event, data = None, []
        finally:
            conn.close()

    def vote(self):
        """One ballot, then a second one that must be refused; True when the first counted."""
        choice = str(random.randint(1, 3))
        s1, _, first = request(self.port, "POST", f"/c/{self.code}/vote",
                               {"round": "1", "choice": choice}, self.cookie,
                               {"HX-Request": "true"})
        request(self.port, "POST", f"/c/{self.code}/vote",
                {"round": "1", "choice": "1"}, self.cookie, {"HX-Request": "true"})
        return s1 == 200 and "Your vote" in first


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(name, ports, moves, interval):
    teachers = [Teacher(ports[0], n) for n in CLASSES]
    followers = {t.code: [Follower(ports[i % len(ports)], t.code) for i in range(t.followers)]
                 for t in teachers}
    everyone = [f for fs in followers.values() for f in fs]
    listeners = [gevent.spawn(f.listen) for f in everyone]
    for f in everyone:
        if not f.connected.wait(30):
            sys.exit("a follower could not connect")
    gevent.joinall([gevent.spawn(t.play, moves, interval) for t in teachers])
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(moves not in f.seen for f in everyone):
        gevent.sleep(0.2)
    last, lost = [], 0
    for t in teachers:
        for i in range(1, moves + 1):
            arrivals = [f.seen.get(i) for f in followers[t.code]]
            lost += arrivals.count(None)
            got = [a for a in arrivals if a is not None]
            if got:
                last.append(max(got) - t.sent[i])
    # votes: every class opens one, every follower votes (and tries again)
    for t in teachers:
        t.vote("open")
    for f in everyone:
        f.vote_open.wait(15)
    pool = Pool(100)
    start = time.monotonic()
    accepted = sum(pool.imap_unordered(lambda f: f.vote(), everyone))
    elapsed = time.monotonic() - start
    counted = sum(t.counted() for t in teachers)
    for g in listeners:
        g.kill()
    ms = [x * 1000 for x in last]
    return dict(name=name, streams=len(everyone), moves=len(ms), p50=statistics.median(ms),
                p95=percentile(ms, 95), max=max(ms), lost=lost, ballots=2 * len(everyone),
                accepted=accepted, counted=counted, expected=len(everyone),
                vps=2 * len(everyone) / elapsed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("sqlite", "redis"), help="run one store only")
    parser.add_argument("--moves", type=int, default=15, help="moves per teacher (at most 50)")
    parser.add_argument("--interval", type=float, default=1.0,
                        help="seconds between a teacher's moves (at least 0.2)")
    args = parser.parse_args()
    moves, interval = min(args.moves, 50), max(args.interval, 0.2)
    tmp = Path(tempfile.mkdtemp(prefix="class-load-"))
    log = open(tmp / "servers.log", "wb")
    servers, results = [], []
    load_before = os.getloadavg()
    try:
        if args.only in (None, "sqlite"):
            env = {**os.environ, "CLASS_DB": str(tmp / "classes.sqlite3")}
            env.pop("REDIS_URL", None)
            port = free_port()
            servers.append(start_server(port, env, log))
            results.append(run("SQLite, one instance", [port], moves, interval))
            for s in servers:
                s.terminate()
                s.wait()
            servers.clear()
        if args.only in (None, "redis"):
            redis_port = free_port()
            redis = subprocess.Popen(
                [shutil.which("redis-server") or "/usr/bin/redis-server", "--port",
                 str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(tmp)], stdout=log, stderr=subprocess.STDOUT)
            servers.append(redis)
            wait_for(redis_port, redis, "redis-server")
            env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
            ports = [free_port(), free_port()]
            servers.extend(start_server(p, env, log) for p in ports)
            results.append(run("Redis, two instances", ports, moves, interval))
    finally:
        for s in servers:
            s.terminate()
            s.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    cores = os.cpu_count()
    workers = os.environ.get("WEB_CONCURRENCY", cores + 1)
    print(f"\n{cores} cores, {workers} gevent workers per instance; load average before "
          f"{load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}; {moves} moves per teacher, "
          f"one every ~{interval:g} s; classes of {', '.join(map(str, CLASSES))}\n")
    print("| store | live pages | moves | move → last follower p50 | p95 | max | lost events "
          "| ballots sent | ballots/s | counted / followers |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | {r['streams']} | {r['moves']} | {r['p50']:.0f} ms | "
              f"{r['p95']:.0f} ms | {r['max']:.0f} ms | {r['lost']} | {r['ballots']} "
              f"| {r['vps']:.0f} | {r['counted']} / {r['expected']} |")


if __name__ == "__main__":
    main()
