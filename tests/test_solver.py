"""Tests of the exact Connect-4 solver (``ai/games/connect4/exact/solver.py``).

The reference answers come from outside the solver: Pascal Pons' published benchmark scores
(copied in ``bench/data/``), and an independent brute-force negamax written below, which
knows nothing of bitboards, tables or pruning, for small boards and nearly full ones.
"""
from __future__ import annotations

import ast
import os
import sys
import time
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ai.games.connect4.exact.solver import CHECK_EVERY, SolveResult, Solver, parse_moves, solve, solve_bitboard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data")


def pons_set(name: str) -> list[tuple[str, int]]:
    with open(os.path.join(DATA, f"Test_{name}"), encoding="ascii") as f:
        return [(m, int(s)) for m, s in (line.split() for line in f if line.strip())]


# -- an independent reference: brute-force negamax on a list-of-columns board ---------------

class BruteForce:
    """Exact scores by exhaustive negamax, memoised on the board, for one board size.

    The score follows the definition the solver documents, straight from Pons' text: the
    side to move that can complete four now scores ``(W*H + 1 - stones) // 2``; otherwise its
    score is the best of minus its opponent's score after each move; a full board is 0.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.memo: dict[tuple, int] = {}

    def board(self, moves: str) -> list[list[int]]:
        cols: list[list[int]] = [[] for _ in range(self.width)]
        for i, ch in enumerate(moves):
            cols[int(ch) - 1].append(i % 2)
        return cols

    def makes_four(self, cols, c: int, player: int) -> bool:
        """Would ``player`` have four in a row with a stone dropped in column ``c``?"""
        r = len(cols[c])

        def owner(cc, rr):
            if 0 <= cc < self.width and 0 <= rr < len(cols[cc]):
                return cols[cc][rr]
            return None

        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while owner(c + sign * k * dc, r + sign * k * dr) == player:
                    run += 1
                    k += 1
            if run >= 4:
                return True
        return False

    def score(self, moves: str) -> int:
        return self._value(self.board(moves), len(moves))

    def _value(self, cols, n: int) -> int:
        key = tuple(map(tuple, cols))
        if key in self.memo:
            return self.memo[key]
        area = self.width * self.height
        if n == area:
            return 0
        player = n % 2
        best = None
        for c in range(self.width):
            if len(cols[c]) < self.height:
                if self.makes_four(cols, c, player):
                    best = (area + 1 - n) // 2
                    break
                cols[c].append(player)
                v = -self._value(cols, n + 1)
                cols[c].pop()
                if best is None or v > best:
                    best = v
        self.memo[key] = best
        return best


@lru_cache(maxsize=None)
def brute(width: int, height: int) -> BruteForce:
    return BruteForce(width, height)


def assert_best_move_achieves_score(moves: str, r: SolveResult, width=7, height=6,
                                    reference=None) -> None:
    """Playing ``r.best_move`` wins at once with the score claimed, or leaves the opponent
    exactly ``-r.score`` (by ``reference(moves)``, default the solver itself)."""
    assert r.best_move is not None and 0 <= r.best_move < width
    b = brute(width, height)
    cols = b.board(moves)
    assert len(cols[r.best_move]) < height, "best_move must be a legal column"
    n = len(moves)
    child = moves + str(r.best_move + 1)
    if b.makes_four(cols, r.best_move, n % 2):
        assert r.score == (width * height + 1 - n) // 2
    elif len(child) == width * height:
        assert r.score == 0
    else:
        score = reference(child) if reference else solve(child, width, height).score
        assert score == -r.score


# -- Pons' benchmark positions -------------------------------------------------------------

@pytest.mark.parametrize("name,step", [("L3_R1", 20), ("L2_R1", 20), ("L2_R2", 40)])
def test_a_sample_of_pons_positions_gets_exactly_the_published_scores(name, step):
    got = [(moves, published, solve(moves).score) for moves, published in pons_set(name)[::step]]
    assert [g for g in got if g[1] != g[2]] == []


@pytest.mark.parametrize("moves,expected", [
    ("2252576253462244111563365343671351441", -1),   # first line of Test_L3_R1
    ("7422341735647741166133573473242566", 1),       # second line of Test_L3_R1
    ("274552224131661", 0),                          # first line of Test_L2_R2
    ("5455174361263362", -1),
    ("2531276566711153", 2),
])
def test_chosen_pons_positions_get_their_published_score_and_a_move_that_keeps_it(moves, expected):
    r = solve(moves)
    assert (r.score, r.complete) == (expected, True)
    assert (r.lower, r.upper) == (expected, expected)
    assert_best_move_achieves_score(moves, r)


def test_node_counts_on_easy_positions_are_below_those_of_pons_solver():
    # His C++ explores 51 nodes per L3_R1 position and 450 per L2_R1 one (means over the
    # 1000 lines); his algorithm, this sample: 54 and 343. With the additions (fail-soft, the
    # win in two, the move order, the transposition cut-off): 47 and 252.
    l3 = [solve(m).nodes for m, _ in pons_set("L3_R1")[::10]]
    l2 = [solve(m).nodes for m, _ in pons_set("L2_R1")[::10]]
    assert 30 <= sum(l3) / len(l3) <= 51
    assert 150 <= sum(l2) / len(l2) <= 300


def test_nearly_full_board_positions_agree_with_brute_force():
    positions = [(m, s) for m, s in pons_set("L3_R1") if len(m) >= 37][::5]
    assert len(positions) > 20
    for moves, published in positions:
        assert brute(7, 6).score(moves) == published   # the reference agrees with Pons
        assert solve(moves).score == published


def test_drawn_positions_one_or_two_stones_from_a_full_board_score_zero():
    moves = "71255763773133525731261364622167124446454"     # 41 stones: one cell left
    assert len(moves) == 41
    r = solve(moves)
    assert (r.score, r.best_move) == (0, next(c for c in range(7) if moves.count(str(c + 1)) < 6))
    moves = "3135151421347443544172316522225776773566"      # 40 stones
    assert solve(moves).score == 0 == brute(7, 6).score(moves)


# -- hand-made positions -------------------------------------------------------------------

def test_an_immediate_win_scores_22_minus_the_winners_stones_on_7x6():
    # First player: 1, 2, 3 on the bottom row; the second player stacked on them. 4 wins now
    # with the first player's 4th stone: 22 - 4 = 18 = (42 + 1 - 6) // 2.
    r = solve("112233")
    assert (r.score, r.best_move, r.complete) == (18, 3, True)
    # The second player to move (three high in column 2), able to win at once with its
    # 4th stone: 22 - 4 = 18 = (42 + 1 - 7) // 2 too.
    r = solve("1212325")
    assert (r.score, r.best_move) == (18, 1)


@pytest.mark.parametrize("width,height", [(4, 4), (5, 4), (6, 7), (9, 9), (8, 5)])
def test_an_immediate_win_scores_by_pons_formula_on_every_board_size(width, height):
    moves = "112233"   # three in a row on the bottom, the fourth at column 4
    r = solve(moves, width, height)
    assert (r.score, r.best_move, r.nodes) == ((width * height + 1 - 6) // 2, 3, 0)


def test_the_side_to_move_must_block_the_opponents_only_winning_cell():
    # First line of Test_L3_R1: the opponent threatens to win in column 6, nowhere else.
    moves = "2252576253462244111563365343671351441"
    r = solve(moves)
    assert (r.score, r.best_move) == (-1, 5)
    for col in "123457":                     # anything else lets the opponent win at once
        if moves.count(col) < 6:
            assert solve(moves + col).score == (42 + 1 - 38) // 2
    # And on 4x4 (checked by brute force): the first player has three in column 1.
    r = solve("12131", 4, 4)
    assert r.best_move == 0
    assert r.score == brute(4, 4).score("12131")


def test_a_double_threat_is_a_loss_for_the_side_to_move():
    # First player: 2 3 4 on the bottom row, open at both ends; second player to move.
    r = solve("22334")
    assert r.score == -((42 + 1 - 6) // 2)   # the first player wins with its 4th stone
    assert r.best_move in (0, 4)             # blocking one end at least


def test_4x4_is_a_draw_and_every_early_position_matches_brute_force():
    assert solve("", 4, 4).score == 0 == brute(4, 4).score("")
    for a in "1234":
        for b in "1234":
            moves = a + b
            r = solve(moves, 4, 4)
            assert r.score == brute(4, 4).score(moves), moves
            assert_best_move_achieves_score(moves, r, 4, 4, brute(4, 4).score)


def test_5x4_and_4x5_positions_a_few_moves_in_match_brute_force():
    for moves in ("333311", "123455", "332214", "243512"):
        assert solve(moves, 5, 4).score == brute(5, 4).score(moves), moves
    for moves in ("222211", "123412", "232314"):
        assert solve(moves, 4, 5).score == brute(4, 5).score(moves), moves


@st.composite
def small_positions(draw):
    """A reachable, unfinished position on a board of any size, nearly full (at most 12 empty
    cells, so that brute force is quick), made by playing random moves that do not end the
    game."""
    width = draw(st.integers(4, 9))
    height = draw(st.integers(4, 9))
    area = width * height
    target = area - draw(st.integers(1, 10))
    b = BruteForce(width, height)
    cols: list[list[int]] = [[] for _ in range(width)]
    moves = ""
    while len(moves) < target:
        player = len(moves) % 2
        # Moves that do not end the game; if none is left, stop here.
        options = [c for c in range(width)
                   if len(cols[c]) < height and not b.makes_four(cols, c, player)]
        if not options:
            break
        c = draw(st.sampled_from(options))
        cols[c].append(player)
        moves += str(c + 1)
    assume(area - len(moves) <= 12)   # stuck early (every move would end the game): too big
    return width, height, moves


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_solver_agrees_with_brute_force_on_random_nearly_full_boards_of_every_size(pos):
    width, height, moves = pos
    r = solve(moves, width, height)
    assert r.complete
    assert r.score == brute(width, height).score(moves)
    assert_best_move_achieves_score(moves, r, width, height, brute(width, height).score)
    weak = solve(moves, width, height, weak=True)
    assert weak.score == (r.score > 0) - (r.score < 0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_a_mirrored_position_has_the_same_score(pos):
    width, height, moves = pos
    mirrored = "".join(str(width + 1 - int(ch)) for ch in moves)
    assert solve(moves, width, height).score == solve(mirrored, width, height).score


def test_weak_mode_gives_the_sign_of_the_published_score():
    for moves, published in pons_set("L2_R1")[::50] + pons_set("L3_R1")[::50]:
        r = solve(moves, weak=True)
        assert r.score == (published > 0) - (published < 0)
        assert r.complete


# -- bitboards, the table, budgets ----------------------------------------------------------

def test_parse_moves_builds_pons_bitboards():
    # 7x6: bit col*7 + row. "4453": first player at (3,0), (4,0); second at (3,1), (2,0).
    current, mask, n = parse_moves("4453")
    assert n == 4
    assert mask == (1 << 21) | (1 << 22) | (1 << 28) | (1 << 14)
    assert current == (1 << 21) | (1 << 28)      # the first player's, who is to move
    assert parse_moves("") == (0, 0, 0)
    assert parse_moves(" 44\n") == parse_moves("44")


def test_solve_bitboard_agrees_with_solve():
    for moves, published in pons_set("L2_R1")[::100]:
        r = solve_bitboard(*parse_moves(moves))
        assert r.score == published == solve(moves).score


def test_a_solver_keeps_its_table_between_calls_until_reset():
    solver = Solver()
    moves, published = pons_set("L2_R2")[2]
    first = solver.solve(moves)
    again = solver.solve(moves)
    assert first.score == again.score == published
    assert again.nodes < first.nodes
    assert solver.table_size > 0
    solver.reset()
    assert solver.table_size == 0
    assert solver.solve(moves).nodes == first.nodes


def test_a_tiny_table_is_emptied_when_full_without_changing_the_answer():
    solver = Solver(max_table_entries=100)
    for moves, published in pons_set("L2_R1")[:5] + pons_set("L2_R2")[2:4]:
        assert solver.solve(moves).score == published
        assert solver.table_size <= 100 + 1100   # emptied at the next look, every 1024 nodes


def test_a_node_budget_stops_the_search_with_proven_bounds():
    moves, published = pons_set("L2_R2")[0]          # about 300k nodes to solve
    r = solve(moves, max_nodes=2000)
    assert r.complete is False
    assert r.nodes <= 2000
    assert r.lower <= published <= r.upper
    assert r.score == r.lower
    assert r.best_move is not None and 0 <= r.best_move < 7


def test_a_zero_node_budget_still_returns_a_legal_move():
    r = solve("", max_nodes=0)
    assert (r.complete, r.best_move, r.nodes) == (False, 3, 0)
    assert (r.lower, r.upper) == (-21, 21)


class TickingClock:
    """``time.perf_counter`` advancing 0.1 s at each reading, whatever the machine's speed."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.1
        return self.now


