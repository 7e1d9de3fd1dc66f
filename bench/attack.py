"""Issue 22's attacks on a live server, each while plain pages are timed.

    python bench/attack.py                        # starts the server (gunicorn.conf.py) on a free port
    python bench/attack.py --seconds 8 --only slow-bodies head-streams
    python bench/attack.py --url http://127.0.0.1:8000     # a running server (no restart attack)

One function per attack, in ``ATTACKS``; each runs for ``--seconds`` (bounded) from other
loopback addresses (127.0.0.2 and up: Linux routes all of 127/8 to the loopback) while a
prober at 127.0.0.1 loads plain pages (the home page, a game, Nim, a static file) one after
another. For each attack it prints the plain pages' p95 beside the baseline of the same run
(plain pages alone, first), the 5xx seen (prober's and attacker's), and what the attack got.
Goals (issue 22): plain pages p95 <= 300 ms during every attack; 0 5xx.

Issue 37's: slow bodies, slow headers and idle connections from 1, 4 and 8 addresses
(``bodies-4addr``...), 20 junk reviews at once, 20 tic-tac-toe tree pages at once, 300
classes made from 200 addresses and then a new teacher's (``class-creations``), and a class
exercise on a 400-node tree loaded and answered by 30 phones at once, its teacher's
dashboard drawn meanwhile (``exercise-phones``); 20 wrong lab links that keep a tree of 400
nodes (``lab-400``), and 30 phones loading a class whose projector shows the search tree at
a step (``class-replay``), 20 clients on Connect-4's tree pages (``c4-tree-pages``), and
30 phones answering a class exercise while its teacher's live bar is open (``exercise-bar``). Each line gives the plain pages' p95 and
``GET /``'s alone, beside the baseline of the same run (taken first, and again at the end),
with the machine's load average.

Findings: 1 slow bodies, 10 slow-header flood, 2 HEAD on live streams, 10 one address
holding the streams, 3 CPU work (the editor, the lab, the growth page), 10 a restart with
live classes, 4 a write lock held on the class store by another process, 6 forged ballots
and guessed codes (those two from ``bench/attack_store.py``, which also runs alone). Goals
also: 0 acknowledged ballot lost, 0 forged ballot counted.
"""
import argparse
import collections
import http.client
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAIN = ["/", "/connect4", "/nim?n=11", "/static/app.css", "/connect4?moves=4453"]
GOAL_MS = 300


class Server:
    """The server under attack: its port, and its master process when this bench started it."""

    def __init__(self, port: int, proc=None, db=None):
        self.port, self.proc, self.db = port, proc, db

    def connect(self, source="127.0.0.1", timeout=10.0) -> socket.socket:
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(timeout)
        s.connect(("127.0.0.1", self.port))
        return s

    def request(self, method, path, body=None, headers=None, source="127.0.0.1", timeout=10.0):
        """(status or "error", headers) of one request on a connection of its own."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                       source_address=(source, 0))
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            r.read()
            return r.status, r
        except (OSError, http.client.HTTPException):
            return "error", None
        finally:
            c.close()

    def new_class(self) -> str:
        status, r = self.request("POST", "/class", "link=/connect4",
                                 {"Content-Type": "application/x-www-form-urlencoded"})
        # the answer goes on to the teacher's board: /connect4?...&cls=CODE (or /class/CODE/...)
        return re.search(r"(?:/class/|cls=)([A-Z0-9]+)", r.getheader("Location")).group(1)


def start_server(workers: int) -> Server:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = f"/tmp/minimax-attack-{port}.sqlite3"
    env = {**os.environ, "CLASS_DB": db}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--access-logfile", "/dev/null",
         "app:create_app()"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=open(f"/tmp/minimax-attack-{port}.log", "wb"))
    server = Server(port, proc, db)
    for _ in range(300):
        if server.request("GET", "/", timeout=1)[0] == 200:
            return server
        time.sleep(0.1)
    proc.kill()
    sys.exit("the server did not start")


class Prober:
    """Plain pages, one after another from 127.0.0.1 (two at a time), while it runs."""

    def __init__(self, server: Server):
        self.server, self.times, self.statuses = server, [], collections.Counter()
        self.home = []               # the times of GET / alone (the goal is its p95)
        self._stop = threading.Event()

    def _loop(self, offset):
        i = offset
        while not self._stop.is_set():
            start = time.perf_counter()
            path = PLAIN[i % len(PLAIN)]
            status, _ = self.server.request("GET", path, timeout=30)
            self.times.append((time.perf_counter() - start) * 1000)
            if path == "/":
                self.home.append(self.times[-1])
            self.statuses[status] += 1
            i += 1
            time.sleep(0.02)

    def __enter__(self):
        self._threads = [threading.Thread(target=self._loop, args=(k,), daemon=True) for k in (0, 2)]
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        for t in self._threads:
            t.join(35)

    def p95(self, times=None) -> float:
        times = sorted(self.times if times is None else times)
        return times[int(len(times) * 0.95)] if times else float("nan")


def load() -> str:
    """The machine's load average (1, 5, 15 min), as ``uptime`` says it."""
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def attacker(n: int) -> str:
    return f"127.0.0.{2 + n % 200}"


