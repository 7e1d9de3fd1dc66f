"""The exact review of a whole game: for every move, the exact value before and after it, its
class, and for a mistake the line that refutes it and one sentence why.

It names no game. The exact value of a position comes from the game's own ``exact_score``
hook when it has one (Connect-4: the compiled solver with the opening book; Nim: the course's
theory), else from a memoized solve of the whole tree below the position (any small game:
tic-tac-toe), so a new small game is reviewed with no code here.

**Scores** are always from the side to move, and *negamax-exact*: a position's score is the
best of ``-score(child)`` over its moves, so the value of a move for the player who made it
is ``-score`` of the position it leads to, and both sit on the same scale:

- Connect-4: Pons' score (``ai.solver``): 0 a draw, ``22 - s`` for a win with the winner's
  ``s``-th stone on 7x6 (a quicker win scores more), negative for a loss;
- Nim: +1 or -1, as the course's theory gives (a multiple of k+1 loses, seed 003);
- any other game (the generic solve): ``MAX_SCORE - p`` for a win that ends the game at ply
  ``p`` of the game (counted from its first move), ``-(MAX_SCORE - p)`` for a loss, 0 a draw:
  the app's search scale, counted from the start so that it negates exactly.

**Classes** (issue 25), comparing the move's value with the position's, for the mover:
``best`` keeps the exact value (same outcome, same distance); ``inaccuracy`` keeps the
outcome but slows a win or hastens a loss; ``mistake`` turns a win into a draw or a draw into
a loss; ``blunder`` turns a win into a loss. The move that ends the game is judged the same
way, by its result (a win at once is the quickest win there is).

**Accuracy** of a player: the share of their moves that are ``best``, in per cent (an
inaccuracy counts half, a mistake or a blunder nothing): ``100 * (best + inaccuracies / 2) /
moves``.

**Bounded**: ``time_limit`` and ``max_nodes`` cover the whole review; a position not solved
within them has no score (None), its moves no class, and the review says ``complete=False``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..messages import N_, GameError
from ..scores import MAX_SCORE

CLASSES = ("best", "inaccuracy", "mistake", "blunder")
SIGNS = {"best": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MAX_MOVES = 200                 # a longer move list is refused
LINE_PLIES = 10                 # the refutation line: at most this many plies
DEFAULT_TIME_LIMIT = 10.0       # seconds for a whole review (the command line's default)
GENERIC_MAX_NODES = 2_000_000   # the generic solve's own cap (a tree too large to solve)


class OutOfBudget(Exception):
    """The review's time or node budget ran out."""


class Budget:
    """What is left of a review's time and nodes (``check`` raises OutOfBudget)."""

    def __init__(self, time_limit: float | None, max_nodes: int | None):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.nodes_left = max_nodes

    def seconds(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def spend(self, nodes: int) -> None:
        if self.nodes_left is not None:
            self.nodes_left = max(0, self.nodes_left - nodes)

    def check(self) -> None:
        if self.nodes_left == 0 or (self.deadline is not None
                                    and time.perf_counter() >= self.deadline):
            raise OutOfBudget


# -- the exact value of a position ----------------------------------------------------------

class GenericSolver:
    """A memoized negamax over the whole tree below a position, with distance: the winner
    hurries, the loser delays. For small games (tic-tac-toe: 5,478 positions)."""

    def __init__(self, game):
        self.game = game
        self.memo: dict = {}          # state -> (outcome for the mover, plies to the end, move)

    def solve(self, state, budget: Budget):
        hit = self.memo.get(state)
        if hit is not None:
            return hit
        game = self.game
        if game.is_terminal(state):
            u = game.utility(state, game.to_move(state))
            r = ((u > 0) - (u < 0), 0, None)
        else:
            budget.spend(1)
            if len(self.memo) % 256 == 0:
                budget.check()
            if len(self.memo) > GENERIC_MAX_NODES:
                raise OutOfBudget
            best = None
            for move in game.actions(state):
                o, p, _ = self.solve(game.result(state, move), budget)
                cand = (-o, p + 1, move)
                if best is None or _better(cand, best):
                    best = cand
            r = best
        self.memo[state] = r
        return r


def _better(a, b) -> bool:
    """Is (outcome, plies) ``a`` better for the mover than ``b``?"""
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] > 0:
        return a[1] < b[1]        # a quicker win
    if a[0] < 0:
        return a[1] > b[1]        # a slower loss
    return False


