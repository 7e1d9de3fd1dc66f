"""The live part of class mode in one worker: the open streams of this process, woken by the
store's events.

Under gunicorn's gevent worker (``gunicorn.conf.py``) a stream is a greenlet waiting on a
queue: it holds no search slot (``web.admission``) and blocks no other request, and a worker
holds hundreds of them. One listener per process (a greenlet too: ``ClassStore.listen``)
reads the store's events (SQLite's events table, or Redis pub/sub) and hands each to the
streams of its class here; the streams then read the class from the store once per wake
(events that come together are handled together).

Slots: a worker holds at most ``MAX_STREAMS`` streams, at most ``STREAMS_PER_ADDRESS`` of
one client address (a class of 100 phones behind one school router is 100 streams and a
teacher's two: it fits even if all land on one worker), ``STREAMS_PER_CLASS`` of one class
and ``STREAMS_PER_CLIENT`` of one browser (a few tabs). Beyond, a stream is refused with a
503 and the page's event source tries again. A slot is taken for a response that is then
sent, and given back when the server closes that response, whether its stream ran or not
(a HEAD request, a client gone before the first byte): ``Hub.subscribe`` and the
response's close hook. When the worker stops (a restart, a recycle), every stream ends at
once (``close_all``): the pages reconnect to another worker, and the restart does not wait
for streams that never end.
Outside gevent (tests, ``flask run``) the same code runs on threads.
"""
from __future__ import annotations

import os
import queue
import threading
import weakref
from collections import Counter, OrderedDict

from .store import ClassStore

MAX_STREAMS = int(os.environ.get("CLASS_STREAMS", 600))   # per worker process
STREAMS_PER_ADDRESS = int(os.environ.get("CLASS_STREAMS_PER_ADDRESS", 200))
STREAMS_PER_CLASS = int(os.environ.get("CLASS_STREAMS_PER_CLASS", 300))
STREAMS_PER_CLIENT = 8
STOP = "stop"             # the wake-up of a stream that ends: its worker stops
READ_WAIT = 10.0          # seconds a stream waits for the read another stream is making
# what a page redraws after its worker's listener (re)connects to the store (``dispatch``
# with no class): events may have been missed, a vote opened among them
RESYNC = ("board", "vote", "followers")
_HUBS: "weakref.WeakSet[Hub]" = weakref.WeakSet()


def close_all() -> None:
    """End every stream of this process (its worker is stopping): they say goodbye, and the
    pages reconnect to another worker."""
    for hub in list(_HUBS):
        hub.close()


class Subscriber:
    """One open stream of class ``code``, woken by the events of ``kinds`` (None: all). A
    student's page does not care for each ballot of the teacher's chart: a vote of 60 does not
    wake 60 pages 60 times."""

    def __init__(self, code: str, kinds: frozenset | None = None, address: str = "",
                 client: str = ""):
        self.code, self.kinds, self.address, self.client = code, kinds, address, client
        self.ended = False       # the worker stops: the stream ends
        self._events: queue.Queue = queue.Queue()

    def put(self, kind: str) -> None:
        self._events.put(kind)

    def wait(self, timeout: float) -> set[str]:
        """The kinds of event that came, waiting at most ``timeout`` seconds for the first;
        an empty set when none came (time for a heartbeat)."""
        try:
            kinds = {self._events.get(timeout=timeout)}
        except queue.Empty:
            return set()
        while True:
            try:
                kinds.add(self._events.get_nowait())
            except queue.Empty:
                return kinds


class Shared:
    """One read of a class that the streams of a worker share (``Hub.latest``), with what
    they draw from it: each drawing made once, for the first stream that needs it, then
    handed to every stream that would draw the same (100 phones of a class that voted for
    three moves: three drawings of their vote area per change, not 100)."""

    def __init__(self, value):
        self.value = value
        self._drawn: dict = {}
        self._lock = threading.Lock()

    def drawn(self, key, draw):
        """``draw()`` once per ``key`` for this read."""
        with self._lock:
            if key not in self._drawn:
                self._drawn[key] = draw()
            return self._drawn[key]


