"""Where everything of a tree picture goes: the tree panel's SVG, the handout, a course card's
thumbnail and the lab's trees all draw from this one geometry (``tree_geometry``), with one
template (``templates/_tree.html``'s ``tree_svg``) that only draws what it is given.

The input is a view (``ai.teach.tree_view``: ``unfold`` or ``spine``, laid out in abstract
columns and rows) and what the picture says about each node (``Shown``); the words that take
room (a node's value, "3 268 nodes", a move) come as functions, since their language is the
page's. The output is in SVG user units (pixels at 100%): each node's centre and radius and
where its labels go, each edge's ends and where its move is written, and the picture's size.

Plain data in, plain data out: no Flask, no SVG here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from .tree_view import ViewNode, fit_text, text_width, walk, width, wrap_text

READABLE_PX = 18          # the least size of a tree's text on a projector, read from the back
#                           of a room (the size the project's projector tests ask of any text)
PROJECTOR_TEXT_PX = 20    # the projector's smallest tree text at the picture's natural size
#                           (static/app.css: α and β, "N nodes", TT)


@dataclass(frozen=True)
class NodeSpot:
    """One node's place and its labels' places."""

    x: float
    y: int
    r: int                      # half the node's size (a square's half side, a circle's radius)
    window: bool                # its alpha and beta are written under it
    size_side: bool             # its "N nodes" is written beside it (a line of best replies)
    scale: float                # its value's text scale to fit inside it (1: as is)
    side_w: float = 0           # how wide the value written beside it is (the course's
    #                             notation on its small game), so its "N nodes" goes after it

    @property
    def text_y(self) -> int:
        """The baseline of a text centred in the node."""
        return self.y + 6

    @property
    def name_y(self) -> int:
        """The baseline of the node's name, above it."""
        return self.y - self.r - 6

    @property
    def side_x(self) -> float:
        """Where a text beside the node starts (a value in the course's notation)."""
        return self.x + self.r + 6


@dataclass(frozen=True)
class EdgeSpot:
    """The edge from a node to one of its children, and where the child's move is written."""

    x1: float
    y1: int
    x2: float
    y2: int
    label_x: float
    label_y: float


@dataclass
class TreeGeometry:
    """The picture's size and every drawn node's and edge's place (by the child's node id)."""

    width: float
    height: int
    fit: bool                   # drawn to fit the panel (the text scales with it)
    lh: int                     # a label line's height
    fs: int                     # the move labels' font size
    value_size: int             # the nodes' values' font size
    nodes: dict = field(default_factory=dict)     # node id -> NodeSpot
    edges: dict = field(default_factory=dict)     # child's node id -> EdgeSpot
    least_width: int = 0        # on a projector, the narrowest a picture that fits its panel
    #                             is drawn: its smallest text at READABLE_PX (0: no limit)

    def ab_y(self, spot: NodeSpot, line: int) -> int:
        """The baseline of the ``line``-th label under ``spot`` (1: alpha, 2: beta)."""
        return spot.y + spot.r + line * self.lh - 4

    def size_xy(self, spot: NodeSpot) -> tuple:
        """Where the node's "N nodes" goes: beside it in a line of best replies, else under
        it, after its window if written."""
        if spot.size_side:
            return spot.x + spot.r + 8 + (spot.side_w + 16 if spot.side_w else 0), spot.y + 6
        return spot.x, self.ab_y(spot, (2 if spot.window else 0) + 1)

    def tt_xy(self, spot: NodeSpot) -> tuple:
        """Where "TT" (a table hit) goes: at the node's top right."""
        return spot.x + spot.r + 4, spot.y - spot.r + 8

    def ring_r(self, spot: NodeSpot) -> int:
        """Half the size of the ring drawn around a node whose value changed (the node's
        shape, a few pixels out: thick enough to see on a phone and from the back of a
        class)."""
        return spot.r + (6 if self.lh > 18 else 4)

    def cut_xy(self, spot: NodeSpot) -> tuple:
        """Where the scissors of a cut-off go: left of the node."""
        return spot.x - spot.r - 16, spot.y + 7


