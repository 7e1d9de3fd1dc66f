"""Connect-4 (Puissance 4): its rules on a bitboard, its heuristics, the fast depth-limited
loop (``fast_search``), the exact solver family in its own folder behind one face (``exact``:
solve, analyse, perfect play), the review's hooks (``review``) and the default level's book
(``level_book``)."""
from .rules import Connect4

Rules = Connect4
__all__ = ["Connect4", "Rules"]

PREPARING = "Compiling the exact solver, once (up to ~20 s)"


def prepare() -> float:
    """Compile the exact solver's inner loop (numba, cached beside the code) and exercise every
    compiled path. Returns the seconds it took."""
    from .exact import warm_up
    return warm_up()
