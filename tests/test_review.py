"""The exact review of a whole game (``ai/teach/review.py``), checked against answers from
outside: Pascal Pons' published positions and the plain-Python solver on Connect-4, the
course's theory on Nim (a multiple of k+1 loses, seed 003), and a tic-tac-toe small enough to
check by hand."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import NamedTuple

import pytest

from ai.course.game import Game
from ai.games.connect4 import Connect4
from ai.messages import GameError
from ai.games.nim import Nim
from ai.games.connect4.exact.solver import solve
from ai.teach.review import CLASSES, classify, review, why_text
from tests.test_solver import pons_set

C4 = Connect4()

# A game of the "easy" level against "medium" with some random moves: it has every class for
# both players (found by bench/bench_review.py's games; checked below move by move).
EVERY_CLASS = "2577712224414446333331141"


def c4_review(text: str, **kw):
    # no time limit: what a test checks never depends on the machine's speed
    return review(C4, C4.parse_moves(text), **{"time_limit": None, **kw})


# -- the class rule --------------------------------------------------------------------------

@pytest.mark.parametrize("before,after,expected", [
    (3, 3, "best"),            # the same win, as quick
    (3, 1, "inaccuracy"),      # still a win, two stones later
    (-2, -5, "inaccuracy"),    # still a loss, sooner
    (0, 0, "best"),
    (4, 0, "mistake"),         # a win becomes a draw
    (0, -1, "mistake"),        # a draw becomes a loss
    (4, -1, "blunder"),        # a win becomes a loss
])
def test_the_class_rule_compares_the_moves_value_with_the_positions(before, after, expected):
    assert classify(before, after) == expected


def test_a_real_game_has_every_class_for_both_players_and_each_agrees_with_the_scores():
    r = c4_review(EVERY_CLASS)
    assert r.complete
    for p in (0, 1):
        assert {c for c in CLASSES if r.counts[p].get(c)} == set(CLASSES), p
    for m in r.items:
        # the move's value is minus the next position's score (Pons' scores negate exactly)
        nxt = r.items[m.ply].before if m.ply < len(r.items) else r.result
        assert m.after == -nxt
        assert m.after <= m.before
        assert m.cls == classify(m.before, m.after)
        assert (m.kept is None) == (m.cls == "best")


# -- Connect-4 against Pons and the plain-Python solver ------------------------------------

@pytest.mark.parametrize("name", ["L3_R1", "L2_R1"])
def test_every_position_of_pons_games_is_scored_as_he_and_the_plain_solver_score_it(name):
    # Pons' position is the end of a game: the review's last score is his, and every
    # position of the game from ply 20 on is what the plain-Python solver (no book, no
    # compiled kernel) says.
    checked = 0
    for moves, published in list(pons_set(name))[:4]:
        r = c4_review(moves, lines=False)
        assert r.complete and r.result == published, moves
        for i in range(20, len(moves)):
            assert r.scores[i] == solve(moves[:i]).score, (moves, i)
            checked += 1
    assert checked >= 16


def test_the_move_that_ends_the_game_is_judged_by_its_result():
    # 4444 5 5 6 6: yellow's 7 wins at once (best); yellow's 1 instead lets the game go on.
    won = c4_review("4455667")
    assert won.ended and won.items[-1].cls == "best" and won.result < 0
    slower = c4_review("4455661")
    assert slower.items[-1].cls == "inaccuracy"
    assert slower.items[-1].kept in (2, 6)         # column 3 or 7 won at once


def test_a_blunders_refutation_is_legal_keeps_the_winners_value_and_ends_in_their_win():
    r = c4_review(EVERY_CLASS)
    blunders = [m for m in r.items if m.cls == "blunder"]
    assert blunders
    for m in blunders:
        state = C4.from_moves(EVERY_CLASS[:m.ply])
        assert m.refutation
        for i, move in enumerate(m.refutation):
            assert move in C4.actions(state)
            before = C4.exact_score(state, store=None)[0]
            state = C4.result(state, move)
            # every move of the line is a best move: the value is kept, for both sides
            assert -C4.exact_score(state, store=None)[0] == before, (m.ply, i)
        if C4.is_terminal(state):
            assert C4.winner(state) == 1 - m.player


def test_why_names_the_double_threat_the_refutation_builds():
    r = c4_review("444455661")
    m = r.items[5]           # red's 5 lets yellow's 3 (or 6) make two threats on the bottom row
    assert m.cls == "blunder" and m.refutation[0] in (2, 5)
    text = why_text(m, names=lambda p: ("Yellow", "Red")[p])
    reply = m.refutation[0] + 1
    threats = {3: "2 and 6", 6: "3 and 7"}[reply]
    assert text == (f"After column 5, Yellow wins in 2 moves, starting with column {reply}. "
                    f"Red cannot stop both threats, in columns {threats}. "
                    "Column 3 won in 18 moves.")


def test_a_budget_that_runs_out_leaves_moves_unclassed_never_wrong(monkeypatch):
    from ai.games.connect4.exact import analysis
    monkeypatch.setattr(analysis, "_chosen", [None])    # no table of solved positions
    r = c4_review(EVERY_CLASS, max_nodes=1000)
    assert not r.complete
    full = c4_review(EVERY_CLASS)
    assert any(c is None for c in r.classes)
    for a, b in zip(r.items, full.items):
        assert a.cls in (None, b.cls)
        assert a.before in (None, b.before)


@pytest.mark.parametrize("moves,words", [
    ("4444444", "column 4 is full"),
    ("4455667" + "1", "the game was already over"),
    ("48", "column 8 does not exist"),
])
def test_bad_moves_are_refused_naming_the_first_wrong_one(moves, words):
    with pytest.raises(GameError) as err:
        review(C4, [int(c) - 1 for c in moves])
    assert words in str(err.value)
    assert str(err.value).startswith("move ")


def test_an_over_long_move_list_is_refused():
    with pytest.raises(GameError, match="at most 200 moves"):
        review(Nim(1000, 3), [1] * 201)


# -- Nim against the theory ------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_nims_review_is_the_theory_move_by_move(variant):
    import random
    rng = random.Random(3)
    game = Nim(21, 3, variant)
    for _ in range(20):
        left, moves = 21, []
        while left:
            t = rng.randint(1, min(3, left))
            moves.append(t)
            left -= t
        r = review(game, moves, time_limit=None)          # no clock: as c4_review, ttt
        left = 21
        for m in r.items:
            assert m.before == (-1 if game.is_losing(left) else 1)
            keeps = game.is_losing(left) or game.is_losing(left - m.move)
            assert m.cls == ("best" if keeps else "blunder"), (moves, m.ply)
            if m.cls == "blunder":
                assert game.is_losing(left - m.kept)              # the take that kept the win
                if left - m.move:      # (misère: taking the last match lost at once)
                    reply = m.refutation[0]
                    assert game.is_losing(left - m.move - reply)  # the answer: a losing count
            left -= m.move


def test_nims_why_is_the_multiple_of_k_plus_1():
    # 21 matches, J0 takes 1 (leaves 20, a multiple of 4: best), J1 takes 2, J0 takes 3
    # (15 left: not a multiple of 4): J1 takes 3, leaves 12.
    r = review(Nim(21, 3), [1, 2, 3], time_limit=None)
    assert r.classes == ["best", "best", "blunder"]
    assert why_text(r.items[2], names=lambda p: f"J{p}") == (
        "After taking 3, 15 are left, not a multiple of 4: J1 takes 3 and leaves 12, a "
        "multiple of 4, and wins. Taking 2 left 16, a multiple of 4: the win.")


# -- any small game: tic-tac-toe, solved by the generic memoized search ----------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TState(NamedTuple):
    cells: tuple
    to_move: int


class TicTacToe(Game):
    """A test-only tic-tac-toe (cells 1-9 in reading order) with no hook of its own."""

    name = "ttt"

    def initial_state(self):
        return TState((None,) * 9, 0)

    def to_move(self, s):
        return s.to_move

    def won(self, s):
        return any(s.cells[a] is not None and s.cells[a] == s.cells[b] == s.cells[c]
                   for a, b, c in LINES)

    def actions(self, s):
        return [] if self.is_terminal(s) else [i for i in range(9) if s.cells[i] is None]

    def result(self, s, m):
        if m not in self.actions(s):
            raise ValueError(f"cell {m + 1} is not free")
        cells = list(s.cells)
        cells[m] = s.to_move
        return TState(tuple(cells), 1 - s.to_move)

    def is_terminal(self, s):
        return self.won(s) or None not in s.cells

    def utility(self, s, player):
        return 0 if not self.won(s) else (-1 if player == s.to_move else 1)

    def key(self, s):
        return hash(s)

    def parse_move(self, text):
        return int(text) - 1

    def format_move(self, m):
        return str(m + 1)

    def parse_moves(self, text):
        return [self.parse_move(c) for c in text]

    def format_moves(self, moves):
        return "".join(map(self.format_move, moves))


def ttt(text):
    # no time limit, as c4_review: ~60 ms of CPU each, but a review's budget is wall-clock time
    # (with the clock running 10 times too fast, on a busy machine, "1948" came back unscored)
    return review(TicTacToe(), [int(c) - 1 for c in text], time_limit=None)


def test_tic_tac_toe_the_edge_reply_to_the_centre_loses_and_the_review_says_how():
    # X takes the centre (5), O an edge (2): a loss (O's corner would draw). X's best line:
    # 1, then O must block at 9, X plays 4 making two threats (3... and 7).
    r = ttt("52")
    assert r.scores == [0, 0] and r.classes == ["best", "mistake"]
    m = r.items[1]
    assert m.kept in (0, 2, 6, 8)
    assert why_text(m, names=lambda p: "XO"[p]).startswith(
        "After 2, X wins in 3 moves, starting with 1.")


def test_tic_tac_toe_inaccuracies_a_slower_win_and_a_quicker_loss():
    # 5 2 1: X threatens 9. O plays 3 instead (loses at once rather than in 2 moves),
    # then X plays 7 instead of 9 (wins later).
    r = ttt("52137")
    assert r.classes == ["best", "mistake", "best", "inaccuracy", "inaccuracy"]
    assert r.items[3].kept == 8 and r.items[4].kept == 8
    assert why_text(r.items[4]) == "7 still wins, but in 2 moves instead of in 1 move: 9 was quicker."


def test_tic_tac_toe_a_blunder_turns_a_win_into_a_loss_for_either_player():
    # X 1, O 9 (a loss: only the centre draws), X 4 lets O block at 7 with a threat of its
    # own (X's 3 won); then O's 8 throws it back: X's 7 wins at once.
    r = ttt("1948")
    assert r.classes == ["best", "mistake", "blunder", "blunder"]
    assert [m.player for m in r.items] == [0, 1, 0, 1]
    assert r.items[2].kept == 2 and r.items[2].refutation[0] == 6
    assert r.items[3].refutation == (6,)


def test_the_command_line_prints_scores_classes_and_time_as_json():
    out = subprocess.run([sys.executable, "-m", "ai", "review", "connect4", "444455661",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scores"] == [1, -1, 1, -1, 1, 2, 17, -17, 17]
    assert data["classes"] == ["best"] * 4 + ["blunder", "blunder", "best", "best", "inaccuracy"]
    assert data["best_moves"][4] == 4 and data["refutations"][5][0] in (3, 6)
    assert isinstance(data["elapsed_ms"], float)


def test_the_command_line_refuses_an_illegal_game_in_one_line():
    out = subprocess.run([sys.executable, "-m", "ai", "review", "nim", "12345"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip().startswith("error: move 4 (4): cannot take 4 matches")


def test_the_command_line_reviews_tic_tac_toe_by_the_generic_solve():
    # the centre, then O's edge (a loss: the corner draws), X's corner, O's 3 leaving X's 9
    out = subprocess.run([sys.executable, "-m", "ai", "review", "tictactoe", "5213", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["classes"] == ["best", "mistake", "best", "inaccuracy"]
    assert data["scores"][:2] == [0, 0] and data["best_moves"][3] == 9
