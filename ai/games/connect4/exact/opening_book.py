"""A compact reader of the ``bitbully-databases`` opening book (Markus Thill, MIT licence): the
exact score of every 7x6 Connect-4 position of 12 stones, up to mirror image.

The package's own pure-Python reader keeps a list of 4.2 million tuples (4 s to load, +455 MB
per process, measured here): unusable in a server's workers. This reader keeps one table of
5-byte records (28 MB, built in ~0.3-0.5 s): each position under the smaller of its key and its
mirror image's (the book keeps one of each pair, either), at a place its key hashes to
(``book_layout`` says how). A look-up reads one record,
most often one cache line: the compiled solver probes the table from its inner loop
(``solver_kernel.book_probe_at``), ``OpeningBook.score`` is its readable twin. (It kept the
sorted keys, their scores and an index of the keys' ranges, 25 MB, read by binary search:
three cache misses a look-up, six when the mirror image was the one kept; at 9-11 stones,
where an analysis is a few dozen look-ups, the table takes ~15% less time:
docs/benchmarks.md.)

**Built once, then mapped.** ``shared`` (the app's, the command line's) saves the table it built
in the kernels' cache directory (``numba_cache``: named after the kernels' sources, where the
table's layout lives too), under a key of the book file (its path, size and time), and the
next processes map that file (``numpy.load(..., mmap_mode="c")``) instead of building it: a
few milliseconds instead of 0.3-0.6 s of CPU at each start, and the pages are the system's
page cache, one copy for every process that maps them. ``load`` always builds it.

The file's records and the table's layout: ``book_layout``. ``to_pons_score`` turns a value
into Pons' score; the tests check a random sample of entries against our own solver (a book
once had two wrong entries: MarkusThill/Connect-Four #3), so the book is trusted only as far
as it is checked.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import solver_kernel as K     # the table is built and read by compiled code
from .book_layout import (BOOK_PLY, HEIGHT, RECORD_BYTES, WIDTH, home, huffman_key,  # noqa: F401
                          to_pons_score)

_FILE = "book_12ply_distances.dat"
_RECORD = np.dtype([("key", ">i4"), ("value", "i1")])


@dataclass(frozen=True)
class OpeningBook:
    """The book in memory: its table of records (``book_layout`` says how they are laid
    out), ``slots`` of them being the keys' homes;
    the scores in Pons' convention for the side to move (always the first player at 12
    stones)."""

    table: np.ndarray             # uint8, 5 bytes a record
    slots: int
    size: int                     # positions
    ply: int
    path: str
    load_seconds: float

    @property
    def nbytes(self) -> int:
        return self.table.nbytes

    def __len__(self) -> int:
        return self.size

    def score(self, current: int, mask: int) -> int | None:
        """The exact score of a position of ``ply`` stones (side to move), or None when the
        book does not hold it (nor its mirror image). The readable twin of the compiled
        probe (``solver_kernel.book_probe_at``): the record of the smaller of the two keys,
        from its home on."""
        if mask.bit_count() != self.ply:
            return None
        u = min(huffman_key(current, mask), huffman_key(current, mask, mirror=True)) & 0xFFFFFFFF
        at = RECORD_BYTES * home(u, self.slots)
        while True:
            record = self.table[at:at + RECORD_BYTES].tobytes()
            key = int.from_bytes(record[:4], "little")
            if key == u:
                return int.from_bytes(record[4:], "little", signed=True)
            if key == 0:
                return None
            at += RECORD_BYTES

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """Every position of the book as its file has it: the keys (sorted, ``int32``) and
        their scores (Pons', ``int8``), read again (for the tests and the tools: the table
        is what stays in memory)."""
        return read_records(self.path)


def book_path() -> str:
    """Where the installed package keeps the 12-ply book."""
    from importlib.resources import files
    return str(files("bitbully_databases").joinpath("assets", _FILE))


def read_records(path: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The book file's positions: their keys (sorted, ``int32``) and their scores (Pons',
    ``int8``).

    Raises:
        OSError: the file is missing or unreadable.
        ValueError: it is not a sorted book of 5-byte records.
    """
    path = path or book_path()
    if os.path.getsize(path) % _RECORD.itemsize:
        raise ValueError(f"{path}: not a book of {_RECORD.itemsize}-byte records")
    raw = np.fromfile(path, dtype=_RECORD)
    keys = raw["key"].astype(np.int32)
    values = raw["value"].astype(np.int16)
    del raw
    if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise ValueError(f"{path}: keys are not sorted")
    # Pons' score of every value, by a table of the 256 possible bytes.
    table = np.array([to_pons_score(v) for v in range(-128, 128)], dtype=np.int8)
    return keys, table[values + 128]


