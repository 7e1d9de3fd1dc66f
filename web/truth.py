"""The truth beside the estimate in the tree panel: for the searched position (7x6 Connect-4),
every root move's exact outcome beside the depth-limited search's choice and value, the moves
the search misjudged marked, and a one-line summary ("alpha-beta chose column 3 (+38); exact:
column 3 draws, column 4 wins in 11 moves").

Computed after the panel's own search, through the admission lanes, by the analysis of
``ai.analysis`` (the table of solved positions and the book make most positions instant), within
``TIME_LIMIT``; the panel says so when the budget ran out.
"""
from __future__ import annotations

from dataclasses import dataclass

from ai import analysis

from .admission import Busy, admitted
from .hints import Hints, hints_apply, hints_of

TIME_LIMIT = 1.0


@dataclass(frozen=True)
class Truth:
    hints: Hints              # every column's exact outcome (web.hints)
    chosen: int | None        # 1-indexed column the search chose
    value: float | None       # its searched value (root player's side)
    misjudged: bool           # the choice is worse than the best exact outcome
    better: tuple             # 1-indexed columns whose exact outcome beats the choice's

    def hint(self, column: int):
        return self.hints.columns[column - 1]


def truth_for(panel) -> Truth | None:
    """The truth for a tree panel at its root (None: exact outcomes not asked for with the
    hints setting, not 7x6 Connect-4, no finished search, a node below the root shown, or no
    search slot free now). Asked for, not always: an exact analysis can take a second of CPU,
    and every tree panel of a classroom's games would pay it (bench/load.sh)."""
    if panel is None or getattr(panel, "too_large", True) or not panel.outcome_known \
            or panel.path or not hints_apply(panel.g) or not panel.g.settings.hints:
        return None
    g = panel.g
    state = g.states[panel.base]
    try:
        a = admitted(lambda: analysis.analyse_position(
            state.current, state.mask, state.moves, 7, 6, time_limit=TIME_LIMIT), heavy=True)
    except Busy:
        return None
    h = hints_of(a)
    move = panel.result.move
    chosen = None if move is None else move + 1
    scores = {c.column: c.score for c in h.columns if c.score is not None}
    mine = scores.get(chosen)
    better = tuple(c for c, s in scores.items() if mine is not None and s > mine)
    return Truth(h, chosen, panel.result.value, bool(better), better)
