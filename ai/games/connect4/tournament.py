"""Connect-4's tournament of heuristics on the 7x6 board (``entrant``, ``run``), for its
command line and its page: the shared tournament (``ai.teach.tournament``, which names no game)
with Connect-4's games (``match``: its balanced openings, its heuristic entrants' compiled
search, whose text says how they play).
"""
from __future__ import annotations

from ai.teach import tournament as shared
from ai.teach.tournament import (MAX_ENTRANTS, MAX_NAME, Entrant, boss,  # noqa: F401
                                 check_entrants, check_name)

from .match import (MAX_DEPTH, MAX_OPENINGS, OPENING_PLIES, candidates,  # noqa: F401
                    check_depth, openings)
from .rules import Connect4

GAME = Connect4()


def entrant(text: str) -> Entrant:
    """An entrant from ``NAME:weights`` (``terms.parse``'s text form).

    Raises:
        ValueError: no ``:``, no name, a name too long, weights ``terms.parse`` refuses.
    """
    return shared.entrant(GAME, text)


def run(entrants: list[Entrant], depth: int = 4, n_openings: int = 2,
        max_nodes: int | None = None, progress=None, runner=None, **schedule) -> dict:
    """The tournament on the 7x6 board (``ai.teach.tournament.run``; ``schedule``: its
    ``schedule`` and ``rounds``)."""
    return shared.run(GAME, entrants, depth, n_openings, max_nodes, progress, runner,
                      **schedule)