class _Scorer:
    """The exact score of a position (``score``) and its words (``words``), from the game's
    hooks or the generic solve."""

    def __init__(self, game):
        self.game = game
        self.hook = getattr(game, "exact_score", None)
        self.words_hook = getattr(game, "score_outcome", None)
        self.generic = None if self.hook else GenericSolver(game)

    def score(self, state, ply: int, budget: Budget, *, at_least=None, need_move=True):
        """``(score, best move)`` of ``state`` (``ply`` moves into the game), None when the
        budget runs out. ``at_least``: a lower bound of the score known already;
        ``need_move=False``: the score alone will do (the move may be None)."""
        if self.hook is not None:
            t = budget.seconds()
            if (t is not None and t <= 0) or budget.nodes_left == 0:
                return None
            r = self.hook(state, time_limit=t, max_nodes=budget.nodes_left,
                          at_least=at_least, need_move=need_move)
            if r is None:
                return None
            score, best, nodes = r
            budget.spend(nodes)
            return score, best
        try:
            o, p, best = self.generic.solve(state, budget)
        except OutOfBudget:
            return None
        except RecursionError:
            raise GameError("this game is too long to review exactly") from None
        return (o * (MAX_SCORE - (ply + p)) if o else 0), best

    def words(self, state, ply: int, score: int) -> tuple[str, int | None]:
        """``("win", k)``: the side to move wins with its k-th move from now; ``("loss",
        k)``: the opponent wins with its k-th move; ``("draw", None)``; k None when the
        game's scores do not count moves (Nim's theory)."""
        if self.words_hook is not None:
            return self.words_hook(state, score)
        if score == 0:
            return "draw", None
        plies = MAX_SCORE - abs(score) - ply
        return ("win", (plies + 1) // 2) if score > 0 else ("loss", plies // 2)


def classify(before: int, after: int) -> str:
    """The class of a move worth ``after`` in a position worth ``before`` (both for the
    mover, on one negamax-exact scale)."""
    if after >= before:
        return "best"
    b, a = (before > 0) - (before < 0), (after > 0) - (after < 0)
    if a == b:
        return "inaccuracy"
    if b > 0 and a < 0:
        return "blunder"
    return "mistake"


# -- the review ------------------------------------------------------------------------------

@dataclass
class MoveReview:
    """One move of the game."""

    ply: int                      # 1 for the first move
    player: int                   # who made it (0 starts)
    move: object
    before: int | None            # the exact score of the position before it (the mover's)
    after: int | None             # the move's own value, for the mover (-score of the next)
    cls: str | None               # one of CLASSES, None when not solved in the budget
    kept: object = None           # a move that keeps the value (when this one did not)
    refutation: tuple = ()        # the opponent's best reply and the line that follows
    before_words: tuple = ("", None)
    after_words: tuple = ("", None)
    why: tuple | None = None      # (template, values), or a list of them: translatable

    @property
    def sign(self) -> str:
        return SIGNS.get(self.cls, "")


@dataclass
class Review:
    game: object
    moves: list
    items: list[MoveReview]
    complete: bool
    elapsed: float
    first_elapsed: float | None = None
    ended: bool = False            # the moves end the game
    result: int | None = None      # the final position's score (side to move), when known
    counts: dict = field(default_factory=dict)     # player -> {class: count}

    @property
    def scores(self) -> list[int | None]:
        return [m.before for m in self.items]

    @property
    def classes(self) -> list[str | None]:
        return [m.cls for m in self.items]

    def accuracy(self, player: int) -> float | None:
        """``100 * (best + inaccuracies / 2) / moves`` over the player's classed moves."""
        c = self.counts.get(player, {})
        n = sum(c.values())
        if not n:
            return None
        return round(100 * (c.get("best", 0) + c.get("inaccuracy", 0) / 2) / n, 1)

    def erring(self) -> list[MoveReview]:
        """The moves that lost something (mistakes and blunders, then inaccuracies)."""
        return [m for m in self.items if m.cls in ("mistake", "blunder", "inaccuracy")]

    def as_dict(self, move_json=None) -> dict:
        mj = move_json or (lambda m: m)
        return {
            "game": self.game.name, "moves": [mj(m) for m in self.moves],
            "scores": self.scores, "after": [m.after for m in self.items],
            "classes": self.classes,
            "best_moves": [None if m.kept is None else mj(m.kept) for m in self.items],
            "refutations": [[mj(x) for x in m.refutation] for m in self.items],
            "why": [why_text(m, names=lambda p: f"J{p}") or None for m in self.items],
            "counts": {str(p): c for p, c in self.counts.items()},
            "accuracy": {str(p): self.accuracy(p) for p in self.counts},
            "result": self.result, "complete": self.complete,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "first_ms": None if self.first_elapsed is None else round(self.first_elapsed * 1000, 3),
        }


def replay(game, moves):
    """The states of the game, from the start to after the last move; a GameError names the
    first move that is illegal (or played after the end)."""
    if len(moves) > MAX_MOVES:
        raise GameError("at most %(most)s moves can be reviewed, not %(n)s", most=MAX_MOVES,
                        n=len(moves))
    states = [game.initial_state()]
    for i, move in enumerate(moves, 1):
        if game.is_terminal(states[-1]):
            raise GameError("move %(i)s (%(move)s): the game was already over",
                            i=i, move=game.format_move(move))
        try:
            states.append(game.result(states[-1], move))
        except ValueError as err:
            raise GameError("move %(i)s (%(move)s): %(err)s", i=i,
                            move=game.format_move(move), err=err) from None
    return states


def review(game, moves, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
           max_nodes: int | None = None, lines: bool = True) -> Review:
    """The exact review of ``moves`` (the game's own moves, from the start).

    Args:
        game: the rules (any game of the protocol; its ``exact_score`` hook if it has one).
        moves: the moves played, as the rules take them (Connect-4: 0-indexed columns).
        time_limit, max_nodes: the budget of the whole review (None: none).
        lines: also find the refutation line and the sentence of each erring move.

    Returns:
        A :class:`Review`; ``complete`` is False when the budget ran out first.

    Raises:
        GameError: an illegal move, a move after the end, or too many moves.
    """
    budget = Budget(time_limit, max_nodes)
    moves = list(moves)
    states = replay(game, moves)
    scorer = _Scorer(game)
    n = len(moves)
    solved: list = [None] * (n + 1)
    first = None
    # From the first position on (the first answer comes at once): each position scores at
    # least minus its parent's score (equal when the move was best), which a game's solver
    # can use (Connect-4's first null-window probe asks exactly that).
    for i in range(n + 1):
        at_least = None if i == 0 or solved[i - 1] is None else -solved[i - 1][0]
        solved[i] = scorer.score(states[i], i, budget, at_least=at_least, need_move=False)
        if solved[i] is None:
            break
        if i == 0:
            first = time.perf_counter() - budget.start
    items = []
    counts = {0: {}, 1: {}} if n > 1 else {game.to_move(states[0]): {}}
    for i, move in enumerate(moves):
        player = game.to_move(states[i])
        counts.setdefault(player, {})
        before = None if solved[i] is None else solved[i][0]
        after = None if solved[i + 1] is None else -solved[i + 1][0]
        item = MoveReview(i + 1, player, move, before, after, None)
        if before is not None and after is not None:
            item.cls = classify(before, after)
            counts[player][item.cls] = counts[player].get(item.cls, 0) + 1
            item.before_words = scorer.words(states[i], i, before)
            item.after_words = scorer.words(states[i], i, after)
            if item.cls != "best":
                kept = solved[i][1]
                if kept is None:
                    r = scorer.score(states[i], i, budget)
                    kept = None if r is None else r[1]
                item.kept = kept
        items.append(item)
    result = None if solved[n] is None else solved[n][0]
    complete = all(s is not None for s in solved)
    rev = Review(game, moves, items, complete, 0.0, first, game.is_terminal(states[n]), result,
                 counts)
    if lines:
        for item in items:
            if item.cls in ("mistake", "blunder", "inaccuracy"):
                _explain(game, scorer, states, item, budget)
                if item.refutation == () and item.cls != "inaccuracy" and \
                        not game.is_terminal(states[item.ply]):
                    rev.complete = False
    rev.elapsed = time.perf_counter() - budget.start
    return rev


def best_line(game, scorer: _Scorer, state, ply: int, budget: Budget, plies: int = LINE_PLIES):
    """The line of best moves from ``state`` (both sides), at most ``plies`` long, ending
    early at the end of the game or when the budget runs out."""
    line = []
    for k in range(plies):
        if game.is_terminal(state):
            break
        r = scorer.score(state, ply + k, budget)
        if r is None or r[1] is None:
            break
        line.append(r[1])
        state = game.result(state, r[1])
    return tuple(line)


def _explain(game, scorer, states, item: MoveReview, budget: Budget) -> None:
    """The refutation line after ``item`` and its sentence."""
    after_state = states[item.ply]
    if not game.is_terminal(after_state):
        item.refutation = best_line(game, scorer, after_state, item.ply, budget)
    why_hook = getattr(game, "review_why", None)
    why = None
    if why_hook is not None:
        why = why_hook(states[item.ply - 1], item.move, item.kept, item.refutation,
                       item.before_words, item.after_words, item.cls)
    item.why = why or generic_why(game, item)


def generic_why(game, item: MoveReview) -> tuple:
    """One sentence from the outcomes alone, for a game with no ``review_why`` hook."""
    kind_b, k_b = item.before_words
    kind_a, k_a = item.after_words
    values = {"move": game.format_move(item.move),
              "kept": "" if item.kept is None else game.format_move(item.kept),
              "reply": game.format_move(item.refutation[0]) if item.refutation else "",
              "k": k_a, "kb": k_b, "player": item.player, "opponent": 1 - item.player}
    if item.cls == "inaccuracy":
        if kind_a == "win":
            return (N_("%(move)s still wins, but in %(k)s moves instead of %(kb)s: "
                       "%(kept)s was quicker."), values)
        return (N_("%(move)s still loses, but in %(k)s moves instead of %(kb)s: "
                   "%(kept)s held out longer."), values)
    if kind_a == "loss":
        if k_a is None:
            return (N_("After %(move)s, the opponent wins with best play: %(kept)s kept the "
                       "value."), values)
        return (N_("After %(move)s, the opponent wins in %(k)s moves, starting with "
                   "%(reply)s: %(kept)s kept the value."), values)
    return (N_("After %(move)s, the opponent can hold a draw, starting with %(reply)s: "
               "%(kept)s kept the win."), values)


def why_text(item: MoveReview, gettext=None, names=None) -> str:
    """The sentence of ``item``, translated by ``gettext(template, **values)`` if given,
    players named by ``names`` (a function of 0 or 1)."""
    if item.why is None:
        return ""
    parts = [item.why] if isinstance(item.why[0], str) else item.why
    out = []
    for template, values in parts:
        values = dict(values)
        if names is not None:
            for key in ("player", "opponent", "winner", "loser"):
                if isinstance(values.get(key), int):
                    values[key] = names(values[key])
        out.append(gettext(template, **values) if gettext else template % values)
    return " ".join(out)