def test_a_time_limit_stops_the_search_within_a_few_clock_readings(monkeypatch):
    # From the empty board a solve takes hours. The clock is read at the start and every
    # CHECK_EVERY nodes: a 0.25 s budget on a clock that moves 0.1 s a reading is spent at
    # the third look. (How promptly in real time: bench/bench_solver.py.)
    monkeypatch.setattr(time, "perf_counter", TickingClock())
    r = solve("", time_limit=0.25)
    assert r.complete is False
    assert 2 * CHECK_EVERY < r.nodes <= 3 * (CHECK_EVERY + 1)
    assert r.lower <= 1 <= r.upper               # 7x6 is a first-player win, score 1
    assert r.best_move is not None
    r = solve("5", 9, 9, time_limit=0.15)         # the biggest board
    assert r.complete is False and r.nodes <= 2 * (CHECK_EVERY + 1)
    assert 0 <= r.best_move < 9


def test_a_budget_large_enough_changes_nothing():
    moves, published = pons_set("L2_R1")[0]
    r = solve(moves, max_nodes=10**7, time_limit=60)
    assert (r.score, r.complete) == (published, True)


# -- errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("moves,message", [
    ("44a3", "not a column digit"),
    ("4 4", "not a column digit"),
    ("408", "out of range"),
    ("448", "out of range"),
    ("1111111", "full"),
    ("12121213", "after the game was won"),
])
def test_bad_move_strings_are_refused_with_a_readable_message(moves, message):
    with pytest.raises(ValueError, match=message):
        solve(moves)
    with pytest.raises(ValueError, match=message):
        parse_moves(moves)


