"""Every column's exact score (``ai/games/connect4/exact/analysis.py``), the table of solved positions
(``ai/games/connect4/exact/solved_store.py``) and ``python -m ai analyse``, against answers from outside: Pascal
Pons' published sets (a position's score is its parent's score for the column that led to it,
negated) and his empty-board scores."""
from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from ai.games.connect4.exact import analysis
from ai.games.connect4.exact import analysis_kernel as AK
from ai.games.connect4.exact.analysis import outcome, table_key
from ai.games.connect4.bitboard import geometry
from ai.games.connect4.exact.solved_store import SolvedStore
from ai.games.connect4.exact.solver import Solver, parse_moves
from tests.test_solver import TickingClock, pons_set

def analyse(*args, **kwargs):
    """The analysis with no clock unless a test gives one: the web's 3 s default would make
    an answer depend on how loaded the machine is (a budget that counts nodes, or the
    simulated clock, decides in these tests)."""
    kwargs.setdefault("time_limit", None)
    return analysis.analyse(*args, **kwargs)


# Pons' site for the empty board: the centre wins (with the first player's last stone), its
# neighbours draw, then -1 and -2 towards the edges.
EMPTY_BOARD = [-2, -1, 0, 1, 0, -1, -2]


def sample_by_ply(name: str, per_ply: int) -> list[tuple[str, int]]:
    by_ply: dict[int, list] = {}
    for moves, score in pons_set(name):
        by_ply.setdefault(len(moves), []).append((moves, score))
    return [p for ply in sorted(by_ply) for p in by_ply[ply][:per_ply]]


def test_the_empty_board_gets_pons_scores():
    a = analyse("", store=None)
    assert a.scores == EMPTY_BOARD
    assert (a.score, a.best_move, a.complete, a.plies) == (1, 3, True, 0)


def test_every_first_move_leaves_the_opponent_pons_score_negated():
    # Ply 1: after the first player's column c the second player's best is -EMPTY_BOARD[c].
    for c in range(7):
        a = analyse(str(c + 1), store=None)
        assert a.score == -EMPTY_BOARD[c], c + 1


@pytest.mark.parametrize("name,per_ply", [("L1_R1", 2), ("L1_R2", 1), ("L2_R1", 1), ("L2_R2", 1)])
def test_every_ply_from_3_to_27_gets_pons_scores_for_the_position_and_the_column_played(name, per_ply):
    # Pons' position P (score S for its side to move) is its parent's column P[-1]: that
    # column scores -S for the parent's side to move, and the parent's best scores at least as
    # much; and P itself, analysed, scores S.
    wrong = []
    for moves, published in sample_by_ply(name, per_ply):
        parent = analyse(moves[:-1], store=None)
        col = int(moves[-1]) - 1
        child = analyse(moves, store=None)
        if (parent.scores[col], child.score, max(child.scores[c] for c in range(7)
                                                 if child.scores[c] is not None)) != \
                (-published, published, published) or parent.score < -published:
            wrong.append((moves, published, parent.scores[col], child.score))
    assert wrong == []


def test_every_column_agrees_with_the_pure_python_reference_in_the_middle_game():
    ref = Solver(7, 6)
    for moves, _ in pons_set("L2_R1")[:100:25]:
        a = analyse(moves, store=None)
        current, mask, nb = parse_moves(moves)
        for c in range(7):
            if a.columns[c] is None:
                assert moves.count(str(c + 1)) == 6
                continue
            r = ref.solve(moves + str(c + 1)) if not _wins_at_once(moves, c) else None
            expected = (42 + 1 - len(moves)) // 2 if r is None else -r.score
            assert a.scores[c] == expected, (moves, c)


def _wins_at_once(moves: str, c: int) -> bool:
    try:
        Solver(7, 6)._validate(*parse_moves(moves + str(c + 1)))
    except ValueError as err:
        return "four in a row" in str(err)
    return False


def test_a_full_column_is_none_and_the_book_answers_at_11_stones():
    a = analyse("44444412121", store=None)          # column 4 full; children have 12 stones
    assert a.columns[3] is None and a.scores[3] is None
    assert {c.source for c in a.columns if c is not None} <= {"book", "rules"}
    assert a.nodes == 0


