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

The search that decides the move can record its own tree (``Recording``: one search per
tree, ``ai.engine``) although its principal variation, which says what to keep, is known only
when it ends: it records whole (with the events) while it is small, then keeps every node it
enters (no events; the leaves a node scores inline only as what scores them again), and its
end (``SearchTree.finish``) keeps what ``Focus(path, pv)`` keeps, node for node.

A search that records nothing is given ``NO_RECORD``, a recorder whose every call does
nothing (``recorder``): the search tells its recorder what happens and never asks whether it
records.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace


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
    #                         "settled" (a rule gave the value without its children: a game's
    #                         fast loop settles forced losses and full boards so)
    cutoff: bool = False    # this node stopped exploring its children early
    pruned: bool = False    # this node was never explored: a cut at its parent skipped it
    table: str | None = None  # "hit" when a table entry gave the value, "move" when it ordered
    table_bound: str | None = None  # at a hit: what the entry was, "exact", "lower" (at least
    #                         its value) or "upper" (at most), from the root player's side
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
        """Returns the paths of the nodes whose children are recorded: the prefixes of the two
        lines (a node whose children are the focus node's is recorded by ``keeps``)."""
        lines = [tuple(self.path), tuple(self.pv)]
        return frozenset(line[:i] for line in lines for i in range(len(line) + 1))


@dataclass(frozen=True)
class Recording:
    """What the tree panel asks of the search that decides (see the module's text): the tree
    whole, with the events of a step-by-step replay, if the search enters at most
    ``whole_nodes`` nodes; else the tree around ``Focus(path, the search's own principal
    variation)``. Past ``limit`` nodes (None: no limit) the tree stops keeping nodes
    (``SearchTree.overflow``: a search too large to draw keeps no tree). Pass it as a
    search's ``record=``."""

    path: tuple = ()
    whole_nodes: int = 0
    limit: int | None = None


def spent(record, nodes: int):
    """Returns the ``record`` argument for a search that comes after others of ``nodes``
    nodes in the same count (iterative deepening's next depth): a ``Recording``'s thresholds
    count the nodes already spent; any other argument as it is."""
    if not isinstance(record, Recording):
        return record
    return replace(record, whole_nodes=record.whole_nodes - nodes,
                   limit=None if record.limit is None else record.limit - nodes)


class NullRecorder:
    """The recorder of a search that records nothing: every call does nothing, and its tree
    (``finish``) is None."""

    __slots__ = ()

    def enter(self, parent, move, ply, to_move, alpha, beta):
        return None

    def leaf(self, node_id, kind, value):
        pass

    def update(self, node_id, alpha, beta):
        pass

    def cut(self, node_id, skipped_moves):
        pass

    def table_probe(self, node_id, key, table, entry, outcome):
        pass

    def table_store(self, node_id, key, table, entry):
        pass

    def table_hit(self, node_id, value):
        pass

    def table_move(self, node_id):
        pass

    def exit(self, node_id, value):
        pass

    def finish(self, pv, complete: bool):
        return None


NO_RECORD = NullRecorder()


def recorder(record, root_player: int) -> "SearchTree | NullRecorder":
    """Returns the recorder a search's ``record`` argument asks for: ``NO_RECORD`` (False),
    or a ``SearchTree`` (``new_tree``)."""
    return new_tree(record, root_player) or NO_RECORD


def _other(table, key):
    """The key of another position in ``key``'s place of ``table``, or None (empty, or this
    position's own entry)."""
    occupant = table.occupant(key)
    return None if occupant == key else occupant


def new_tree(record, root_player: int) -> "SearchTree | None":
    """Returns the tree a search's ``record`` argument asks for: None (False), whole (True),
    around a ``Focus``, or as a ``Recording`` says."""
    if not record:
        return None
    if isinstance(record, Recording):
        return SearchTree(root_player, recording=record)
    return SearchTree(root_player, record if isinstance(record, Focus) else None)


