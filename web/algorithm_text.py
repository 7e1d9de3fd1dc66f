"""The algorithm's text beside a step-by-step replay: the course's minimax and alpha-beta in
its own terms (maximiseur/minimiseur, alpha = max(alpha, s_i), "si alpha >= beta on élague",
seed 001's play and undo), the line the current step executes, and the variables at that
step. Python decides which line and which values; ``_tree.html`` draws them.

Each recorded event (``ai.course.record``) is one line: entering a node is the call (the parent
has just played the move), a leaf is the evaluation, an update is alpha or beta taking a
child's value, a cut is the pruning, a table hit is the memory answering, the exit is the
return (and the parent undoing the move); with the table, a probe is its look-up (the key,
its place, what is there) and a store the entry written before returning.

The lines are those of ``ai.course.as_written``, the course's algorithms as it writes them:
each line names the functions and the lines of code it says, and
``tests/test_as_written.py`` finds them in that function's source, so the text cannot drift
from code that runs. The table's lines say the engine's table (``ai.course.table``): the
course writes no table.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

from ai.course import as_written as course
from ai.course.table import TranspositionTable, settles


def _both(*code):
    """Lines written alike in the maximiser's and the minimiser's node (seed 003)."""
    return ((course.valeur_max, *code), (course.valeur_min, *code))


_BEST = ("return max([minmax_h(jeu, fils, prof - 1, h) for fils in fils_de(jeu, sommet)])",
         "return min([minmax_h(jeu, fils, prof - 1, h) for fils in fils_de(jeu, sommet)])")

# (key, text, where it is written): the keys are what an event points at (``current_line``);
# where: (function, its lines of code the text says...) for each function it is written in,
# the lines without their comments; a function alone: the whole of it (the table's).
MINIMAX = (
    ("call", _l("MiniMax(node, depth): play the move that leads here, then"),
     ((course.minmax_h, "def minmax_h(jeu, sommet, prof, h):"),
      (course.fils_de, "return [jeu.result(sommet, coup) for coup in jeu.actions(sommet)]"))),
    ("leaf", _l("if depth = 0 or the game is over: return the evaluation of the node"),
     ((course.minmax_h, "if jeu.is_terminal(sommet):", "return score(jeu, sommet)",
       "elif prof == 0:", "return h(sommet)"),)),
    ("loop", _l("for each possible move: play it, MiniMax(child, depth − 1), undo it"),
     ((course.minmax_h, *_BEST),)),
    ("return", _l("return the best value for the player: max for the maximiser, min for the minimiser; the parent undoes the move"),
     ((course.minmax_h, "elif jeu.to_move(sommet) == J0:", "else:", *_BEST),)),
)
ALPHABETA = (
    ("call", _l("AlphaBeta(node, depth, α, β): play the move that leads here, then"),
     ((course.alphabeta,
       "def alphabeta(jeu, sommet, prof=inf, h=None, alpha=-MAX_SCORE, beta=MAX_SCORE):",
       "if jeu.to_move(sommet) == J0:", "return valeur_max(jeu, sommet, prof, h, alpha, beta)",
       "return valeur_min(jeu, sommet, prof, h, alpha, beta)"),)),
    ("table", _l("if the table knows this node to this depth: return its value"),
     ((settles,),)),
    ("leaf", _l("if depth = 0 or the game is over: return the evaluation of the node"),
     _both("if jeu.is_terminal(sommet):", "return score(jeu, sommet)", "if prof == 0:",
           "return h(sommet)")),
    ("loop", _l("for each child s_i: play the move, s_i = AlphaBeta(child, depth − 1, α, β), undo it"),
     _both("for coup in jeu.actions(sommet):",
           "s = alphabeta(jeu, jeu.result(sommet, coup), prof - 1, h, alpha, beta)")),
    ("update-max", _l("maximiser: α = max(α, s_i)"), ((course.valeur_max, "alpha = max(alpha, s)"),)),
    ("update-min", _l("minimiser: β = min(β, s_i)"), ((course.valeur_min, "beta = min(beta, s)"),)),
    ("cut", _l("if α ≥ β: prune the remaining children"), _both("if alpha >= beta:", "break")),
    ("store", _l("store in the table: the value, exact or a bound (at least, at most), the depth and the best move"),
     ((TranspositionTable.store,),)),
    ("return", _l("return α (maximiser) or β (minimiser); the parent undoes the move"),
     ((course.valeur_max, "return alpha"), (course.valeur_min, "return beta"))),
)


TABLE_ALGORITHMS = ("alphabeta-tt", "iterative")    # the searches that use the table


@dataclass(frozen=True)
class TableStep:
    """The table at a probe or a store (``ai.course.record``'s "probe" and "store" events)."""
    store: bool           # False: a probe (look-up); True: the node's entry is written
    key: int              # the position's key (a game's own, such as Zobrist's)
    slot: int             # its place: key mod the number of places
    other: int | None     # a probe: the key of another position found in that place;
    #                       a store: the key of the position it replaces there
    entry: tuple | None   # (depth, "exact"|"lower"|"upper", value, best move), the root
    #                       player's side; None: nothing found
    outcome: str = ""     # a probe: "empty", "depth", "bound", "hit", "root" (ai.course.record)
    nodes: int | None = None   # a hit: the nodes its first search took, which it saves;
    #                            a store: the nodes searched below the node


@dataclass(frozen=True)
class AlgorithmStep:
    lines: tuple          # (key, text, is_current)
    node: str             # the node, named as the picture names it
    depth: int | None     # the call's depth argument: plies left to search below the node
    alpha: object = None
    beta: object = None
    value: object = None
    table: TableStep | None = None    # the table's step, at a probe or a store
    zobrist: object = None            # entering a node with the table, where the game shows it: how the
    #                                   move changed the key (a game's ZobristStep)
    source: str = ""                  # where the current line is written in code that runs:
    #                                   "ai/course/as_written.py · valeur_max, valeur_min"


def table_step(event) -> TableStep | None:
    """What a "probe" or "store" event says about the table, else None."""
    if event[0] == "probe":
        _, _, key, slot, other, entry, outcome, saved = event
        return TableStep(False, key, slot, other, entry, outcome, saved)
    if event[0] == "store":
        _, _, key, slot, replaced, entry, size = event
        return TableStep(True, key, slot, replaced, entry, nodes=size)
    return None


def current_line(event, is_max: bool) -> str:
    kind = event[0]
    if kind == "enter":
        return "call"
    if kind == "update":
        return "update-max" if is_max else "update-min"
    return {"leaf": "leaf", "cut": "cut", "table": "table", "probe": "table", "store": "store",
            "exit": "return"}[kind]


def algorithm_step(algorithm: str, event, node, name: str, now_shown,
                   search_depth: int | None, zobrist=None) -> AlgorithmStep | None:
    """The text of ``algorithm`` with the line ``event`` executes marked, and the variables
    after it (``now_shown``: what the picture shows of ``node`` at this step, its window
    then; ``zobrist``: how the move into ``node`` changed the key, shown on entering it);
    None before the first step (no event yet)."""
    if event is None:
        return None
    text = MINIMAX if algorithm == "minimax" else ALPHABETA
    if algorithm not in TABLE_ALGORITHMS:
        text = tuple(line for line in text if line[0] not in ("table", "store"))
    now = current_line(event, node.is_max)
    lines = tuple((key, words, key == now) for key, words, _ in text)
    source = next((where_written(where) for key, _, where in text if key == now), "")
    alpha = beta = value = None
    if event[0] in ("enter", "update") and algorithm != "minimax":
        alpha, beta = event[2], event[3]
    elif event[0] in ("leaf", "exit", "table"):
        value = event[2]
    if event[0] == "cut" and now_shown is not None:
        alpha, beta = now_shown.now_alpha, now_shown.now_beta
    table = table_step(event)
    if table is not None and table.entry is not None and (table.store or table.outcome == "hit"):
        value = table.entry[2]
    depth = None if search_depth is None else search_depth - node.ply
    return AlgorithmStep(lines, name, depth, alpha, beta, value, table,
                         zobrist if event[0] == "enter" else None, source)


def where_written(where) -> str:
    """The file and the functions a line of the text stands for, as a student finds them in
    the repository: "ai/course/as_written.py · valeur_max, valeur_min"."""
    files: dict[str, list[str]] = {}
    for function, *_ in where:
        path = function.__module__.replace(".", "/") + ".py"
        name = function.__qualname__
        if name not in files.setdefault(path, []):
            files[path].append(name)
    return " ; ".join(f"{path} · {', '.join(names)}" for path, names in files.items())
