"""What the review's page draws, computed here (templates only draw): the outcome graph's
geometry over the game, and its table for screen readers. Names no game.

The graph shows, after each move, the exact value from the first player's side: a win above
the middle line (a quicker win higher), a draw on it, a loss below (a quicker loss lower).
The AI's own estimate (the depth-limited value its search found when it played) can be drawn
over the same plies as a second line: where the two part, the search's horizon hid the truth.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..course.scores import WIN_THRESHOLD, MAX_SCORE

# The SVG's user units: the page shows it at its column's width (about 1:1.3 on a projector's
# 1920 px, so 22-unit text reads above 18 px there).
WIDTH, HEIGHT = 900, 320
LEFT, RIGHT, TOP, BOTTOM = 120, 24, 24, 48
FONT = 22
SHAPES = {"inaccuracy": "circle", "mistake": "square", "blunder": "diamond"}


@dataclass
class Point:
    ply: int                  # the position after this many moves (0: the start)
    x: float
    y: float                  # exact value, first player's side
    kind: str                 # "win", "draw", "loss" for the first player ("" unknown)
    k: int | None             # in how many moves (the winner's), when the game counts them
    cls: str | None = None    # the class of the move that led here
    player: int | None = None  # who made that move
    move: str = ""            # that move, as people write it
    ai_y: float | None = None  # the AI's estimate after its own move, when it played it
    shape: str = ""           # how the mark is drawn ("" none)
    points: str = ""          # a square's or diamond's corners, for <polygon>


@dataclass
class Graph:
    width: int
    height: int
    points: list[Point]
    line: str                 # the exact value's polyline
    ai_line: str              # the AI's estimate's polyline ("" none)
    zero_y: float
    top_y: float
    bottom_y: float
    left: int
    right: float
    font: int
    x_ticks: list = field(default_factory=list)     # (x, label)


def _fraction(kind: str, k: int | None, longest: int) -> float:
    """-1..1: a win at once 1, a slow win 0.4, a draw 0."""
    if kind == "draw" or not kind:
        return 0.0
    f = 0.7 if k is None else 0.4 + 0.6 * (1 - (max(k, 1) - 1) / max(longest, 1))
    return f if kind == "win" else -f


def first_players_view(kind: str, k, to_move: int):
    """A value for the side to move, from the first player's side."""
    if to_move == 0 or kind in ("draw", ""):
        return kind, k
    return ("loss" if kind == "win" else "win"), k


def ai_fraction(value: int | None, scale: float) -> float | None:
    """The AI's estimate (the app's value scale, for the AI) as -1..1: a proven win or loss as
    far as its distance says, a heuristic value within ±0.35 (never as sure as a proof)."""
    if value is None:
        return None
    if abs(value) >= WIN_THRESHOLD:
        plies = MAX_SCORE - abs(value)
        f = 0.4 + 0.6 * max(0.0, 1 - plies / 40)
        return f if value > 0 else -f
    return 0.35 * value / scale if scale else 0.0


def build_graph(review, *, ai_values: dict | None = None) -> Graph | None:
    """The outcome graph of ``review`` (an ``ai.teach.review.Review``); ``ai_values``: ply
    -> the AI's value for the move it played at that ply (for the AI), when it played."""
    rev = review
    n = len(rev.items)
    if n == 0 or rev.items[0].before is None:
        return None
    game, states, scorer = rev.game, rev.states, rev.scorer
    values = []                       # per position 0..n: (kind, k) first player's side
    for i in range(n + 1):
        score = rev.items[i].before if i < n else rev.result
        if score is None:
            values.append(("", None))
            continue
        kind, k = scorer.words(states[i], i, score)
        values.append(first_players_view(kind, k, game.to_move(states[i])))
    longest = max([k for _, k in values if k] + [1])
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    zero = TOP + plot_h / 2
    half = plot_h / 2
    scale = max([abs(v) for v in (ai_values or {}).values()
                 if v is not None and abs(v) < WIN_THRESHOLD] + [1])
    points = []
    for i, (kind, k) in enumerate(values):
        x = LEFT + plot_w * i / max(n, 1)
        y = zero - half * _fraction(kind, k, longest)
        p = Point(i, round(x, 1), round(y, 1), kind, k)
        if i > 0:
            item = rev.items[i - 1]
            p.cls, p.player, p.move = item.cls, item.player, game.format_move(item.move)
            p.shape = SHAPES.get(item.cls, "")
            r = 9
            if p.shape == "square":
                p.points = " ".join(f"{p.x + dx},{p.y + dy}" for dx, dy in
                                    ((-r, -r), (r, -r), (r, r), (-r, r)))
            elif p.shape == "diamond":
                r = 12
                p.points = " ".join(f"{p.x + dx},{p.y + dy}" for dx, dy in
                                    ((0, -r), (r, 0), (0, r), (-r, 0)))
            if ai_values and i in ai_values and ai_values[i] is not None:
                f = ai_fraction(ai_values[i], scale)
                # the AI's value is for the AI; the graph is the first player's side
                f = f if item.player == 0 else -f
                p.ai_y = round(zero - half * f, 1)
        points.append(p)
    line = " ".join(f"{p.x},{p.y}" for p in points if p.kind)
    ai_line = " ".join(f"{p.x},{p.ai_y}" for p in points if p.ai_y is not None)
    step = max(1, round(n / 10))
    ticks = [(round(LEFT + plot_w * i / max(n, 1), 1), i) for i in range(0, n + 1, step)]
    return Graph(WIDTH, HEIGHT, points, line, ai_line, zero, TOP, TOP + plot_h, LEFT,
                 WIDTH - RIGHT, FONT, ticks)
