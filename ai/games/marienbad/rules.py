"""Marienbad, the game of the film (L'Année dernière à Marienbad, Alain Resnais, 1961): matches
in heaps, by default 1, 3, 5 and 7; each player in turn takes any number of matches (at least
one) from one heap. In the ``normal`` variant whoever takes the last match wins; in the
``misere`` variant, the film's, whoever takes the last match loses.

A state is ``MarienbadState(heaps, to_move)``. A move is ``(heap, taken)``, the heap counted
from 0; links and the command line write it as the heap's letter and the count, two
characters a move: ``b3`` takes 3 matches from heap B, ``moves=b3d7a1``. Hence at most
``MAX_HEAPS`` heaps (A to H) of at most ``MAX_MATCHES`` matches each (one digit).

The theory (nim-sums, ``grundy.py``) plays the higher levels; the whole tree is small enough
for the exact review's memoized solve, and counted by a formula over the heaps (``tree.py``).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ai.course.game import Game
from ai.messages import GameError

from .grundy import VARIANTS, mover_loses, nim_sum
from .heuristic import HEURISTICS, Grundy

MAX_HEAPS = 8          # heaps A to H
MAX_MATCHES = 9        # a move's count is one digit
LETTERS = "abcdefgh"
DEFAULT_HEAPS = (1, 3, 5, 7)
_HEAPS = re.compile(r"[1-9](,[1-9]){0,%d}" % (MAX_HEAPS - 1))
_MOVES = re.compile(r"([a-h][1-9])*")


def parse_heaps(text) -> tuple[int, ...]:
    """``"1,3,5,7"`` -> (1, 3, 5, 7): 1 to 8 heaps of 1 to 9 matches, digits and commas only.
    A tuple or list of such counts is taken as it is (checked the same)."""
    if isinstance(text, (tuple, list)):
        heaps = tuple(text)
        if (1 <= len(heaps) <= MAX_HEAPS and all(
                not isinstance(h, bool) and isinstance(h, int) and 1 <= h <= MAX_MATCHES
                for h in heaps)):
            return heaps
        text = ",".join(map(str, heaps))
    elif isinstance(text, str) and _HEAPS.fullmatch(text):
        return tuple(int(h) for h in text.split(","))
    raise GameError("heaps are 1 to %(heaps)s numbers, each from 1 up to %(most)s matches, "
                    "separated by commas (1,3,5,7), not “%(text)s”", heaps=MAX_HEAPS,
                    most=MAX_MATCHES, text=str(text)[:30])


def heaps_text(text: str) -> str:
    """The heaps as links write them, checked (``web.games.Param.read``)."""
    return ",".join(map(str, parse_heaps(text)))


class MarienbadState(NamedTuple):
    heaps: tuple[int, ...]
    to_move: int


class Marienbad(Game):
    """Marienbad with ``heaps`` (a tuple, or as links write it: "1,3,5,7"), ``variant``
    "normal" or "misere"."""

    name = "marienbad"
    # -- the hooks shared code asks a game (ai.course.game.Game) ---------------------------
    heuristics = HEURISTICS                 # ai.heuristics.make_heuristic's choice
    level_heuristics = {"beginner": "course", "easy": "course", "medium": "course",
                        "hard": "grundy", "expert": "grundy"}       # ai.levels

    def __init__(self, heaps=DEFAULT_HEAPS, variant: str = "normal"):
        if variant not in VARIANTS:
            raise GameError("the variant is normal or misere, not “%(v)s”", v=str(variant)[:20])
        self.heaps, self.variant = parse_heaps(heaps), variant

    def __repr__(self):
        return f"Marienbad(heaps={self.heaps}, variant={self.variant!r})"

    def exact_play(self, state, *, time_limit=None, max_nodes=None, fallback=None):
        """The perfect move from the theory: alpha-beta one ply deep with the exact
        evaluation, which takes what leaves the opponent a nim-sum of 0 (misère: the same,
        but an odd number of single heaps once every heap is 1 or 0) (``ai.perfect``)."""
        from ai.engine import search
        return search("alphabeta", self, state, 1, heuristic=Grundy(self),
                      time_limit=time_limit, max_nodes=max_nodes)

    def tree_size(self, state, depth=None) -> int:
        """Nodes of the whole game tree from ``state`` (to ``depth`` plies if given), counted
        by a formula over the heaps, not walked."""
        from .tree import tree_size
        return tree_size(state.heaps, depth)

    def plies_left(self, state: MarienbadState) -> int:
        """The matches left: every move takes at least one."""
        return sum(state.heaps)

    # -- the protocol -------------------------------------------------------------------
    def initial_state(self) -> MarienbadState:
        return MarienbadState(self.heaps, 0)

    def to_move(self, state: MarienbadState) -> int:
        return state.to_move

    def actions(self, state: MarienbadState) -> list[tuple[int, int]]:
        """Heap by heap, A first, the whole heap first: a1, b3, b2, b1, c5... A big take
        shortens the game, so alpha-beta proves outcomes sooner: 0.75 million nodes for
        the whole of 1, 3, 5, 7 where one match first needs more than 12 million."""
        return [(i, t) for i, h in enumerate(state.heaps) for t in range(h, 0, -1)]

    def result(self, state: MarienbadState, move) -> MarienbadState:
        if (not isinstance(move, tuple) or len(move) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in move)):
            raise GameError("a move is a heap and a number of matches, not %(move)r", move=move)
        i, take = move
        if self.is_terminal(state):
            raise GameError("the game is over: no matches are left")
        if not 0 <= i < len(state.heaps):
            raise GameError("there is no heap %(heap)s: heaps A to %(last)s",
                            heap=_letter(i), last=LETTERS[len(state.heaps) - 1].upper())
        if not 1 <= take <= state.heaps[i]:
            raise GameError("cannot take %(take)s from heap %(heap)s, which has %(left)s",
                            take=take, heap=_letter(i), left=state.heaps[i])
        heaps = state.heaps[:i] + (state.heaps[i] - take,) + state.heaps[i + 1:]
        return MarienbadState(heaps, 1 - state.to_move)

    def is_terminal(self, state: MarienbadState) -> bool:
        return not any(state.heaps)

    def utility(self, state: MarienbadState, player: int) -> int:
        """+1 if ``player`` won, -1 if they lost: the player to move with no match left did
        not take the last one, so lost (normal) or won (misère)."""
        mover_won = self.variant == "misere"
        return 1 if (player == state.to_move) == mover_won else -1

    def key(self, state: MarienbadState) -> int:
        k = 0
        for h in reversed(state.heaps):
            k = k * 16 + h
        return k * 2 + state.to_move

    def winner(self, state: MarienbadState):
        """The winning player on a terminal state, else None."""
        if any(state.heaps):
            return None
        return state.to_move if self.variant == "misere" else 1 - state.to_move

    def render(self, state: MarienbadState) -> str:
        return "\n".join(f"{LETTERS[i].upper()}: {'|' * h or '-'} ({h})"
                         for i, h in enumerate(state.heaps))

    def parse_move(self, text: str) -> tuple[int, int]:
        moves = self.parse_moves(str(text).strip())
        if len(moves) != 1:
            raise GameError("a move is a heap's letter and a count, such as b3, not “%(text)s”",
                            text=str(text)[:20])
        return moves[0]

    def format_move(self, move) -> str:
        i, take = move
        return f"{LETTERS[i]}{take}"

    def parse_moves(self, text: str) -> list[tuple[int, int]]:
        """``"b3d7"`` -> [(1, 3), (3, 7)]: a heap's letter (a to h) and a count (1 to 9), two
        characters a move, as in the app's links."""
        text = text or ""
        if not _MOVES.fullmatch(text):
            raise GameError("moves are a heap's letter (a to h) and a count (1 to 9), such "
                            "as b3d7, not “%(text)s”", text=text[:30])
        return [(LETTERS.index(text[j]), int(text[j + 1])) for j in range(0, len(text), 2)]

    def format_moves(self, moves) -> str:
        return "".join(self.format_move(m) for m in moves)

    # -- the review's hook (ai.teach.review; the exact scores are the generic solve's) -----
    def review_why(self, *args):
        from .review import review_why
        return review_why(self, *args)

    # -- the theory (grundy.py) -----------------------------------------------------------
    def nim_sum(self, state: MarienbadState) -> int:
        return nim_sum(state.heaps)

    def is_losing(self, state: MarienbadState) -> bool:
        """True when the player to move loses against best play."""
        return mover_loses(state.heaps, self.variant)


def _letter(i: int) -> str:
    return LETTERS[i].upper() if 0 <= i < len(LETTERS) else str(i + 1)