def tree_geometry(view: ViewNode, shown: dict, *, spine: bool = False, counted: bool = False,
                  hide: bool = False, names: bool = False, projector: bool = False,
                  standalone: bool = False, value_label: Callable = str,
                  size_label: Callable = str, plain_value: Callable = str,
                  move_label: Callable = str) -> TreeGeometry:
    """The geometry of the picture of ``view``, drawing the nodes ``shown`` holds.

    Args:
        view: the laid-out view; shown: node id -> ``Shown`` (what may be drawn).
        spine: a large search's row of moves and line of best replies (``tree_view.spine``).
        counted: the course's notation on its small game: what the game counts in each node
            (what the game counts there), its value beside it.
        hide: a question (nothing the search found; closer rows).
        names: each node's name above it, instead of the moves on the edges.
        projector: the projector's sizes; standalone: a picture on its own (a file, a
            thumbnail: the projector's larger text is for the page only).
        value_label(shown): a node's value as written in it ("≤ 11", "W3");
        size_label(n): "n nodes"; plain_value(v): a value without its bound ("+M");
        move_label(move): a move as people write it.

    Returns:
        the ``TreeGeometry``."""
    cols = width(view)
    big = projector and not standalone
    fit = (spine or cols <= 14) and not standalone
    lh = 26 if projector else 18
    fs = 21 if big else 13
    r = 27 if projector else 21
    # the lab's trees (a name above each node: the lab and a class's exercise) write their
    # text at 17 px off the projector (static/app.css .lab-tree), the others at 15
    value_size = 22 if big else 17 if names else 15
    drawn = [v for v in walk(view) if v.node.id in shown]

    def written(s) -> str:
        """A value as its node writes it: a question's leaves and a pruned leaf plain."""
        return str(plain_value(s.value) if hide or s.pruned else value_label(s))

    if not counted:
        # a node wide enough for its longest value at full size ("≤ −14", "W13", "M − 1/5"),
        # up to 1.9 times the usual; past that the value is drawn smaller to stay inside
        # (fit_text). A question's leaves and the pruned ones count too: the course's depth-2
        # tree writes its leaves "M − 1/5", which spilled over their neighbours (and 1.6 times
        # the usual wrote them at 14 px on a phone)
        widest = max((text_width(written(shown[v.node.id]), value_size) for v in drawn
                      if shown[v.node.id].value is not None), default=0)
        r = max(r, min(math.ceil((widest + 8) / 2), int(r * 1.9)))
    ux = (158 if projector else 124) if spine else (150 if projector else 112) if counted \
        else max(94 if projector else 72, 2 * r + 20)      # nodes apart, however wide
    if spine:           # the row of moves: columns wide enough for the sizes under them
        size_font = 20 if big else 13
        wide = max((text_width(size_label(shown[c.node.id].searched), size_font)
                    for c in view.children if c.node.id in shown), default=0)
        ux = max(ux, int(round(wide * 0.92 + 20, 0)))
    side_font = 22 if projector else 15

    def side_width(s) -> float:
        """How wide a value beside a node is drawn (bold: a tenth wider than the estimate)."""
        return 1.1 * text_width(str(value_label(s)), side_font) if s.value is not None else 0

    wide = 0
    if counted:         # the value beside each node ("−M + 1", "≤ M − 1/5"): a column wide
        #                 enough for the widest, and for the next node's scissors (✂)
        wide = max((side_width(shown[v.node.id]) for v in drawn
                    if not shown[v.node.id].pruned), default=0)
        ux = max(ux, int(round(2 * r + wide + 40, 0)))
    # rows: a question writes nothing under its nodes (closer rows); a large search's rows
    # are the root (its window under it), its moves (a number above, three lines under),
    # then its line of best replies, tighter: smaller nodes, their size beside them, so a
    # depth-9 line fits a projector's height
    uy = 2 * r + fs + 62 if hide else 2 * r + 3 * lh + 74
    mx = round(ux / 2, 0)
    my = r + 10 + (fs + 8 if names else 0)
    rc = int(round(r * 0.8, 0)) if spine else r
    row1 = 2 * r + 2 * lh + fs + 60
    row2 = row1 + 2 * r + 3 * lh + 24
    uy2 = 2 * rc + 26

    def row_y(d: int) -> int:
        if not spine:
            return int(my + d * uy)
        return int(my + ((0, row1, row2)[d] if d <= 2 else row2 + (d - 2) * uy2))

    depth = max((v.y for v in walk(view)), default=0)
    side = 140 if spine and view.children and view.children[-1].children else 0
    geometry = TreeGeometry(
        width=(cols - 1) * ux + 2 * mx + side + (r + 40 if counted else 0),
        height=row_y(depth) + r + 3 * lh + 12, fit=fit, lh=lh, fs=fs, value_size=value_size)

    def radius(v) -> int:
        return rc if spine and v.y >= 2 else r

    for v in drawn:
        s = shown[v.node.id]
        nr = radius(v)
        lines = not hide and not s.pruned and (not spine or v.y <= 1)
        scale = 1.0
        if not counted and s.value is not None:
            scale = round(fit_text(written(s), 2 * nr - 8, value_size) / value_size, 3)
        geometry.nodes[v.node.id] = NodeSpot(
            x=mx + v.x * ux, y=row_y(v.y), r=nr, window=lines and s.alpha is not None,
            size_side=spine and v.y > 1, scale=scale,
            side_w=side_width(s) if counted and not s.pruned else 0)
    # the picture is wide enough for what is written right of its nodes: a value beside a
    # node, a line of best replies' "N nodes" after it
    size_font = 20 if big else 13
    for v in drawn:
        s, spot = shown[v.node.id], geometry.nodes[v.node.id]
        right = spot.x + spot.r + 6 + spot.side_w
        if spot.size_side and s.searched and not s.pruned:
            right = geometry.size_xy(spot)[0] + text_width(size_label(s.searched), size_font)
        geometry.width = max(geometry.width, math.ceil(right + 8))
    for v in drawn:
        s, spot = shown[v.node.id], geometry.nodes[v.node.id]
        sized = not s.pruned and bool(s.searched) and bool(s.folded or (spine and v.y == 1))
        under = 0 if hide or s.pruned else (
            (2 if spot.window else 0) + (1 if sized and (not spine or v.y <= 1) else 0))
        y1 = spot.y + spot.r + under * lh + (6 if under else 0)
        for c in v.children:
            if c.node.id not in shown:
                continue
            child = geometry.nodes[c.node.id]
            vertical = child.x == spot.x
            # the move's number: above the child, where the edge ends (so no edge crosses
            # it); beside a vertical edge (a line of best replies) to its left
            y2 = child.y - child.r if vertical and not names else child.y - child.r - fs - 6
            if vertical:
                label = move_label(c.node.move)
                lx = round(spot.x - 0.36 * fs * len(label) - 10, 1)
                ly = round((y1 + y2) / 2 + 0.35 * fs, 1)
            else:
                lx, ly = child.x, child.y - child.r - 5
            geometry.edges[c.node.id] = EdgeSpot(spot.x, y1, child.x, y2, lx, ly)
    if big and fit:
        # A tree that fits is drawn smaller when its panel is narrower than the tree: on a
        # projector, never so small that a text reads under READABLE_PX (a lesson's
        # tree beside the class's question, 1,267 units in 822 px, wrote its α and
        # β in 13 px); narrower, its box scrolls across, the current step's node kept in view
        geometry.least_width = math.ceil(geometry.width * READABLE_PX / PROJECTOR_TEXT_PX)
    return geometry


