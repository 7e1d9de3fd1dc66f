"""The tree a search explored, recorded node by node and event by event.

Every value, alpha and beta here is from the side of the player at the root ("the
maximiser" of the course), never a raw negamax value that flips sign at every ply. Pruned
children are kept as nodes (``pruned=True``) so a picture can show what a cut saved.

``events`` replays the search step by step: ``enter`` a node with its window, ``leaf`` when a
position is scored, ``update`` when alpha or beta moves, ``cut`` when the rest of the children
are skipped, ``table`` when a transposition table entry decides a node, ``exit`` with the
value sent to the parent.

A large search is recorded around what the tree panel can draw (``Focus``): the root, the
children of every node on the principal variation or on the way to the node in focus, and
the focus node's grandchildren. Every other node is only counted, as part of the nearest
recorded ancestor's folded subtree, so the panel's sizes ("1,506 nodes") and the caption's
counts stay exact while recording costs little more than searching. Such a tree has no
events: step by step replays only small searches, which are recorded whole.
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
    #                         Connect-4 loop's forced losses and full boards, ai.games.connect4.fast_search)
    cutoff: bool = False    # this node stopped exploring its children early
    pruned: bool = False    # this node was never explored: a cut at its parent skipped it
    table: str | None = None  # "hit" when a table entry gave the value, "move" when it ordered
    pv: bool = False        # on the principal variation (the line both players will follow)
    children: list = field(default_factory=list)


@dataclass(frozen=True)
class Focus:
    """What a recording keeps (see the module's text): the node at ``path`` (moves from the
    root) and the principal variation ``pv``, with their surroundings. Pass it as a search's
    ``record=`` instead of True."""

    path: tuple = ()
    pv: tuple = ()

    def open_paths(self) -> frozenset:
        """Nodes whose children are recorded: the prefixes of the two lines, and the focus
        node's children (so that its grandchildren are drawn, as ``tree_view.unfold`` does)."""
        lines = [tuple(self.path), tuple(self.pv)]
        return frozenset(line[:i] for line in lines for i in range(len(line) + 1))


def _other(table, key):
    """The key of another position in ``key``'s place of ``table``, or None (empty, or this
    position's own entry)."""
    occupant = table.occupant(key)
    return None if occupant == key else occupant


def new_tree(record, root_player: int) -> "SearchTree | None":
    """The tree a search's ``record`` argument asks for: None (False), whole (True), or
    around a ``Focus``."""
    if not record:
        return None
    return SearchTree(root_player, record if isinstance(record, Focus) else None)


