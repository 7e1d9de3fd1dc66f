"""The course's trees for the exercise lab (seeds 000 and 003 draw them on the matches game),
as the nested lists of ``ai.teach.exercise_tree``."""
from __future__ import annotations


def nim_tree(n: int, k: int = 3, *, misere: bool = False, depth: int | None = None,
             max_score: float = 1):
    """The Nim game tree of ``n`` matches (take 1 to ``k``) as nested lists, the maximiser first,
    children in the order "take 1, take 2, ..." (the matches left: n-1, n-2, ...).

    A leaf with no match left scores ``+max_score`` when the maximiser wins there: in the
    normal game whoever took the last match wins (the node is then the loser's turn), in the
    misère game (seed 000's Listing VIII.2: a ``max`` leaf returns +1) he loses. With
    ``depth``, a node at that depth still in play is scored by seed 003's evaluation
    ``+maxScore − remaining/n`` (the maximiser's score)."""
    def build(left, ply):
        maximiser_to_move = ply % 2 == 0
        if left == 0:
            maximiser_won = maximiser_to_move == misere
            return max_score if maximiser_won else -max_score
        if depth is not None and ply == depth:
            return round(max_score - left / n, 6)
        return [build(left - t, ply + 1) for t in range(1, min(k, left) + 1)]
    return build(n, 0)


COURSE_TREES = {
    # seed 000, Listing VIII.1-2: N = 4, J0 (max) first, +1 where J0 wins, -1 where J1 wins;
    # the listing's game is the misère one (a ``max`` leaf returns +1): 15 nodes, root +1
    "nim4": dict(tree=nim_tree(4, misere=True), root="max", window="infinite", order="natural"),
    # seed 003: the tree of dimension 5, the maximiser first, ±maxScore written ±1: 28 nodes,
    # root +maxScore; alpha-beta in the course's window, children tried 3-2-1 as its figures
    "nim5": dict(tree=nim_tree(5), root="max", window="course", order="reverse"),
    # seed 003: depth 2 with +maxScore − remaining/5 (maxScore = 1) and pruning: "Seuls 9
    # sommets sur 28 sont explorés" (here 9 of the 12 nodes down to depth 2)
    # (``estimate_total``: the n its leaves' estimate divides by, 5 matches: the course's
    # notation writes them as the course does, M − 3/5)
    "nim5d2": dict(tree=nim_tree(5, depth=2), root="max", window="course", order="reverse",
                   estimate_total=5),
}
