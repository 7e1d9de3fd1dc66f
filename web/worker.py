"""The gunicorn worker of ``scripts/serve``: gevent's (``gunicorn.conf.py``), with the bounds
a server needs when no buffering proxy stands in front of it (a teacher's laptop serving the
classroom's network, where any phone is a client):

- a time limit for a whole request: its headers and its body must have arrived
  ``REQUEST_SECONDS`` (10 s) after the connection opened or its previous answer ended. A
  request late in its headers is closed without an answer (as nginx does); one late in its
  body gets a plain 408, and the connection is closed. The body is read whole before the
  app sees the request (at most ``MAX_BODY``, 64 KB: beyond, a 413), as a buffering proxy
  does: a slow body costs a waiting greenlet, not the app's work. Gunicorn alone had no
  limit for a body: ``Content-Length: 2000`` and no body held a connection for ever;
- at most ``CONNECTIONS_PER_ADDRESS`` (300) open connections of one client address in a
  worker, of the worker's ``worker_connections`` (1000): beyond, a connection gets a short 503
  with Retry-After and is closed at once, so one client cannot take every connection slot
  (slow bodies, slow headers, idle keep-alives). A class of 100 phones behind one school
  router is one address: each phone keeps one live stream and opens a few short connections
  (a browser opens at most 6 to a server), so about 100 to 300 at the worst moment, spread
  over the workers: 300 in each worker is room for it. The proxies of ``PROXY_ADDRESSES``
  are not limited (they bound their clients themselves);
- at most ``INCOMPLETE_CONNECTIONS`` (200, well under ``worker_connections``) connections in a
  worker that have not delivered a whole request (slow or half-sent headers, a body that does
  not come, an idle keep-alive waiting for its next request), whoever holds them. Over that
  ceiling, a new connection from an address that holds as many of them as any other is
  refused in the accept loop (a short 503, no greenlet); one from another address takes the
  place of the oldest waiting connection of the address that holds the most (``Waiting``).
  Connections whose request the app is answering (live streams included) are never closed
  for it. So several addresses together (8 phones, or a laptop with several addresses) share
  the ceiling and cannot hold the slots that another client needs: the per-address bound
  alone let 4 addresses fill a worker;
- an answer the client does not read is given up after ``SEND_SECONDS`` (30 s) per write;
- when the worker stops (a restart, a recycle after ``max_requests``), the live streams of
  class mode end at once and idle keep-alive connections are closed, so the worker exits
  in about a second instead of waiting the whole ``graceful_timeout`` for streams that
  never end; the pages' event sources reconnect by themselves.

Everything else is gunicorn's gevent worker (``gunicorn.workers.ggevent.GeventWorker``),
whose request handling reads the socket through ``GuardedSocket`` here.
"""
from __future__ import annotations

import errno
import io
import os
import socket
import time
from collections import Counter

import gevent
from gevent.server import StreamServer
from gunicorn.http.errors import NoMoreData
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestTimeout

from . import server_errors
from .security import PROXY_ADDRESSES

REQUEST_SECONDS = float(os.environ.get("REQUEST_SECONDS", 10))
CONNECTIONS_PER_ADDRESS = int(os.environ.get("CONNECTIONS_PER_ADDRESS", 300))
INCOMPLETE_CONNECTIONS = int(os.environ.get("INCOMPLETE_CONNECTIONS", 200))
SEND_SECONDS = float(os.environ.get("SEND_SECONDS", 30))
MAX_BODY = 64 * 1024      # bytes of a request's body (the app takes forms of 2 KB at most)


class TooSlow(RequestTimeout):
    """A request whose body did not arrive in time: the app answers its 408 page."""


