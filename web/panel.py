"""The AI's move, and the tree panel: the search behind a move, folded around a node, or
replayed step by step."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from flask import url_for
from flask_babel import gettext, ngettext

from ai.games.connect4.rules import Connect4
from ai.games.connect4.heuristic import AdjustedCells
from ai.games.connect4.position import columns_of
from ai.levels import LEVELS, Level
from ai.perfect import ALGORITHM as PERFECT_ALGORITHM
from ai.course.scores import SearchResult
from ai.teach.table_view import key_text
from ai.teach.tree_view import (at_step, caption_counts, counts_at, finished_search, node_at,
                          path_of, spine, subtree_sizes, unfold)

from .admission import admitted
from .algorithm_text import TABLE_ALGORITHMS, algorithm_step
from .i18n import ALGORITHM_LABELS, format_value, num
from .inspector import inspect_url
from .params import BadRequest, Game, Settings, label, read_int
from .recent import recent

MAX_NODES = 400_000          # no search may visit more nodes than this
TREE_MAX_NODES = 60_000      # a search of more nodes is not recorded (ai.engine: record_limit)
STEP_MAX_EVENTS = 2_000      # step-by-step replay for trees up to a few hundred nodes
SMALL_TREE_NODES = 60        # a tree this small is drawn whole (every Nim tree of the course);
#                              a larger one as its root's row of moves and the line of best
#                              replies (ai.teach.tree_view.spine), folded around the node in focus


@dataclass(frozen=True)
class Stop:
    """Why a search ended before its depth: which budget ran out, and the depth it was
    working on. The page says it in words ("stopped at its budget of 60,000 nodes before
    finishing depth 6") instead of a depth 0 it never meant."""

    budget: str          # "nodes" or "time"
    limit: int           # nodes, or milliseconds
    depth: int           # the depth it did not finish


def stop_of(result: SearchResult, max_nodes: int | None, seconds: float | None) -> Stop | None:
    """None when ``result`` finished; else which of its two budgets stopped it."""
    if result.complete:
        return None
    # The search counts the node that broke the budget, so the count reaches the limit only
    # when the node budget ran out; otherwise the clock did.
    depth = result.depth or result.stats.depth + 1   # iterative deepening: the next depth
    if max_nodes is not None and result.stats.nodes >= max_nodes:
        return Stop("nodes", max_nodes, depth)
    return Stop("time", round((seconds or 0) * 1000), depth)


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
    stop: Stop | None = None       # why it ended early, when it did
    searched_to_end: bool = True   # some move was searched to the end (else: the first move)

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
                 MAX_NODES, order=settings.order, window=settings.window, fast=False,
                 heuristic=settings.heuristic or None, heuristic_options={"alpha": settings.alpha})


def run_search(settings: Settings, rules, state, *, record=False, depth=None,
               focus=()) -> SearchResult:
    """The AI's search as ``settings`` say (to ``depth`` when given), through the one way to
    ask for a move (``ai.levels.Level.play``), always bounded by depth, nodes and time (a
    preset level's own node budget, which makes its move independent of the server's load).
    With ``record``, the tree is that of this same search (``ai.engine`` replays it), so
    turning the tree on never changes the move; a search of more than ``TREE_MAX_NODES``
    nodes keeps no tree; a large one is recorded around the node at ``focus`` (a path)."""
    overrides = {"depth": depth} if depth else {}
    return ai_level(settings).play(rules, state, record=record, record_limit=TREE_MAX_NODES,
                                   focus=focus, **overrides)


