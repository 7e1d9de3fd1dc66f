"""The perfect level (``ai/perfect.py``, ``LEVELS["perfect"]``): it never changes the
game-theoretic value, over 50 games from random 4-ply openings against every other level,
each of its moves checked by a referee solver of its own (``ai.games.connect4.exact.solver_fast``, itself checked
against Pons' published scores in ``tests/test_solver_fast.py``)."""
from __future__ import annotations

import random

import pytest

from ai.games.connect4.exact import opening_book
from ai.games.connect4.rules import Connect4
from ai.course.game import play as game_play
from ai.levels import LEVELS
from ai.games.nim.rules import Nim
from ai.games.connect4.exact.play import pons_to_value
from ai.course.scores import MAX_SCORE
from ai.games.connect4.exact.solver_fast import FastSolver

OPPONENTS = ["beginner", "easy", "medium", "hard", "expert"]


@pytest.fixture(scope="module")
def referee():
    return FastSolver(7, 6, book=opening_book.shared())


def exact(referee, game, state) -> int:
    """Pons' score of ``state`` for its side to move (the referee's)."""
    return referee.solve_bitboard(state.current, state.mask, state.moves).score


def test_the_perfect_level_never_changes_the_value_in_50_games(referee, monkeypatch):
    monkeypatch.setenv("MINIMAX_SOLVED_DB", "off")     # every answer searched, none remembered
    game = Connect4()
    perfect = LEVELS["perfect"]
    changed, moves_checked, results = [], 0, []
    for i in range(50):
        rng = random.Random(1000 + i)
        state = game.initial_state()
        for _ in range(4):
            state = game.result(state, rng.choice(game.actions(state)))
        opponent = LEVELS[OPPONENTS[i % len(OPPONENTS)]]
        perfect_side = i % 2 if i % 4 < 2 else 1 - i % 2
        first = None            # the value of the opening for the perfect side, at its first move
        while not game.is_terminal(state):
            if game.to_move(state) == perfect_side:
                before = exact(referee, game, state)
                first = before if first is None else first
                r = perfect.play(game, state, time_limit=60)   # a bound, never reached here
                assert r.complete, (i, state.moves)
                after = game.result(state, r.move)
                if game.is_terminal(after):
                    kept = game.utility(after, perfect_side) == (1 if before > 0 else 0)
                else:
                    kept = -exact(referee, game, after) == before
                if not kept:
                    changed.append((i, state.moves, r.move))
                assert r.value == pons_to_value(before, state.moves, 42)
                moves_checked += 1
                state = after
            else:
                state = game.result(state, opponent.play(game, state).move)
        results.append((game.utility(state, perfect_side), first))
    assert changed == []
    assert moves_checked > 300
    # A won opening is won, a drawn one at least drawn (the levels may blunder it away).
    assert [(u, v) for u, v in results if u < (v > 0) - (v < 0)] == []


def test_the_perfect_level_wins_with_the_first_players_last_stone_from_the_empty_board():
    # Pons: the first player wins, with its 21st stone, in column 4.
    game = Connect4()
    r = LEVELS["perfect"].play(game, game.initial_state())
    assert (r.move, r.value, r.complete) == (3, MAX_SCORE - 41, True)


def test_the_perfect_level_plays_nim_by_its_theory():
    game = Nim(21, 3)                     # 21 matches, take 1-3: leave a multiple of 4
    r = LEVELS["perfect"].play(game, game.initial_state())
    assert r.move == 1 and r.value > 0


def test_the_perfect_level_on_a_board_too_large_to_solve_in_time_says_so():
    game = Connect4(9, 9)
    r = LEVELS["perfect"].play(game, game.initial_state(), time_limit=0.2)
    assert not r.complete and r.move in game.actions(game.initial_state())


@pytest.mark.parametrize("score,plies,value", [
    (18, 6, MAX_SCORE - 1),      # wins at once
    (1, 0, MAX_SCORE - 41),      # the empty board: the 21st stone, ply 41
    (-18, 5, -(MAX_SCORE - 2)),  # the opponent wins with its next move
    (0, 12, 0),
])
def test_pons_scores_become_the_apps_values(score, plies, value):
    assert pons_to_value(score, plies, 42) == value


# -- the same link, the same reply ----------------------------------------------------------

def game_positions(n: int, plies: range) -> list[str]:
    """Positions of ``n`` games of random non-losing moves, at every ply of ``plies``."""
    game = Connect4()
    out = []
    for i in range(n):
        rng = random.Random(1000 + i)
        state, moves = game.initial_state(), ""
        while len(moves) < plies.stop and not game.is_terminal(state):
            if len(moves) in plies:
                out.append(moves)
            move = rng.choice(list(game.actions(state)))
            moves += game.format_move(move)
            state = game.result(state, move)
    return out


def replies(positions, play) -> dict[str, tuple]:
    game = Connect4()
    out = {}
    for moves in positions:
        r = play(game, game_play(game, game.parse_moves(moves)))
        out[moves] = (r.move, r.value, r.complete)
    return out


@pytest.mark.parametrize("budget", [2_000, 20_000])
def test_a_node_budgeted_exact_reply_does_not_depend_on_what_the_worker_solved_before(budget):
    # The exact solver within a node budget (what a level asks it first): the same positions
    # in two orders in one process, each solver table and the table of solved positions
    # filled by the other positions, give the same replies (move, value, proven or not).
    from ai.perfect import perfect_play
    positions = game_positions(6, range(6, 22))
    def play(game, state):
        return perfect_play(game, state, max_nodes=budget, time_limit=None)

    forward = replies(positions, play)
    backward = replies(positions[::-1], play)
    assert len(forward) == len(positions) >= 60
    assert {m for m, r in forward.items() if r[2]} and {m for m, r in forward.items() if not r[2]}
    assert backward == forward


def test_the_perfect_level_replies_the_same_in_two_orders():
    positions = game_positions(3, range(10, 24))
    def play(game, state):
        return LEVELS["perfect"].play(game, state, time_limit=None)

    forward = replies(positions, play)
    backward = replies(positions[::-1], play)
    assert len(forward) == len(positions) >= 30 and all(r[2] for r in forward.values())
    assert backward == forward