class GuardedSocket:
    """A client connection as gunicorn's request handling sees it: reads bounded by the
    request's deadline, writes by ``SEND_SECONDS``; the rest is the socket's own."""

    def __init__(self, sock, address: str = "", waiting=None):
        self._sock = sock
        self.address = address
        self._waiting = waiting   # the worker's Waiting, told when this one waits or not
        self.deadline = None      # when the request being read must be whole
        self.received = 0         # bytes of it received so far
        self.in_app = False       # the app is answering (reading the body, if at all)
        self.late = False
        self.dropped = False      # closed to make room (Waiting.admit)
        if waiting is not None:
            waiting.add(self)

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def request_done(self) -> None:
        """The answer is sent: the next request's clock starts now."""
        self.deadline, self.received, self.in_app = None, 0, False
        if self._waiting is not None and not self.dropped:
            self._waiting.add(self)

    def answering(self) -> None:
        """The request is whole: the app answers it (a live stream, maybe, for long)."""
        self.in_app = True
        if self._waiting is not None:
            self._waiting.discard(self)

    def _too_late(self):
        self.late = True
        if self.in_app:
            raise TooSlow()
        raise NoMoreData(b"")     # gunicorn closes the connection without an answer

    def recv(self, size, *flags):
        if self.late or self.dropped:
            raise NoMoreData(b"")
        if self.deadline is None:
            self.deadline = time.monotonic() + REQUEST_SECONDS
        left = self.deadline - time.monotonic()
        if left <= 0:
            self._too_late()
        self._sock.settimeout(left)
        try:
            data = self._sock.recv(size, *flags)
        except TimeoutError:
            self._too_late()
        except OSError as err:
            if err.errno == errno.EBADF:    # closed while the worker stops: nothing to say
                raise NoMoreData(b"") from None
            raise
        finally:
            self._sock.settimeout(None)
        self.received += len(data)
        return data

    def sendall(self, data, *flags):
        return self._bounded(self._sock.sendall, data, flags)

    def send(self, data, *flags):
        return self._bounded(self._sock.send, data, flags)

    def _bounded(self, write, data, flags):
        """One write, within ``SEND_SECONDS``: a client that does not read its answer is cut."""
        self._sock.settimeout(SEND_SECONDS)
        try:
            return write(data, *flags)
        except TimeoutError:
            raise BrokenPipeError(errno.EPIPE, "the client does not read its answer") from None
        finally:
            self._sock.settimeout(None)


class Waiting:
    """The connections of a worker that have not delivered a whole request, by address, each
    address's oldest first: kept under ``INCOMPLETE_CONNECTIONS`` in all, in the accept loop.
    A new connection over the ceiling is refused (a short 503, no greenlet) when its address
    holds as many waiting connections as any other; else it takes the place of the oldest
    waiting connection of the address that holds the most. So addresses that hold slow or
    idle connections share the ceiling, and a client that holds none always gets in."""

    def __init__(self):
        self.by_address: dict[str, dict] = {}
        self.total = 0

    def add(self, conn) -> None:
        mine = self.by_address.setdefault(conn.address, {})
        if conn not in mine:
            self.total += 1
        mine.pop(conn, None)
        mine[conn] = None                 # the end: the newest

    def discard(self, conn) -> None:
        mine = self.by_address.get(conn.address)
        if mine is not None and conn in mine:
            del mine[conn]
            self.total -= 1
            if not mine:
                del self.by_address[conn.address]

    def admit(self, address: str) -> bool:
        """Whether a new connection from ``address`` may come in (making room if needed)."""
        if self.total < INCOMPLETE_CONNECTIONS:
            return True
        top = max(self.by_address, key=lambda a: len(self.by_address[a]))
        if len(self.by_address.get(address, ())) >= len(self.by_address[top]):
            return False
        oldest = next(iter(self.by_address[top]))
        self.discard(oldest)
        oldest.dropped = True
        try:                      # its reader sees the end of the connection, and closes it
            oldest._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        return True


class GuardedServer(StreamServer):
    """gevent's server of the worker's listening socket, which refuses a connection over its
    address's bound right in its accept loop: no greenlet, a few system calls, so that a
    flood of connections from one address is cheap to turn away and does not keep the
    accept queue long for everyone else."""

    refuse = None             # the worker's check: (client, address) -> refused?

    def do_handle(self, *args):
        if self.refuse is not None and self.refuse(*args[:2]):
            return
        super().do_handle(*args)


