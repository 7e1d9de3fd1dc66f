"""Algorithms side by side (seed 004 promises "comparaisons des algorithmes"): the same
position and depth searched by minimax, alpha-beta, alpha-beta with move ordering and
alpha-beta with the transposition table, and their node counts depth by depth.

Every run is bounded (nodes and time); a run that does not fit is reported as such, not
left to pin the machine.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ai.messages import N_
from ai.course.search import alphabeta, fresh_table, minimax

VARIANTS = (
    ("minimax", N_("minimax")),
    ("alphabeta", N_("alpha-beta")),
    ("ordered", N_("alpha-beta, centre first")),
    ("table", N_("alpha-beta + table")),
)


def variants_for(game) -> tuple:
    """The variants that mean something for ``game``: "centre first" only where the game
    has a centre (its rules' ``center_order``); elsewhere it would be plain alpha-beta a second time."""
    return tuple(v for v in VARIANTS if v[0] != "ordered" or game.center_order)


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
    # The course's algorithms (ai.course.search), node for node: not a game's fast loop.
    kwargs = dict(heuristic=heuristic, max_nodes=max_nodes, time_limit=time_limit)
    if variant == "minimax":
        r = minimax(game, state, depth, **kwargs)
    elif variant == "alphabeta":
        r = alphabeta(game, state, depth, window=window, **kwargs)
    elif variant == "ordered":
        r = alphabeta(game, state, depth, window=window, order="center", **kwargs)
    elif variant == "table":
        r = alphabeta(game, state, depth, window=window, order="center",
                      table=fresh_table(), **kwargs)      # as alphabeta_tt's
    else:
        raise ValueError(f"unknown variant {variant!r}")
    label = dict(VARIANTS)[variant]
    return Run(variant, label, depth, r.complete, r.value if r.complete else None,
               r.move if r.complete else None, r.stats.nodes, r.stats.cutoffs,
               r.stats.tt_hits, r.stats.elapsed * 1000)


def compare(game, state, depth: int, heuristic=None, *, max_nodes: int = 40_000,
            total_nodes: int = 150_000, time_budget: float = 3.0, window="infinite"):
    """Each variant at ``depth``, then each at depths 1..depth for the chart.

    Returns ``(runs, per_depth)``: ``runs`` one Run per variant at ``depth``;
    ``per_depth[variant]`` a list of Runs at depths 1..depth (shorter when a depth did not
    fit: deeper ones would not either).

    Budgets are counted in nodes, so that the same position gives the same table on any
    machine under any load: each run at most ``max_nodes``, the whole comparison at most
    ``total_nodes`` (about 1 s of CPU here). ``time_budget`` is a safety cap that only a
    badly overloaded machine reaches.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a whole number >= 1, not {depth!r}")
    deadline = time.perf_counter() + time_budget
    spent = 0

    def run(variant, d):
        nonlocal spent
        budget = min(max_nodes, total_nodes - spent)
        if budget < 1 or time.perf_counter() >= deadline:
            return None
        r = run_variant(variant, game, state, d, heuristic, max_nodes=budget,
                        time_limit=deadline - time.perf_counter(), window=window)
        spent += r.nodes
        return r

    variants = variants_for(game)
    runs = []
    for v, label in variants:
        r = run(v, depth)
        runs.append(r or Run(v, label, depth, False, None, None, 0, 0, 0, 0.0))
    per_depth = {}
    for (v, _), full in zip(variants, runs):
        series = []
        for d in range(1, depth + 1):
            r = full if d == depth else run(v, d)   # the full-depth run is not repeated
            if r is None or not r.complete:
                break
            series.append(r)
        per_depth[v] = series
    return runs, per_depth