@pytest.mark.parametrize("width,height", [(3, 6), (7, 10), (10, 10), (7, 3), (True, 6), (7.0, 6)])
def test_board_sizes_outside_4_to_9_are_refused(width, height):
    with pytest.raises(ValueError, match="must be from 4 to 9"):
        solve("", width, height)
    with pytest.raises(ValueError, match="must be from 4 to 9"):
        Solver(width, height)


def test_a_finished_game_is_refused_as_already_over():
    with pytest.raises(ValueError, match="game already over"):
        solve("1212121")                             # four in column 1
    full_draw = find_drawn_full_game(4, 4)
    assert len(full_draw) == 16
    with pytest.raises(ValueError, match="game already over"):
        solve(full_draw, 4, 4)


def find_drawn_full_game(width, height) -> str:
    """A move string filling the board with no four in a row (depth-first, columns in order)."""
    b = BruteForce(width, height)
    cols: list[list[int]] = [[] for _ in range(width)]

    def dfs(moves):
        if len(moves) == width * height:
            return moves
        for c in range(width):
            if len(cols[c]) < height and not b.makes_four(cols, c, len(moves) % 2):
                cols[c].append(len(moves) % 2)
                found = dfs(moves + str(c + 1))
                cols[c].pop()
                if found:
                    return found
        return None

    return dfs("")