def test_best_only_stops_after_the_best_move():
    moves, published = pons_set("L1_R2")[5]
    a = analyse(moves, store=None, best_only=True)
    assert a.score == published
    assert a.scores[a.best_move] == published
    assert not a.complete
    assert all(c.upper <= published for c in a.columns if c is not None)
    full = analyse(moves, store=None)
    assert full.complete and full.scores[a.best_move] == published


def test_a_budget_gives_intervals_that_hold_the_true_scores():
    a = analyse("", store=None, use_book=False, max_nodes=20_000)
    assert not a.complete
    for c, true in enumerate(EMPTY_BOARD):
        col = a.columns[c]
        assert col.lower <= true <= col.upper
        assert col.exact or col.score is None


def test_a_time_limit_stops_the_analysis_on_any_machine(monkeypatch):
    """The clock moves 0.1 s at each reading, whatever the machine's speed (or its load): a
    0.2 s limit is spent after a few readings, and what was proven still holds the truth.
    (How promptly in real time: bench/bench_analysis.py.)"""
    monkeypatch.setattr(time, "perf_counter", TickingClock())
    t = analyse("", store=None, use_book=False, time_limit=0.2)
    assert not t.complete
    for c, true in enumerate(EMPTY_BOARD):
        assert t.columns[c].lower <= true <= t.columns[c].upper


def cold_solver():
    """The solver the next analysis borrows, its table emptied."""
    s = analysis._borrow(7, 6, True)
    s.reset()
    analysis._give_back(s)


def both_twins(monkeypatch, moves, **options):
    """The analysis of ``moves`` by the compiled loop, then by its readable twin."""
    compiled = analyse(moves, fresh=True, **options)
    monkeypatch.setattr(analysis, "_analyse_compiled", analysis._analyse_reference)
    reference = analyse(moves, fresh=True, **options)
    monkeypatch.undo()
    return compiled, reference


@pytest.mark.parametrize("options", [{}, {"best_only": True}, {"max_nodes": 300},
                                     {"max_nodes": 5_000}, {"use_book": False, "max_nodes": 20_000}])
def test_the_compiled_analysis_is_its_readable_twin_column_for_column(monkeypatch, options):
    # Positions of every kind: the empty board (its own mirror image), "44" (mirror too),
    # Pons' sets from 2 to 30 stones (the book's 11 and 12 stones among them), a win at once
    # ("445566"), two threats ("44556"), the last cell and the two last cells.
    last = "52732125535247442157723434337661657666111"
    positions = ["", "44", "445566", "44556", "4455", last, last[:-1]]
    positions += [m for m, _ in sample_by_ply("L1_R1", 1) + sample_by_ply("L2_R2", 1)]
    checked = 0
    for moves in positions:
        compiled, reference = both_twins(monkeypatch, moves, store=None, **options)
        assert compiled.columns == reference.columns, moves
        assert (compiled.best_move, compiled.score, compiled.nodes, compiled.complete) == \
            (reference.best_move, reference.score, reference.nodes, reference.complete), moves
        checked += 1
    assert checked == len(positions) >= 30


def test_the_compiled_analysis_reads_and_writes_the_table_as_its_twin(monkeypatch, tmp_path):
    moves = pons_set("L2_R2")[3][0]
    for store_dir in ("a", "b"):
        os.makedirs(tmp_path / store_dir)
    a = SolvedStore(str(tmp_path / "a" / "solved.sqlite3"))
    b = SolvedStore(str(tmp_path / "b" / "solved.sqlite3"))
    for child in (moves + "2", moves + "6"):     # two columns known to the table
        analyse(child, store=a)
        analyse(child, store=b)
    cold_solver()
    compiled = analyse(moves, store=a)
    monkeypatch.setattr(analysis, "_analyse_compiled", analysis._analyse_reference)
    cold_solver()
    reference = analyse(moves, store=b)
    assert compiled.columns == reference.columns and compiled.score == reference.score
    assert "table" in {c.source for c in compiled.columns if c}
    assert a.count() == b.count() > 0
    rows = "SELECT width, height, key, score FROM solved ORDER BY key"
    with sqlite3.connect(a.path) as x, sqlite3.connect(b.path) as y:
        assert x.execute(rows).fetchall() == y.execute(rows).fetchall()


