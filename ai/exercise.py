"""The exercise lab: run minimax or alpha-beta on a typed tree, draw all of it, and check a
student's answer (node values, and which branches alpha-beta prunes).

Nodes are named by their path of 1-indexed children, dots between: the root is "R", its
second child "2", that node's first child "2.1", as a teacher names them on the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .exercise_tree import ExerciseTree
from .record import Node, SearchTree
from .search import SearchResult, alphabeta, minimax
from .tree_view import path_of
from .messages import GameError


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


@dataclass
class Verdict:
    path: tuple
    ok: bool
    note: GameError          # what to say about the node (a template, for translation)

    @property
    def name(self):
        return name(self.path)

    @property
    def message(self) -> str:
        return str(self.note)


def check(solved: Solved, values: dict, pruned: set) -> list[Verdict]:
    """Check a student's answer: ``values`` maps node names ("R", "2", "2.1") to the numbers
    they wrote, ``pruned`` is the set of names they marked as pruned.

    Every inner node that the algorithm explored must carry its value (the exact minimax
    value; for alpha-beta, the value alpha-beta returned there is accepted too, since a
    node that was cut only reports a bound). Every branch a cut skipped must be marked, and
    a node whose value is used must not be. Returns one verdict per node asked about, in
    tree order; a wrong answer says why.
    """
    by_name = {name(path): path for path in solved.paths.values()}
    unknown = sorted((set(values) | set(pruned)) - set(by_name))
    if unknown:
        raise GameError("no node named %(names)s in this tree", names=", ".join(unknown))
    truly_pruned = solved.pruned_roots()
    verdicts = []
    for node in solved.full.nodes:
        path = solved.paths[node.id]
        label = name(path)
        inside = any(path[:i] in truly_pruned for i in range(len(path) + 1))
        marked = label in pruned or any(name(path[:i]) in pruned for i in range(len(path)))
        if path in truly_pruned:
            verdicts.append(Verdict(path, marked, GameError("pruned") if marked else GameError(
                "should be marked pruned: the cut at node %(node)s skips it",
                node=name(path[:-1]))))
            continue
        if inside:
            continue
        if marked:
            verdicts.append(Verdict(path, False, GameError(
                "is not pruned: its value %(value)s is used", value=fmt(node.value))))
            continue
        if node.kind == "terminal":
            continue
        expected = {solved.minimax_values[path], node.value}
        given = values.get(label)
        if given is None:
            verdicts.append(Verdict(path, False, GameError(
                "has no value: it is %(value)s", value=fmt(solved.minimax_values[path]))))
        elif given in expected:
            verdicts.append(Verdict(path, True, GameError("= %(value)s", value=fmt(given))))
        else:
            verdicts.append(Verdict(path, False, GameError(
                "is %(value)s, not %(given)s", value=fmt(solved.minimax_values[path]),
                given=fmt(given))))
    return verdicts


def fmt(v):
    """A value for a message: a number (the page writes it in its language: 2,5 in French),
    a whole one without ".0"; "?" for none."""
    if v is None:
        return "?"
    return int(v) if float(v).is_integer() else float(v)
