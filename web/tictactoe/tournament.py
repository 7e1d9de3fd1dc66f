"""Tic-tac-toe's part of the tournament's pages (``web.tournament``, which names no game): its
terms (``ai.games.tictactoe.terms``) and example entrants, its depths, its openings in words
("cells 5 then 1"), its sides X and O, and its board with the play-out's marks appearing in
turn (``templates/games/tictactoe/tournament_board.html``), and how good a heuristic is against
the solved game (``ai.games.tictactoe.accuracy``: its ``judge``). It has no workshop: a
heuristic is typed as weights (``lines=1,open2=4``), on the page's link or, in class mode, on
the phones (its accuracy measured as it is sent) or by the teacher.

A small tournament: the game lasts at most 7 moves after a two-ply opening, so a class's 30
heuristics at depth 2 from 2 openings (1,740 games) finish in seconds."""
from __future__ import annotations

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ai.games.tictactoe import accuracy, tournament as T
from ai.games.tictactoe.terms import NAMES

from ..tournament.game import TournamentGame

MAX_DEPTH = 7                # the game's end from any opening: deeper changes no move


def opening_words(moves: str) -> str:
    """An opening's moves as a teacher reads them ("cells 5 then 1"), not bare digits."""
    cells = list(moves)
    if len(cells) == 1:
        return gettext("cell %(n)s", n=cells[0])
    return gettext("cells %(first)s then %(last)s", first=", ".join(cells[:-1]),
                   last=cells[-1])


def board(moves: str, opening: str = "") -> list[tuple]:
    """The nine cells after ``moves``, in reading order: (player or None, the order in which
    its mark comes in the play-out, or None for an opening's mark, already there)."""
    cells = [(None, None)] * 9
    skip = len(opening)
    for i, m in enumerate(T.GAME.parse_moves(moves)):
        cells[m] = (i % 2, None if i < skip else i - skip)
    return cells


tournament_game = TournamentGame(
    rules=T.GAME, example="Ada:lines=1,open2=4",
    examples=("Ada:lines=1,open2=4", "Bob:center=2,corners=1", "Cy:open1=1,open2=8"),
    terms=NAMES, default_depth=2, max_depth=MAX_DEPTH, max_openings=T.MAX_OPENINGS,
    opening_words=opening_words, first_side=_l("X (first)"), second_side=_l("O"),
    side_names=(_l("X"), _l("O")), board=board,
    board_template="games/tictactoe/tournament_board.html", judge=accuracy.measure)
