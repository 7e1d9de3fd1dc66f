"""Turning a recorded search tree (``ai.course.record.SearchTree``) into something to draw.

- ``unfold(tree, path, levels)``: the node at ``path`` (moves from the root) with its children
  and grandchildren; deeper subtrees are folded and counted. A path is all the server needs
  to rebuild any view, so unfolding keeps no state between requests.
- ``layout(view)``: x/y for every visible node (leaves side by side, parents centred over
  their children), in abstract units (``ai.teach.tree_layout`` turns them into the picture's
  geometry, which one template draws).
- ``replay(tree, step)``: what the search knew after ``step`` events, for step-by-step play.
- ``caption_counts(tree)``: explored and pruned counts for "alpha-beta explored 9 of 28".
- What the picture may say about each node (``Shown``): ``finished_search`` (everything the
  search found), ``at_step`` (only what had happened after ``step`` events: a teacher can ask
  "what gets pruned next?") and ``question`` (an exercise: the leaves' given values, nothing
  the search found). The templates draw from these alone, so what must stay hidden is never
  in the page, not even in a tooltip.

Plain data in, plain data out: no Flask, no SVG here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ai.course.game import Game
from ai.course.record import Node, SearchTree
from ai.messages import GameError


@dataclass
class ViewNode:
    node: Node
    path: tuple                      # moves from the tree's root to this node
    children: list = field(default_factory=list)
    folded: int = 0                  # explored nodes hidden below (the node itself excluded)
    x: float = 0.0
    y: int = 0


def subtree_sizes(tree: SearchTree) -> list[int]:
    """Explored nodes in each node's subtree, itself included (pruned nodes count 0), those
    a recording around a focus only counted (``tree.hidden``) too."""
    sizes = [0] * len(tree.nodes)
    hidden = tree.hidden
    for node in reversed(tree.nodes):     # children are always recorded after their parent
        sizes[node.id] = ((0 if node.pruned else 1) + hidden[node.id]
                          + sum(sizes[c] for c in node.children))
    return sizes


def node_at(tree: SearchTree, path) -> Node:
    """The node reached by following ``path`` (moves) from the root.

    Raises ValueError naming the first step that is not a child there."""
    node = tree.nodes[0]
    for i, move in enumerate(path):
        nxt = next((tree.nodes[c] for c in node.children if tree.nodes[c].move == move), None)
        if nxt is None:
            raise GameError("step %(i)s of the path: no child %(move)r was searched there",
                            i=i + 1, move=move)
        node = nxt
    return node


def path_of(tree: SearchTree, node: Node) -> tuple:
    moves = []
    while node.parent is not None:
        moves.append(node.move)
        node = tree.nodes[node.parent]
    return tuple(reversed(moves))


def unfold(tree: SearchTree, path=(), levels: int = 2, sizes=None) -> ViewNode:
    """The node at ``path`` and ``levels`` generations below it; deeper parts folded."""
    sizes = sizes or subtree_sizes(tree)
    start = node_at(tree, path)

    def build(node, node_path, depth):
        view = ViewNode(node, node_path, y=depth)
        if depth < levels:
            view.children = [build(tree.nodes[c], node_path + (tree.nodes[c].move,), depth + 1)
                             for c in node.children]
        else:
            view.folded = sizes[node.id] - (0 if node.pruned else 1)
        return view

    root = build(start, tuple(path), 0)
    layout(root)
    return root


def best_child(tree: SearchTree, node: Node) -> Node | None:
    """The child that gave ``node`` its value: the one on the principal variation if there is
    one, else the first explored child whose value is the node's (None if none is kept). In
    a search a budget stopped, a node it did not finish has no value: its last child, the
    one being searched when the budget ran out."""
    kids = [tree.nodes[c] for c in node.children if not tree.nodes[c].pruned]
    if node.value is None:
        return kids[-1] if kids else None
    return (next((k for k in kids if k.pv), None)
            or next((k for k in kids if k.value is not None and k.value == node.value), None))


def spine(tree: SearchTree, path=(), sizes=None) -> ViewNode:
    """A large search as a class reads it: the node at ``path``, its children in one row
    (each folded, its size shown), and under the child that gave the node its value, the
    line of best replies down to the depth searched (the principal variation when the node is
    on it). One column per child, so the picture is as wide as the moves, not the tree."""
    sizes = sizes or subtree_sizes(tree)
    start = node_at(tree, path)
    line = best_child(tree, start)
    root = ViewNode(start, tuple(path), y=0)
    for c in start.children:
        child = tree.nodes[c]
        view = ViewNode(child, tuple(path) + (child.move,), y=1)
        root.children.append(view)
        if child is line:
            below, node = view, child
            while (nxt := best_child(tree, node)) is not None:
                deeper = ViewNode(nxt, below.path + (nxt.move,), y=below.y + 1)
                below.children.append(deeper)
                below, node = deeper, nxt
        for v in walk(view):
            kept = sum(sizes[k.node.id] for k in v.children)
            v.folded = sizes[v.node.id] - (0 if v.node.pruned else 1) - kept
    layout(root)
    return root


def layout(root: ViewNode) -> ViewNode:
    """Leaves one unit apart, left to right; a parent centred over its children."""
    next_x = [0.0]

    def place(view):
        if view.children:
            for child in view.children:
                place(child)
            view.x = (view.children[0].x + view.children[-1].x) / 2
        else:
            view.x = next_x[0]
            next_x[0] += 1
    place(root)
    return root


def walk(view: ViewNode):
    yield view
    for child in view.children:
        yield from walk(child)


def width(view: ViewNode) -> int:
    """Number of leaf columns in the laid-out view."""
    return sum(1 for v in walk(view) if not v.children)


# The width of a character in ems, for fitting a label (sans-serif, as drawn): digits and
# letters about 0.62; the wide signs (≤ ≥ − + ∞) about 0.84; a space or a comma 0.32.
_WIDE, _NARROW = set("≤≥−+∞=MW"), set(" ,.'/")


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` px (an upper estimate)."""
    return size * sum(0.84 if c in _WIDE else 0.34 if c in _NARROW else 0.64 for c in text)