class SearchTree:
    """Nodes in the order the search entered them; node 0 is the root.

    With a ``focus``, only the nodes around it are kept (see the module's text): a node not
    kept gets the id ``~a`` (negative) where ``a`` is its nearest kept ancestor, which
    counts it in ``hidden[a]``; the search's later calls with that id only count.

    With a ``recording`` (``Recording``), every node entered is kept while the search runs,
    and ``finish`` keeps what the focus around the search's principal variation keeps."""

    def __init__(self, root_player: int, focus: Focus | None = None,
                 recording: Recording | None = None):
        self.root_player = root_player
        self.focus = focus
        self.nodes: list[Node] = []
        self.events: list[tuple] = []
        self.hidden: list[int] = []        # explored nodes below each node, not kept
        self.explored = 0                  # nodes the search visited (the seeds' "sommets explorés")
        self.pruned_count = 0              # children that a cut skipped
        self.cutoffs = 0
        self.table_hits = 0
        self.overflow = False              # a Recording's limit was passed: nodes not all kept
        self._entered_at: dict[int, int] = {}   # node -> nodes explored when it was entered
        self._stored_size: dict = {}        # key -> nodes below it when last stored
        self._events = focus is None        # events are recorded (a whole tree)
        self._recording = recording
        if focus is not None:
            self._open = focus.open_paths()
            self._focus_path = tuple(focus.path)
            self._paths: list[tuple] = []
        if recording is not None:
            self._whole_nodes = recording.whole_nodes
            self._limit = recording.limit
            self._events = self._whole_nodes >= 1
            self._left_at: dict[int, int] = {}  # node -> nodes explored when it was left
            self._later: dict[int, tuple] = {}  # node -> its inline leaves, to record if kept
            self._pruned_later: dict[int, list] = {}   # node -> the moves a cut there skipped
            self._filling = False               # recording those leaves now (finish)

    @property
    def whole(self) -> bool:
        """Every node is kept, with the events of a step-by-step replay."""
        return self.focus is None and self._events

    @property
    def defers(self) -> bool:
        """A ``Recording``: inline leaves are recorded at its end, only if kept
        (``scored_later``)."""
        return self._recording is not None

    # -- called by the search ------------------------------------------------------------
    def enter(self, parent, move, ply, to_move, alpha, beta) -> int:
        if self._recording is not None:
            if self._filling:                       # finish() recording inline leaves
                if parent < 0:
                    return parent
                return self._add(parent, move, ply, to_move, alpha, beta)
            self.explored += 1
            if self._events and self.explored > self._whole_nodes:
                self._events = False                # too large to replay step by step
                self.events = []
                self._stored_size = {}
            if self._limit is not None and self.explored > self._limit:
                self.overflow = True                # too large to draw: nodes only counted
                return -1
            if parent is not None and parent < 0:
                return parent
            nid = self._add(parent, move, ply, to_move, alpha, beta)
            self._entered_at[nid] = self.explored
            return nid
        self.explored += 1
        if self.focus is not None and parent is not None:
            if parent < 0:                          # below a node that is not kept
                self.hidden[~parent] += 1
                return parent
            path = self._paths[parent] + (move,)
            if self._paths[parent] not in self._open and path[:-2] != self._focus_path:
                self.hidden[parent] += 1
                return ~parent
        nid = self._add(parent, move, ply, to_move, alpha, beta)
        if self.focus is None:
            self._entered_at[nid] = self.explored
        else:
            self._paths.append(() if parent is None else path)
        return nid

    def _add(self, parent, move, ply, to_move, alpha, beta) -> int:
        """A new node, child of ``parent``, its window seen from the root player."""
        sign = 1 if to_move == self.root_player else -1
        lo, hi = (alpha, beta) if sign == 1 else (-beta, -alpha)
        node = Node(len(self.nodes), parent, move, ply, sign == 1, lo, hi)
        self.nodes.append(node)
        self.hidden.append(0)
        if parent is not None:
            self.nodes[parent].children.append(node.id)
        if self._events:
            self.events.append(("enter", node.id, lo, hi))
        return node.id

    def hidden_leaves(self, node_id, count: int, cut: bool, skipped: int) -> None:
        """``count`` children of a node that is not kept, scored without being entered
        (a game's fast loop scores depth-1 nodes so); a cut there skipped ``skipped`` more."""
        self.explored += count
        self.hidden[~node_id] += count
        if cut:
            self.cutoffs += 1
            self.pruned_count += skipped

    def scored_later(self, node_id, count: int, cut: bool, skipped: tuple, fill) -> None:
        """``count`` children of the node ``node_id``, scored without being entered (a game's
        fast loop's depth-1 nodes), recorded by ``fill(node_id)`` only if the tree keeps
        them (``finish``); a cut there skipped the moves ``skipped``. Only while ``defers``."""
        self.explored += count
        if cut:
            self.cutoffs += 1
            self.pruned_count += len(skipped)
        if node_id >= 0:
            self._later[node_id] = (fill, cut, skipped)
            self._left_at[node_id] = self.explored
            if self._events:
                self.events.append(("later", node_id))   # their events go here (finish)

    def _root_view(self, node_id, value):
        return value if self.nodes[node_id].is_max else -value

    def leaf(self, node_id, kind, value):
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.kind = kind
        node.value = self._root_view(node_id, value)
        if self._events:
            self.events.append(("leaf", node_id, node.value, kind))

    def update(self, node_id, alpha, beta):
        if not self._events or node_id < 0:    # only a step-by-step replay shows updates
            return
        sign_max = self.nodes[node_id].is_max
        lo, hi = (alpha, beta) if sign_max else (-beta, -alpha)
        self.events.append(("update", node_id, lo, hi))

    def cut(self, node_id, skipped_moves):
        if not (self._recording is not None and self._filling):
            self.cutoffs += 1
            self.pruned_count += len(skipped_moves)
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.cutoff = True
        if self._recording is not None and not self._events and not self._filling:
            if skipped_moves:                   # drawn only if kept: made then (keep_around)
                self._pruned_later[node_id] = skipped_moves
            return
        for move in skipped_moves:
            child = Node(len(self.nodes), node_id, move, node.ply + 1, not node.is_max,
                         pruned=True)
            self.nodes.append(child)
            self.hidden.append(0)
            node.children.append(child.id)
            if self.focus is not None:
                self._paths.append(self._paths[node_id] + (move,))
        if self._events:
            self.events.append(("cut", node_id, tuple(skipped_moves)))

    def table_hit(self, node_id, value):
        self.table_hits += 1
        if node_id < 0:
            return
        node = self.nodes[node_id]
        node.table = "hit"
        node.value = self._root_view(node_id, value)
        if self._events:
            self.events.append(("table", node_id, node.value))

    def table_probe(self, node_id, key, table, entry, outcome):
        """The search looked ``key`` up in ``table`` at this node (a whole tree only: a
        step-by-step replay shows it). ``entry`` is what it found, (depth, bound name, value,
        move) from the side to move at the node, or None; ``outcome`` says what became of it:
        "empty" (nothing for this position: its place is empty or holds another one),
        "depth" (searched to another depth), "bound" (a bound that does not settle the
        window), "hit" (it gives the node's value), "root" (the root is searched anyway)."""
        if node_id < 0:
            return
        if outcome == "hit":    # the tree says whether a hit's value was exact or a bound
            self.nodes[node_id].table_bound = self._entry_view(node_id, entry)[1]
        if not self._events:
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
        if not self._events or node_id < 0:
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
        if self._recording is not None:
            self._left_at[node_id] = self.explored
        if self._events:
            self.events.append(("exit", node_id, node.value))

    def add(self, node: Node) -> None:
        """Append a node built elsewhere (a tree made from other trees: ``ai.teach.exercise``)."""
        self.nodes.append(node)
        self.hidden.append(0)
        self.explored += not node.pruned
        self.pruned_count += node.pruned
        self.cutoffs += node.cutoff
        self.table_hits += node.table == "hit"

    def finish(self, pv, complete: bool) -> "SearchTree":
        """The search ended with the principal variation ``pv`` (``complete``: not stopped by
        a budget). A ``Recording`` larger than its whole size keeps what ``Focus(path, pv)``
        keeps (``keep_around``); a finished search's line is marked (``mark_pv``).

        Returns this tree."""
        if self._recording is not None and not self.overflow:
            if self.explored > self._whole_nodes:
                self.keep_around(Focus(self._recording.path, tuple(pv)))
            else:
                self._fill_whole()
        if complete:
            self.mark_pv(pv)
        return self

    def keep_around(self, focus: Focus) -> None:
        """Keep only the nodes a recording around ``focus`` keeps (the module's text), each
        with its value, window, kind and the count of what it folds, numbered as that
        recording numbers them (in the order the search entered them); drop the events."""
        old = self.nodes
        left_at = getattr(self, "_left_at", {})
        opened, focus_path = focus.open_paths(), tuple(focus.path)
        later = getattr(self, "_later", {})
        pruned_later = getattr(self, "_pruned_later", {})
        nodes, hidden = [], []

        def below(node) -> int:       # explored nodes under ``node`` (itself excluded)
            if node.pruned or not node.children and node.id not in later:
                return 0
            if self._recording is None:     # a whole tree: count them
                return sum((not old[c].pruned) + below(old[c]) for c in node.children)
            # a node the search never left was open when a budget stopped it
            return left_at.get(node.id, self.explored) - self._entered_at[node.id]

        def keep(node, parent, path) -> int:
            size = below(node)
            opens = path in opened or path[:-1] == focus_path
            if node.id in later:
                self._fill(node.id, later.pop(node.id), opens)
            if node.id in pruned_later:
                self._filling = True
                try:
                    self.cut(node.id, pruned_later.pop(node.id))
                finally:
                    self._filling = False
            kids = [old[c] for c in node.children]
            nid = len(nodes)
            node.id, node.parent, node.children = nid, parent, []
            nodes.append(node)
            hidden.append(0 if opens else size)
            for kid in kids:
                if opens or kid.pruned:
                    node.children.append(keep(kid, nid, path + (kid.move,)))
            return nid

        keep(old[0], None, ())
        self.nodes, self.hidden, self.focus = nodes, hidden, focus
        self.events, self._events = [], False
        self._entered_at, self._stored_size = {}, {}
        self._later, self._pruned_later = {}, {}

    def _fill_whole(self) -> None:
        """A ``Recording`` that stayed whole: record the inline leaves kept for later, their
        events where the search scored them, and number the nodes in the order the search
        met them (each node's inline leaves right after it), as a whole recording does."""
        if not self._later:
            return
        events, self.events = self.events, []
        for event in events:
            if event[0] == "later":
                self._fill(event[1], self._later.pop(event[1]), True)
            else:
                self.events.append(event)
        order = []

        def visit(node):
            order.append(node)
            for c in node.children:
                visit(self.nodes[c])

        visit(self.nodes[0])
        new_id = {node.id: i for i, node in enumerate(order)}
        for node in order:
            node.id = new_id[node.id]
            node.parent = None if node.parent is None else new_id[node.parent]
            node.children = [new_id[c] for c in node.children]
        self.nodes = order
        self.hidden = [0] * len(order)
        self.events = [(e[0], new_id[e[1]]) + e[2:] for e in self.events]

    def _fill(self, node_id, later, opens: bool) -> None:
        """Record the inline leaves of ``node_id`` kept for later (``scored_later``): all of
        them if the node's children are kept, else only the moves a cut there skipped."""
        fill, cut, skipped = later
        self._filling = True
        try:
            if opens:
                fill(node_id)
            elif cut:
                self.cut(node_id, skipped)
        finally:
            self._filling = False

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
