"""Evaluation functions (fonctions d'évaluation): ``h(state, player)`` scores a position that
is not over, from ``player``'s side, strictly inside ``(-HEURISTIC_MAX, +HEURISTIC_MAX)`` so a
proven win always outranks it (see ``ai.course.search``).

Each game brings its own (``ai/games/<game>/heuristic.py``) and lists them in its rules'
``heuristics`` (name -> class, the first is the default); this module finds them there.
"""
from __future__ import annotations

from ai.course.scores import HEURISTIC_MAX

LIMIT = HEURISTIC_MAX - 1     # a heuristic's scores stay within +-LIMIT


def clamp(x):
    return LIMIT if x > LIMIT else -LIMIT if x < -LIMIT else x


def heuristics_for(game) -> dict:
    """Name -> class of the heuristics that apply to ``game`` (the first is the default): its
    rules' ``heuristics``, or none (exercise trees score their leaves)."""
    return game.heuristics


def make_heuristic(game, name: str | None = None, **options):
    """The heuristic ``name`` for ``game`` (default: the game's default), or None for games
    that need none (exercise trees score their leaves). ``options`` go to the heuristic
    that takes them (its ``settings``: ``alpha`` for ``AdjustedCells``); the others
    ignore them. A name with ``=`` in it is weights of the game's named terms (its rules'
    ``weighted_heuristic``, e.g. ``"cells=1,open3=8"``), ``options`` not used."""
    if name is not None and "=" in name:
        return game.weighted_heuristic(name)
    table = heuristics_for(game)
    if not table:
        if name not in (None, "none"):
            raise ValueError(f"the {game.name} game has no heuristic {name!r}")
        return None
    if name is None:
        name = next(iter(table))
    try:
        kind = table[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r} for {game.name}: choose one of "
                         f"{', '.join(table)}") from None
    taken = getattr(kind, "settings", ())
    return kind(game, **{k: v for k, v in options.items() if k in taken and v is not None})