@pytest.mark.parametrize("args,message", [
    ((1 << 49, 1 << 49, 1), "outside the board"),
    ((2, 1, 1), "where mask has none"),
    ((0, 2, 1), "floating"),
    ((0, 1, 2), "not moves_played"),
    ((1, 1, 1), "should have 0 stones"),
    ((-1, 0, 0), "non-negative"),
])
def test_impossible_bitboards_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        solve_bitboard(*args)


def test_negative_budgets_are_refused():
    with pytest.raises(ValueError, match="max_nodes"):
        solve("44", max_nodes=-1)
    with pytest.raises(ValueError, match="time_limit"):
        solve("44", time_limit=-0.5)


def imports_of(name):
    """The top-level modules a file of Connect-4's folder imports; ``.x`` for a module beside it."""
    with open(os.path.join(ROOT, "ai", "games", "connect4", name), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or "").split(".")[0])
    return imported


def test_the_solver_needs_only_the_standard_library_and_the_shared_bitboard():
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    assert imports_of("exact/solver.py") <= stdlib | {"..bitboard"}
    assert imports_of("bitboard.py") <= stdlib


def test_the_benchmark_script_checks_scores_and_prints_its_table():
    import subprocess
    script = os.path.join(ROOT, "bench", "bench_solver.py")
    out = subprocess.run([sys.executable, script, "--sets", "L3_R1,L2_R1", "--limit", "5",
                          "--quiet"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "L3_R1" in out.stdout and "L2_R1" in out.stdout and "0 mismatch(es)" in out.stdout
    bad = subprocess.run([sys.executable, script, "--sets", "nope"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and "unknown set" in bad.stderr
