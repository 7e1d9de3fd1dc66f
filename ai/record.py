"""The tree a search explored, recorded node by node and event by event.

Every value, alpha and beta here is from the side of the player at the root ("the
maximiser" of the course), never a raw negamax value that flips sign at every ply. Pruned
children are kept as nodes (``pruned=True``) so a picture can show what a cut saved.

``events`` replays the search step by step: ``enter`` a node with its window, ``leaf`` when a
position is scored, ``update`` when alpha or beta moves, ``cut`` when the rest of the children
are skipped, ``table`` when a transposition table entry decides a node, ``exit`` with the
value sent to the parent.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Node:
    id: int
    parent: int | None
    move: object            # the move that led here (None at the root)
    ply: int                # distance from the root
    is_max: bool            # True when the root player is to move (a "max" node)
    alpha: float | None = None   # window on entry, root player's side
    beta: float | None = None
    value: float | None = None   # value sent to the parent, root player's side
    kind: str = "inner"     # "inner", "terminal" (game over), "horizon" (depth limit: heuristic),
    #                         "settled" (a rule gave the value without its children: the fast
    #                         Connect-4 loop's forced losses and full boards, ai.fast_connect4)
    cutoff: bool = False    # this node stopped exploring its children early
    pruned: bool = False    # this node was never explored: a cut at its parent skipped it
    table: str | None = None  # "hit" when a table entry gave the value, "move" when it ordered
    pv: bool = False        # on the principal variation (the line both players will follow)
    children: list = field(default_factory=list)


class SearchTree:
    """Nodes in the order the search entered them; node 0 is the root."""

    def __init__(self, root_player: int):
        self.root_player = root_player
        self.nodes: list[Node] = []
        self.events: list[tuple] = []

    # -- called by the search ------------------------------------------------------------
    def enter(self, parent, move, ply, to_move, alpha, beta) -> int:
        sign = 1 if to_move == self.root_player else -1
        lo, hi = (alpha, beta) if sign == 1 else (-beta, -alpha)
        node = Node(len(self.nodes), parent, move, ply, sign == 1, lo, hi)
        self.nodes.append(node)
        if parent is not None:
            self.nodes[parent].children.append(node.id)
        self.events.append(("enter", node.id, lo, hi))
        return node.id

    def _root_view(self, node_id, value):
        return value if self.nodes[node_id].is_max else -value

    def leaf(self, node_id, kind, value):
        node = self.nodes[node_id]
        node.kind = kind
        node.value = self._root_view(node_id, value)
        self.events.append(("leaf", node_id, node.value, kind))

    def update(self, node_id, alpha, beta):
        sign_max = self.nodes[node_id].is_max
        lo, hi = (alpha, beta) if sign_max else (-beta, -alpha)
        self.events.append(("update", node_id, lo, hi))

    def cut(self, node_id, skipped_moves):
        node = self.nodes[node_id]
        node.cutoff = True
        for move in skipped_moves:
            child = Node(len(self.nodes), node_id, move, node.ply + 1, not node.is_max,
                         pruned=True)
            self.nodes.append(child)
            node.children.append(child.id)
        self.events.append(("cut", node_id, tuple(skipped_moves)))

    def table_hit(self, node_id, value):
        node = self.nodes[node_id]
        node.table = "hit"
        node.value = self._root_view(node_id, value)
        self.events.append(("table", node_id, node.value))

    def exit(self, node_id, value):
        node = self.nodes[node_id]
        node.value = self._root_view(node_id, value)
        self.events.append(("exit", node_id, node.value))

    # -- reading it ----------------------------------------------------------------------
    def mark_pv(self, moves):
        """Flag the nodes along ``moves`` from the root."""
        node = self.nodes[0]
        node.pv = True
        for move in moves:
            nxt = next((self.nodes[c] for c in node.children
                        if self.nodes[c].move == move and not self.nodes[c].pruned), None)
            if nxt is None:
                break
            nxt.pv = True
            node = nxt

    @property
    def explored(self) -> int:
        """Nodes the search visited (the seeds' "sommets explorés")."""
        return sum(1 for n in self.nodes if not n.pruned)

    @property
    def pruned_count(self) -> int:
        """Pruned subtrees: children that a cut skipped."""
        return sum(1 for n in self.nodes if n.pruned)
