"""Connect-4's part of the tournament's pages (``web.tournament``, which names no game): its
terms and example entrants, its depths, its openings in words ("columns 3 then 4"), its
yellow and red sides, its board with the play-out's stones dropping in turn
(``templates/games/connect4/tournament_board.html``), its workshop (where a heuristic is built
and opened, and its "enter this heuristic" link, ``entry_url``) and the heuristics a class
sent from the workshop (``class_workshop``)."""
from __future__ import annotations

from flask import url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ai.games.connect4 import tournament as T
from ai.games.connect4.terms import NAMES

from ..classroom.answers import answers_of
from ..tournament.game import Sent, TournamentGame
from . import workshop
from .class_workshop import KIND as WORKSHOP, class_heuristics

ENTRY_BOSSES = ("beginner", "easy")   # the workshop's link: a heuristic against these


def opening_words(moves: str) -> str:
    """An opening's moves as a teacher reads them ("columns 3 then 4"), not bare digits
    ("34" read as a count on the projector)."""
    cols = list(moves)
    if len(cols) == 1:
        return gettext("column %(c)s", c=cols[0])
    return gettext("columns %(first)s then %(last)s", first=", ".join(cols[:-1]), last=cols[-1])


def board(moves: str, opening: str = "") -> list[list[tuple]]:
    """The position after ``moves``, top row first: (player or None, the order in which its
    stone comes in the play-out, or None for an opening's stone, already there)."""
    width, height = T.GAME.width, T.GAME.height
    heights = [0] * width
    cells = [[(None, None)] * width for _ in range(height)]
    for i, ch in enumerate(moves):
        c = int(ch) - 1
        cells[heights[c]][c] = (i % 2, None if i < len(opening) else
                                min(i - len(opening), width * height - 1))
        heights[c] += 1
    return cells[::-1]


def workshop_url(heuristic: str | None, depth: int) -> str:
    """The workshop on ``heuristic`` at ``depth``."""
    return url_for("workshop.page", h=heuristic,
                   depth=depth if depth != workshop.DEFAULT_DEPTH else None)


def class_entries(store, code: str) -> list[Sent]:
    """Each heuristic the class sent from the workshop, with its accuracy measured there when
    it was sent (``class_workshop.class_heuristics``)."""
    return [Sent(s.voter, s.name, s.heuristic, s.depth, s.accuracy, s.blunders, s.positions)
            for s in class_heuristics(store, code)]


def close_entries(store, code: str) -> None:
    """The workshop's "build your heuristic" closes on the phones."""
    answers = answers_of(store)
    now = answers.current(code)
    if now is not None and now.kind == WORKSHOP and now.open:
        answers.change(code, now.seq, open=False)


tournament_game = TournamentGame(
    rules=T.GAME, example="Ada:cells=1,open3=8",
    examples=("Ada:cells=1,open3=8", "Bob:open2=4,open3=16", "Cy:center=1"),
    terms=NAMES, default_depth=workshop.DEFAULT_DEPTH, max_depth=workshop.MAX_DEPTH,
    max_openings=T.MAX_OPENINGS, opening_words=opening_words,
    first_side=_l("Yellow (first)"), second_side=_l("Red"),
    side_names=(_l("yellow"), _l("red")), board=board,
    board_template="games/connect4/tournament_board.html", workshop_url=workshop_url,
    class_entries=class_entries, close_entries=close_entries)


def entry_url(heuristic: str, depth: int | None = None) -> str:
    """A tournament of this heuristic (named "Mine", in the page's language) against the
    first bosses, at this depth: the workshop's "enter this heuristic" link."""
    name = gettext("Mine")
    return url_for("tournament.page", spec="connect4", e=f"{name}:{heuristic}",
                   boss=list(ENTRY_BOSSES),
                   depth=depth if depth and depth != workshop.DEFAULT_DEPTH else None)


def init_app(app) -> None:
    app.add_template_global(entry_url, "tournament_entry_url")