def searched(settings: Settings, rules, state, *, record=False, depth=None, focus=(),
             heavy: bool) -> SearchResult:
    """``run_search`` as a request asks for it. For the levels whose reply cannot depend on
    the clock (``Level.load_independent``), a search made before is not made again: this
    worker's recent searches (``web.recent``) and the level's book of first replies
    (the rules' ``level_reply``: Connect-4's ``level_book``) give it at once, and its tree
    costs only the replay that records it.
    Every search that runs goes through admission control (``web.admission``) in its lane."""
    level = ai_level(settings)
    if not level.load_independent or settings.level not in LEVELS:
        return admitted(lambda: run_search(settings, rules, state, record=record, depth=depth,
                                           focus=focus), heavy=heavy)
    if depth == level.depth:
        depth = None                    # the level's own search (the tree panel's td=)
    key = (level.name, repr(rules), state, depth)
    tree_key = key + (tuple(focus),)
    if record and (kept := recent("trees").get(tree_key)) is not None:
        return kept
    known = recent("moves").get(key)
    if known is None and depth is None:
        stored = getattr(rules, "level_reply", None)
        known = stored(level.name, state) if stored else None
    if known is not None and not record:
        recent("moves").put(key, known)
        return known
    overrides = {"depth": depth} if depth else {}
    if known is not None:
        r = admitted(lambda: level.with_tree(rules, state, known, record_limit=TREE_MAX_NODES,
                                             focus=focus, **overrides), heavy=heavy)
    else:
        r = admitted(lambda: run_search(settings, rules, state, record=record, depth=depth,
                                        focus=focus), heavy=heavy)
    if record:
        recent("trees").put(tree_key, r)
    recent("moves").put(key, replace(r, tree=None))
    return r


def is_heavy(settings: Settings, record: bool = False) -> bool:
    """Whether a search may take long (the admission lanes of ``web.admission``): the expert
    level, or a deep custom search, recorded or not. A preset level up to "hard" is light
    even with its tree: recorded around what the panel draws (``ai.course.record.Focus``), its
    replay costs about one more search (bench/tree_panel.py: p95 under 0.1 s at "hard")."""
    if settings.level == "expert":
        return True
    if settings.level != "custom":
        return False
    return (record or settings.depth >= 7 or settings.time_ms > 500
            or settings.algorithm == "minimax" and settings.depth >= 5)


def ai_move(g: Game, record=False) -> tuple[AIMove, SearchResult]:
    """The AI's move for the side to move, and the search behind it."""
    r = searched(g.settings, g.rules, g.state, record=record, heavy=is_heavy(g.settings, record))
    ms = r.stats.elapsed * 1000          # the search's own time (a kept one's too)
    level = ai_level(g.settings)
    stop = stop_of(r, level.max_nodes, level.time_limit)
    # The node that broke a budget (more nodes than allowed, or the clock read past its
    # deadline) is counted but was never searched, nor drawn in the panel.
    nodes = r.stats.nodes - 1 if stop else r.stats.nodes
    return (AIMove(r.move, g.rules.format_move(r.move), r.value, nodes, r.stats.depth, ms,
                   ALGORITHM_LABELS[r.algorithm if r.algorithm == PERFECT_ALGORITHM
                                    else g.settings.algorithm], r.complete, stop,
                   bool(r.root_values)), r)


