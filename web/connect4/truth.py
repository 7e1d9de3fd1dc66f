"""The truth beside the estimate in the tree panel (7x6 Connect-4, with the exact outcomes
setting ``hints=1``): for the node in focus, the root or a node up to ``MAX_DEPTH`` plies
below it (``path=`` in the link, a click on a node), every move's exact outcome beside the
value the depth-limited search gave it, the moves the search misjudged marked, and a one-line
summary ("The search chose column 3 (value +38); with perfect play that column is a draw.
Misjudged: column 4 does better.").

At the root, "chose" is the move the AI plays. Below it, on the principal variation, the
search's choice is the move whose value became the node's value (the line it expected there),
judged like the root's. Off the principal variation that value is only a bound (a cut-off
refuted the move leading there): the summary says so and judges nothing; a node the search
did not expand (its depth limit) gets the exact outcomes alone.

Computed after the panel's own search, through the admission lanes, by the analysis of
``ai.games.connect4.exact`` (the table of solved positions and the book make most positions instant),
within ``TIME_LIMIT`` and ``MAX_NODES``; a move not proven in that budget is given as the
interval proven ("at least a draw"), never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

from ai.games.connect4 import exact
from ai.teach.tree_view import node_at

from ..admission import Busy, admitted
from .hints import Hints, hints_apply, hints_of

TIME_LIMIT = 1.0
MAX_NODES = 20_000_000
MAX_DEPTH = 3                 # plies below the root where the truth is offered


@dataclass(frozen=True)
class Truth:
    hints: Hints              # every column's exact outcome (web.hints), for the side to move there
    chosen: int | None        # 1-indexed column the search chose at the node
    value: float | None       # its searched value (root player's side)
    misjudged: bool           # the choice is worse than the best exact outcome
    better: tuple             # 1-indexed columns whose exact outcome beats the choice's
    path: tuple = ()          # the node: moves from the root (empty: the root)
    searched: dict | None = None   # 1-indexed column -> the search's value there (root
    #                                player's side), for the moves it searched
    is_max: bool = True       # the root player is to move at the node
    bound: bool = False       # the chosen move's value is a bound (a cut-off), not exact

    def hint(self, column: int):
        return self.hints.columns[column - 1]

    @property
    def judged(self) -> int:
        """Moves with both an exact outcome and a searched value."""
        return sum(1 for c in self.searched or {} if self.hint(c).score is not None)


def applies(panel) -> bool:
    """Whether the panel's focus may get its truth: 7x6 Connect-4, a drawn tree whose search
    finished, a node at most ``MAX_DEPTH`` plies below the root, the hints setting on."""
    return (panel is not None and not getattr(panel, "too_large", True)
            and panel.outcome_known and len(panel.path) <= MAX_DEPTH
            and hints_apply(panel.g) and bool(panel.g.settings.hints))


def truth_for(panel) -> Truth | None:
    """The truth at the panel's focus (None: exact outcomes not asked for with the hints
    setting, not 7x6 Connect-4, no finished search, a node too deep, the game over there, or no
    search slot free now). Asked for, not always: an exact analysis can take a second of CPU,
    and every tree panel of a classroom's games would pay it (bench/load.sh)."""
    if not applies(panel):
        return None
    g = panel.g
    state = g.states[panel.base]
    for move in panel.path:
        state = g.rules.result(state, move)
    if g.rules.is_terminal(state):
        return None
    tree = panel.result.tree
    node = node_at(tree, panel.path)
    try:
        a = admitted(lambda: exact.analyse_position(
            state.current, state.mask, state.moves, 7, 6, time_limit=TIME_LIMIT,
            max_nodes=MAX_NODES), heavy=True)
    except Busy:
        return None
    h = hints_of(a)
    kids = [tree.nodes[c] for c in node.children]
    searched = {k.move + 1: k.value for k in kids if not k.pruned and k.value is not None}
    if not panel.path:
        move, value, bound = panel.result.move, panel.result.value, False
    else:
        # the child whose value the node took: on the principal variation if there is one
        gave = [k for k in kids if not k.pruned and k.value is not None and k.value == node.value]
        pick = next((k for k in gave if k.pv), gave[0] if gave else None)
        move = None if pick is None else pick.move
        value = None if pick is None else pick.value
        bound = not node.pv
    chosen = None if move is None else move + 1
    scores = {c.column: c.score for c in h.columns if c.score is not None}
    mine = scores.get(chosen)
    # off the principal variation the value is a bound: the search did not choose there, it
    # refuted the move leading there; no move of such a node is called misjudged
    better = () if bound else tuple(c for c, s in scores.items() if mine is not None and s > mine)
    return Truth(h, chosen, value, bool(better), better, tuple(panel.path), searched,
                 node.is_max, bound)
