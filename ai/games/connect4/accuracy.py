"""How good is a heuristic? The exact solver referees the move it chooses at a depth.

On a fixed set of positions from real games (``POSITIONS``: 240 of them, see below), the
depth-limited alpha-beta with the heuristic (``compiled_search``, the levels' search, any
weights of ``terms``) chooses a move; each position's every column has its exact score (Pascal
Pons' convention, for the side to move, ``ai.games.connect4.exact``'s ``analyse``). Then:

- **accuracy**: the share of positions where the move keeps the position's exact value (its
  column's score is the position's score: no slower win, no quicker loss, no worse outcome);
- **blunders**: the positions where it worsens the outcome (a win thrown to a draw or a loss,
  a draw to a loss), the count the levels' ladder measures (``bench/bench_levels.py``);
- each position's chosen move and what it cost.

The default positions (``data/workshop-positions.txt``, made by
``bench/make_workshop_positions.py``): 106 early (plies 4-12), 84 middle (13-26) and 50 late
(27+) positions, at most one of each from each of 106 games between the app's levels (seeds
30000-30105), each one where a blunder is possible, kept apart from the levels' tuning set
(``bench/data/level-positions.txt``) and from the tests' sample (``tests/data/
level-sample.txt``). Their exact labels are in the file (``MOVES SCORE S1..S7``, ``.`` a full
column); a file of moves alone (``--positions FILE``, one position a line as the app's links
write moves) is labelled by the solver at first use and kept in memory.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property, lru_cache

from . import compiled_search
from .match import MAX_DEPTH   # a heuristic measured as deep as a tournament searches it
from .rules import Connect4
from .terms import Weights, format_weights, parse

POSITIONS = os.path.join(os.path.dirname(__file__), "data", "workshop-positions.txt")
MAX_POSITIONS = 2000
GAME = Connect4()


@lru_cache(maxsize=4096)
def _state(moves: str):
    """A position's state, made once (every measure plays the same 240 positions)."""
    return GAME.from_moves(moves)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@dataclass(frozen=True)
class Position:
    moves: str                       # 1-indexed columns, as the app's links write them
    score: int                       # the position's exact score (Pons', side to move)
    scores: tuple                    # each column's exact score, None for a full one

    @property
    def state(self):
        return _state(self.moves)

    @property
    def plies(self) -> int:
        return len(self.moves)


@dataclass(frozen=True)
class Choice:
    position: Position
    move: int                        # the chosen column, 0-indexed
    score: int                       # its exact score for the side to move

    @property
    def kept(self) -> bool:
        """The move keeps the position's exact value."""
        return self.score == self.position.score

    @property
    def blunder(self) -> bool:
        """The move worsens the outcome: a win to a draw or loss, a draw to a loss."""
        return sign(self.score) < sign(self.position.score)

    @property
    def cost(self) -> int:
        """How much of Pons' score the move throws away (0 when it keeps the value)."""
        return self.position.score - self.score

    def as_dict(self) -> dict:
        return {"moves": self.position.moves, "move": self.move + 1, "score": self.score,
                "best": self.position.score, "kept": self.kept, "blunder": self.blunder}


@dataclass(frozen=True)
class Report:
    heuristic: str                   # the weights' text form, or the chooser's name
    depth: int | None
    choices: tuple

    @property
    def positions(self) -> int:
        return len(self.choices)

    # counted once (a page shows a report's figures in several places; the reports of the
    # levels and of the recent heuristics are kept, ``_measure_default``)
    @cached_property
    def accuracy(self) -> float:
        return sum(c.kept for c in self.choices) / len(self.choices)

    @cached_property
    def blunders(self) -> int:
        return sum(c.blunder for c in self.choices)

    def worst(self, count: int = 5) -> list[Choice]:
        """The choices that threw away the most: blunders first, then the largest cost."""
        wrong = [c for c in self.choices if not c.kept]
        return sorted(wrong, key=lambda c: (not c.blunder, -c.cost, c.position.plies))[:count]

    def as_dict(self) -> dict:
        return {"game": "connect4", "heuristic": self.heuristic, "depth": self.depth,
                "accuracy": round(self.accuracy, 6), "blunders": self.blunders,
                "blunder_rate": round(self.blunders / self.positions, 6),
                "positions": self.positions, "choices": [c.as_dict() for c in self.choices]}


