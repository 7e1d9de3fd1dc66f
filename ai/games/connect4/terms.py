"""Connect-4's evaluation as a weighted sum of named terms: the course's heuristics, and any
a student composes from them, in one form that the compiled search (``compiled_search``) and
the course's Python search (``ai.course.search``, through ``WeightedHeuristic``) both read.

Every term is a count "mine minus the opponent's", from the side of ``player``::

    h(state, player) = clamp(sum of weight[i] x term[i](state, player))

summed in the order of ``TERMS`` (the compiled search adds them in the same order, so both
give the same number to the last bit), and kept strictly inside ``(-HEURISTIC_MAX,
+HEURISTIC_MAX)`` (``ai.heuristics.clamp``): a proven win always beats any estimate.

The terms, in the order of the weights array (``TERMS``):

========== ===================================================================================
cells      seed 000's "cotation de la grille": the sum of the values of my cells (the number
           of fours through each cell, ``heuristic.cell_values``)
adjusted   seed 004's "valeur ajustée": for each stone, ``alpha x`` its cell value plus the
           squares of the counts of stones aligned with it in its open lines
           (``heuristic.AdjustedCells``, our reading of the report); ``alpha`` a parameter
open1      windows of four cells holding one of my stones and none of the opponent's
open2      ... two of my stones ("deux alignés, deux cases libres")
open3      ... three of my stones: a threat ("trois alignés")
center     my stones in the centre column (both middle columns on an even width)
threats    the empty cells where a stone of mine would complete a four
immediate  those of them playable now
oddeven    threat parity (Allis): my threats on the rows that favour me, odd rows (1st, 3rd,
           5th from the bottom) for the first player, even rows for the second
========== ===================================================================================

The levels' heuristics are weights of these terms exactly (``LEVEL_WEIGHTS``): ``threats``
(the default) is ``open1=1,open2=4,open3=16,center=2``, ``cells`` is ``cells=1``.

A heuristic's text form, e.g. ``cells=1,adjusted=0,open2=2,open3=8,center=3,oddeven=5``
(``parse``, ``format_weights``): ``name=number`` pairs separated by commas, each term at most
once, the terms not named weigh 0; ``alpha=0.3`` sets seed 004's coefficient (default 0.2).
The course's one parser reads it (``ai.course.weights``, given ``WRITTEN``: the terms, an
example and the extra key ``alpha``); anything else is refused with a message that says what
is wrong (``ai.messages.GameError``, a ``ValueError`` a user interface translates).
"""
from __future__ import annotations

from dataclasses import dataclass

from ai.course.scores import whole
from ai.course.weights import Terms, check_weight
from ai.heuristics import clamp
from ai.messages import GameError, N_

from .bitboard import geometry
from .heuristic import AdjustedCells, CellValues, Threats, cell_values


@dataclass(frozen=True)
class Term:
    name: str           # its name in the text form and in the weights array's order
    course: str         # the course's words for it (French, as in the seeds)
    label: str          # for people (translated where shown)


TERMS = (
    Term("cells", "cotation de la grille (séance minmax, seed 000)",
         N_("the course's cell values")),
    Term("adjusted", "valeur ajustée : alpha x cotation + carrés des voisins alignés (seed 004)",
         N_("adjusted cell values (α × value + aligned²)")),
    Term("open1", "fenêtres de quatre avec un pion à moi et aucun adverse",
         N_("open windows with one stone")),
    Term("open2", "fenêtres de quatre avec deux pions à moi et aucun adverse",
         N_("open windows with two stones")),
    Term("open3", "fenêtres de quatre avec trois pions à moi et aucun adverse (menaces)",
         N_("open windows with three stones")),
    Term("center", "pions dans la colonne du centre", N_("stones in the centre column")),
    Term("threats", "cases vides qui compléteraient un alignement de quatre",
         N_("winning cells")),
    Term("immediate", "cases gagnantes jouables tout de suite", N_("playable winning cells")),
    Term("oddeven", "parité des menaces (Allis) : rangées impaires pour le premier joueur, "
         "paires pour le second", N_("threats on the rows of the right parity")),
)
NAMES = tuple(t.name for t in TERMS)
INDEX = {name: i for i, name in enumerate(NAMES)}
N_TERMS = len(TERMS)
DEFAULT_ALPHA = AdjustedCells.DEFAULT_ALPHA
WRITTEN = Terms(NAMES, "open2=4,open3=16,center=2", extras=("alpha",))   # the text form


@dataclass(frozen=True)
class Weights:
    """One weight per term (``TERMS``' order) and seed 004's ``alpha``."""

    values: tuple[float, ...]
    alpha: float = DEFAULT_ALPHA

    def __post_init__(self):
        WRITTEN.check(self.values)
        check_weight("alpha", self.alpha)
        if self.alpha < 0:
            raise GameError("alpha is a number >= 0, not %(alpha)s", alpha=repr(self.alpha))

    @classmethod
    def of(cls, alpha: float = DEFAULT_ALPHA, **weights) -> Weights:
        """``Weights.of(open2=4, center=2)``: the terms not named weigh 0."""
        unknown = sorted(set(weights) - set(NAMES))
        if unknown:
            raise WRITTEN.unknown(unknown[0])
        return cls(WRITTEN.weights(weights), alpha)

    def __getitem__(self, name: str):
        return self.values[INDEX[name]]

    @property
    def zero(self) -> bool:
        """Every weight 0: every position scores 0."""
        return not any(self.values)

    def __str__(self):
        return format_weights(self)


