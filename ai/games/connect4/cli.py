"""Connect-4 on the command line (``ai.cli`` finds this module by the game's folder): its
settings (``--width``, ``--height``) and its own subcommands, ``solve`` (one position, exactly,
Pascal Pons' score), ``analyse`` (every column's exact score), ``accuracy`` (how good a
heuristic is, refereed by the solver: ``accuracy``); ``python -m ai tournament connect4`` is
the shared command (``ai.tournament_cli``) on this game's openings. A subcommand returns what
to print, ``(data, lines)``, and ``ai.cli`` prints it: this folder does not import the
command line."""
from __future__ import annotations

from .rules import Connect4

MOVES = "columns 1-indexed (--moves 4453)"
EXAMPLES = ("python -m ai search connect4 --moves 4453 --depth 6",
            'python -m ai search connect4 --moves 4453 --depth 4 --heuristic "cells=1,open3=8"',
            'python -m ai accuracy connect4 --heuristic "cells=1" --depth 4 --json',
            "python -m ai solve connect4 4453", "python -m ai analyse connect4 4453 --json",
            'python -m ai tournament connect4 --entrant "Ada:cells=1,open3=8" --entrant '
            '"Bob:open2=4,open3=16" --level beginner --depth 4 --openings 2 --json')


def add_arguments(group) -> None:
    group.add_argument("--width", type=int, default=7, help="Connect-4: columns, 4-9 (default 7)")
    group.add_argument("--height", type=int, default=6, help="Connect-4: rows, 4-9 (default 6)")


def from_args(args) -> Connect4:
    return Connect4(args.width, args.height)


def describe(game: Connect4) -> dict:
    return {"width": game.width, "height": game.height}


def cmd_solve(args):
    from .exact import solve
    r = solve(args.moves, args.width, args.height, weak=args.weak,
              max_nodes=args.max_nodes, time_limit=args.time)
    data = {"game": "connect4", "moves": args.moves, "score": r.score,
            "lower": r.lower, "upper": r.upper,
            "move": None if r.best_move is None else r.best_move + 1,
            "nodes": r.nodes, "elapsed_ms": round(r.elapsed * 1000, 3), "complete": r.complete}
    if r.complete:
        verdict = "draw" if r.score == 0 else ("the side to move wins" if r.score > 0
                                               else "the side to move loses")
        first = f"score: {r.score} ({verdict})"
    else:
        # The budget ran out: what is proven is an interval, not a score.
        first = (f"score: not proven within the budget; it lies between {r.lower} and {r.upper}"
                 " (give more --time, or a position further into the game)")
    lines = [first, f"best move: {data['move']}" + ("" if r.complete else " (the best found)"),
             f"nodes: {r.nodes}  time: {r.elapsed * 1000:.1f} ms"]
    return data, lines


def cmd_analyse(args):
    from .exact import analyse, default_store_path, outcome, store_at
    store = None if args.no_store else store_at(args.store or default_store_path())
    a = analyse(args.moves, args.width, args.height, time_limit=args.time,
                max_nodes=args.max_nodes, best_only=args.best_only, store=store,
                use_book=not args.no_book)
    data = a.as_dict()
    cells = args.width * args.height
    lines = []
    for col in a.columns:
        if col is None:
            continue
        if col.exact:
            kind, k = outcome(col.score, a.plies, cells)
            words = {"win": f"a win in {k} moves of the mover, this one included",
                     "loss": f"a loss in {k} moves of the opponent",
                     "draw": "draw"}[kind]
            text = f"{col.score:+d} ({words})" if col.score else "0 (draw)"
        else:
            text = f"between {col.lower} and {col.upper} (not proven within the budget)"
        lines.append(f"column {col.column + 1}: {text}"
                     + (f"  [{col.source}" + (f", {col.nodes} nodes]" if col.nodes else "]")
                        if col.source else ""))
    lines.append(f"best move: {data['best_move']} (known after {a.best_elapsed * 1000:.1f} ms)"
                 if a.best_move is not None else "best move: not proven within the budget")
    lines.append(f"nodes: {a.nodes}  time: {a.elapsed * 1000:.1f} ms"
                 + ("" if a.complete else "  (budget ran out: some columns are intervals)"))
    if store is not None and store.error:
        lines.append(f"note: the table of solved positions is off ({store.error})")
    return data, lines


def cmd_accuracy(args):
    """How good is a heuristic: its move at ``--depth`` on each position, judged by the exact
    solver (``accuracy``)."""
    from . import accuracy
    from .terms import LEVEL_WEIGHTS, parse
    text = args.heuristic
    weights = LEVEL_WEIGHTS[text] if text in LEVEL_WEIGHTS else parse(text)
    positions = accuracy.load_positions(args.positions) if args.positions else None
    r = accuracy.measure(weights, accuracy.check_depth(args.depth), positions)
    data = r.as_dict()
    data["positions_file"] = args.positions or "workshop"
    lines = [f"heuristic: {r.heuristic}  depth: {r.depth}",
             f"accuracy: {r.accuracy:.1%} ({sum(c.kept for c in r.choices)} of {r.positions} "
             "positions: the move keeps the exact value)",
             f"blunders: {r.blunders} of {r.positions} (a win thrown to a draw or a loss, a "
             "draw to a loss)"]
    for c in r.worst(5):
        lines.append(f"  after {c.position.moves or '-'}: plays {c.move + 1}, scores {c.score:+d}"
                     f" where {c.position.score:+d} was possible"
                     + (" (blunder)" if c.blunder else ""))
    return data, lines


