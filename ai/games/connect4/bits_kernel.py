"""The two bitboard operations both compiled kernels use, written once: ``popcount`` (the stones
or cells in a bitboard) and ``wins`` (every cell where a side would complete a four), for
the exact solver's (``exact/solver_kernel.py``, ``exact/analysis_kernel.py``) and the levels'
depth-limited search's (``search_kernel.py``).

Both are compiled with ``inline="always"``: numba copies them into each caller before
compiling it, so a call costs nothing and the caller's own options apply. Since the callers
are cached apart from this file, ``exact/numba_cache.py`` counts it among the kernels' sources:
a change here compiles them all again.
"""
from __future__ import annotations

from .exact import numba_cache  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)

import numba

# As the kernels are compiled (exact/solver_kernel.py's KERNEL says why); inlined functions
# take their callers' options in any case.
INLINE = dict(inline="always", cache=True, nogil=True, error_model="numpy")


@numba.njit(**INLINE)
def popcount(x):
    """How many bits of ``x`` are set (the SWAR count: a few shifts and masks, no loop)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@numba.njit(**INLINE)
def wins(p, h):
    """Pons' ``compute_winning_position`` before masking, as ``bitboard``'s formula writes it:
    every cell, occupied or not, where ``p`` would complete a four (``h``: the height of a
    column plus one). Vertical: the three below; then, in each other direction ``s``, the
    pairs: ``d = p & (p >> s)`` holds two in a row, and a cell wins with two on one side and
    one on the other, or three on one side."""
    u = p << 1
    r = ((p & u) << 2) & u
    for s in (h, h + 1, h + 2):
        t = p >> s
        d = p & t
        r |= ((d >> s) & ((p >> 3 * s) | (p << s))) | ((d << 2 * s) & (t | (p << 3 * s)))
    return r
