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
from .analysis import (Analysis, ColumnScore, analyse, analyse_position, default_store,
                       outcome, solver_for, store_at, table_key, use_store, warm_up)
from .opening_book import shared as shared_book
from .play import exact_play, exact_within, pons_to_value
from .solved_store import default_path as default_store_path
from .solver import SolveResult, parse_moves, solve

__all__ = ["Analysis", "ColumnScore", "SolveResult", "analyse", "analyse_position",
           "default_store", "default_store_path", "exact_play", "exact_within", "outcome",
           "parse_moves", "pons_to_value", "shared_book", "solve", "solver_for", "store_at",
           "table_key", "use_store", "warm_up"]
