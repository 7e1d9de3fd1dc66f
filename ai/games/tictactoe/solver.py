"""Tic-tac-toe solved, once: the exact value and distance of every position, and the size of
the whole game tree.

The game has 5,478 positions that play can reach (765 up to the board's 8 symmetries), so a
memoized negamax over them solves the whole game in a few tens of milliseconds, once per
process. Each position gets its outcome for the player to move (+1 win, 0 draw, -1 loss) and
the plies to the end of the game when both play perfectly (the winner as quickly as it can,
the loser as slowly: easyAI's depth-aware scores). Every other number follows from these:

- a move's exact value on the app's scale (``ai.scores``): a win ``p`` plies ahead is
  ``MAX_SCORE - p``, a loss ``-(MAX_SCORE - p)``, a draw 0, exactly what alpha-beta to the end
  of the game returns with quick-win scoring (a test checks every position);
- the perfect move (``exact_play``, the perfect level): the best value, ties broken centre
  first, then corners, then edges;
- the whole tree's size (``tree_size``): 549,946 nodes from the empty board, root and leaves
  included, counted through the positions (each counted once, times the ways to reach it),
  not walked.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ai.course.scores import MAX_SCORE, SearchResult, SearchStats
from .board import CELLS, CENTER_ORDER, FULL, TicTacToeState, canonical_key, wins as _wins

ALGORITHM = "exact"          # as ai.perfect names the exact player's results


def _children(state: TicTacToeState):
    """(move, child) for every legal move of a position that is not over."""
    taken = state.x | state.o
    x_moves = state.to_move == 0
    for i in range(CELLS):
        bit = 1 << i
        if not taken & bit:
            yield i, (TicTacToeState(state.x | bit, state.o) if x_moves
                      else TicTacToeState(state.x, state.o | bit))


def _over(state: TicTacToeState) -> bool:
    return _wins(state.x) or _wins(state.o) or (state.x | state.o) == FULL


@lru_cache(maxsize=None)
def solve(state: TicTacToeState) -> tuple[int, int]:
    """``(outcome, plies)`` for the player to move in ``state``: outcome +1 (they win), 0
    (draw) or -1 (they lose) with perfect play on both sides, and the plies until the game
    ends (the winner hurries, the loser delays; a draw fills the board)."""
    if _over(state):
        # The player who just moved may have won: the player to move has then lost.
        return (-1 if _wins(state.x) or _wins(state.o) else 0), 0
    best = None
    for _, child in _children(state):
        o, p = solve(child)
        mine = (-o, p + 1)
        # Better: a higher outcome; among wins the quickest, among losses the slowest.
        if best is None or _rank(mine) > _rank(best):
            best = mine
    return best


def _rank(result):
    outcome, plies = result
    return (outcome, -plies if outcome > 0 else plies)


def value(outcome: int, plies: int) -> int:
    """An (outcome, plies) pair on the app's scale (``ai.scores``)."""
    return 0 if outcome == 0 else outcome * (MAX_SCORE - plies)


def move_values(state: TicTacToeState) -> dict[int, int]:
    """The exact value of every legal move in ``state``, for the player to move, on the app's
    scale: ``MAX_SCORE - p`` wins ``p`` plies ahead, 0 draws, ``-(MAX_SCORE - p)`` loses."""
    if _over(state):
        return {}
    out = {}
    for move, child in _children(state):
        o, p = solve(child)
        out[move] = value(-o, p + 1)
    return out


def best_move(state: TicTacToeState):
    """The perfect move: the best value, ties broken centre, corners, edges (None when the
    game is over)."""
    values = move_values(state)
    if not values:
        return None
    top = max(values.values())
    return next(m for m in CENTER_ORDER if values.get(m) == top)


def principal_variation(state: TicTacToeState) -> tuple:
    """The perfect moves from ``state`` to the end of the game."""
    pv = []
    while (m := best_move(state)) is not None:
        pv.append(m)
        state = state.play(m)
    return tuple(pv)


def exact_play(game, state=None) -> SearchResult:
    """The perfect level's move in ``state`` (the start if None): the solved game's best move,
    its value, the rest of the perfect game as the principal variation, and every legal move's
    exact value in ``root_values``. ``stats.nodes`` counts the positions looked up."""
    state = game.initial_state() if state is None else state
    values = move_values(state)
    if not values:
        return SearchResult(None, 0, (), SearchStats(nodes=1), ALGORITHM, None)
    move = best_move(state)
    return SearchResult(move, values[move], principal_variation(state),
                        SearchStats(nodes=1 + len(values)), ALGORITHM, None,
                        root_values=values)


@lru_cache(maxsize=None)
def _count(state: TicTacToeState, depth: int) -> int:
    if depth == 0 or _over(state):
        return 1
    return 1 + sum(_count(child, depth - 1) for _, child in _children(state))


def tree_size(state: TicTacToeState, depth: int | None = None) -> int:
    """Nodes of the whole game tree below ``state`` (root and leaves included), to ``depth``
    plies (None: to the end of the game). From the empty board: 549,946."""
    if depth is None:
        depth = CELLS
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a whole number >= 0 (or None), not {depth!r}")
    return _count(state, min(depth, CELLS))


@lru_cache(maxsize=None)
def _games(state: TicTacToeState) -> tuple[int, int, int]:
    """Finished games below ``state``: (won by X, won by O, drawn)."""
    if _over(state):
        if _wins(state.x):
            return 1, 0, 0
        if _wins(state.o):
            return 0, 1, 0
        return 0, 0, 1
    total = [0, 0, 0]
    for _, child in _children(state):
        for i, n in enumerate(_games(child)):
            total[i] += n
    return tuple(total)


def _reachable(state: TicTacToeState, seen: set) -> set:
    if state not in seen:
        seen.add(state)
        if not _over(state):
            for _, child in _children(state):
                _reachable(child, seen)
    return seen


@lru_cache(maxsize=1)
def facts() -> dict:
    """The game's numbers, for the course card and the notes: the whole tree's nodes, the
    games (its leaves) by result, the positions play can reach and how many remain up to
    symmetry, and the value of the empty board with perfect play."""
    start = TicTacToeState(0, 0)
    x, o, draws = _games(start)
    positions = _reachable(start, set())
    outcome, plies = solve(start)
    return {"nodes": tree_size(start), "games": x + o + draws, "x_wins": x, "o_wins": o,
            "draws": draws, "positions": len(positions),
            "positions_up_to_symmetry": len({canonical_key(s) for s in positions}),
            "value": value(outcome, plies)}


class Outcome(NamedTuple):
    """A move's exact outcome for the player who makes it, with perfect play after it."""

    move: int             # the cell's index, 0..8
    kind: str             # "win", "draw" or "loss"
    plies: int            # plies until the game ends, this move included
    value: int            # on the app's scale (``value``)
    best: bool            # no move of the position does better

    @property
    def cell(self) -> int:
        """The cell as people number it, 1..9."""
        return self.move + 1


def outcomes(state: TicTacToeState) -> list[Outcome]:
    """Every legal move's exact outcome in ``state``, in cell order (the board's "truth")."""
    values = move_values(state)
    top = max(values.values(), default=None)
    out = []
    for move, v in values.items():
        kind = "win" if v > 0 else "loss" if v < 0 else "draw"
        plies = MAX_SCORE - abs(v) if v else CELLS - state.moves
        out.append(Outcome(move, kind, plies, v, v == top))
    return out
