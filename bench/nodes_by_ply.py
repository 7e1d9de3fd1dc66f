#!/usr/bin/env python3
"""Node counts of the exact solver by ply (deterministic: no timing), for the work on its
search (issue 24, "reduce the nodes").

Positions: ``bench_analysis.game_positions(GAMES)`` (plies 0-20), cached in a JSON file
(``--positions``, default /tmp/c4_positions.json) so that a change of the levels that play
those games does not change the positions measured. For each ply, the total nodes of

- ``solve``: ``FastSolver(book=opening_book.shared()).solve(moves)``, table reset before each;
- ``analyse``: ``analysis.analyse(moves, store=None, fresh=True, time_limit=None).nodes``
  (every column's score).

Run from the repository root: ``python bench/nodes_by_ply.py [--json out.json]
[--compare before.json]``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "bench")):
    if p not in sys.path:
        sys.path.insert(0, p)

from ai.games.connect4.exact import analysis, opening_book  # noqa: E402
from ai.games.connect4.exact.solver_fast import FastSolver  # noqa: E402

GAMES = 20


def positions(path: str) -> dict[int, list[str]]:
    if os.path.exists(path):
        with open(path) as f:
            return {int(k): v for k, v in json.load(f).items()}
    from bench_analysis import game_positions
    pos = game_positions(GAMES)
    with open(path, "w") as f:
        json.dump(pos, f)
    return pos


def measure(pos: dict[int, list[str]], parts=("solve", "analyse")) -> dict:
    book = opening_book.shared()
    solver = FastSolver(book=book)
    out = {}
    for ply, games in sorted(pos.items()):
        row = {"n": len(games)}
        if "solve" in parts:
            tot = 0
            scores = []
            for moves in games:
                solver.reset()
                r = solver.solve(moves)
                tot += r.nodes
                scores.append(r.score)
            row["solve"], row["scores"] = tot, scores
        if "analyse" in parts:
            tot = 0
            cols = []
            for moves in games:
                a = analysis.analyse(moves, store=None, fresh=True, time_limit=None)
                tot += a.nodes
                cols.append(a.scores)
            row["analyse"], row["columns"] = tot, cols
        out[ply] = row
        print(ply, row["n"], row.get("solve"), row.get("analyse"), flush=True, file=sys.stderr)
    return out


def pons(sets: list[str], limit: int | None) -> dict:
    """Mean nodes and wrong scores on Pons' sets ("L1_R2+book": with the 12-ply book)."""
    from bench_solver import load
    data = os.path.join(ROOT, "bench", "data")
    out = {}
    for name in sets:
        base, _, with_book = name.partition("+")
        solver = FastSolver(book=opening_book.shared() if with_book else None)
        nodes = wrong = 0
        rows = load(base, data, limit)
        for moves, expected in rows:
            solver.reset()
            r = solver.solve(moves)
            nodes += r.nodes
            wrong += r.score != expected
        out[name] = {"positions": len(rows), "mean_nodes": nodes / len(rows), "wrong": wrong}
        print(name, out[name], flush=True)
    return out


def table(after: dict, before: dict | None) -> str:
    lines = []
    if before is None:
        lines.append("| ply | n | solve nodes | analyse nodes |")
        lines.append("|---:|---:|---:|---:|")
    else:
        lines.append("| ply | n | solve before | solve after | ratio | analyse before | "
                     "analyse after | ratio |")
        lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
    tb = ta = sb = sa = 0
    for ply in sorted(after, key=int):
        a = after[ply]
        if before is None:
            lines.append(f"| {ply} | {a['n']} | {a['solve']:,} | {a['analyse']:,} |")
            continue
        b = before[ply]
        assert b.get("scores") == a.get("scores"), f"ply {ply}: scores differ"
        assert b.get("columns") == a.get("columns"), f"ply {ply}: columns differ"
        sb += b["solve"]; sa += a["solve"]; tb += b["analyse"]; ta += a["analyse"]
        lines.append(f"| {ply} | {a['n']} | {b['solve']:,} | {a['solve']:,} | "
                     f"{a['solve'] / max(1, b['solve']):.2f} | {b['analyse']:,} | "
                     f"{a['analyse']:,} | {a['analyse'] / max(1, b['analyse']):.2f} |")
    if before is not None:
        lines.append(f"| all | | {sb:,} | {sa:,} | {sa / sb:.2f} | {tb:,} | {ta:,} | "
                     f"{ta / tb:.2f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", default="/tmp/c4_positions.json")
    ap.add_argument("--json", help="write the counts here")
    ap.add_argument("--compare", help="counts of an earlier run (--json) to compare with")
    ap.add_argument("--plies", help="e.g. 0-10")
    ap.add_argument("--pons", help="Pons' sets instead, e.g. L3_R1,L2_R1,L2_R2,L1_R2+book")
    ap.add_argument("--limit", type=int, help="first N positions of each set")
    args = ap.parse_args()
    if args.pons:
        res = pons(args.pons.split(","), args.limit)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(res, f)
        return
    pos = positions(args.positions)
    if args.plies:
        a, _, b = args.plies.partition("-")
        pos = {p: v for p, v in pos.items() if int(a) <= p <= int(b or a)}
    res = measure(pos)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f)
    before = None
    if args.compare:
        with open(args.compare) as f:
            before = {int(k): v for k, v in json.load(f).items()}
        res = {p: v for p, v in res.items()}
        before = {p: before[p] for p in res}
    print(table(res, before))


if __name__ == "__main__":
    main()
