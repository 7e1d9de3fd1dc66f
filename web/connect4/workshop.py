"""Blueprint ``workshop``: ``/connect4/workshop``, the heuristic workshop, where a student
composes an evaluation function from the course's named terms (``ai.games.connect4.terms``) and
sees what it does.

The link holds everything, so it can be shared: ``?h=cells=1,open3=8`` the heuristic as text,
``prev=`` the one before the last change (the steppers write it), ``moves=`` the position,
``depth=`` the search's, ``cls=`` the class whose phone opened it ("build your heuristic",
``web.connect4.class_workshop``: its depth kept, a form sends the heuristic there). The page
gives the board's value term by term, the tree the search explores at that depth with this
heuristic (the shared tree panel, as a custom level with this heuristic draws it; the values the
last change changed ringed, ``tree_changes``), each column's value with this heuristic and with
the previous one (those that changed marked, the root's choice when it flips said in words), the
accuracy on the workshop's positions (``ai.games.connect4.accuracy``) beside the levels'
heuristics at the same depth and the levels as they play, its worst choices (each a link to the
position with the exact outcomes), and a link to play against it (the custom level takes the
text). The searches run off the event loop in the pages' lane (``web.admission.in_lane``), the
tree through the heavy lane as every custom tree does (``web.ai_move.searched``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from flask import Blueprint, request, url_for
from flask_babel import lazy_gettext as _l

from ai.course.scores import WIN_THRESHOLD
from ai.games.connect4 import accuracy, compiled_search
from ai.games.connect4.position import columns_of
from ai.games.connect4.terms import (LEVEL_WEIGHTS, NAMES, TERMS, WeightedHeuristic, Weights,
                                     counts, format_weights, parse)
from ai.levels import LEVELS
from ai.teach.tree_view import mark_changed, walk
from ai.messages import GameError

from ..admission import in_lane, in_this_request, offload
from ..game_link import parse_game
from ..games import GAMES
from ..htmx import render
from ..i18n import num, tr
from ..params import LABELS, BadRequest, label, read_class_code, read_int
from ..projector import projector_on
from ..tree_panel import TreePanel, tree_panel

bp = Blueprint("workshop", __name__)
LABELS.update({"h": _l("Heuristic"), "prev": _l("Previous heuristic")})

DEFAULT_TEXT = "cells=1"          # seed 000's heuristic: where a student starts
DEFAULT_MOVES = "6122"            # cells=1 plays 2 and loses; with open3=8, 4 and draws
DEFAULT_DEPTH = 4
MAX_DEPTH = 6                     # the course's Python search draws the tree: keep it quick
MAX_TEXT = 200
STEP = {"cells": 1, "adjusted": 1, "open1": 1, "open2": 2, "open3": 4, "center": 1,
        "threats": 2, "immediate": 4, "oddeven": 2}
LEVEL_ROWS = ("beginner", "easy", "medium")
# each term in a few words, for the page and the tree's leaves (the course's words in full:
# terms.TERMS' ``course``, the title of each row)
TERM_LABELS = {"cells": _l("the course's cell values"), "adjusted": _l("adjusted cell values"),
               "open1": _l("open windows with one stone"),
               "open2": _l("open windows with two stones"),
               "open3": _l("open windows with three stones"),
               "center": _l("stones in the centre column"), "threats": _l("winning cells"),
               "immediate": _l("playable winning cells"),
               "oddeven": _l("threats on the rows of the right parity")}
WORST = 3


def read_weights(args, name: str, default: str | None) -> Weights | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        return None if default is None else parse(default)
    if len(raw) > MAX_TEXT:
        raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)", name,
                         field=label(name), n=len(raw), most=MAX_TEXT)
    try:
        return parse(raw)
    except ValueError as err:
        raise BadRequest("%(field)s: write name=weight pairs separated by commas, e.g. "
                         "%(example)s (the terms: %(terms)s). Here: %(why)s", name,
                         field=label(name), example="cells=1,open3=8",
                         terms=", ".join(NAMES), why=tr(err)) from None


def column_values(weights: Weights, state, depth: int) -> dict[int, float]:
    """Each legal column's value for the side to move: the search at ``depth`` below it
    (exact within that depth: not the bounds alpha-beta leaves for the moves it cut)."""
    h = WeightedHeuristic(accuracy.GAME, weights)
    out = {}
    for m in accuracy.GAME.actions(state):
        child = accuracy.GAME.result(state, m)
        out[m] = -compiled_search.alphabeta(accuracy.GAME, child, depth - 1, heuristic=h).value
    return out


def choice(values: dict[int, float]) -> int:
    """The column the course's alpha-beta plays (centre first, the first of equal values)."""
    best = max(values.values())
    return next(m for m in accuracy.GAME.center_order if values.get(m) == best)