def parse(text: str) -> Weights:
    """The weights written as ``cells=1,open2=2,open3=8,center=3`` (see the module's text),
    read by the course's one parser (``ai.course.weights``).

    Raises:
        ValueError: an empty text, a pair without ``=``, an unknown term, a term named twice,
            a weight that is not a number (or too large), a negative ``alpha``.
    """
    given = WRITTEN.read(text)
    alpha = given.pop("alpha", DEFAULT_ALPHA)
    return Weights.of(alpha=alpha, **given)


def format_weights(weights: Weights) -> str:
    """The text form of ``weights`` (``parse`` reads it back): the nonzero weights in the
    terms' order, then ``alpha`` if not the default and ``adjusted`` weighs something."""
    parts = [f"{n}={_num(w)}" for n, w in zip(NAMES, weights.values) if w]
    if weights["adjusted"] and weights.alpha != DEFAULT_ALPHA:
        parts.append(f"alpha={_num(weights.alpha)}")
    return ",".join(parts) or "cells=0"


def _num(w):
    return str(int(w)) if float(w).is_integer() and abs(w) < 1 << 53 else repr(float(w))


# The levels' heuristics (``heuristic.HEURISTICS``) as weights: the same value, exactly.
LEVEL_WEIGHTS = {
    "threats": Weights.of(open1=Threats.weights[1], open2=Threats.weights[2],
                          open3=Threats.weights[3], center=2),
    "cells": Weights.of(cells=1),
}
NO_WEIGHTS = Weights.of()       # no heuristic: every position 0 (made once: a search asks often)


# -- the terms, in Python: the reference --------------------------------------------------------

def counts(game, state, player, squares: bool = True) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each term's count for ``player`` and for the opponent (``adjusted``: the squares of
    the aligned counts only, its ``alpha x`` cell values being ``alpha x`` the ``cells``
    count; 0 unless ``squares``, which takes the longest to count)."""
    mine = game.stones(state, player)
    theirs = mine ^ state.mask
    first = [player == 0, player != 0]
    return (_side(game, state.mask, mine, theirs, first[0], squares),
            _side(game, state.mask, theirs, mine, first[1], squares))


def _side(game, mask, p, o, first: bool, squares: bool) -> tuple[int, ...]:
    g = geometry(game.width, game.height)
    w, h, h1 = game.width, game.height, game.h1
    grid = cell_values(w, h)
    cells = aligned = 0
    adjusted = AdjustedCells(game) if squares else None
    for c in range(w):
        for r in range(h):
            if p >> (c * h1 + r) & 1:
                cells += grid[h - 1 - r][c]
                if squares:
                    aligned += sum(a * a for a, open_ in adjusted.lines(c, r, p, o) if open_)
    ones, twos, threes = Threats(game)._windows(p, o)
    empty = g.board ^ mask
    winning = g.wins(p) & empty
    playable = (mask + g.bottom) & g.board
    rows = sum(1 << r for r in range(0 if first else 1, h, 2)) * g.bottom
    return (cells, aligned, ones, twos, threes, (p & g.centre).bit_count(),
            winning.bit_count(), (winning & playable).bit_count(), (winning & rows).bit_count())


def evaluate(game, state, player, weights: Weights):
    """``h(state, player)``: the weighted sum of the terms (see the module's text); an int
    when it is a whole number."""
    m, t = counts(game, state, player, bool(weights.values[1]))
    s = 0.0
    for i, w in enumerate(weights.values):
        if i == 1:                      # adjusted: alpha x cell values + squares
            d = weights.alpha * (m[0] - t[0]) + (m[1] - t[1])
        else:
            d = m[i] - t[i]
        s += w * d
    return whole(clamp(s))


class WeightedHeuristic:
    """A heuristic of weighted terms (``h(state, player)``), for the course's search and the
    compiled one alike: ``WeightedHeuristic(game, parse("open3=16,center=2"))``."""

    name = "weighted"
    label = N_("weighted terms")

    def __init__(self, game, weights: Weights | str):
        self.game = game
        self.weights = parse(weights) if isinstance(weights, str) else weights
        self._value = None

    def __call__(self, state, player):
        # the kernel's evaluation (the same number, ~0.5 ms less a leaf: the workshop's tree
        # evaluates hundreds), the reference's on a board it does not fit
        if self._value is None:
            from .compiled_terms import evaluator       # numba, loaded at the first use
            self._value = evaluator(self.game, self.weights) or (
                lambda s, p: evaluate(self.game, s, p, self.weights))
        return self._value(state, player)

    def terms(self, state, player) -> list[tuple[str, float, float, float]]:
        """(term, weight, player's count, opponent's count) for each weighted term."""
        m, t = counts(self.game, state, player)
        a = self.weights.alpha
        out = []
        for i, (name, w) in enumerate(zip(NAMES, self.weights.values)):
            if w:
                mi, ti = (a * m[0] + m[1], a * t[0] + t[1]) if i == 1 else (m[i], t[i])
                out.append((name, w, mi, ti))
        return out

    def __repr__(self):
        return f"<heuristic weighted {self.weights} {self.game.width}x{self.game.height}>"


def weights_of(heuristic) -> Weights | None:
    """The weights that give ``heuristic``'s values exactly, or None (an ``AdjustedCells``
    rounds its sum, another heuristic is not made of these terms). None for no heuristic is
    ``Weights.of()`` (every position 0)."""
    if heuristic is None:
        return NO_WEIGHTS
    if isinstance(heuristic, WeightedHeuristic):
        return heuristic.weights
    if type(heuristic) is Threats and tuple(heuristic.weights) == Threats.weights:
        return LEVEL_WEIGHTS["threats"]
    if type(heuristic) is CellValues:
        return LEVEL_WEIGHTS["cells"]
    return None