def load() -> None:
    """Load what the engines read before a command's work starts (``ai.cli``: no budget
    counts it): the opening book's table (built once, 0.3-0.6 s, then mapped from where it
    was saved: ``exact.opening_book.shared``) and the levels' compiled search. The exact
    solver's machine code loads at its first call (~15 ms)."""
    from . import compiled_search
    from .exact import opening_book
    opening_book.shared()
    compiled_search.warm_up(Connect4())


def write_level_book(level, max_ply: int | None = None) -> str:
    """Search and store ``level``'s first replies on 7x6 (``ai.games.connect4.level_book``;
    ``python -m ai level-book connect4``): the level is handed in by ``ai.cli``."""
    from . import level_book
    return level_book.write(level, Connect4(), level_book.MAX_PLY if max_ply is None else max_ply)


def add_commands(sub) -> None:
    p = sub.add_parser("solve", help="solve a Connect-4 position exactly (Pascal Pons' score)",
                       description="Solve a Connect-4 position exactly. The score is Pascal Pons': "
                                   "0 a draw; positive when the side to move wins, 22 minus the "
                                   "number of stones the winner will have played (on 7x6); "
                                   "negative when it loses.")
    p.add_argument("game", choices=("connect4",), help="the game (connect4)")
    p.add_argument("moves", nargs="?", default="", help="1-indexed columns played, e.g. 4453")
    p.add_argument("--width", type=int, default=7, help="columns, 4-9 (default 7)")
    p.add_argument("--height", type=int, default=6, help="rows, 4-9 (default 6)")
    p.add_argument("--weak", action="store_true", help="only win, draw or loss (faster)")
    p.add_argument("--time", type=float, default=60.0,
                   help="time budget in seconds (default 60)")
    p.add_argument("--max-nodes", type=int, help="node budget")
    p.add_argument("--json", action="store_true", help="print JSON (keys: score, move, nodes, ...)")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="every column's exact score in a Connect-4 position",
                       description="The exact score of every column (Pascal Pons' convention, "
                                   "for the side to move: 0 a draw, positive a win, 22 minus the "
                                   "winner's stones on 7x6), from the opening book (12 stones, "
                                   "7x6), the table of solved positions, or the compiled "
                                   "solver; the best move is found first. Bounded by --time.")
    p.add_argument("game", choices=("connect4",), help="the game (connect4)")
    p.add_argument("moves", nargs="?", default="",
                   help="1-indexed columns played, e.g. 4453; '' or - for the empty board")
    p.add_argument("--width", type=int, default=7, help="columns, 4-9 (default 7)")
    p.add_argument("--height", type=int, default=6, help="rows, 4-9 (default 6)")
    p.add_argument("--time", type=float, default=60.0,
                   help="time budget in seconds for the whole analysis (default 60)")
    p.add_argument("--max-nodes", type=int, help="node budget for the whole analysis")
    p.add_argument("--best-only", action="store_true",
                   help="stop once the best move and the position's score are known")
    p.add_argument("--no-book", action="store_true", help="do not use the opening book")
    p.add_argument("--store", help="the SQLite table of solved positions (default: "
                                   "$MINIMAX_SOLVED_DB, else instance/solved.sqlite3)")
    p.add_argument("--no-store", action="store_true",
                   help="neither read nor write the table of solved positions")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: scores, intervals, sources, best_move, score, "
                        "complete, nodes, elapsed_ms, best_ms)")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("accuracy", help="how good is a Connect-4 heuristic: the share of "
                                        "positions where its move keeps the exact value",
                       description="The depth-limited alpha-beta with the heuristic chooses a "
                                   "move in each position; the exact solver says whether it "
                                   "keeps the position's exact value (accuracy) or worsens the "
                                   "outcome (a blunder: a win thrown to a draw or a loss, a "
                                   "draw to a loss). Default positions: the heuristic "
                                   "workshop's 240, from real games (early, middle, late), "
                                   "labelled once (ai/games/connect4/data/"
                                   "workshop-positions.txt).")
    p.add_argument("game", choices=("connect4",), help="the game (connect4)")
    p.add_argument("--heuristic", required=True,
                   help="weights of the named terms, e.g. cells=1,open3=8 (terms: cells, "
                        "adjusted, open1, open2, open3, center, threats, immediate, oddeven; "
                        "alpha=0.2 sets adjusted's coefficient), or a level's heuristic by "
                        "name: threats, cells")
    p.add_argument("--depth", type=int, default=4, help="plies the search looks ahead, 1-8 "
                                                        "(default 4)")
    p.add_argument("--positions", help="a file of positions, one a line as the app's links "
                                       "write moves (4453), or MOVES SCORE S1..S7 with their "
                                       "exact scores; positions without are solved first")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: accuracy, blunders, blunder_rate, positions, "
                        "heuristic, depth, choices: each position's moves, chosen move, its "
                        "score, the best score, kept, blunder)")
    p.set_defaults(func=cmd_accuracy)
