#!/usr/bin/env python3
"""Benchmark of the game-tree search in ``ai/``.

Three sections:

1. Equal-depth Connect-4 search against easyAI: the same fixed positions searched to the same
   depths (2..10 by default) by
     - ours, ``ai.engine.search("alphabeta-tt", ..., fast=True, heuristic=Threats(g))``: the
       fast Connect-4 loop, compiled (``compiled_search``), as the app's levels run it (one
       search first, untimed, loads its machine code),
     - ours with easyAI's evaluation (win/loss only: ``heuristic=None`` scores 0 for every
       position that is not over),
     - easyAI's ``Negamax(depth)`` on easyAI's own example game ``easyAI.games.ConnectFour``
       (scoring -100 for a loss, 0 otherwise; no move ordering, no transposition table),
   all in this process. Values are checked against each other and against the exact scores
   of Pascal Pons' test sets where those prove a result within the depth.
2. The latency of the app's move: whole games where both sides play
   ``LEVELS[DEFAULT_LEVEL].play(g, state)`` (exactly what the web app calls).
3. Nodes per second of each of our algorithms at one depth from the empty board, the
   course's (``ai.course.search``) and the fast loop's.

Run from the repository root:  ``python bench/bench_search.py`` (``--help`` for options,
``--json`` for one JSON document instead of the tables).
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.games.connect4.heuristic import Threats  # noqa: E402
from ai.levels import DEFAULT_LEVEL, LEVELS  # noqa: E402
from ai.course.scores import MAX_SCORE, WIN_THRESHOLD  # noqa: E402
from ai.engine import search  # noqa: E402

# -- fixed positions ---------------------------------------------------------------------------
#
# (label, moves as 1-indexed column digits, Pons score or None). The scores are those of Pascal
# Pons' test sets (blog.gamesolver.org, "Solving Connect 4", test protocol): positive when the
# side to move wins, 22 - k when the winner wins with its k-th stone, 0 a draw. From it
# ``proof_plies`` derives in how many plies the result is forced, so a search at least that
# deep must prove it (and a shallower one must not).
POSITIONS = [
    # The empty board: the opening, the widest tree (7 moves at every node for a long time).
    ("empty", "", None),
    # A short opening line (both players in the centre, then 5 and 3): still a wide tree.
    ("4453", "4453", None),
    # Test_L2_R2 ("middle, medium") line 1: 15 moves of real play, O to move, a draw with
    # perfect play; nothing is decided within depth 10, so every search goes the full depth.
    ("L2R2#1", "274552224131661", 0),
    # Test_L2_R1 ("middle, easy") line 28: 16 moves, X to move, score -10: O wins with its
    # 12th stone, 8 plies from here.
    ("L2R1#28", "7532455277545526", -10),
    # Test_L2_R1 line 4: 18 moves, X to move, score -11: lost in 4 plies.
    ("L2R1#4", "271713432331713132", -11),
    # Test_L2_R1 line 16: 20 moves, X to move, score -9: lost in 6 plies.
    ("L2R1#16", "34651743747475571565", -9),
]


def proof_plies(n_moves: int, score: int | None, cells: int = 42) -> int | None:
    """Plies from the position until the forced end, from a Pons score (None: a draw or
    unknown). The mover has n//2 stones, the opponent (n+1)//2."""
    if not score:
        return None
    k = (cells + 2) // 2 - abs(score)      # the winner wins with its k-th stone
    if score > 0:
        return 2 * (k - n_moves // 2) - 1
    return 2 * (k - (n_moves + 1) // 2)


# -- easyAI ------------------------------------------------------------------------------------

def easyai_version() -> str:
    try:
        from importlib.metadata import version
        return version("easyAI")
    except Exception:  # noqa: BLE001 - any failure: fall back on the module's own attribute
        try:
            from easyAI.version import __version__
            return __version__
        except Exception:  # noqa: BLE001
            return "not installed"


_EASY_CALLS = [0]   # a module-level counter: easyAI deep-copies the game at every node
EASY_NODE_COUNT = ("make_move calls + 1 (the root): every node entered, root included, "
                   "as our stats.nodes; is_over is not called at depth-0 leaves")


def _easyai_classes():
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour

    class CountingConnectFour(ConnectFour):
        """easyAI's example game, counting the moves it makes (one per child node)."""

        def make_move(self, column):
            _EASY_CALLS[0] += 1
            return super().make_move(column)

    return AI_Player, Negamax, CountingConnectFour


def easyai_game(g: Connect4, state, players, cls):
    """easyAI's ConnectFour set to ``state``: board[row, col] with row 0 at the bottom (its
    make_move fills the first 0 from index 0), 1 for the player who started, 2 the other."""
    import numpy as np
    board = np.zeros((g.height, g.width), dtype=int)
    for col in range(g.width):
        for row in range(g.height):
            who = g.cell(state, col, row)
            if who is not None:
                board[row, col] = who + 1
    game = cls(players, board)
    game.current_player = 1 + g.to_move(state)
    if sorted(game.possible_moves()) != g.actions(state) or game.is_over():
        raise AssertionError("easyAI's board does not match our position")
    return game


# -- helpers -----------------------------------------------------------------------------------

CLOCK = [time.perf_counter]     # --cpu: time.process_time (section 1)


def timed(setup, run, repeat: int, fast: float = 0.05):
    """Run ``run(setup())`` once; if it took under ``fast`` seconds, ``repeat`` times in all.
    Returns (result of the last run, median seconds, runs). ``setup`` is not timed.

    As ``timeit`` does, garbage is collected before the series and the collector is off during
    each timed run, for easyAI and for us alike: a collection in the middle of one search would
    time the collector, and one forced before every run would time cold caches instead."""
    times, result = [], None
    gc.collect()
    for i in range(max(1, repeat)):
        arg = setup()
        gc.disable()
        try:
            t0 = CLOCK[0]()
            result = run(arg)
            times.append(CLOCK[0]() - t0)
        finally:
            gc.enable()
        if i == 0 and times[0] >= fast:
            break
    return result, statistics.median(times), len(times)


def percentile(sorted_values, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def ours_outcome(value):
    """('W'|'L', plies) for a proven value of ours, or None."""
    if abs(value) >= WIN_THRESHOLD:
        return ("W" if value > 0 else "L", int(round(MAX_SCORE - abs(value))))
    return None


def easy_outcome(value, depth):
    """easyAI scores a loss found with ``left`` plies of depth left -100 * (1 + 0.001*left)."""
    if abs(value) >= 100:
        left = int(round((abs(value) / 100 - 1) * 1000))
        return ("W" if value > 0 else "L", depth - left)
    return None


def show_value(value, outcome):
    if outcome:
        return f"{outcome[0]}{outcome[1]}"
    return f"{value + 0.0:g}" if isinstance(value, float) else str(value)   # no "-0"


def depth_range(text: str):
    depths = []
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-", 1)
                depths.extend(range(int(a), int(b) + 1))
            elif part:
                depths.append(int(part))
    except ValueError:
        depths = []
    if not depths or min(depths) < 1:
        raise argparse.ArgumentTypeError(f"depths like 2-10 or 4,6,8 (each >= 1), not {text!r}")
    return sorted(set(depths))


def machine_info():
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        import numpy
        np_version = numpy.__version__
    except ImportError:
        np_version = None
    return {"platform": platform.platform(), "cpu": cpu, "cpu_count": os.cpu_count(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "easyai": easyai_version(), "numpy": np_version}


class Out:
    """Text goes to stdout as it is produced, unless the run prints JSON."""

    def __init__(self, quiet):
        self.quiet = quiet

    def __call__(self, *lines):
        if not self.quiet:
            for line in lines:
                print(line, flush=True)


# -- section 1 ---------------------------------------------------------------------------------

def ours(g, s, d, heuristic):
    """Our Connect-4 search as the app runs it: alpha-beta with a table through the fast loop,
    chosen explicitly (``ai.engine.search(..., fast=True)``)."""
    return search("alphabeta-tt", g, s, d, fast=True, heuristic=heuristic, order="center")


def section_equal_depth(args, out):
    g = Connect4()
    threats = Threats(g)
    for h in (threats, None):           # the first call loads the compiled search's machine code
        ours(g, g.initial_state(), 2, h)
    result = {"node_count_easyai": EASY_NODE_COUNT, "positions": [], "rows": [], "summary": []}
    out("", "== 1. Equal-depth Connect-4 search: ours vs easyAI "
        f"(depths {args.depths[0]}-{args.depths[-1]}, easyAI skipped after a depth > "
        f"{args.max_seconds:g} s) ==",
        "ours    = search('alphabeta-tt', g, s, d, fast=True, heuristic=Threats(g), "
        "order='center')  (ai.engine: the fast Connect-4 loop, compiled)",
        "ours-wl = the same with heuristic=None   (win/loss only, as easyAI)",
        "easyAI  = Negamax(d)(game) on easyAI.games.ConnectFour (-100 loss, 0 otherwise; "
        "natural order, no TT)",
        f"easyAI nodes = {EASY_NODE_COUNT}",
        f"times: time.{CLOCK[0].__name__} around the search call, garbage collector off during it "
        f"(as timeit); runs under 50 ms repeated {args.repeat}x, median", "moves 1-indexed; values: W3/L8 = proven win/loss in 3/8 plies, "
        "else the score", "")
    for label, moves, score in POSITIONS:
        s = g.from_moves(moves)
        p = proof_plies(s.moves, score, g.cells)
        side = "X" if g.to_move(s) == 0 else "O"
        expect = ("unknown" if score is None else "draw" if score == 0 else
                  f"{'win' if score > 0 else 'loss'} in {p} plies for the side to move")
        result["positions"].append({"label": label, "moves": moves, "n_moves": s.moves,
                                    "to_move": side, "pons_score": score, "proof_plies": p})
        out(f"  {label:8} {moves or '(none)':22} {s.moves:2} moves, {side} to move, "
            f"Pons score {score if score is not None else '-'}: {expect}")
    header = (f"{'position':8} {'d':>2} | {'ours: mv':>8} {'value':>5} {'ms':>9} {'nodes':>8} "
              f"{'nodes/s':>8} | {'wl: mv':>6} {'value':>5} {'ms':>9} {'nodes':>8} | "
              f"{'easyAI: mv':>10} {'value':>5} {'ms':>10} {'nodes':>8} {'nodes/s':>7} | "
              f"{'E/ours':>7} {'E/wl':>7} | check")
    out("", header, "-" * len(header))
    for label, moves, score in POSITIONS:
        s = g.from_moves(moves)
        p = proof_plies(s.moves, score, g.cells)
        last_easy = None   # (depth, seconds) of easyAI's last run on this position
        for d in args.depths:
            row = equal_depth_row(args, g, s, d, threats, label, last_easy)
            if row.get("easyai"):
                last_easy = (d, row["easyai"]["ms"] / 1000)
            row["check"] = check_row(row, d, p, score)
            result["rows"].append(row)
            out(format_row(row))
        out("")
    summarise_equal_depth(args, result, out)
    return result


def equal_depth_row(args, g, s, d, threats, label, last_easy):
    """One position at one depth: ours, ours with win/loss only, easyAI (unless its previous
    depth took longer than --max-seconds)."""
    row = {"position": label, "depth": d}
    for key, heuristic in (("ours", threats), ("ours_wl", None)):
        r, t, n = timed(lambda: None, lambda _: ours(g, s, d, heuristic), args.repeat)
        row[key] = {"move": g.format_move(r.move), "value": r.value, "ms": t * 1000,
                    "nodes": r.stats.nodes, "nodes_per_s": r.stats.nodes / t, "runs": n,
                    "complete": r.complete}
    if last_easy is not None and last_easy[1] > args.max_seconds:
        row["easyai"] = None
        row["easyai_skipped"] = f"skipped (> {args.max_seconds:g} s at depth {last_easy[0]})"
        return row
    AI_Player, Negamax, EasyC4 = _easyai_classes()

    def setup():
        ai = Negamax(d)
        game = easyai_game(g, s, [AI_Player(ai), AI_Player(ai)], EasyC4)
        _EASY_CALLS[0] = 0
        return ai, game

    def run(arg):
        ai, game = arg
        move = ai(game)           # as easyAI's docs: ai = Negamax(d); ai(game)
        return move, ai.alpha, _EASY_CALLS[0] + 1

    (em, ev, en), te, ne = timed(setup, run, args.repeat)
    row["easyai"] = {"move": g.format_move(int(em)), "value": ev, "ms": te * 1000,
                     "nodes": en, "nodes_per_s": en / te, "runs": ne}
    row["ratio_easyai_ours"] = te / (row["ours"]["ms"] / 1000)
    row["ratio_easyai_ours_wl"] = te / (row["ours_wl"]["ms"] / 1000)
    return row


def summarise_equal_depth(args, result, out):
    out("Summary per depth: geometric mean over the positions easyAI searched of "
        "easyAI ms / our ms")
    out(f"  {'d':>2} {'positions':>9} {'E/ours':>9} {'E/ours-wl':>10} {'ours nodes/s':>13} "
        f"{'wl nodes/s':>11} {'easyAI nodes/s':>15}")
    for d in args.depths:
        rows = [r for r in result["rows"] if r["depth"] == d]
        er = [r for r in rows if r["easyai"]]
        summ = {"depth": d, "positions_with_easyai": len(er),
                "geomean_ratio_easyai_ours": geomean([r["ratio_easyai_ours"] for r in er]),
                "geomean_ratio_easyai_ours_wl": geomean([r["ratio_easyai_ours_wl"] for r in er]),
                # total nodes / total time over all positions at this depth
                "ours_nodes_per_s": (sum(r["ours"]["nodes"] for r in rows)
                                     / sum(r["ours"]["ms"] / 1000 for r in rows)),
                "ours_wl_nodes_per_s": (sum(r["ours_wl"]["nodes"] for r in rows)
                                        / sum(r["ours_wl"]["ms"] / 1000 for r in rows)),
                "easyai_nodes_per_s": (sum(r["easyai"]["nodes"] for r in er)
                                       / sum(r["easyai"]["ms"] / 1000 for r in er)) if er else None}
        result["summary"].append(summ)

        def f(x, w, fmt="{:.1f}x"):
            return f"{'-' if x is None else fmt.format(x):>{w}}"
        out(f"  {d:>2} {len(er):>5}/{len(rows):<3} {f(summ['geomean_ratio_easyai_ours'], 9)} "
            f"{f(summ['geomean_ratio_easyai_ours_wl'], 10)} "
            f"{f(summ['ours_nodes_per_s'], 13, '{:,.0f}')} "
            f"{f(summ['ours_wl_nodes_per_s'], 11, '{:,.0f}')} "
            f"{f(summ['easyai_nodes_per_s'], 15, '{:,.0f}')}")
    problems = [f"{r['position']} d{r['depth']}: {r['check']}" for r in result["rows"]
                if r["check"] != "ok"]
    result["problems"] = problems
    out(f"Checks: {len(result['rows']) - len(problems)} of {len(result['rows'])} rows ok"
        + ("" if not problems else "; PROBLEMS:"), *("  " + x for x in problems))


def check_row(row, d, p, score):
    """Compare the values: ours-wl and easyAI compute the same negamax value at the same depth
    (both prefer quick wins and slow losses), ours with Threats must agree where either is
    proven, and Pons' score says exactly when a result must be proven."""
    issues = []
    o, w = ours_outcome(row["ours"]["value"]), ours_outcome(row["ours_wl"]["value"])
    if not row["ours"]["complete"] or not row["ours_wl"]["complete"]:
        issues.append("incomplete search")
    if (o or w) and o != w:
        issues.append(f"ours {o} != ours-wl {w}")
    if w is None and row["ours_wl"]["value"] != 0:
        issues.append(f"ours-wl value {row['ours_wl']['value']} (expected 0 or proven)")
    if row.get("easyai"):
        e = easy_outcome(row["easyai"]["value"], d)
        if e != w:
            issues.append(f"easyAI {e} != ours-wl {w}")
    if score is not None:
        if score == 0 or d < p:
            exp = None
        else:
            exp = ("W" if score > 0 else "L", p)
        if w != exp:
            issues.append(f"ours-wl {w}, Pons says {exp}")
    return "ok" if not issues else "; ".join(issues)


def format_row(row):
    o, w, e = row["ours"], row["ours_wl"], row.get("easyai")
    text = (f"{row['position']:8} {row['depth']:>2} | {o['move']:>8} "
            f"{show_value(o['value'], ours_outcome(o['value'])):>5} {o['ms']:>9.2f} "
            f"{o['nodes']:>8} {o['nodes_per_s']:>8.0f} | {w['move']:>6} "
            f"{show_value(w['value'], ours_outcome(w['value'])):>5} {w['ms']:>9.2f} "
            f"{w['nodes']:>8} | ")
    if e:
        text += (f"{e['move']:>10} {show_value(e['value'], easy_outcome(e['value'], row['depth'])):>5} "
                 f"{e['ms']:>10.1f} {e['nodes']:>8} {e['nodes_per_s']:>7.0f} | "
                 f"{row['ratio_easyai_ours']:>6.1f}x {row['ratio_easyai_ours_wl']:>6.1f}x | ")
    else:
        text += f"{row['easyai_skipped']:<42} | {'-':>7} {'-':>7} | "
    return text + row["check"]


# -- section 2 ---------------------------------------------------------------------------------

def section_latency(args, out):
    g = Connect4()
    level = LEVELS[DEFAULT_LEVEL]
    settings = {"name": level.name, "algorithm": level.algorithm, "depth": level.depth,
                "time_limit": level.time_limit, "heuristic": level.heuristic_for(g)}
    out("", f"== 2. Default level latency: {args.games} games, both sides "
        f"LEVELS[DEFAULT_LEVEL].play(g, state), first 2-4 moves random (random.Random(i)) ==",
        f"level {settings['name']!r}: algorithm={settings['algorithm']}, "
        f"depth={settings['depth']}, time_limit={settings['time_limit']} s, "
        f"heuristic={settings['heuristic']}")
    times, games, cut = [], [], 0
    depth_hist = {}
    for i in range(args.games):
        rng = random.Random(i)
        s, seq = g.initial_state(), []
        n_random = rng.randint(2, 4)
        for _ in range(n_random):
            m = rng.choice(g.actions(s))
            s, seq = g.result(s, m), seq + [m]
        while not g.is_terminal(s):
            gc.collect()
            t0 = time.perf_counter()
            r = level.play(g, s)
            times.append(time.perf_counter() - t0)
            reached = r.stats.depth
            depth_hist[reached] = depth_hist.get(reached, 0) + 1
            if (not r.complete or (reached < level.depth and r.proven is None
                                   and reached < g.cells - s.moves)):
                cut += 1      # the time limit stopped the deepening before the level's depth
            s, seq = g.result(s, r.move), seq + [r.move]
        winner = g.winner(s)
        games.append({"game": i, "random_moves": n_random, "moves": g.format_moves(seq),
                      "result": "draw" if winner is None else ("X" if winner == 0 else "O")})
    ms = sorted(t * 1000 for t in times)
    stats = {"count": len(ms), "mean": statistics.fmean(ms) if ms else float("nan"),
             "p50": percentile(ms, 0.50), "p95": percentile(ms, 0.95),
             "p99": percentile(ms, 0.99), "max": ms[-1] if ms else float("nan")}
    passed = stats["p95"] <= 100
    results = {k: sum(1 for x in games if x["result"] == k) for k in ("X", "O", "draw")}
    out(f"games: X (who starts) won {results['X']}, O won {results['O']}, draws "
        f"{results['draw']}; AI moves cut short by the time limit: {cut} of {len(ms)}",
        "depth reached per move: " + ", ".join(f"{k}: {v}" for k, v in sorted(depth_hist.items())),
        f"{'moves':>6} {'mean ms':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}",
        f"{stats['count']:>6} {stats['mean']:>8.1f} {stats['p50']:>8.1f} {stats['p95']:>8.1f} "
        f"{stats['p99']:>8.1f} {stats['max']:>8.1f}",
        f"target p95 <= 100 ms: {'PASS' if passed else 'FAIL'} (p95 = {stats['p95']:.1f} ms; "
        "percentiles by linear interpolation)")
    return {"level": settings, "games": games, "latency_ms": stats,
            "moves_cut_by_time_limit": cut,
            "depth_reached": {str(k): v for k, v in sorted(depth_hist.items())},
            "target": "p95 <= 100 ms", "pass": passed}


# -- section 3 ---------------------------------------------------------------------------------

def section_nps(args, out):
    g = Connect4()
    s = g.initial_state()
    h = Threats(g)
    d = args.nps_depth
    runs = [
        ("course: alphabeta order=center", lambda: search("alphabeta", g, s, d, heuristic=h,
                                                          order="center")),
        ("course: alphabeta-tt order=center", lambda: search("alphabeta-tt", g, s, d,
                                                             heuristic=h, order="center")),
        ("fast: alphabeta", lambda: search("alphabeta", g, s, d, fast=True, heuristic=h)),
        ("fast: alphabeta-tt", lambda: search("alphabeta-tt", g, s, d, fast=True, heuristic=h)),
        (f"fast: iterative to depth {d}, no time limit",
         lambda: search("iterative", g, s, d, fast=True, time_limit=None, heuristic=h)),
    ]
    out("", f"== 3. Nodes per second at depth {d} from the empty board (heuristic Threats; "
        "ai.engine.search: the course's algorithms, and fast=True: the fast Connect-4 loop), "
        "and a time budget's promptness ==",
        f"{'algorithm':52} {'move':>4} {'value':>5} {'nodes':>9} {'ms':>9} {'nodes/s':>9}")
    rows = []
    for name, fn in runs:
        r, t, n = timed(lambda: None, lambda _: fn(), args.repeat)
        row = {"algorithm": name, "move": g.format_move(r.move), "value": r.value,
               "nodes": r.stats.nodes, "ms": t * 1000, "nodes_per_s": r.stats.nodes / t,
               "depth": r.stats.depth, "runs": n, "complete": r.complete}
        rows.append(row)
        out(f"{name:52} {row['move']:>4} {row['value']:>5} {row['nodes']:>9} {row['ms']:>9.1f} "
            f"{row['nodes_per_s']:>9,.0f}")
    # A time budget stops the fast loop at its next look at the clock (every 1024 nodes):
    # a 20 ms budget on a search of hours (depth 14 from the empty board), bound 1 s.
    t0 = time.perf_counter()
    stopped = search("alphabeta", g, s, 14, fast=True, heuristic=h, time_limit=0.02)
    spent = time.perf_counter() - t0
    budget = {"time_limit_s": 0.02, "seconds": spent, "complete": stopped.complete,
              "pass": not stopped.complete and spent < 1.0}
    out(f"time budget 20 ms, depth 14 from the empty board: stopped after {spent * 1000:.0f} ms "
        f"(bound 1 s): {'PASS' if budget['pass'] else 'FAIL'}")
    return {"depth": d, "position": "empty", "heuristic": "threats", "rows": rows,
            "budget": budget}


# -- main --------------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Benchmark our Connect-4 search: equal-depth search against easyAI's "
                    "Negamax (section 1), the latency of the default level's move over whole "
                    "games (section 2), nodes per second of each algorithm (section 3).")
    parser.add_argument("--depths", type=depth_range, default=depth_range("2-10"),
                        help="section 1 search depths, a range or a list: 2-10 (default), 4,6,8")
    parser.add_argument("--max-seconds", type=float, default=20.0, metavar="N",
                        help="section 1: skip easyAI at a depth once it took more than N "
                             "seconds at the previous depth of the same position (default 20)")
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help="section 2: number of games played by the default level against "
                             "itself (default 20)")
    parser.add_argument("--nps-depth", type=int, default=8, metavar="D",
                        help="section 3: search depth from the empty board (default 8)")
    parser.add_argument("--repeat", type=int, default=5, metavar="K",
                        help="runs of a search that took under 50 ms, median taken (default 5)")
    parser.add_argument("--sections", default="1,2,3",
                        help="which sections to run, e.g. 1,3 (default 1,2,3)")
    parser.add_argument("--cpu", action="store_true",
                        help="section 1: time each search by this process's CPU time "
                             "(time.process_time), not the wall clock: steadier when other "
                             "work shares the machine")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document instead of the tables")
    args = parser.parse_args(argv)
    try:
        sections = {int(x) for x in args.sections.split(",") if x.strip()}
    except ValueError:
        parser.error(f"--sections: numbers 1, 2, 3 separated by commas, not {args.sections!r}")
    if not sections or not sections <= {1, 2, 3}:
        parser.error(f"--sections: numbers 1, 2, 3 separated by commas, not {args.sections!r}")
    if args.games < 1 or args.nps_depth < 1 or args.repeat < 1 or args.max_seconds <= 0:
        parser.error("--games, --nps-depth, --repeat and --max-seconds must be positive")

    if 1 in sections:
        try:
            _easyai_classes()
        except ImportError as err:
            parser.error(f"section 1 needs easyAI and numpy ({err}): use the project's "
                         "virtualenv (.venv/bin/python), or pip install 'easyAI>=2.0.12' numpy, "
                         "or leave section 1 out with --sections 2,3")

    out = Out(quiet=args.json)
    start = time.perf_counter()
    info = machine_info()
    doc = {"machine": info, "args": {"depths": args.depths, "max_seconds": args.max_seconds,
                                     "games": args.games, "nps_depth": args.nps_depth,
                                     "repeat": args.repeat, "sections": sorted(sections),
                                     "cpu": args.cpu}}
    out(f"machine: {info['platform']}; CPU: {info['cpu'] or '?'} x {info['cpu_count']}; "
        f"Python {info['python']}",
        f"easyAI {info['easyai']}, numpy {info['numpy']}")
    if 1 in sections:
        CLOCK[0] = time.process_time if args.cpu else time.perf_counter
        doc["equal_depth"] = section_equal_depth(args, out)
        CLOCK[0] = time.perf_counter
    if 2 in sections:
        doc["latency"] = section_latency(args, out)
    if 3 in sections:
        doc["nodes_per_second"] = section_nps(args, out)
    doc["total_seconds"] = time.perf_counter() - start
    out("", f"total run time: {doc['total_seconds']:.1f} s")
    if args.json:
        print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
