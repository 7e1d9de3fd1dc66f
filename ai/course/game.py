"""The one game protocol: ``Game``, the base class of every game of ``ai/games/`` and of the
exercise trees.

The names are AIMA's (``games4e.py``'s ``Game``): a game is an object with ``initial_state``,
``to_move``, ``actions``, ``result``, ``is_terminal`` and ``utility``, and, since people type
and read moves, ``parse_move``/``format_move`` (one move) and ``parse_moves``/``format_moves``
(a game as its links write it). Those are abstract: a game must define them, and a rules class
that misses one cannot be built, nor entered in the web's games table (``web.games`` says
which game lacks which method, at start-up).

Everything else shared code may ask a game is a hook defined here, once, with its default and
what it means, so that shared code calls methods and never asks whether a game has one, and
adding a game touches only its own folder and one entry of the web's games table. A hook
whose default is ``None`` means "the game has nothing of its own here": the caller then does
the generic thing (alpha-beta to the end, the memoized solve, the natural order...). Where a
caller must know beforehand whether a game gives its own answer, a property says so
(``solves_within``, ``scores_exactly``, ``zobrist_keys``).

States are immutable and hashable, so they can key caches and tables, and a search can
never damage the position it was given.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from types import MappingProxyType
from typing import Hashable, Iterable, Mapping, Sequence

from ai.messages import GameError

from .scores import MAX_SCORE

PLAYERS = (0, 1)

TREE_SIZE_LIMIT = 25_000      # ``tree_size`` stops counting past this many nodes


class Game(ABC):
    """A two-player game of perfect information, as the course's algorithms see it.

    Subclass it, define the abstract methods, and override the hooks the game has something
    of its own for."""

    # -- required: what every game defines --------------------------------------------------

    @property
    @abstractmethod
    def name(self) -> str:
        """The game's name, as the command line and the links write it (a class attribute:
        ``name = "race"``)."""

    @abstractmethod
    def initial_state(self) -> Hashable:
        """The position the game starts from."""

    @abstractmethod
    def to_move(self, state) -> int:
        """The player to move: 0 (J0, who starts) or 1 (J1)."""

    @abstractmethod
    def actions(self, state) -> Sequence:
        """The legal moves, in the game's natural order (none on a terminal state)."""

    @abstractmethod
    def result(self, state, move) -> Hashable:
        """The state after ``move``; raises ``ValueError`` (``ai.messages.GameError``) on an
        illegal move."""

    @abstractmethod
    def is_terminal(self, state) -> bool:
        """True when the game is over."""

    @abstractmethod
    def utility(self, state, player: int):
        """On a terminal state: +1 if ``player`` won, -1 if they lost, 0 for a draw (an
        exercise tree: its leaf's value, see ``leaf_scores``)."""

    @abstractmethod
    def parse_move(self, text: str):
        """One move as people write it -> the move; ``ValueError`` on bad text (the syntax
        only: ``result`` says whether it is legal)."""

    @abstractmethod
    def format_move(self, move) -> str:
        """One move as people read it: the inverse of ``parse_move``."""

    @abstractmethod
    def parse_moves(self, text: str) -> list:
        """A game's moves as its links and the command line's ``--moves`` write them
        (``"4453"``) -> the moves; ``ValueError`` on bad text. Short: it is in every link."""

    @abstractmethod
    def format_moves(self, moves) -> str:
        """The inverse of ``parse_moves``."""

    # -- positions ----------------------------------------------------------------------------

    def key(self, state) -> Hashable:
        """What identifies the position in a transposition table. Default: the state itself
        (states are hashable, and two different ones never share it). A game may keep an
        int, e.g. an incrementally updated Zobrist hash (then see ``key_step``)."""
        return state

    def winner(self, state) -> int | None:
        """The player who won, on a terminal state; None while the game goes on and on a
        draw. Default: from ``utility``."""
        if not self.is_terminal(state):
            return None
        u = self.utility(state, 0)
        return 0 if u > 0 else 1 if u < 0 else None

    def render(self, state) -> str:
        """The position as text (AIMA's ``display``): the command line and the generic page
        show it. Default: the state's own text."""
        return str(state)

    def plies_left(self, state) -> int | None:
        """An upper bound on the plies the game can still last from ``state`` (iterative
        deepening stops there: ``ai.course.search``), or None when the game knows none."""
        return None

    def tree_size(self, state, depth: int | None = None,
                  limit: int = TREE_SIZE_LIMIT) -> int | None:
        """Nodes minimax visits from ``state`` to ``depth`` plies (None: to the end), root
        included: the "M" of the tree panel's "explored N of M". None when the count would
        pass ``limit``. A game may count faster, or count its whole game tree whatever the
        depth, as seed 003 counts against it ("9 sommets sur 28").

        Default: counted level by level, each position once with the number of move orders
        that reach it: a transposition has the same subtree wherever it is met (states
        compare equal exactly then), so the work is the distinct positions, not the tree's
        nodes (a 7x6 depth-6 tree of 137,000 nodes holds about 2,000 of them)."""
        count, level, d = 1, {state: 1}, 0
        while level and (depth is None or d < depth):
            below: dict = {}
            for s, ways in level.items():
                if self.is_terminal(s):
                    continue
                moves = self.actions(s)
                count += ways * len(moves)
                if count > limit:           # stop as soon as the count is known to be too big
                    return None
                for m in moves:
                    child = self.result(s, m)
                    below[child] = below.get(child, 0) + ways
            level, d = below, d + 1
        return count

    def move_json(self, move):
        """A move as the command line's JSON writes it: as people write it
        (``format_move``), a number when that is one; None stays None."""
        if move is None:
            return None
        text = self.format_move(move)
        return int(text) if text.isascii() and text.isdigit() else text

    # -- the search (ai.course.search, ai.engine, ai.heuristics, ai.levels) ---------------------

    heuristics: Mapping = MappingProxyType({})
    """Name -> heuristic class (``h(state, player)``), the first the default
    (``ai.heuristics.make_heuristic``); none: the game is searched to its end, or its leaves
    score themselves (``leaf_scores``)."""

    level_heuristics: Mapping = MappingProxyType({})
    """Level name -> the heuristic's name that level uses (``ai.levels``); a level not
    listed uses the default."""

    center_order: Sequence | None = None
    """The moves, best first (the centre of a board first), for the "center" move order;
    None: the game has no centre, and "center" is the natural order."""

    leaf_scores: bool = False
    """True when ``utility`` gives a score to use as it is (an exercise tree's leaf),
    rather than a win, draw or loss to scale by the ply (``ai.course.scores``)."""

    max_score: float = MAX_SCORE
    """The course's maxScore: the window [-maxScore, +maxScore] holds every value."""

    def weighted_heuristic(self, text: str):
        """The heuristic written as weights of the game's named terms (``"cells=1,open3=8"``),
        made by ``ai.heuristics.make_heuristic`` for a name with ``=`` in it; a ValueError
        saying what is wrong with the text, or that the game has no such terms (default)."""
        raise GameError("the game has no weighted terms: %(text)s is not one of its "
                        "heuristics", text=repr(text))

    def weights_text(self, text: str) -> str:
        """``text``, weights of the game's named terms, in their one written form (what a
        tournament's entrants and links write: the same weights, the same text); a
        ValueError as ``weighted_heuristic``'s."""
        raise GameError("the game has no weighted terms: %(text)s is not one of its "
                        "heuristics", text=repr(text))

    def fast_alphabeta(self, **options):
        """The game's own fast alpha-beta for these search options, or None: it must give
        the course's values (``ai.engine``, ``--fast``)."""
        return None

    def fast_run(self, algorithm: str, state, depth, options: dict):
        """The search ``ai.engine.search(algorithm, self, state, depth, fast=True,
        **options)`` gives without a tree, run by the game in one go where it can (a compiled
        search, without the engine's layers: the same ``SearchResult``), or None (default):
        the engine then runs it its usual way."""
        return None

    # -- tournaments (ai.teach.tournament) ------------------------------------------------------

    def tournament_openings(self, k: int) -> list[dict] | None:
        """The first ``k`` openings a tournament's games start from, balanced by the game's
        exact play (draws first): each ``{"moves": as the links write them, "score": the
        exact score for the side to move}``, the same list on every machine; a ValueError
        for a ``k`` the game has not that many of. None (default): the game holds no
        tournaments."""
        return None

    @property
    def holds_tournaments(self) -> bool:
        """Whether the game gives tournament openings of its own (``tournament_openings``)."""
        return type(self).tournament_openings is not Game.tournament_openings

    def tournament_player(self, heuristic: str, depth: int, max_nodes: int | None):
        """A tournament's heuristic entrant (``heuristic``: ``weights_text``'s form): a
        function ``state -> SearchResult`` giving exactly the move of the app's custom level
        with that heuristic and depth (the course's alpha-beta, centre first, the first of
        equal moves), by a faster search of the game's own; a ValueError for a depth it
        will not search. None (default): the tournament plays that level itself."""
        return None

    # -- perfect play and the levels (ai.perfect, ai.levels, web.ai_move) -------------------------

    def exact_play(self, state, *, time_limit=None, max_nodes=None, fallback=None):
        """The perfect move, a ``SearchResult`` (an exact solver, a theory), the ``fallback``
        level's move if the budget runs out first; None: the game has none of its own, and
        ``ai.perfect`` searches alpha-beta to the end."""
        return None

    def exact_within(self, state, max_nodes: int):
        """The exact move, a ``SearchResult``, if proven within ``max_nodes`` nodes (from an
        empty table, without a clock), else None: the hard and expert levels ask it first
        (``ai.levels``). Default None."""
        return None

    @property
    def solves_within(self) -> bool:
        """Whether ``exact_within`` is the game's own (an exact solver the levels try
        first): the level menu says so."""
        return type(self).exact_within is not Game.exact_within

    def level_reply(self, level, state):
        """``level``'s stored reply in ``state`` (an ``ai.levels.Level``; a book of first
        replies), a ``SearchResult`` as that level's search would give, or None
        (``web.ai_move``)."""
        return None

    # -- the transposition table, step by step (web.tree_panel) -----------------------------------

    def key_step(self, state, move):
        """How ``move`` changes the position's Zobrist key (the step-by-step table shows it),
        or None for a game without Zobrist keys."""
        return None

    @property
    def zobrist_keys(self) -> bool:
        """Whether ``key`` is a 64-bit Zobrist key (written in hexadecimal), which
        ``key_step`` explains: the game gives its own ``key_step``."""
        return type(self).key_step is not Game.key_step

    # -- the exact review (ai.teach.review, web.review) -------------------------------------------

    def exact_score(self, state, *, time_limit=None, max_nodes=None, at_least=None,
                    need_move=True):
        """``(score, best move, nodes)``: the exact score of ``state`` for the side to move on
        a negamax-exact scale (positive: a win), and a best move (may be None with
        ``need_move=False``); ``at_least``: a lower bound known already. None when the
        budget runs out. Read only when ``scores_exactly``: otherwise the review solves the
        whole tree itself (a memoized search: small games)."""
        return None

    @property
    def scores_exactly(self) -> bool:
        """Whether ``exact_score`` is the game's own (an exact solver, a theory)."""
        return type(self).exact_score is not Game.exact_score

    def score_outcome(self, state, score):
        """A score of ``exact_score`` in words: ``("win", k)``/``("loss", k)`` (k moves from
        now, None if the scale does not count them) or ``("draw", None)``; None: the
        review's own words (the game has no ``exact_score``)."""
        return None

    def review_why(self, state, move, kept, line, before_words, after_words, cls):
        """Why ``move`` in ``state`` lost something, a list of ``(template, values)``, or
        None for the review's generic sentence."""
        return None

    def review_drawing(self, state, move, line, max_line=None):
        """The erring ``move`` and its refutation ``line`` as the game's picture draws them
        (its template's data), or None: the page lists the moves."""
        return None

    # -- once per installation (scripts/setup) ----------------------------------------------------

    preparing: str = ""
    """What ``prepare`` does, said before it runs; empty: nothing to prepare."""

    @classmethod
    def prepare(cls) -> float:
        """The game's one-time preparation (compiling a solver), so that no first request pays
        for it; returns the seconds it took (``ai.games.prepare``)."""
        return 0.0


def missing_methods(cls: type[Game]) -> list[str]:
    """The required methods a subclass of ``Game`` leaves undefined (empty: none): it cannot
    be built until it defines them."""
    return sorted(cls.__abstractmethods__)


def play(game: Game, moves: Iterable, state=None):
    """Apply ``moves`` one after the other from ``state`` (default: the start).

    Raises ``ValueError`` naming the first illegal move and its position in the list.
    """
    state = game.initial_state() if state is None else state
    for i, move in enumerate(moves, 1):
        try:
            state = game.result(state, move)
        except ValueError as err:
            raise ValueError(f"move {i} ({game.format_move(move)}): {err}") from None
    return state
