"""The compiled solver (``ai/games/connect4/solver_fast.py``) and the opening book (``ai/games/connect4/opening_book.py``)
against answers from outside them: Pascal Pons' published scores, the pure-Python reference
solver (``ai/games/connect4/solver.py``), the brute force of ``tests/test_solver.py``, and the book
package's own pure-Python encoder."""
from __future__ import annotations

import os
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.games.connect4 import numba_cache, opening_book, solver_kernel
from ai.games.connect4.solver import Solver, parse_moves
from ai.games.connect4.solver_fast import FastSolver, fits
from tests.test_solver import TickingClock, brute, pons_set

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def book():
    b = opening_book.shared()
    assert b is not None, "bitbully-databases is a dependency (pyproject.toml)"
    return b


@pytest.fixture(scope="module")
def fast():
    return FastSolver(7, 6)


@pytest.fixture(scope="module")
def fast_book(book):
    return FastSolver(7, 6, book=book)


# -- Pons' published scores ----------------------------------------------------------------

@pytest.mark.parametrize("name,step", [("L3_R1", 5), ("L2_R1", 5), ("L2_R2", 5), ("L1_R1", 5)])
def test_pons_positions_get_exactly_the_published_scores(fast, name, step):
    wrong = []
    for moves, published in pons_set(name)[::step]:
        fast.reset()
        r = fast.solve(moves)
        if (r.score, r.complete) != (published, True):
            wrong.append((moves, published, r.score))
    assert wrong == []


def test_the_beginning_positions_of_l1_r2_get_their_scores_with_and_without_the_book(fast, fast_book):
    # Pons' medium beginning set (4-14 stones): 1.2 million nodes a position for his solver.
    for moves, published in pons_set("L1_R2")[:1000:50]:
        assert fast_book.solve(moves).score == published
        if len(moves) >= 11:          # the earlier ones need seconds without the book
            fast.reset()
            assert fast.solve(moves).score == published


def test_the_best_move_keeps_the_score_by_the_reference_solver(fast):
    # Whether the move named achieves the score, checked by the pure-Python reference.
    ref = Solver(7, 6)
    for moves, published in pons_set("L2_R1")[::50]:
        r = fast.solve(moves)
        child = moves + str(r.best_move + 1)
        ref.reset()
        assert r.score == published
        assert -ref.solve(child).score == published, (moves, r.best_move)


def test_node_counts_are_pons_on_easy_positions(fast):
    # The same algorithm as Pons' C++ (51 and 450 nodes on average over his sets).
    l3, l2 = [], []
    for moves, _ in pons_set("L3_R1")[::10]:
        fast.reset()
        l3.append(fast.solve(moves).nodes)
    for moves, _ in pons_set("L2_R1")[::10]:
        fast.reset()
        l2.append(fast.solve(moves).nodes)
    assert 30 <= sum(l3) / len(l3) <= 80
    assert 250 <= sum(l2) / len(l2) <= 700


# -- the reference solver, on every board size the kernel takes -------------------------------

@st.composite
def positions(draw):
    """A board size the kernel takes, and a position of it reached by legal moves, not over."""
    width, height = draw(st.sampled_from([(4, 4), (5, 4), (6, 5), (7, 6), (5, 6), (8, 5)]))
    rng = random.Random(draw(st.integers(0, 10**9)))
    # Deep enough that the reference solves it in well under a second.
    n = draw(st.integers(max(0, width * height - 16), width * height - 1))
    moves = ""
    for _ in range(n):
        cols = [c for c in range(width) if moves.count(str(c + 1)) < height]
        moves += str(rng.choice(cols) + 1)
        try:
            parse_moves(moves, width, height)
            Solver(width, height)._validate(*parse_moves(moves, width, height))
        except ValueError:
            moves = moves[:-1]
            break
    return width, height, moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_compiled_solver_equals_the_reference_and_the_brute_force(case):
    width, height, moves = case
    assert fits(width, height)
    ref = Solver(width, height).solve(moves)
    solver = FastSolver(width, height, table_slots=1_000_003)
    assert solver.compiled
    fast = solver.solve(moves)
    assert (fast.score, fast.complete) == (ref.score, True)
    if width * height <= 20:
        assert fast.score == brute(width, height).score(moves)


def test_board_sizes_beyond_the_kernel_are_solved_by_the_reference():
    s = FastSolver(9, 9)
    assert not s.compiled
    assert s.solve("112233").score == (81 + 1 - 6) // 2


# -- budgets -------------------------------------------------------------------------------

def test_a_node_budget_stops_the_search_with_an_interval_that_holds_the_true_score(fast):
    for moves, published in pons_set("L2_R2")[:200:20]:
        fast.reset()
        r = fast.solve(moves, max_nodes=500)
        if r.complete:
            assert r.score == published
        else:
            assert r.lower <= published <= r.upper
            assert r.nodes <= 500


def test_a_time_budget_stops_an_early_position_at_its_clock(monkeypatch):
    """The clock moves 0.1 s at each reading (read at the start and every 16,384 nodes),
    whatever the machine's speed: a 0.2 s budget is spent at the second look. (How promptly
    in real time: bench/bench_solver.py.)"""
    monkeypatch.setattr(time, "perf_counter", TickingClock())
    s = FastSolver(7, 6)                     # no book: the empty board takes minutes
    r = s.solve("", time_limit=0.2)
    assert not r.complete
    assert r.nodes <= 3 * 16_384
    assert r.lower <= 1 <= r.upper          # the first player wins with its 21st stone: 1


