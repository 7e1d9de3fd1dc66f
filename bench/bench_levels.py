#!/usr/bin/env python3
"""The ladder of levels, refereed by the exact solver: is each level measurably stronger than
the one below, and by about as much?

**Paired positions** (``--parts positions``): every level plays the same positions, those of
``bench/data/level-positions.txt`` (kept apart from the tests: see ``--make-positions``), where
the side to move can **blunder**: its position is not lost and some column would worsen the
exact outcome (a won position to a draw or a loss, a drawn one to a loss). The file holds every
column's exact score (the solver with the opening book), so a level's move is judged at once.
For each level: its blunder rate with a 95% Wilson interval, the share of moves that lower
Pons' score at all (a slower win, a quicker loss), and against the level below, the positions
where only one of the two blunders with McNemar's exact test (the two-sided binomial p-value of
that split). The same positions for all, so the comparison does not depend on where a level's
own play leads. Then each level's reply time over these positions (p50 / p95 / max).

**Head to head** (``--parts games``): each level against the one above it from ``--games``
random 4-ply openings (``random.Random(i)``), each opening played twice, each side once (the
opening's own value cancels out): wins, draws and losses of the stronger, and the sign test on
the decisive games (two-sided binomial p-value); then the same test on the openings, paired:
those where the stronger scores more over its two games than the weaker, against those where
it scores less (an opening won by whoever has the first move counts for neither).

**Against perfect** (``--parts perfect``, not run by default): each level's games against the
perfect level, with the referee's verdict on each of its moves (the first blunder's ply).

Every preset but ``perfect`` decides by counts (depths and node budgets), so these tables do
not depend on the machine or its load; only the times do (the load average is printed).

    .venv/bin/python bench/bench_levels.py                      # ~4 min here, loaded
    .venv/bin/python bench/bench_levels.py --positions 200 --games 10  # ~1 min
    .venv/bin/python bench/bench_levels.py --make-positions 600  # rebuild the positions (~2 min)
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "bench")):
    if p not in sys.path:
        sys.path.insert(0, p)

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("MINIMAX_SOLVED_DB", "off")   # every perfect reply searched, cold

from ai.games.connect4.exact import analysis, opening_book  # noqa: E402
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.levels import DEFAULT_LEVEL, LEVELS  # noqa: E402
from ai.games.connect4.exact.solver_fast import FastSolver  # noqa: E402

LADDER = ["beginner", "easy", "medium", "hard", "expert", "perfect"]
POSITIONS = os.path.join(ROOT, "bench", "data", "level-positions.txt")
GAME = Connect4()
_times: dict[str, list[float]] = {}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def binomial_p(a: int, b: int) -> float:
    """Two-sided p-value of a split a / b of a + b fair coin tosses (sign test, McNemar)."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def percentile(sorted_values, q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[i]


def ms(seconds: float) -> str:
    x = seconds * 1e3
    return f"{x:.2f} ms" if x < 10 else f"{x:.0f} ms"


# -- the positions ------------------------------------------------------------------------------

