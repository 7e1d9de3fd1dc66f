"""Class mode under load, on loopback, against the README's server (gunicorn with gevent
workers, started here): one class of 100 followers on one instance (SQLite, the default
store: a teacher's laptop), then 300 followers (three classes of 100) on two app instances
sharing a Redis server (the followers split between them).

    python bench/class_load.py                 # SQLite (100 followers), then Redis (300)
    python bench/class_load.py --only sqlite   # or --only redis; --moves 15 --interval 1.0
    python bench/class_load.py --sqlite 60,30,30 --redis 100,100,100 --stall 0.1 --rounds 10

Each teacher makes ``--moves`` moves of Nim (a page change sent as the teacher's page does,
``POST /class/<code>/sync``), about one every ``--interval`` seconds, the classes out of step.
Each follower is a student's page: ``GET /c/<code>`` for its anonymous id, then the live stream
``/c/<code>/events``, read as a browser does. Measured:

- the time from the teacher's move (before its POST) to the event reaching the *last*
  follower of the class: p50, p95, max over every move of every class;
- the same delay to *each* follower (every move, every follower): p50, p95, max;
- lost events: a move whose board never reached a follower (within 15 s);
- stalls: ``--stall`` of the followers (10 %) go deaf halfway through the moves (their
  connection stays open but nothing reaches them, as a phone asleep or a half-open Wi-Fi);
  each notices as the page does (no event, heartbeat included, for two heartbeat periods and
  2 s), drops the stream and opens another: recovered when the new stream brings the board
  of the teacher's latest move (the time from going deaf to that board is reported);
- votes: every teacher opens a vote, every follower votes once and then tries a second ballot
  (refused), as fast as 100 concurrent clients go: ballots per second held (both kinds), and
  the counts the teachers' pages show against the number of followers (lost or double
  ballots);
- a reveal then play (issue 36), ``--rounds`` times per class, one class at a time: the
  teacher closes the vote, shows its counts (hidden by default), reveals the AI's choice, then
  at once plays the class's choice as its page does (the bar's "Play the class's choice"
  link, ``GET`` with htmx, then the sync ``POST`` of the link it pushes); each follower votes
  in every round but the first (that is the ballot test above). Measured as a move is: from
  the sync's ``POST`` to the board reaching each follower and the last, beside the time of
  the sync request alone (a plain move's too), of the click's request, and from the click to
  the last follower (each worker draws the game's page a few times before: its first drawing
  compiles the templates);
- the server's own CPU per change: the CPU time (user + system, from ``/proc``) of the app's
  processes, the gunicorn masters and their workers, during the moves divided by the moves
  made, less the streams' upkeep (heartbeats, the listeners; measured for a few seconds
  before the moves, with nothing happening, and printed); for a reveal then play, per round,
  from the close to the play's last follower (the close, the counts shown, the reveal with
  its AI search and exact outcomes, the play): figures the machine's load does not change
  much, where the delays above grow with it.

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

import html  # noqa: E402

import gevent  # noqa: E402
from gevent.pool import Pool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SQLITE_CLASSES = [100]              # followers per class, one instance
REDIS_CLASSES = [100, 100, 100]     # two instances sharing Redis
PLAYED = re.compile(r"(\d+) moves? played")
VOTES = re.compile(r"(\d+) of \d+ answered")    # counts hidden while the vote is open
PLAY_LINK = re.compile(r'href="([^"]+)"[^>]*data-key="class-play"')   # the bar's play button
TICKS = os.sysconf("SC_CLK_TCK")
WORKERS = int(os.environ.get("WEB_CONCURRENCY", (os.cpu_count() or 1) + 1))   # gunicorn's
IDLE_SECONDS = 4.0                  # the streams' upkeep is measured this long, before the moves


def server_cpu(pids) -> float:
    """Seconds of CPU (user + system) used so far by the processes ``pids`` and their
    children (a gunicorn master and its workers), read from /proc; a worker that has exited
    (recycled) no longer counts, which the runs here are too short to meet."""
    pids = set(pids)
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = (Path("/proc") / entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state, ppid, ... utime (14th field of the line) and stime (15th)
        if int(entry) in pids or int(fields[1]) in pids:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


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
        # the answer makes this client the teacher (a cookie) and opens the board (cls=)
        board = urllib.parse.urlsplit(r.getheader("Location"))
        self.code = urllib.parse.parse_qs(board.query)["cls"][0]
        self.cookie = cookie_of(r, "teach")
        self.sent = {}                   # move number -> time its POST started
        self.synced = []                 # seconds each sync request took (plain moves)
        self.clicked = {}                # move number -> time of the click on "Play..."
        self.play_syncs = []             # seconds each sync request took (after a reveal)
        self.play_gets = []              # seconds each click's request took (the move)
        self.moves = 0                   # moves played so far

    def play(self, moves, interval):
        gevent.sleep(random.uniform(0, interval))          # classes out of step
        for i in range(1, moves + 1):
            self.sent[i] = time.monotonic()
            status, _, _ = request(self.port, "POST", f"/class/{self.code}/sync",
                                   {"link": f"/nim?n=60&k=3&mode=human-human&moves={'1' * i}"},
                                   self.cookie, {"HX-Request": "true"})
            assert status == 204, status
            self.synced.append(time.monotonic() - self.sent[i])
            self.moves = i
            gevent.sleep(interval * random.uniform(0.8, 1.2))

    def vote(self, action, route="vote") -> str:
        status, _, bar = request(self.port, "POST", f"/class/{self.code}/{route}",
                                 {"action": action}, self.cookie, {"HX-Request": "true"})
        assert status == 200, status
        return bar

    def reveal_and_play(self) -> int:
        """Close the vote, show its counts when the bar hides them (peer instruction's
        default), reveal the AI's choice, then at once (the teacher's next key) play the
        class's choice as the teacher's page does: the bar's link (htmx), then the sync of the
        link it pushes. The number of the move played; None on a tie (the bar has no "Play"
        then, and the round is not timed)."""
        bar = self.vote("close")
        peer = f"/class/{self.code}/peer" in bar      # the bar's buttons post to peer's steps
        if 'value="show"' in bar:
            bar = self.vote("show", "peer")
        bar = self.vote("reveal", "peer" if peer else "vote")
        found = PLAY_LINK.search(bar)
        if not found:
            return None
        n = self.moves + 1
        self.clicked[n] = time.monotonic()
        status, r, _ = request(self.port, "GET", html.unescape(found.group(1)), None,
                               self.cookie, {"HX-Request": "true"})
        assert status == 200, status
        link = r.getheader("HX-Push-Url")
        self.sent[n] = time.monotonic()
        self.play_gets.append(self.sent[n] - self.clicked[n])
        status, _, _ = request(self.port, "POST", f"/class/{self.code}/sync", {"link": link},
                               self.cookie, {"HX-Request": "true"})
        assert status == 204, status
        self.play_syncs.append(time.monotonic() - self.sent[n])
        self.moves = n
        return n

    def warm_up(self):
        """The board's block asked for a few times, as the teacher's page does after a move:
        each worker draws the game's page once before the clicks are timed (the first
        drawing in a worker compiles its templates, ~0.1 s of CPU)."""
        for _ in range(3 * WORKERS):
            request(self.port, "GET", f"/nim?n=60&k=3&mode=human-human&moves={'1' * self.moves}"
                    f"&cls={self.code}&proj=1", None, self.cookie, {"HX-Request": "true"})

    def counted(self) -> int:
        _, _, page = request(self.port, "GET",
                             f"/nim?n=60&k=3&mode=human-human&cls={self.code}", None,
                             self.cookie)
        found = VOTES.search(page)
        return int(found.group(1)) if found else 0


class Follower:
    """A student's page: its anonymous id, then its live stream, read line by line, with the
    page's watchdog (static/app.js): no event within two heartbeat periods and 2 s, and the
    stream is replaced by a new one."""

    def __init__(self, port, code):
        self.port, self.code = port, code
        _, r, _ = request(port, "GET", f"/c/{code}")
        self.cookie = cookie_of(r, "student")
        self.seen = {}                   # move number -> time its board arrived
        self.vote_open = gevent.event.Event()
        self.connected = gevent.event.Event()
        self.period = 3.0                # the heartbeat's, told by the stream
        self.deaf_since = None           # stalled: nothing reaches this page
        self.recovered = None            # (seconds from stall to the current board)
        self.expect = None               # the move the new stream must bring
        self.refused = 0                 # streams refused (503), then tried again

    def stall(self, latest):
        """Go deaf: the connection stays open, nothing arrives (a phone asleep)."""
        self.deaf_since = time.monotonic()
        self.expect = latest

    def listen(self):
        while True:
            self._stream()
            if self.deaf_since is None:
                return
            self.deaf_since = None       # the watchdog fired: a new stream

    def _stream(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", f"/c/{self.code}/events", headers={"Cookie": self.cookie})
        r = conn.getresponse()
        if r.status != 200:              # refused (503: this worker's share of streams):
            conn.close()                 # the page's event source tries again, as here
            self.refused += 1
            gevent.sleep(float(r.getheader("Retry-After") or 1))
            return self._stream()
        self.connected.set()
        fresh = self.expect is not None and self.recovered is None
        event, data = None, []
        heard = time.monotonic()
        try:
            while True:
                line = r.readline().decode()
                if self.deaf_since is not None:
                    # nothing reaches this page any more (it reads nothing, the connection
                    # stays open); its watchdog fires two periods and 2 s after the last event
                    gevent.sleep(max(0.0, heard + 2 * self.period + 2 - time.monotonic()))
                    return                           # dropped: open another stream
                if not line:
                    return
                heard = time.monotonic()
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
                        if fresh and n >= self.expect and self.recovered is None:
                            self.recovered = time.monotonic() - self.stalled_at
                    elif event == "beat" and text.isdigit():
                        self.period = int(text) / 1000
                    elif event == "vote" and 'name="choice"' in text:
                        self.vote_open.set()
                    event, data = None, []
        finally:
            conn.close()

    def vote(self, round_=1, again=True):
        """One ballot, then (``again``) a second one that must be refused; True when the
        first counted."""
        # skewed, so that the class's choice is rarely a tie (which has no "Play" button)
        choice = random.choices("123", weights=(5, 3, 2))[0]
        s1, _, first = request(self.port, "POST", f"/c/{self.code}/vote",
                               {"round": str(round_), "choice": choice}, self.cookie,
                               {"HX-Request": "true"})
        if again:
            request(self.port, "POST", f"/c/{self.code}/vote",
                    {"round": str(round_), "choice": "1"}, self.cookie, {"HX-Request": "true"})
        return s1 == 200 and "Your vote" in first


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def arrivals_of(teachers, followers, numbers, skip=()):
    """For the moves ``numbers`` of each teacher: (delay to each follower, delay to the last
    follower of the class, events lost), the followers of ``skip`` left out."""
    last, each, lost = [], [], 0
    for t in teachers:
        for i in numbers(t):
            arrivals = [(f, f.seen.get(i)) for f in followers[t.code] if f not in skip]
            lost += sum(1 for f, a in arrivals if a is None)
            got = [a - t.sent[i] for f, a in arrivals if a is not None]
            each.extend(got)
            if got:
                last.append(max(got))
    return each, last, lost


def run(name, classes, ports, moves, interval, stall, rounds, pids):
    teachers = [Teacher(ports[0], n) for n in classes]
    followers = {t.code: [Follower(ports[i % len(ports)], t.code) for i in range(t.followers)]
                 for t in teachers}
    everyone = [f for fs in followers.values() for f in fs]
    listeners = [gevent.spawn(f.listen) for f in everyone]
    for f in everyone:
        if not f.connected.wait(30):
            sys.exit("a follower could not connect")
    deaf = random.sample(everyone, int(len(everyone) * stall))
    # the streams' upkeep with nothing happening (heartbeats, "still here"), per second:
    # taken out of the changes' CPU below
    cpu_before, idle_from = server_cpu(pids), time.monotonic()
    gevent.sleep(IDLE_SECONDS)
    idle = (server_cpu(pids) - cpu_before) / (time.monotonic() - idle_from)

    def go_deaf():
        gevent.sleep(moves * interval / 2)
        for f in deaf:
            t = next(t for t in teachers if t.code == f.code)
            f.stalled_at = time.monotonic()
            f.stall(max(t.sent, default=0))
    stalls = gevent.spawn(go_deaf)
    cpu_before, moves_from = server_cpu(pids), time.monotonic()
    gevent.joinall([gevent.spawn(t.play, moves, interval) for t in teachers] + [stalls])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (
            any(moves not in f.seen for f in everyone)
            or any(f.recovered is None for f in deaf)):
        gevent.sleep(0.2)
    # the moves' CPU: their fan-out, the heartbeats of the streams and the deaf pages'
    # reconnections (a few seconds of waiting at the end count their heartbeats only)
    move_cpu = (server_cpu(pids) - cpu_before - idle * (time.monotonic() - moves_from)) / (
        moves * len(teachers))
    # a deaf page misses the moves of its deaf time: it gets the board after
    each, last, lost = arrivals_of(teachers, followers, lambda t: range(1, moves + 1), deaf)
    if os.environ.get("CLASS_LOAD_DEBUG"):
        for t in teachers:
            for i in range(1, moves + 1):
                late = sorted(round(f.seen[i] - t.sent[i], 2) for f in followers[t.code]
                              if i in f.seen and f not in deaf)[-3:]
                print(t.code, i, late, file=sys.stderr)
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
    # reveal then play, one class at a time (its CPU is then its own); round 1 is the vote
    # above, every later round a new vote every follower answers once
    played, play_cpu, clicks, ties = {t.code: [] for t in teachers}, 0.0, [], 0
    for t in teachers:
        t.warm_up()
    for t in teachers:
        voted = time.monotonic()
        for r in range(1, rounds + 1):
            if r > 1:
                # a student sends at most 10 ballots in 10 s (the app's bound): one a second
                gevent.sleep(max(0.0, voted + 1.1 - time.monotonic()))
                t.vote("open")
                gevent.sleep(0.3)                  # the phones' vote forms arrive
                voted = time.monotonic()
                list(pool.imap_unordered(lambda f: f.vote(r, again=False), followers[t.code]))
            cpu_before, round_from = server_cpu(pids), time.monotonic()
            n = t.reveal_and_play()
            if n is None:
                ties += 1
                continue
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and any(n not in f.seen
                                                      for f in followers[t.code]):
                gevent.sleep(0.01)
            play_cpu += server_cpu(pids) - cpu_before - idle * (time.monotonic() - round_from)
            clicks.append(max(f.seen.get(n, deadline) for f in followers[t.code])
                          - t.clicked[n])
            played[t.code].append(n)
    for g in listeners:
        g.kill()
    ms = [x * 1000 for x in last]
    ems = [x * 1000 for x in each]
    back = [f.recovered for f in deaf if f.recovered is not None]
    out = dict(name=name, streams=len(everyone), moves=len(ms), p50=statistics.median(ms),
               p95=percentile(ms, 95), max=max(ms), e50=statistics.median(ems),
               e95=percentile(ems, 95), emax=max(ems), lost=lost, ballots=2 * len(everyone),
               accepted=accepted, counted=counted, expected=len(everyone),
               vps=2 * len(everyone) / elapsed, stalls=len(deaf), recovered=len(back),
               back=max(back) if back else 0.0, refused=sum(f.refused for f in everyone),
               move_cpu=move_cpu * 1000, idle=idle * 1000,
               sync=[x * 1000 for t in teachers for x in t.synced])
    if rounds:
        peach, plast, plost = arrivals_of(teachers, followers, lambda t: played[t.code])
        out.update(plays=len(plast), plast=[x * 1000 for x in plast],
                   peach=[x * 1000 for x in peach], plost=plost,
                   psync=[x * 1000 for t in teachers for x in t.play_syncs],
                   pget=[x * 1000 for t in teachers for x in t.play_gets], ties=ties,
                   clicks=[x * 1000 for x in clicks],
                   play_cpu=play_cpu * 1000 / len(plast) if plast else 0.0)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("sqlite", "redis"), help="run one store only")
    parser.add_argument("--moves", type=int, default=15, help="moves per teacher (at most 50)")
    parser.add_argument("--interval", type=float, default=1.0,
                        help="seconds between a teacher's moves (at least 0.2)")
    parser.add_argument("--sqlite", default=",".join(map(str, SQLITE_CLASSES)),
                        help="followers per class on one instance (at most 400 in all)")
    parser.add_argument("--redis", default=",".join(map(str, REDIS_CLASSES)),
                        help="followers per class on two instances (at most 400 in all)")
    parser.add_argument("--stall", type=float, default=0.1,
                        help="share of followers that go deaf halfway (0 to 0.5)")
    parser.add_argument("--rounds", type=int, default=10,
                        help="reveals then plays per class, after the moves (0 to 20)")
    args = parser.parse_args()
    sizes = {k: [int(n) for n in getattr(args, k).split(",") if n.strip()]
             for k in ("sqlite", "redis")}
    if any(sum(v) > 400 or min(v, default=1) < 1 for v in sizes.values()):
        parser.error("at most 400 followers in all, at least 1 per class")
    stall = min(max(args.stall, 0.0), 0.5)
    moves, interval = min(args.moves, 50), max(args.interval, 0.2)
    rounds = min(max(args.rounds, 0), 20)
    tmp = Path(tempfile.mkdtemp(prefix="class-load-"))
    log = open(tmp / "servers.log", "wb")
    servers, results = [], []
    load_before = os.getloadavg()
    # every follower is 127.0.0.1, a school behind one router, some of whose ids are younger
    # than CLASS_FOLLOW_SECONDS when they vote: none set aside (docs/serving.md)
    school = {"CLASS_FRESH_BALLOTS_PER_ADDRESS": "1000"}
    try:
        if args.only in (None, "sqlite"):
            env = {**os.environ, **school, "CLASS_DB": str(tmp / "classes.sqlite3")}
            env.pop("REDIS_URL", None)
            port = free_port()
            servers.append(start_server(port, env, log))
            results.append(run("SQLite, one instance", sizes["sqlite"], [port], moves,
                               interval, stall, rounds, [servers[-1].pid]))
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
            env = {**os.environ, **school, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
            ports = [free_port(), free_port()]
            apps = [start_server(p, env, log) for p in ports]
            servers.extend(apps)
            results.append(run("Redis, two instances", sizes["redis"], ports, moves, interval,
                               stall, rounds, [a.pid for a in apps]))
    finally:
        for s in servers:
            s.terminate()
            s.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    cores = os.cpu_count()
    print(f"\n{cores} cores, {WORKERS} gevent workers per instance; load average before "
          f"{load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}; {moves} moves per teacher, "
          f"one every ~{interval:g} s; classes of {args.sqlite} (SQLite), {args.redis} "
          f"(Redis); {stall:.0%} of the followers go deaf halfway\n")
    print("| store | live pages | moves | move → each follower p50 | p95 | max "
          "| move → last follower p50 | p95 | max | lost events | ballots sent (2 each) "
          "| first ballots counted / followers | ballots/s | stalls recovered | slowest "
          "recovery | streams refused (503), then retried |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | {r['streams']} | {r['moves']} | {r['e50']:.0f} ms "
              f"| {r['e95']:.0f} ms | {r['emax']:.0f} ms | {r['p50']:.0f} ms | "
              f"{r['p95']:.0f} ms | {r['max']:.0f} ms | {r['lost']} | {r['ballots']} "
              f"| {r['counted']} / {r['expected']} | {r['vps']:.0f} "
              f"| {r['recovered']} / {r['stalls']} | {r['back']:.1f} s | {r['refused']} |")
    print("\nA plain move beside a reveal then play (\"play\": the class's choice played after "
          "the reveal), from the sync's POST; the server's CPU per change (all its processes, "
          "less the streams' upkeep: " + ", ".join(f"{r['idle']:.0f} ms/s ({r['name']})"
                                                   for r in results) + "):\n")
    print("| store | change | changes | → each follower p50 | p95 | → last follower p50 | p95 "
          "| max | lost | sync request p50 | p95 | click's request (the move) p50 | p95 "
          "| click → last follower p95 | server CPU per change (a play: per round) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | plain move | {r['moves']} | {r['e50']:.0f} ms "
              f"| {r['e95']:.0f} ms | {r['p50']:.0f} ms | {r['p95']:.0f} ms | {r['max']:.0f} ms "
              f"| {r['lost']} | {statistics.median(r['sync']):.0f} ms "
              f"| {percentile(r['sync'], 95):.0f} ms | | | | {r['move_cpu']:.1f} ms |")
        if r.get("plays"):
            print(f"| {r['name']} | reveal then play | {r['plays']} "
                  f"| {statistics.median(r['peach']):.0f} ms "
                  f"| {percentile(r['peach'], 95):.0f} ms "
                  f"| {statistics.median(r['plast']):.0f} ms "
                  f"| {percentile(r['plast'], 95):.0f} ms | {max(r['plast']):.0f} ms "
                  f"| {r['plost']} | {statistics.median(r['psync']):.0f} ms "
                  f"| {percentile(r['psync'], 95):.0f} ms "
                  f"| {statistics.median(r['pget']):.0f} ms | {percentile(r['pget'], 95):.0f} ms "
                  f"| {percentile(r['clicks'], 95):.0f} ms | {r['play_cpu']:.1f} ms |")
    for r in results:
        if r.get("ties"):
            print(f"\n{r['name']}: {r['ties']} round(s) tied (no class's choice to play), "
                  "not timed")


if __name__ == "__main__":
    main()