#: Records of the table past the homes, for the positions whose home is among the last and
#: taken (a few dozen at most: linear probing at 3/4 full), and an empty one to end it.
_TAIL = 4096


def load(path: str | None = None) -> OpeningBook:
    """Read the book (``path``: the installed package's by default) into its table.

    Raises:
        OSError: the file is missing or unreadable.
        ValueError: it is not a sorted book of 5-byte records.
    """
    start = time.perf_counter()
    path = path or book_path()
    keys, scores = read_records(path)
    slots = len(keys) * 4 // 3 + 1                  # 3/4 of the homes taken
    records = np.empty(len(keys), dtype=np.int64)
    K.book_homes(keys, scores, slots, WIDTH, HEIGHT, records)
    records.sort()                                  # by home: placed in order, none wraps
    table = np.zeros(RECORD_BYTES * (slots + _TAIL), dtype=np.uint8)
    end, size = K.book_place(table.ctypes.data, records)
    if end >= slots + _TAIL:                        # (never: a few dozen past the homes)
        raise ValueError(f"{path}: the table's records ran past its end")
    return OpeningBook(table, slots, size, BOOK_PLY, path, time.perf_counter() - start)


@lru_cache(maxsize=1)
def shared() -> OpeningBook | None:
    """The book of this process, loaded once: the table saved by an earlier process, mapped,
    else built (``load``) and saved for the next ones; None when the package is not
    installed."""
    try:
        path = book_path()
        return _mapped(path) or _saved(load(path))
    except (ImportError, OSError):
        return None


#: The saved table's files: the table (``.npy``) and its sizes (``.json``).
_SAVED = "opening-book-"


def _saved_base(path: str) -> str | None:
    """Where the table built from the book file ``path`` is saved (without the suffix): in
    the kernels' cache directory, under a hash of the file's path, size and time and of the
    kernels' sources; None when there is no such directory."""
    from . import numba_cache
    directory = numba_cache.cache_dir()
    if directory is None:
        return None
    st = os.stat(path)
    key = hashlib.sha256(f"{os.path.realpath(path)}|{st.st_size}|{st.st_mtime_ns}|"
                         f"{numba_cache.stamp()}|{_TAIL}".encode()).hexdigest()[:16]
    return os.path.join(directory, _SAVED + key)


def _mapped(path: str) -> OpeningBook | None:
    """The saved table of ``path``'s book, mapped copy-on-write (writable for the compiled
    code, never written: its pages stay the page cache's, shared); every page touched once,
    so that the processes forked from this one share them all. None when none was saved."""
    start = time.perf_counter()
    base = _saved_base(path)
    if base is None:
        return None
    try:
        with open(base + ".json") as f:
            sizes = json.load(f)
        mapping = np.load(base + ".npy", mmap_mode="c")
    except (OSError, ValueError):
        return None
    if mapping.dtype != np.uint8 or mapping.shape != (RECORD_BYTES * (sizes["slots"] + _TAIL),):
        return None
    table = np.asarray(mapping)          # a plain array over the mapping (numba's type)
    int(table[::4096].sum())             # one byte a page: the master maps every page
    return OpeningBook(table, sizes["slots"], sizes["size"], sizes["ply"], path,
                       time.perf_counter() - start)


def _saved(book: OpeningBook) -> OpeningBook:
    """Save ``book``'s table for the next processes (``_mapped``), replacing the tables of
    other versions of the book; a directory that cannot be written is skipped."""
    base = _saved_base(book.path)
    if base is None:
        return book
    directory = os.path.dirname(base)
    try:
        for old in glob.glob(os.path.join(directory, _SAVED + "*")):
            if not old.startswith(base + "."):
                os.remove(old)
        for suffix, write in ((".npy", lambda f: np.save(f, book.table)),
                              (".json", lambda f: f.write(json.dumps(
                                  {"slots": book.slots, "size": book.size,
                                   "ply": book.ply}).encode()))):
            with tempfile.NamedTemporaryFile(dir=directory, prefix=_SAVED, suffix=".tmp",
                                             delete=False) as f:
                write(f)
            os.replace(f.name, base + suffix)      # whole or not at all, for a reader
    except OSError:
        pass
    return book