def load_positions(path: str = POSITIONS, count: int | None = None):
    """[(state, position's score, [column's score or None])] from the file: one position a
    line, ``MOVES SCORE S1 .. S7`` (1-indexed moves; Pons' scores for the side to move; ``.``
    for a full column)."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            moves, score, *cols = line.split()
            out.append((GAME.from_moves(moves), int(score),
                        [None if c == "." else int(c) for c in cols]))
            if count is not None and len(out) == count:
                break
    return out


def game_start(seed: int):
    """The start of a game the positions are taken from: four random moves, then two levels
    drawn at random (the stronger one not always second); the random generator goes on."""
    rng, state, moves = random.Random(seed), GAME.initial_state(), []
    for _ in range(4):
        m = rng.choice(GAME.actions(state))
        moves.append(m)
        state = GAME.result(state, m)
    sides = (rng.choice(("beginner", "easy", "medium", "hard")),
             rng.choice(("easy", "medium", "hard")))
    if rng.random() < 0.5:
        sides = sides[::-1]
    return rng, state, moves, sides


def make_positions(count: int, path: str = POSITIONS, per_game: int = 3,
                   first_seed: int = 10_000) -> None:
    """Positions of games between the course's levels (random 4-ply openings,
    ``random.Random(first_seed + i)``; one side beginner, easy, medium or hard, the other easy,
    medium or hard, drawn from the same generator), at most ``per_game`` of each game, drawn
    among those where a blunder is possible. The file written is data: its positions stay
    what they are when the levels change (the ones in the repository were made with the
    levels of before issue 24, whose play differs only in hard's)."""
    t0, n, i = time.perf_counter(), 0, 0
    lines = [f"# {count} positions where a blunder is possible: MOVES SCORE S1..S7 (Pons' "
             f"scores, side to move; bench/bench_levels.py --make-positions {count} "
             f"--first-seed {first_seed} --per-game {per_game})"]
    while n < count:
        rng, state, moves, sides = game_start(first_seed + i)
        i += 1
        found = []
        while not GAME.is_terminal(state):
            a = analysis.analyse_position(state.current, state.mask, state.moves, store=None,
                                          time_limit=None)
            cols = [None if x is None else x.score for x in a.columns]
            if a.score >= 0 and any(x is not None and sign(x) < sign(a.score) for x in cols):
                found.append(f"{GAME.format_moves(moves)} {a.score} "
                             + " ".join("." if x is None else str(x) for x in cols))
            m = LEVELS[sides[GAME.to_move(state)]].play(GAME, state).move
            moves.append(m)
            state = GAME.result(state, m)
        for line in rng.sample(found, min(per_game, len(found), count - n)):
            lines.append(line)
            n += 1
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{n} positions from {i} games (seeds {first_seed}-{first_seed + i - 1}) in {path} "
          f"({time.perf_counter() - t0:.0f} s)")


def move(level: str, state):
    t0 = time.perf_counter()
    r = LEVELS[level].play(GAME, state)
    _times.setdefault(level, []).append(time.perf_counter() - t0)
    return r.move


def paired(levels, positions, source: str = POSITIONS) -> None:
    plies = sorted(s.moves for s, _, _ in positions)
    print(f"{len(positions)} positions where a blunder is possible (plies {plies[0]}-{plies[-1]}, "
          f"median {statistics.median(plies)}), {os.path.relpath(source, ROOT)}\n")
    print("| level | blunders | rate | 95% interval | worse score | vs the level below: only "
          "it blunders / only the lower one | p (McNemar) |")
    print("|---|---|---|---|---|---|---|")
    previous = None
    for level in levels:
        blunder, worse = [], 0
        for state, score, scores in positions:
            s = scores[move(level, state)]
            blunder.append(sign(s) < sign(score))
            worse += s < score
        k, n = sum(blunder), len(blunder)
        lo, hi = wilson(k, n)
        cmp = p = ""
        if previous is not None:
            only_me = sum(b and not a for a, b in zip(previous, blunder))
            only_below = sum(a and not b for a, b in zip(previous, blunder))
            cmp, p = f"{only_me} / {only_below}", f"{binomial_p(only_me, only_below):.2g}"
        print(f"| {level} | {k} of {n} | {k / n:.1%} | {lo:.1%}-{hi:.1%} | {worse / n:.1%} | "
              f"{cmp} | {p} |", flush=True)
        previous = blunder
    print("\nreply time on these positions (p50 / p95 / max):")
    for level in levels:
        t = sorted(_times.get(level, []))
        print(f"- {level}{' (default)' if level == DEFAULT_LEVEL else ''}: "
              f"{ms(statistics.median(t))} / {ms(percentile(t, 95))} / {ms(t[-1])}")


# -- games --------------------------------------------------------------------------------------

def opening(i: int):
    rng = random.Random(i)
    state = GAME.initial_state()
    for _ in range(4):
        state = GAME.result(state, rng.choice(GAME.actions(state)))
    return state


def play_game(i: int, first: str, second: str, referee=None, watch: str | None = None):
    """One game; returns (utility for ``first``, [(ply, before, after)] of ``watch``'s moves)."""
    state = opening(i)
    seen = []
    while not GAME.is_terminal(state):
        level = first if GAME.to_move(state) == 0 else second
        m = move(level, state)
        after = GAME.result(state, m)
        if referee is not None and level == watch:
            before = referee.solve_bitboard(state.current, state.mask, state.moves).score
            if GAME.is_terminal(after):
                now = (42 + 1 - state.moves) // 2 if after.over == 1 else 0
            else:
                now = -referee.solve_bitboard(after.current, after.mask, after.moves).score
            seen.append((state.moves, before, now))
        state = after
    return GAME.utility(state, 0), seen


