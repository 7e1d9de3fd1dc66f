"""Every move's exact outcome, by a full solve, not by the theory: a memoized negamax over
the positions below (the heaps as a multiset: the order of the heaps changes no outcome),
the winner hurrying, the loser holding out. ``python -m ai marienbad`` prints it; the tests
check the theory (``grundy.py``) against it."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=None)
def _solve(heaps: tuple[int, ...], misere: bool) -> tuple[int, int]:
    """``(outcome, plies)`` for the player to move on the sorted ``heaps``: +1 a win, -1 a
    loss, in that many plies to the end with best play on both sides."""
    if not any(heaps):
        return (1 if misere else -1), 0
    best = None
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue                              # the same heap again: the same children
        for left in range(h):
            o, p = _solve(tuple(sorted(heaps[:i] + (left,) + heaps[i + 1:])), misere)
            cand = (-o, p + 1)
            if best is None or _better(cand, best):
                best = cand
    return best


def _better(a, b) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1]


def outcome(heaps, variant: str = "normal") -> tuple[int, int]:
    """``(outcome, plies)`` for the player to move: +1 wins, -1 loses, with best play, the
    game lasting ``plies`` more plies."""
    return _solve(tuple(sorted(heaps)), variant == "misere")


def every_move(game, state) -> list[dict]:
    """Each legal move of ``state`` with its exact outcome for the player who makes it:
    ``{"move": "b3", "outcome": "win"/"loss", "plies": n, "nim_sum": after}``, plies counted
    from the move itself to the end of the game."""
    from .grundy import nim_sum
    rows = []
    for move in game.actions(state):
        after = game.result(state, move)
        o, p = outcome(after.heaps, game.variant)
        rows.append({"move": game.format_move(move), "outcome": "win" if o < 0 else "loss",
                     "plies": p + 1, "nim_sum": nim_sum(after.heaps)})
    return rows