def wrap_text(text: str, room: float, size: float) -> list[str]:
    """``text`` in lines no wider than ``room`` px at ``size`` px, broken between words (SVG
    text does not wrap: the handout's legend)."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size) > room:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + ([line] if line else [])


def fit_text(text: str, room: float, size: float, smallest: float = 9) -> float:
    """The font size (px, at most ``size``, at least ``smallest``) at which ``text`` fits
    in ``room`` px: a node's value stays inside its node ("−999", "≤ 11", "M − 3/5")."""
    wide = text_width(str(text), size)
    if wide <= room:
        return size
    return max(smallest, math.floor(size * room / wide * 10) / 10)


def caption_counts(tree: SearchTree) -> dict:
    return {"explored": tree.explored, "pruned": tree.pruned_count,
            "cutoffs": tree.cutoffs, "table_hits": tree.table_hits,
            "table_saved": table_saved(tree.events)}


def table_saved(events) -> int:
    """The nodes the table's hits saved among ``events``: for each hit, the nodes the search
    of that position took when its entry was stored (a whole tree's events; 0 without)."""
    return sum(e[7] or 0 for e in events if e[0] == "probe" and e[6] == "hit")


@dataclass
class ReplayNode:
    seen: bool = False
    alpha: float | None = None       # the window now (updates moved it)
    beta: float | None = None
    entry_alpha: float | None = None     # the window when the search entered the node
    entry_beta: float | None = None
    value: float | None = None
    done: bool = False
    cut: bool = False


