"""The AI's move: the one search a request makes for it (``ai.levels.Level.play``), its
budgets, the searches kept from before (``web.recent``, a game's book of first replies: the
rules' ``level_reply``), and the summary the page gives of it (``AIMove``). The tree panel
drawn from that search is ``web.tree_panel``."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ai.course.scores import SearchResult
from ai.levels import LEVELS, Level
from ai.perfect import ALGORITHM as PERFECT_ALGORITHM

from .admission import admitted
from .game_link import GameLink, Settings
from .i18n import ALGORITHM_LABELS
from .notation import format_value
from .recent import recent

MAX_NODES = 400_000          # no search may visit more nodes than this
TREE_MAX_NODES = 60_000      # a search of more nodes is not recorded (ai.engine: record_limit)


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
    course's algorithms as chosen (not a game's own fast loop, whose order and node counts
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
    (the rules' ``level_reply``: a game's book of them) give it at once, and its tree
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
        known = rules.level_reply(level, state)
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
    """Whether a search may take long (the admission lanes of ``web.admission``): a deep custom
    search, recorded or not. Every preset level is light, its tree too: the levels up to
    expert search to a depth within a node budget (expert costs what hard costs:
    bench/bench_levels.py), the search that decides records its own tree (bench/tree_panel.py:
    p95 under 0.1 s at "hard"), and perfect is bounded by its own budget."""
    if settings.level != "custom":
        return False
    return (record or settings.depth >= 7 or settings.time_ms > 500
            or settings.algorithm == "minimax" and settings.depth >= 5)


def ai_move(g: GameLink, record=False) -> tuple[AIMove, SearchResult]:
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
