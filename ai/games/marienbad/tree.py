"""The size of Marienbad's game tree, counted, not walked: a node's subtree is itself and its
children's, and a position's count depends only on its heaps as a multiset, so the counts are
memoized on the sorted heaps (1, 3, 5, 7 has a few hundred such positions, and a tree of
billions of nodes)."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=None)
def _count(heaps: tuple[int, ...], depth: int | None) -> int:
    if depth == 0 or not any(heaps):
        return 1
    below = None if depth is None else depth - 1
    total = 1
    for i, h in enumerate(heaps):
        for left in range(h):
            child = tuple(sorted(heaps[:i] + (left,) + heaps[i + 1:]))
            total += _count(child, below)
    return total


def tree_size(heaps, depth: int | None = None) -> int:
    """Nodes of the game tree from ``heaps`` (root and leaves), to ``depth`` plies if given."""
    return _count(tuple(sorted(heaps)), depth)