def pairs(ladder, games: int) -> None:
    print("\n| stronger vs weaker | games | W-D-L of the stronger | p (sign test, decisive "
          "games) | openings: the stronger scores more / less over its two games | p (sign "
          "test, openings) |")
    print("|---|---|---|---|---|---|")
    for weak, strong in zip(ladder, ladder[1:]):
        wdl, better, worse = [0, 0, 0], 0, 0
        for i in range(games):
            total = 0
            for strong_first in (True, False):
                u, _ = play_game(i, *((strong, weak) if strong_first else (weak, strong)))
                u = u if strong_first else -u
                wdl[1 - u] += 1
                total += u
            better += total > 0
            worse += total < 0
        print(f"| {strong} vs {weak} | {sum(wdl)} | {wdl[0]}-{wdl[1]}-{wdl[2]} | "
              f"{binomial_p(wdl[0], wdl[2]):.2g} | {better} / {worse} | "
              f"{binomial_p(better, worse):.2g} |", flush=True)


def vs_perfect(ladder, games: int, referee) -> None:
    print("\n| level | its moves | blunders (outcome worsened) | per move from a position not "
          "lost | worse score | vs perfect W-D-L | first blunder, median ply |")
    print("|---|---|---|---|---|---|---|")
    for level in ladder:
        if level == "perfect":
            continue
        moves = blunders = worse = not_lost = 0
        wdl = [0, 0, 0]
        first_blunders = []
        for i in range(games):
            level_first = i % 2 == 0
            u, seen = play_game(i, *((level, "perfect") if level_first else ("perfect", level)),
                                referee=referee, watch=level)
            u = u if level_first else -u
            wdl[1 - u] += 1
            moves += len(seen)
            b = [ply for ply, before, after in seen if sign(after) < sign(before)]
            blunders += len(b)
            worse += sum(after < before for _, before, after in seen)
            not_lost += sum(before >= 0 for _, before, _ in seen)
            if b:
                first_blunders.append(b[0])
        first = statistics.median(first_blunders) if first_blunders else "-"
        print(f"| {level} | {moves} | {blunders / moves:.1%} | "
              f"{blunders / max(1, not_lost):.1%} of {not_lost} | {worse / moves:.1%} | "
              f"{wdl[0]}-{wdl[1]}-{wdl[2]} | {first} |", flush=True)


POSITIONS_NAME = os.path.relpath(POSITIONS, ROOT)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_levels.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60,
                    help="openings per pairing, each played both ways (default 60)")
    ap.add_argument("--file", default=POSITIONS,
                    help="the positions' file (default bench/data/level-positions.txt; a sample "
                         "kept apart from the levels' tuning: "
                         "ai/games/connect4/data/workshop-positions.txt)")
    ap.add_argument("--positions", type=int, default=None,
                    help="the first N positions of the file (default: all)")
    ap.add_argument("--parts", default="positions,games",
                    help="which tables among positions,games,perfect (default: %(default)s)")
    ap.add_argument("--levels", default=",".join(LADDER),
                    help="which levels, weakest first (default: %(default)s)")
    ap.add_argument("--make-positions", type=int, metavar="N",
                    help=f"write N new positions to {POSITIONS_NAME} and stop")
    ap.add_argument("--out", default=POSITIONS, help="--make-positions: the file to write "
                    "(tests/data/level-sample.txt: --first-seed 20000 --per-game 2)")
    ap.add_argument("--first-seed", type=int, default=10_000,
                    help="--make-positions: the first game's seed (default 10000)")
    ap.add_argument("--per-game", type=int, default=3,
                    help="--make-positions: positions kept of each game (default 3)")
    args = ap.parse_args(argv)
    if args.make_positions:
        make_positions(args.make_positions, args.out, args.per_game, args.first_seed)
        return 0
    parts = set(args.parts.split(","))
    ladder = args.levels.split(",")
    t0 = time.perf_counter()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} CPUs)\n")
    if "positions" in parts:
        paired(ladder, load_positions(args.file, count=args.positions), args.file)
    if "games" in parts:
        pairs(ladder, args.games)
    if "perfect" in parts:
        vs_perfect(ladder, args.games, FastSolver(7, 6, book=opening_book.shared()))
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
