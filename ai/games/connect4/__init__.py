"""Connect-4 (Puissance 4): its rules on a bitboard, its heuristics, the fast depth-limited
loop (``fast_search``) and the exact solver family (``solver`` the readable reference,
``solver_kernel``/``solver_fast`` compiled, ``analysis`` of every column, ``opening_book``,
``solved_store``), its perfect play (``exact``) and the default level's book (``level_book``)."""
from .rules import Connect4

Rules = Connect4
__all__ = ["Connect4", "Rules"]