@dataclass
class TreePanel:
    """What the tree panel shows: the search behind a move, folded around ``path``."""

    too_large = False

    g: Game
    base: int                  # the search was made in g.states[base]
    about: str                 # "last": the AI's last move; "next": what the AI would play
    result: SearchResult
    path: tuple
    view: object               # ai.teach.tree_view.ViewNode
    total: int | None          # nodes of the whole tree to that depth, when countable
    stop: Stop | None = None   # the budget that cut the search short, if one did
    spine: bool = False        # drawn as a row of moves and a line (ai.teach.tree_view.spine)
    sizes: list | None = None  # explored nodes in each node's subtree (its row's table)
    layers: tuple = ()         # iterative deepening: (depth, move, value, nodes) of each depth
    step: int | None = None
    shown: dict | None = None  # node id -> ai.teach.tree_view.Shown: what the picture may say
    event: tuple | None = None

    def __post_init__(self):
        if self.shown is None:
            self.shown = finished_search(self.view, self.has_window, self.sizes)

    @property
    def has_window(self) -> bool:
        """Whether the search has a window (α, β) to show: every one but plain minimax."""
        return self.result.algorithm != "minimax"

    def go_to_step(self, step: int) -> None:
        """Show the search replayed to ``step``: only what it had done by then."""
        self.step = step
        self.shown, self.event = at_step(self.result.tree, self.view, step, self.has_window)

    @property
    def replaying(self) -> bool:
        """A replay of the search behind the AI's last move that has not reached its end: the
        search has not chosen yet, so the board shows the position it searched (``board_game``)
        and nothing of the move it will play."""
        return (self.about == "last" and self.step is not None
                and self.step < len(self.result.tree.events))

    @property
    def counts(self):
        """The caption's counts: of the whole search, or of what it had done at the step."""
        if self.step is not None:
            return counts_at(self.result.tree, self.step)
        return caption_counts(self.result.tree)

    @property
    def outcome_known(self) -> bool:
        """Whether the picture may give the search's outcome (its best line and value): the
        search finished, and a replay has reached its end."""
        return self.stop is None and (self.step is None
                                      or self.step == len(self.result.tree.events))

    def next_step(self, what: str) -> int | None:
        """The step after this one that shows the next ``what``: "cut" (a cut-off) or "hit"
        (the table answering a node), for the stepper's "next cut-off" and "next table hit";
        None when none is left. A class skips the steps in between."""
        events = self.result.tree.events
        for i in range((self.step or 0), len(events)):
            e = events[i]
            if (what == "cut" and e[0] == "cut") or (
                    what == "hit" and e[0] == "probe" and e[6] == "hit"):
                return i + 1
        return None

    @property
    def steppable(self) -> bool:
        tree = self.result.tree
        return not self.spine and tree.whole and len(tree.events) <= STEP_MAX_EVENTS

    def path_text(self, path) -> str:
        return self.g.rules.format_moves(path)

    @cached_property
    def heuristic(self):
        """The heuristic that scored the leaves at the depth limit (None for none), made once
        per panel: every leaf's tooltip asks for it."""
        return ai_level(self.g.settings).options(self.g.rules)["heuristic"]

    @property
    def heuristic_label(self) -> str:
        """The heuristic's name (its msgid), or ""."""
        return getattr(self.heuristic, "label", "")

    @property
    def ancestors(self) -> list:
        """The nodes from the root to the focus's parent, for the breadcrumb: (path, node);
        with their values the focus's parent stays in sight whatever node is opened."""
        tree = self.result.tree
        return [(self.path[:i], node_at(tree, self.path[:i])) for i in range(len(self.path))]

    @property
    def labels_matches(self) -> bool:
        """Whether the picture writes the matches left in each node (Nim in the course's
        notation, as seed 003 draws it), its value beside it."""
        return (self.g.settings.notation == "course"
                and hasattr(self.g.states[self.base], "remaining"))

    def node_name(self, node) -> str:
        """A node named as the picture labels it. Drawn with its matches left (Nim in the
        course's notation): "min 2 (after 3)", the number in the circle first; otherwise by
        its path, the moves on its edges ("min 3", "max root"), on Nim with the matches left
        ("max 23 (0 matches left)")."""
        path = path_of(self.result.tree, node)
        kind = gettext("max") if node.is_max else gettext("min")
        left = self.matches_left(path)
        if left is not None and self.labels_matches:
            # the moves as the edges label them, one by one ("after 3, 1, 1")
            moves = ", ".join(self.g.rules.format_move(m) for m in path)
            where = gettext("after %(moves)s", moves=moves) if path else gettext("root")
            return f"{kind} {left} ({where})"
        name = kind + " " + (self.path_text(path) or gettext("root"))
        if left is not None:
            name += " " + ngettext("(%(n)s match left)", "(%(n)s matches left)", left, n=left)
        return name

    @property
    def algorithm_step(self):
        """The algorithm's text at this step (``web.algorithm_text``), or None."""
        if self.step is None or self.event is None:
            return None
        tree = self.result.tree
        node = tree.nodes[self.event[1]]
        now = self.shown.get(node.id)
        if self.event[0] == "cut" and now is not None:
            # the child whose value made α ≥ β: the last one searched; its value is s_i in
            # "α = max(α, s_i)" (or β = min(β, s_i)), which the recorded window has not taken
            done = [self.shown[c].value for c in node.children
                    if c in self.shown and not tree.nodes[c].pruned
                    and self.shown[c].value is not None]
            if done:
                s_i = done[-1]
                now = replace(now, now_alpha=max(now.now_alpha, s_i)) if node.is_max else \
                    replace(now, now_beta=min(now.now_beta, s_i))
        return algorithm_step(self.g.settings.algorithm, self.event, node, self.node_name(node),
                              now, self.result.stats.depth or None, self._zobrist(node))

    def _zobrist(self, node):
        """Entering a node of a search with the table, in a game with Zobrist keys (its rules'
        ``key_step``): how its move changed the position's key (None otherwise)."""
        key_step = getattr(self.g.rules, "key_step", None)
        if (key_step is None or self.event[0] != "enter" or node.parent is None
                or self.g.settings.algorithm not in TABLE_ALGORITHMS):
            return None
        *before, move = path_of(self.result.tree, node)
        return key_step(self.state_at(before), move)

    def state_at(self, path):
        """The position at the node ``path`` (moves from the searched position)."""
        state = self.g.states[self.base]
        for move in path:
            state = self.g.rules.result(state, move)
        return state

    def key_text(self, key: int) -> str:
        """A table key as the page writes it: 64-bit Zobrist keys (a game whose rules have a
        ``key_step``) in hexadecimal, 16 digits in groups of 4; other games' small keys in
        decimal."""
        if hasattr(self.g.rules, "key_step"):
            return key_text(key)
        return num(key) if isinstance(key, int) else str(key)

    def leaf_terms(self, node) -> str:
        """A leaf at the depth limit: the heuristic's terms there, from the root player's
        side ("windows of 1 stone 5 − 4 (×1), …"), or "" when the heuristic has none."""
        heuristic = self.heuristic
        if not hasattr(heuristic, "terms"):
            return ""
        state, root_player = self._leaf(node)
        names = {"windows1": gettext("windows of 1 stone"), "windows2": gettext("of 2 stones"),
                 "windows3": gettext("of 3 stones (threats)"),
                 "centre": gettext("stones in the centre column"),
                 "cells": gettext("cell values under the stones")}
        return ", ".join(f"{names[what]} {mine} − {theirs} (×{weight})"
                         for what, weight, mine, theirs in heuristic.terms(state, root_player))

    def _leaf(self, node):
        """The position at ``node``, and the root player (the side of the tree's values)."""
        root_player = self.g.rules.to_move(self.g.states[self.base])
        return self.state_at(path_of(self.result.tree, node)), root_player

    def inspect_url(self, node) -> str | None:
        """A Connect-4 leaf scored by the heuristic: the inspector (``web.inspector``) on its
        position, with this search's heuristic (and α), from the root player's side, as the
        tree's values are; None on other games."""
        rules, heuristic = self.g.rules, self.heuristic
        if not isinstance(rules, Connect4) or heuristic is None:
            return None
        state, root_player = self._leaf(node)
        return inspect_url(columns_of(rules, state), rules.width, rules.height,
                           heur=heuristic.name, side=root_player,
                           alpha=getattr(heuristic, "alpha", AdjustedCells.DEFAULT_ALPHA))

    def matches_left(self, path) -> int | None:
        """Nim: the matches left at the node ``path``, which the course writes in its
        nodes (seed 003); None for other games."""
        state = self.g.states[self.base]
        return state.remaining - sum(path) if hasattr(state, "remaining") else None

    def url(self, action="show", path=None, step=None, **more):
        extra = dict(more)
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


