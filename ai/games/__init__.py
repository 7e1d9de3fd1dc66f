"""One folder per game: its rules (``rules.py``), its heuristics (``heuristic.py``) and whatever
else it alone needs. A game package exposes its rules class; shared code finds what a game can
do through the rules' methods (``ai.course.game.Game``), never by its name."""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache


def names() -> list[str]:
    """The games that have a folder here, by name (``connect4``, ``nim``, ...)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def load(name: str):
    """The package of the game ``name`` (``ai.games.<name>``); ValueError for an unknown one."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}: {', '.join(names())}")
    return importlib.import_module(f"{__name__}.{name}")


@lru_cache(maxsize=None)
def cli(name: str):
    """The command-line module of the game ``name`` (``ai.games.<name>.cli``: the hooks
    ``python -m ai`` and its tournament commands read, listed in ``ai.cli``), or None."""
    try:
        return importlib.import_module(f"{__name__}.{name}.cli")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}.cli":
            raise
        return None


def cli_hook(name: str, hook: str):
    """The hook ``hook`` of the game ``name``'s command-line module, or None."""
    return getattr(cli(name), hook, None)


def prepare() -> None:
    """Run each game's one-time preparation (its rules' ``prepare()``, e.g. compiling an
    exact solver), saying what it does first (their ``preparing``): ``scripts/setup`` calls
    this once per change of the games' code, so that no first request pays for it."""
    for name in names():
        rules = load(name).Rules
        if rules.preparing:
            print(f"{rules.preparing}...", flush=True)
            print(f"  done in {rules.prepare():.0f} s", flush=True)
