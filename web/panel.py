"""The AI's move, and the tree panel: the search behind a move, folded around a node, or
replayed step by step."""
from __future__ import annotations

import time
from dataclasses import dataclass

from flask import url_for

from ai.levels import LEVELS, Level
from ai.scores import SearchResult
from ai.tree_view import caption_counts, replay, unfold

from .admission import admitted
from .i18n import ALGORITHM_LABELS, format_value
from .params import BadRequest, Game, Settings, label, read_int

MAX_NODES = 400_000          # no search may visit more nodes than this
TREE_MAX_NODES = 60_000      # a search of more nodes is not recorded (ai.engine: record_limit)
STEP_MAX_EVENTS = 2_000      # step-by-step replay for trees up to a few hundred nodes


@dataclass(frozen=True)
class AIMove:
    """The AI's move as the page summarises it."""

    move: object
    label: str            # the move as people write it
    value: float
    nodes: int
    depth: int
    ms: float
    algorithm: str
    complete: bool

    @property
    def value_text(self) -> str:
        return format_value(self.value)


def ai_level(settings: Settings) -> Level:
    """The preset level of ``settings``, or their custom settings as a level of their own: the
    course's algorithms as chosen (not the fast Connect-4 loop, whose order and node counts
    are its own), bounded like every search."""
    if settings.level in LEVELS:
        return LEVELS[settings.level]
    return Level("custom", settings.algorithm, settings.depth, settings.time_ms / 1000,
                 {settings.game: settings.heuristic or None}, MAX_NODES, order=settings.order,
                 window=settings.window, fast=False)


def run_search(settings: Settings, rules, state, *, record=False, depth=None) -> SearchResult:
    """The AI's search as ``settings`` say (to ``depth`` when given), through the one way to
    ask for a move (``ai.levels.Level.play``), always bounded by depth, nodes and time (a
    preset level's own node budget, which makes its move independent of the server's load).
    With ``record``, the tree is that of this same search (``ai.engine`` replays it), so
    turning the tree on never changes the move; a search of more than ``TREE_MAX_NODES``
    nodes keeps no tree."""
    overrides = {"depth": depth} if depth else {}
    return ai_level(settings).play(rules, state, record=record, record_limit=TREE_MAX_NODES,
                                   **overrides)


def is_heavy(settings: Settings, record: bool = False) -> bool:
    """Whether a search may take long: recorded for the tree panel, the expert level, or a
    deep custom search (the admission lanes of ``web.admission``)."""
    if record or settings.level == "expert":
        return True
    if settings.level != "custom":
        return False
    return (settings.depth >= 7 or settings.time_ms > 500
            or settings.algorithm == "minimax" and settings.depth >= 5)


def ai_move(g: Game, record=False) -> tuple[AIMove, SearchResult]:
    """The AI's move for the side to move, and the search behind it."""
    start = time.perf_counter()
    r = admitted(lambda: run_search(g.settings, g.rules, g.state, record=record),
                 heavy=is_heavy(g.settings, record))
    ms = (time.perf_counter() - start) * 1000
    return (AIMove(r.move, g.rules.format_move(r.move), r.value, r.stats.nodes, r.stats.depth,
                   ms, ALGORITHM_LABELS[g.settings.algorithm], r.complete), r)


@dataclass
class TreePanel:
    """What the tree panel shows: the search behind a move, folded around ``path``."""

    g: Game
    base: int                  # the search was made in g.states[base]
    about: str                 # "last": the AI's last move; "next": what the AI would play
    result: SearchResult
    path: tuple
    view: object               # ai.tree_view.ViewNode
    total: int | None          # nodes of the whole tree to that depth, when countable
    step: int | None = None
    replay: list | None = None
    event: tuple | None = None

    @property
    def counts(self):
        return caption_counts(self.result.tree)

    @property
    def steppable(self) -> bool:
        return len(self.result.tree.events) <= STEP_MAX_EVENTS

    def path_text(self, path) -> str:
        return self.g.rules.format_moves(path)

    def url(self, action="show", path=None, step=None):
        extra = {}
        path = self.path if path is None else path
        if path:
            extra["path"] = self.path_text(path)
        if step is not None:
            extra["step"] = step
        return self.g.url(action, **extra)

    def peek_url(self, path) -> str:
        """The small board of the position at ``path`` (for hover and focus)."""
        s = self.g.settings
        return url_for("play.peek", game=s.game, moves=self.position_moves(path),
                       **{p.url: getattr(s, p.name) for p in s.spec.params})

    def position_moves(self, path) -> str:
        """The moves of the game up to the searched position, then along ``path``."""
        return self.g.rules.format_moves(self.g.moves[:self.base] + list(path))


def searched_position(g: Game):
    """Which search the panel shows: the one behind the AI's last move, or else the one the
    AI would make in the position shown. Returns (index in g.states, "last"|"next") or None."""
    if g.at > 0 and g.settings.ai_plays(g.rules.to_move(g.states[g.at - 1])):
        return g.at - 1, "last"
    if not g.over:
        return g.at, "next"
    return None


def tree_panel(g: Game, args, result: SearchResult | None = None) -> TreePanel | None:
    """The panel for ``g``: ``result`` when the search was just made, else the search
    recomputed; folded around the ``path`` parameter, at the ``step`` parameter."""
    found = searched_position(g)
    if found is None:
        return None
    base, about = found
    if result is None:          # the same search as the move's: the same settings, to its depth
        result = admitted(lambda: run_search(
            g.settings, g.rules, g.states[base], record=True, depth=g.settings.tree_depth),
            heavy=True)
    if result.tree is None:     # too large to record (TREE_MAX_NODES), or no depth finished
        return None
    try:
        path = tuple(g.rules.parse_moves(args.get("path", "")))
        view = unfold(result.tree, path, levels=2)
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "path", field=label("path"), err=err) from None
    # Nim counts against its whole game tree, as the course does; a Connect-4 game tree is
    # astronomically large, so there the count is the tree minimax would visit to the same
    # depth, when it is small enough to count.
    total = g.spec.tree_size(g.rules, g.states[base], result.stats.depth)
    panel = TreePanel(g, base, about, result, path, view, total)
    if "step" in args and panel.steppable:
        panel.step = read_int(args, "step", 0, 0, len(result.tree.events))
        panel.replay, panel.event = replay(result.tree, panel.step)
    return panel