def board_game(g: Game, panel) -> Game:
    """The game as its board shows it beside ``panel``: during a replay of the AI's last
    search (``TreePanel.replaying``), the position before that move, the move not yet played
    (nothing the search has not yet done, board included); else ``g`` itself."""
    if isinstance(panel, TreePanel) and panel.replaying:
        return replace(g, at=panel.base)
    return g


def searched_position(g: Game):
    """Which search the panel shows: the one behind the AI's last move, or else the one the
    AI would make in the position shown. Returns (index in g.states, "last"|"next") or None."""
    if g.at > 0 and g.settings.ai_plays(g.rules.to_move(g.states[g.at - 1])):
        return g.at - 1, "last"
    if not g.over:
        return g.at, "next"
    return None


@dataclass(frozen=True)
class UndrawnSearch:
    """A search too large to draw (more than ``TREE_MAX_NODES`` nodes: the expert level, a
    deep custom search): the panel says so in words, with its size, instead of nothing."""

    g: Game
    about: str
    result: SearchResult
    limit: int            # the drawing limit it passed (TREE_MAX_NODES)
    stop: Stop | None = None   # a budget stopped it too (it says so, not "depth 0")
    too_large = True

    @property
    def explored(self) -> int:
        """Nodes searched: a budget's count includes the node that broke it, never searched
        (as the AI's summary says, ``ai_move``)."""
        return self.result.stats.nodes - (1 if self.stop else 0)


