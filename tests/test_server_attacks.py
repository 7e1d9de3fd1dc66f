"""Issue 22 against the README's server (gunicorn, gunicorn.conf.py, web/worker.py): one client
cannot stop it. Each test starts a server of its own with small bounds (a few connections,
streams and seconds), so that an attack fits in a test; the bounds' defaults are in
web/worker.py and web/classroom/live.py. The attacker connects from another loopback address
(127.0.0.2: Linux routes all of 127/8 to the loopback), the people it would hurt from
127.0.0.1. Timeouts here only guard against a hang; the outcome is what is asserted: an
answer, a refusal, a connection closed by the server. bench/attack.py measures."""
import http.client
import os
import re
import signal
import socket
import tempfile
import urllib.error
import urllib.request

import pytest

from conftest import ARTIFACTS, _free_port, class_env, start_gunicorn, stop_gunicorn

pytestmark = pytest.mark.server

ATTACKER = "127.0.0.2"
GUARD = 20          # seconds: a hang guard, never a measurement


@pytest.fixture()
def server(request, tmp_path):
    """A gunicorn of this test, with the environment ``request.param`` adds."""
    port = _free_port()
    log = f"gunicorn-{request.node.name[:40]}.log"
    (ARTIFACTS / log).unlink(missing_ok=True)
    proc = start_gunicorn(port, {**class_env(str(tmp_path)), **getattr(request, "param", {})},
                          log_name=log)
    yield port, proc, ARTIFACTS / log
    if proc.poll() is None:
        stop_gunicorn(proc)


def connect(port, source="127.0.0.1"):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(GUARD)
    s.connect(("127.0.0.1", port))
    return s


def read_all(s) -> bytes:
    """Everything the server sends until it closes the connection (a hang guard fails it)."""
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return data


def get(port, path="/"):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=GUARD) as r:
            return r.status
    except urllib.error.HTTPError as err:
        return err.code


def new_class(port) -> str:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD)
    c.request("POST", "/class", body="link=/connect4",
              headers={"Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    r.read()
    c.close()
    assert r.status == 303
    # the answer goes on to the teacher's board, the class's code in its link
    return re.search(r"[?&]cls=([A-Z0-9]+)", r.getheader("Location")).group(1)


def open_stream(port, code, source="127.0.0.1") -> tuple[socket.socket, bytes]:
    s = connect(port, source)
    s.sendall(f"GET /c/{code}/events HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return s, s.recv(200)


SLOW_BODY = (b"POST /class HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/"
             b"x-www-form-urlencoded\r\nContent-Length: 2000\r\n\r\nlink=")
SLOW_VOTE = (b"POST /c/ABCDEF/vote HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/"
             b"x-www-form-urlencoded\r\nContent-Length: 2000\r\n\r\nchoice=")
SLOW_HEADERS = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: "


@pytest.mark.parametrize("server", [{"WORKER_CONNECTIONS": "60", "CONNECTIONS_PER_ADDRESS": "20"}],
                         indirect=True)
def test_slow_bodies_and_headers_from_one_client_cannot_hold_every_connection(server):
    port, _, log = server
    held = []
    try:
        # three times the whole server's connections (2 workers x 60), never finished
        for i in range(180):
            s = connect(port, ATTACKER)
            s.sendall((SLOW_BODY, SLOW_BODY, SLOW_BODY, SLOW_BODY, SLOW_VOTE, SLOW_HEADERS)[i % 6])
            held.append(s)
        # people still get their pages
        for path in ["/", "/connect4", "/static/app.css", "/nim?n=11"]:
            assert get(port, path) == 200, path
        # the connections over the address's bound were refused with a plain 503
        refused = []
        for s in held:
            s.settimeout(0.2)
            try:
                refused.append(s.recv(200))
            except TimeoutError:
                pass
        assert [r for r in refused if r.startswith(b"HTTP/1.1 503")], refused[:3]
    finally:
        for s in held:
            s.close()
    assert "Refusing connections from 127.0.0.2" in log.read_text()


@pytest.mark.parametrize("server", [{"REQUEST_SECONDS": "2"}], indirect=True)
def test_a_body_that_never_comes_is_answered_408_and_the_connection_closed(server):
    port, _, log = server
    with connect(port, ATTACKER) as s:
        s.sendall(SLOW_BODY)
        answer = read_all(s)                   # the server closes it (a hang fails the test)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    with connect(port, ATTACKER) as s:
        s.sendall(SLOW_HEADERS)
        assert read_all(s) == b""               # late headers: closed without an answer
    assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("server", [{"CLASS_STREAMS": "30"}], indirect=True)
def test_head_requests_on_a_live_stream_take_no_slot(server):
    port, _, _ = server
    code = new_class(port)
    for _ in range(100):          # more than the server's 2 x 30 stream slots
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD)
        c.request("HEAD", f"/c/{code}/events")
        r = c.getresponse()
        r.read()
        c.close()
        assert r.status == 200
    # every student can still follow: two streams, on either worker
    streams = [open_stream(port, code) for _ in range(4)]
    try:
        assert all(head.startswith(b"HTTP/1.1 200") for _, head in streams), streams
    finally:
        for s, _ in streams:
            s.close()


@pytest.mark.parametrize("server", [{"CLASS_STREAMS": "30", "CLASS_STREAMS_PER_ADDRESS": "10"}],
                         indirect=True)
def test_one_address_cannot_hold_every_live_stream(server):
    port, _, _ = server
    code = new_class(port)
    theirs = []
    try:
        for _ in range(80):        # more than the server's 2 x 30 slots
            theirs.append(open_stream(port, code, ATTACKER))
        taken = [h for _, h in theirs if h.startswith(b"HTTP/1.1 200")]
        assert taken and len(taken) <= 20
        assert [h for _, h in theirs if h.startswith(b"HTTP/1.1 503")]
        mine = [open_stream(port, code) for _ in range(2)]
        assert all(h.startswith(b"HTTP/1.1 200") for _, h in mine), mine
        for s, _ in mine:
            s.close()
    finally:
        for s, _ in theirs:
            s.close()


def test_a_restart_ends_the_live_streams_instead_of_waiting_for_them(server):
    port, proc, log = server
    code = new_class(port)
    streams = [open_stream(port, code) for _ in range(6)]
    assert all(h.startswith(b"HTTP/1.1 200") for _, h in streams)
    proc.send_signal(signal.SIGTERM)
    for s, _ in streams:
        read_all(s)                        # each stream is ended by the server
        s.close()
    proc.wait(GUARD)
    # both workers exited by themselves: none was waited for until the master killed it
    assert log.read_text().count("Worker exiting") == 2