# -- the positions ------------------------------------------------------------------------------

def read_positions(lines) -> tuple[Position, ...]:
    """Positions from lines ``MOVES`` or ``MOVES SCORE S1..S7`` (``#`` starts a comment); a
    position without its scores is labelled by the exact solver. Raises ValueError (with
    the line's number) on bad moves, a finished game, a position the solver cannot label."""
    out = []
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        moves, *rest = line.split()
        if moves == "-":
            moves = ""
        try:
            state = GAME.from_moves(moves)
        except ValueError as err:
            raise ValueError(f"line {n}: {err}") from None
        if GAME.is_terminal(state):
            raise ValueError(f"line {n}: the game is over after {moves}: no move to choose")
        if len(rest) == GAME.width + 1:
            try:
                score, *cols = rest
                out.append(Position(moves, int(score), tuple(None if c == "." else int(c)
                                                              for c in cols)))
            except ValueError:
                raise ValueError(f"line {n}: MOVES SCORE S1..S{GAME.width}, the scores "
                                 "whole numbers or . for a full column") from None
        elif rest:
            raise ValueError(f"line {n}: MOVES alone, or MOVES SCORE S1..S{GAME.width}")
        else:
            out.append(label(moves, n))
        if len(out) > MAX_POSITIONS:
            raise ValueError(f"at most {MAX_POSITIONS} positions")
    if not out:
        raise ValueError("no position in the file")
    return tuple(out)


@lru_cache(maxsize=4096)
def label(moves: str, line: int = 0) -> Position:
    """Every column's exact score of the position after ``moves`` (kept in memory)."""
    from .exact import analyse
    a = analyse(moves, store=None, time_limit=30.0)
    if not a.complete or a.score is None:
        raise ValueError(f"line {line}: the solver did not prove every column of {moves} "
                         "within 30 s")
    return Position(moves, a.score, tuple(a.scores))


@lru_cache(maxsize=None)
def default_positions() -> tuple[Position, ...]:
    """The workshop's positions (``POSITIONS``), read once."""
    with open(POSITIONS) as f:
        return read_positions(f)


def load_positions(path: str | None = None) -> tuple[Position, ...]:
    if path is None:
        return default_positions()
    try:
        with open(path) as f:
            return read_positions(f)
    except OSError as err:
        raise ValueError(f"cannot read the positions {path!r}: {err.strerror}") from None


# -- measuring ----------------------------------------------------------------------------------

def check_depth(depth) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"the depth is a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    return depth


def judge(choose, positions, name: str, depth: int | None) -> Report:
    """``choose(state) -> column`` judged on ``positions`` (any chooser: a level's play)."""
    choices = []
    for p in positions:
        move = choose(p.state)
        choices.append(Choice(p, move, p.scores[move]))
    return Report(name, depth, tuple(choices))


def chosen_move(weights: Weights, depth: int, state) -> int:
    """The column the depth-limited alpha-beta with these weights plays (the levels' search,
    compiled, first of equal moves in its order): ``compiled_search.alphabeta``'s move, by
    its search itself (a test checks it), without the result it wraps that move in (a
    measure makes 240 of them)."""
    return compiled_search.search(GAME, state, depth, weights)[0]


def measure(weights: Weights | str, depth: int, positions=None) -> Report:
    """The accuracy of these weights at ``depth`` (see the module's text), on ``positions``
    (default: the workshop's)."""
    weights = parse(weights) if isinstance(weights, str) else weights
    check_depth(depth)
    if positions is None:
        return _measure_default(weights, depth)
    return judge(lambda s: chosen_move(weights, depth, s), positions, format_weights(weights),
                 depth)


@lru_cache(maxsize=256)
def _measure_default(weights: Weights, depth: int) -> Report:
    return judge(lambda s: chosen_move(weights, depth, s), default_positions(),
                 format_weights(weights), depth)


def flipped(weights: Weights) -> Weights:
    """Every weight's sign flipped (``alpha`` kept)."""
    return Weights(tuple(-w for w in weights.values), weights.alpha)
