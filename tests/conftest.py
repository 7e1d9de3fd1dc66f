"""Fixtures: the Flask app and test client (route tests), and for browser tests a live
gunicorn server started as the README does (same config file) on a free local port, with
Debian's Chromium driven by Playwright."""
import os
import shutil
import socket
import subprocess
import tempfile
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app import create_app

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The table of solved positions of a test run is its own, not the checkout's instance folder
# (the live server inherits this too): tests see what the solver finds, not an earlier run.
os.environ.setdefault("MINIMAX_SOLVED_DB", os.path.join(tempfile.mkdtemp(prefix="minimax-solved-"),
                                                        "solved.sqlite3"))


@pytest.fixture()
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_server():
    """The app under gunicorn, as ``scripts/serve`` runs it; yields its base URL."""
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / "gunicorn.log", "wb")   # a file, not a pipe: a full pipe blocks gunicorn
    proc = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", "app:create_app()"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                raise RuntimeError("gunicorn did not start: "
                                   + (ARTIFACTS / "gunicorn.log").read_text()[-2000:])
            time.sleep(0.1)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium (``scripts/test`` installs it), driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run scripts/test, which installs it")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"])
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
