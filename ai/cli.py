"""``python -m ai``: count game trees, search a position, and each game's own commands. Every
subcommand has ``--help``; ``--json`` prints one JSON object; bad input prints a one-line error
and exits with status 2, never a traceback. Moves are read and written by the game's own
methods (``parse_moves``, ``format_move``, ``move_json``), so any move format works (a
column, a count, a heap and a count).

The games are found by their folders (``ai.games``): ``python -m ai count <name>`` works for
every ``ai/games/<name>/``, and this module names none of them. A game's package may add a
``cli`` module (``ai/games/<name>/cli.py``) with any of:

- ``add_arguments(group)``   its settings' options (an option of the same name as another
                             game's is defined once, and sets both: ``--variant``);
- ``from_args(args)``        its rules built from them (default: the rules class, no argument);
- ``describe(game)``         its settings, as ``count``'s JSON gives them;
- ``whole_tree(game, state)``  the nodes of its whole game tree from ``state``, when countable
                             (``count``, and ``search``'s "explored N of M");
- ``count_details(game, state)``  more numbers for ``count`` (a dict);
- ``add_commands(sub)``      subcommands of its own (an exact solver's, a course listing's);
                             each returns ``(data, lines)`` and this module prints them
                             (``emit``): a game's folder never imports the command line;
- ``write_level_book(level, max_ply)``  search and store a level's first replies (its book,
                             ``level-book``), the ``Level`` handed in; returns what it did;
- ``load()``                 load what its engines read (a book, compiled code) before the
                             work starts (below);
- ``MOVES``                  how ``--moves`` writes its moves, for the help;
- ``EXAMPLES``               command lines for the help's epilog.

``tree`` is not a game but the course's explicit trees (``ai.teach.exercise_tree``, ``--tree
'[[3,12,8],[2,4,6]]'``), searched and counted like one.

**Start-up is not work.** Before a command's work starts, the game's ``load`` hook loads what
its engines read (an opening book's table, the machine code of compiled searches),
so that no time budget (``--time``: a search's, ``review``'s 10 s) and no ``elapsed_ms``
counts it. The JSON of a command that reports ``elapsed_ms`` also gives ``startup_ms``: from
the start of ``python -m ai`` (``__main__``) to the start of the work, imports and loading
included. A result a budget stopped says so (``"complete": false``) and why
(``"stopped_by"``: ``"time budget"`` or ``"node budget"``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from ai import games
from ai.course.game import play
from ai.course.search import alphabeta, alphabeta_tt, minimax
from ai.teach.exercise_tree import ExerciseTree

from .engine import ALGORITHMS, search
from .heuristics import heuristics_for, make_heuristic
from .levels import DEFAULT_LEVEL, LEVELS

MAX_FULL_TREE_NODES = 5_000_000  # enumerating more than this is refused (count gives the size)
DEFAULT_TIME_LIMIT = 10.0        # seconds: every CLI search is bounded unless told otherwise
TREE = "tree"                    # the course's explicit trees (see the module's text)


class UsageError(Exception):
    pass


# -- the games, found by their folders -------------------------------------------------------

def _game(args):
    if args.game == TREE:
        if not args.tree:
            raise UsageError("the tree game needs --tree, e.g. --tree '[[3,12,8],[2,4,6],[14,5,2]]'")
        return ExerciseTree(args.tree, args.root)
    if args.game not in games.names():
        raise UsageError(f"unknown game {args.game!r}: {', '.join(games.names() + [TREE])}")
    from_args = games.cli_hook(args.game, "from_args")
    return from_args(args) if from_args else games.load(args.game).Rules()


def _state(game, moves: str):
    """The position after ``moves``, written as the game's links write them (its rules'
    ``parse_moves``); ai.course.game.play names the first illegal one."""
    return play(game, game.parse_moves(moves or ""))


def _whole_tree(game, state):
    """Nodes of the whole game tree from ``state``, where the game counts it, else None."""
    if isinstance(game, ExerciseTree):
        return game.size() if state == game.initial_state() else None
    count = games.cli_hook(game.name, "whole_tree")
    return count(game, state) if count else None


def _order(text):
    if text is None or text in ("natural", "reverse", "center"):
        return text
    try:
        return tuple(int(x) for x in text.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(f"--order is natural, reverse, center or a list like 3,2,1; not {text!r}") from None


def emit(args, data: dict, lines: list[str]):
    """``data`` as one line of JSON with ``--json``, else ``lines`` (a game's own commands
    print through it too). Where ``data`` times its work (``elapsed_ms``), the JSON adds the
    start-up before it (``startup_ms``) and, for a result a budget stopped, which one
    (``stopped_by``)."""
    if args.json:
        if "elapsed_ms" in data and getattr(args, "startup_ms", None) is not None:
            data = {**data, "startup_ms": args.startup_ms}
            if data.get("complete") is False and "stopped_by" not in data:
                data["stopped_by"] = _stopped_by(args, data)
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))


def _stopped_by(args, data: dict) -> str:
    """Which budget stopped an incomplete result: the node budget when its nodes reached it,
    else the time budget."""
    budget = getattr(args, "max_nodes", None)
    nodes = data.get("nodes")
    if budget is not None and isinstance(nodes, int) and nodes >= budget:
        return "node budget"
    return "time budget"


def _load(args) -> None:
    """The game's ``load`` hook, before the work starts (see the module's text)."""
    name = getattr(args, "game", None)
    if name and name != TREE and name in games.names():
        load = games.cli_hook(name, "load")
        if load:
            load()


# -- subcommands -------------------------------------------------------------------------------

def cmd_count(args):
    game = _game(args)
    if isinstance(game, ExerciseTree):
        data = {"game": TREE, "nodes": game.size(), "leaves": game.leaf_count()}
        emit(args, data, [f"{k}: {v}" for k, v in data.items()])
        return
    state = game.initial_state()
    nodes = _whole_tree(game, state)
    if nodes is None:
        countable = [n for n in games.names() if games.cli_hook(n, "whole_tree")]
        raise UsageError(f"the whole {game.name} game tree is far too large to count: count "
                         f"works on {', '.join(countable + [TREE])}")
    describe = games.cli_hook(game.name, "describe")
    details = games.cli_hook(game.name, "count_details")
    data = {"game": game.name, **(describe(game) if describe else {}), "nodes": nodes,
            **(details(game, state) if details else {})}
    if args.enumerate:
        if nodes > MAX_FULL_TREE_NODES:
            raise UsageError(f"the full tree has {nodes:,} nodes: too large to enumerate "
                             f"(at most {MAX_FULL_TREE_NODES:,}); drop --enumerate")
        data.update(_enumerate(game, state, nodes))
    emit(args, data, [f"{k}: {v}" for k, v in data.items()])


def _enumerate(game, state, nodes: int) -> dict:
    """The whole tree walked by minimax (every node: ``enumerated`` equals ``nodes``), its
    value with perfect play, and the nodes alpha-beta visits without and with a transposition
    table, the moves tried in the game's order and, where the game has a centre, centre first.
    The course's scores (a win +maxScore, a loss -maxScore, flat: seed 003), as the course
    counts."""
    r = minimax(game, state, quick_wins=False)
    if r.stats.nodes != nodes:
        raise RuntimeError(f"minimax visited {r.stats.nodes} nodes, the count says {nodes}")
    out = {"enumerated": r.stats.nodes, "value": r.value,
           "outcome": "draw" if r.value == 0 else "first player wins" if (
               (r.value > 0) == (game.to_move(state) == 0)) else "second player wins"}
    orders = [("", "natural")] + ([("_centre", "center")] if game.center_order else [])
    for suffix, order in orders:
        # A table entry keeps the depth left below its node: any depth no line of play reaches
        # searches to the end, and the tree's node count is one.
        ab = alphabeta(game, state, order=order, quick_wins=False)
        tt = alphabeta_tt(game, state, nodes, order=order, quick_wins=False)
        out["alphabeta" + suffix] = ab.stats.nodes
        out["alphabeta_tt" + suffix] = tt.stats.nodes
    return out


def cmd_search(args):
    game = _game(args)
    state = _state(game, args.moves)
    if args.analyse:
        return _analyse(args, game, state)
    r = _search(args, game, state)
    data = {"game": game.name, "level": args.level, "algorithm": r.algorithm,
            "move": game.move_json(r.move), "value": r.value, "proven": r.proven,
            "pv": [game.move_json(m) for m in r.pv], "complete": r.complete,
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
        total = _whole_tree(game, state)
        lines.append(f"explored {r.tree.explored} nodes" + (f" of {total}" if total else "")
                     + f", {r.tree.pruned_count} pruned subtrees")
    emit(args, data, lines)


def _analyse(args, game, state):
    """``search --analyse``: ``(data, lines)``, every legal move's exact outcome, as the review scores a move
    (``ai.teach.review.move_outcomes``: the game's exact scores, else a full solve), instead
    of a search; bounded by ``--time`` and ``--max-nodes``."""
    from .teach.review import move_outcomes
    given = [f"--{name.replace('_', '-')}" for name in _SEARCH_FLAGS + ("level", "record")
             if name not in ("time", "max_nodes") and getattr(args, name) not in (None, False)]
    if given:
        raise UsageError(f"--analyse scores every move exactly: leave out {', '.join(given)}")
    if game.is_terminal(state):
        raise UsageError("the game is over: there is no move to score")
    ply = len(game.parse_moves(args.moves or ""))
    rows, complete = move_outcomes(game, state, ply, max_nodes=args.max_nodes,
                                   time_limit=DEFAULT_TIME_LIMIT if args.time is None
                                   else args.time)
    moves = [{"move": game.move_json(m), "score": score, "outcome": kind, "in": k}
             for m, score, kind, k in rows]
    scored = [r for r in rows if r[1] is not None]
    top = max((r[1] for r in scored), default=None)
    data = {"game": game.name, "moves": moves, "complete": complete,
            "best": [game.move_json(r[0]) for r in scored if r[1] == top]}
    lines = [f"{game.format_move(m)}: " + ("not solved within the budget" if kind is None
                                         else kind if k is None else
                                         f"{kind} in {k} move{'s' if k != 1 else ''}")
             for m, score, kind, k in rows]
    lines.append("best: " + (" ".join(str(b) for b in data["best"]) or "none solved"))
    return data, lines


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


def cmd_level_book(args):
    """A game's book of a level's first replies (its cli's ``write_level_book``)."""
    print(games.cli_hook(args.game, "write_level_book")(LEVELS[args.level], args.max_ply))


def cmd_review(args):
    """The exact review of a whole game (``ai.teach.review``, which names no game)."""
    from .teach.review import command
    game = _game(args)
    data, lines = command(game, args.moves, time_limit=args.time, max_nodes=args.max_nodes,
                          move_json=game.move_json)
    emit(args, data, lines)


# -- the parser --------------------------------------------------------------------------------

class _GameOptions:
    """A game's group of options, where an option another game has defined already (two
    games with a ``--variant normal|misere``) is not defined twice: argparse would refuse
    it, and the one option sets the same setting for both."""

    def __init__(self, group):
        self._group = group

    def add_argument(self, *flags, **kwargs):
        try:
            return self._group.add_argument(*flags, **kwargs)
        except argparse.ArgumentError:      # "conflicting option string": defined already
            return None


def _add_game_options(p, games_=None):
    names = games.names() + [TREE] if games_ is None else list(games_)
    p.add_argument("game", choices=names, help="which game")
    for name in names:
        add = games.cli_hook(name, "add_arguments") if name != TREE else None
        if add:
            add(_GameOptions(p.add_argument_group(f"{name} settings")))
    if TREE in names:
        g = p.add_argument_group("tree settings")
        g.add_argument("--tree", help="tree: nested lists of leaf values, e.g. '[[3,12,8],[2,4,6]]'")
        g.add_argument("--root", choices=("max", "min"), default="max", help="tree: who is at the root")


def _heuristic_help() -> str:
    names = []
    for name in games.names():
        table = heuristics_for(games.load(name).Rules)
        if table:
            first, *rest = table
            names.append(f"{name}: {first} (default)" + "".join(f", {h}" for h in rest))
    return ("the evaluation at the depth limit; " + "; ".join(names)
            + "; or, for a game with named terms, their weights as name=weight pairs")


def build_parser() -> argparse.ArgumentParser:
    examples = [e for name in games.names() for e in (games.cli_hook(name, "EXAMPLES") or ())]
    parser = argparse.ArgumentParser(
        prog="python -m ai",
        description="minimax-lab's search engine from the command line.",
        epilog="Examples: " + " | ".join(examples))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("count", help="count the nodes of a whole game tree",
                       description="Count the nodes (root and leaves included) of the whole game "
                                   "tree, for a game that can count it (games: "
                                   + ", ".join(n for n in games.names() if games.cli_hook(n, "whole_tree"))
                                   + ") or of an explicit tree.")
    _add_game_options(p)
    p.add_argument("--enumerate", action="store_true",
                   help="also walk the whole tree with minimax (every node) and report its "
                        "value, and the nodes alpha-beta visits without and with a table")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_count)

    p = sub.add_parser("search", help="search a position and print the move, value and stats",
                       description="Search a position with one of the course's algorithms. "
                                   "Moves are written as the app's links write them (each "
                                   "game's parse_moves), and printed as the game writes "
                                   "them: " + "; ".join(
                                       f"{n}: {games.cli_hook(n, 'MOVES')}" for n in games.names()
                                       if games.cli_hook(n, "MOVES"))
                                   + "; tree: children 1-indexed (--moves 13, or 1.3).")
    _add_game_options(p)
    p.add_argument("--moves", default="", help="moves played from the start")
    p.add_argument("--level", choices=list(LEVELS),
                   help="play a level as the app does (its algorithm, depth, heuristic, "
                        "budgets and the game's fast loop); no other search option then")
    p.add_argument("--algorithm", choices=list(ALGORITHMS),
                   help="minimax, alphabeta, alphabeta-tt (transposition table), iterative "
                        "(iterative deepening under --time); default alphabeta")
    p.add_argument("--fast", action="store_true",
                   help="the game's own fast alpha-beta where it has one and it gives the same "
                        "values: faster, and fewer nodes than the course's algorithms")
    p.add_argument("--depth", type=int, help="plies to look ahead (iterative: the most)")
    p.add_argument("--full", action="store_true", help="search to the end of the game")
    p.add_argument("--time", type=float, help="time budget in seconds (iterative: default 0.3; "
                                              f"others: {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--max-nodes", type=int, help="node budget")
    p.add_argument("--heuristic", help=_heuristic_help())
    p.add_argument("--window",
                   help="initial alpha-beta window: infinite (default) or course ([-maxScore, +maxScore], seed 003)")
    p.add_argument("--order", help="move order: natural, reverse, center, or a list like 3,2,1")
    p.add_argument("--flat-scores", action="store_true",
                   help="score every win +maxScore (the seeds) instead of preferring quick wins")
    p.add_argument("--random", action="store_true", help="break ties between equal moves at random")
    p.add_argument("--seed", type=int, help="random seed for --random")
    p.add_argument("--record", "--tree-size", action="store_true", dest="record",
                   help="record the tree of the search and print its explored/pruned counts")
    p.add_argument("--analyse", "--analyze", action="store_true",
                   help="instead of a search: every legal move's exact outcome for the player "
                        "who makes it (win, loss or draw, in how many moves), as the review "
                        "scores a move; bounded by --time and --max-nodes")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: move, value, nodes, pv, leaves, cutoffs, ...; "
                        "with --analyse: moves, best, complete)")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("review", help="the exact review of a whole game: every move classed",
                       description="Every move of a game with the exact score of the position "
                                   "before it (for the side to move, on the game's own scale "
                                   "where it has one, e.g. Pons' score or +1/-1 by a theory; "
                                   "else MAX_SCORE minus the ply the game ends on) and its "
                                   "class: best, inaccuracy, mistake, blunder; the refutation "
                                   "of each error and why.")
    _add_game_options(p, games.names())     # games of win, draw or loss (not a tree's leaves)
    p.add_argument("moves", nargs="?", default="",
                   help="the game's moves, as the app's links write them")
    p.add_argument("--time", type=float, default=DEFAULT_TIME_LIMIT,
                   help=f"time budget of the whole review in seconds (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--max-nodes", type=int, help="node budget of the whole review")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: scores, classes, elapsed_ms, after, best_moves, "
                        "refutations, why, counts, accuracy, complete)")
    p.set_defaults(func=cmd_review)

    # a game's book of a level's first replies, the level handed in
    booked = [name for name in games.names() if games.cli_hook(name, "write_level_book")]
    if booked:
        p = sub.add_parser("level-book", help="search a level's replies in a game's first plies "
                                              "and store them (the game's book of them)",
                           description="Search and store a level's replies in the first plies "
                                       "of a game (its book of first replies, shipped with the "
                                       "app), so that the first moves cost no search.")
        p.add_argument("game", choices=booked, help="the game")
        p.add_argument("--level", default=DEFAULT_LEVEL, choices=list(LEVELS),
                       help=f"the level (default {DEFAULT_LEVEL})")
        p.add_argument("--max-ply", type=int, help="the last ply stored (default: the game's)")
        p.set_defaults(func=cmd_level_book)

    from .tournament_cli import add_command     # python -m ai tournament GAME
    add_command(sub)

    # each game's own subcommands
    for name in games.names():
        add = games.cli_hook(name, "add_commands")
        if add:
            add(sub)
    return parser


def main(argv=None, *, started: float | None = None) -> int:
    """Run the command ``argv`` (default: the process's arguments). ``started``: the
    ``time.perf_counter()`` when the process started (``__main__``), else now; start-up is
    counted from it to the start of the work (``startup_ms``)."""
    started = time.perf_counter() if started is None else started
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _load(args)
        args.startup_ms = round((time.perf_counter() - started) * 1000, 3)
        printed = args.func(args)
        if printed is not None:          # a game's command: what to print (see the top)
            emit(args, *printed)
    except (ValueError, UsageError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