def test_a_position_one_stone_past_the_book_scores_at_least_what_its_parents_allow():
    # Pons' positions of 13 stones, with their published scores: each parent (the last
    # mover's top stone taken away: 12 stones, in the book) has the position among its
    # children, so the position scores at least minus the parent's score; the bound is the
    # best of those, and often the score itself (the analysis starts its probes there).
    solver = analysis._borrow(7, 6, True)
    g = geometry(7, 6)
    positions = [(m, s) for name in ("L1_R1", "L1_R2") for m, s in pons_set(name)
                 if len(m) == 13]
    bounded = exact = 0
    for moves, published in positions:
        current, mask, _ = parse_moves(moves)
        bound = analysis.book_parents_bound(solver, current, mask, g)
        compiled = AK.book_parents_bound(current, mask, solver._ctx)
        if bound is None:           # no parent in the book (it leaves out some positions)
            assert compiled == AK.NO_SCORE, moves
            continue
        assert bound <= published and compiled == bound, moves
        bounded += 1
        exact += bound == published
    analysis._give_back(solver)
    # 320 positions: 309 with a parent in the book, the bound exact on 150 of them
    assert (len(positions), bounded, exact) == (320, 309, 150)


@pytest.mark.parametrize("position, reason", [
    ((0, 0b11, 2), "the side to move should have 1 stones"),
    ((0, 0b101, 2), "floating above an empty cell"),
    ((1 << 6, 1 << 6, 0), "outside the board"),
    (parse_moves("1212121"), "game already over"),      # the first player's four
    ((True, 1, 1), "non-negative int"),
    ((0, 1 << 70, 1), "outside the board"),
])
def test_a_position_that_is_not_one_is_refused_with_the_reason(position, reason):
    # the compiled analysis checks the position in machine code, and says why in words
    with pytest.raises(ValueError, match=reason):
        analysis.analyse_position(*position, store=None)


def test_outcome_words_count_the_movers_moves():
    assert outcome(18, 6) == ("win", 1)              # a win at once with the 4th stone
    assert outcome(1, 0) == ("win", 21)              # the centre of the empty board
    assert outcome(-2, 0) == ("loss", 20)
    assert outcome(-18, 5) == ("loss", 1)            # the opponent wins at once
    assert outcome(0, 10) == ("draw", 0)


# -- the table of solved positions -------------------------------------------------------------

def test_a_position_analysed_once_comes_from_the_table_the_second_time(tmp_path):
    store = SolvedStore(str(tmp_path / "solved.sqlite3"))
    moves = pons_set("L2_R2")[3][0]
    first = analyse(moves, store=store)
    assert first.complete and first.nodes > 0
    again = analyse(moves, store=store)
    assert again.scores == first.scores and again.nodes == 0
    assert {c.source for c in again.columns if c} <= {"table", "rules"}
    # The mirror image is the same position for the table.
    mirrored = "".join(str(8 - int(ch)) for ch in moves)
    m = analyse(mirrored, store=store)
    assert m.scores == first.scores[::-1] and m.nodes == 0


def test_table_keys_fold_mirror_images():
    g = geometry(7, 6)
    a = parse_moves("1123")
    b = parse_moves("7765")
    assert table_key(a[0], a[1], g) == table_key(b[0], b[1], g)
    assert table_key(a[0], a[1], g) != table_key(*parse_moves("1124")[:2], g)


def _writer(path, start):
    s = SolvedStore(path)
    for i in range(start, start + 300, 10):
        s.put_many(7, 6, {k: k % 7 - 3 for k in range(i, i + 10)})


def test_concurrent_workers_share_the_table_without_losing_rows(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, start)) for start in (0, 150, 300)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    s = SolvedStore(path)
    assert s.count() == 600
    assert s.get_many(7, 6, [0, 299, 599, 600]) == {0: -3, 299: 299 % 7 - 3, 599: 599 % 7 - 3}


def test_a_worker_that_meets_another_one_s_lock_at_start_keeps_its_table(tmp_path):
    # Workers start together: one sets the file up while another opens it. A lock met then
    # is a moment's wait, not a broken file: the store must not turn itself off for good
    # (it did, and one worker of three then stored nothing: rows lost under load).
    import sqlite3
    path = str(tmp_path / "shared.sqlite3")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    late = SolvedStore(path, timeout=0.05)
    assert late.put_many(7, 6, {1: 2}) == 0        # locked: this write is dropped...
    assert late.error is None                       # ...but the table stays on
    holder.execute("COMMIT")
    holder.close()
    assert late.put_many(7, 6, {1: 2, 3: -1}) == 2
    assert late.get_many(7, 6, [1, 3]) == {1: 2, 3: -1}