def replay(tree: SearchTree, step: int):
    """What the search knew after its first ``step`` events.

    Returns ``(states, current)``: ``states[node_id]`` a ReplayNode, and ``current`` the event
    just played (None at step 0). Pruned children appear only when their parent's cut is
    played."""
    if not 0 <= step <= len(tree.events):
        raise ValueError(f"step must be from 0 to {len(tree.events)}, not {step}")
    states = [ReplayNode() for _ in tree.nodes]
    current = None
    for event in tree.events[:step]:
        kind, nid = event[0], event[1]
        st = states[nid]
        if kind == "enter":
            st.seen, st.alpha, st.beta = True, event[2], event[3]
            st.entry_alpha, st.entry_beta = event[2], event[3]
        elif kind == "update":
            st.alpha, st.beta = event[2], event[3]
        elif kind in ("leaf", "table", "exit"):
            st.value, st.done = event[2], True
        elif kind == "cut":
            st.cut = True
            for c in tree.nodes[nid].children:
                if tree.nodes[c].pruned:
                    states[c].seen = True
        current = event
    return states, current


@dataclass(frozen=True)
class Shown:
    """What the picture says about one node. A node the picture must not show at all (a
    step before the search reached it) has no ``Shown``."""

    value: float | None = None   # None: not known (still being searched, or never finished)
    alpha: float | None = None   # the window when the search entered the node, the one
    beta: float | None = None    # meaning of α and β in every picture (None: none shown,
    #                              as on a minimax tree, which has no window)
    pruned: bool = False         # a cut skipped it: drawn dashed
    cut: bool = False            # it skipped its remaining children (✂)
    pv: bool = False             # on the principal variation
    table_hit: bool = False      # a table entry gave its value
    folded: int = 0              # explored nodes below it that the view does not draw (+N)
    current: bool = False        # the event just replayed is about this node
    unfinished: bool = False     # a budget stopped the search before it had a value
    bound: str | None = None     # "upper": the value is at most ``value``; "lower": at least
    now_alpha: float | None = None   # at a step: the node's window after it (updates)
    now_beta: float | None = None
    searched: int = 0            # explored nodes from this node, itself included (so far)
    table_bound: str | None = None   # at a hit: the entry's kind, "exact", "lower" or "upper"
    changed: bool = False        # its value differs from the one a previous setting gave it
    before: float | None = None  # (a page comparing two heuristics): that previous value


def bound_of(node: Node, value, alpha, beta) -> str | None:
    """Whether a node's returned value is a bound rather than its value, from the window it
    was entered with (the root player's side, as values are): a return at or under α only
    says the value is at most that ("upper": ≤), one at or over β that it is at least that
    ("lower": ≥): the search stopped once it knew the node could not change the choice
    above (a cut-off, or every child failing low). A leaf's score is its value; a node
    without a window (minimax) has no bound."""
    if value is None or alpha is None or node.kind in ("terminal", "horizon", "settled") or node.pruned:
        return None
    if value <= alpha:
        return "upper"
    if value >= beta:
        return "lower"
    return None


def mark_changed(shown: dict[int, Shown], before: dict[int, float]) -> dict[int, Shown]:
    """``shown`` with the nodes of ``before`` marked ``changed``: node id -> the value a
    previous setting gave it, for the nodes the caller found changed (it knows what to
    compare: a bound shown now is no value to compare with); pruned ones are not marked."""
    out = dict(shown)
    for nid, old in before.items():
        s = shown.get(nid)
        if s is not None and not s.pruned:
            out[nid] = replace(s, changed=True, before=old)
    return out


def finished_search(view: ViewNode, window: bool = True, sizes=None) -> dict[int, Shown]:
    """Every node of ``view`` as the search left it: values (a bound marked as one), the
    windows on entry (none when ``window`` is False: minimax has none), cuts, pruned
    children, the principal variation, the nodes searched from each (``sizes``, from
    ``subtree_sizes``). A node still without a value was left unfinished when a budget
    stopped the search."""
    out = {}
    for v in walk(view):
        n = v.node
        a, b = (n.alpha, n.beta) if window else (None, None)
        out[n.id] = Shown(n.value, a, b, n.pruned, n.cutoff, n.pv, n.table == "hit", v.folded,
                          table_bound=n.table_bound if n.table == "hit" else None,
                          unfinished=n.value is None and not n.pruned,
                          bound=bound_of(n, n.value, a, b),
                          searched=sizes[n.id] if sizes else v.folded + (not n.pruned))
    return out


