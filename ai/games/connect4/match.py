"""Connect-4's part of a tournament's games, which its rules give the shared tournament
(``ai.teach.tournament``) through their hooks: the balanced openings (``tournament_openings``)
and a heuristic entrant's moves (``tournament_player``). It never imports the rules, which
call it; ``tournament`` binds all this to the 7x6 board for the command line and the page.

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

from . import compiled_search
from .terms import WeightedHeuristic, parse

MAX_DEPTH = 8                   # deeper costs seconds a position on a 2-core machine
OPENING_PLIES = 2
MAX_OPENINGS = 12
WIDTH = 7                       # the openings are the 7x6 board's, the one the solver knows


def check_depth(depth) -> int:
    return shared.check_depth(depth, MAX_DEPTH)


# -- openings -----------------------------------------------------------------------------------

def _mirror(moves: str) -> str:
    return "".join(str(WIDTH + 1 - int(c)) for c in moves)


@lru_cache(maxsize=1)
def candidates() -> tuple[tuple[str, int], ...]:
    """Every two-ply opening up to the mirror image, with its exact score for the side to
    move (Pons'), in the order the tournament takes them (see the module's text)."""
    from .exact import analyse
    centre = (WIDTH + 1) / 2
    out = []
    for a in range(1, WIDTH + 1):
        reply = analyse(str(a), store=None, time_limit=60.0)
        if not reply.complete:
            raise ValueError(f"the exact solver did not score the replies to {a}")
        for b in range(1, WIDTH + 1):
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

def player(game, heuristic: str, depth: int, max_nodes: int | None):
    """A heuristic entrant's moves (the rules' ``tournament_player``): the compiled search,
    the course's move (see the module's text)."""
    check_depth(depth)
    h = WeightedHeuristic(game, parse(heuristic))
    return lambda s: compiled_search.alphabeta(game, s, depth, heuristic=h, max_nodes=max_nodes,
                                               order="center", course_move=True)