@dataclass(frozen=True)
class SolvedMove:
    """A move the exact solver chose (the perfect level; ``expert`` where the solver proved
    its move within its budget): no depth-limited search, so no tree; the panel says so, with
    the positions the solver searched, instead of a size that reads as a search's."""

    g: Game
    about: str
    result: SearchResult
    too_large = True          # no tree drawn (the same branches as a search too large)
    solved = True

    @property
    def explored(self) -> int:
        return self.result.stats.nodes


def tree_panel(g: Game, args, result: SearchResult | None = None
               ) -> TreePanel | UndrawnSearch | SolvedMove | None:
    """The panel for ``g``: ``result`` when the search was just made, else the search
    recomputed; folded around the ``path`` parameter, at the ``step`` parameter."""
    found = searched_position(g)
    if found is None:
        return None
    base, about = found
    level = ai_level(g.settings)
    budget = (level.max_nodes, level.time_limit)      # the search of the AI's move
    try:
        path = tuple(g.rules.parse_moves(args.get("path", "")))
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "path", field=label("path"), err=err) from None
    if result is None:          # the same search as the move's: the same settings, to its depth
        result = searched(g.settings, g.rules, g.states[base], record=True,
                          depth=g.settings.tree_depth, focus=path,
                          heavy=is_heavy(g.settings, record=True))
    if result.tree is None and result.algorithm == PERFECT_ALGORITHM:
        return SolvedMove(g, about, result)
    if result.tree is None:     # too large to record, or not even depth 1 finished
        return (UndrawnSearch(g, about, result, TREE_MAX_NODES, stop_of(result, *budget))
                if result.stats.nodes > TREE_MAX_NODES else None)
    small = result.tree.whole and len(result.tree.nodes) <= SMALL_TREE_NODES
    sizes = subtree_sizes(result.tree)
    try:
        view = (unfold(result.tree, path, levels=99, sizes=sizes) if small
                else spine(result.tree, path, sizes))
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "path", field=label("path"), err=err) from None
    stop = stop_of(result, *budget)
    # Nim counts against its whole game tree, as the course does; a Connect-4 game tree is
    # astronomically large, so there the count is the tree minimax would visit to the same
    # depth, when it is small enough to count. A search cut short by its budget finished no
    # depth: its caption says so instead of counting against a depth-0 tree of 1 node.
    # An iterative deepening's caption counts every depth's nodes instead (_tree.html): the
    # count, which costs a few ms, is then not made.
    every_depth = result.algorithm == "iterative" and result.stats.nodes != result.tree.explored
    total = (None if stop or (every_depth and "step" not in args)
             else g.spec.tree_size(g.rules, g.states[base], result.stats.depth))
    layers = ()
    if result.algorithm == "iterative":
        # every depth the AI's own search finished, though the panel may show an earlier one
        # (td=): that search is usually the move just made, kept in the recent searches
        layers = (result.iterations if not g.settings.tree_depth else searched(
            g.settings, g.rules, g.states[base], heavy=is_heavy(g.settings)).iterations)
    panel = TreePanel(g, base, about, result, path, view, total, stop, spine=not small,
                      sizes=sizes, layers=layers)
    if "step" in args:
        # checked whatever the tree (a link's mistake is a 400); a large search has no steps
        # (ai.course.record.Focus), and its picture is shown whole instead
        step = read_int(args, "step", 0, 0, len(result.tree.events) if panel.steppable else 0)
        if panel.steppable:
            panel.go_to_step(step)
    return panel
