"""An explicit game tree for textbook exercises: nested lists of leaf values.

``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` is the classic three-by-three exercise (AIMA
Figure 5.2): a max root, three min nodes, nine leaves; its minimax value is 3. The leaf
values are scores from MAX's point of view, as every textbook writes them.

A state is the path from the root, a tuple of child indices, so it is hashable and cheap.
The same search functions that play the games run on it unchanged.
"""
from __future__ import annotations

import ast
import math
from numbers import Real

from ai.course.game import Game
from ai.messages import GameError

MAX_LEAVES = 4096
MAX_DEPTH = 12
MAX_TEXT = 20_000
MAX_ABS_VALUE = 10**6


def parse_tree(text: str):
    """Parse ``"[[3,12,8],[2,4,6]]"`` into nested lists of numbers, with readable errors.

    Only lists and numbers are accepted (no names, no calls: ``ast.literal_eval`` on a
    checked syntax tree), within size limits, so a typed tree can never run code or
    exhaust the server.
    """
    if not isinstance(text, str):
        raise GameError("a tree is written as nested lists, e.g. [[3,12,8],[2,4,6]]")
    text = text.strip()
    if not text:
        raise GameError("the tree is empty: write nested lists, e.g. [[3,12,8],[2,4,6]]")
    if len(text) > MAX_TEXT:
        raise GameError("the tree text is too long (%(n)s characters, at most %(most)s)",
                        n=len(text), most=MAX_TEXT)
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise GameError("the tree is not well formed: use numbers, commas and square brackets, "
                        "e.g. [[3,12,8],[2,4,6]]") from None
    return _convert(node, 0, [0])


def _convert(node, depth, leaves):
    if depth > MAX_DEPTH:
        raise GameError("the tree is too deep (at most %(most)s levels)", most=MAX_DEPTH)
    if isinstance(node, ast.List):
        if not node.elts:
            raise GameError("an inner node has no children: every [ ] needs at least one value")
        return [_convert(child, depth + 1, leaves) for child in node.elts]
    value = None
    if isinstance(node, ast.Constant):
        value = node.value
    elif (isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd))
          and isinstance(node.operand, ast.Constant)):
        value = node.operand.value
        if isinstance(value, Real) and not isinstance(value, bool) and isinstance(node.op, ast.USub):
            value = -value
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise GameError("a leaf must be a number, e.g. 3 or -2.5; found %(found)r",
                        found=ast.unparse(node)[:40])
    if abs(value) > MAX_ABS_VALUE:
        raise GameError("leaf values must lie between -%(most)s and %(most)s", most=MAX_ABS_VALUE)
    leaves[0] += 1
    if leaves[0] > MAX_LEAVES:
        raise GameError("the tree has too many leaves (at most %(most)s)", most=MAX_LEAVES)
    return value


def format_tree(tree) -> str:
    """The inverse of ``parse_tree``: ``[[3, 12, 8], [2, 4, 6]]``."""
    if isinstance(tree, list):
        return "[" + ", ".join(format_tree(t) for t in tree) + "]"
    return str(int(tree)) if float(tree).is_integer() else str(tree)


