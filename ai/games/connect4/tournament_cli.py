"""``python -m ai tournament connect4``: a tournament of heuristics and levels on the command
line (``tournament``), registered by this game's ``cli.add_commands``; it returns what to
print, ``(data, lines)``, as every game's command does."""
from __future__ import annotations

from . import tournament as T


def cmd_tournament(args):
    entrants = [T.entrant(text) for text in args.entrant or ()]
    entrants += [T.boss(level) for level in args.level or ()]
    data = T.run(entrants, T.check_depth(args.depth), args.openings, args.max_nodes)
    if getattr(args, "startup_ms", None) is not None:
        data["timing"]["startup_ms"] = args.startup_ms
    lines = ["openings: " + ", ".join(f"{o['moves']} ({'draw' if o['score'] == 0 else o['score']})"
                                      for o in data["openings"])
             + f"  depth: {args.depth}  games: {len(data['games'])}",
             f"{'#':>3} {'name':<20} {'points':>6} {'W-D-L':>9} {'rating':>14}"]
    for r in data["standings"]:
        lines.append(f"{r['rank']:>3} {r['name']:<20} {r['points']:>6} "
                     f"{r['W']}-{r['D']}-{r['L']:<3} {r['rating']:>7} ±{r['rating_error']:<6}")
    lines.append(f"time: {data['timing']['total_ms'] / 1000:.1f} s "
                 f"({data['timing']['games_per_second']} games a second)")
    return data, lines


def add_command(sub) -> None:
    p = sub.add_parser(
        "tournament", help="a Connect-4 tournament of heuristics and levels: standings, "
                           "crosstable, every game",
        description="A double round robin: every entrant plays every other with both colours "
                    "from each of the openings the exact solver scores balanced (draws first). "
                    "Every heuristic searches with the same alpha-beta to the same depth (and "
                    "node budget): counts, never the clock, so the JSON is the same on every "
                    "run but its timing. A level entered as a boss plays as the app plays it "
                    "and is named by its level. Standings: points (win 1, draw 1/2), W-D-L, a "
                    "Bradley-Terry rating with its standard error; ties broken by head-to-head, "
                    "then rating.")
    p.add_argument("game", choices=("connect4",), help="the game (connect4)")
    p.add_argument("--entrant", action="append", metavar="NAME:WEIGHTS",
                   help="an entrant: its name, a colon, weights of the named terms, e.g. "
                        '"Ada:cells=1,open3=8" (repeat for each)')
    p.add_argument("--level", action="append", metavar="LEVEL",
                   help="a level as a boss, named by its level: beginner, easy, medium, hard, "
                        "expert (repeat for each)")
    p.add_argument("--depth", type=int, default=4,
                   help=f"the plies every heuristic looks ahead, 1-{T.MAX_DEPTH} (default 4)")
    p.add_argument("--max-nodes", type=int, help="also a node budget for each move")
    p.add_argument("--openings", type=int, default=2,
                   help=f"how many balanced openings, 1-{T.MAX_OPENINGS} (default 2)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: settings, entrants, openings, standings, crosstable, "
                        "games, timing: the only measured times)")
    p.set_defaults(func=cmd_tournament)
