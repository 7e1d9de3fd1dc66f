"""The opening book's record layout, read by both sides of it: the book's reader
(``opening_book``, which builds the table) and the compiled search (``solver_kernel``, which
probes it from its inner loop). Here, so that neither imports the other.

**The file** (``bitbully-databases``' ``book_12ply_distances.dat``): records of 5 bytes,
sorted by key. The key is a position's Huffman code (``huffman_key``): columns left to right,
each bottom to top, ``10`` for a stone of the first player, ``11`` for the second, ``0``
closing each column, one more ``0`` at the end: 12 x 2 + 7 + 1 = 32 bits, big-endian,
signed. The value byte is signed: 0 a draw, ``100 - v`` the plies to the end when the first
player (to move at 12 stones) wins, ``-(100 + v)`` when it loses (``to_pons_score``).

**The table in memory** (``opening_book.load`` builds it, ``solver_kernel.book_probe_at``
reads it, ``OpeningBook.score`` is its readable twin): records of ``RECORD_BYTES`` bytes, a
position's 32-bit key (little-endian; 0 for an empty record: no position of 12 stones has
that key) then its score, under the smaller of its key and its mirror image's (both read the
same record). A key's home is one of ``slots`` records (``home``); a record taken, it goes to
the next free one (linear probing, ~3/4 of the home records taken). The records were placed
in the order of their homes, so none wraps around: past the last home a few more records,
and an empty one, end the table. One look-up reads one record, most often one cache line: a
sorted array read through an index took three (the index, the key, the score), and a second
look-up for a mirror image it did not hold.
"""
from __future__ import annotations

BOOK_PLY = 12
WIDTH, HEIGHT = 7, 6
#: Bytes a record of the table: the key (4), the score (1).
RECORD_BYTES = 5
#: The hash's multiplier: 2**32 / golden ratio (Fibonacci hashing).
HASH = 0x9E3779B1


def home(u: int, slots: int) -> int:
    """The home record of the 32-bit key ``u`` among ``slots``: Fibonacci hashing (the key
    times ``HASH``, its low 32 bits) scaled to ``slots`` by a multiplication and a shift
    (Lemire's), no division. The compiled ``solver_kernel.book_slot`` is the same function."""
    return (((u * HASH) & 0xFFFFFFFF) * slots) >> 32


def huffman_key(current: int, mask: int, mirror: bool = False, width: int = WIDTH,
                height: int = HEIGHT) -> int:
    """The book's key of a position given as Pons' bitboards (``current``: the side to move,
    the first player at 12 stones), as a signed 32-bit number; ``mirror``: of its mirror
    image. The compiled ``solver_kernel.book_key`` is the same function."""
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
