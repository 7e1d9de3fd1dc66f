"""What a link cannot hold, kept in the class store under a short key, so that a link of a few
dozen characters reopens it after the class has gone: a finished tournament's standings too
big for a link a server opens (``web.tournament.results``). Names no game: it keeps
text.

The key is the text's own digest (SHA-256, its first 16 bytes in base64url: 22 characters),
so keeping the same text twice is one row, two workers keeping it at once agree, and a key
cannot be guessed from another. A text is kept ``KEEP_DAYS`` days from the last time it was
kept (``KEPT_LINK_DAYS``; a year by default), beside the classes but not with them: a class
lives a few hours, its standings' link a school year. Only the app keeps texts (a tournament
that ends), never a request's body: no client can fill the store.

The same interface on both backends (``kept_links_of``): a SQLite table beside the classes'
(``var/classes.sqlite3`` by default: it outlives a restart), or a Redis string with its
expiry.
"""
from __future__ import annotations

import base64
import hashlib
import os
import re

from .store import RedisStore, SqliteSideTables, side_of

KEEP_DAYS = float(os.environ.get("KEPT_LINK_DAYS", 365))
MAX_TEXT = 64_000             # characters kept at most (a Swiss of 200's standings: ~5,000)
KEY = re.compile(r"[A-Za-z0-9_-]{22}")


def key_of(text: str) -> str:
    """The key a text is kept under (see the module)."""
    digest = hashlib.sha256(text.encode()).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class KeptLinks:
    """What both backends do."""

    def keep(self, text: str) -> str:
        """``text`` kept (``KEEP_DAYS`` from now); its key."""
        raise NotImplementedError

    def get(self, key: str) -> str | None:
        """The text kept under ``key``; None when there is none (never kept, or expired), or
        ``key`` is not a key."""
        raise NotImplementedError

    @staticmethod
    def _check(text: str) -> None:
        if len(text) > MAX_TEXT:
            raise ValueError(f"at most {MAX_TEXT} characters kept, not {len(text)}")


class SqliteKeptLinks(SqliteSideTables, KeptLinks):
    SCHEMA = ("CREATE TABLE IF NOT EXISTS kept_links (key TEXT PRIMARY KEY, body TEXT NOT "
              "NULL, expires REAL NOT NULL)",)
    TABLES = ("kept_links",)

    def keep(self, text):
        self._check(text)
        key, now = key_of(text), self.store.clock()

        def keep(db):
            db.execute("DELETE FROM kept_links WHERE expires <= ?", (now,))
            db.execute("INSERT INTO kept_links VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE "
                       "SET expires = excluded.expires", (key, text, now + KEEP_DAYS * 86400))
        self._write(keep)
        return key

    def get(self, key):
        if not KEY.fullmatch(key):
            return None
        now = self.store.clock()
        row = self._read(lambda db: None if db is None else db.execute(
            "SELECT body FROM kept_links WHERE key = ? AND expires > ?", (key, now)).fetchone())
        return row[0] if row else None


class RedisKeptLinks(KeptLinks):
    def __init__(self, store: RedisStore):
        self.store = store

    def _k(self, key: str) -> str:
        return f"{self.store.prefix}kept-link:{key}"

    def keep(self, text):
        self._check(text)
        key = key_of(text)
        with self.store._errors():
            self.store.redis.set(self._k(key), text, ex=int(KEEP_DAYS * 86400))
        return key

    def get(self, key):
        if not KEY.fullmatch(key):
            return None
        with self.store._errors():
            return self.store.redis.get(self._k(key))


def kept_links_of(store) -> KeptLinks:
    """The kept links' side of ``store`` (made once per store)."""
    return side_of(store, "_kept_links", RedisKeptLinks, SqliteKeptLinks)
