"""Connect-4's exact solver family, behind one face: what the rest of the house asks of it.

- ``solve(moves, ...)``: one position, exactly, Pascal Pons' score (the readable reference,
  ``solver``, with its budgets: the command line's ``solve``);
- ``analyse(moves, ...)`` / ``analyse_position(current, mask, plies, ...)``: every column's
  exact score (``analysis``: the opening book, the table of solved positions, the compiled
  solver), ``outcome`` of a score in words;
- ``exact_play`` / ``exact_within``: perfect play and the levels' budgeted solve (``play``);
- ``warm_up()``: compile every kernel once per process.

Inside, in the order a student reads them: ``solver`` (the reference, Pons' tutorial part by
part), ``solver_kernel`` (its compiled twin, node for node) driven by ``solver_fast``;
``book_layout`` (the opening book's records, read by both sides of it) and ``opening_book``;
``analysis`` with its compiled loop ``analysis_kernel``; ``solved_store`` (SQLite);
``numba_cache`` (where numba keeps the machine code); ``play``.
"""
from importlib import import_module

# The face, by the module that holds each name. Loaded when first asked for (PEP 562), not when
# the package is: ``numba_cache`` must be imported before numba by every kernel, the levels'
# ``bits_kernel`` among them, and the solver's kernel imports ``bits_kernel``; a package that
# loaded the solver as soon as ``numba_cache`` was asked for made ``bits_kernel``, imported
# first, import itself half-made (an ImportError).
_FACE = {"Analysis": "analysis", "ColumnScore": "analysis", "analyse": "analysis",
         "analyse_position": "analysis", "default_store": "analysis", "outcome": "analysis",
         "solver_for": "analysis", "store_at": "analysis", "table_key": "analysis",
         "use_store": "analysis", "warm_up": "analysis",
         "shared_book": ("opening_book", "shared"),
         "exact_play": "play", "exact_within": "play", "pons_to_value": "play",
         "default_store_path": ("solved_store", "default_path"),
         "SolveResult": "solver", "parse_moves": "solver", "solve": "solver"}

__all__ = sorted(_FACE)


def __getattr__(name):
    where = _FACE.get(name)
    if where is None:                        # a submodule not imported yet (exact.analysis)
        try:
            return import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    module, attr = where if isinstance(where, tuple) else (where, name)
    value = getattr(import_module(f"{__name__}.{module}"), attr)
    globals()[name] = value                  # asked once
    return value


def __dir__():
    return sorted(set(globals()) | set(_FACE))
