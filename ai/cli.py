"""``python -m ai``: count game trees, print seed 000's Nim dictionary, search a position,
solve a Connect-4 position exactly, analyse every column of one. Every subcommand has ``--help``; ``--json`` prints one
JSON object; bad input prints a one-line error and exits with status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys

from ai.games.connect4.rules import Connect4
from .engine import ALGORITHMS, search
from ai.teach.exercise_tree import ExerciseTree
from ai.course.game import play
from .heuristics import make_heuristic
from .levels import LEVELS
from ai.games.nim.rules import Nim, VARIANTS
from ai.games.nim.tree import course_tree, nim_tree_size
from ai.course.search import minimax

MAX_FULL_TREE_NODES = 5_000_000  # enumerating more than this is refused (use count's formula)
DEFAULT_TIME_LIMIT = 10.0        # seconds: every CLI search is bounded unless told otherwise


class UsageError(Exception):
    pass


def _nim(args) -> Nim:
    return Nim(args.n, args.k, args.variant)


def _game(args):
    if args.game == "connect4":
        return Connect4(args.width, args.height)
    if args.game == "nim":
        return _nim(args)
    if args.game == "tree":
        if not args.tree:
            raise UsageError("the tree game needs --tree, e.g. --tree '[[3,12,8],[2,4,6],[14,5,2]]'")
        return ExerciseTree(args.tree, args.root)
    raise UsageError(f"unknown game {args.game!r}: connect4, nim or tree")


def _state(game, moves: str):
    """The position after ``moves``; ai.course.game.play names the first illegal one."""
    if isinstance(game, Connect4):
        return game.from_moves(moves)
    if isinstance(game, Nim):
        return play(game, game.parse_moves(moves))
    return play(game, [game.parse_move(ch) for ch in moves or ""])


def _move_json(game, move):
    """A move as JSON: a Connect-4 column 1-indexed, a Nim take as its count, a tree child
    1-indexed."""
    if move is None:
        return None
    if isinstance(game, Nim):
        return move
    return move + 1


def _order(text):
    if text is None or text in ("natural", "reverse", "center"):
        return text
    try:
        return tuple(int(x) for x in text.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(f"--order is natural, reverse, center or a list like 3,2,1; not {text!r}") from None


def _emit(args, data: dict, lines: list[str]):
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))


# -- subcommands -------------------------------------------------------------------------------

def cmd_count(args):
    if args.game == "nim":
        game = _nim(args)
        nodes = nim_tree_size(game.n, game.k)
        data = {"game": "nim", "n": game.n, "k": game.k, "variant": game.variant, "nodes": nodes}
        if args.enumerate:
            if nodes > MAX_FULL_TREE_NODES:
                raise UsageError(f"the full tree has {nodes:,} nodes: too large to enumerate "
                                 f"(at most {MAX_FULL_TREE_NODES:,}); drop --enumerate")
            r = minimax(game)
            data["enumerated"] = r.stats.nodes
            data["value"] = r.value
    elif args.game == "tree":
        if not args.tree:
            raise UsageError("count tree needs --tree '[[3,12,8],[2,4,6]]'")
        game = ExerciseTree(args.tree)
        nodes = game.size()
        data = {"game": "tree", "nodes": nodes, "leaves": game.leaf_count()}
    else:
        raise UsageError("count works on nim (any n: counted by formula) and tree; "
                         "a Connect-4 game tree is far too large to count this way")
    _emit(args, data, [f"{k}: {v}" for k, v in data.items()])


def cmd_nim_dict(args):
    tree = course_tree(args.n, args.k)
    if args.json:
        print(json.dumps(tree))
    else:
        print(f"Dictionnaire de l'arbre : {tree}")


def cmd_search(args):
    game = _game(args)
    state = _state(game, args.moves)
    r = _search(args, game, state)
    data = {"game": game.name, "level": args.level, "algorithm": r.algorithm,
            "move": _move_json(game, r.move), "value": r.value, "proven": r.proven,
            "pv": [_move_json(game, m) for m in r.pv], "complete": r.complete,
            **r.stats.as_dict()}
    if r.tree is not None:
        data["explored"] = r.tree.explored
        data["pruned"] = r.tree.pruned_count
    whole = r.depth is None and r.algorithm != "iterative"
    lines = [f"move: {data['move']}", f"value: {r.value}"
             + (f" (proven {'win' if r.proven > 0 else 'loss'} in {r.plies_to_end} plies)" if r.proven else ""),
             f"principal variation: {' '.join(str(m) for m in data['pv'])}",
             f"nodes: {r.stats.nodes}  leaves: {r.stats.leaves}  cut-offs: {r.stats.cutoffs}  "
             f"table probes: {r.stats.tt_probes}  hits: {r.stats.tt_hits}",
             f"depth: {'to the end' if whole else r.stats.depth}  time: {r.stats.elapsed * 1000:.1f} ms"
             + ("" if r.complete else "  (budget ran out: incomplete)")]
    if r.tree is not None:
        # "Seuls 9 sommets sur 28 sont explorés": out of the whole tree below the position.
        total = None
        if isinstance(game, ExerciseTree):
            total = game.size()
        elif isinstance(game, Nim):
            total = nim_tree_size(state.remaining, game.k)
        lines.append(f"explored {r.tree.explored} nodes" + (f" of {total}" if total else "")
                     + f", {r.tree.pruned_count} pruned subtrees")
    _emit(args, data, lines)


_SEARCH_FLAGS = ("algorithm", "depth", "full", "time", "max_nodes", "heuristic", "window",
                 "order", "flat_scores", "random", "seed", "fast")


def _search(args, game, state):
    """The search the arguments ask for: a level's, as the app plays it, or the algorithm and
    settings given (the course's algorithms unless ``--fast``)."""
    if args.level:
        given = [f"--{name.replace('_', '-')}" for name in _SEARCH_FLAGS
                 if getattr(args, name) not in (None, False)]
        if given:
            raise UsageError(f"--level sets the whole search: leave out {', '.join(given)}")
        return LEVELS[args.level].play(game, state, record=args.record)
    algorithm = args.algorithm or "alphabeta"
    if args.depth is None and args.time is None and algorithm != "iterative" and not args.full:
        raise UsageError("give --depth N, --time SECONDS (iterative), --full to search to the "
                         "end, or --level NAME")
    time_limit = args.time if args.time is not None else (
        0.3 if algorithm == "iterative" else DEFAULT_TIME_LIMIT)
    return search(algorithm, game, state, None if args.full else args.depth, fast=args.fast,
                  heuristic=make_heuristic(game, args.heuristic), order=_order(args.order),
                  window=args.window or "infinite", quick_wins=not args.flat_scores,
                  tie_break="random" if args.random else "first", seed=args.seed,
                  max_nodes=args.max_nodes, time_limit=time_limit, record=args.record)


def cmd_solve(args):
    if args.game != "connect4":
        raise UsageError("solve works on connect4 (Nim is solved by its theory: see count)")
    from ai.games.connect4.solver import solve
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
    _emit(args, data, lines)


def cmd_analyse(args):
    if args.game != "connect4":
        raise UsageError("analyse works on connect4 (Nim is solved by its theory: see count)")
    from ai.games.connect4.analysis import analyse, outcome, store_at
    from ai.games.connect4.solved_store import default_path
    store = None if args.no_store else store_at(args.store or default_path())
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
    _emit(args, data, lines)


# -- the parser --------------------------------------------------------------------------------

def _add_game_options(p, games=("connect4", "nim", "tree")):
    p.add_argument("game", choices=games, help="which game")
    g = p.add_argument_group("game settings")
    g.add_argument("--n", type=int, default=21, help="Nim: matches at the start (default 21)")
    g.add_argument("--k", type=int, default=3, help="Nim: most matches one may take (default 3)")
    g.add_argument("--variant", choices=VARIANTS, default="normal",
                   help="Nim: normal (who takes the last match wins) or misere (loses)")
    g.add_argument("--width", type=int, default=7, help="Connect-4: columns, 4-9 (default 7)")
    g.add_argument("--height", type=int, default=6, help="Connect-4: rows, 4-9 (default 6)")
    g.add_argument("--tree", help="tree: nested lists of leaf values, e.g. '[[3,12,8],[2,4,6]]'")
    g.add_argument("--root", choices=("max", "min"), default="max", help="tree: who is at the root")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ai",
        description="minimax-lab's search engine from the command line.",
        epilog="Examples: python -m ai count nim --n 20 | python -m ai nim-dict 4 | "
               "python -m ai search connect4 --moves 4453 --depth 6 | "
               "python -m ai solve connect4 4453 | python -m ai analyse connect4 4453 --json")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("count", help="count the nodes of a whole game tree",
                       description="Count the nodes (root and leaves included) of the whole game "
                                   "tree of Nim (by the formula T(n) = 1 + T(n-1) + ... + T(n-k)) "
                                   "or of an explicit tree.")
    _add_game_options(p, ("nim", "tree"))
    p.add_argument("--enumerate", action="store_true",
                   help="Nim: also walk the tree with full minimax and report its value")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_count)

    p = sub.add_parser("nim-dict", help="print seed 000's dictionary form of the Nim tree",
                       description="Print constrarbreNIM(N, {}, 0, 0) of seed 000, Listing VIII.1.")
    p.add_argument("n", type=int, help="matches at the start (0 to 14)")
    p.add_argument("--k", type=int, default=3, help="most matches one may take (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_nim_dict)

    p = sub.add_parser("search", help="search a position and print the move, value and stats",
                       description="Search a position with one of the course's algorithms. "
                                   "Connect-4 moves are 1-indexed columns (--moves 4453); Nim "
                                   "moves are the matches taken (--moves 312); tree moves are "
                                   "1-indexed children.")
    _add_game_options(p)
    p.add_argument("--moves", default="", help="moves played from the start")
    p.add_argument("--level", choices=list(LEVELS),
                   help="play a level as the app does (its algorithm, depth, heuristic, "
                        "budgets and the fast Connect-4 loop); no other search option then")
    p.add_argument("--algorithm", choices=list(ALGORITHMS),
                   help="minimax, alphabeta, alphabeta-tt (transposition table), iterative "
                        "(iterative deepening under --time); default alphabeta")
    p.add_argument("--fast", action="store_true",
                   help="Connect-4: the specialised loop (ai.games.connect4.fast_search) where it gives the "
                        "same values: faster, and fewer nodes than the course's algorithms")
    p.add_argument("--depth", type=int, help="plies to look ahead (iterative: the most)")
    p.add_argument("--full", action="store_true", help="search to the end of the game")
    p.add_argument("--time", type=float, help="time budget in seconds (iterative: default 0.3; "
                                              f"others: {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--max-nodes", type=int, help="node budget")
    p.add_argument("--heuristic", help="Connect-4: threats (default), cells (seed 000), adjusted "
                                       "(seed 004); Nim: course (seed 003, default), exact")
    p.add_argument("--window",
                   help="initial alpha-beta window: infinite (default) or course ([-maxScore, +maxScore], seed 003)")
    p.add_argument("--order", help="move order: natural, reverse, center, or a list like 3,2,1")
    p.add_argument("--flat-scores", action="store_true",
                   help="score every win +maxScore (the seeds) instead of preferring quick wins")
    p.add_argument("--random", action="store_true", help="break ties between equal moves at random")
    p.add_argument("--seed", type=int, help="random seed for --random")
    p.add_argument("--record", "--tree-size", action="store_true", dest="record",
                   help="record the tree of the search and print its explored/pruned counts")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: move, value, nodes, pv, leaves, cutoffs, ...)")
    p.set_defaults(func=cmd_search)

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
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except (ValueError, UsageError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
