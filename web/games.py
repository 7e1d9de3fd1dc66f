"""The table of games: what the web layer needs to know about each game, in one place.

Each game declares its rules class and the URL parameters that build it, the parameter that
carries a person's move, the move orders that mean something for it, its page template and
how to count its whole tree for the tree panel's caption. The blueprints loop over this table:
adding a game means one rules module in ``ai/``, one entry here and its template (or the
generic ``game.html``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from flask_babel import lazy_gettext as _l

from ai.games.connect4.rules import Connect4
from ai.games.nim.rules import Nim
from ai.games.nim.tree import nim_tree_size
from ai.teach.tree_view import full_tree_size


@dataclass(frozen=True)
class Param:
    """One URL parameter: its name in the link, the keyword it fills, how the page labels it,
    and what it accepts (a whole number from ``lo`` to ``hi``, or one of ``choices``)."""

    url: str
    name: str
    label: object
    default: object
    lo: int | None = None
    hi: int | None = None
    choices: tuple = ()


ORDER_LABELS = {"center": _l("centre first"), "natural": _l("natural: 1, 2, 3…"),
                "reverse": _l("reverse: …3, 2, 1")}


@dataclass(frozen=True)
class GameSpec:
    name: str                        # the link's first segment: /connect4
    title: object                    # as the page names it
    rules: Callable                  # builds the rules from its parameters: Connect4(width=7, ...)
    params: tuple[Param, ...]        # the rules' own URL parameters
    move_param: str                  # the parameter of a person's move: /connect4/move?col=4
    template: str = "game.html"      # the page; its "game" and "tree" blocks are the fragments
    orders: tuple[str, ...] = ("natural", "reverse")   # move orders that mean something here
    compare_depth: int = 8           # the comparison page's default depth (minimax must fit)
    # nodes of the whole tree from ``state`` to ``depth``: the "M" of "explored N of M"
    tree_size: Callable = field(default=lambda rules, state, depth: full_tree_size(rules, state, depth))
    new_game_label: object = _l("New game with other rules")

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)


def _nim_tree_size(rules, state, depth):
    # Nim counts against the whole game tree, as seed 003 does ("9 sommets sur 28").
    return nim_tree_size(state.remaining, rules.k)


CONNECT4 = GameSpec(
    "connect4", _l("Connect-4"), Connect4,
    (Param("w", "width", _l("Columns"), 7, 4, 9), Param("h", "height", _l("Rows"), 6, 4, 9)),
    "col", "connect4.html", orders=("center", "natural", "reverse"),
    # depth 5 is about 20,000 minimax nodes: the comparison stays within its time budget
    compare_depth=5, new_game_label=_l("New game with another board"),
    tree_size=lambda rules, state, depth: rules.tree_size(state, depth))

NIM = GameSpec(
    "nim", _l("Nim"), Nim,
    (Param("n", "n", _l("Matches"), 21, 1, 99), Param("k", "k", _l("Take at most"), 3, 1, 9),
     Param("variant", "variant", _l("Variant"), "normal", choices=("normal", "misere"))),
    "take", "nim.html", tree_size=_nim_tree_size)

GAMES = {spec.name: spec for spec in (CONNECT4, NIM)}
