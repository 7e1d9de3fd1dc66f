"""The gunicorn worker of ``scripts/serve``: gevent's (``gunicorn.conf.py``), with the bounds
a server needs when no buffering proxy stands in front of it (a teacher's laptop serving the
classroom's network, where any phone is a client):

- a time limit for a whole request: its headers and its body must have arrived
  ``REQUEST_SECONDS`` (10 s) after the connection opened or its previous answer ended. A
  request late in its headers is closed without an answer (as nginx does); one late in its
  body gets the app's 408 page, and the connection is closed. Gunicorn alone had none for a
  body: ``Content-Length: 2000`` and no body held a connection for ever;
- at most ``CONNECTIONS_PER_ADDRESS`` (300) open connections of one client address in a
  worker, of the worker's ``worker_connections`` (1000): beyond, a connection gets a short 503
  with Retry-After and is closed at once, so one client cannot take every connection slot
  (slow bodies, slow headers, idle keep-alives). A class of 100 phones behind one school
  router is one address: each phone keeps one live stream and opens a few short connections
  (a browser opens at most 6 to a server), so about 100 to 300 at the worst moment, spread
  over the workers: 300 in each worker is room for it. The proxies of ``PROXY_ADDRESSES``
  are not limited (they bound their clients themselves);
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
import os
import socket
import time
from collections import Counter

import gevent
from gunicorn.http.errors import NoMoreData
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestTimeout

from . import server_errors
from .security import PROXY_ADDRESSES

REQUEST_SECONDS = float(os.environ.get("REQUEST_SECONDS", 10))
CONNECTIONS_PER_ADDRESS = int(os.environ.get("CONNECTIONS_PER_ADDRESS", 300))
SEND_SECONDS = float(os.environ.get("SEND_SECONDS", 30))


class TooSlow(RequestTimeout):
    """A request whose body did not arrive in time: the app answers its 408 page."""


class GuardedSocket:
    """A client connection as gunicorn's request handling sees it: reads bounded by the
    request's deadline, writes by ``SEND_SECONDS``; the rest is the socket's own."""

    def __init__(self, sock):
        self._sock = sock
        self.deadline = None      # when the request being read must be whole
        self.received = 0         # bytes of it received so far
        self.in_app = False       # the app is answering (reading the body, if at all)
        self.late = False

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def request_done(self) -> None:
        """The answer is sent: the next request's clock starts now."""
        self.deadline, self.received, self.in_app = None, 0, False

    def _too_late(self):
        self.late = True
        if self.in_app:
            raise TooSlow()
        raise NoMoreData(b"")     # gunicorn closes the connection without an answer

    def recv(self, size, *flags):
        if self.late:
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
        self._sock.settimeout(SEND_SECONDS)
        try:
            return self._sock.sendall(data, *flags)
        except TimeoutError:
            raise BrokenPipeError(errno.EPIPE, "the client does not read its answer") from None
        finally:
            self._sock.settimeout(None)

    def send(self, data, *flags):
        self._sock.settimeout(SEND_SECONDS)
        try:
            return self._sock.send(data, *flags)
        except TimeoutError:
            raise BrokenPipeError(errno.EPIPE, "the client does not read its answer") from None
        finally:
            self._sock.settimeout(None)


class GuardedWorker(GeventWorker):
    """gunicorn's gevent worker with a time limit per request, a bound per client address,
    and a quick stop (the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.per_address: Counter = Counter()
        self.connections: set[GuardedSocket] = set()
        self._refusals_logged: dict[str, float] = {}

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        limited = address not in PROXY_ADDRESSES
        if limited and self.per_address[address] >= CONNECTIONS_PER_ADDRESS:
            self._refuse(client, address)
            return
        guarded = GuardedSocket(client)
        self.per_address[address] += 1
        self.connections.add(guarded)
        try:
            super().handle(listener, guarded, addr)
        finally:
            self.connections.discard(guarded)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    def handle_request(self, listener_name, req, sock, addr):
        sock.in_app = True
        try:
            handled = super().handle_request(listener_name, req, sock, addr)
        finally:
            late = sock.late
            sock.request_done()
        if late:                  # the rest of a late body is not waited for
            raise StopIteration()
        return handled

    def _refuse(self, client, address: str) -> None:
        """A short 503 to a connection over its address's bound, and closed at once; one
        log line per address per minute at most."""
        now = time.monotonic()
        if now - self._refusals_logged.get(address, -60.0) >= 60:
            self._refusals_logged[address] = now
            self.log.warning("Refusing connections from %s: %d open in this worker (at most %d)",
                             address, self.per_address[address], CONNECTIONS_PER_ADDRESS)
        try:
            server_errors.write_refusal(client)
            client.setblocking(False)
            try:                  # what the client sent already, so that closing is no reset
                client.recv(65536)
            except OSError:
                pass
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
        from . import class_live
        class_live.close_all()
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
