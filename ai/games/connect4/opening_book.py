"""A compact reader of the ``bitbully-databases`` opening book (Markus Thill, MIT licence): the
exact score of every 7x6 Connect-4 position of 12 stones, up to mirror image.

The package's own pure-Python reader keeps a list of 4.2 million tuples (4 s to load, +455 MB
per process, measured here): unusable in a server's workers. This reader keeps two numpy
arrays, the sorted keys (``int32``) and the scores (``int8``), and an index of where each range
of keys starts (``index_of``): ~25 MB, loaded in a fraction of a second, looked up by binary
search, the position or else its mirror image (the book keeps one of each pair). The compiled
solver probes the same arrays from its inner loop (``ai.games.connect4.solver_kernel.book_probe``).

The file ``book_12ply_distances.dat``: records of 5 bytes, sorted by key. The key is a
position's Huffman code (the package's ``_to_huffman``): columns left to right, each bottom to
top, ``10`` for a stone of the first player, ``11`` for the second, ``0`` closing each column,
one more ``0`` at the end: 12 x 2 + 7 + 1 = 32 bits, big-endian, signed. The value byte is
signed: 0 a draw, ``100 - v`` the plies to the end when the first player (to move at 12
stones) wins, ``-(100 + v)`` when it loses. ``to_pons_score`` turns that into Pons' score;
the tests check a random sample of entries against our own solver (a book once had two wrong
entries: MarkusThill/Connect-Four #3), so the book is trusted only as far as it is checked.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

BOOK_PLY = 12
WIDTH, HEIGHT = 7, 6
_FILE = "book_12ply_distances.dat"
_RECORD = np.dtype([("key", ">i4"), ("value", "i1")])


@dataclass(frozen=True)
class OpeningBook:
    """The book in memory: ``keys`` sorted, ``scores`` in Pons' convention for the side to move
    (always the first player at 12 stones)."""

    keys: np.ndarray
    scores: np.ndarray
    ply: int
    path: str
    load_seconds: float
    index: np.ndarray = None      # index_of(keys), made by load()
    packed: np.ndarray = None     # keys then index in one array (the compiled probe's), load()

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.scores.nbytes + (0 if self.index is None else
                                                         self.index.nbytes)

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, current: int, mask: int) -> int | None:
        """The exact score of a position of ``ply`` stones (side to move), or None when the
        book does not hold it (nor its mirror image)."""
        if mask.bit_count() != self.ply:
            return None
        for mirror in (False, True):
            # The key as the array's own type: given a Python int, NumPy 2 converts the whole
            # 4.2-million-key array for each look-up (~5-10 ms instead of ~2 µs).
            k = self.keys.dtype.type(huffman_key(current, mask, mirror))
            i = int(np.searchsorted(self.keys, k))
            if i < len(self.keys) and self.keys[i] == k:
                return int(self.scores[i])
        return None


def huffman_key(current: int, mask: int, mirror: bool = False, width: int = WIDTH,
                height: int = HEIGHT) -> int:
    """The book's key of a position given as Pons' bitboards (``current``: the side to move,
    the first player at 12 stones), as a signed 32-bit number; ``mirror``: of its mirror
    image. The compiled ``ai.games.connect4.solver_kernel.book_key`` is the same function."""
    h1 = height + 1
    v = 0
    for i in range(width):
        c = width - 1 - i if mirror else i
        for r in range(height):
            bit = 1 << (c * h1 + r)
            if not mask & bit:
                break
            v = (v << 2) | (0b10 if current & bit else 0b11)
        v <<= 1
    v <<= 1
    return v - (1 << 32) if v >= 1 << 31 else v


def to_pons_score(value: int, ply: int = BOOK_PLY, cells: int = WIDTH * HEIGHT) -> int:
    """The book's value of a position of ``ply`` stones (an even number: the first player to
    move) as Pons' score: a win in ``d`` plies is the winner's ``(d + 1) // 2``-th stone from
    now; the score is ``cells/2 + 1`` minus the winner's stones at the end."""
    if value == 0:
        return 0
    d = 100 - abs(value)
    stones = ply // 2 + (d + 1) // 2
    return (cells // 2 + 1 - stones) * (1 if value > 0 else -1)


def book_path() -> str:
    """Where the installed package keeps the 12-ply book."""
    from importlib.resources import files
    return str(files("bitbully_databases").joinpath("assets", _FILE))


def load(path: str | None = None) -> OpeningBook:
    """Read the book (``path``: the installed package's by default).

    Raises:
        OSError: the file is missing or unreadable.
        ValueError: it is not a sorted book of 5-byte records.
    """
    start = time.perf_counter()
    path = path or book_path()
    if os.path.getsize(path) % _RECORD.itemsize:
        raise ValueError(f"{path}: not a book of {_RECORD.itemsize}-byte records")
    raw = np.fromfile(path, dtype=_RECORD)
    keys = raw["key"].astype(np.int32)
    values = raw["value"].astype(np.int16)
    del raw
    if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise ValueError(f"{path}: keys are not sorted, binary search would miss entries")
    # Pons' score of every value, by a table of the 256 possible bytes.
    table = np.array([to_pons_score(v) for v in range(-128, 128)], dtype=np.int8)
    scores = table[values + 128]
    packed = np.concatenate([keys, index_of(keys)])
    n = len(keys)
    return OpeningBook(packed[:n], scores, BOOK_PLY, path, time.perf_counter() - start,
                       packed[n:], packed)


#: The index's ranges: keys sharing their top ``32 - INDEX_SHIFT`` bits (``solver_kernel``'s too).
INDEX_SHIFT = 12


def index_of(keys: np.ndarray) -> np.ndarray:
    """Where each range of keys sharing their top 20 bits starts in the sorted ``keys`` (and
    one more entry, the end): 2**20 + 1 ``int32``, 4 MB. A binary search over 4.2 million keys
    is 22 steps, most of them cache misses; inside its range (77 keys at most in this book)
    it is ~4 (the compiled solver's book probes, ``solver_kernel.book_find``)."""
    buckets = (keys.astype(np.int64) >> INDEX_SHIFT) + (1 << (31 - INDEX_SHIFT))
    counts = np.bincount(buckets, minlength=1 << (32 - INDEX_SHIFT))
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)


@lru_cache(maxsize=1)
def shared() -> OpeningBook | None:
    """The book of this process, loaded once; None when the package is not installed."""
    try:
        return load()
    except (ImportError, OSError):
        return None
