"""Connect-4 (Puissance 4): its rules on a bitboard, its heuristics (as weighted terms:
``terms``), the fast depth-limited loop (``fast_search``, compiled: ``compiled_search``), the
exact solver family in its own folder behind one face (``exact``:
solve, analyse, perfect play), the review's hooks (``review``) and the default level's book
(``level_book``)."""
from .rules import Connect4

Rules = Connect4
__all__ = ["Connect4", "Rules"]
