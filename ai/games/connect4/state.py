"""A Connect-4 position as the rules, the fast loop and the level's book share it."""
from __future__ import annotations

from typing import NamedTuple


class C4State(NamedTuple):
    """An immutable Connect-4 position.

    ``over`` is 0 while play goes on, 1 when the player who just moved made four in a row,
    2 when the board filled with no four (a draw). ``key`` is the Zobrist hash, updated by
    one XOR per move. ``last`` is the column just played (None at the start). Equality and
    hashing use the stones alone, so transpositions (the same stones reached by different
    move orders) are equal states.
    """

    current: int
    mask: int
    moves: int
    key: int
    over: int
    last: int | None

    def __eq__(self, other):
        return (isinstance(other, C4State) and self[1] == other[1] and self[0] == other[0])

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self[1], self[0]))
