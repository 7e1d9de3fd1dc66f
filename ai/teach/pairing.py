"""Who plays whom in a tournament: a double round robin up to a class's size, a Swiss system
beyond (``ai.teach.tournament``). Every pairing is a **match**: both colours from each of the
tournament's openings, so the colour never decides who is paired best.

**Double round robin** (``round_robin``): every pair, in entry order, from each opening.

**Swiss** (``swiss_round``): a fixed number of rounds (``swiss_rounds``: ceil(log2 n) + 2,
enough for a clear winner and a fair order below it); each round, the entrants in the order
of their points so far (then their place in the entry list: the seeding, never their name),
each paired, from the top, with the next one it has not met (``pair``: depth-first, so a
pairing that would strand the last entrants is undone; a rematch only if no pairing avoids
one). With an odd number, one entrant sits the round out (a **bye**): the lowest in that
order who has not had one yet and whose absence leaves the others pairable; a bye scores as
a drawn match (half its games' points), so sitting out neither helps nor hurts on average.
"""
from __future__ import annotations

import math

ROUND_ROBIN_MAX = 45            # a class of 40 and the five bosses: a double round robin
MAX_STEPS = 100_000             # the pairing's search steps at most, then rematches allowed


def round_robin(n: int, k: int) -> list[tuple[int, int, int]]:
    """(opening, first, second) of every game of a double round robin of ``n`` entrants
    over ``k`` openings: for each opening, each pair in entry order, both colours."""
    return [(o, a, b) for o in range(k) for i in range(n) for j in range(i + 1, n)
            for a, b in ((i, j), (j, i))]


def swiss_rounds(n: int) -> int:
    """The Swiss system's rounds for ``n`` entrants: ceil(log2 n) + 2 (at most n - 1)."""
    return min(n - 1, math.ceil(math.log2(n)) + 2)


def pair(order: list[int], met: set[frozenset]) -> list[tuple[int, int]] | None:
    """``order`` (an even number of entrants, best first) paired from the top, each with the
    next it has not met (a pair in ``met``), undoing a choice that strands the rest; None if
    no pairing avoids a rematch (or the search took ``MAX_STEPS``)."""
    steps = [0]

    def go(rest):
        if not rest:
            return []
        top = rest[0]
        for i in range(1, len(rest)):
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                return None
            if frozenset((top, rest[i])) in met:
                continue
            below = go(rest[1:i] + rest[i + 1:])
            if below is not None:
                return [(top, rest[i])] + below
        return None

    return go(list(order))


def swiss_round(points: list[float], met: set[frozenset],
                byes: set[int]) -> tuple[list[tuple[int, int]], int | None]:
    """One Swiss round's pairs (each the better placed first) and its bye (None if even)
    for entrants with ``points`` so far, who have met ``met`` and had ``byes``."""
    order = sorted(range(len(points)), key=lambda i: (-points[i], i))
    candidates = [None]
    if len(order) % 2:
        candidates = [i for i in reversed(order) if i not in byes] or list(reversed(order))
    for allowed in (met, set()):            # a rematch only if nothing else pairs them
        for bye in candidates:
            pairs = pair([i for i in order if i != bye], allowed)
            if pairs is not None:
                return pairs, bye
    raise AssertionError("an even number of entrants always pairs without a constraint")
