"""A tournament's standings from its games, for any game of win, draw or loss: points (a win
1, a draw ½), wins-draws-losses, a Bradley-Terry rating with its uncertainty, the ranking and
the crosstable.

**The rating.** Bradley-Terry: entrant ``i`` has a strength ``p_i`` and beats ``j`` with the
probability ``p_i / (p_i + p_j)``; a draw counts as half a win for each. The strengths are
fitted on all the games by the minorise-maximise iteration (Hunter 2004: ``p_i <- W_i /
sum_j n_ij / (p_i + p_j)``, ``W_i`` the points of ``i``, ``n_ij`` the games of ``i`` and
``j``), with one drawn game against a fixed opponent of strength 1 for each entrant (a weak
prior: it keeps the strength of an entrant that won or lost everything finite). A rating is
``400 log10 p_i`` (Elo's scale: 400 points are odds of 10 to 1), shifted so that the
entrants' mean is 0. Its uncertainty is one standard error, from the fit's information
(``1 / sum_j n_ij q_ij (1 - q_ij)``, ``q_ij`` the fitted probability; the prior's game
included), on the same scale. The fit runs a fixed number of steps at most, stops at a fixed
tolerance, and its numbers are rounded: the same games give the same ratings.

**The ranking.** Points; among entrants level on points, the points they scored in the games
between themselves (head-to-head); then the rating. Never the name: entrants level on all
three share their place (``rank``), listed in the order they were entered.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

WIN, DRAW, LOSS = "W", "D", "L"
STEPS = 10_000          # the fit's steps at most
TOLERANCE = 1e-12       # it stops when no strength moves by more (relatively)
SCALE = 400 / math.log(10)


@dataclass(frozen=True)
class Result:
    """One game: ``first`` and ``second`` the entrants' names, ``score`` the first's points
    (1, ½ or 0)."""

    first: str
    second: str
    score: float


def ratings(names: list[str], results: list[Result]) -> dict[str, tuple[float, float]]:
    """Each entrant's (rating, standard error) fitted on ``results`` (see the module's text)."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    games = [[0.0] * k for _ in range(k)]
    won = [0.5] * k                         # the prior's draw
    for r in results:
        a, b = index[r.first], index[r.second]
        games[a][b] += 1
        games[b][a] += 1
        won[a] += r.score
        won[b] += 1 - r.score
    met = [[(j, n) for j, n in enumerate(row) if n] for row in games]   # each one's opponents
    p = [1.0] * k
    for _ in range(STEPS):
        new = [won[i] / (1 / (p[i] + 1) + sum(n / (p[i] + p[j]) for j, n in met[i]))
               for i in range(k)]
        moved = max(abs(n - o) / o for n, o in zip(new, p))
        p = new
        if moved < TOLERANCE:
            break
    logs = [math.log(x) for x in p]
    mean = sum(logs) / k if k else 0.0
    out = {}
    for i, name in enumerate(names):
        info = p[i] / (p[i] + 1) ** 2 + sum(games[i][j] * p[i] * p[j] / (p[i] + p[j]) ** 2
                                             for j in range(k) if games[i][j])
        out[name] = (round(SCALE * (logs[i] - mean), 1), round(SCALE / math.sqrt(info), 1))
    return out


def _points(score: float) -> float | int:
    return int(score) if float(score).is_integer() else score


def standings(names: list[str], results: list[Result],
              byes: dict[str, float] | None = None, rate: bool = True
              ) -> tuple[list[dict], list[dict]]:
    """(standings, crosstable) of ``results`` between ``names`` (entry order); ``byes``: the
    points each entrant scored sitting a Swiss round out (then each standing has ``byes``,
    and its ``points`` include them; the rating is the games' alone).

    ``rate=False``: no rating (``None``, and no tie-break by it): the fit takes seconds on a
    class's thousands of games, too long to redraw the standings after each one; points and
    head-to-head are counted at once.

    Each standing: ``rank`` (shared by entrants level on points, head-to-head and rating),
    ``name``, ``points``, ``games``, ``W``, ``D``, ``L``, ``rating``, ``rating_error``.
    The crosstable: one row per entrant in the standings' order, ``name`` and ``against``:
    for each opponent (the same order), ``points``, ``games``, ``W``, ``D``, ``L``.
    """
    pair: dict[tuple[str, str], list[float]] = {}
    for r in results:
        pair.setdefault((r.first, r.second), []).append(r.score)
        pair.setdefault((r.second, r.first), []).append(1 - r.score)
    rated = ratings(names, results) if rate else {n: (None, None) for n in names}

    def record(name, opponents):
        scores = [s for o in opponents if o != name for s in pair.get((name, o), ())]
        return {"points": _points(sum(scores)), "games": len(scores),
                WIN: sum(s == 1 for s in scores), DRAW: sum(s == 0.5 for s in scores),
                LOSS: sum(s == 0 for s in scores)}

    table = {n: record(n, names) for n in names}
    if byes is not None:
        for n in names:
            table[n]["points"] = _points(table[n]["points"] + byes.get(n, 0))
            table[n]["byes"] = _points(byes.get(n, 0))
    level: dict[float, list[str]] = {}
    for n in names:
        level.setdefault(table[n]["points"], []).append(n)
    head = {n: record(n, level[table[n]["points"]])["points"] for n in names}

    def key(n):
        return (-table[n]["points"], -head[n], -(rated[n][0] or 0))

    order = sorted(names, key=key)           # stable: entry order among the level
    rows, rank = [], 0
    for i, n in enumerate(order):
        if i == 0 or key(n) != key(order[i - 1]):
            rank = i + 1
        rows.append({"rank": rank, "name": n, **table[n], "head_to_head": head[n],
                     "rating": rated[n][0], "rating_error": rated[n][1]})
    cross = [{"name": n, "against": {o: record(n, [o]) for o in order if o != n}}
             for n in order]
    return rows, cross
