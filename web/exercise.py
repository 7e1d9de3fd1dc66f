"""The exercise lab's side of the URL: the typed tree and its settings, the student's answer,
and the panel that draws the solved tree with the same SVG macro as the game's tree panel."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import url_for
from flask_babel import lazy_gettext as _l

import secrets

from ai.teach.exercise import Answer, Solved, name as node_name, solve as solve_tree
from ai.games.nim.course_trees import COURSE_TREES
from ai.teach.exercise_tree import (RANDOM_DEPTHS, ExerciseTree, format_tree,
                              random_tree)
from ai.teach.tree_view import at_step, counts_at, finished_search, question, replay, unfold

from .notation import read_number
from .projector import projector_on
from .params import WINDOWS, BadRequest, read_choice, read_int

LAB_EXAMPLES = [
    (_l("AIMA Figure 5.2"), "[[3,12,8],[2,4,6],[14,5,2]]"),
    (_l("Deeper, with cut-offs at two levels"), "[[[3,17],[2,12]],[[15],[25,0]],[[2,5],[3]],[[2,14]]]"),
    (_l("Four levels (Wikipedia's alpha-beta figure)"),
     "[[[[5,6],[7,4,5]],[[3]]],[[[6],[6,9]],[[7]]],[[[5]],[[9,8],[6]]]]"),
]
# The course's trees (ai.games.nim.course_trees.COURSE_TREES), titled in its words
COURSE_TREE_TITLES = {
    "nim4": _l("Minmax chapter: the Nim tree N = 4 (J0 max first, +1 where J0 wins, −1 where J1 wins)"),
    "nim5": _l("The game of matches: the tree of dimension 5 (the maximiser first, ±maxScore written ±1)"),
    "nim5d2": _l("The game of matches: depth 2 with +maxScore − remaining/5 (maxScore = 1), pruning"),
}
LAB_PARAMS = ("t", "ex", "seed", "rd", "algo", "root", "window", "order", "mode")
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
        self.g = LabSettings(self.solved.game, projector=projector_on())
        self.result = self.solved.result
        self.event = None
        self.replayed = None        # at a step: the search replayed to it, read by all below
        if self.exercise:
            self.step = None        # replaying the search would show the answer
        tree = self.solved.result.tree if self.step is not None else self.solved.full
        self.view = unfold(tree, (), levels=99)
        if self.exercise:
            self.shown = question(self.view)
        elif self.step is not None:
            self.replayed = replay(tree, self.step)
            self.shown, self.event = at_step(tree, self.view, self.step, self.windowed,
                                             self.replayed)
        else:
            self.shown = finished_search(self.view, window=self.windowed)

    @property
    def windowed(self) -> bool:
        """Alpha-beta searches with a window (α, β on entry); minimax has none to draw."""
        return self.solved.algorithm != "minimax"

    @property
    def explored(self) -> int:
        """Nodes explored: by the whole search, or so far at the step."""
        if self.step is None:
            return self.solved.explored
        return counts_at(self.solved.result.tree, self.step, self.replayed)["explored"]

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
    """The lab's tree and settings from the link: a course tree (``ex``), a random tree
    (``seed``, depth ``rd``: the same link, the same tree), or a typed one (``t``; AIMA's
    Figure 5.2 by default). A course tree comes with its settings (root, first window, order
    of the children), which the link may change."""
    source, defaults = "t", {}
    seed = depth = ex = None
    if args.get("seed") not in (None, ""):
        seed = read_int(args, "seed", 0, 0, 10**9)
        depth = read_int(args, "rd", 3, min(RANDOM_DEPTHS), max(RANDOM_DEPTHS))
        text, source = format_tree(random_tree(seed, depth)), "seed"
    elif args.get("ex") not in (None, ""):
        ex = read_choice(args, "ex", "nim5", tuple(COURSE_TREES))
        defaults = COURSE_TREES[ex]
        text, source = format_tree(defaults["tree"]), "ex"
    else:
        text = args.get("t") or LAB_EXAMPLES[0][1]
    if len(text) > MAX_TEXT:
        raise BadRequest("the tree is too long (%(n)s characters, at most %(most)s)", "t",
                         n=len(text), most=MAX_TEXT)
    root = read_choice(args, "root", defaults.get("root", "max"), ("max", "min"))
    algo = read_choice(args, "algo", "alphabeta", ("alphabeta", "minimax"))
    window = read_choice(args, "window", defaults.get("window", "infinite"), WINDOWS)
    order = read_choice(args, "order", defaults.get("order", "natural"), ("natural", "reverse"))
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
                mode=mode, solved=solved, source=source, seed=seed, rd=depth or 3, ex=ex,
                course_title=COURSE_TREE_TITLES.get(ex), max_score=game.max_score,
                estimate_total=defaults.get("estimate_total"))


def parse_kept_lab(args, *, whole_failed: bool = False) -> tuple[dict, dict]:
    """The lab a wrong link (a 400) still shows, and the link's part it is read from: what was
    right kept. The whole link when only the answer or the step was wrong; the tree it names
    (a course tree, a seed, a typed tree) with that tree's own settings when a setting was
    wrong, so that the course's tree keeps its window and, in the course's notation, its ±M
    (``order=x`` showed AIMA's tree in the window [−∞, +∞]); else the default tree, with the
    text they typed, to fix it. The exercise mode is kept, so that a mistake in a link never
    shows the solution. ``whole_failed``: ``parse_lab(args)`` raised already (it would again:
    the whole link is not parsed twice)."""
    mode = {"mode": "exercise"} if args.get("mode") == "exercise" else {}
    named = dict(mode, **{k: args[k] for k in ("t", "ex", "seed", "rd") if args.get(k)})
    same = named == {k: args.get(k) for k in args}      # nothing but the tree: the same parse
    for kept in (() if same else (named,)) if whole_failed else (args, named):
        try:
            return parse_lab(kept), kept
        except BadRequest:
            pass
    lab = parse_lab(mode)
    lab["text"] = args.get("t", "")[:MAX_TEXT]
    return lab, mode


def source_params(lab: dict) -> dict:
    """The link's part that names the tree: its seed, its course name, or its text."""
    if lab["source"] == "seed":
        return {"seed": lab["seed"], "rd": lab["rd"]}
    if lab["source"] == "ex":
        return {"ex": lab["ex"]}
    return {"t": lab["text"]}


def new_seed() -> int:
    """A seed for a new random tree (the link then keeps it)."""
    return secrets.randbelow(10**6)


MAX_ANSWER = 40          # characters of one answer
def parse_answer(args, max_score: float = 1) -> Answer:
    """The student's answer from the form: ``v.<node>`` values, ``a.<node>`` and ``b.<node>``
    alpha and beta on entry, ``p`` the nodes ticked as pruned, ``w`` the questions answered
    wrong at earlier checks (a key per wrong try)."""
    numbers, tries = {}, {}
    for key, raw in args.items():
        if key[:2] in ("v.", "a.", "b.") and len(key) > 2 and raw.strip():
            if len(raw) > MAX_ANSWER:
                raise BadRequest("node %(node)s: “%(raw)s…” is too long for a number", key,
                                 node=key[2:][:20], raw=raw[:20])
            numbers[key] = read_number(raw, max_score)
    ticked = set(args.getlist("p")) if hasattr(args, "getlist") else set()
    wrong = args.getlist("w") if hasattr(args, "getlist") else []
    if len(wrong) > 4 * MAX_NODES:
        raise BadRequest("too many earlier tries in the link", "w")
    for key in wrong:
        if key[:2] in ("v.", "a.", "b.", "p.") and len(key) <= 40:
            tries[key] = min(2, tries.get(key, 0) + 1)
    return Answer(numbers, ticked, tries)


# -- wrong tries, remembered by the browser ----------------------------------------------------

TRIES_COOKIE = "lab_tries"
TRIES_TREES = 6               # trees remembered (the latest), within a cookie's size
TRIES_CHARS = 3000


def tree_key(lab: dict) -> str:
    """A short name for the exercise a lab link asks (its tree, algorithm, window, order)."""
    import hashlib
    from urllib.parse import urlencode
    what = urlencode({**source_params(lab), "algo": lab["algo"], "window": lab["window"],
                      "order": lab["order"]})
    return hashlib.sha256(what.encode()).hexdigest()[:12]


def _remembered(cookies) -> dict:
    import json
    try:
        found = json.loads(cookies.get(TRIES_COOKIE, "") or "{}")
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: {q: min(2, n) for q, n in v.items() if isinstance(q, str) and isinstance(n, int)
                and n > 0} for k, v in found.items() if isinstance(k, str) and isinstance(v, dict)}


def with_remembered_tries(answer: Answer, lab: dict, cookies) -> Answer:
    """The answer with the wrong tries this browser made on this exercise before, whatever
    the link says (``w=`` carries them too): a link reworded without them still knows them,
    so a question answered wrong once is never counted right "at the first try"."""
    before = _remembered(cookies).get(tree_key(lab), {})
    tries = {k: max(n, answer.tries.get(k, 0)) for k, n in before.items()}
    tries.update({k: n for k, n in answer.tries.items() if k not in tries})
    return Answer(answer.numbers, answer.ticked, tries)


def remember_tries(response, lab: dict, cookies, tries: dict) -> None:
    """Keep ``tries`` (the wrong tries after this check) for this exercise in the browser's
    cookie, the latest trees kept."""
    import json
    found = _remembered(cookies)
    key = tree_key(lab)
    found.pop(key, None)
    found[key] = {k: n for k, n in sorted(tries.items()) if n}
    while found and (len(found) > TRIES_TREES or len(json.dumps(found)) > TRIES_CHARS):
        found.pop(next(iter(found)))
    response.set_cookie(TRIES_COOKIE, json.dumps(found, separators=(",", ":")),
                        max_age=30 * 24 * 3600, samesite="Lax", httponly=True)