@lru_cache(maxsize=8)
def level_report(level: str):
    """A level as it plays, judged on the workshop's positions."""
    lv = LEVELS[level]
    return accuracy.judge(lambda s: lv.play(accuracy.GAME, s).move, accuracy.default_positions(),
                          level, lv.depth)


@dataclass
class Workshop:
    weights: Weights
    prev: Weights | None
    moves: str
    depth: int
    state: object = None
    rows: list = field(default_factory=list)
    total: float = 0
    values: dict = field(default_factory=dict)
    prev_values: dict = field(default_factory=dict)
    report: object = None
    prev_report: object = None
    levels: list = field(default_factory=list)
    class_code: str | None = None     # opened from a class's phone: its depth, its send form
    tree_changed: int = 0             # drawn nodes of the tree whose value the change changed

    @property
    def text(self) -> str:
        return format_weights(self.weights)

    @property
    def prev_text(self) -> str | None:
        return None if self.prev is None else format_weights(self.prev)

    @property
    def columns(self) -> list:
        return columns_of(accuracy.GAME, self.state)

    @property
    def to_move(self) -> int:
        return accuracy.GAME.to_move(self.state)

    def compute(self) -> None:
        game, side = accuracy.GAME, self.to_move
        mine, theirs = counts(game, self.state, side)
        a = self.weights.alpha
        for i, t in enumerate(TERMS):
            m, o = (a * mine[0] + mine[1], a * theirs[0] + theirs[1]) if i == 1 else (mine[i],
                                                                                    theirs[i])
            w = self.weights.values[i]
            self.rows.append(dict(name=t.name, label=TERM_LABELS[t.name], course=t.course,
                                  weight=w,
                                  mine=_round(m), theirs=_round(o), part=_round(w * (m - o)),
                                  minus=self.url(h=self.changed(t.name, -STEP[t.name])),
                                  plus=self.url(h=self.changed(t.name, STEP[t.name]))))
        self.total = WeightedHeuristic(game, self.weights)(self.state, side)
        if not game.is_terminal(self.state):
            self.values = column_values(self.weights, self.state, self.depth)
            if self.prev is not None:
                self.prev_values = column_values(self.prev, self.state, self.depth)
        self.report = accuracy.measure(self.weights, self.depth)
        if self.prev is not None:
            self.prev_report = accuracy.measure(self.prev, self.depth)
        self.levels = [(_l("cell values (beginner's and easy's heuristic), same depth"),
                        accuracy.measure(LEVEL_WEIGHTS["cells"], self.depth)),
                       (_l("threats (medium's heuristic), same depth"),
                        accuracy.measure(LEVEL_WEIGHTS["threats"], self.depth))]
        self.levels += [(level, level_report(level)) for level in LEVEL_ROWS]

    def changed(self, name: str, delta: float) -> str:
        values = list(self.weights.values)
        i = NAMES.index(name)
        values[i] = _round(values[i] + delta)
        return format_weights(Weights(tuple(values), self.weights.alpha))

    def url(self, h: str | None = None, keep_prev: bool = False, **more) -> str:
        """This page with the heuristic ``h`` (its ``prev`` then this one, unless
        ``keep_prev``)."""
        args = dict(h=h or self.text, moves=self.moves or None,
                    depth=self.depth if self.depth != DEFAULT_DEPTH or self.class_code else None,
                    cls=self.class_code)
        if h is not None and h != self.text:
            args["prev"] = self.text
        elif keep_prev and self.prev is not None:
            args["prev"] = self.prev_text
        args.update(more)
        return url_for("workshop.page", **{k: v for k, v in args.items() if v is not None})

    @property
    def choice(self) -> int | None:
        return choice(self.values) if self.values else None

    @property
    def prev_choice(self) -> int | None:
        return choice(self.prev_values) if self.prev_values else None

    @property
    def what_changed(self) -> list[str]:
        """The weights that differ from the previous heuristic's, as ``open3 = 8``."""
        if self.prev is None:
            return []
        out = [f"{n} = {_num(w)}" for n, w, p in zip(NAMES, self.weights.values,
                                                     self.prev.values) if w != p]
        if self.weights.alpha != self.prev.alpha:
            out.append(f"alpha = {_num(self.weights.alpha)}")
        return out

    def value_changed(self, move) -> bool:
        return bool(self.prev_values) and self.prev_values.get(move) != self.values.get(move)

    def play_url(self, from_here: bool) -> str:
        """A game against this heuristic: the custom level (alpha-beta at this depth, centre
        first), from the start or from this position (the student plays the side to move)."""
        args = dict(level="custom", algo="alphabeta", depth=self.depth, heur=self.text,
                    order="center", time=1000)
        if from_here and self.moves:
            args.update(moves=self.moves, mode="human-ai" if self.to_move == 0 else "ai-human")
        return url_for("play.show", game="connect4", **args)

    def position_url(self, moves: str) -> str:
        """A position of the accuracy's set, with every column's exact outcome (hints)."""
        return url_for("play.show", game="connect4", moves=moves, hints=1, mode="human-human")