class Hub:
    """The streams of this worker process, by class code."""

    def __init__(self, store: ClassStore, max_streams: int = MAX_STREAMS,
                 per_address: int = STREAMS_PER_ADDRESS, per_class: int = STREAMS_PER_CLASS,
                 per_client: int = STREAMS_PER_CLIENT):
        self.store, self.max_streams = store, max_streams
        self.per_address, self.per_class, self.per_client = per_address, per_class, per_client
        self._subs: dict[str, set[Subscriber]] = {}
        self._addresses: Counter = Counter()
        self._clients: Counter = Counter()
        self.closing = False
        _HUBS.add(self)
        self._lock = threading.Lock()
        self._listener_pid = None
        self._stop = threading.Event()
        self._cache: OrderedDict = OrderedDict()
        self._renders: dict = {}                    # key -> Event: being rendered
        self._seq: dict[str | None, int] = {}       # events dispatched, per class
        self._epoch = 0                             # reconnections to the store
        self._states: dict[tuple, tuple] = {}       # (class, what) -> (seq, read after it)
        self._reads: dict[tuple, tuple] = {}        # (class, what) -> (seq, done): reading

    @property
    def streams(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def subscribe(self, code: str, kinds=None, address: str = "",
                  client: str = "") -> Subscriber | None:
        """A new stream of ``code`` (woken by ``kinds`` of events, all by default) for a
        client at ``address``; None when this worker holds its share of streams already
        (in all, of this address, of this class, of this client), or is stopping. Its slot
        is held until ``unsubscribe``."""
        with self._lock:
            if (self.closing or self.streams >= self.max_streams
                    or len(self._subs.get(code, ())) >= self.per_class
                    or (address and self._addresses[address] >= self.per_address)
                    or (client and self._clients[client] >= self.per_client)):
                return None
            self._start_listener()
            sub = Subscriber(code, frozenset(kinds) if kinds is not None else None,
                             address, client)
            self._subs.setdefault(code, set()).add(sub)
            self._addresses[address] += 1
            self._clients[client] += 1
            return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Give the slot of ``sub`` back (once, however often it is called)."""
        with self._lock:
            subs = self._subs.get(sub.code, set())
            if sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                self._subs.pop(sub.code, None)
            for counter, key in ((self._addresses, sub.address), (self._clients, sub.client)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    def close(self) -> None:
        """The worker stops: no new stream, and every open one is woken to end."""
        with self._lock:
            self.closing = True
            subs = [s for ss in self._subs.values() for s in ss]
        for sub in subs:
            sub.ended = True
            sub.put(STOP)

    def dispatch(self, code: str | None, kind: str) -> None:
        """An event from the store: to the streams of its class (to all after a reconnection,
        when ``code`` is None, since events may have been missed: each then redraws all it
        shows, every kind it listens to, ``RESYNC`` for a stream of all kinds; a phone woken
        for its board alone kept no vote opened meanwhile, and a tournament's page, which
        listens to none of ``RESYNC``, was not woken at all: its teacher's list of entries
        missed the first entry when the listener's first look came after it)."""
        with self._lock:
            if code is None:                         # every class may have changed
                self._states.clear()
                self._epoch += 1
                woken = [(s, k) for ss in self._subs.values() for s in ss
                         for k in (RESYNC if s.kinds is None else sorted(s.kinds))]
            else:
                self._seq[code] = self._seq.get(code, 0) + 1
                woken = [(s, kind) for s in self._subs.get(code, ())
                         if s.kinds is None or kind in s.kinds]
        for sub, k in woken:
            sub.put(k)

    def _start_listener(self) -> None:
        # once per process: a worker forked after the first stream starts its own
        if self._listener_pid == os.getpid():
            return
        self._listener_pid = os.getpid()
        self._listener = threading.Thread(target=self.store.listen, name="class-events",
                                          args=(self.dispatch, self._stop), daemon=True)
        self._listener.start()

    def latest(self, code: str, read, what="state", keep=None):
        """The class ``code`` as ``read(code)`` gives it, read once for all the streams of
        this worker woken by the same events (100 phones of a class: one read per change,
        not 100). A read made after the latest event of the class is shared; the next event
        makes the next stream read again. ``what`` names the kind of read (the class's state,
        or all the phones need), each shared apart. ``keep(value)``, when given, says whether
        a value read is what ``what`` promises: one that is not is this stream's alone.

        One read at a time per kind: the streams that wake while it runs wait for it rather
        than read too (under gevent a read yields to the event loop, and the other streams of
        the class, woken by the same event, would each start their own)."""
        key = (code, what)
        while True:
            with self._lock:
                seq = (self._epoch, self._seq.get(code, 0))
                hit = self._states.get(key)
                if hit is not None and hit[0] == seq:
                    return hit[1]
                flight = self._reads.get(key)
                mine = flight is None or flight[0] != seq
                if mine:
                    flight = self._reads[key] = (seq, threading.Event())
            if mine:
                break
            if not flight[1].wait(READ_WAIT):
                return read(code)            # a read stuck elsewhere: this stream's own
        try:
            state = read(code)
            with self._lock:
                if (self._epoch, self._seq.get(code, 0)) == seq and (keep is None
                                                                      or keep(state)):
                    self._states[key] = (seq, state)
                    if len(self._states) > 1000:
                        self._states = {key: (seq, state)}
        finally:
            with self._lock:
                if self._reads.get(key) is flight:
                    del self._reads[key]
            flight[1].set()                  # the waiters find the read (or read again)
        return state

    def cached(self, key, render):
        """``render()`` once per ``key`` (a class's board at a version, in a language): the
        streams of a class share one rendering of each board. One rendering at a time per
        key, as ``latest`` reads: the streams woken with it wait for it (on a busy machine a
        rendering outlasts the interpreter's switch interval, and the ten phones of a worker
        woken by one change drew the same board three times)."""
        while True:
            with self._lock:
                if key in self._cache:
                    self._cache.move_to_end(key)
                    return self._cache[key]
                flight = self._renders.get(key)
                mine = flight is None
                if mine:
                    flight = self._renders[key] = threading.Event()
            if mine:
                break
            if not flight.wait(READ_WAIT):
                return render()              # a rendering stuck elsewhere: this stream's own
        try:
            html = render()
            with self._lock:
                self._cache[key] = html
                while len(self._cache) > 256:
                    self._cache.popitem(last=False)
        finally:
            with self._lock:
                if self._renders.get(key) is flight:
                    del self._renders[key]
            flight.set()                     # the waiters find it (or, if it failed, render)
        return html

    def stop(self) -> None:
        """Stop listening (tests; a worker simply exits)."""
        self._stop.set()
        if self._listener_pid == os.getpid():
            self._listener.join(10)