def at_step(tree: SearchTree, view: ViewNode, step: int,
            window: bool = True, replayed=None) -> tuple[dict[int, Shown], tuple | None]:
    """What had happened after the first ``step`` events of the search, for the nodes of
    ``view`` (a view of ``tree``): a node appears when the search enters it, its value when
    it is scored or returns, its window on entry (and, apart, the window at that step;
    neither when ``window`` is False), a pruned child when the cut
    that skips it happens, the principal variation after the last event only. Nothing the
    search had not done yet is in the result.

    ``replayed``: ``replay(tree, step)`` when the caller has it already (a panel reads one
    replay for its picture, its caption's counts and its breadcrumb), else made here.

    Returns ``(shown, current)``: ``current`` is the event just replayed (None at step 0).
    Raises ValueError for a step outside 0..len(tree.events)."""
    states, current = replay(tree, step) if replayed is None else replayed
    over = step == len(tree.events)
    # explored nodes seen so far in each subtree, for the "+N" of a folded node
    seen_below = [0] * len(tree.nodes)
    for node in reversed(tree.nodes):
        seen_below[node.id] = ((states[node.id].seen and not node.pruned)
                               + sum(seen_below[c] for c in node.children))
    shown = {}
    for v in walk(view):
        n, st = v.node, states[v.node.id]
        if not st.seen:
            continue
        value = st.value if st.done else None
        a, b = (st.entry_alpha, st.entry_beta) if window and not n.pruned else (None, None)
        shown[n.id] = Shown(
            value=value, alpha=a, beta=b,
            pruned=n.pruned, cut=st.cut, pv=over and n.pv,
            table_hit=n.table == "hit" and st.done,
            table_bound=n.table_bound if n.table == "hit" and st.done else None,
            folded=seen_below[n.id] - (not n.pruned) if v.folded else 0,
            current=current is not None and current[1] == n.id,
            bound=bound_of(n, value, a, b),
            now_alpha=st.alpha if window and not n.pruned else None,
            now_beta=st.beta if window and not n.pruned else None,
            searched=seen_below[n.id])
    return shown, current


def counts_at(tree: SearchTree, step: int, replayed=None) -> dict:
    """``caption_counts`` of what the search had done after ``step`` events (``replayed``:
    ``replay(tree, step)`` when the caller has it already)."""
    states, _ = replay(tree, step) if replayed is None else replayed
    return {"explored": sum(1 for n in tree.nodes if states[n.id].seen and not n.pruned),
            "pruned": sum(1 for n in tree.nodes if states[n.id].seen and n.pruned),
            "cutoffs": sum(1 for st in states if st.cut),
            "table_hits": sum(1 for n in tree.nodes if n.table == "hit" and states[n.id].done),
            "table_saved": table_saved(tree.events[:step])}


def question(view: ViewNode) -> dict[int, Shown]:
    """The tree as an exercise asks it: every node drawn alike, the leaves with their given
    values; no value, window, cut, pruned mark or best move that the search found."""
    return {v.node.id: Shown(value=v.node.value if v.node.kind == "terminal" else None)
            for v in walk(view)}


def full_tree_size(game, state, depth: int, limit: int = 25_000) -> int | None:
    """Nodes minimax visits from ``state`` to ``depth`` (root included): the "M" of
    "explored N of M". None when the count would pass ``limit``. The protocol's own count
    (``Game.tree_size``), position by position, whatever faster count the game has."""
    return Game.tree_size(game, state, depth, limit)
