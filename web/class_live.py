"""The live part of class mode in one worker: the open streams of this process, woken by the
store's events.

Under gunicorn's gevent worker (``gunicorn.conf.py``) a stream is a greenlet waiting on a
queue: it holds no search slot (``web.admission``) and blocks no other request, and a worker
holds hundreds of them. One listener per process (a greenlet too: ``ClassStore.listen``)
reads the store's events (SQLite's events table, or Redis pub/sub) and hands each to the
streams of its class here; the streams then read the class from the store once per wake
(events that come together are handled together). ``max_streams`` bounds the streams of a
worker: beyond it a stream is refused with a 503, and the page's event source tries again.
Outside gevent (tests, ``flask run``) the same code runs on threads.
"""
from __future__ import annotations

import os
import queue
import threading
from collections import OrderedDict

from .class_store import ClassStore

MAX_STREAMS = int(os.environ.get("CLASS_STREAMS", 600))   # per worker process


class Subscriber:
    """One open stream of class ``code``, woken by the events of ``kinds`` (None: all). A
    student's page does not care for each ballot of the teacher's chart: a vote of 60 does not
    wake 60 pages 60 times."""

    def __init__(self, code: str, kinds: frozenset | None = None):
        self.code, self.kinds = code, kinds
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


class Hub:
    """The streams of this worker process, by class code."""

    def __init__(self, store: ClassStore, max_streams: int = MAX_STREAMS):
        self.store, self.max_streams = store, max_streams
        self._subs: dict[str, set[Subscriber]] = {}
        self._lock = threading.Lock()
        self._listener_pid = None
        self._stop = threading.Event()
        self._cache: OrderedDict = OrderedDict()

    @property
    def streams(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def subscribe(self, code: str, kinds=None) -> Subscriber | None:
        """A new stream of ``code`` (woken by ``kinds`` of events, all by default), or None
        when this worker holds ``max_streams`` already."""
        with self._lock:
            if self.streams >= self.max_streams:
                return None
            self._start_listener()
            sub = Subscriber(code, frozenset(kinds) if kinds is not None else None)
            self._subs.setdefault(code, set()).add(sub)
            return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.code, set())
            subs.discard(sub)
            if not subs:
                self._subs.pop(sub.code, None)

    def dispatch(self, code: str | None, kind: str) -> None:
        """An event from the store: to the streams of its class (to all after a reconnection,
        when ``code`` is None, since events may have been missed)."""
        with self._lock:
            subs = [s for c, ss in self._subs.items() if code is None or c == code for s in ss
                    if s.kinds is None or kind in s.kinds]
        for sub in subs:
            sub.put(kind)

    def _start_listener(self) -> None:
        # once per process: a worker forked after the first stream starts its own
        if self._listener_pid == os.getpid():
            return
        self._listener_pid = os.getpid()
        self._listener = threading.Thread(target=self.store.listen, name="class-events",
                                          args=(self.dispatch, self._stop), daemon=True)
        self._listener.start()

    def cached(self, key, render):
        """``render()`` once per ``key`` (a class's board at a version, in a language): the
        streams of a class share one rendering of each board."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        html = render()
        with self._lock:
            self._cache[key] = html
            while len(self._cache) > 256:
                self._cache.popitem(last=False)
        return html

    def stop(self) -> None:
        """Stop listening (tests; a worker simply exits)."""
        self._stop.set()
        if self._listener_pid == os.getpid():
            self._listener.join(10)
