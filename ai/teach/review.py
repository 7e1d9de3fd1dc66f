"""The exact review of a whole game: for every move, the exact value before and after it, its
class, and for a mistake the line that refutes it and one sentence why.

It names no game. The exact value of a position comes from the game's ``exact_score`` hook
when it is the game's own (``scores_exactly``: an exact solver with its opening book, a
game's theory), else from a
memoized solve of the whole tree below the position (any small game), so a new small game is reviewed with no code here.

**Scores** are always from the side to move, and *negamax-exact*: a position's score is the
best of ``-score(child)`` over its moves, so the value of a move for the player who made it
is ``-score`` of the position it leads to, and both sit on the same scale:

- a game with an ``exact_score`` hook: its own scale, negamax-exact (Pons' score for a
  solver of his kind: 0 a draw, ``22 - s`` for a win with the winner's ``s``-th stone on 7x6;
  +1 or -1 for a game solved by a theory);
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

from ..messages import N_, GameError, Plural, in_moves
from ..course.scores import MAX_SCORE

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
        self.spent = 0

    def seconds(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def spend(self, nodes: int) -> None:
        self.spent += nodes
        if self.nodes_left is not None:
            self.nodes_left = max(0, self.nodes_left - nodes)

    def check(self) -> None:
        if self.nodes_left == 0 or (self.deadline is not None
                                    and time.perf_counter() >= self.deadline):
            raise OutOfBudget


# -- the exact value of a position ----------------------------------------------------------

class GenericSolver:
    """A memoized negamax over the whole tree below a position, with distance: the winner
    hurries, the loser delays. For small games (a few thousand positions)."""

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
        self.generic = None if game.scores_exactly else GenericSolver(game)

    def score(self, state, ply: int, budget: Budget, *, at_least=None, need_move=True):
        """``(score, best move)`` of ``state`` (``ply`` moves into the game), None when the
        budget runs out. ``at_least``: a lower bound of the score known already;
        ``need_move=False``: the score alone will do (the move may be None)."""
        if self.generic is None:
            t = budget.seconds()
            if (t is not None and t <= 0) or budget.nodes_left == 0:
                return None
            r = self.game.exact_score(state, time_limit=t, max_nodes=budget.nodes_left,
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
        game's scores do not count moves (a theory's +1 / -1)."""
        words = self.game.score_outcome(state, score)
        if words is not None:
            return words
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
    nodes: int = 0                 # the positions searched, lines included
    states: list = field(default_factory=list, repr=False)
    scorer: object = field(default=None, repr=False)
    score_nodes: int = 0           # of which for the scores alone

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
            "result": self.result, "complete": self.complete, "nodes": self.nodes,
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
        moves: the moves played, as the rules take them (``game.result``'s moves).
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
    # can use (a null-window probe asks exactly that).
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
                item.kept = solved[i][1]
        items.append(item)
    complete = all(s is not None for s in solved)
    result = None if solved[n] is None else solved[n][0]
    rev = Review(game, moves, items, complete, 0.0, first, game.is_terminal(states[n]), result,
                 counts, score_nodes=budget.spent)
    rev.states, rev.scorer = states, scorer
    if lines:
        # the moves that kept the value and the refutations, after every score: they only add
        for item in items:
            explain(rev, item, budget)
    rev.elapsed = time.perf_counter() - budget.start
    rev.nodes = budget.spent
    return rev


def best_line(game, scorer: _Scorer, state, ply: int, budget: Budget,
              plies: int = LINE_PLIES) -> tuple:
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


def explain(rev: Review, item: MoveReview, budget: Budget | None = None, *,
            time_limit: float | None = DEFAULT_TIME_LIMIT) -> None:
    """Fill in, for a move that lost something, the move that kept the value, the
    refutation (mistakes and blunders: the opponent's best reply and the line that follows)
    and the sentence why. The review's page asks for it one move at a time."""
    if item.cls in (None, "best"):
        return
    budget = budget or Budget(time_limit, None)
    game, scorer, states = rev.game, rev.scorer, rev.states
    i = item.ply - 1
    if item.kept is None:
        r = scorer.score(states[i], i, budget)
        item.kept = None if r is None else r[1]
    if item.cls in ("mistake", "blunder") and not item.refutation:
        item.refutation = best_line(game, scorer, states[item.ply], item.ply, budget)
    why = game.review_why(states[i], item.move, item.kept, item.refutation,
                          item.before_words, item.after_words, item.cls)
    item.why = why or generic_why(game, item)


def generic_why(game, item: MoveReview) -> list:
    """One sentence from the outcomes alone, for a game with no ``review_why`` hook."""
    kind_b, k_b = item.before_words
    kind_a, k_a = item.after_words
    v = {"move": game.format_move(item.move),
         "kept": "" if item.kept is None else game.format_move(item.kept),
         "reply": game.format_move(item.refutation[0]) if item.refutation else "",
         "in_k": in_moves(k_a), "in_kb": in_moves(k_b),
         "player": item.player, "opponent": 1 - item.player}
    if item.cls == "inaccuracy":
        if kind_a == "win":
            return [(N_("%(move)s still wins, but %(in_k)s instead of %(in_kb)s: %(kept)s "
                        "was quicker."), v)]
        return [(N_("%(move)s still loses, but %(in_k)s instead of %(in_kb)s: %(kept)s held "
                    "out longer."), v)]
    if kind_a == "loss":
        if k_a is None or not item.refutation:
            parts = [(N_("After %(move)s, %(opponent)s wins with best play."), v)]
        else:
            parts = [(N_("After %(move)s, %(opponent)s wins %(in_k)s, starting with "
                         "%(reply)s."), v)]
    else:
        parts = [(N_("After %(move)s, %(opponent)s can hold a draw, starting with "
                     "%(reply)s."), v)]
    if item.kept is not None:
        parts.append((N_("%(kept)s won.") if kind_b == "win" else N_("%(kept)s held the draw."),
                      v))
    return parts


def why_text(item: MoveReview, gettext=None, names=None, ngettext=None) -> str:
    """The sentence of ``item``, translated by ``gettext(template, **values)`` and
    ``ngettext`` if given, players named by ``names`` (a function of 0 or 1)."""
    if item.why is None:
        return ""
    parts = [item.why] if isinstance(item.why[0], str) else item.why
    out = []
    for template, values in parts:
        values = dict(values)
        for key, value in values.items():
            if isinstance(value, Plural):
                values[key] = value.text(ngettext)
            elif names is not None and key in ("player", "opponent") and isinstance(value, int):
                values[key] = names(value)
        out.append(gettext(template, **values) if gettext else template % values)
    return " ".join(out)


def move_outcomes(game, state, ply: int = 0, *,
                  time_limit: float | None = DEFAULT_TIME_LIMIT,
                  max_nodes: int | None = None) -> tuple[list, bool]:
    """Every legal move of ``state`` (``ply`` moves into the game) with its exact outcome for
    the player who makes it, as the review scores a move (the game's ``exact_score`` hook, else
    the generic solve): ``([(move, score, kind, k), ...], complete)``; ``score`` on the game's
    scale for that player, ``kind`` "win", "loss" or "draw" and ``k`` the winner's moves from
    this one on (this one included when it is the mover's; None where the game's scores
    count no moves); ``score`` and ``kind`` None for a move the budget did not reach."""
    budget = Budget(time_limit, max_nodes)
    scorer = _Scorer(game)
    rows, complete = [], True
    for move in game.actions(state):
        r = scorer.score(game.result(state, move), ply + 1, budget, need_move=False)
        if r is None:
            rows.append((move, None, None, None))
            complete = False
            continue
        after = -r[0]
        kind, k = scorer.words(state, ply, after)
        rows.append((move, after, kind, k))
    return rows, complete


# -- the command line (``python -m ai review GAME MOVES``) -------------------------------------

def parse_moves(game, text: str) -> list:
    """A game's moves as its links write them (the rules' ``parse_moves``); ``-``: none."""
    text = "" if text is None or text.strip() == "-" else text.strip()
    return list(game.parse_moves(text))


def command(game, text: str, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
            max_nodes: int | None = None, move_json=None) -> tuple[dict, list[str]]:
    """``python -m ai review``: the review as JSON and as lines of text. ``scores[i]`` is the
    exact score of the position before move i+1 (side to move, the game's convention),
    ``classes[i]`` the class of move i+1."""
    r = review(game, parse_moves(game, text), time_limit=time_limit, max_nodes=max_nodes)
    mj = move_json or game.format_move
    data = r.as_dict(mj)
    lines = []
    for m in r.items:
        score = "?" if m.before is None else f"{m.before:+d}" if m.before else "0"
        after = "?" if m.after is None else f"{m.after:+d}" if m.after else "0"
        line = (f"{m.ply:>3}. J{m.player} {game.format_move(m.move):>3}  before {score:>6}  "
                f"after {after:>6}  {m.cls or 'not solved'} {m.sign}")
        if m.kept is not None:
            line += f"  (best: {game.format_move(m.kept)})"
        lines.append(line)
        text_why = why_text(m, names=lambda p: f"J{p}")
        if text_why:
            lines.append("       " + text_why)
            if m.refutation:
                lines.append("       refutation: " + " ".join(game.format_move(x)
                                                             for x in m.refutation))
    for p in sorted(r.counts):
        c = r.counts[p]
        acc = r.accuracy(p)
        lines.append(f"J{p}: " + ", ".join(f"{c.get(k, 0)} {k}" for k in CLASSES)
                     + ("" if acc is None else f"; accuracy {acc:g}% "
                        "(100 x (best + inaccuracies / 2) / moves)"))
    lines.append(f"time: {r.elapsed * 1000:.1f} ms"
                 + ("" if r.complete else "  (budget ran out: some moves are not classed)"))
    return data, lines