# -- the opening book ------------------------------------------------------------------------

def _decode(key: int) -> tuple[int, int]:
    """A book key back to (current, mask): the first player, to move at 12 stones, is
    ``10``, the second ``11``, ``0`` ends a column."""
    bits = format(key & 0xFFFFFFFF, "032b")
    i = current = mask = 0
    for c in range(7):
        r = 0
        while bits[i] == "1":
            b = 1 << (c * 7 + r)
            mask |= b
            if bits[i + 1] == "0":
                current |= b
            i += 2
            r += 1
        i += 1
    return current, mask


def _board_matrix(current: int, mask: int) -> list[list[int]]:
    """The book package's board: rows top to bottom, 1 the first player, 2 the second."""
    return [[(1 if current >> (c * 7 + r) & 1 else 2) if mask >> (c * 7 + r) & 1 else 0
             for c in range(7)] for r in reversed(range(6))]


def test_keys_are_those_of_the_book_packages_own_encoder(book):
    from bitbully_databases import BitBullyDatabases as BBD
    rng = random.Random(3)
    for i in rng.sample(range(len(book)), 50):
        current, mask = _decode(int(book.keys[i]))
        board = _board_matrix(current, mask)
        assert opening_book.huffman_key(current, mask) == BBD._to_huffman(board) == book.keys[i]
        assert opening_book.huffman_key(current, mask, mirror=True) == \
            BBD._to_huffman(BBD._mirror_horiz(board))
        assert solver_kernel.book_key(current, mask, 7, 6, True) == \
            opening_book.huffman_key(current, mask, mirror=True)


def test_a_random_sample_of_the_book_agrees_with_our_solver(book, fast):
    # An older 12-ply book had two wrong entries (MarkusThill/Connect-Four #3): the book is
    # trusted as far as this sample, solved without it, says.
    rng = random.Random(14)
    sample = rng.sample(range(len(book)), 40)
    wrong = []
    for i in sample:
        current, mask = _decode(int(book.keys[i]))
        r = fast.solve_bitboard(current, mask, 12)
        if r.score != book.scores[i]:
            wrong.append((i, int(book.scores[i]), r.score))
    assert wrong == []


def test_the_book_answers_for_a_position_and_its_mirror_image(book):
    current, mask = _decode(int(book.keys[12345]))
    mirror_current = mirror_mask = 0
    for c in range(7):
        col = ((current >> (c * 7)) & 0x3F) << ((6 - c) * 7)
        mirror_current |= col
        mirror_mask |= ((mask >> (c * 7)) & 0x3F) << ((6 - c) * 7)
    assert book.score(current, mask) == book.scores[12345]
    assert book.score(mirror_current, mirror_mask) == book.scores[12345]
    assert book.score(current, mask | (1 << 48)) is None       # not 12 stones


def test_a_look_up_searches_the_keys_as_they_are_never_a_converted_copy(book, monkeypatch):
    """Given a Python int, NumPy 2's searchsorted converts the whole 4.2-million-key array
    first (issue 24: 5.5 ms a look-up instead of ~3 µs). The key must come in the keys' type."""
    import numpy as np
    seen = []
    real = np.searchsorted

    def watch(a, v, *args, **kwargs):
        seen.append(np.asarray(v).dtype)
        return real(a, v, *args, **kwargs)

    monkeypatch.setattr(np, "searchsorted", watch)
    current, mask = _decode(int(book.keys[12345]))
    assert book.score(current, mask) == book.scores[12345]
    assert seen and all(d == book.keys.dtype for d in seen), seen


def test_the_book_in_memory_is_compact(book):
    assert len(book) == 4_200_899                 # the package's documented size
    assert book.nbytes < 25_000_000


# -- numba's cache -----------------------------------------------------------------------------

def test_numba_caches_in_a_temporary_directory_when_the_package_is_read_only(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba_cache, "_writable", lambda path: False)
    import numba
    before = numba.config.CACHE_DIR
    try:
        path = numba_cache.configure()
        assert path and os.path.isdir(path) and os.access(path, os.W_OK)
        assert os.environ["NUMBA_CACHE_DIR"] == path == numba.config.CACHE_DIR
    finally:
        numba.config.CACHE_DIR = before


def test_numba_keeps_its_default_beside_the_source_when_it_can_write_there(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba_cache, "_writable", lambda path: True)
    assert numba_cache.configure() is None



def test_the_search_is_compiled_without_the_gil():
    # nogil: the server's event loop keeps answering while a worker thread searches. (A thread
    # counting during a search cannot tell: between the root's null-window probes, and at each
    # clock reading, the search is back in Python, which hands the GIL over anyway.)
    for fn in (solver_kernel.negamax, solver_kernel.root, solver_kernel.book_probe):
        assert fn.targetoptions.get("nogil") is True


def test_a_guess_changes_the_probes_never_the_score():
    # Pons' published scores; guesses right, one off, and far off on either side
    s = FastSolver(7, 6)
    for moves, published in pons_set("L2_R1")[:40:4]:
        current, mask, nb = parse_moves(moves)
        for guess in (published, published - 1, published + 1, -15, 15):
            s.reset()
            r = s.solve_bitboard(current, mask, nb, guess=guess)
            assert r.score == published, (moves, guess)
