"""The tree panel: the search behind a move (``web.ai_move``), folded around a node, or
replayed step by step; what the picture may say at each step, and the words of its nodes."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from flask import url_for

from ai.perfect import ALGORITHM as PERFECT_ALGORITHM
from ai.course.scores import SearchResult
from ai.teach.table_view import key_text
from ai.teach.tree_view import (ViewNode, at_step, caption_counts, counts_at, finished_search,
                                full_tree_size, node_at, path_of, replay, spine, subtree_sizes, unfold)

from . import ai_move as moves     # its budgets read at each call (the tests lower them)
from .ai_move import Stop, ai_level, is_heavy, searched, stop_of
from .algorithm_text import TABLE_ALGORITHMS, algorithm_step
from .game_link import GameLink
from .i18n import num
from .notation import format_shown, node_text
from .params import BadRequest, label, read_int

STEP_MAX_EVENTS = 2_000      # step-by-step replay for trees up to a few hundred nodes
SMALL_TREE_NODES = 60        # a tree this small is drawn whole (every small tree of the course);
#                              a larger one as its root's row of moves and the line of best
#                              replies (ai.teach.tree_view.spine), folded around the node in focus


def named(g, is_max: bool, path, left: int | None) -> str:
    """The node at ``path`` (moves from the searched position) of a tree searched on game
    link ``g``, named as the picture draws it (``web.notation.node_text``); ``left``: what
    the game counts there (``GameSpec.left``), or None to leave it out."""
    return node_text(is_max, g.rules.format_moves(path), [g.rules.format_move(m) for m in path],
                     left, left_first=counts_in_nodes(g), left_words=g.spec.words.left)


def counts_in_nodes(g) -> bool:
    """Whether the picture writes in each node what the game counts there
    (``GameSpec.left``, in the course's notation, as seed 003 draws it), its value beside it."""
    return g.settings.notation == "course" and g.spec.left is not None


def name_in_tree(g, root: int) -> str:
    """The position game link ``g`` shows, named as the tree searched from its position after
    ``root`` moves names that node (``TreePanel.node_name``: the root is max, "min (after 1,
    1)", "min 2 (after 3)" in the course's notation): the small board's title on hover, so
    that it says what the node says, not the game's moves run together ("After 411")."""
    path = g.moves[root:g.at]
    count = g.spec.left
    return named(g, len(path) % 2 == 0, path, None if count is None else count(g.state))


@dataclass(frozen=True)
class PrunedFocus:
    """The node in focus was pruned: a cut-off at its parent skipped it, so the search never
    explored it and there is no tree below it to draw. What the panel says instead, where its
    picture would be (seed 003: "si, en cours d'exploration, on trouve α = β, ... on peut
    arrêter l'exploration des sommets fils (élagage)"): the parent, the child whose value
    made α ≥ β there (``by_move``, ``by_value``: s_i of "α = max(α, s_i)" at a max node,
    "β = min(β, s_i)" at a min node; None when the parent's window was already empty on
    entry, α ≥ β, and every child was skipped) and the window then, from the root
    player's side as the tree's values are."""

    name: str                  # the pruned node, named as the tree names it (node_name)
    parent_path: tuple
    parent_name: str
    parent_is_max: bool
    alpha: float | None        # the parent's window at the cut: α ≥ β (None: not recorded)
    beta: float | None
    by_move: str | None        # the move whose value made α ≥ β, as the game writes it
    by_value: float | None
    skipped: tuple             # the moves the cut skipped, as the game writes them


@dataclass
class TreePanel:
    """What the tree panel shows: the search behind a move, folded around ``path``."""

    too_large = False

    g: GameLink
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
    replayed: tuple | None = None   # at a step: the search replayed to it (tree_view.replay),
    #                                 once: the picture, its caption's counts and the breadcrumb
    #                                 all read this one, so they show the same step

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
        self.replayed = replay(self.result.tree, step)
        self.shown, self.event = at_step(self.result.tree, self.view, step, self.has_window,
                                         self.replayed)

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
            return counts_at(self.result.tree, self.step, self.replayed)
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

    @cached_property
    def unsteppable(self) -> dict | None:
        """Why a tree drawn folded (``spine``) has no step by step, said where the stepper
        would be: a replay draws every node, and a tree of more than ``SMALL_TREE_NODES`` is
        drawn folded. ``nodes``: the nodes this tree would draw (the pruned ones too, as a
        replay draws them); ``depth``: the largest depth whose tree is drawn whole, for a link
        to the same search there (None when there is no such link: the search behind a move
        the AI played, which a smaller depth would not have made, or a preset level's).
        None for a tree that is replayed, or a search its budget cut short."""
        if not self.spine or self.stop:
            return None
        tree = self.result.tree
        nodes = len(tree.nodes) if tree.whole else self.result.stats.nodes
        depth = None
        if self.about == "next" and self.g.settings.level == "custom":
            state = self.g.states[self.base]
            # counted as minimax's tree, which holds an alpha-beta tree's nodes, pruned ones
            # included; each count stops past SMALL_TREE_NODES, so this costs a few positions
            for d in range(1, self.result.stats.depth):
                if full_tree_size(self.g.rules, state, d, SMALL_TREE_NODES) is None:
                    break
                depth = d
        return dict(nodes=nodes, most=SMALL_TREE_NODES, depth=depth)

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
        """The nodes from the root to the focus's parent, for the breadcrumb: (path, node,
        value); with their values the focus's parent stays in sight whatever node is opened.
        A value is written as the picture writes that node at this step (``format_shown``:
        "≤ L2" for a bound), None while the picture shows none: a step by step does not give
        away the root's value before the search has found it."""
        tree = self.result.tree
        line = [ViewNode(node_at(tree, self.path[:i]), self.path[:i])
                for i in range(len(self.path))]
        for above, below in zip(line, line[1:]):
            above.children.append(below)
        # the view drawn starts at the focus: its ancestors' state at this step, read from the
        # panel's own replay (the picture's), not a second one
        shown = ({} if not line else finished_search(line[0], self.has_window)
                 if self.step is None
                 else at_step(tree, line[0], self.step, self.has_window, self.replayed)[0])
        out = []
        for v in line:
            now = shown.get(v.node.id)
            value = (None if now is None or now.pruned or now.value is None
                     else format_shown(now.value, now.bound))
            out.append((v.path, v.node, value))
        return out

    @property
    def focus_name(self) -> str:
        """The breadcrumb's last item, the node in focus, named as its ancestors are
        (``node_name``: "max (after 4, 3)", never the bare move "3"), without its value:
        the tree below draws it, and a step by step or a question must not give it away."""
        return self.node_name(node_at(self.result.tree, self.path))

    @cached_property
    def pruned_focus(self) -> PrunedFocus | None:
        """The node in focus when the picture shows it pruned (``PrunedFocus``); None for any
        other, and during a replay before the cut that skips it (a step by step does not
        say what gets pruned before it happens)."""
        tree = self.result.tree
        node = node_at(tree, self.path)
        now = self.shown.get(node.id)
        if not node.pruned or now is None or not now.pruned:
            return None
        parent = tree.nodes[node.parent]
        kids = [tree.nodes[c] for c in parent.children]
        searched = [k for k in kids if not k.pruned and k.value is not None]
        alpha, beta = parent.alpha, parent.beta
        by = searched[-1] if searched else None
        # the window when the parent cut: its window on entry, α raised (at a max node) or
        # β lowered (at a min node) by each child's value, as the search does; with no child
        # searched the window was empty on entry (a mate-distance clip)
        if searched and parent.is_max:
            alpha = max([alpha, *(k.value for k in searched)])
        elif searched:
            beta = min([beta, *(k.value for k in searched)])
        if alpha is None or beta is None or alpha < beta:
            alpha = beta = by = None        # the cut's window is not in the recorded tree
        move = self.g.rules.format_move
        return PrunedFocus(self.node_name(node), self.path[:-1], self.node_name(parent),
                           parent.is_max, alpha, beta, by and move(by.move),
                           by and by.value, tuple(move(k.move) for k in kids if k.pruned))

    @property
    def focus_unseen(self) -> bool:
        """A replay opened at a node below the root, at a step before the search has done
        anything there: the picture has nothing of it yet to draw (nor of what is below it).
        The root's own picture before the first step is its empty frame, under the stepper's
        "Before the search"."""
        return bool(self.path) and node_at(self.result.tree, self.path).id not in self.shown

    @property
    def labels_left(self) -> bool:
        """Whether the picture writes in each node what the game counts there
        (``counts_in_nodes``)."""
        return counts_in_nodes(self.g)

    def node_name(self, node, counted: bool = True) -> str:
        """A node named as the picture draws it (``web.notation.node_text``): max or min and
        the moves on its edges ("min (after 2, 3)", "max (root)"). With what the game counts
        there written in the circle (the course's notation): "min 2 (after 3)", that number
        first; otherwise it follows in the game's words (``Words.left``: "max (after 2, 3;
        3 left)"). ``counted=False`` leaves the count out (a tree drawn as a
        question shows none)."""
        return self.path_name(node.is_max, path_of(self.result.tree, node), counted)

    def path_name(self, is_max: bool, path, counted: bool = True) -> str:
        """The node at ``path`` (moves from the searched position) named as ``node_name``
        names it, for what knows the path and not the node (the exact outcomes' notes)."""
        return named(self.g, is_max, path, self.left_at(path) if counted else None)

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
        """Entering a node of a search with the table, in a game with keys of its own (its rules'
        ``key_step``): how its move changed the position's key (None otherwise)."""
        if (not self.g.rules.zobrist_keys or self.event[0] != "enter" or node.parent is None
                or self.g.settings.algorithm not in TABLE_ALGORITHMS):
            return None
        *before, move = path_of(self.result.tree, node)
        return self.g.rules.key_step(self.state_at(before), move)

    def zobrist_words(self, z) -> str:
        """The line of the key's change that names the move's own number (the game's words:
        its hook ``zobrist_words``)."""
        return self.g.spec.hook("zobrist_words")(self.g, z)

    def state_at(self, path):
        """The position at the node ``path`` (moves from the searched position)."""
        state = self.g.states[self.base]
        for move in path:
            state = self.g.rules.result(state, move)
        return state

    def key_text(self, key: int) -> str:
        """A table key as the page writes it: 64-bit keys (a game whose rules have a
        ``key_step``: Zobrist's) in hexadecimal, 16 digits in groups of 4; other games' small keys in
        decimal."""
        if self.g.rules.zobrist_keys:
            return key_text(key)
        return num(key) if isinstance(key, int) else str(key)

    def leaf_terms(self, node) -> str:
        """A leaf at the depth limit: the heuristic's terms there, from the root player's
        side ("windows of 1 stone 5 − 4 (×1), …"), or "" when the heuristic has none (its
        terms are named by the game's hook ``term_names``)."""
        heuristic = self.heuristic
        names = self.g.spec.hook("term_names")
        if not hasattr(heuristic, "terms") or names is None:
            return ""
        state, root_player = self._leaf(node)
        names = names()
        return ", ".join(f"{names[what]} {mine} − {theirs} (×{weight})"
                         for what, weight, mine, theirs in heuristic.terms(state, root_player))

    def _leaf(self, node):
        """The position at ``node``, and the root player (the side of the tree's values)."""
        root_player = self.g.rules.to_move(self.g.states[self.base])
        return self.state_at(path_of(self.result.tree, node)), root_player

    def inspect_url(self, node) -> str | None:
        """A leaf scored by the heuristic: the game's page that opens the heuristic up on its
        position (its hook ``inspect_url``), with this search's
        heuristic, from the root player's side, as the tree's values are; else None."""
        hook = self.g.spec.hook("inspect_url")
        if hook is None or self.heuristic is None:
            return None
        state, root_player = self._leaf(node)
        return hook(self.g.rules, state, self.heuristic, root_player)

    def left_at(self, path) -> int | None:
        """What the game counts at the node ``path`` (``GameSpec.left``: what
        the course writes in its nodes, seed 003); None for other games."""
        count = self.g.spec.left
        return None if count is None else count(self.state_at(path))

    def url(self, action="show", path=None, step=None, **more):
        extra = dict(more)
        path = self.path if path is None else path
        if path:
            extra["path"] = self.path_text(path)
        if step is not None:
            extra["step"] = step
        return self.g.url(action, **extra)

    def peek_url(self, path) -> str:
        """The small board of the position at ``path`` (for hover and focus), titled with
        the node's name (``root``: where the tree starts, for ``name_in_tree``); its players
        named as the page names them (``players``: a class's naming, or the link's), not
        the game's own way ("J1 to move" beside "Player 1", who is J0)."""
        s = self.g.settings
        names = s.player_names
        players = {} if names == s.spec.namings[0] else {"players": names}
        return url_for("play.peek", game=s.game, moves=self.position_moves(path), root=self.base,
                       **players, **{p.url: getattr(s, p.name) for p in s.spec.params})

    def position_moves(self, path) -> str:
        """The moves of the game up to the searched position, then along ``path``."""
        return self.g.rules.format_moves(self.g.moves[:self.base] + list(path))


def board_game(g: GameLink, panel) -> GameLink:
    """The game as its board shows it beside ``panel``: during a replay of the AI's last
    search (``TreePanel.replaying``), the position before that move, the move not yet played
    (nothing the search has not yet done, board included); else ``g`` itself."""
    if isinstance(panel, TreePanel) and panel.replaying:
        return replace(g, at=panel.base)
    return g


def page_url(g: GameLink, panel, **more) -> str:
    """The link of the game's page beside ``panel``: the tree's unfolded node and its step of
    a replay kept (the address bar's link; the link a class starts from, so a class started
    at a step shows that step and nothing of the search after it; projector mode turned on or
    off there stays at that step); else the game's own. ``more``: parameters changed."""
    return panel.url(step=panel.step, **more) if panel and not panel.too_large else g.url(**more)


def searched_position(g: GameLink):
    """Which search the panel shows: the one behind the AI's last move, or else the one the
    AI would make in the position shown. Returns (index in g.states, "last"|"next") or None."""
    if g.at > 0 and g.settings.ai_plays(g.rules.to_move(g.states[g.at - 1])):
        return g.at - 1, "last"
    if not g.over:
        return g.at, "next"
    return None


@dataclass(frozen=True)
class UndrawnSearch:
    """A search too large to draw (more than ``moves.TREE_MAX_NODES`` nodes: the expert level, a
    deep custom search): the panel says so in words, with its size, instead of nothing."""

    g: GameLink
    about: str
    result: SearchResult
    limit: int            # the drawing limit it passed (moves.TREE_MAX_NODES)
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

    g: GameLink
    about: str
    result: SearchResult
    too_large = True          # no tree drawn (the same branches as a search too large)
    solved = True

    @property
    def explored(self) -> int:
        return self.result.stats.nodes


def tree_panel(g: GameLink, args, result: SearchResult | None = None, *,
               replay_only: bool = False) -> TreePanel | UndrawnSearch | SolvedMove | None:
    """The panel for ``g``: ``result`` when the search was just made, else the search
    recomputed; folded around the ``path`` parameter, at the ``step`` parameter. Built here,
    on the caller's thread (``tree_panel_in_lane`` builds it off the loop). ``replay_only``:
    None, and nothing built, for a search that cannot be replayed step by step
    (``replayable``): what is built then is small (``SMALL_TREE_NODES``)."""
    found = searched_position(g)
    if found is None:
        return None
    searches = _searches(g, found[0], args, result)
    if replay_only and (searches[0].tree is None or not replayable(searches[0].tree)):
        return None
    return _built(g, found, args, *searches)


def tree_panel_in_lane(g: GameLink, args, result: SearchResult | None = None, *,
                       replay_only: bool = False, wait: float | None = None
                       ) -> TreePanel | UndrawnSearch | SolvedMove | None:
    """``tree_panel`` off the loop, for a view on the loop (a game's tree pages, a phone's
    replay step, the course's figures): its search admitted in its own lane here
    (``web.ai_move.searched``, which leaves the loop), then the panel built from it (the tree
    unfolded or its spine, its subtrees counted, a replay to the step: 10-30 ms for the largest)
    in the trees' lane off the loop (``web.admission.drawn_in_lane``: in the view's own slot
    when it holds one), waiting ``wait`` s at most for its slot. Busy when a lane is full.
    ``replay_only``: None, and nothing built, for a search that cannot be replayed step by
    step (``replayable``)."""
    from .admission import drawn_in_lane
    found = searched_position(g)
    if found is None:
        return None
    searches = _searches(g, found[0], args, result)
    tree = searches[0].tree
    if replay_only and (tree is None or not replayable(tree)):
        return None
    return drawn_in_lane(lambda: _built(g, found, args, *searches), wait=wait)


def replayable(tree) -> bool:
    """Whether the tree panel replays a recorded search step by step (``TreePanel.steppable``):
    drawn whole (a larger one is drawn as its spine, ``SMALL_TREE_NODES``), within
    ``STEP_MAX_EVENTS``."""
    return (tree.whole and len(tree.nodes) <= SMALL_TREE_NODES
            and len(tree.events) <= STEP_MAX_EVENTS)


def _path(g: GameLink, args) -> tuple:
    """The node the panel is folded around (the ``path`` parameter: moves from the root)."""
    try:
        return tuple(g.rules.parse_moves(args.get("path", "")))
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "path", field=label("path"), err=err) from None