class SearchTree:
    """Nodes in the order the search entered them; node 0 is the root.

    With a ``focus``, only the nodes around it are kept (see the module's text): a node not
    kept gets the id ``~a`` (negative) where ``a`` is its nearest kept ancestor, which
    counts it in ``hidden[a]``; the search's later calls with that id only count."""

    def __init__(self, root_player: int, focus: Focus | None = None):
        self.root_player = root_player
        self.focus = focus
        self.nodes: list[Node] = []
        self.events: list[tuple] = []
        self.hidden: list[int] = []        # explored nodes below each node, not kept
        self.explored = 0                  # nodes the search visited (the seeds' "sommets explorés")
        self.pruned_count = 0              # children that a cut skipped
        self.cutoffs = 0
        self.table_hits = 0
        self._entered_at: dict[int, int] = {}   # node -> nodes explored when it was entered
        self._stored_size: dict = {}        # key -> nodes below it when last stored
        if focus is not None:
            self._open = focus.open_paths()
            self._focus_path = tuple(focus.path)
            self._paths: list[tuple] = []

    @property
    def whole(self) -> bool:
        """Every node is kept, with the events of a step-by-step replay."""
        return self.focus is None

    # -- called by the search ------------------------------------------------------------
    def enter(self, parent, move, ply, to_move, alpha, beta) -> int:
        self.explored += 1
        if self.focus is not None and parent is not None:
            if parent < 0:                          # below a node that is not kept
                self.hidden[~parent] += 1
                return parent
            path = self._paths[parent] + (move,)
            if self._paths[parent] not in self._open and path[:-2] != self._focus_path:
                self.hidden[parent] += 1
                return ~parent
        sign = 1 if to_move == self.root_player else -1
        lo, hi = (alpha, beta) if sign == 1 else (-beta, -alpha)
        node = Node(len(self.nodes), parent, move, ply, sign == 1, lo, hi)
        self.nodes.append(node)
        self.hidden.append(0)
        if parent is not None:
            self.nodes[parent].children.append(node.id)
        if self.focus is None:
            self.events.append(("enter", node.id, lo, hi))
            self._entered_at[node.id] = self.explored
        else:
            self._paths.append(() if parent is None else path)
        return node.id

    def hidden_leaves(self, node_id, count: int, cut: bool, skipped: int) -> None:
        """``count`` children of a node that is not kept, scored without being entered
        (the fast Connect-4 loop's depth-1 nodes); a cut there skipped ``skipped`` more."""
        self.explored += count
        self.hidden[~node_id] += count
        if cut:
            self.cutoffs += 1
            self.pruned_count += skipped

    def _root_view(self, node_id, value):
        return value if self.nodes[node_id].is_max else -value

    def leaf(self, node_id, kind, value):
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.kind = kind
        node.value = self._root_view(node_id, value)
        self.events.append(("leaf", node_id, node.value, kind))

    def update(self, node_id, alpha, beta):
        if self.focus is not None:          # only a step-by-step replay shows updates
            return
        sign_max = self.nodes[node_id].is_max
        lo, hi = (alpha, beta) if sign_max else (-beta, -alpha)
        self.events.append(("update", node_id, lo, hi))

    def cut(self, node_id, skipped_moves):
        self.cutoffs += 1
        self.pruned_count += len(skipped_moves)
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.cutoff = True
        for move in skipped_moves:
            child = Node(len(self.nodes), node_id, move, node.ply + 1, not node.is_max,
                         pruned=True)
            self.nodes.append(child)
            self.hidden.append(0)
            node.children.append(child.id)
            if self.focus is not None:
                self._paths.append(self._paths[node_id] + (move,))
        if self.focus is None:
            self.events.append(("cut", node_id, tuple(skipped_moves)))

    def table_hit(self, node_id, value):
        self.table_hits += 1
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.table = "hit"
        node.value = self._root_view(node_id, value)
        if self.focus is None:
            self.events.append(("table", node_id, node.value))

    def table_probe(self, node_id, key, table, entry, outcome):
        """The search looked ``key`` up in ``table`` at this node (a whole tree only: a
        step-by-step replay shows it). ``entry`` is what it found, (depth, bound name, value,
        move) from the side to move at the node, or None; ``outcome`` says what became of it:
        "empty" (nothing for this position: its place is empty or holds another one),
        "depth" (searched to another depth), "bound" (a bound that does not settle the
        window), "hit" (it gives the node's value), "root" (the root is searched anyway)."""
        if self.focus is not None or node_id < 0:
            return
        seen = None if entry is None else self._entry_view(node_id, entry)
        saved = self._stored_size.get(key) if outcome == "hit" else None
        self.events.append(("probe", node_id, key, table.slot(key), _other(table, key), seen,
                            outcome, saved))

    def table_store(self, node_id, key, table, entry):
        """The search stored ``entry`` (depth, bound name, value, move; side to move) for the
        node's position, in its place of ``table`` (before it is written: the event says what
        it replaces). Remembers how many nodes the search took below it, which a later hit
        saves."""
        if self.focus is not None or node_id < 0:
            return
        size = self.explored - self._entered_at[node_id]
        self._stored_size[key] = size
        self.events.append(("store", node_id, key, table.slot(key), _other(table, key),
                            self._entry_view(node_id, entry), size))

    def _entry_view(self, node_id, entry):
        """A table entry seen from the root player (as every value here): the value's sign
        and the bound's side flip at a min node."""
        depth, bound, value, move = entry
        if not self.nodes[node_id].is_max:
            value = -value
            bound = {"exact": "exact", "lower": "upper", "upper": "lower"}[bound]
        return depth, bound, value, move

    def table_move(self, node_id):
        """A table entry gave the move to try first at this node."""
        if node_id >= 0:
            self.nodes[node_id].table = "move"

    def exit(self, node_id, value):
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.value = self._root_view(node_id, value)
        if self.focus is None:
            self.events.append(("exit", node_id, node.value))

    def add(self, node: Node) -> None:
        """Append a node built elsewhere (a tree made from other trees: ``ai.teach.exercise``)."""
        self.nodes.append(node)
        self.hidden.append(0)
        self.explored += not node.pruned
        self.pruned_count += node.pruned
        self.cutoffs += node.cutoff
        self.table_hits += node.table == "hit"

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
