"""Blueprint ``hints``: the exact outcome of every column under a 7x6 Connect-4 board
(``hints=1`` in the link), and the exact solver's set-up in each worker.

``GET /<game>/hints`` answers the page's ``hints`` block: for the position shown, each column's
outcome with perfect play (``ai.games.connect4.exact``): win, draw or loss and in how many moves, in words and
signs as well as colour. The board's block holds a placeholder that asks for it once
shown (``hx-trigger="load"``), with a thinking indicator, so a move is never slowed by the
hints and the hints follow every move. Without JavaScript the placeholder is a link to this
route, which then answers the whole page with the hints in it. The analysis goes through the
admission lanes (heavy: it may take up to ``TIME_LIMIT``).

**The best move first.** The analysis finds the best move first (``ai.games.connect4.exact``); the
answer names it first ("Best: column 4, win in 11 moves"), in the picture and in what is read out.
When the other columns take longer than ``THEN_TIME_LIMIT`` after it, the answer does not
wait for them: it gives the best move at once, the others it has proven, and "computing" for
the rest, which a second request (``rest=1``: the whole ``TIME_LIMIT``, the table of solved
positions keeping what the first one found) fills in. (``HINTS_THEN_SECONDS`` in the app's
configuration replaces ``THEN_TIME_LIMIT``: the tests make it 0 to see the two answers;
``HINTS_SECONDS`` replaces ``TIME_LIMIT``, None for no limit: the tests' best move is then
found however loaded the machine, and what follows it stops at its first node, whatever the
speed.)

``init_app`` also decides where the table of solved positions lives (``SOLVED_DB`` in the
app's configuration, else ``MINIMAX_SOLVED_DB``, else the instance folder) and warms the
compiled solver up when a worker starts (numba's machine code compiled or loaded from its
cache, the opening book read), so no player pays for it; it logs how long that took.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass

from flask import Blueprint, Flask, current_app, request, url_for

from ai.games.connect4 import exact
from ai.games.connect4.exact import Analysis, outcome, pons_to_value

from ..admission import Busy, admitted
from ..games import GameSpec
from ..htmx import is_htmx, render
from ..i18n import tr
from ..game_link import GameLink, parse_game
from ..params import BadRequest, read_flag

bp = Blueprint("hints", __name__)
TIME_LIMIT = 3.0              # seconds: all columns take at most ~0.6 s here, 1.2 s loaded (README)
THEN_TIME_LIMIT = 0.3         # seconds for the other columns before the best move is answered alone
_warm = threading.Event()


def hints_apply(g: GameLink) -> bool:
    """Hints exist for standard Connect-4 (7x6: the opening book's board)."""
    s = g.settings
    return s.game == "connect4" and (s.width, s.height) == (7, 6)


@dataclass(frozen=True)
class ColumnHint:
    column: int           # 1-indexed
    kind: str             # "win", "draw", "loss", "unknown" (budget ran out), "full"
    moves: int = 0        # win/loss: the winner's moves until its four, this one included
    score: int | None = None
    lower: int | None = None   # "unknown": the interval of Pons' scores proven so far
    upper: int | None = None

    @property
    def proven(self) -> str:
        """What an unknown column's interval proves: "win" or "loss" (the distance not
        found), "at-least-draw", "at-most-draw", or "" (nothing)."""
        if self.kind != "unknown" or self.lower is None:
            return ""
        if self.lower > 0:
            return "win"
        if self.upper < 0:
            return "loss"
        if self.lower == 0:
            return "at-least-draw"
        if self.upper == 0:
            return "at-most-draw"
        return ""


@dataclass(frozen=True)
class Hints:
    columns: tuple
    best: tuple           # 1-indexed columns of the best outcome
    complete: bool
    ms: float
    nodes: int
    pending: bool = False  # some columns follow in a second request (the best is known)
    best_ms: float = 0.0   # until the best move was known

    @property
    def best_first(self) -> tuple:
        """The open columns, the best ones first, then the others in column order: the order
        in which they are read out."""
        rest = [h for h in self.columns if h.column not in self.best and h.kind != "full"]
        return tuple(self.columns[c - 1] for c in self.best) + tuple(rest)

    @property
    def best_hint(self):
        """The first best column's hint, or None (not known in time)."""
        return self.columns[self.best[0] - 1] if self.best else None


def hints_of(a: Analysis, pending: bool = False) -> Hints:
    cols = []
    for i, c in enumerate(a.columns):
        if c is None:
            cols.append(ColumnHint(i + 1, "full"))
        elif not c.exact:
            cols.append(ColumnHint(i + 1, "unknown", lower=c.lower, upper=c.upper))
        else:
            kind, k = outcome(c.score, a.plies, a.width * a.height)
            cols.append(ColumnHint(i + 1, kind, k, c.score))
    best = tuple(h.column for h in cols if h.score is not None and h.score == a.score)
    return Hints(tuple(cols), best, a.complete, a.elapsed * 1000, a.nodes,
                 pending and not a.complete and bool(best), a.best_elapsed * 1000)


@dataclass(frozen=True)
class ExactRun:
    """The exact solver's row on the comparison page: its move and the true value."""

    move: str | None       # as people write it; None when not proven within the budget
    value: int | None      # on the app's scale (``ai.games.connect4.exact.pons_to_value``)
    kind: str              # "win", "draw", "loss" ("" when not proven)
    moves: int             # win/loss: the winner's moves until its four, this one included
    nodes: int
    ms: float
    seconds: float         # the budget it had


def exact_run(g: GameLink) -> ExactRun | None:
    """The exact solver on the position shown (Connect-4 of any size; None for other games),
    best move only, within 1 s on 7x6 (the book's board: enough nearly always) and 0.3 s on
    other sizes (enough only late in a game): to be run inside an admitted search."""
    if g.over:
        return None
    seconds = 1.0 if hints_apply(g) else 0.3
    s = g.state
    a = exact.analyse_position(s.current, s.mask, s.moves, g.rules.width, g.rules.height,
                                  time_limit=seconds, best_only=True)
    if a.score is None or a.best_move is None:
        return ExactRun(None, None, "", 0, a.nodes, a.elapsed * 1000, seconds)
    kind, k = outcome(a.score, a.plies, a.width * a.height)
    return ExactRun(g.rules.format_move(a.best_move), pons_to_value(a.score, a.plies, a.width * a.height),
                    kind, k, a.nodes, a.elapsed * 1000, seconds)


def compute_hints(g: GameLink, rest: bool = False) -> Hints:
    """The hints of the position shown: the best move first, the other columns within
    ``THEN_TIME_LIMIT`` after it (``pending`` when some remain), or with ``rest`` (the second
    request) within the whole ``TIME_LIMIT``."""
    state = g.state
    then = None if rest else current_app.config.get("HINTS_THEN_SECONDS", THEN_TIME_LIMIT)
    seconds = current_app.config.get("HINTS_SECONDS", TIME_LIMIT)
    a = admitted(lambda: exact.analyse_position(
        state.current, state.mask, state.moves, 7, 6, time_limit=seconds,
        then_time_limit=then), heavy=True)
    return hints_of(a, pending=not rest)


@bp.get("/<game:game>/hints")
def hints(game: GameSpec):
    """The exact outcome of each column of the position shown."""
    try:
        g = parse_game(game, request.args)
    except BadRequest as err:
        return render("games/connect4/hints.html", block="hints", status=400, g=None, hints_error=tr(err))
    if not hints_apply(g) or g.over:
        return render("games/connect4/hints.html", block="hints", status=400, g=g, hints_error=tr(BadRequest(
            "hints are given for a 7x6 Connect-4 game that is not over")))
    try:
        rest = read_flag(request.args, "rest")
    except BadRequest as err:
        return render("games/connect4/hints.html", block="hints", status=400, g=g, hints_error=tr(err))
    try:
        h = compute_hints(g, rest=rest)
    except Busy as err:
        response = render("games/connect4/hints.html", block="hints", status=err.status, g=g,
                          hints_error=tr(err))
        response.headers["Retry-After"] = str(err.retry_after)
        return response
    if not is_htmx():
        # Without JavaScript: the whole page, the hints in it.
        return render(game.template, block="game", g=g, error=None, error_param=None, ai=None,
                      panel=None, here=g.url, hints=h)
    return render("games/connect4/hints.html", block="hints", g=g, hints=h)


def hints_url(g: GameLink, **extra) -> str:
    return url_for("hints.hints", game=g.settings.game, **g.query(), **extra)


def warm_up(app: Flask) -> None:
    """Compile (or load) the solver and read the book, once per process; logs the time."""
    if _warm.is_set():
        return
    _warm.set()
    start = time.perf_counter()
    compiled = exact.warm_up()
    book = exact.shared_book()
    # gunicorn's error log when under gunicorn (the worker's start is logged there too)
    log = logging.getLogger("gunicorn.error")
    log = log if log.handlers else app.logger
    log.info("exact solver ready in %.2f s (numba %.2f s, cache %s; book %s)",
             time.perf_counter() - start, compiled,
             os.environ.get("NUMBA_CACHE_DIR") or "beside the code",
             f"{len(book):,} positions" if book is not None else "not installed")


def init_app(app: Flask) -> None:
    path = app.config.get("SOLVED_DB") or os.environ.get("MINIMAX_SOLVED_DB")
    if path is None:
        path = os.path.join(app.instance_path, "solved.sqlite3")
    exact.use_store(path)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(hints_apply=hints_apply, hints_url=hints_url)
    if app.config.get("SOLVER_WARM_UP", True):
        warm_up(app)
