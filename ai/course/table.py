"""The transposition table of the course (seed 004, done right), and how a search uses it.

A position reached by two move orders is the same position: its search need not be made twice.
The table remembers, for each position met, what its search proved. A position is found by its
*key*, the game's Zobrist hash (``game.key(state)``: one random number per (cell, player) XORed
together, updated by one XOR per move); two positions of the same key are the same position
(a game whose keys could collide says so).

What a cut node knows is a *bound*, not a value (seed 004 stored (alpha, beta, depth) triples and
"could not make it work"): a node that failed high only proves value >= beta, one that failed
low proves value <= alpha. So an entry is (depth, bound, value, best move), where the bound is
``EXACT``, ``LOWER`` or ``UPPER`` (``ai.scores``), and a search uses it only when that bound
settles its window at the same remaining depth (``settles``); a search to the end of the game
stores its entries with depth None, "to the end", and uses them wherever the position recurs
in it (so small games searched to the end find their transpositions). Quick-win scores
are kept relative to the node (``to_table``, ``from_table``), so an entry is right wherever the
position recurs; flat scores are kept as they are.
"""
from __future__ import annotations

from .scores import EXACT, LOWER, UPPER, WIN_THRESHOLD

COURSE_SLOTS = 1 << 20      # the course's algorithms' table: 1,048,576 places


class TranspositionTable:
    """Zobrist key -> (depth, bound, value, best move), bounded in size.

    Entries are used only at the same remaining depth, which keeps every value equal to plain
    minimax at the same depth (a deeper entry would be better informed, but different); other
    entries still give their best move to order the children.

    With ``slots``, it is the table of the course and of Pons' solver: ``slots`` places, a
    position goes to place ``key mod slots`` (``slot``), keeps its whole key there so that a
    probe can tell it from another position of the same place, and a new entry replaces the
    old one (a replaced entry only costs a new search). The course's algorithms get one from
    ``fresh_table``, and the step-by-step replay shows each place. Without ``slots`` (a
    game's fast loop's table, which keeps its own entries in ``data``), a plain dictionary
    by key, emptied when it passes ``max_entries``.
    """

    def __init__(self, max_entries: int = 1_000_000, slots: int | None = None):
        if slots is not None and slots < 1:
            raise ValueError(f"a table has at least 1 slot, not {slots}")
        self.max_entries = max_entries
        self.slots = slots
        self.data: dict[int, tuple] = {}

    def clear(self) -> None:
        self.data.clear()

    def __len__(self) -> int:
        return len(self.data)

    def slot(self, key) -> int:
        """Returns the place of ``key``: ``key mod slots`` (the key itself without slots). A
        game whose keys are not numbers (the protocol asks for an int; a hashable state works
        too) is placed by its hash."""
        if not self.slots:
            return key
        return (key if isinstance(key, int) else hash(key)) % self.slots

    def get(self, key):
        """Returns the entry (depth, bound, value, move) of the position ``key``, or None."""
        if self.slots is None:
            return self.data.get(key)
        item = self.data.get(self.slot(key))
        return item[1] if item is not None and item[0] == key else None

    def occupant(self, key):
        """Returns the key of the position now in ``key``'s place (None: the place is empty)."""
        if self.slots is None:
            return key if key in self.data else None
        item = self.data.get(self.slot(key))
        return None if item is None else item[0]

    def store(self, key, depth, bound, value, move) -> None:
        """Keep (depth, bound, value, move) for the position ``key``, in its place."""
        data = self.data
        if self.slots is not None:
            data[self.slot(key)] = (key, (depth, bound, value, move))
            return
        if len(data) >= self.max_entries and key not in data:
            data.clear()  # simplest bounded policy; the search stays correct, only slower
        data[key] = (depth, bound, value, move)


def fresh_table(slots: int | None = COURSE_SLOTS) -> TranspositionTable:
    """Returns a new, empty table: of ``COURSE_SLOTS`` places for the course's alpha-beta (the
    default), or a plain one (``slots=None``) for a search that keeps its own entries in it
    (a game's fast loop)."""
    return TranspositionTable(slots=slots)


def bound_of(value, alpha, beta) -> int:
    """Returns what a node's search result ``value`` proves, given its window on entry
    ``(alpha, beta)``: ``UPPER`` (it failed low: value <= alpha), ``LOWER`` (it failed high:
    value >= beta) or ``EXACT``."""
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


def settles(depth_stored, bound, value, depth, alpha, beta) -> bool:
    """Returns whether an entry settles a node searched to ``depth`` with the window
    ``(alpha, beta)``: stored at that same depth, and exact, or a lower bound at least
    ``beta``, or an upper bound at most ``alpha``."""
    return depth_stored == depth and (
        bound == EXACT or (bound == LOWER and value >= beta)
        or (bound == UPPER and value <= alpha))


def to_table(value, ply):
    """Returns ``value``, found ``ply`` plies below the root, as the table keeps it: a win or a
    loss counted from the node itself, not from the root."""
    if value >= WIN_THRESHOLD:
        return value + ply
    if value <= -WIN_THRESHOLD:
        return value - ply
    return value


def from_table(value, ply):
    """Returns a table's ``value`` for a node ``ply`` plies below the root (``to_table``'s
    inverse)."""
    if value >= WIN_THRESHOLD:
        return value - ply
    if value <= -WIN_THRESHOLD:
        return value + ply
    return value
