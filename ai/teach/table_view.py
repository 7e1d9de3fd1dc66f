"""The transposition table made visible (seed 004's "AlphaBeta avec mémoire"): what a search
left in its table, and seed 004's first design (a table keyed by window) that failed. How a
game's keys are made is the game's own (its rules' ``key_step``).

Plain data for a page: no Flask here.
"""
from __future__ import annotations

from dataclasses import dataclass

from ai.course.scores import BOUND_NAMES, MAX_SCORE
from ai.course.search import alphabeta_tt, fresh_table


def key_text(key: int) -> str:
    """A 64-bit Zobrist key as every page writes it: 16 hexadecimal digits in groups of 4
    ("0f3a 91c2 …"), on the table page and in the step-by-step table alike."""
    digits = f"{key:016x}"
    return " ".join(digits[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class Entry:
    move: object        # the move from the searched position (None: the position itself)
    key: int
    depth: int          # the depth left when it was stored
    bound: str          # "exact", "lower" (value >= it), "upper" (value <= it)
    value: float        # from the side of the player to move in the searched position (the
    #                     root player, as the tree's values): the table's own value is the
    #                     side to move's there, turned round (and its bound) after a move
    best: object        # the best move it found there, or None
    slot: int           # its place in the table: key mod the number of places


def searched_table(game, state, depth: int, heuristic, max_nodes: int):
    """Alpha-beta with a fresh table of ``COURSE_SLOTS`` places to ``depth`` (the course's
    algorithm), and the table's entries for the position and each of its children."""
    table = fresh_table()
    result = alphabeta_tt(game, state, depth, heuristic=heuristic, table=table,
                          max_nodes=max_nodes)
    entries = []
    for move in [None] + list(game.actions(state)):
        key = game.key(state if move is None else game.result(state, move))
        e = table.get(key)
        if e is not None:
            bound, value = BOUND_NAMES[e[1]], e[2]
            if move is not None:            # the opponent's entry: from the root player's side
                bound, value = {"lower": "upper", "upper": "lower"}.get(bound, bound), -value
            entries.append(Entry(move, key, e[0], bound, value, e[3], table.slot(key)))
    return result, len(table), entries


def window_table_alphabeta(game, state, depth: int, heuristic) -> float:
    """Seed 004's design, written down to show why it failed: a table keyed by position that
    stores the (alpha, beta, depth) a node was searched with and the value it returned, and
    gives that value back whenever the position comes again at that depth or less, whatever
    the window then. A node cut off returned a bound, not its value: reused in another
    window, it is wrong. Returns the root's value (the side to move's), for the table page and
    its test; the app never plays with it."""
    table: dict = {}

    def search(s, d, alpha, beta):
        key = game.key(s)
        entry = table.get(key)
        if entry is not None and entry[2] >= d:
            return entry[3]                         # (alpha, beta, depth, value): reused as is
        player = game.to_move(s)
        if game.is_terminal(s):
            return game.utility(s, player) * MAX_SCORE
        if d == 0:
            return heuristic(s, player)
        best = -float("inf")
        a = alpha
        for move in game.actions(s):
            v = -search(game.result(s, move), d - 1, -beta, -a)
            best = max(best, v)
            a = max(a, v)
            if a >= beta:
                break
        table[key] = (alpha, beta, d, best)
        return best

    return search(state, depth, -float("inf"), float("inf"))