def _searches(g: GameLink, base: int, args, result: SearchResult | None = None):
    """The searches the panel shows, each admitted in its lane: ``result`` (the move's own,
    when just made) or the same search again, and an iterative deepening's every depth.
    Returns (result, layers)."""
    if result is None:          # the same search as the move's: the same settings, to its depth
        result = searched(g.settings, g.rules, g.states[base], record=True,
                          depth=g.settings.tree_depth, focus=_path(g, args),
                          heavy=is_heavy(g.settings, record=True))
    layers = ()
    if result.algorithm == "iterative" and result.tree is not None:
        # every depth the AI's own search finished, though the panel may show an earlier one
        # (td=): that search is usually the move just made, kept in the recent searches
        layers = (result.iterations if not g.settings.tree_depth else searched(
            g.settings, g.rules, g.states[base], heavy=is_heavy(g.settings)).iterations)
    return result, layers


def _built(g: GameLink, found: tuple, args, result: SearchResult, layers
           ) -> TreePanel | UndrawnSearch | SolvedMove | None:
    """The panel of ``result``, the search made in ``found`` (its index, "last"|"next"):
    CPU work that grows with the tree, and no search."""
    base, about = found
    level = ai_level(g.settings)
    budget = (level.max_nodes, level.time_limit)      # the search of the AI's move
    path = _path(g, args)
    if result.tree is None and result.algorithm == PERFECT_ALGORITHM:
        return SolvedMove(g, about, result)
    if result.tree is None:     # too large to record, or not even depth 1 finished
        return (UndrawnSearch(g, about, result, moves.TREE_MAX_NODES, stop_of(result, *budget))
                if result.stats.nodes > moves.TREE_MAX_NODES else None)
    small = result.tree.whole and len(result.tree.nodes) <= SMALL_TREE_NODES
    sizes = subtree_sizes(result.tree)
    try:
        view = (unfold(result.tree, path, levels=99, sizes=sizes) if small
                else spine(result.tree, path, sizes))
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "path", field=label("path"), err=err) from None
    stop = stop_of(result, *budget)
    # The game says what the caption counts against (GameSpec.tree_size): its whole game tree,
    # as the course does for its small games, or, where that is astronomically large, the
    # tree minimax would visit to the same depth. A search cut short by its budget finished no
    # depth: its caption says so instead of counting against a depth-0 tree of 1 node.
    # An iterative deepening's caption counts every depth's nodes instead (_tree.html): the
    # count, which costs a few ms, is then not made.
    every_depth = result.algorithm == "iterative" and result.stats.nodes != result.tree.explored
    total = (None if stop or (every_depth and "step" not in args)
             else g.spec.tree_size(g.rules, g.states[base], result.stats.depth))
    panel = TreePanel(g, base, about, result, path, view, total, stop, spine=not small,
                      sizes=sizes, layers=layers)
    if "step" in args:
        # checked whatever the tree (a link's mistake is a 400); a large search has no steps
        # (ai.course.record.Focus), and its picture is shown whole instead
        step = read_int(args, "step", 0, 0, len(result.tree.events) if panel.steppable else 0)
        if panel.steppable:
            panel.go_to_step(step)
    return panel
