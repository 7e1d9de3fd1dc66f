"""Blueprint ``review``: the exact review of a whole game, for every game of the games table
(``ai.teach.review``; names no game).

- ``GET /<game>/review?moves=…``: every move classed (best, inaccuracy, mistake, blunder),
  the outcome graph, each player's summary; ``ply=k`` selects move k: for a move that lost
  something, the move that kept the value, the refutation drawn on the position and the
  sentence why (htmx asks for the ``detail`` block alone).
- ``GET /<game>/review/learn?moves=…&k=…``: "learn from your mistakes": the position before
  the k-th erring move, without the answer; ``try=`` a move: a move that keeps the value
  passes, another is explained; then the next.

The link keeps the game's own parameters (language, projector mode, players' names, who
played, the level). A wrong move list is a 400 that says why and reviews the moves that were
right. Every review runs in the heavy search lane (``web.admission``), bounded in time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, current_app, request, url_for
from flask_babel import gettext, ngettext

from ai.teach.review import Budget, explain, review, why_text
from ai.teach.review_view import build_graph

from .admission import Busy, admitted, refuse
from .games import GameSpec
from .htmx import render
from .i18n import tr
from .notation import format_value
from .game_link import (GameLink as Game, parse_game, parse_game_keeping_what_is_right,
                        parse_longest_legal)
from .params import BadRequest, read_int

bp = Blueprint("review", __name__)
#: ``app.extensions`` key of ``follow(class_code, ply) -> bool``: the projector's review selected
#: ``ply``, the class's phones follow (True when recorded: this browser is the class's teacher).
#: Class mode registers it (``web.class_review``); without it a review is an ordinary page.
FOLLOW = "review.follow"

SCORE_SECONDS = 1.5       # the scores of a whole game, per request (bench/bench_review.py)
SCORE_NODES = 6_000_000   # and at most this many solver nodes per request (a count: the same
#                           game fills in the same steps on any machine)
FILL_ROUNDS = 5           # a review not complete asks again, up to this many times, each
#                           round with twice the budget of the one before (a position that
#                           needs more than one round's budget gets it); what a round solved
#                           is in the table of solved positions for the next
MAX_SCORE_SECONDS = 8.0   # no round takes longer
EXPLAIN_SECONDS = 2.0     # one erring move's refutation and sentence
AI_SECONDS = 2.0          # the AI's own estimates, replayed (the second line of the graph)


def read_game(spec: GameSpec, args) -> tuple[Game, BadRequest | None]:
    """The game of the link, and what was wrong in it: a wrong move keeps the moves before it
    (the longest legal beginning), a wrong setting keeps the others."""
    try:
        return parse_game(spec, args), None
    except BadRequest as err:
        error = err
    if error.param == "moves":
        try:
            return parse_longest_legal(spec, args), error
        except BadRequest:
            pass                        # a wrong setting too: the others are kept below
    return parse_game_keeping_what_is_right(spec, args), error


def names_of(g: Game):
    return g.settings.player_name


@dataclass
class ReviewPage:
    """Everything the review's template draws."""

    g: Game
    rev: object                    # ai.teach.review.Review
    graph: object                  # ai.teach.review_view.Graph | None
    selected: object = None        # the MoveReview shown in detail
    why: str = ""
    drawing: object = None         # the game's own picture of the refutation (review_drawing)
    fill_url: str | None = None    # the next round of a review not complete yet
    ai_played: bool = False
    summary: list = field(default_factory=list)   # (player, name, counts, accuracy)
    class_code: str = ""           # the class's teacher shows this review on the phones

    def url(self, **extra) -> str:
        if self.class_code:
            extra.setdefault("cls", self.class_code)
        return review_url(self.g, **extra)

    def learn_url(self, **extra) -> str:
        return review_url(self.g, "review.learn", **extra)


def review_url(g: Game, endpoint: str = "review.page", **extra) -> str:
    query = g.query(upto=len(g.moves))
    query.pop("at", None)
    query.pop("cls", None)         # a class's game reviewed: an ordinary page, not the class's
    query.update(extra)
    return url_for(endpoint, game=g.settings.game, **query)


