"""Seed 000's dictionary form of the Nim game tree, and node counts of whole game trees.

``course_tree(4)`` reproduces Listing VIII.1 (``constrarbreNIM(4, {}, 0, 0)``) key for key:
``{'max_4-0': ['min_3-2', 'min_2-11', 'min_1-16'], 'min_3-2': [...], ...}``. A key is
``<max|min>_<matches left>-<identifier>``, the identifier being the seed's
``len(arbre) + i``: its own numbering, kept as it is so the output can be checked against
the course.
"""
from __future__ import annotations

from functools import lru_cache

from ai.course.search import minimax
from ai.teach.tree_view import path_of

MAX_DICT_N = 14   # the dictionary holds every node: 14 matches with k=3 is 6,872 keys


def course_tree(n: int, k: int = 3) -> dict[str, list[str]]:
    """Seed 000's ``constrarbreNIM(n, {}, 0, 0)``, for any k (the seed has k = 3).

    Raises ValueError when ``n`` is outside 0..MAX_DICT_N (the whole tree is built in memory).
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_DICT_N:
        raise ValueError(f"the dictionary form holds every node: n must be 0 to {MAX_DICT_N}, not {n!r}")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 9:
        raise ValueError(f"k must be 1 to 9, not {k!r}")
    nature = ["max", "min"]

    def label(kind, left, idt):
        return f"{kind}_{left}-{idt}"

    def build(left, tree, j, idt):
        node = label(nature[j], left, idt)
        tree[node] = []
        for i in range(1, k + 1):
            if left - i >= 0:
                tree[node].append(label(nature[1 - j], left - i, len(tree) + i))
                build(left - i, tree, 1 - j, len(tree) + i)
        return tree

    return build(n, {}, 0, 0)


def course_minmax(node: str, tree: dict) -> int:
    """Seed 000's Listing VIII.2 on the dictionary: a leaf controlled by max is +1 ("J0
    remporte la partie"), by min -1. The player to move with no match left wins, so this is
    the misere game (whoever takes the last match loses)."""
    if tree[node] == []:
        return 1 if "max" in node else -1
    values = [course_minmax(child, tree) for child in tree[node]]
    return max(values) if "max" in node else min(values)


@lru_cache(maxsize=None)
def _nim_count(n: int, k: int) -> int:
    if n <= 0:
        return 1
    return 1 + sum(_nim_count(n - i, k) for i in range(1, min(k, n) + 1))


def nim_tree_size(n: int, k: int = 3) -> int:
    """Nodes in the whole Nim game tree (root and leaves): T(n) = 1 + T(n-1) + ... + T(n-k).

    Seed 000: 15 for n=4; seed 003: 28 for n=5, "plus de 250'000" (266,079) for n=20.
    The variant does not change the tree, only its labels. Counted, not enumerated, so any n
    up to 1000 answers at once.
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1000:
        raise ValueError(f"n must be 0 to 1000, not {n!r}")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 9:
        raise ValueError(f"k must be 1 to 9, not {k!r}")
    for m in range(0, n, 200):   # fill the cache bottom-up: no deep recursion
        _nim_count(m, k)
    return _nim_count(n, k)


def checked_tree(game):
    """The whole game tree of ``game`` (an ``ai.games.nim.rules.Nim``) searched by minimax with the
    course's flat +1/-1, and how many of its nodes the theory agrees with: the player to move
    at r matches loses iff ``game.is_losing(r)``; minimax says the same when the node's value,
    from that player's side, is a loss. Returns ``(result, agree)``."""
    result = minimax(game, game.initial_state(), record=True, quick_wins=False)
    tree = result.tree
    agree = 0
    for node in tree.nodes:
        remaining = game.n - sum(path_of(tree, node))
        mover_loses_by_search = (node.value < 0) == node.is_max
        agree += mover_loses_by_search == game.is_losing(remaining)
    return result, agree