class ExerciseTree(Game):
    """The game whose positions are the nodes of ``tree``; MAX (player 0) or MIN at the root.

    Leaves carry scores from MAX's side: ``utility`` returns them as they are (negated for
    MIN), and ``leaf_scores = True`` tells the search to use them as values unchanged
    instead of treating them as win/draw/loss.
    """

    name = "tree"
    leaf_scores = True

    def __init__(self, tree, root: str = "max"):
        # A list given from Python goes through the same checks as typed text.
        tree = parse_tree(tree if isinstance(tree, str) else repr(tree))
        if root not in ("max", "min"):
            raise ValueError(f"the root is 'max' or 'min', not {root!r}")
        self.tree, self.root = tree, root
        # The course's maxScore for this tree: the window [-maxScore, +maxScore] holds every leaf.
        self.max_score = max(1, max(abs(v) for v in _leaves(tree)))
        self._first = 0 if root == "max" else 1

    def __repr__(self):
        return f"ExerciseTree({format_tree(self.tree)}, root={self.root!r})"

    def node(self, state):
        t = self.tree
        for i in state:
            t = t[i]
        return t

    # -- the protocol -------------------------------------------------------------------
    def initial_state(self):
        return ()

    def to_move(self, state) -> int:
        return (len(state) + self._first) & 1

    def actions(self, state) -> list[int]:
        t = self.node(state)
        return list(range(len(t))) if isinstance(t, list) else []

    def result(self, state, move):
        t = self.node(state)
        if not isinstance(t, list):
            raise GameError("a leaf has no children")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(t):
            raise GameError("this node has children 1 to %(n)s, not %(move)s", n=len(t),
                            move=self.format_move(move))
        return state + (move,)

    def is_terminal(self, state) -> bool:
        return not isinstance(self.node(state), list)

    def utility(self, state, player: int):
        value = self.node(state)
        return value if player == 0 else -value

    def key(self, state) -> int:
        return hash(state)

    def parse_move(self, text: str) -> int:
        text = str(text).strip()
        if not text.isascii() or not text.isdigit():
            raise ValueError(f"a child is numbered from 1, not {text!r}")
        return int(text) - 1

    def format_move(self, move) -> str:
        return str(move + 1) if isinstance(move, int) else repr(move)

    def parse_moves(self, text: str) -> list[int]:
        """A path as the exercises name a node, ``"1.3.2"`` -> [0, 2, 1]; without dots, one
        digit per child (``"132"``)."""
        text = (text or "").strip()
        return [self.parse_move(t) for t in (text.split(".") if "." in text else text)]

    def format_moves(self, moves) -> str:
        """[0, 2, 1] -> ``"1.3.2"``: children numbered from 1, as the exercises name nodes."""
        return ".".join(self.format_move(m) for m in moves)

    # -- counting -----------------------------------------------------------------------
    def size(self) -> int:
        """Number of nodes in the whole tree (root and leaves included)."""
        def count(t):
            return 1 + sum(count(c) for c in t) if isinstance(t, list) else 1
        return count(self.tree)

    def leaf_count(self) -> int:
        def count(t):
            return sum(count(c) for c in t) if isinstance(t, list) else 1
        return count(self.tree)


def _leaves(t):
    if isinstance(t, list):
        for c in t:
            yield from _leaves(c)
    else:
        yield t


# -- random trees (the course's own are its games': ai/games/<game>/) ---------------------------------------------------------

RANDOM_DEPTHS = (2, 3, 4)
# children per inner node at each depth: wide enough to prune, narrow enough for a phone
RANDOM_BRANCHING = {2: (2, 4), 3: (2, 3), 4: (2, 2)}


def random_tree(seed: int, depth: int = 3, *, low: int = 0, high: int = 20):
    """A tree for an exercise, the same for the same ``seed`` and ``depth`` (a link holds
    them): every leaf at ``depth``, 2 to 4 children per node (fewer the deeper the tree),
    whole leaf values from ``low`` to ``high``. Of the trees the seed draws, the first on
    which alpha-beta (children left to right, window [−∞, +∞]) cuts at least once, so that
    there is something to prune."""
    if depth not in RANDOM_DEPTHS:
        raise GameError("the depth of a random tree is one of %(depths)s, not %(depth)s",
                        depths=", ".join(map(str, RANDOM_DEPTHS)), depth=depth)
    import random
    from ai.course.search import alphabeta

    rng = random.Random(f"{seed}/{depth}")
    lo, hi = RANDOM_BRANCHING[depth]

    def build(d):
        if d == depth:
            return rng.randint(low, high)
        return [build(d + 1) for _ in range(rng.randint(lo, hi))]

    for _ in range(100):
        tree = build(0)
        if alphabeta(ExerciseTree(tree), record=True).tree.cutoffs:
            return tree
    return tree
