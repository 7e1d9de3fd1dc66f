"""The table of games: what the web layer needs to know about each game, in one place.

Each game declares its rules class and the URL parameters that build it, the parameter that
carries a person's move, the move orders that mean something for it, its templates (its page,
its board's macros), how the pages speak of its moves (``Words``), its home card, how its
players are named, how to count its whole tree for the tree panel's caption, and the package
of its own pages, hooks and words (``web.connect4``, ``web.nim``). Every shared module,
template and script reads this table and names no game: adding a game means its rules in
``ai/games/``, one entry here and, if it wants more than the generic page, its folder
``templates/games/<name>/``.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from ai.course.game import Game, missing_methods
from ai.games.connect4.rules import Connect4
from ai.games.marienbad import Marienbad
from ai.games.marienbad.grundy import nim_sum
from ai.games.marienbad.rules import heaps_text
from ai.games.nim.rules import Nim
from ai.games.tictactoe import TicTacToe


@dataclass(frozen=True)
class Param:
    """One URL parameter: its name in the link, the keyword it fills, how the page labels it,
    and what it accepts (a whole number from ``lo`` to ``hi``, one of ``choices``, which the
    page's menu names by ``choice_labels``, else as they are written, or what its own reader
    ``read`` accepts)."""

    url: str
    name: str
    label: object
    default: object
    lo: int | None = None
    hi: int | None = None
    choices: tuple = ()
    # a value that is neither a number nor a choice (a list, "1,3,5,7"): text -> the value,
    # its ``str`` written back in links; a ValueError (a GameError, translated) when wrong
    read: Callable[[str], object] | None = None
    choice_labels: tuple = ()


ORDER_LABELS = {"center": _l("centre first"), "natural": _l("natural: 1, 2, 3…"),
                "reverse": _l("reverse: …3, 2, 1")}


@dataclass(frozen=True)
class Words:
    """How the pages speak of a game's moves, each a function called as a page is drawn (so in
    its language; a count chooses the plural, ``ngettext``). The defaults fit any game whose
    moves are written as numbers or short names ("move 2")."""

    # a move in words: "column 4", "2 matches" (the vote's buttons, its chart, the reveal)
    move: Callable[[str], str] = lambda m: gettext("move %(move)s", move=m)
    # read out after the AI's move: "AI plays column 4;", "AI takes 2;"
    ai_played: Callable[[str], str] = lambda m: gettext("AI plays %(move)s;", move=m)
    # under a class's vote buttons
    vote: Callable[[], str] = lambda: gettext("Choose a move. One vote per round.")
    # the number keys, in the keyboard help: "drop a disc in that column"
    keys: Callable[[], str] = lambda: gettext("play the move of that number")
    # what ``GameSpec.left`` counts at a node, in words, for the node's name in the plies'
    # notation (``web.notation.node_text`` writes it in the name's brackets, after the
    # moves: "max (root; 5 matches left)")
    left: Callable[[int], str] = lambda n: ngettext("%(n)s left", "%(n)s left", n, n=n)
    # the legend of the course's estimate at the depth limit, when the search used it
    estimate: Callable[[str], str] | None = None


class GameTableError(TypeError):
    """An entry of the games table whose rules are not a whole game: raised as the entry is
    made (at start-up), naming the game and what it lacks, rather than a 500 on its page."""


def check_rules(name: str, rules, params=()) -> None:
    """Raise ``GameTableError`` unless ``rules`` (a class, or a ``functools.partial`` or
    function that builds the rules from ``params``) make a subclass of ``ai.course.game.Game``
    that defines every required method."""
    cls = rules.func if isinstance(rules, functools.partial) else rules
    if not isinstance(cls, type):
        try:
            cls = type(rules(**{p.name: p.default for p in params}))
        except TypeError as err:
            raise GameTableError(f"game {name!r}: its rules cannot be built: {err}") from None
    if not issubclass(cls, Game):
        raise GameTableError(f"game {name!r}: its rules {cls.__name__} do not subclass "
                             f"ai.course.game.Game")
    missing = missing_methods(cls)
    if missing:
        raise GameTableError(f"game {name!r}: its rules {cls.__name__} lack "
                             f"{', '.join(missing)}, which every game defines "
                             f"(ai.course.game.Game)")


def _tree_size(rules, state, depth):
    """The nodes of the whole tree to ``depth``: its rules' ``tree_size`` (Nim counts its
    whole game tree, as seed 003 does; the default counts minimax's, position by position)."""
    return rules.tree_size(state, depth)


