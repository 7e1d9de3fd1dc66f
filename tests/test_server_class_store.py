"""Class mode's store under the README's server (gunicorn, gevent workers): an admin's sqlite3
shell holding the database's write lock freezes no page, and the teacher's secret never reaches
the access log."""
import http.cookiejar
import os
import re
import shutil
import sqlite3
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import ARTIFACTS, _free_port, class_env, start_gunicorn, stop_gunicorn

pytestmark = pytest.mark.server
# a log per pytest-xdist worker (scripts/test -n 2): this module's two tests may run in two
# processes, each with its own server, and each removed the other's log at its start (the
# access log's test then read a log without its requests, once, in a run beside busy processes)
LOG = f"gunicorn-class-store-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A client with its own cookies that does not follow redirects (to read them)."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  NoRedirect)

    def open(self, path, data=None, timeout=10.0):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(self.base + path, body, timeout=timeout) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read().decode()

    def cookie(self, name):
        return next(c.value for c in self.jar if c.name == name)


@pytest.fixture(scope="module")
def served():
    """Its own server (2 workers) and database file: (base URL, database path)."""
    state_dir = tempfile.mkdtemp(prefix="minimax-lab-store-")
    (ARTIFACTS / LOG).unlink(missing_ok=True)
    port = _free_port()
    proc = start_gunicorn(port, class_env(state_dir), LOG)
    yield f"http://127.0.0.1:{port}", os.path.join(state_dir, "classes.sqlite3")
    stop_gunicorn(proc)
    shutil.rmtree(state_dir, ignore_errors=True)


def start_class(base):
    teacher = Browser(base)
    status, headers, _ = teacher.open("/class", {"link": "/connect4?mode=human-human"})
    assert status == 303
    code = re.search(r"cls=([A-Z0-9]{6})", headers["Location"]).group(1)
    return teacher, code


def test_a_write_lock_held_by_an_admin_shell_freezes_no_page(served):
    base, path = served
    teacher, code = start_class(base)
    assert teacher.open(f"/class/{code}/vote", {"action": "open"})[0] == 303
    students = []
    for _ in range(12):
        s = Browser(base)
        assert s.open(f"/c/{code}")[0] == 200
        students.append(s)
    shell = sqlite3.connect(path, isolation_level=None)
    shell.execute("BEGIN IMMEDIATE")           # the admin's shell, mid-transaction
    try:
        with ThreadPoolExecutor(16) as pool:
            votes = [pool.submit(s.open, f"/c/{code}/vote", {"round": "1", "choice": "4"}, 30)
                     for s in students]
            # meanwhile, pages that are not the class's come as usual (5 s: a bound against a
            # frozen server, not a speed measurement; before, each ballot froze its worker 5 s)
            pages = [pool.submit(Browser(base).open, p, None, 5.0)
                     for p in ["/", "/connect4", "/nim", "/tree", "/", "/connect4?moves=44"]]
            assert [f.result()[0] for f in pages] == [200] * 6
            answers = [f.result() for f in votes]
    finally:
        shell.execute("ROLLBACK")
        shell.close()
    for status, headers, body in answers:        # each ballot is told: try again
        assert status == 503 and int(headers["Retry-After"]) > 0, status
        assert "cannot be reached just now" in body
    # the lock released, the same students vote and are counted
    for s in students:
        assert s.open(f"/c/{code}/vote", {"round": "1", "choice": "4"})[0] == 303
    board = teacher.open(f"/connect4?mode=human-human&cls={code}")[2]
    assert "Vote open" in board and re.search(r"12 of \d+ answered", board)


def test_the_teacher_secret_never_reaches_the_access_log(served):
    base, _ = served
    teacher, code = start_class(base)
    secret = teacher.cookie("teach").partition(":")[2]
    assert teacher.open(f"/connect4?mode=human-human&cls={code}&proj=1")[0] == 200
    other = Browser(base)                         # the teacher link, on another device
    status, _, page = other.open(f"/class/{code}/teach#key={secret}")
    assert status == 200 and "Teach this class" in page
    assert other.open(f"/class/{code}/teach", {"key": secret})[0] == 303
    assert other.cookie("teach") == f"{code}:{secret}"
    # gunicorn writes a request's line after its answer: wait for the last one
    last = f'"POST /class/{code}/teach HTTP/1.1" 303'
    deadline = time.monotonic() + 30
    while last not in (log := (ARTIFACTS / LOG).read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert f'"GET /class/{code}/teach HTTP/1.1" 200' in log and last in log   # logged...
    assert secret not in log                      # ...without the secret
