"""O(b^m) made visible (seed 002): a uniform tree of branching ``b`` and depth ``m``, and the
nodes minimax and alpha-beta visit on it, measured, beside the formulas.

Minimax visits every node: 1 + b + b^2 + ... + b^m. Alpha-beta depends on the order of the
children: on leaves in a random order it saves a part; with the best child always first
(perfect ordering) it scores about b^ceil(m/2) + b^floor(m/2) - 1 leaves (Knuth and Moore),
the square root of b^m. The trees are the lab's (``ai.teach.exercise_tree``), the counts the
course's algorithms' own (``ai.course.search``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .exercise_tree import ExerciseTree
from ai.messages import GameError
from ai.course.search import alphabeta, minimax

MAX_LEAVES = 20_000       # b^m at most: the page searches each tree three ways


def uniform_tree(b: int, m: int, seed: int = 1):
    """A tree of branching ``b`` and depth ``m`` with random leaf values 0-99 (seeded)."""
    rng = random.Random(f"{seed}-{b}-{m}")

    def build(depth):
        if depth == 0:
            return rng.randint(0, 99)
        return [build(depth - 1) for _ in range(b)]
    return build(m)


def best_first(tree, is_max: bool = True):
    """The same tree with each node's best child first (perfect move ordering)."""
    if not isinstance(tree, list):
        return tree, tree
    kids = [best_first(t, not is_max) for t in tree]
    kids.sort(key=lambda kv: kv[1], reverse=is_max)
    return [k for k, _ in kids], kids[0][1]


@dataclass(frozen=True)
class Growth:
    depth: int
    formula: int          # 1 + b + ... + b^m: every node
    minimax: int          # nodes minimax visited (measured)
    alphabeta: int        # nodes alpha-beta visited, leaves in a random order
    best: int             # nodes alpha-beta visited, best child first
    best_leaves: int      # leaves it scored then
    knuth_moore: int      # b^ceil(m/2) + b^floor(m/2) - 1: the best case's leaves


def growth(b: int, m: int, seed: int = 1) -> list[Growth]:
    """One row per depth 1..m."""
    if not (2 <= b <= 6 and 1 <= m <= 8):
        raise GameError("a branching of 2 to 6 and a depth of 1 to 8")
    if b ** m > MAX_LEAVES:
        raise GameError("the page grows trees of up to %(most)s leaves: %(b)s^%(m)s is %(n)s",
                        most=MAX_LEAVES, b=b, m=m, n=b ** m)
    rows = []
    for d in range(1, m + 1):
        tree = uniform_tree(b, d, seed)
        plain = ExerciseTree(tree)
        ordered = ExerciseTree(best_first(tree)[0])
        best = alphabeta(ordered)
        rows.append(Growth(d, (b ** (d + 1) - 1) // (b - 1), minimax(plain).stats.nodes,
                           alphabeta(plain).stats.nodes, best.stats.nodes, best.stats.leaves,
                           b ** ((d + 1) // 2) + b ** (d // 2) - 1))
    return rows
