"""Nim on the command line (``ai.cli`` finds this module by the game's folder): its settings
(``--n``, ``--k``, ``--variant``), its whole tree counted by the formula, and seed 000's
dictionary (``nim-dict``)."""
from __future__ import annotations

import json

from .rules import VARIANTS, Nim
from .tree import course_tree, nim_tree_size

MOVES = "the matches taken (--moves 312)"
EXAMPLES = ("python -m ai count nim --n 20", "python -m ai nim-dict 4",
            "python -m ai search nim --n 5 --depth 2 --window course --record")


def add_arguments(group) -> None:
    group.add_argument("--n", type=int, default=21, help="Nim: matches at the start (default 21)")
    group.add_argument("--k", type=int, default=3, help="Nim: most matches one may take (default 3)")
    group.add_argument("--variant", choices=VARIANTS, default="normal",
                       help="Nim: normal (who takes the last match wins) or misere (loses)")


def from_args(args) -> Nim:
    return Nim(args.n, args.k, args.variant)


def describe(game: Nim) -> dict:
    """The game's settings, as the JSON of ``count`` gives them."""
    return {"n": game.n, "k": game.k, "variant": game.variant}


def whole_tree(game: Nim, state) -> int:
    """Nodes of the whole game tree from ``state``: T(n) = 1 + T(n-1) + ... + T(n-k), counted
    by the formula, not walked (seed 003: "plus de 250'000" for 20 matches)."""
    return nim_tree_size(state.remaining, game.k)


def cmd_nim_dict(args):
    tree = course_tree(args.n, args.k)
    if args.json:
        print(json.dumps(tree))
    else:
        print(f"Dictionnaire de l'arbre : {tree}")


def add_commands(sub) -> None:
    p = sub.add_parser("nim-dict", help="print seed 000's dictionary form of the Nim tree",
                       description="Print constrarbreNIM(N, {}, 0, 0) of seed 000, Listing VIII.1.")
    p.add_argument("n", type=int, help="matches at the start (0 to 14)")
    p.add_argument("--k", type=int, default=3, help="most matches one may take (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_nim_dict)
