"""How good is a tic-tac-toe heuristic? The solved game referees the move it chooses at a
depth, as the exact solver referees a Connect-4 heuristic in its workshop
(``ai.games.connect4.accuracy``).

The positions (``positions``): every position that play can reach, up to the board's 8
symmetries, where a move can worsen the outcome (a win thrown to a draw or a loss, a draw to a
loss): 431 of the 627 that are not over, each as its image of smallest key
(``board.canonical_key``), in the order of those keys. The heuristic chooses as a
tournament's entrant does (``ai.teach.match.player``: the custom level's alpha-beta with
it, centre first, to the depth), and the solved game (``solver.move_values``) gives every
move's exact value. Then:

- **accuracy**: the share of positions where the move keeps the position's exact value (the
  best move's, on the app's scale: no worse outcome, no slower win, no quicker loss);
- **blunders**: the positions where it worsens the outcome.

A measure is 431 small searches: 0.1-0.3 s of CPU at any depth (a search lane's work on the
web, ``web.tournament.live``), kept for the latest heuristics and depths (``measure``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import CELLS, FULL, TicTacToeState, canonical_key
from .rules import TicTacToe
from .solver import _children, _over, move_values

GAME = TicTacToe()
MAX_DEPTH = 9                    # the whole game from any position: deeper changes nothing


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@lru_cache(maxsize=1)
def positions() -> tuple[TicTacToeState, ...]:
    """The refereed positions (see the module), each its image of smallest key."""
    seen: dict[int, TicTacToeState] = {}

    def walk(state):
        key = canonical_key(state)
        if key in seen:
            return
        seen[key] = TicTacToeState(key & FULL, key >> CELLS)
        if not _over(state):
            for _, child in _children(state):
                walk(child)

    walk(GAME.initial_state())
    return tuple(s for _, s in sorted(seen.items())
                 if not _over(s) and len({_sign(v) for v in move_values(s).values()}) > 1)


@dataclass(frozen=True)
class Report:
    heuristic: str | None            # the weights' text form, None for another chooser
    depth: int | None
    accuracy: float                  # the share of ``positions`` where the move keeps the value
    blunders: int                    # where it worsens the outcome
    positions: int

    def as_dict(self) -> dict:
        return {"game": "tictactoe", "heuristic": self.heuristic, "depth": self.depth,
                "accuracy": round(self.accuracy, 6), "blunders": self.blunders,
                "positions": self.positions}


def judge(choose, heuristic: str | None = None, depth: int | None = None) -> Report:
    """``choose(state) -> cell`` refereed on the positions (any chooser: a level's play)."""
    kept = blunders = 0
    todo = positions()
    for state in todo:
        values = move_values(state)
        best, got = max(values.values()), values[choose(state)]
        kept += got == best
        blunders += _sign(got) < _sign(best)
    return Report(heuristic, depth, kept / len(todo), blunders, len(todo))


def measure(heuristic: str, depth: int) -> Report:
    """The accuracy of ``heuristic`` (weights over ``terms``, as written: ``lines=1,open2=4``)
    at ``depth``.

    Raises:
        ValueError: weights ``terms.parse`` refuses; a depth that is not a whole number from 1
            to ``MAX_DEPTH``.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"the depth is a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    return _measured(GAME.weights_text(heuristic), depth)


@lru_cache(maxsize=256)
def _measured(heuristic: str, depth: int) -> Report:
    from ai.teach.match import Entrant, player
    play = player(GAME, Entrant("", heuristic), depth, None)
    return judge(lambda s: play(s).move, heuristic, depth)
