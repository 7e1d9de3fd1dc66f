"""Geometry of the app's small SVG charts, computed here so the templates only draw: the
comparison page's two (log scale: node counts span orders of magnitude), iterative
deepening's convergence in the tree panel, and the growth of a uniform tree (/tree/growth)."""
from __future__ import annotations

import math


def comparison_charts(runs, per_depth, depth) -> dict:
    """Bars (nodes per algorithm at ``depth``) and lines (nodes per depth), with the y axis's
    ticks and the lines' labels pushed apart so they never overlap."""
    top = max([r.nodes for r in runs] + [1])
    scale = math.log10(top * 1.2) or 1
    bars = [dict(run=r, w=max(2.0, 340 * math.log10(max(r.nodes, 1)) / scale)) for r in runs]
    def x_of(d):
        return 60 + (d - 1) * (440 / max(depth - 1, 1))

    points = {}
    all_nodes = [r.nodes for series in per_depth.values() for r in series] or [1]
    ymax = math.log10(max(all_nodes) * 1.5)
    for variant, series in per_depth.items():
        points[variant] = [(x_of(r.depth), 230 - 200 * math.log10(max(r.nodes, 1)) / ymax, r) for r in series]
    ticks = [10 ** e for e in range(0, int(ymax) + 1)]
    yticks = [(230 - 200 * math.log10(t) / ymax, t) for t in ticks]
    labels, last = {}, -1e9
    for variant, pts in sorted(((v, p) for v, p in points.items() if p), key=lambda vp: vp[1][-1][1]):
        y = max(pts[-1][1] + 4, last + 15)
        labels[variant] = last = y
    xticks = [(x_of(d), d) for d in range(1, depth + 1)]
    return dict(bars=bars, points=points, xticks=xticks, yticks=yticks, labels=labels)


def iteration_chart(layers, shown: int | None, win_threshold: float, label=None,
                    label_px: float = 18) -> dict:
    """Iterative deepening's convergence: for each finished depth (``layers``: (depth, move,
    value, nodes)), a point at its value, labelled with the move chosen at that depth. A
    proven win or loss is drawn at the top or bottom edge (its value is thousands of times
    any estimate); estimates share the rest of the height. The points are far enough apart
    for their values as the page writes them (``label``: "−M + 1") at ``label_px`` (the
    projector's size) not to run into each other."""
    from ai.teach.tree_view import text_width
    estimates = [v for _, _, v, _ in layers if abs(v) < win_threshold] or [0]
    lo, hi = min(estimates + [0]), max(estimates + [0])
    span = (hi - lo) or 1
    step = 56
    if label is not None:
        step = max(step, math.ceil(max(text_width(str(label(v)), label_px)
                                       for _, _, v, _ in layers) + 12))
    x0 = max(30, math.ceil(step / 2))   # room for the first and the last value's half
    width, top, bottom = 2 * x0 + step * max(len(layers) - 1, 1), 28, 118

    def y_of(v):
        if v >= win_threshold:
            return top - 12
        if v <= -win_threshold:
            return bottom + 12
        return bottom - (v - lo) / span * (bottom - top)
    points = [dict(x=x0 + step * i, y=round(y_of(v), 1), depth=d, move=m, value=v, nodes=n,
                   shown=d == shown) for i, (d, m, v, n) in enumerate(layers)]
    changed = {p["depth"] for a, p in zip(points, points[1:]) if p["move"] != a["move"]}
    return dict(points=points, width=width, height=bottom + 62, zero=round(y_of(0), 1),
                changed=changed)


def growth_chart(rows, label=str, label_px: float = 16) -> dict:
    """Nodes against depth on a log scale: one line per way of searching. The y axis's
    labels (``label``: a count as the page writes it, "1 000" in French) get the room their
    width needs at ``label_px`` (the projector's size), so none is clipped at the left edge;
    ``left`` is where the axis starts, ``width`` the chart's."""
    from ai.teach.tree_view import text_width
    top = math.log10(max(r.formula for r in rows) * 1.5)
    exponents = range(0, int(top) + 1)
    names = [label(10 ** e) for e in exponents]
    left = max(50, round(max(text_width(n, label_px) for n in names)) + 14)
    def y(n):
        return round(210 - 190 * math.log10(max(n, 1)) / top, 1)
    def x(d):
        return left + (d - 1) * (400 / max(len(rows) - 1, 1))
    series = {key: [(x(r.depth), y(getattr(r, key)), getattr(r, key)) for r in rows]
              for key in ("minimax", "alphabeta", "best")}
    ticks = [(y(10 ** e), name) for e, name in zip(exponents, names)]
    return dict(series=series, ticks=ticks, xs=[(x(r.depth), r.depth) for r in rows],
                left=left, width=left + 470)
