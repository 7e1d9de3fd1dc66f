"""The theory of the game (Bouton 1901; Sprague and Grundy): a heap of n matches is worth n,
and a position is worth the nim-sum of its heaps, their XOR ("ou exclusif"): written in
binary, one heap under the other, each column's parity is one bit of the nim-sum.

- Normal play (whoever takes the last match wins): the player to move loses exactly when the
  nim-sum is 0, a "position paire" (every column has an even number of ones). Every move
  from such a position makes a column odd; from any other there is a move back to 0.
- Misère play (whoever takes the last match loses, the film's game): the same, unless every
  heap has at most 1 match; then only parity counts: the player to move loses when an odd
  number of heaps of 1 are left (they must take the last one in the end).

Plain functions of a tuple of heaps: the rules, the levels and the web's pages ask them.
"""
from __future__ import annotations

from functools import reduce
from operator import xor

VARIANTS = ("normal", "misere")


def nim_sum(heaps) -> int:
    """The XOR of the heaps: the position's Sprague-Grundy value in normal play."""
    return reduce(xor, heaps, 0)


def endgame(heaps) -> bool:
    """Every heap has at most 1 match: the misère game's exception, where parity decides."""
    return all(h <= 1 for h in heaps)


def mover_loses(heaps, variant: str = "normal") -> bool:
    """True when the player to move loses with best play on both sides."""
    if variant == "misere" and endgame(heaps):
        return sum(heaps) % 2 == 1          # an odd number of single matches: yours is the last
    return nim_sum(heaps) == 0


def winning_moves(heaps, variant: str = "normal") -> list[tuple[int, int]]:
    """Every move ``(heap index, matches taken)`` that leaves the opponent a lost position,
    heap by heap: in normal play, take heap i down to ``heaps[i] XOR nim_sum`` where that is
    smaller. Empty when the player to move loses."""
    moves = []
    for i, h in enumerate(heaps):
        for take in range(1, h + 1):
            after = heaps[:i] + (h - take,) + heaps[i + 1:]
            if mover_loses(after, variant):
                moves.append((i, take))
    return moves


def column_parities(heaps, bits: int | None = None) -> list[int]:
    """The number of heaps with a 1 in each binary column, the highest column first (``bits``
    columns; default: as many as the largest heap needs). The nim-sum's bits are their
    parities."""
    bits = bits if bits is not None else max(1, max(heaps, default=0).bit_length())
    return [sum((h >> b) & 1 for h in heaps) for b in range(bits - 1, -1, -1)]
