"""The one game protocol that every game of ``ai/games/`` and the exercise trees implement.

The names are AIMA's (``games4e.py``): a game is an object with

- ``initial_state()``            the position the game starts from;
- ``to_move(state)``             the player to move, 0 (J0, who starts) or 1 (J1);
- ``actions(state)``             the legal moves, in the game's natural order;
- ``result(state, move)``        the next state; raises ``ValueError`` on an illegal move;
- ``is_terminal(state)``         True when the game is over;
- ``utility(state, player)``     +1 win, -1 loss, 0 draw for ``player``, on a terminal state;
- ``key(state)``                 an int identifying the position, for transposition tables
                                 (a game may keep an incrementally updated Zobrist hash);
- ``parse_move(text)``/``format_move(move)``   moves as people write them.

Hooks: what shared code may ask a game, each optional (``getattr``, never ``isinstance``), so
that adding a game touches only its own folder and one entry of the web's games table:

- ``heuristics``                 name -> heuristic class, the first the default (``ai.heuristics``);
- ``level_heuristics``           level name -> heuristic name (``ai.levels``);
- ``fast_alphabeta(**options)``  the game's own fast alpha-beta for these options, or None:
                                 it must return the course's values (``ai.engine``);
- ``exact_play(state, *, time_limit, max_nodes, fallback)``   the perfect move, a
                                 ``SearchResult`` (``ai.perfect``); without it: alpha-beta
                                 to the end;
- ``exact_within(state, max_nodes)``   the exact move if proven within that many nodes,
                                 from an empty table and without a clock, else None: the
                                 hard and expert levels ask it first (``ai.levels``);
- ``level_reply(level, state)``  a level's stored reply (a book of first replies), or None;
- ``key_step(state, move)``      how a move changes a Zobrist key (the step-by-step table);
- ``tree_size(state, depth)``    nodes of the whole tree to ``depth`` (the tree panel's "of M");
- ``move_json(move)``            a move as the command line's JSON writes it;
- ``exact_score(state, *, time_limit, max_nodes, at_least, need_move)``   the exact score
                                 of a position for the side to move and a best move, on a
                                 negamax-exact scale (``ai.teach.review``); without it: a
                                 memoized solve of the whole tree (small games);
- ``score_outcome(state, score)`` that score in words, ``("win", k)``/``("loss", k)``/
                                 ``("draw", None)``; ``review_why(...)``: why a move loses;
                                 ``review_drawing(...)``: its refutation for the game's picture.

States are immutable and hashable, so they can key caches and tables, and a search can
never damage the position it was given.
"""
from __future__ import annotations

from typing import Hashable, Iterable, Protocol, Sequence, runtime_checkable

PLAYERS = (0, 1)


@runtime_checkable
class Game(Protocol):
    name: str

    def initial_state(self) -> Hashable: ...
    def to_move(self, state) -> int: ...
    def actions(self, state) -> Sequence: ...
    def result(self, state, move) -> Hashable: ...
    def is_terminal(self, state) -> bool: ...
    def utility(self, state, player: int) -> int: ...
    def key(self, state) -> int: ...
    def parse_move(self, text: str): ...
    def format_move(self, move) -> str: ...


def play(game: Game, moves: Iterable, state=None):
    """Apply ``moves`` one after the other from ``state`` (default: the start).

    Raises ``ValueError`` naming the first illegal move and its position in the list.
    """
    state = game.initial_state() if state is None else state
    for i, move in enumerate(moves, 1):
        try:
            state = game.result(state, move)
        except ValueError as err:
            raise ValueError(f"move {i} ({game.format_move(move)}): {err}") from None
    return state
