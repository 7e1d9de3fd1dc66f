"""The exercise lab: run minimax or alpha-beta on a typed tree, draw all of it, and check a
student's answer (node values, and which branches alpha-beta prunes).

Nodes are named by their path of 1-indexed children, dots between: the root is "R", its
second child "2", that node's first child "2.1", as a teacher names them on the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .exercise_tree import ExerciseTree
from ai.course.record import Node, SearchTree
from ai.course.search import SearchResult, alphabeta, minimax
from .tree_view import path_of
from ai.messages import GameError


def name(path) -> str:
    return ".".join(str(m + 1) for m in path) or "R"


@dataclass
class Solved:
    """A typed tree solved by one algorithm, with the whole tree to draw."""

    game: ExerciseTree
    algorithm: str                    # "minimax" or "alphabeta"
    result: SearchResult              # the algorithm's own recorded tree
    full: SearchTree                  # every node, the algorithm's findings merged in
    paths: dict = field(default_factory=dict)       # full-tree node id -> path
    minimax_values: dict = field(default_factory=dict)   # path -> exact minimax value

    @property
    def explored(self) -> int:
        return self.result.tree.explored

    @property
    def size(self) -> int:
        return len(self.full.nodes)

    def pruned_roots(self) -> set:
        """Paths of the children that a cut skipped (each stands for its whole subtree)."""
        return {path_of(self.result.tree, n) for n in self.result.tree.nodes if n.pruned}


def solve(game: ExerciseTree, algorithm: str = "alphabeta", *, window="infinite",
          order=None) -> Solved:
    """Run ``algorithm`` on the whole tree, and merge what it did into the full tree: nodes
    it never reached are marked pruned (leaves keep their given value, shown struck out)."""
    if algorithm not in ("minimax", "alphabeta"):
        raise ValueError(f"the lab runs minimax or alphabeta, not {algorithm!r}")
    reference = minimax(game, record=True, order=order)
    if algorithm == "minimax":
        result = reference
    else:
        result = alphabeta(game, record=True, window=window, order=order)
    found = {path_of(result.tree, n): n for n in result.tree.nodes if not n.pruned}
    full = SearchTree(reference.tree.root_player)
    paths, values = {}, {}
    for ref in reference.tree.nodes:
        path = path_of(reference.tree, ref)
        values[path] = ref.value
        mine = found.get(path)
        node = Node(ref.id, ref.parent, ref.move, ref.ply, ref.is_max, kind=ref.kind,
                    children=list(ref.children))
        if mine is None:
            node.pruned = True
            node.value = ref.value if ref.kind == "terminal" else None
        else:
            node.alpha, node.beta, node.value = mine.alpha, mine.beta, mine.value
            node.cutoff, node.pv = mine.cutoff, mine.pv
        full.add(node)
        paths[node.id] = path
    return Solved(game, algorithm, result, full, paths, values)


# -- the exercise: what it asks, and the marks -----------------------------------------------

class _Asked:
    """What a question and its mark share: the node's name and the answer form's key."""

    path: tuple
    what: str

    @property
    def name(self) -> str:
        return name(self.path)

    @property
    def key(self) -> str:
        return f"{KEY_OF[self.what]}.{self.name}"


@dataclass(frozen=True)
class Question(_Asked):
    """One thing the exercise asks: a node's value, its alpha or beta on entry (alpha-beta),
    or that a branch is pruned. ``key`` names it in the answer form ("v.2", "a.R", "b.2.1",
    "p.2.2")."""

    path: tuple
    what: str                 # "value", "alpha", "beta", "pruned"
    answer: object            # the number expected (the value alpha-beta returned), or True
    accepted: frozenset = frozenset()   # every number accepted (a value: minimax's too)


KEY_OF = {"value": "v", "alpha": "a", "beta": "b", "pruned": "p"}


def questions(solved: Solved) -> list[Question]:
    """What the exercise asks, in tree order: for each inner node the algorithm explored, its
    value and (alpha-beta) its window on entry, alpha and beta; for each branch a cut skipped,
    that it is pruned. The leaves' values are given; nodes below a pruned branch are not asked
    about."""
    truly_pruned = solved.pruned_roots()
    asked = []
    for node in solved.full.nodes:
        path = solved.paths[node.id]
        if path in truly_pruned:
            asked.append(Question(path, "pruned", True))
            continue
        if node.pruned or any(path[:i] in truly_pruned for i in range(len(path))):
            continue
        if node.kind == "terminal":
            continue
        accepted = frozenset({solved.minimax_values[path], node.value})
        asked.append(Question(path, "value", node.value, accepted))
        if solved.algorithm == "alphabeta":
            asked.append(Question(path, "alpha", node.alpha, frozenset({node.alpha})))
            asked.append(Question(path, "beta", node.beta, frozenset({node.beta})))
    return asked


@dataclass
class Answer:
    """A student's answer as the form sends it: numbers by question key ("v.2": 3.0; a text
    that is not a number stays text), the names of the nodes ticked as pruned, and how many
    times each question was answered wrong before (``tries``, carried by the form)."""

    numbers: dict = field(default_factory=dict)
    ticked: set = field(default_factory=set)
    tries: dict = field(default_factory=dict)


@dataclass
class Mark(_Asked):
    """The mark of one question (or of a tick on a node that is explored): "right", "wrong",
    "missing" (not answered yet) or "typo" (not a number); ``note`` says why, without the
    answer at a first wrong try, with it (``revealed``) at a second."""

    path: tuple
    what: str
    state: str
    note: GameError | None = None
    revealed: bool = False

    @property
    def ok(self) -> bool:
        return self.state == "right"

    @property
    def message(self) -> str:
        return str(self.note) if self.note else ""


@dataclass
class Report:
    marks: list
    total: int                # questions asked
    first_time: int           # questions right now, never answered wrong before

    @property
    def right(self) -> int:
        return sum(1 for m in self.marks if m.ok)

    @property
    def done(self) -> bool:
        """Every question right, and no explored branch ticked as pruned."""
        return all(m.ok for m in self.marks)

    @property
    def wrong(self) -> list:
        return [m for m in self.marks if m.state == "wrong"]

    def tries_after(self, before: dict) -> dict:
        """The wrong tries to carry to the next check: those before, and this check's (a
        question counts up to 2: the second shows the answer)."""
        after = dict(before)
        for m in self.wrong:
            after[m.key] = min(2, after.get(m.key, 0) + 1)
        return after

    def of(self, path) -> list:
        return [m for m in self.marks if m.path == path]


def check(solved: Solved, answer: Answer) -> Report:
    """Mark ``answer``, question by question (``questions``). A wrong answer is named with a
    hint, not the answer ("too high: a min node takes the smallest of its children's
    values"); at the second wrong try at the same question the note gives it. Unanswered
    questions and typos count as no try. Ticking a branch that is explored is a mistake too.

    Raises GameError naming any node the tree does not have."""
    by_name = {name(path): path for path in solved.paths.values()}
    named = {key.split(".", 1)[1] for key in answer.numbers} | set(answer.ticked)
    unknown = sorted(named - set(by_name))
    if unknown:
        raise GameError("no node named %(names)s in this tree", names=", ".join(unknown[:5]))
    asked = questions(solved)
    pruned_paths = {q.path for q in asked if q.what == "pruned"}
    node_of = {solved.paths[n.id]: n for n in solved.full.nodes}
    marks = []
    for q in asked:
        tried = answer.tries.get(q.key, 0)
        if q.what == "pruned":
            if q.name in answer.ticked:
                marks.append(Mark(q.path, q.what, "right", GameError("pruned")))
            elif tried:
                marks.append(Mark(q.path, q.what, "wrong", GameError(
                    "is pruned: the cut at node %(node)s skips it", node=name(q.path[:-1])), True))
            else:
                marks.append(Mark(q.path, q.what, "wrong", GameError(
                    "is never explored: look at α and β at its parent when its turn comes "
                    "(a cut when α ≥ β)")))
            continue
        given = answer.numbers.get(q.key)
        if given is None:
            marks.append(Mark(q.path, q.what, "missing", GameError("no answer yet")))
        elif isinstance(given, str):
            marks.append(Mark(q.path, q.what, "typo", GameError(
                "“%(raw)s” is not a number", raw=given[:20])))
        elif given in q.accepted:
            marks.append(Mark(q.path, q.what, "right", GameError("= %(value)s", value=fmt(given))))
        elif tried:
            marks.append(Mark(q.path, q.what, "wrong", GameError(
                "it is %(value)s, not %(given)s", value=fmt(q.answer), given=fmt(given)), True))
        else:
            marks.append(Mark(q.path, q.what, "wrong", _hint(solved, q, given, node_of)))
    # a tick on a branch the algorithm explores (below a ticked branch, the tick above counts)
    for label in sorted(answer.ticked, key=lambda n: by_name[n]):
        path = by_name[label]
        if path in pruned_paths or not path or any(path[:i] in pruned_paths
                                                  for i in range(len(path))):
            continue
        key = f"p.{label}"
        if answer.tries.get(key, 0):
            note = GameError("is explored: its value %(value)s is used",
                             value=fmt(node_of[path].value))
        else:
            note = GameError("is explored: when its turn comes at its parent, α < β still")
        marks.append(Mark(path, "pruned", "wrong", note, bool(answer.tries.get(key, 0))))
    first_time = sum(1 for q, m in zip(asked, marks) if m.ok and not answer.tries.get(q.key))
    marks.sort(key=lambda m: m.path)       # tree order (stable: a node's questions in order)
    return Report(marks, len(asked), first_time)


def _hint(solved: Solved, q: Question, given, node_of) -> GameError:
    """Why ``given`` is wrong for ``q``, without the answer."""
    node = node_of[q.path]
    low = given < q.answer
    if q.what == "value":
        kids = [node_of[solved.paths[c]] for c in node.children]
        values = {v for k in kids for v in (k.value, solved.minimax_values[solved.paths[k.id]])}
        if given not in values:
            return GameError("not a value of one of its children: a node takes the value of "
                             "one of its children")
        if node.is_max and low:
            return GameError("too low: a max node takes the largest of its children's values")
        if node.is_max:
            return GameError("too high: is one of its children really worth that much?")
        if not low:
            return GameError("too high: a min node takes the smallest of its children's values")
        return GameError("too low: is one of its children really worth that little?")
    if not q.path:
        return GameError("at the root, α and β are the first window's (the setting above)")
    if q.what == "alpha" and low:
        return GameError("too low: α on entry is its parent's α when this child's turn comes, "
                         "after the children before it (α = max(α, value) at a max node)")
    if q.what == "alpha":
        return GameError("too high: α on entry is its parent's α when this child's turn comes, "
                         "before any of this child's own values")
    if not low:
        return GameError("too high: β on entry is its parent's β when this child's turn comes, "
                         "after the children before it (β = min(β, value) at a min node)")
    return GameError("too low: β on entry is its parent's β when this child's turn comes, "
                     "before any of this child's own values")


def fmt(v):
    """A value for a message: a number (the page writes it in its language: 2,5 in French),
    a whole one without ".0"; "?" for none."""
    if v is None:
        return "?"
    return int(v) if float(v).is_integer() else float(v)
