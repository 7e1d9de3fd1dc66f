"""The exercise lab's side of the URL: the typed tree and its settings, the student's answer,
and the panel that draws the solved tree with the same SVG macro as the game's tree panel."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from flask import url_for
from flask_babel import lazy_gettext as _l

from ai.exercise import Solved, name as node_name, solve as solve_tree
from ai.exercise_tree import ExerciseTree, format_tree
from ai.tree_view import at_step, counts_at, finished_search, question, unfold

from .params import WINDOWS, BadRequest, read_choice

LAB_EXAMPLES = [
    (_l("AIMA Figure 5.2"), "[[3,12,8],[2,4,6],[14,5,2]]"),
    (_l("Deeper, with cut-offs at two levels"), "[[[3,17],[2,12]],[[15],[25,0]],[[2,5],[3]],[[2,14]]]"),
    (_l("Four levels (Wikipedia's alpha-beta figure)"),
     "[[[[5,6],[7,4,5]],[[3]]],[[[6],[6,9]],[[7]]],[[[5]],[[9,8],[6]]]]"),
]
LAB_PARAMS = ("t", "algo", "root", "window", "order", "mode")
MAX_TEXT = 4000
MAX_NODES = 400


@dataclass(frozen=True)
class LabSettings:
    """The ``game`` and ``settings`` a tree panel reads, for a typed tree."""

    rules: ExerciseTree
    game: str = "lab"
    projector: bool = False

    @property
    def settings(self):
        return self


@dataclass
class LabPanel:
    """The lab's tree for the SVG macro (the same one as the game's tree panel): the solved
    tree whole, the search replayed to ``step``, or (``exercise``) the question alone, with
    nothing of the answer in the page."""

    solved: Solved
    args: dict
    step: int | None = None
    exercise: bool = False
    path: tuple = ()
    g: LabSettings = field(init=False)

    def __post_init__(self):
        self.g = LabSettings(self.solved.game)
        self.result = self.solved.result
        self.event = None
        if self.exercise:
            self.step = None        # replaying the search would show the answer
        tree = self.solved.result.tree if self.step is not None else self.solved.full
        self.view = unfold(tree, (), levels=99)
        if self.exercise:
            self.shown = question(self.view)
        elif self.step is not None:
            self.shown, self.event = at_step(tree, self.view, self.step)
        else:
            self.shown = finished_search(self.view)

    @property
    def explored(self) -> int:
        """Nodes explored: by the whole search, or so far at the step."""
        if self.step is None:
            return self.solved.explored
        return counts_at(self.solved.result.tree, self.step)["explored"]

    @property
    def outcome_known(self) -> bool:
        """Whether the root's value may be shown: not before a replay reaches its end."""
        return self.step is None or self.step == len(self.solved.result.tree.events)

    def path_text(self, path) -> str:
        return node_name(path) if path else ""

    def url(self, action=None, path=None, step=None, **extra) -> str:
        params = {k: v for k, v in self.args.items() if k in LAB_PARAMS}
        if step is not None:
            params["step"] = step
        params.update(extra)
        return url_for("lab.lab", **params)


def parse_lab(args) -> dict:
    """The lab's tree and settings from the link (AIMA's Figure 5.2 by default)."""
    text = args.get("t") or LAB_EXAMPLES[0][1]
    if len(text) > MAX_TEXT:
        raise BadRequest("the tree is too long (%(n)s characters, at most %(most)s)", "t",
                         n=len(text), most=MAX_TEXT)
    root = read_choice(args, "root", "max", ("max", "min"))
    algo = read_choice(args, "algo", "alphabeta", ("alphabeta", "minimax"))
    window = read_choice(args, "window", "infinite", WINDOWS)
    order = read_choice(args, "order", "natural", ("natural", "reverse"))
    mode = read_choice(args, "mode", "show", ("show", "exercise"))
    try:
        game = ExerciseTree(text, root)
    except ValueError as err:
        raise BadRequest("tree: %(err)s", "t", err=err) from None
    if game.size() > MAX_NODES:
        raise BadRequest("the lab draws trees of up to %(most)s nodes; this one has %(n)s", "t",
                         most=MAX_NODES, n=game.size())
    solved = solve_tree(game, algo, window=window, order=order)
    return dict(text=format_tree(game.tree), root=root, algo=algo, window=window, order=order,
                mode=mode, solved=solved)


def parse_answer(args) -> tuple[dict, set]:
    """The student's answer from the form: ``v.<node>`` values, ``p`` pruned node names."""
    values = {}
    for key, raw in args.items():
        if key.startswith("v.") and raw.strip():
            try:
                value = float(raw.replace(",", ".").replace("−", "-"))
            except ValueError:
                value = math.nan
            if not math.isfinite(value):     # "nan", "inf" and typos alike
                raise BadRequest("node %(node)s: “%(raw)s” is not a number", key,
                                 node=key[2:][:20], raw=raw[:20])
            values[key[2:]] = value
    return values, set(args.getlist("p")) if hasattr(args, "getlist") else set()
