"""Issue 22's attacks on class mode's store (findings 4 and 6), against a live server.

    python bench/attack_store.py            # starts scripts/serve on a free port, own database
    python bench/attack_store.py --url http://127.0.0.1:8000 --db var/classes.sqlite3

Each attack has the shape of ``bench/attack.py``'s: ``start(base)`` begins it in background
threads, ``stop()`` ends it and returns what it saw (``ballots_cast``, ``ballots_counted``,
``acknowledged_lost``, ``forged_cast``, ``forged_counted``, ``fivexx``, ``busy``: the 503s that
said "try again", and notes). Goals (issue 22): 0 acknowledged ballot lost, forged ballots 0
counted, no 5xx but the store's honest 503 while someone else holds its lock.

- ``StoreLock`` (finding 4): an admin's sqlite3 shell holds the database's write lock for
  ``hold`` seconds, lets go for ``gap`` seconds, again and again, while a class of real students
  votes round after round. Every ballot the page acknowledged must be counted; the others were
  told to try again (503) and are sent again.
- ``ForgedBallots`` (finding 6): a script votes with made-up student cookies (the old 16-hex
  form and made-up signatures) and guesses class codes as fast as it can, while real students
  vote. Forged ballots counted must be 0; guessing must meet 429s.

``main`` runs both and prints, for each, plain pages' p95 during the attack beside the
baseline of the same run. Loopback only; bounded (a few seconds each).
"""
import argparse
import http.cookiejar
import os
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAIN = ["/", "/connect4", "/nim?n=11", "/static/app.css", "/connect4?moves=4453"]


class Client:
    """A browser: its own cookies, redirects not followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base, cookies=None):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  self._NoRedirect)
        self.extra = {"Cookie": cookies} if cookies else {}

    def open(self, path, data=None, htmx=False, timeout=15.0):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {**self.extra, **({"HX-Request": "true"} if htmx else {})}
        req = urllib.request.Request(self.base + path, body, headers)
        try:
            with self.opener.open(req, timeout=timeout) as r:
                return r.status, r.headers, r.read().decode(errors="replace")
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read().decode(errors="replace")
        except OSError:
            return "error", {}, ""


class Lesson:
    """A class with a teacher and ``size`` real students; the vote's counts per column."""

    def __init__(self, base, size):
        self.teacher = Client(base)
        status, headers, _ = self.teacher.open("/class", {"link": "/connect4?mode=human-human"})
        if status != 303:
            raise RuntimeError(f"could not start a class: {status}")
        self.code = re.search(r"cls=([A-Z0-9]{6})", headers["Location"]).group(1)
        self.students = []
        for _ in range(size):
            s = Client(base)
            s.open(f"/c/{self.code}")
            self.students.append(s)
        self.round = 0

    def new_round(self, stopping=None):
        """Close the round and open the next, as a teacher does: again after a "try again"."""
        for action in (("close", "open") if self.round else ("open",)):
            while self.teacher.open(f"/class/{self.code}/vote", {"action": action})[0] != 303:
                if stopping is not None and stopping.is_set():
                    return False
                time.sleep(0.5)
        self.round += 1
        return True

    def close(self) -> None:
        """Close the round and show its counts, as a teacher does (again after a "try
        again"): the chart then shows them column by column (issue 26 hides them until the
        teacher shows them, for peer instruction)."""
        for path, action in ((f"/class/{self.code}/vote", "close"),
                             (f"/class/{self.code}/peer", "show")):
            for _ in range(50):
                if self.teacher.open(path, {"action": action})[0] == 303:
                    break
                time.sleep(0.2)

    def counts(self) -> list[int]:
        """The current round's counts, column by column, as the teacher's chart shows them;
        while the vote is open the chart is hidden (issue 26: counts shown once it closes) and
        this is the one number the bar shows, how many answered ([] while the store cannot
        be read)."""
        for _ in range(50):
            status, _, page = self.teacher.open(f"/connect4?mode=human-human&cls={self.code}")
            found = re.findall(r'<text class="n"[^>]*>(\d+)</text>', page)
            answered = re.search(r'class="answered-count"[^>]*><strong>(\d+)', page)
            if status == 200 and found:
                return [int(n) for n in found]
            if status == 200 and answered:
                return [int(answered.group(1))]
            time.sleep(0.2)
        return []


class Attack:
    name = "attack"

    def __init__(self):
        self.stopping = threading.Event()
        self.threads = []
        self.seen = dict(ballots_cast=0, ballots_counted=0, acknowledged_lost=0,
                         forged_cast=0, forged_counted=0, fivexx=0, busy=0, notes="")
        self.lock = threading.Lock()

    def count(self, **more):
        with self.lock:
            for k, v in more.items():
                self.seen[k] += v

    def spawn(self, fn):
        t = threading.Thread(target=fn, daemon=True)
        t.start()
        self.threads.append(t)

    def halt(self):
        self.stopping.set()
        for t in self.threads:
            t.join(60)


