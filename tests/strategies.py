"""Hypothesis strategies shared by the property tests: reachable positions, built by playing
drawn legal moves (never by filtering), as ../shared/STYLE.md recommends."""
from hypothesis import strategies as st

from ai.games.connect4.rules import Connect4
from ai.games.nim.rules import Nim


def reachable(games, max_moves: int):
    """``(game, state)``: a game drawn from ``games``, then up to ``max_moves`` drawn legal
    moves (fewer when the game ends first)."""
    @st.composite
    def build(draw):
        game = draw(games)
        state = game.initial_state()
        for _ in range(draw(st.integers(0, max_moves))):
            moves = game.actions(state)
            if not moves:
                break
            state = game.result(state, draw(st.sampled_from(moves)))
        return game, state
    return build()


def connect4_games(max_width=9, max_height=9):
    return st.builds(Connect4, st.integers(4, max_width), st.integers(4, max_height))


def nim_games(max_n=14, max_k=4):
    return st.builds(Nim, st.integers(1, max_n), st.integers(1, max_k),
                     st.sampled_from(["normal", "misere"]))
