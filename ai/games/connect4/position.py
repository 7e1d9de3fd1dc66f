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

import heapq

from .bitboard import alignment
from .rules import C4State, Connect4
from ai.games.connect4.heuristic import cell_values
from ai.messages import GameError

MAX_TRIES = 50_000        # boards tried before giving up (a bound: every search has one)


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


def fours(columns) -> list[tuple[int, frozenset]]:
    """Every four in a row on the board: (its player, its four cells as (column, row))."""
    def at(c, r):
        return columns[c][r] if 0 <= c < len(columns) and 0 <= r < len(columns[c]) else None

    found = []
    for c, col in enumerate(columns):
        for r, player in enumerate(col):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(at(*cell) == player for cell in cells):
                    found.append((player, frozenset(cells)))
    return found


def _time_windows_fit(columns) -> bool:
    """A quick necessary condition: each stone has a first and a last move number it can
    have (its column's stones below it come before, those above after, each at a move of
    its colour's parity); the stones of each colour must fit in their moves within these
    windows (earliest deadline first). False: no order exists; True: maybe one does."""
    total = sum(map(len, columns))
    jobs: tuple[list, list] = ([], [])
    for col in columns:
        first, t = [], -1
        for player in col:
            t += 1
            if t % 2 != player:
                t += 1
            first.append(t)
        t = total
        for j in range(len(col) - 1, -1, -1):
            t -= 1
            if t % 2 != col[j]:
                t -= 1
            jobs[col[j]].append((first[j], t))
    for player in (0, 1):
        waiting: list[int] = []
        pending = sorted(jobs[player])
        i = 0
        for t in range(player, total, 2):
            while i < len(pending) and pending[i][0] <= t:
                heapq.heappush(waiting, pending[i][1])
                i += 1
            if waiting and heapq.heappop(waiting) < t:
                return False
        if waiting or i < len(pending):
            return False
    return True


def alternating_order(columns, budget: int = MAX_TRIES) -> list[int] | None:
    """An order of the stones, each column bottom up, yellow and red taking turns from
    yellow; None when there is none. Depth first from the empty board, each board met once
    (a board is its column heights: from the same heights, the same orders are left), at
    most ``budget`` boards: GameError beyond."""
    width, total = len(columns), sum(map(len, columns))
    if not _time_windows_fit(columns):
        return None
    radix = [1] * width                      # a board as one number: sum of height * radix
    for c in range(1, width):
        radix[c] = radix[c - 1] * (len(columns[c - 1]) + 1)
    heights, order, dead = [0] * width, [], set()

    def ready(player):
        """The columns whose next stone is ``player``'s, the most promising last (popped
        first): the column whose stone after it is the other player's keeps the turns going
        by itself; then the tallest rest, which has the most stones left to place."""
        found = [c for c in range(width)
                 if heights[c] < len(columns[c]) and columns[c][heights[c]] == player]
        found.sort(key=lambda c: (heights[c] + 1 < len(columns[c])
                                  and columns[c][heights[c] + 1] != player,
                                  len(columns[c]) - heights[c]))
        return found

    stack, key, tries = [ready(0)], 0, 0
    while len(order) < total:
        if not stack[-1]:                     # no order finishes from here
            dead.add(key)
            stack.pop()
            if not order:
                return None
            c = order.pop()
            heights[c] -= 1
            key -= radix[c]
            continue
        c = stack[-1].pop()
        if key + radix[c] in dead:
            continue
        tries += 1
        if tries > budget:
            raise GameError("no order of the moves was found within %(n)s tries", n=budget)
        heights[c] += 1
        key += radix[c]
        order.append(c)
        stack.append(ready(len(order) % 2))
    return order


def moves_reaching(game: Connect4, columns) -> list[int]:
    """A move order (0-indexed columns) that reaches the position.

    Raises GameError when the counts are wrong, when no game reaches it (a four made before
    the last move in every order, two fours), or when ``MAX_TRIES`` boards were not enough.

    Stones are only ever added, so a four on the board was on it from the move that made it
    on: every four of the position must hold its last stone, the top of a column, of the
    player who moved last. Without that stone the board has no four, nor has any board on
    the way to it (each is a part of it): any order that alternates reaches it, and only
    the alternation is left to search."""
    check_counts(columns)
    total = sum(map(len, columns))
    if not total:
        return []
    lines = fours(columns)
    if not lines:
        order = alternating_order(columns)
    else:
        last = (total - 1) % 2
        tops = {(c, len(col) - 1) for c, col in enumerate(columns) if col}
        common = frozenset.intersection(*(cells for _, cells in lines)) & tops
        order = None
        if all(player == last for player, _ in lines):
            for c, _ in sorted(common):
                before = [list(col) for col in columns]
                before[c].pop()
                order = alternating_order(before)
                if order is not None:
                    order.append(c)
                    break
    if order is None:
        raise GameError("no game reaches this position: someone would have made four "
                        "before the last stone was played")
    return order
