"""The matches game (jeu des allumettes, a one-heap Nim) of seeds 000, 003 and 004.

``n`` matches lie on the table; each player in turn takes 1 to ``k`` of them (the seeds use
k = 3). In the ``normal`` variant whoever takes the last match wins (seeds 000 and 003); in the
``misere`` variant whoever takes the last match loses (seed 004).

A state is ``NimState(remaining, to_move)``: with two players alternating, that pair is the
whole position (seed 000 remarks that distinct tree nodes can be "la même situation du jeu").
"""
from __future__ import annotations

from typing import NamedTuple

from ai.course.game import Game
from ai.messages import GameError

from .heuristic import HEURISTICS, NimExact

VARIANTS = ("normal", "misere")
MAX_N = 1000
MAX_K = 9  # moves are written one digit each (``moves=312``)


class NimState(NamedTuple):
    remaining: int
    to_move: int


class Nim(Game):
    """Nim with ``n`` matches, take 1..``k``, ``variant`` "normal" or "misere"."""

    name = "nim"
    # -- the hooks shared code asks a game (ai.course.game.Game) ---------------------------
    heuristics = HEURISTICS                 # ai.heuristics.make_heuristic's choice
    level_heuristics = {"beginner": "course", "easy": "course", "medium": "course",
                        "hard": "exact", "expert": "exact"}         # ai.levels

    def __init__(self, n: int = 21, k: int = 3, variant: str = "normal"):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_N:
            raise ValueError(f"n must be a whole number of matches from 1 to {MAX_N}, not {n!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValueError(f"k (the most matches one may take) must be from 1 to {MAX_K}, not {k!r}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be 'normal' or 'misere', not {variant!r}")
        self.n, self.k, self.variant = n, k, variant

    def __repr__(self):
        return f"Nim(n={self.n}, k={self.k}, variant={self.variant!r})"

    def exact_play(self, state, *, time_limit=None, max_nodes=None, fallback=None):
        """The perfect move from the theory (seed 003): alpha-beta one ply deep with the exact
        evaluation, which takes what leaves the opponent a losing count (``ai.perfect``)."""
        from ai.engine import search
        return search("alphabeta", self, state, 1, heuristic=NimExact(self),
                      time_limit=time_limit, max_nodes=max_nodes)

    def tree_size(self, state, depth=None) -> int:
        """Nodes of the whole game tree from ``state`` (seed 003 counts against it: "9 sommets
        sur 28"), whatever the depth."""
        from .tree import nim_tree_size
        return nim_tree_size(state.remaining, self.k)

    def plies_left(self, state: NimState) -> int:
        """The matches left: every move takes at least one."""
        return state.remaining

    # -- the protocol -------------------------------------------------------------------
    def initial_state(self) -> NimState:
        return NimState(self.n, 0)

    def to_move(self, state: NimState) -> int:
        return state.to_move

    def actions(self, state: NimState) -> list[int]:
        # Seed 000's loop ``for i in [1,2,3]: if N-i >= 0``: the natural order is 1, 2, 3.
        return list(range(1, min(self.k, state.remaining) + 1))

    def result(self, state: NimState, move) -> NimState:
        if isinstance(move, bool) or not isinstance(move, int):
            raise GameError("a move is a number of matches, not %(move)r", move=move)
        if state.remaining == 0:
            raise GameError("the game is over: no matches are left")
        if not 1 <= move <= min(self.k, state.remaining):
            raise GameError("cannot take %(move)s matches: take 1 to %(most)s (%(left)s left)",
                            move=move, most=min(self.k, state.remaining), left=state.remaining)
        return NimState(state.remaining - move, 1 - state.to_move)

    def is_terminal(self, state: NimState) -> bool:
        return state.remaining == 0

    def utility(self, state: NimState, player: int) -> int:
        """+1 if ``player`` won, -1 if they lost: the seeds' labels (seed 000)."""
        # The player to move at 0 matches did not take the last one: they lost in normal
        # play, and won in misere play.
        mover_won = self.variant == "misere"
        return 1 if (player == state.to_move) == mover_won else -1

    def key(self, state: NimState) -> int:
        return state.remaining * 2 + state.to_move

    def winner(self, state: NimState):
        """The winning player on a terminal state, else None."""
        if state.remaining:
            return None
        return state.to_move if self.variant == "misere" else 1 - state.to_move

    def parse_move(self, text: str) -> int:
        text = str(text).strip()
        if not text.isdigit() or not text.isascii():
            raise GameError("a move is a number of matches from 1 to %(k)s, not %(text)r",
                            k=self.k, text=text)
        return int(text)

    def format_move(self, move) -> str:
        return str(move)

    def parse_moves(self, text: str) -> list[int]:
        """``"312"`` -> [3, 1, 2]: one digit per move, as in the app's links."""
        text = (text or "").strip()
        if text and not (text.isascii() and text.isdigit()):
            raise GameError("moves are digits 1 to %(k)s, one per move, not %(text)r",
                            k=self.k, text=text)
        return [int(c) for c in text]

    def format_moves(self, moves) -> str:
        return "".join(str(m) for m in moves)

    # -- the review's hooks (ai.teach.review; the code is in ai.games.nim.review) ---------------
    def exact_score(self, state: NimState, **_options):
        from .review import exact_score
        return exact_score(self, state)

    def score_outcome(self, state: NimState, score: int):
        from .review import score_outcome
        return score_outcome(self, state, score)

    def review_why(self, *args):
        from .review import review_why
        return review_why(self, *args)

    def review_drawing(self, *args, **kwargs):
        from .review import review_drawing
        return review_drawing(self, *args, **kwargs)

    # -- theory (seed 003: "le jeu des allumettes est un jeu calculable") ---------------
    def is_losing(self, remaining: int) -> bool:
        """True when the player to move with ``remaining`` matches loses against best play.

        Normal play: the multiples of k+1 (seed 003: "un multiple de 4 allumettes").
        Misere play: 1 more than a multiple of k+1 (leave your opponent the last match).
        """
        r = remaining % (self.k + 1)
        return r == 0 if self.variant == "normal" else r == 1

    def losing_positions(self, upto: int | None = None) -> list[int]:
        return [r for r in range(0 if self.variant == "normal" else 1, (upto or self.n) + 1)
                if self.is_losing(r)]