def hold_connections(server: Server, seconds: float, count: int, payload, sources=1) -> dict:
    """``count`` connections that send ``payload()`` and then nothing; each one the server
    closes is opened again at once (a continuous flood), for ``seconds``."""
    sel = selectors.DefaultSelector()
    opened = refused = closed = failed = 0

    def open_one(k):
        nonlocal opened, failed
        try:
            s = socket.socket()
            s.bind((attacker(k % sources), 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", server.port))
            sel.register(s, selectors.EVENT_WRITE, k)
            opened += 1
        except OSError:
            failed += 1

    for k in range(count):
        open_one(k)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, events in sel.select(timeout=0.2):
            s, k = key.fileobj, key.data
            if events & selectors.EVENT_WRITE:
                try:
                    s.send(payload())
                    sel.modify(s, selectors.EVENT_READ, k)
                    continue
                except OSError:
                    pass
            try:
                data = s.recv(512)
            except OSError:
                data = b""
            refused += data.startswith(b"HTTP/1.1 503")
            closed += 1
            sel.unregister(s)
            s.close()
            open_one(k)
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    return {"opened": opened, "closed by the server": closed, "refused 503": refused,
            "not opened": failed}


# -- the attacks: each (server, seconds) -> a dict of what it saw, "5xx" among it ----------

def slow_bodies(server, seconds):
    """Finding 1: 3,200 x POST /class and /c/<code>/vote, Content-Length 2000, no body."""
    code = server.new_class()
    bodies = [b"POST /class HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
              b"\r\nContent-Length: 2000\r\n\r\nlink=",
              f"POST /c/{code}/vote HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-"
              f"urlencoded\r\nContent-Length: 2000\r\n\r\nchoice=".encode()]
    n = iter(range(10**9))
    return hold_connections(server, seconds, 3200, lambda: bodies[next(n) % 2])


def slow_headers(server, seconds):
    """Finding 10: 3,200 connections that never finish their headers, reopened continuously."""
    return hold_connections(server, seconds, 3200, lambda: b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")


def head_streams(server, seconds):
    """Finding 2: 1,800 HEAD /c/<code>/events on a class of the attacker's own, then can a
    student of another class still follow?"""
    code, victim = server.new_class(), server.new_class()
    statuses = collections.Counter()
    end = time.monotonic() + seconds
    with ThreadPoolExecutor(16) as pool:
        for status, _ in pool.map(lambda i: server.request("HEAD", f"/c/{code}/events",
                                                           source=attacker(i)), range(1800)):
            statuses[status] += 1
    followed = []
    for _ in range(6):
        s = server.connect()
        s.sendall(f"GET /c/{victim}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        followed.append(s.recv(100)[:12].decode(errors="replace"))
        s.close()
    time.sleep(max(0.0, end - time.monotonic()))
    return {"HEAD answers": dict(statuses), "students' streams after": collections.Counter(followed),
            "5xx": sum(n for s, n in statuses.items() if isinstance(s, int) and s >= 500)}


def stream_hog(server, seconds):
    """Finding 10: one address opens 2,000 live streams; can a student elsewhere follow?"""
    code, victim = server.new_class(), server.new_class()
    held, answers = [], collections.Counter()
    for _ in range(2000):
        try:
            s = server.connect(attacker(0), timeout=5)
            s.sendall(f"GET /c/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            answers[s.recv(100)[9:12].decode(errors="replace")] += 1
            held.append(s)
        except OSError:
            answers["error"] += 1
    followed = []
    for _ in range(6):
        s = server.connect()
        s.sendall(f"GET /c/{victim}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        followed.append(s.recv(100)[9:12].decode(errors="replace"))
        held.append(s)
    time.sleep(seconds)
    for s in held:
        s.close()
    return {"attacker's streams": dict(answers), "students' streams": collections.Counter(followed),
            "5xx": answers.get("500", 0)}


def cpu_pages(server, seconds, paths, clients=50, addresses=10):
    statuses = collections.Counter()
    end = time.monotonic() + seconds

    def loop(i):
        while time.monotonic() < end:
            status, r = server.request("GET", paths[i % len(paths)] + f"&r={i}",
                                       source=attacker(i % addresses), timeout=60)
            if status in (429, 503) and r.getheader("Retry-After"):
                status = f"{status} busy, Retry-After"      # admission control: by design
            statuses[status] += 1

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(loop, range(clients)))
    return {"answers": dict(statuses),
            "5xx": sum(n for s, n in statuses.items() if s == "error" or isinstance(s, int) and s >= 500)}


def editor(server, seconds):
    """Finding 3: 50 clients (from 10 addresses) asking the editor for the issue's full
    board and other crafted ones, in a loop."""
    return cpu_pages(server, seconds, [
        "/connect4/edit?board=121212-212121-121212-212121-121212-212121-121212",
        "/connect4/edit?board=11221221-12222221-22122221-22212221-11121221-12222121-111111-11211111&w=8&h=8",
        "/connect4/edit?board=112211-221122-112211-221122-112211-221122-11221"])


def lab(server, seconds):
    """Finding 3: 50 clients (from 10 addresses) on the lab's largest trees and the growth
    page's, in a loop."""
    tree = "[" + ",".join("[" + ",".join(f"[{i},{j},{i + j}]" for j in range(9)) + "]"
                          for i in range(9)) + "]"
    return cpu_pages(server, seconds, [f"/tree?t={tree}&mode=exercise", "/tree/growth?b=4&m=6",
                                       "/tree/growth?b=5&m=6", f"/tree?t={tree}&algo=minimax"])


def restart(server, seconds):
    """Finding 10: a restart (HUP: new workers, the old ones stop) with 100 live streams:
    how long until the old workers' streams are ended by the server."""
    if server.proc is None:
        return {"skipped": "needs a server started by this bench"}
    code = server.new_class()
    streams = []
    for i in range(100):
        s = server.connect(attacker(i))
        s.sendall(f"GET /c/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        s.recv(100)
        streams.append(s)
    start = time.monotonic()
    server.proc.send_signal(signal.SIGHUP)
    ended = 0
    for s in streams:
        s.settimeout(max(0.1, start + 15 - time.monotonic()))
        try:
            while s.recv(65536):
                pass
            ended += 1
        except OSError:
            pass
        s.close()
    took = time.monotonic() - start
    time.sleep(max(0.0, seconds - took))
    return {"streams ended by the server": f"{ended}/100", "last ended after (s)": round(took, 1)}


def _store_attack(make):
    """An attack of ``bench/attack_store.py`` (start(base) / stop() -> what it saw) run in
    this bench's shape: ballots cast vs counted, acknowledged ballots lost, forged ones counted."""
    def run(server, seconds):
        attack = make(server)
        attack.start(f"http://127.0.0.1:{server.port}")
        time.sleep(seconds)
        seen = dict(attack.stop())
        fives = seen.pop("fivexx", 0)
        return {"5xx": fives, **seen}
    return run


def store_lock(server, seconds):
    """Finding 4: another process holds the SQLite write lock (a backup, an admin's shell)."""
    import attack_store
    return _store_attack(lambda s: attack_store.StoreLock(s.db or str(ROOT / "var" / "classes.sqlite3")))(server, seconds)


def forged_ballots(server, seconds):
    """Finding 6: forged student cookies and class codes guessed, beside a real class voting."""
    import attack_store
    return _store_attack(lambda s: attack_store.ForgedBallots())(server, seconds)


# -- issue 37: several addresses together, junk before admission, class creations ---------------

SLOW_BODY = (b"POST /class HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
             b"\r\nContent-Length: 2000\r\n\r\nlink=")


def from_addresses(payload: bytes, sources: int):
    """An attack of 800 connections per address from ``sources`` addresses (each under its
    bound of 300 per worker x 3 workers), reopened as the server closes them."""
    def run(server, seconds):
        return hold_connections(server, seconds, 800 * sources, lambda: payload, sources)
    run.__doc__ = f"issue 37: {800 * sources} connections from {sources} address(es)"
    return run


def junk_reviews(server, seconds):
    """Issue 37: 20 clients at once on reviews whose moves have a 3,900-character junk tail
    (Connect-4, tic-tac-toe, Nim, and "learn from your mistakes")."""
    tail = "x" * 3900
    return cpu_pages(server, seconds, [f"/connect4/review?moves=4453{tail}&mode=human-human",
                                       f"/tictactoe/review?moves=5139{tail}&mode=human-human",
                                       f"/nim/review?moves=312{tail}&mode=human-human",
                                       f"/connect4/review/learn?moves=4453{tail}&x=1"],
                     clients=20, addresses=20)


def tree_pages(server, seconds):
    """Issue 37: 20 clients at once on tic-tac-toe's tree pages (drawn on the loop)."""
    return cpu_pages(server, seconds, ["/tictactoe/tree?moves=5&mode=human-ai&level=perfect",
                                       "/tictactoe?moves=51&tree=1&x=1",
                                       "/tictactoe/tree.svg?moves=5&mode=human-ai&x=1"],
                     clients=20, addresses=20)


def class_creations(server, seconds):
    """Issue 37: 300 classes made from 200 addresses (a script's), then a new teacher."""
    statuses = collections.Counter()

    def make(i):
        status, _ = server.request("POST", "/class", "link=/connect4",
                                   {"Content-Type": "application/x-www-form-urlencoded"},
                                   source=f"127.0.{1 + i % 200 // 100}.{2 + i % 100}")
        statuses[status] += 1
    with ThreadPoolExecutor(20) as pool:
        list(pool.map(make, range(300)))
    teacher, _ = server.request("POST", "/class", "link=/nim",
                                {"Content-Type": "application/x-www-form-urlencoded"},
                                source="127.0.3.9")
    time.sleep(max(0.0, seconds - 1))
    return {"script's classes": dict(statuses), "then a new teacher": teacher,
            "5xx": sum(n for s, n in statuses.items() if s == "error" or s >= 500)}


def big_tree(depth=3, branching=7) -> str:
    """A tree of the lab's largest size (1 + 7 + 49 + 343 = 400 nodes), its leaves varied."""
    count = [0]

    def node(d):
        if d == 0:
            count[0] += 1
            return str((count[0] * 37) % 19 - 9)
        return "[" + ",".join(node(d - 1) for _ in range(branching)) + "]"
    return node(depth)


def exercise_class(server, source):
    """(the teacher's cookie, the class's code) of a Nim class made from ``source``, running
    an exercise on a tree of 400 nodes (``big_tree``)."""
    from urllib.parse import quote, urlencode
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    _, r = server.request("POST", "/class", "link=/nim", form, source=source)
    teacher = r.getheader("Set-Cookie").split(";")[0]
    code = re.search(r"cls=([A-Z0-9]+)", r.getheader("Location")).group(1)
    server.request("POST", f"/class/{code}/exercise", urlencode(
        {"action": "start", "source": "link", "link": "/tree?t=" + quote(big_tree())}),
        {**form, "Cookie": teacher}, source=source)
    return teacher, code


def exercise_phones(server, seconds):
    """Issue 37: a class exercise on a tree of 400 nodes; 30 phones (30 addresses) load it
    at once and again (each draws the tree as a form of 300 KB) and send answers, while the
    teacher's dashboard is drawn again and again (every answer marked)."""
    from urllib.parse import urlencode
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    teacher, code = exercise_class(server, "127.0.4.1")
    statuses = collections.Counter()
    end = time.monotonic() + seconds

    def phone(i):
        source = f"127.0.5.{1 + i}"
        _, r = server.request("GET", f"/c/{code}", source=source, timeout=60)
        cookie = "; ".join(c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or [])
        k = 0
        while time.monotonic() < end:
            k += 1
            if k % 3:
                status, r = server.request("GET", f"/c/{code}", headers={"Cookie": cookie},
                                           source=source, timeout=60)
            else:
                answer = urlencode({"seq": "1", "v.R": str(k % 5), "v.1": str(i % 7),
                                    "a.1": "-inf", "b.1": str(k % 9)})
                status, r = server.request("POST", f"/c/{code}/exercise", answer,
                                           {**form, "Cookie": cookie, "HX-Request": "true"},
                                           source=source, timeout=60)
            if status in (429, 503) and r.getheader("Retry-After"):
                status = f"{status} busy, Retry-After"
            statuses[("phone", status)] += 1

    def dashboard(_):
        while time.monotonic() < end:
            status, _ = server.request("GET", f"/nim?cls={code}&proj=1",
                                       headers={"Cookie": teacher}, source="127.0.4.1",
                                       timeout=60)
            statuses[("teacher", status)] += 1
            time.sleep(0.2)

    with ThreadPoolExecutor(31) as pool:
        list(pool.map(lambda i: dashboard(i) if i == 30 else phone(i), range(31)))
    return {"answers": {f"{who} {s}": n for (who, s), n in statuses.items()},
            "5xx": sum(n for (_, s), n in statuses.items()
                       if s == "error" or isinstance(s, int) and s >= 500)}


def exercise_bar(server, seconds):
    """Issue 37: a class exercise on a tree of 400 nodes answered by 30 phones (30 addresses)
    again and again, while the teacher's live bar (its dashboard: every answer marked on the
    tree, redrawn at each answer) is open and the teacher closes and reopens the exercise."""
    from urllib.parse import urlencode
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    teacher, code = exercise_class(server, "127.0.8.1")
    statuses = collections.Counter()
    end = time.monotonic() + seconds
    bars = [0]

    def phone(i):
        source = f"127.0.9.{1 + i}"
        _, r = server.request("GET", f"/c/{code}", source=source, timeout=60)
        cookie = ("; ".join(c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or [])
                  if r is not None else "")
        k = 0
        while time.monotonic() < end:
            k += 1
            answer = urlencode({"seq": "1", "v.R": str(k % 5), "v.1": str(i % 7)})
            status, r = server.request("POST", f"/c/{code}/exercise", answer,
                                       {**form, "Cookie": cookie, "HX-Request": "true"},
                                       source=source, timeout=60)
            if status in (429, 503) and r.getheader("Retry-After"):
                status = f"{status} busy, Retry-After"
            statuses[("phone", status)] += 1

    def live_bar():
        s = server.connect("127.0.8.1", timeout=2)
        s.sendall(f"GET /class/{code}/events HTTP/1.1\r\nHost: x\r\nCookie: {teacher}\r\n"
                  "\r\n".encode())
        while time.monotonic() < end:
            try:
                bars[0] += s.recv(65536).count(b"event: bar")
            except OSError:
                pass
        s.close()

    def actions():
        k = 0
        while time.monotonic() < end:
            k += 1
            status, r = server.request("POST", f"/class/{code}/exercise",
                                       f"action={'close' if k % 2 else 'reopen'}",
                                       {**form, "Cookie": teacher, "HX-Request": "true"},
                                       source="127.0.8.1", timeout=60)
            if status in (429, 503) and r.getheader("Retry-After"):
                status = f"{status} busy, Retry-After"
            statuses[("teacher", status)] += 1
            time.sleep(2)

    with ThreadPoolExecutor(32) as pool:
        list(pool.map(lambda i: live_bar() if i == 30 else actions() if i == 31 else phone(i),
                      range(32)))
    return {"answers": {f"{who} {s}": n for (who, s), n in statuses.items()},
            "teacher's live bars": bars[0],
            "5xx": sum(n for (_, s), n in statuses.items()
                       if s == "error" or isinstance(s, int) and s >= 500)}


def c4_tree_pages(server, seconds):
    """Issue 37: 20 clients at once on Connect-4's tree pages, whose panels are the largest
    to build (a spine of up to a few thousand nodes, its subtrees counted: 10-30 ms) besides
    their drawing; the levels' searches are kept by the worker, so the panel is the work."""
    return cpu_pages(server, seconds, ["/connect4?moves=44&mode=human-ai&level=medium&tree=1",
                                       "/connect4/tree?moves=4&mode=human-ai&level=hard&x=1",
                                       "/connect4/tree.svg?moves=44&mode=human-ai&level=medium"],
                     clients=20, addresses=20)


def lab_400(server, seconds):
    """Issue 37: 20 clients at once on the lab's wrong links that keep a tree of 400 nodes
    (a wrong setting, a wrong step, a wrong answer's mode): each 400 parses and solves the
    tree again to show it."""
    from urllib.parse import quote
    tree = quote(big_tree())
    return cpu_pages(server, seconds, [f"/tree?order=x&t={tree}", f"/tree?step=99999&t={tree}",
                                       f"/tree?mode=exercise&window=x&t={tree}"],
                     clients=20, addresses=20)


def class_replay(server, seconds):
    """Issue 37: 30 phones (30 addresses) loading, again and again, the page of a class whose
    projector shows the search tree at a step: Connect-4's alpha-beta at depth 7 (12,186
    nodes, too many to replay: shown whole) and a Nim tree replayed step by step."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    codes = []
    for link in ("/connect4?moves=4&mode=human-ai&level=custom&algo=alphabeta&depth=7&tree=1"
                 "&step=0", "/nim?n=5&k=2&mode=human-human&tree=1&step=5"):
        _, r = server.request("POST", "/class", "link=" + link.replace("&", "%26"), form,
                              source="127.0.6.1")
        codes.append(re.search(r"cls=([A-Z0-9]+)", r.getheader("Location")).group(1))
    statuses = collections.Counter()
    end = time.monotonic() + seconds

    def phone(i):
        source, code = f"127.0.7.{1 + i}", codes[i % 2]
        _, r = server.request("GET", f"/c/{code}", source=source, timeout=60)
        cookie = ("; ".join(c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or [])
                  if r is not None else "")
        while time.monotonic() < end:
            status, r = server.request("GET", f"/c/{code}", headers={"Cookie": cookie},
                                       source=source, timeout=60)
            if status in (429, 503) and r.getheader("Retry-After"):
                status = f"{status} busy, Retry-After"
            statuses[status] += 1

    with ThreadPoolExecutor(30) as pool:
        list(pool.map(phone, range(30)))
    return {"answers": dict(statuses),
            "5xx": sum(n for s, n in statuses.items()
                       if s == "error" or isinstance(s, int) and s >= 500)}


ATTACKS = [("slow-bodies", slow_bodies), ("slow-headers", slow_headers),
           ("head-streams", head_streams), ("stream-hog", stream_hog), ("editor", editor),
           ("lab", lab), ("restart", restart), ("store-lock", store_lock),
           ("forged-ballots", forged_ballots),
           *[(f"{kind}-{n}addr", from_addresses(payload, n))
             for kind, payload in (("bodies", SLOW_BODY),
                                   ("headers", b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "),
                                   ("idle", b""))
             for n in (1, 4, 8)],
           ("junk-reviews", junk_reviews), ("tree-pages", tree_pages),
           ("class-creations", class_creations), ("exercise-phones", exercise_phones),
           ("exercise-bar", exercise_bar), ("c4-tree-pages", c4_tree_pages),
           ("lab-400", lab_400),
           ("class-replay", class_replay)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (default: start one)")
    p.add_argument("--db", help="the running server's CLASS_DB (for the store-lock attack)")
    p.add_argument("--workers", type=int, default=3, help="workers of the started server")
    p.add_argument("--seconds", type=float, default=10, help="length of each attack")
    p.add_argument("--only", nargs="*", help="attacks to run: " + ", ".join(n for n, _ in ATTACKS))
    args = p.parse_args(argv)
    server = (Server(int(args.url.rstrip("/").rpartition(":")[2]), db=args.db) if args.url
              else start_server(args.workers))
    try:
        with Prober(server) as base:
            time.sleep(args.seconds)
        print(f"baseline: plain pages p95 {base.p95():.0f} ms, GET / p95 "
              f"{base.p95(base.home):.0f} ms ({len(base.times)} pages, "
              f"statuses {dict(base.statuses)}; {load()})")
        failed = False
        for name, attack in ATTACKS:
            if args.only and name not in args.only:
                continue
            with Prober(server) as probe:
                seen = attack(server, args.seconds)
            fives = seen.pop("5xx", 0) + sum(n for s, n in probe.statuses.items()
                                             if s == "error" or s >= 500)
            ok = (probe.p95() <= GOAL_MS and fives == 0 and not seen.get("acknowledged_lost")
                  and not seen.get("forged_counted"))
            failed |= not ok
            print(f"{name:13} plain p95 {probe.p95():6.0f} ms (baseline {base.p95():.0f}), "
                  f"GET / p95 {probe.p95(probe.home):6.0f} ms (baseline "
                  f"{base.p95(base.home):.0f}) pages {len(probe.times):4}  5xx/errors {fives}  "
                  f"{'ok' if ok else 'GOAL MISSED'}  ({load()})")
            for k, v in seen.items():
                print(f"{'':15}{k}: {dict(v) if isinstance(v, collections.Counter) else v}")
            time.sleep(2)          # let the server settle (closed connections, timeouts)
        with Prober(server) as after:  # the machine's load moves: the baseline again, at the end
            time.sleep(args.seconds)
        print(f"baseline again: plain pages p95 {after.p95():.0f} ms, GET / p95 "
              f"{after.p95(after.home):.0f} ms ({len(after.times)} pages; {load()})")
        return 1 if failed else 0
    finally:
        if server.proc is not None:
            server.proc.terminate()
            server.proc.wait(30)


if __name__ == "__main__":
    sys.exit(main())