def ai_estimates(g: Game, deadline: float) -> dict:
    """ply -> the AI's value for the move it played there (its own side), searched again
    as the level searches (light levels answer from their book and recent searches), until
    ``deadline`` (time.monotonic())."""
    import time
    from .ai_move import run_search
    out = {}
    if g.settings.level == "perfect":
        return out
    for i, state in enumerate(g.states[:-1]):
        if not g.settings.ai_plays(g.rules.to_move(state)):
            continue
        if time.monotonic() > deadline:
            break
        r = run_search(g.settings, g.rules, state)
        out[i + 1] = r.value
    return out


def score_seconds() -> float:
    """A review round's first time guard: ``SCORE_SECONDS``, or the app's ``REVIEW_SECONDS``
    (the tests raise it so that the node budget alone decides, however loaded the machine).
    Read in the request, since ``build`` runs in a lane's thread."""
    return current_app.config.get("REVIEW_SECONDS", SCORE_SECONDS)


def build(g: Game, ply: int | None, fill: int = 0,
          seconds: float = SCORE_SECONDS) -> ReviewPage:
    """The review of ``g``'s moves (bounded: round ``fill`` has 2**fill times the first
    round's budget, ``seconds`` and ``SCORE_NODES``), with move ``ply`` explained."""
    import time
    rev = review(g.rules, g.moves, time_limit=min(seconds * 2 ** fill,
                                                  max(seconds, MAX_SCORE_SECONDS)),
                 max_nodes=SCORE_NODES * 2 ** fill, lines=False)
    selected = None
    if ply is not None and 1 <= ply <= len(rev.items):
        selected = rev.items[ply - 1]
        explain(rev, selected, Budget(EXPLAIN_SECONDS, None))
    ai_played = any(g.settings.ai_plays(p) for p in (0, 1)) and len(g.moves) > 0
    ai_values = ai_estimates(g, time.monotonic() + AI_SECONDS) if ai_played else None
    page = ReviewPage(g, rev, build_graph(rev, ai_values=ai_values), selected,
                      ai_played=ai_played)
    page.ai_values = ai_values or {}        # formatted by the view (it has the locale)
    return page


def _summary(page: ReviewPage) -> list:
    out = []
    for p in sorted(page.rev.counts):
        out.append((p, page.g.settings.player_name(p), page.rev.counts[p], page.rev.accuracy(p)))
    return out


def drawing(g: Game, rev, ply: int, move, line):
    """The game's picture of a move and its refutation (its ``review_drawing`` hook), None
    for a game without one (its template then lists the moves)."""
    return g.rules.review_drawing(rev.states[ply - 1], move, tuple(line))


@bp.get("/<game:game>/review")
def page(game: GameSpec):
    """The review of the game in the link; ``ply``: the move shown in detail."""
    g, error = read_game(game, request.args)
    try:
        ply = read_int(request.args, "ply", None, 1, max(len(g.moves), 1))
        fill = read_int(request.args, "fill", 0, 0, FILL_ROUNDS)
    except BadRequest as err:
        ply, fill, error = None, 0, error or err
    try:
        seconds = score_seconds()
        view = admitted(lambda: build(g, ply, fill, seconds), heavy=True)
    except Busy as err:
        raise refuse(err) from None
    view.summary = _summary(view)
    view.ai_values = {p: format_value(v) for p, v in view.ai_values.items()}
    # the teacher's projector: the phones follow (how: web.class_review, which registers it)
    follow = current_app.extensions.get(FOLLOW)
    if g.settings.class_code and error is None and follow and follow(g.settings.class_code, ply):
        view.class_code = g.settings.class_code
    if view.selected is not None:
        view.why = why_text(view.selected, gettext=gettext, ngettext=ngettext,
                            names=g.settings.player_name)
        view.drawing = drawing(g, view.rev, view.selected.ply, view.selected.move,
                               view.selected.refutation)
    # not complete: the page shows what is known and asks again (the page fills in as it
    # goes), at most FILL_ROUNDS times
    view.fill_url = (view.url(**({"ply": ply} if ply else {}), fill=fill + 1)
                     if not view.rev.complete and fill < FILL_ROUNDS and error is None else None)
    detail = "ply" in request.args and error is None and not fill
    return render("review.html", block="detail" if detail else "review",
                  status=400 if error else 200,
                  push_url=view.url(ply=ply) if ply and detail else None, r=view, g=g,
                  error=tr(error) if error else None)


