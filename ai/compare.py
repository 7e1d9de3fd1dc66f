"""Algorithms side by side (seed 004 promises "comparaisons des algorithmes"): the same
position and depth searched by minimax, alpha-beta, alpha-beta with move ordering and
alpha-beta with the transposition table, and their node counts depth by depth.

Every run is bounded (nodes and time); a run that does not fit is reported as such, not
left to pin the machine.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from .messages import N_
from .search import TranspositionTable, alphabeta, minimax

VARIANTS = (
    ("minimax", N_("minimax")),
    ("alphabeta", N_("alpha-beta")),
    ("ordered", N_("alpha-beta, centre first")),
    ("table", N_("alpha-beta + table")),
)


def variants_for(game) -> tuple:
    """The variants that mean something for ``game``: "centre first" only where the game
    has a centre (Connect-4); elsewhere it would be plain alpha-beta a second time."""
    return tuple(v for v in VARIANTS if v[0] != "ordered" or getattr(game, "center_order", None))


@dataclass(frozen=True)
class Run:
    variant: str
    label: str
    depth: int
    complete: bool
    value: float | None
    move: object
    nodes: int
    cutoffs: int
    tt_hits: int
    ms: float


def run_variant(variant, game, state, depth, heuristic, *, max_nodes, time_limit, window="infinite"):
    # The course's algorithms (ai.search), node for node: not the fast Connect-4 loop.
    kwargs = dict(heuristic=heuristic, max_nodes=max_nodes, time_limit=time_limit)
    if variant == "minimax":
        r = minimax(game, state, depth, **kwargs)
    elif variant == "alphabeta":
        r = alphabeta(game, state, depth, window=window, **kwargs)
    elif variant == "ordered":
        r = alphabeta(game, state, depth, window=window, order="center", **kwargs)
    elif variant == "table":
        r = alphabeta(game, state, depth, window=window, order="center",
                      table=TranspositionTable(), **kwargs)
    else:
        raise ValueError(f"unknown variant {variant!r}")
    label = dict(VARIANTS)[variant]
    return Run(variant, label, depth, r.complete, r.value if r.complete else None,
               r.move if r.complete else None, r.stats.nodes, r.stats.cutoffs,
               r.stats.tt_hits, r.stats.elapsed * 1000)


def compare(game, state, depth: int, heuristic=None, *, max_nodes: int = 150_000,
            time_budget: float = 2.0, window="infinite"):
    """Each variant at ``depth``, then each at depths 1..depth for the chart.

    Returns ``(runs, per_depth)``: ``runs`` one Run per variant at ``depth``;
    ``per_depth[variant]`` a list of Runs at depths 1..depth (shorter when a depth did not
    fit: deeper ones would not either). The whole comparison stays within ``time_budget``
    seconds, each run within ``max_nodes``.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a whole number >= 1, not {depth!r}")
    deadline = time.perf_counter() + time_budget
    # Two thirds of the budget for the runs at full depth, the rest for the chart.
    variants = variants_for(game)
    share = time_budget * 2 / 3 / len(variants)

    def left():
        return max(0.01, min(share, deadline - time.perf_counter()))

    runs = [run_variant(v, game, state, depth, heuristic, max_nodes=max_nodes,
                        time_limit=left(), window=window) for v, _ in variants]
    share = max(0.01, (deadline - time.perf_counter()) / len(variants))
    per_depth = {}
    for v, _ in variants:
        series = []
        for d in range(1, depth + 1):
            if time.perf_counter() >= deadline:
                break
            run = run_variant(v, game, state, d, heuristic, max_nodes=max_nodes,
                              time_limit=left(), window=window)
            if not run.complete:
                break
            series.append(run)
        per_depth[v] = series
    # a run cut short at full depth may have fitted in the chart's pass: use that one
    for i, run in enumerate(runs):
        done = [r for r in per_depth[run.variant] if r.depth == depth]
        if not run.complete and done:
            runs[i] = done[0]
    return runs, per_depth