def value_text(v) -> str:
    """A value in the page's locale: a proven win or loss as +∞ or −∞ (the search saw the end
    of the game), an estimate as its number."""
    if v is None:
        return ""
    if abs(v) >= WIN_THRESHOLD:
        return "+∞" if v > 0 else "−∞"
    return num(_round(v)).replace("-", "−")


def _round(x):
    x = round(x, 6)
    return int(x) if float(x).is_integer() else x


def _num(x) -> str:
    x = _round(x)
    return str(x)


def tree_changes(panel: TreePanel, w: Workshop) -> dict[int, float]:
    """The drawn nodes whose value the last change changed, with their value before (node id
    -> value, the root player's side as the tree's values): the root's moves whose exact
    value at this depth changed (as under the board), and the leaves at the depth limit the
    previous heuristic scores otherwise. Nothing without a previous heuristic."""
    if w.prev is None:
        return {}
    now, before = WeightedHeuristic(accuracy.GAME, w.weights), WeightedHeuristic(
        accuracy.GAME, w.prev)
    side = w.to_move
    out = {}
    for v in walk(panel.view):
        n = v.node
        if n.pruned or n.value is None:
            continue
        if v.y == 1 and len(v.path) == 1:
            if w.value_changed(n.move):
                out[n.id] = w.prev_values[n.move]
        elif n.kind == "horizon":
            state = panel.state_at(v.path)
            old = before(state, side)
            if old != now(state, side):
                out[n.id] = old
    return out


def workshop_tree(w: Workshop):
    """The tree panel of the custom level with this heuristic at this depth (the course's
    alpha-beta, centre first), as the game page draws it (in projector mode, as its projector
    mode does); None when the game is over."""
    args = {"moves": w.moves, "level": "custom", "algo": "alphabeta", "depth": str(w.depth),
            "heur": w.text, "order": "center", "time": "1000", "mode": "human-human",
            "tree": "1"}
    if projector_on():      # the projector's geometry, for the projector's larger labels
        args["proj"] = "1"
    g = parse_game(GAMES["connect4"], args)
    panel = tree_panel(g, {})
    return panel if isinstance(panel, TreePanel) else None


def mark_tree(panel: TreePanel, w: Workshop) -> None:
    changes = tree_changes(panel, w)
    panel.shown = mark_changed(panel.shown, changes)
    w.tree_changed = len(changes)


@bp.get("/connect4/workshop")
@in_lane()      # the searches off the loop, the page drawn in a pages' slot (web.admission)
def page():
    """The workshop on the link's heuristic, position and depth (a 400 with the reason)."""
    args = request.args
    try:
        weights = read_weights(args, "h", DEFAULT_TEXT)
        prev = read_weights(args, "prev", None)
        depth = read_int(args, "depth", DEFAULT_DEPTH, 1, MAX_DEPTH)
        code = read_class_code(args) or None
        moves = args.get("moves", DEFAULT_MOVES).strip().replace("-", "")
        if len(moves) > accuracy.GAME.cells:
            raise BadRequest("%(field)s: at most %(n)s moves", "moves", field=label("moves"),
                             n=accuracy.GAME.cells)
        try:
            state = accuracy.GAME.from_moves(moves)
        except GameError as err:
            raise BadRequest("%(field)s: %(err)s", "moves", field=label("moves"),
                             err=tr(err)) from None
    except BadRequest as err:
        return render("games/connect4/workshop.html", block="workshop", status=400,
                      error=tr(err), w=None, panel=None)
    w = Workshop(weights, prev, moves, depth, state, class_code=code)
    offload(in_this_request(w.compute))     # its links need the request, and g's notes
    panel = workshop_tree(w)          # its search in the heavy lane (web.ai_move.searched)
    if panel is not None:             # which drawn values the change changed
        offload(lambda: mark_tree(panel, w))
    return offload(in_this_request(
        lambda: render("games/connect4/workshop.html", block="workshop", error=None, w=w,
                       panel=panel, value_text=value_text)))