@dataclass(frozen=True)
class GameSpec:
    name: str                        # the link's first segment: /connect4
    title: object                    # as the nav and the page's title name it
    rules: Callable                  # builds the rules from its parameters: Connect4(width=7, ...)
    params: tuple[Param, ...]        # the rules' own URL parameters
    move_param: str                  # the parameter of a person's move: /connect4/move?col=4
    template: str = "game.html"      # the page (a game's own extends game.html: its "position")
    boards: str = "_boards.html"     # its board's macros: board(g), class_board(g), peek(g),
    #                                  handout(g, state, y), card() (_boards.html: the generic ones)
    heading: object = None           # the page's heading (default: the title)
    card_title: object = None        # the home page's card (default: the title)
    card_text: object = ""
    words: Words = Words()
    namings: tuple = ("j", "numbers")   # how its players may be named, its default first
    class_naming: str = "numbers"    # how the class pages name them (students know no J0/J1)
    orders: tuple[str, ...] = ("natural", "reverse")   # move orders that mean something here
    compare_depth: int = 8           # the comparison page's default depth (minimax must fit)
    # nodes of the whole tree from ``state`` to ``depth``: the "M" of "explored N of M"
    tree_size: Callable = _tree_size
    # its rules' ``tree_size(state)`` counts the whole game tree from a state, with no depth
    # (the comparison page's "more than 250,000"); Connect-4's cannot
    counts_whole_tree: bool = False
    # what the course writes in a node besides its value (Nim: the matches left), or None
    left: Callable | None = None
    new_game_label: object = _l("New game with other rules")
    tree_notes: str = ""             # a template the tree panel includes under its caption
    stylesheet: str = ""             # its own styles, under static/ (every page links them)
    web: str = ""                    # the package of its own pages and hooks (web.connect4)

    def __post_init__(self):
        check_rules(self.name, self.rules, self.params)     # a game lacking a method: now

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    @property
    def page_heading(self):
        return self.heading or self.title

    @property
    def card_name(self):
        return self.card_title or self.title

    @property
    def catalogue(self) -> Path | None:
        """The folder of the game's own words: ``translations/`` in its web package (its French
        in ``fr/LC_MESSAGES/messages.po``), read beside the shared one (``web.i18n``;
        ``scripts/translations`` writes it). None without a web package (a folder)."""
        found = importlib.util.find_spec(self.web) if self.web else None
        if found is None or not found.submodule_search_locations:
            return None
        return Path(found.submodule_search_locations[0]) / "translations"

    def hook(self, name: str):
        """The game's own function ``name`` from its web package (``web``), or None: what
        the shared pages ask a game for (``page_context``, ``exact_run``, ``prepare``,
        ``zobrist_words``, ``term_names``, ``inspect_url``, ``last_cell``, ``init_app``,
        ``class_activity``; a game's own templates ask for their own, e.g. Connect-4's
        ``board_rows``)."""
        if not self.web:
            return None
        return getattr(importlib.import_module(self.web), name, None)


CONNECT4 = GameSpec(
    "connect4", _l("Connect-4"), Connect4,
    (Param("w", "width", _l("Columns"), 7, 4, 9), Param("h", "height", _l("Rows"), 6, 4, 9)),
    "col", "games/connect4/page.html", "games/connect4/boards.html",
    card_text=_l("Drop discs, line up four. The AI searches with alpha-beta and a "
                 "transposition table."),
    words=Words(move=lambda m: gettext("column %(c)s", c=m),
                ai_played=lambda m: gettext("AI plays column %(move)s;", move=m),
                vote=lambda: gettext("Choose a column. One vote per round."),
                keys=lambda: gettext("drop a disc in that column")),
    namings=("colours", "j", "numbers"), class_naming="colours",
    orders=("center", "natural", "reverse"),
    # depth 5 is about 20,000 minimax nodes: the comparison stays within its time budget
    compare_depth=5, new_game_label=_l("New game with another board"),
    tree_notes="games/connect4/truth.html", stylesheet="games/connect4.css", web="web.connect4")

