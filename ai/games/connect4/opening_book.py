"""A compact reader of the ``bitbully-databases`` opening book (Markus Thill, MIT licence): the
exact score of every 7x6 Connect-4 position of 12 stones, up to mirror image.

The package's own pure-Python reader keeps a list of 4.2 million tuples (4 s to load, +455 MB
per process, measured here): unusable in a server's workers. This reader keeps one table of
5-byte records (28 MB, built in ~0.3-0.5 s): each position under the smaller of its key and its
mirror image's (the book keeps one of each pair, either), at a place its key hashes to
(``ai.games.connect4.solver_kernel``'s ``BOOK_RECORD`` comment says how). A look-up reads one record,
most often one cache line: the compiled solver probes the table from its inner loop
(``solver_kernel.book_probe_at``), ``OpeningBook.score`` is its readable twin. (It kept the
sorted keys, their scores and an index of the keys' ranges, 25 MB, read by binary search:
three cache misses a look-up, six when the mirror image was the one kept; at 9-11 stones,
where an analysis is a few dozen look-ups, the table takes ~15% less time:
docs/benchmarks.md.)

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
#: The table in memory (``solver_kernel``'s ``BOOK_RECORD`` comment says how it is laid out;
#: the compiled probe takes these two from here): bytes a record, and the hash's multiplier
#: (2**32 / golden ratio: Fibonacci hashing).
RECORD_BYTES = 5
HASH = 0x9E3779B1


@dataclass(frozen=True)
class OpeningBook:
    """The book in memory: its table of records (``ai.games.connect4.solver_kernel``'s
    ``BOOK_RECORD`` says how they are laid out), ``slots`` of them being the keys' homes;
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
        at = RECORD_BYTES * ((((u * HASH) & 0xFFFFFFFF) * self.slots) >> 32)
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
    from . import solver_kernel as K     # (the table is built and read by compiled code)
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
    """The book of this process, loaded once; None when the package is not installed."""
    try:
        return load()
    except (ImportError, OSError):
        return None
