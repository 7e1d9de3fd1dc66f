"""Connect-4's part of a tournament of heuristics (``ai.teach.tournament``, which names no
game): its balanced openings, its heuristic entrants' compiled search, and the tournament
bound to the 7x6 board (``entrant``, ``run``) for its command line and its page.

**Entrants.** A heuristic entrant is a name and weights of ``terms``' named terms
(``"Ada:cells=1,open3=8"``). Every heuristic entrant searches with the levels' depth-limited
alpha-beta compiled (``compiled_search``, no table kept between moves; of equal moves, the
first in the course's centre-first order, ``course_move``: the move of the app's custom level
with that heuristic and depth, ``level=custom&algo=alphabeta&order=center``, so the game page
re-runs and draws the tree behind any move of a game), to the same depth, and within the same
node budget if one is given. A boss at the tournament's depth would only be its level's
heuristic, which anyone can enter as weights (``terms.LEVEL_WEIGHTS``), and beginner would be
easy, medium hard: a boss plays as the app plays its level.

**Openings.** The games start from positions of ``OPENING_PLIES`` (2) plies, one stone of
each colour, so that the first moves, which a depth-limited search always plays the same,
differ between the openings. Balanced means the exact solver scores it a **draw**: with
perfect play neither colour wins, so a game is decided by the entrants' mistakes, not by
the colour they drew (each pair plays both colours anyway). Of the 49 two-ply positions, 12
are draws, 6 up to the board's mirror image (``24`` and ``64`` are one opening): those come
first, the most central first (the sum of both stones' distances to the centre column),
then by their moves. Beyond them come the openings nearest a draw: the wins with the
smallest Pons score, the win that comes latest (a score of 1: on the board's last stones),
which, played with both colours, still measure the players more than the colour. The list
(``candidates``) is made by the solver at first use (``exact.analyse``, from its opening
book: milliseconds) and is the same on every machine; ``openings(k)`` is its first ``k``.
"""
from __future__ import annotations

from functools import lru_cache

from ai.teach import tournament as shared
from ai.teach.tournament import (MAX_ENTRANTS, MAX_NAME, Entrant, boss,  # noqa: F401
                                 check_entrants, check_name)

from . import compiled_search
from .accuracy import MAX_DEPTH
from .rules import Connect4
from .terms import WeightedHeuristic, parse

GAME = Connect4()
OPENING_PLIES = 2
MAX_OPENINGS = 12


def entrant(text: str) -> Entrant:
    """An entrant from ``NAME:weights`` (``terms.parse``'s text form).

    Raises:
        ValueError: no ``:``, no name, a name too long, weights ``terms.parse`` refuses.
    """
    return shared.entrant(GAME, text)


def check_depth(depth) -> int:
    return shared.check_depth(depth, MAX_DEPTH)


# -- openings -----------------------------------------------------------------------------------

def _mirror(moves: str) -> str:
    return "".join(str(GAME.width + 1 - int(c)) for c in moves)


@lru_cache(maxsize=1)
def candidates() -> tuple[tuple[str, int], ...]:
    """Every two-ply opening up to the mirror image, with its exact score for the side to
    move (Pons'), in the order the tournament takes them (see the module's text)."""
    from .exact import analyse
    centre = (GAME.width + 1) / 2
    out = []
    for a in range(1, GAME.width + 1):
        reply = analyse(str(a), store=None, time_limit=60.0)
        if not reply.complete:
            raise ValueError(f"the exact solver did not score the replies to {a}")
        for b in range(1, GAME.width + 1):
            moves = f"{a}{b}"
            if _mirror(moves) < moves or reply.scores[b - 1] is None:
                continue
            score = -reply.scores[b - 1]            # for the side to move after both stones
            out.append((moves, score, abs(a - centre) + abs(b - centre)))
    out.sort(key=lambda m: (abs(m[1]), m[1] < 0, m[2], m[0]))
    return tuple((m, s) for m, s, _ in out)


def openings(k: int) -> list[dict]:
    """The first ``k`` openings (``candidates``): each ``moves`` and its exact ``score``."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_OPENINGS:
        raise ValueError(f"the number of openings is a whole number from 1 to {MAX_OPENINGS}, "
                         f"not {k!r}")
    return [{"moves": m, "score": s} for m, s in candidates()[:k]]


# -- games --------------------------------------------------------------------------------------

def player(heuristic: str, depth: int, max_nodes: int | None):
    """A heuristic entrant's moves (the rules' ``tournament_player``): the compiled search,
    the course's move (see the module's text)."""
    check_depth(depth)
    h = WeightedHeuristic(GAME, parse(heuristic))
    return lambda s: compiled_search.alphabeta(GAME, s, depth, heuristic=h, max_nodes=max_nodes,
                                               order="center", course_move=True)


def run(entrants: list[Entrant], depth: int = 4, n_openings: int = 2,
        max_nodes: int | None = None, progress=None, runner=None, **schedule) -> dict:
    """The tournament on the 7x6 board (``ai.teach.tournament.run``; ``schedule``: its
    ``schedule`` and ``rounds``)."""
    return shared.run(GAME, entrants, depth, n_openings, max_nodes, progress, runner,
                      **schedule)