NIM = GameSpec(
    "nim", _l("Nim"), Nim,
    (Param("n", "n", _l("Matches"), 21, 1, 99), Param("k", "k", _l("Take at most"), 3, 1, 9),
     Param("variant", "variant", _l("Variant"), "normal", choices=("normal", "misere"),
           choice_labels=(_l("normal: who takes the last match wins"),
                          _l("misère: who takes the last match loses")))),
    "take", "games/nim/page.html", "games/nim/boards.html",
    heading=_l("Nim: the matches game"), card_title=_l("Nim (the matches game)"),
    card_text=_l("Take 1 to 3 matches; who takes the last one wins (or loses, in the misère "
                 "variant)."),
    words=Words(move=lambda m: ngettext("%(num)s match", "%(num)s matches", int(m)),
                ai_played=lambda m: gettext("AI takes %(move)s;", move=m),
                vote=lambda: gettext("Choose how many matches to take. One vote per round."),
                keys=lambda: gettext("take that many matches"),
                left=lambda n: ngettext("%(num)s match left", "%(num)s matches left", n),
                estimate=lambda h: gettext(
                    "M − r/n: the course's estimate at the depth limit, r matches left of n; "
                    "below every won position (the app counts it from %(h)s)", h=h)),
    counts_whole_tree=True,
    left=lambda state: state.remaining, stylesheet="games/nim.css", web="web.nim")

TICTACTOE = GameSpec(
    "tictactoe", _l("Tic-tac-toe"), TicTacToe, (), "cell", "games/tictactoe/page.html",
    "games/tictactoe/boards.html",
    card_title=_l("Tic-tac-toe (le morpion)"),
    card_text=_l("Three in a row on a 3x3 grid: the classic first minimax. Its whole tree, "
                 "549,946 nodes, is small enough to search to the end."),
    words=Words(move=lambda m: gettext("cell %(n)s", n=m),
                ai_played=lambda m: gettext("AI plays cell %(n)s;", n=m),
                vote=lambda: gettext("Choose a cell. One vote per round."),
                keys=lambda: gettext("play in that cell (1 top left … 9 bottom right)")),
    namings=("marks", "j", "numbers"), class_naming="marks",
    orders=("center", "natural", "reverse"),
    # depth 5 from the empty board is 18,730 minimax nodes; the whole tree (549,946) is the
    # course card's figure, counted, not searched on a click
    compare_depth=5,
    counts_whole_tree=True,
    tree_notes="games/tictactoe/truth.html", stylesheet="games/tictactoe.css",
    web="web.tictactoe")

MARIENBAD = GameSpec(
    "marienbad", _l("Marienbad"), Marienbad,
    (Param("heaps", "heaps", _l("Heaps"), "1,3,5,7", read=heaps_text),
     Param("variant", "variant", _l("Variant"), "normal", choices=("normal", "misere"),
           choice_labels=(_l("normal: who takes the last match wins"),
                          _l("misère: who takes the last match loses")))),
    "take", "games/marienbad/page.html", "games/marienbad/boards.html",
    heading=_l("Marienbad: the game of the film"),
    card_text=_l("Heaps of 1, 3, 5 and 7 matches: take as many as you like from one heap. "
                 "The film's game, where who takes the last match loses; its theory, the "
                 "nim-sum, in binary."),
    # a move is written b3: heap B, 3 matches
    words=Words(move=lambda m: ngettext("%(num)s match from heap %(heap)s",
                                        "%(num)s matches from heap %(heap)s", int(m[1:]),
                                        heap=m[0].upper()),
                ai_played=lambda m: ngettext("AI takes %(num)s match from heap %(heap)s;",
                                             "AI takes %(num)s matches from heap %(heap)s;",
                                             int(m[1:]), heap=m[0].upper()),
                vote=lambda: gettext("Choose a heap and how many matches to take. One vote "
                                     "per round."),
                keys=lambda: gettext("nothing here: click a match to take it and those to "
                                     "its right"),
                # the nim-sums are shown on demand only, in the nodes (the tree's notes)
                left=lambda n: "",
                estimate=lambda h: gettext(
                    "M − r/n: the course's estimate at the depth limit, r matches left of n; "
                    "below every won position (the app counts it from %(h)s)", h=h)),
    compare_depth=4,     # 19,677 minimax nodes from 1, 3, 5, 7
    counts_whole_tree=True, left=lambda state: nim_sum(state.heaps),
    tree_notes="games/marienbad/tree_notes.html", stylesheet="games/marienbad.css",
    web="web.marienbad")

GAMES = {spec.name: spec for spec in (CONNECT4, NIM, TICTACTOE, MARIENBAD)}
