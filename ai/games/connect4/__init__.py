"""Connect-4 (Puissance 4): its rules on a bitboard, its heuristics, the fast depth-limited
loop (``fast_search``) and the exact solver family (``solver`` the readable reference,
``solver_kernel``/``solver_fast`` compiled, ``analysis`` of every column with its compiled
loop ``analysis_kernel``, ``opening_book``,
``solved_store``), its perfect play (``exact``) and the default level's book (``level_book``)."""
from .rules import Connect4

Rules = Connect4
__all__ = ["Connect4", "Rules"]

PREPARING = "Compiling the exact solver, once (up to ~20 s)"


def prepare() -> float:
    """Compile the exact solver's inner loop (numba, cached beside the code) and exercise every
    compiled path. Returns the seconds it took."""
    from .analysis import warm_up
    return warm_up()
