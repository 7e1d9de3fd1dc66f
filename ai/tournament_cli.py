"""``python -m ai tournament GAME``: a tournament of heuristics and levels on the command line
(``ai.teach.tournament``), for every game whose rules hold tournaments (their
``tournament_openings``); ``ai.cli`` registers it and prints what it returns, ``(data,
lines)``, as every command's."""
from __future__ import annotations

from ai import games
from ai.teach import pairing
from ai.teach import tournament as T


def tournament_games() -> list[str]:
    """The games whose rules give tournament openings."""
    return [n for n in games.names() if games.load(n).Rules().holds_tournaments]


def cmd_tournament(args):
    game = games.load(args.game).Rules()
    entrants = [T.entrant(game, text) for text in args.entrant or ()]
    entrants += [T.boss(level) for level in args.level or ()]
    data = T.run(game, entrants, T.check_depth(args.depth), args.openings, args.max_nodes,
                 schedule=args.schedule.replace("-", " "), rounds=args.rounds)
    if getattr(args, "startup_ms", None) is not None:
        data["timing"]["startup_ms"] = args.startup_ms
    lines = ["openings: " + ", ".join(f"{o['moves']} ({'draw' if o['score'] == 0 else o['score']})"
                                      for o in data["openings"])
             + f"  depth: {args.depth}  games: {len(data['games'])}  "
             + data["settings"]["schedule"]
             + (f" ({data['settings']['rounds']} rounds)" if "rounds" in data["settings"] else ""),
             f"{'#':>3} {'name':<20} {'points':>6} {'W-D-L':>9} {'rating':>14}"]
    for r in data["standings"]:
        lines.append(f"{r['rank']:>3} {r['name']:<20} {r['points']:>6} "
                     f"{r['W']}-{r['D']}-{r['L']:<3} {r['rating']:>7} ±{r['rating_error']:<6}")
    lines.append(f"time: {data['timing']['total_ms'] / 1000:.1f} s "
                 f"({data['timing']['games_per_second']} games a second)")
    return data, lines


def cmd_worker(args):
    from ai.teach import queue
    where = args.url or queue.url()
    if not where:
        raise ValueError("a tournament worker needs the queue's Redis: --url or REDIS_URL")
    for name in tournament_games():             # the games' compiled code, loaded once
        load = games.cli_hook(name, "load")
        if load:
            load()
    queue.work(where, args.name, args.burst)


def add_command(sub) -> None:
    held = tournament_games()
    p = sub.add_parser(
        "tournament", help="a tournament of heuristics and levels: standings, crosstable, "
                           "every game (" + ", ".join(held) + ")",
        description="A double round robin up to 45 entrants (a class of 40 and the five "
                    "bosses), a Swiss system beyond: every pair that meets plays both colours "
                    "from each of the game's openings its exact play scores balanced (draws "
                    "first). Every heuristic searches with the same alpha-beta to the same "
                    "depth (and node budget): counts, never the clock, so the JSON is the same "
                    "on every run but its timing. A level entered as a boss plays as the app "
                    "plays it and is named by its level. Standings: points (win 1, draw 1/2), "
                    "W-D-L, a Bradley-Terry rating with its standard error; ties broken by "
                    "head-to-head, then rating.")
    p.add_argument("game", choices=held, help="the game: " + ", ".join(held))
    p.add_argument("--entrant", action="append", metavar="NAME:WEIGHTS",
                   help="an entrant: its name, a colon, weights of the game's named terms, "
                        'e.g. "Ada:cells=1" (repeat for each)')
    p.add_argument("--level", action="append", metavar="LEVEL",
                   help="a level as a boss, named by its level: beginner, easy, medium, hard, "
                        "expert (repeat for each)")
    p.add_argument("--depth", type=int, default=4,
                   help="the plies every heuristic looks ahead (default 4; the game may allow "
                        f"fewer than {T.MAX_DEPTH})")
    p.add_argument("--max-nodes", type=int, help="also a node budget for each move")
    p.add_argument("--openings", type=int, default=2,
                   help="how many balanced openings (default 2)")
    p.add_argument("--schedule", choices=("auto", "round-robin", "swiss"), default="auto",
                   help="auto (default): a double round robin up to "
                        f"{pairing.ROUND_ROBIN_MAX} entrants, a Swiss system beyond; or either")
    p.add_argument("--rounds", type=int,
                   help="a Swiss system's rounds (default ceil(log2 entrants) + 2)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: game, settings, entrants, openings, standings, "
                        "crosstable, games, timing: the only measured times; a Swiss "
                        "system's also byes, and each game its round)")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser(
        "tournament-worker", help="play tournaments' games from a Redis queue (RQ), for "
                                  "python -m ai tournament run with REDIS_URL elsewhere",
        description="An RQ worker (SimpleWorker: no fork a job) on the queue 'tournament' of "
                    "the Redis at --url or REDIS_URL: it plays the batches of games that "
                    "python -m ai tournament (or the app) puts there when REDIS_URL is set "
                    "and a worker listens; the results are the same as in one process. Run "
                    "as many as there are cores, on any machine that reaches the Redis. "
                    "Stops on Ctrl-C (after its batch) or, with --burst, when the queue is "
                    "empty.")
    p.add_argument("--url", help="the Redis, e.g. redis://10.0.0.5:6379/0 (default: "
                                 "REDIS_URL)")
    p.add_argument("--name", help="the worker's name (default: RQ's, unique)")
    p.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    p.set_defaults(func=cmd_worker)
