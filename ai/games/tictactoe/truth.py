"""The truth beside the estimate: at a node of a recorded search, every move's exact outcome
(the solved game) beside the value the search gave it, and whether the search's choice there
is as good as the best (Connect-4's "truth" display, for a game solved whole).

At the root, the choice is the move the search plays. Below it, on the principal variation,
it is the move whose value became the node's value; off the principal variation that value
is only a bound (a cut-off refuted the move leading there), so nothing is judged there.
"""
from __future__ import annotations

from typing import NamedTuple

from ai.teach.tree_view import node_at
from .solver import Outcome, outcomes


class Row(NamedTuple):
    outcome: Outcome             # the exact outcome, for the player to move at the node
    searched: float | None       # the search's value of the move, same side (None: not searched)
    bound: str | None            # "upper"/"lower" when the searched value is only a bound
    chosen: bool                 # the search's choice at the node
    better: bool                 # its exact outcome beats the choice's


class Truth(NamedTuple):
    rows: tuple                  # one Row per legal move, in cell order
    chosen: Row | None           # the search's choice (None: it did not look below the node)
    misjudged: bool              # a move does better than the choice, with perfect play
    bound: bool                  # off the principal variation: the choice is a cut-off
    is_max: bool                 # the root player is to move at the node
    path: tuple                  # the node: moves from the root


def truth_at(state, tree, path, shown, root_move=None) -> Truth:
    """The truth at the node ``path`` (moves from the root) of ``tree``, whose position is
    ``state``.

    Args:
        shown: node id -> ``ai.tree_view.Shown`` (what the picture says: value and bound).
        root_move: at the root, the move the search played.
    Returns:
        A ``Truth``; its values are turned to the side of the player to move at the node
        (the tree keeps the root player's side).
    """
    node = node_at(tree, path)
    side = 1 if node.is_max else -1
    kids = {tree.nodes[c].move: tree.nodes[c] for c in node.children}
    if node.parent is None:
        choice, bound = root_move, False
    else:
        gave = [k for k in kids.values()
                if not k.pruned and k.value is not None and k.value == node.value]
        pick = next((k for k in gave if k.pv), gave[0] if gave else None)
        choice, bound = (None if pick is None else pick.move), not node.pv
    exact = outcomes(state)
    mine = next((o.value for o in exact if o.move == choice), None)
    rows = []
    for o in exact:
        k = kids.get(o.move)
        s = shown.get(k.id) if k is not None and not k.pruned else None
        value = None if s is None or s.value is None else side * s.value
        b = None if s is None else s.bound
        if b is not None and side < 0:       # a bound turns round with the side
            b = {"upper": "lower", "lower": "upper"}[b]
        rows.append(Row(o, value, b, o.move == choice,
                        not bound and mine is not None and o.value > mine))
    chosen = next((r for r in rows if r.chosen), None)
    return Truth(tuple(rows), chosen, any(r.better for r in rows), bound, node.is_max,
                 tuple(path))
