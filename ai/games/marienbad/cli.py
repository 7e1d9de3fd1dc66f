"""Marienbad on the command line (``ai.cli`` finds this module by the game's folder): its
settings (``--heaps``, ``--variant``), its whole tree counted, and ``grundy``: a position's
nim-sum in binary and every move's exact outcome."""
from __future__ import annotations

from ai.course.game import play

from .grundy import VARIANTS, column_parities, mover_loses, nim_sum
from .rules import DEFAULT_HEAPS, Marienbad, parse_heaps
from .solve import every_move, outcome
from .tree import tree_size

MOVES = "a heap's letter and a count (--moves b3d7)"
EXAMPLES = ("python -m ai search marienbad --heaps 1,3,5,7 --full --json",
            "python -m ai search marienbad --heaps 1,3,5 --analyse",
            "python -m ai grundy 1,3,5,7 --variant misere")
DEFAULT = ",".join(map(str, DEFAULT_HEAPS))


def add_arguments(group) -> None:
    group.add_argument("--heaps", default=DEFAULT,
                       help=f"Marienbad: the heaps, 1 to 8 of 1 to 9 matches (default {DEFAULT})")
    group.add_argument("--variant", choices=VARIANTS, default="normal",
                       help="normal (who takes the last match wins) or misere (loses)")


def from_args(args) -> Marienbad:
    return Marienbad(parse_heaps(args.heaps), args.variant)


def describe(game: Marienbad) -> dict:
    return {"heaps": list(game.heaps), "variant": game.variant}


def whole_tree(game: Marienbad, state) -> int:
    """Nodes of the whole game tree from ``state``, counted over the heaps (``tree.py``)."""
    return tree_size(state.heaps)


def cmd_grundy(args):
    """``python -m ai grundy``: ``(data, lines)``, which ``ai.cli`` prints."""
    game = Marienbad(parse_heaps(args.heaps), args.variant)
    state = play(game, game.parse_moves(args.moves))
    heaps = state.heaps
    bits = max(1, max(heaps).bit_length())
    won, plies = outcome(heaps, game.variant)
    moves = every_move(game, state) if any(heaps) else []
    data = {"game": game.name, "heaps": list(heaps), "variant": game.variant,
            "nim_sum": nim_sum(heaps), "binary": [format(h, f"0{bits}b") for h in heaps],
            "columns": column_parities(heaps, bits),
            "mover_loses": mover_loses(heaps, game.variant),
            "outcome": "win" if won > 0 else "loss", "plies": plies, "moves": moves}
    lines = [f"{'ABCDEFGH'[i]}: {h}  {b}" for i, (h, b) in enumerate(zip(heaps, data["binary"]))]
    lines.append(f"columns (ones): {' '.join(map(str, data['columns']))}  "
                 f"nim-sum: {data['nim_sum']} ({format(data['nim_sum'], f'0{bits}b')})")
    lines.append(f"the player to move {'wins' if won > 0 else 'loses'} with best play "
                 f"({plies} plies to the end)")
    for m in moves:
        lines.append(f"{m['move']}: {m['outcome']} in {m['plies']} plies (nim-sum after: "
                     f"{m['nim_sum']})")
    return data, lines


def add_commands(sub) -> None:
    p = sub.add_parser("grundy", help="a Marienbad position's nim-sum and every move's exact "
                                      "outcome",
                       description="The heaps in binary, each column's count of ones, the "
                                   "nim-sum (the Sprague-Grundy value), whether the player to "
                                   "move wins, and every move's exact outcome (win or loss, "
                                   "in how many plies with best play), by a full solve.")
    p.add_argument("heaps", nargs="?", default=DEFAULT,
                   help=f"the heaps, 1 to 8 of 1 to 9 matches (default {DEFAULT})")
    p.add_argument("--variant", choices=VARIANTS, default="normal",
                   help="normal (who takes the last match wins) or misere (loses)")
    p.add_argument("--moves", default="", help="moves played from there, e.g. b3d7")
    p.add_argument("--json", action="store_true",
                   help="print JSON (keys: nim_sum, binary, columns, mover_loses, outcome, "
                        "plies, moves)")
    p.set_defaults(func=cmd_grundy)
