"""Setting up a Connect-4 position by hand, and finding a game that reaches it.

A position is given column by column, bottom up: ``"12-2--1---"`` is a 7-column board where
column 1 holds a yellow stone (J0, "1") under a red one (J1, "2"), column 2 a red stone,
column 5 a yellow one. Columns cannot have holes, so no stone floats. What remains to check:
the counts (yellow plays first: as many yellows as reds, yellow to move, or one more, red to
move), and that some game reaches it: an order of the moves, alternating, in which no one
made four before the last move. The app's positions are move lists (a link is its moves),
so the order found is the position's link.
"""
from __future__ import annotations

from .bitboard import alignment
from .connect4 import C4State, Connect4
from .heuristics import cell_values
from .messages import GameError

MAX_TRIES = 200_000       # orders tried before giving up (a bound: every search has one)


def parse_columns(text: str, game: Connect4) -> list[list[int]]:
    """``"12-2--1---"`` -> [[0, 1], [1], [], [], [0], [], []] (players, bottom up)."""
    cols = (text or "").split("-") if text else [""] * game.width
    if len(cols) != game.width:
        raise GameError("the board has %(w)s columns, not %(n)s", w=game.width, n=len(cols))
    out = []
    for i, col in enumerate(cols, 1):
        if len(col) > game.height:
            raise GameError("column %(c)s is taller than the board", c=i)
        if any(ch not in "12" for ch in col):
            raise GameError("column %(c)s: a stone is 1 (yellow) or 2 (red), not %(text)r",
                            c=i, text=col)
        out.append([int(ch) - 1 for ch in col])
    return out


def format_columns(columns) -> str:
    return "-".join("".join(str(p + 1) for p in col) for col in columns)


def columns_of(game: Connect4, state) -> list[list[int]]:
    """The stones of ``state`` column by column, bottom up (``parse_columns``' form)."""
    return [[p for p in (game.cell(state, c, r) for r in range(game.height)) if p is not None]
            for c in range(game.width)]


def cell_value_terms(game: Connect4, columns) -> dict:
    """Seed 000's h on a position, opened up: the cell value under each stone of J0 and of
    J1, read as the course reads the grid (Listing VIII.5's loop over rows, then columns):
    row by row from the bottom, each row from left to right, which on Figure VIII.1 gives
    "[4+5+7+6+8+13+11] - [3+5+4+8+10+11+11] = 2"; and their difference. ``grid``: the board
    top row first, each cell (its value, its stone's player or None): Figure VIII.2 with
    the stones on it."""
    values = cell_values(game.width, game.height)          # top row first
    terms = {0: [], 1: []}
    for row in range(game.height):
        for c, col in enumerate(columns):
            if row < len(col):
                terms[col[row]].append(values[game.height - 1 - row][c])
    grid = [[(values[game.height - 1 - row][c], col[row] if row < len(col) else None)
             for c, col in enumerate(columns)] for row in reversed(range(game.height))]
    return {"j0": terms[0], "j1": terms[1], "h": sum(terms[0]) - sum(terms[1]), "grid": grid}


def check_counts(columns) -> int:
    """The player to move (0: yellow, 1: red); GameError when the counts cannot be a game's."""
    yellow = sum(col.count(0) for col in columns)
    red = sum(col.count(1) for col in columns)
    if red not in (yellow, yellow - 1):
        raise GameError("yellow plays first: there are as many yellow stones as red ones, or "
                        "one more (here %(y)s yellow, %(r)s red)", y=yellow, r=red)
    return 0 if yellow == red else 1


def state_of(game: Connect4, columns) -> C4State:
    """The position of ``columns`` as the game's state, whatever order reached it: to be
    evaluated (a heuristic reads the stones only). GameError when the counts are wrong."""
    check_counts(columns)
    stones, key = [0, 0], 0
    for c, col in enumerate(columns):
        for r, player in enumerate(col):
            bit = c * game.h1 + r
            stones[player] |= 1 << bit
            key ^= game.zobrist[player][bit]
    moves = sum(map(len, columns))
    to_move = moves & 1
    if alignment(stones[0], game.h1) or alignment(stones[1], game.h1):
        over = 1
    else:
        over = 2 if moves == game.cells else 0
    return C4State(stones[to_move], stones[0] | stones[1], moves, key, over, None)


def moves_reaching(game: Connect4, columns) -> list[int]:
    """A move order (0-indexed columns) that reaches the position, checked move by move.

    Raises GameError when the counts are wrong, when no game reaches it (a four made before
    the last move in every order, two fours), or when ``MAX_TRIES`` orders were not enough."""
    check_counts(columns)
    total = sum(map(len, columns))
    heights = [0] * game.width
    order: list[int] = []
    dead: set[tuple] = set()          # heights from which no order finishes
    tries = 0

    def extend(state) -> bool:
        nonlocal tries
        if len(order) == total:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        tries += 1
        if tries > MAX_TRIES:
            raise GameError("no order of the moves was found within %(n)s tries",
                            n=MAX_TRIES)
        player = len(order) % 2
        for c in game.center_order:
            if heights[c] < len(columns[c]) and columns[c][heights[c]] == player:
                after = game.result(state, c)
                if game.is_terminal(after) and len(order) + 1 < total:
                    continue                  # a four (or a full board) before the end
                heights[c] += 1
                order.append(c)
                if extend(after):
                    return True
                order.pop()
                heights[c] -= 1
        dead.add(key)
        return False

    if not extend(game.initial_state()):
        raise GameError("no game reaches this position: someone would have made four "
                        "before the last stone was played")
    return order