@bp.get("/<game:game>/review/learn")
def learn(game: GameSpec):
    """Learn from your mistakes: the ``k``-th erring move's position, without the answer;
    ``try``: a move tried there (kept the value: passed; else why not)."""
    g, error = read_game(game, request.args)
    try:
        seconds = score_seconds()
        view = admitted(lambda: build(g, None, 0, seconds), heavy=True)
    except Busy as err:
        raise refuse(err) from None
    erring = [m for m in view.rev.items if m.cls in ("inaccuracy", "mistake", "blunder")]
    who = request.args.get("who", "")
    if who in ("0", "1"):
        erring = [m for m in erring if m.player == int(who)]
    k = 0
    tried = verdict = None
    try:
        k = read_int(request.args, "k", 0, 0, max(len(erring) - 1, 0))
        raw = request.args.get("try")
        if raw not in (None, "") and erring:
            item = erring[k]
            state = view.rev.states[item.ply - 1]
            try:
                move = g.rules.parse_move(raw)
                g.rules.result(state, move)
            except ValueError as err:
                raise BadRequest("%(err)s", "try", err=err) from None
            tried = move
            verdict = admitted(lambda: judge(g, view.rev, item, move), heavy=True)
            if verdict.trial is not None:         # its sentence, in the page's language
                verdict.text = why_text(verdict.trial, gettext=gettext, ngettext=ngettext,
                                        names=g.settings.player_name)
    except BadRequest as err:
        error = error or err
    except Busy as err:
        raise refuse(err) from None
    item = erring[k] if erring else None
    return render("review_learn.html", block="learn", status=400 if error else 200, g=g,
                  r=view, erring=erring, k=k, item=item, tried=tried, verdict=verdict,
                  who=who, error=tr(error) if error else None)


@dataclass
class Verdict:
    passed: bool
    cls: str
    text: str
    kept: object = None
    line: tuple = ()
    drawing: object = None
    trial: object = None           # the MoveReview of the move tried (its sentence: the view)


def judge(g: Game, rev, item, move) -> Verdict:
    """A move tried in the position of ``item``: does it keep the value? If not, why."""
    from ai.teach.review import MoveReview, classify
    state = rev.states[item.ply - 1]
    budget = Budget(EXPLAIN_SECONDS, None)
    child = g.rules.result(state, move)
    r = rev.scorer.score(child, item.ply, budget, need_move=False)
    if r is None:
        raise BadRequest("the exact value was not found in time: try again")
    after = -r[0]
    cls = classify(item.before, after)
    if cls == "best":
        return Verdict(True, cls, "")
    trial = MoveReview(item.ply, item.player, move, item.before, after, cls, kept=item.kept,
                       before_words=item.before_words,
                       after_words=rev.scorer.words(state, item.ply - 1, after))
    sub = type(rev)(rev.game, rev.moves[:item.ply - 1] + [move], [trial], True, 0.0,
                    states=rev.states[:item.ply] + [child], scorer=rev.scorer)
    explain(sub, trial, budget)
    return Verdict(False, cls, "", trial.kept, trial.refutation,
                   drawing(g, rev, item.ply, move, trial.refutation), trial)


def init_app(app) -> None:
    app.register_blueprint(bp)


# -- the teaching game ---------------------------------------------------------------------------

TEACH_SECONDS = 1.0


@dataclass
class TeachWarning:
    cls: str            # "mistake" or "blunder"
    was: str            # the value before the move: "win" or "draw"
    back_url: str       # the position before the move


def teaching_warning(g: Game) -> TeachWarning | None:
    """After a person's move in a teaching game: a warning when it lost the win or the draw
    (its exact value, within ``TEACH_SECONDS`` in the light lane; no warning when it is not
    found in time)."""
    from dataclasses import replace
    from ai.teach.review import _Scorer, classify
    if len(g.moves) == 0 or g.settings.ai_plays(g.rules.to_move(g.states[-2])):
        return None
    scorer = _Scorer(g.rules)
    budget = Budget(TEACH_SECONDS, None)

    def values():
        i = len(g.moves) - 1
        before = scorer.score(g.states[i], i, budget, need_move=False)
        if before is None:
            return None
        after = scorer.score(g.states[i + 1], i + 1, budget, at_least=-before[0],
                             need_move=False)
        return None if after is None else (before[0], -after[0])

    try:
        found = admitted(values, heavy=False)
    except Busy:
        return None
    if found is None:
        return None
    cls = classify(*found)
    if cls not in ("mistake", "blunder"):
        return None
    back = replace(g, moves=g.moves[:-1], at=len(g.moves) - 1, states=g.states[:-1])
    return TeachWarning(cls, "win" if found[0] > 0 else "draw", back.url())
