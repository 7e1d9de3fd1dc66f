"""Blueprint ``inspector``: ``/connect4/heuristic``, the heuristics opened up on a position.

The position is in the link as in the editor (``board=12-2--1---``, ``w``, ``h``). The page
gives each Connect-4 heuristic's value there and opens up the one chosen (``heur``): seed
000's cell values drawn on Figure VIII.2's grid with the sum as the course writes it, seed
004's adjusted heuristic stone by stone and direction by direction with its ``alpha``, or
the threats heuristic's windows. Values are from J0's side (yellow, the maximiser), as the
course counts them, unless ``side=1`` asks for red's (a tree whose root player is red links so).
The numbers come from ``ai.heuristics`` and ``ai.games.connect4.position``; the template draws them.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, request, url_for

from ai.games.connect4.rules import Connect4
from ai.heuristics import make_heuristic
from ai.games.connect4.heuristic import HEURISTICS as CONNECT4_HEURISTICS, AdjustedCells
from ai.messages import GameError
from ai.games.connect4.position import cell_value_terms, format_columns, parse_columns, state_of

from ..htmx import render
from ..i18n import tr
from ..params import BadRequest, read_choice, read_decimal, read_int

bp = Blueprint("inspector", __name__)
SIDES = ("0", "1")          # side=: J0 (yellow), J1 (red)


@bp.app_template_global()
def inspect_url(columns, width: int = 7, height: int = 6, heur: str = "cells",
                alpha: float = AdjustedCells.DEFAULT_ALPHA, side: int = 0) -> str:
    """The inspector's link for a position given column by column (``ai.games.connect4.position``): the
    heuristic opened up, seed 004's α, whose side; what is the default is left out."""
    args = {"w": width, "h": height, "heur": heur, "alpha": alpha, "side": side}
    defaults = {"w": 7, "h": 6, "heur": "cells", "alpha": AdjustedCells.DEFAULT_ALPHA, "side": 0}
    return url_for("inspector.inspect", board=format_columns(columns),
                   **{k: v for k, v in args.items() if v != defaults[k]})


@dataclass
class Inspection:
    """A position and what each heuristic makes of it, from ``side``'s side."""

    game: Connect4
    columns: list
    side: int                 # 0: J0, yellow (the course's side); 1: J1, red
    chosen: str               # the heuristic opened up
    alpha: float

    def __post_init__(self):
        self.state = state_of(self.game, self.columns)
        self.heuristics = {name: make_heuristic(self.game, name, alpha=self.alpha)
                           for name in CONNECT4_HEURISTICS}
        self.values = {name: h(self.state, self.side) for name, h in self.heuristics.items()}
        terms = cell_value_terms(self.game, self.columns)
        # the course's sum, from the chosen side: that side's cells first
        mine, theirs = (terms["j0"], terms["j1"]) if self.side == 0 else (terms["j1"], terms["j0"])
        self.cells = dict(mine=mine, theirs=theirs, total=sum(mine) - sum(theirs),
                          grid=terms["grid"])
        self.stones = self.heuristics["adjusted"].stones(self.state, self.side)
        # the stones' values added up: each side's sum, and the difference (the value)
        self.adjusted_mine, self.adjusted_theirs = (
            round(sum(s["value"] for s in self.stones if s["sign"] == sign), 6) for sign in (1, -1))
        self.adjusted_total = round(sum(s["sign"] * s["value"] for s in self.stones), 6)
        self.windows = self.heuristics["threats"].terms(self.state, self.side)
        self.threats_total = sum(w * (m - t) for _, w, m, t in self.windows)

    @property
    def to_move(self) -> int:
        return self.game.to_move(self.state)

    def url(self, **changed) -> str:
        """This page with ``changed`` settings (heur, alpha, side)."""
        args = {"heur": self.chosen, "alpha": self.alpha, "side": self.side, **changed}
        return inspect_url(self.columns, self.game.width, self.game.height, **args)


@bp.get("/connect4/heuristic")
def inspect():
    """The heuristics on the position of the link (a 400 with the reason for a wrong one)."""
    args = request.args
    try:
        game = Connect4(read_int(args, "w", 7, 4, 9), read_int(args, "h", 6, 4, 9))
        columns = parse_columns(args.get("board", ""), game)
        found = Inspection(game, columns, int(read_choice(args, "side", "0", SIDES)),
                           read_choice(args, "heur", "cells", tuple(CONNECT4_HEURISTICS)),
                           read_decimal(args, "alpha", AdjustedCells.DEFAULT_ALPHA, 0, 10))
    except (BadRequest, GameError) as err:
        return render("games/connect4/inspector.html", block="inspector", status=400, error=tr(err), i=None)
    return render("games/connect4/inspector.html", block="inspector", error=None, i=found,
                  edit_url=url_for("editor.edit", board=args.get("board", ""),
                                   **{k: args[k] for k in ("w", "h") if k in args}))