class StoreLock(Attack):
    """Finding 4: a write lock held by another process on and off, while a class votes."""

    name = "4 store lock (admin's sqlite3 shell)"

    def __init__(self, db_path, size=30, hold=4.0, gap=1.0):
        super().__init__()
        self.db_path, self.size, self.hold, self.gap = db_path, size, hold, gap

    def start(self, base):
        self.lesson = Lesson(base, self.size)
        self.spawn(self._shell)
        self.spawn(self._class)

    def _shell(self):
        shell = sqlite3.connect(self.db_path, isolation_level=None, timeout=10)
        while not self.stopping.is_set():
            shell.execute("BEGIN IMMEDIATE")
            self.stopping.wait(self.hold)
            shell.execute("ROLLBACK")
            self.stopping.wait(self.gap)
        shell.close()

    def _class(self):
        lesson = self.lesson
        acknowledged = 0
        while not self.stopping.is_set():
            if not lesson.new_round(self.stopping):
                break
            pending = list(lesson.students)
            while pending and not self.stopping.is_set():
                retry = []
                for s in pending:
                    status, _, body = s.open(f"/c/{lesson.code}/vote",
                                             {"round": lesson.round, "choice": "4"}, htmx=True)
                    self.count(ballots_cast=1)
                    if status == 200 and "Your vote" in body:
                        acknowledged += 1
                    elif status == 503:
                        self.count(busy=1)
                        retry.append(s)                    # told to try again: it does
                        time.sleep(0.05)
                    elif status == "error" or (isinstance(status, int) and status >= 500):
                        self.count(fivexx=1)
                        retry.append(s)
                pending = retry
            counted = sum(lesson.counts())
            self.count(ballots_counted=counted, acknowledged_lost=max(0, acknowledged - counted))
            acknowledged = 0

    def stop(self):
        self.halt()
        return self.seen


class ForgedBallots(Attack):
    """Finding 6: made-up student cookies vote (column 1) and codes are guessed, while real
    students vote (column 4)."""

    name = "6 forged ballots and code guessing"

    def __init__(self, size=30):
        super().__init__()
        self.size = size
        self.guesses = dict(tried=0, refused=0, found=0)

    def start(self, base):
        self.base = base
        self.lesson = Lesson(base, self.size)
        self.lesson.new_round()
        self.spawn(self._forger)
        self.spawn(self._guesser)
        self.spawn(self._class)

    def _forger(self):
        i = 0
        while not self.stopping.is_set():
            cookie = (f"student={i:016x}" if i % 2 else
                      f"student={i:016x}.{os.urandom(16).hex()[:27]}")
            status, _, _ = Client(self.base, cookie).open(
                f"/c/{self.lesson.code}/vote", {"round": 1, "choice": "1"}, htmx=True)
            self.count(forged_cast=1)
            if status == "error" or (isinstance(status, int) and status >= 500):
                self.count(fivexx=1)
            i += 1

    def _guesser(self):
        client = Client(self.base)
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        while not self.stopping.is_set():
            code = "".join(alphabet[b % 32] for b in os.urandom(6))
            status, _, _ = client.open(f"/c/{code}")
            self.guesses["tried"] += 1
            self.guesses["refused"] += status == 429
            self.guesses["found"] += status == 200
            if status == "error" or (isinstance(status, int) and status >= 500):
                self.count(fivexx=1)

    def _class(self):
        acknowledged = 0
        for s in self.lesson.students:
            status, _, body = s.open(f"/c/{self.lesson.code}/vote",
                                     {"round": 1, "choice": "4"}, htmx=True)
            self.count(ballots_cast=1)
            acknowledged += status == 200 and "Your vote" in body
            if status == "error" or (isinstance(status, int) and status >= 500):
                self.count(fivexx=1)
        self.acknowledged = acknowledged

    def stop(self):
        self.halt()
        self.lesson.close()                 # the counts column by column show once it closes
        counts = self.lesson.counts()
        real, forged = (counts[3], counts[0]) if len(counts) >= 4 else (0, -1)
        self.count(ballots_counted=real, forged_counted=forged,
                   acknowledged_lost=max(0, self.acknowledged - real))
        self.seen["notes"] = (f"codes guessed: {self.guesses['tried']}, refused (429): "
                              f"{self.guesses['refused']}, found: {self.guesses['found']}")
        return self.seen


# -- standalone -------------------------------------------------------------------------------------

def probe(base, stop, times):
    while not stop.is_set():
        for path in PLAIN:
            start = time.perf_counter()
            Client(base).open(path, timeout=30)
            times.append((time.perf_counter() - start) * 1000)


def p95(times):
    return statistics.quantiles(times, n=20)[-1] if len(times) >= 20 else float("nan")


def measure(base, seconds, attack=None):
    times, stop = [], threading.Event()
    prober = threading.Thread(target=probe, args=(base, stop, times), daemon=True)
    if attack:
        attack.start(base)
    prober.start()
    time.sleep(seconds)
    stop.set()
    prober.join(60)
    return p95(times), (attack.stop() if attack else None)


def serve(db):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(ROOT / "scripts/serve")], cwd=ROOT,
                            env={**os.environ, "BIND": f"127.0.0.1:{port}", "CLASS_DB": db},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        if Client(base).open("/", timeout=1)[0] == 200:
            return proc, base
        time.sleep(0.2)
    proc.kill()
    sys.exit("the server did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server (else scripts/serve is started)")
    parser.add_argument("--db", help="its CLASS_DB (for the store-lock attack)")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    proc = None
    if args.url:
        base, db = args.url.rstrip("/"), args.db or str(ROOT / "var" / "classes.sqlite3")
    else:
        db = os.path.join(tempfile.mkdtemp(prefix="attack-store-"), "classes.sqlite3")
        proc, base = serve(db)
    try:
        baseline, _ = measure(base, args.seconds / 2)
        print(f"plain pages p95, baseline: {baseline:.0f} ms")
        for attack in (StoreLock(db), ForgedBallots()):
            during, seen = measure(base, args.seconds, attack)
            print(f"\n{attack.name}: plain pages p95 {during:.0f} ms (baseline {baseline:.0f})")
            for key, value in seen.items():
                print(f"  {key}: {value}")
    finally:
        if proc:
            proc.terminate()
            proc.wait(15)


if __name__ == "__main__":
    main()