def test_an_unwritable_table_only_turns_the_table_off(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    store = SolvedStore(str(blocker / "solved.sqlite3"))
    a = analyse("4453", store=store)
    assert a.complete and store.error
    assert a.score == max(s for s in a.scores if s is not None)


# -- the command line --------------------------------------------------------------------------

def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("empty", ["", "-"])
def test_the_cli_gives_the_empty_boards_seven_scores_as_json(empty, tmp_path):
    out = run("analyse", "connect4", empty, "--json",
              env={"MINIMAX_SOLVED_DB": str(tmp_path / "s.sqlite3")})
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scores"] == EMPTY_BOARD
    assert data["best_move"] == 4 and data["elapsed_ms"] > 0


def test_the_cli_says_null_for_a_full_column_and_names_sources():
    out = run("analyse", "connect4", "444444", "--json", "--no-store")
    data = json.loads(out.stdout)
    assert data["scores"][3] is None and len(data["scores"]) == 7
    text = run("analyse", "connect4", "444444", "--no-store").stdout
    assert "column 4" not in text and "column 1:" in text and "best move:" in text


@pytest.mark.parametrize("moves", ["4x", "44448", "11223344"])
def test_the_cli_rejects_bad_moves_in_one_line(moves):
    out = run("analyse", "connect4", moves, "--no-store")
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1


def test_the_last_empty_cell_is_a_draw_even_when_the_table_knows_the_position(tmp_path):
    """A position of 41 stones whose score the table already holds: its one column fills the
    board. The analysis searched that full board and the solver refused it ("game already
    over"), which the perfect level met in a long game once the table held the position."""
    import random

    from ai.games.connect4.rules import Connect4
    game = Connect4()
    for seed in range(500):
        rng, state, moves = random.Random(seed), game.initial_state(), ""
        while not game.is_terminal(state) and state.moves < 41:
            # a move that makes no four, when there is one: the board fills up
            quiet = [m for m in game.actions(state)
                     if not game.is_terminal(game.result(state, m))]
            m = rng.choice(quiet or game.actions(state))
            state, moves = game.result(state, m), moves + str(m + 1)
        if state.moves == 41 and not game.is_terminal(state) and \
                game.result(state, game.actions(state)[0]).over != 1:
            break
    else:
        pytest.fail("no drawn 41-stone position found")
    store = SolvedStore(str(tmp_path / "solved.sqlite3"))
    for _ in range(2):                  # the second time, the position is in the table
        a = analyse(moves, store=store)
        assert (a.score, a.complete) == (0, True)
        assert [c.source for c in a.columns if c is not None] == ["rules"]


def test_a_budget_that_runs_out_after_the_books_score_gives_no_best_move_not_an_error():
    # 12 stones: the book gives the position's score at once, but each column needs a search
    # past it; with 1,000 nodes none finishes. This raised StopIteration (the perfect level
    # and expert, with their node budgets, met it).
    moves = "216442226663"
    a = analyse(moves, store=None, max_nodes=1000)
    assert a.score == 3 and a.best_move is None and not a.complete
    assert all(c.lower <= 3 and c.upper == 3 for c in a.columns)


def test_a_burst_of_analyses_at_once_leaves_one_idle_solver_not_one_per_analysis():
    # Three analyses at once each borrow a solver (a ~10 MB table); given back, one is kept
    # for the next analysis and the others are dropped (their tables freed).
    from ai.games.connect4.exact import analysis
    solvers = [analysis._borrow(7, 6, True) for _ in range(3)]
    assert len({id(s) for s in solvers}) == 3
    for s in solvers:
        analysis._give_back(s, True)
    assert analysis.idle_solvers() == 1
    assert analysis._borrow(7, 6, True) is solvers[-1]       # the warmest one
    analysis._give_back(solvers[-1], True)
    a = analyse("4444", store=None)
    assert a.complete and analysis.idle_solvers() == 1