class GuardedWorker(GeventWorker):
    """gunicorn's gevent worker with a time limit per request, a bound per client address,
    and a quick stop (the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.per_address: Counter = Counter()
        self.connections: set[GuardedSocket] = set()
        self._refusals_logged: dict[str, float] = {}
        self.waiting = Waiting()  # connections without a whole request yet

    def init_process(self):
        # GeventWorker.run makes the listening socket's server from this module global
        ggevent.StreamServer = GuardedServer
        GuardedServer.refuse = self._over_bound
        super().init_process()

    def _over_bound(self, client, addr) -> bool:
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        if address not in PROXY_ADDRESSES and self.per_address[address] >= CONNECTIONS_PER_ADDRESS:
            self._refuse(client, address, "open")
            return True
        if not self.waiting.admit(address):
            self._refuse(client, address, "without a whole request")
            return True
        return False

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        guarded = GuardedSocket(client, address, self.waiting)
        self.per_address[address] += 1
        self.connections.add(guarded)
        try:
            super().handle(listener, guarded, addr)
        finally:
            self.waiting.discard(guarded)
            self.connections.discard(guarded)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    def handle_request(self, listener_name, req, sock, addr):
        if not self._buffer_body(req, sock):
            raise StopIteration()
        sock.answering()
        try:
            handled = super().handle_request(listener_name, req, sock, addr)
        finally:
            late = sock.late
            sock.request_done()
        if late:                  # the rest of a late body is not waited for
            raise StopIteration()
        return handled

    def _buffer_body(self, req, sock) -> bool:
        """Read the request's body whole before the app sees the request, as a buffering
        proxy would: a body that never comes costs a waiting greenlet, never the app's work.
        False (and a plain 408 or 413 sent) when it came late or is larger than
        ``MAX_BODY``; the connection is then closed."""
        if req.body is None:
            return True
        if getattr(req, "_expected_100_continue", False):
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            req._expected_100_continue = False
        try:
            data = req.body.read(MAX_BODY + 1)
        except NoMoreData:
            if sock.late:
                server_errors.write_error(sock, 408, "Request Timeout", "")
            return False
        if len(data) > MAX_BODY:
            server_errors.write_error(sock, 413, "Content Too Large", "")
            return False
        req.body = io.BytesIO(data)
        return True

    def _refuse(self, client, address: str, why: str = "open") -> None:
        """A short 503 to a connection over a bound, and closed at once; one log line per
        address per minute at most."""
        now = time.monotonic()
        if now - self._refusals_logged.get(address, -60.0) >= 60:
            self._refusals_logged[address] = now
            if why == "open":
                self.log.warning("Refusing connections from %s: %d open in this worker "
                                 "(at most %d)", address, self.per_address[address],
                                 CONNECTIONS_PER_ADDRESS)
            else:
                self.log.warning("Refusing connections from %s: %d connections without a "
                                 "whole request in this worker (at most %d in all), %d of them "
                                 "from %s", address, self.waiting.total,
                                 INCOMPLETE_CONNECTIONS,
                                 len(self.waiting.by_address.get(address, ())), address)
        try:
            client.setblocking(False)
            try:                  # what the client sent already, so that closing is no reset
                client.recv(65536)
            except OSError:
                pass
            client.send(server_errors.REFUSAL_ANSWER)
        except OSError:
            pass
        finally:
            client.close()

    def run(self):
        gevent.spawn(self._stop_quickly)
        super().run()

    def _stop_quickly(self):
        """Once the worker stops: end the live streams, close idle keep-alive connections."""
        while self.alive:
            gevent.sleep(0.25)
        from .classroom import live
        live.close_all()
        # a connection waiting for its next request is closed, now and as the answers end
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while self.connections and time.monotonic() < deadline:
            for conn in list(self.connections):
                if not conn.in_app and not conn.received:
                    try:
                        conn._sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
            gevent.sleep(0.1)
