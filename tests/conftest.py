"""Fixtures: the Flask app and test client (route tests), and for browser tests a live
gunicorn server started as the README does (same config file) on a free local port, with
Debian's Chromium driven by Playwright."""
import os
import shutil
import socket
import subprocess
import tempfile
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from app import create_app

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Headless on a machine with no network: no sandbox (root in CI), no background connections
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
# The table of solved positions of a test run is its own, not the checkout's instance folder
# (the live server inherits this too): tests see what the solver finds, not an earlier run.
os.environ.setdefault("MINIMAX_SOLVED_DB", os.path.join(tempfile.mkdtemp(prefix="minimax-solved-"),
                                                        "solved.sqlite3"))


# A test client sends no cookie: all its requests are one client ("address 127.0.0.1"), whose
# searches the app charges by the wall-clock time they take (CLIENT_SEARCH_SECONDS, 20 s a
# minute, then a 429). Beside 4 busy processes a few 200-entrant results pages took it
# (07:05 on 2026-11-28): no limit here, except in the tests of the allowance (their own apps).
NO_ALLOWANCE = {"CLIENT_SEARCH_SECONDS": float("inf")}


@pytest.fixture()
def app(tmp_path):
    # HINTS_THEN_SECONDS and HINTS_SECONDS None: every column's hint in the first answer, with
    # no time limit, however loaded the machine (at load 15 the empty board's seven columns
    # outran the 3 s budget and a test read "computing"); tests/test_hints.py sets its own to
    # see the best move answered first and the rest after
    return create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                       "HINTS_THEN_SECONDS": None, "HINTS_SECONDS": None,
                       # a review's scores: the node budget decides, not the clock (at load
                       # ~15 a tic-tac-toe review's first round came back with no score)
                       "REVIEW_SECONDS": 600.0, **NO_ALLOWANCE})


@pytest.fixture()
def client(app):
    return app.test_client()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A real Redis (Debian's ``redis-server``, which ``scripts/test`` installs) on a free
    loopback port, for the whole session; stopped at the end."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(exe).exists():
        pytest.fail("redis-server is missing: run scripts/test, which installs it")
    import redis

    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir), "--logfile", str(workdir / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 20
    while True:                      # wait until it answers (or died)
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
    client.close()
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(params=["sqlite", "redis"])
def class_config(request, tmp_path):
    """The class store's configuration: the embedded SQLite default, then a real Redis
    (emptied for each test). Tests that take it run once with each."""
    if request.param == "redis":
        import redis

        url = request.getfixturevalue("redis_url")
        with redis.Redis.from_url(url) as r:
            r.flushdb()
        return {"REDIS_URL": url}
    return {"CLASS_DB": str(tmp_path / "classes.sqlite3"), "REDIS_URL": ""}


@pytest.fixture()
def make_app(class_config):
    """Apps on ``class_config``'s store (SQLite, then Redis), made as a test asks for them
    (``make(**config)``: two instances sharing one store, a restart); stopped after."""
    apps = []

    def make(**extra):
        app = create_app({"TESTING": True, "CLASS_HEARTBEAT": 0.2, **NO_ALLOWANCE, **class_config,
                          **extra})
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["class_hub"].stop()
        app.extensions["class_store"].close()


def start_gunicorn(port: int, env: dict, log_name: str = "gunicorn.log", workers: int = 2):
    """The app under gunicorn on ``port``, as ``scripts/serve`` runs it (same config file),
    once it answers; its log in test-artifacts/."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / log_name, "ab")   # a file, not a pipe: a full pipe blocks gunicorn
    proc = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "app:create_app()"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    log.close()
    base = f"http://127.0.0.1:{port}"
    # generous: at load 24 a start took over a minute (workers compete for the cores); the
    # loop ends as soon as the server answers, so a quiet machine waits no longer for it
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("gunicorn did not start: "
                                   + (ARTIFACTS / log_name).read_text()[-2000:])
            time.sleep(0.1)


def stop_gunicorn(proc) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def class_env(state_dir) -> dict:
    """The environment of a server whose class mode keeps its state in ``state_dir``."""
    env = {**os.environ, "CLASS_DB": os.path.join(state_dir, "classes.sqlite3"),
           # every teacher of the test session is 127.0.0.1: a school behind one address
           # (docs/serving.md), not the 20 live classes one address may hold by default
           "CLASS_LIVE_PER_ADDRESS": "100000"}
    env.pop("REDIS_URL", None)
    return env


@pytest.fixture(scope="session")
def live_server():
    """The app under gunicorn, as ``scripts/serve`` runs it; yields its base URL. Class mode's
    state is in a database of its own, removed with the session."""
    port = _free_port()
    # a log of its own per pytest-xdist worker (scripts/test -n 2): each worker starts its
    # own server, which would otherwise remove the other's log
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    log = f"gunicorn-{worker}.log" if worker else "gunicorn.log"
    (ARTIFACTS / log).unlink(missing_ok=True)
    state_dir = tempfile.mkdtemp(prefix="minimax-lab-classes-")
    proc = start_gunicorn(port, class_env(state_dir), log)
    yield f"http://127.0.0.1:{port}"
    stop_gunicorn(proc)
    shutil.rmtree(state_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium (``scripts/test`` installs it), driven by Playwright. Every
    ``expect`` waits up to 20 s for its condition (Playwright's default is 5 s): a page on a
    loaded machine may take that long to get there, and a passing check returns as soon as
    its condition holds, so this costs nothing when the machine is quiet. (The pages' own
    actions, a click or a page loading, wait up to 60 s: ``set_default_timeout``.)"""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)

    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run scripts/test, which installs it")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture()
def class_clock(app):
    """The class store's clock of the test's ``app``, as a one-item list the test moves
    (``class_clock[0] += 30``): class mode's times without the wall clock."""
    st = app.extensions["class_store"]
    now = [st.clock()]
    st.clock = lambda: now[0]
    return now
