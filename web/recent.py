"""Recent searches, kept by each worker: a position asked for again with the same settings is
answered without searching again. That happens all the time: every game starts from the same
few positions, a class opens the same shared link, a page is reloaded, the tree panel of a move
is opened after the move.

Only searches whose result cannot depend on the clock are kept: the preset levels decided by
depth and node budget (``ai.levels.Level.load_independent``). A search is deterministic, so a
kept result is exactly what searching again would give (the same move, value, nodes and
tree); the summary's time is the search's own (``stats.elapsed``).

Per worker and per app, least recently used first out; a recorded tree takes far more memory
than a move (``ai.course.record``: up to a few thousand nodes), hence two sizes.
"""
from __future__ import annotations

import collections
import threading

from flask import current_app

MOVES_KEPT = 2_048       # results without a tree: a few hundred bytes each
TREES_KEPT = 48          # results with their tree: up to a few MB each


class RecentSearches:
    """A small least-recently-used map, safe across the worker's threads."""

    def __init__(self, size: int):
        self.size = size
        self._items: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key):
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def recent(kind: str) -> RecentSearches:
    """This app's recent searches of ``kind``: "moves" or "trees"."""
    store = current_app.extensions.setdefault("recent_searches", {})
    if kind not in store:
        store[kind] = RecentSearches(MOVES_KEPT if kind == "moves" else TREES_KEPT)
    return store[kind]
