"""Tic-tac-toe's evaluation as a weighted sum of named terms, as Connect-4's (issue 38: "open
lines by count, centre, corners"): the levels' heuristics, and any a student composes from
them, in one short text (``lines=1,open2=4,center=2``).

Every term is a count "mine minus the opponent's", from the side of ``player``::

    h(state, player) = clamp(sum of weight[i] x term[i](state, player))

kept strictly inside the heuristic bound (``ai.heuristics.clamp``): a proven win always
beats any estimate.

========== ===================================================================================
lines      the lines (rows, columns, diagonals) still open to me: none of the opponent's marks
           on them (Nilsson's ``e(p)``, the levels' ``lines`` heuristic: ``lines=1``)
open1      open lines holding one of my marks
open2      open lines holding two of my marks: a threat
center     my mark in the centre (in 4 lines)
corners    my marks in the corners (in 3 lines each)
cells      seed 000's cell values brought to 3x3 (centre 4, corners 3, edges 2: the lines
           through each cell), the levels' ``cells`` heuristic: ``cells=1``
========== ===================================================================================

The text form: ``name=number`` pairs separated by commas, each term at most once, the terms
not named weigh 0 (``parse``: the course's one parser, ``ai.course.weights``);
``format_weights`` writes the nonzero ones in the terms' order, so the same weights always
read the same. Anything else is refused with a message that says what is wrong
(``ai.messages.GameError``, a ``ValueError`` a user interface translates).
"""
from __future__ import annotations

from ai.course.weights import Terms
from ai.heuristics import clamp
from ai.messages import N_

from .board import LINES
from .heuristic import CELL_VALUES

TERMS = (("lines", N_("lines still open to me")),
         ("open1", N_("open lines with one mark")),
         ("open2", N_("open lines with two marks")),
         ("center", N_("the centre")),
         ("corners", N_("the corners")),
         ("cells", N_("the course's cell values")))
NAMES = tuple(name for name, _ in TERMS)
WRITTEN = Terms(NAMES, "lines=1,open2=4")     # the text form
CENTER = 1 << 4
CORNERS = (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8)


def parse(text: str) -> tuple:
    """The weights written as ``lines=1,open2=4`` -> one weight per term (``NAMES``' order),
    read by the course's one parser (``ai.course.weights``).

    Raises:
        ValueError: an empty text, a pair without ``=``, an unknown term, a term named twice,
            a weight that is not a number (or too large).
    """
    return WRITTEN.weights(WRITTEN.read(text))


def format_weights(weights: tuple) -> str:
    """The text form of ``weights`` (``parse`` reads it back): the nonzero ones in order."""
    parts = [f"{n}={int(w) if float(w).is_integer() else repr(float(w))}"
             for n, w in zip(NAMES, weights) if w]
    return ",".join(parts) or "lines=0"


def side(mine: int, theirs: int) -> tuple[int, ...]:
    """Each term's count for the player holding ``mine`` against ``theirs``."""
    open_ = [line for line in LINES if not theirs & line]
    return (len(open_),
            sum(1 for line in open_ if (mine & line).bit_count() == 1),
            sum(1 for line in open_ if (mine & line).bit_count() == 2),
            int(bool(mine & CENTER)),
            (mine & CORNERS).bit_count(),
            sum(v for i, v in enumerate(CELL_VALUES) if mine >> i & 1))


class WeightedHeuristic:
    """A heuristic of weighted terms: ``WeightedHeuristic(game, parse("lines=1,center=2"))``."""

    name = "weighted"
    label = N_("weighted terms")

    def __init__(self, game, weights: tuple | str):
        self.game = game
        self.weights = parse(weights) if isinstance(weights, str) else tuple(weights)
        WRITTEN.check(self.weights)

    def _counts(self, state, player):
        mine, theirs = (state.x, state.o) if player == 0 else (state.o, state.x)
        return side(mine, theirs), side(theirs, mine)

    def __call__(self, state, player):
        m, t = self._counts(state, player)
        v = clamp(sum(w * (a - b) for w, a, b in zip(self.weights, m, t)))
        return int(v) if float(v).is_integer() else v

    def terms(self, state, player) -> list[tuple[str, float, int, int]]:
        """(term, weight, player's count, opponent's count) for each weighted term."""
        m, t = self._counts(state, player)
        return [(n, w, a, b) for n, w, a, b in zip(NAMES, self.weights, m, t) if w]

    def __repr__(self):
        return f"<heuristic weighted {format_weights(self.weights)} tictactoe>"