def compact_geometry(view: ViewNode, *, fit_columns: int = 24,
                     projector: bool = False, room: int = 820) -> TreeGeometry:
    """The geometry of a whole small tree drawn compact (a game's whole tree beside its
    theory page): small nodes a column apart, one label under each (its value, at ``ab_y(spot,
    1)``), every edge leaving under that label (so none crosses it) and its move written
    halfway, right of the edge. Drawn to fit the page up to ``fit_columns`` columns, else at
    its size in a scrolling box.

    On a projector the sizes are the projector's (its 22 px text, nodes to hold it) and the
    rows are spaced to fill ``room`` px of height (a 1080 px screen under the page's header),
    never closer than the labels need: the course's small theory trees fit one screen at
    their natural size, with nothing scaled; a larger tree is scaled down to the panel's width,
    whole on the screen."""
    cols = width(view)
    depth = max((v.y for v in walk(view)), default=0)
    if projector:
        ux, r, margin, lh, fs, value_size = 62, 23, 34, 26, 21, 22
        uy = int(max(2 * r + lh + fs + 30, min(124, (room - 2 * margin - 24) / max(depth, 1))))
        fit = True
    else:
        ux, uy, r, margin, lh, fs, value_size = 46, 92, 17, 30, 17, 13, 14
        fit = cols <= fit_columns
    geometry = TreeGeometry(width=(cols - 1) * ux + 2 * margin, height=depth * uy + 2 * margin + 24,
                            fit=fit, lh=lh, fs=fs, value_size=value_size)
    for v in walk(view):
        geometry.nodes[v.node.id] = NodeSpot(x=margin + v.x * ux, y=margin + v.y * uy, r=r,
                                             window=False, size_side=False, scale=1.0)
    for v in walk(view):
        spot = geometry.nodes[v.node.id]
        y1 = spot.y + r + lh + 2
        for c in v.children:
            child = geometry.nodes[c.node.id]
            y2 = child.y - r
            # the move's number right of the edge's middle, clear of it
            geometry.edges[c.node.id] = EdgeSpot(spot.x, y1, child.x, y2,
                                                 (spot.x + child.x) / 2 + round(0.3 * fs + 3),
                                                 (y1 + y2) / 2 + round(0.35 * fs))
    return geometry


@dataclass(frozen=True)
class HandoutGeometry:
    """The handout (the tree panel's picture standing alone, to print or project from a
    file): its size and where its parts go."""

    width: int
    height: int
    caption_y: list             # each caption line's baseline
    board_y: int                # the top of the position's drawing (the game's: GameSpec.boards)
    tree_y: int                 # the top of the tree
    legend_lines: list          # (baseline, text) of the legend, wrapped


def handout_geometry(tree: TreeGeometry, caption_lines: int, legend_parts: list,
                     board_height: int) -> HandoutGeometry:
    """Where the handout's parts go: the title and settings, ``caption_lines`` lines of
    caption, the position (its drawing ``board_height`` high), the tree, and the legend's
    ``legend_parts`` wrapped to the page (SVG text does not wrap).

    Returns:
        the ``HandoutGeometry``."""
    w = max(int(tree.width), 760)
    legend = [line for part in legend_parts
              for line in wrap_text(part.strip(), (w - 32) / 0.9, 13)]
    by = 70 + 22 * caption_lines
    top = by + board_height
    height = top + int(tree.height) + 30 + 18 * len(legend)
    return HandoutGeometry(
        width=w, height=height, caption_y=[80 + 22 * i for i in range(caption_lines)],
        board_y=by, tree_y=top,
        legend_lines=[(top + int(tree.height) + 24 + 18 * i, line)
                      for i, line in enumerate(legend)])
