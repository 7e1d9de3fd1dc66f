"""Connect-4's hooks for the review of a game (``ai.teach.review``): the exact score of a
position (Pons' convention, the compiled solver with the opening book and the table of solved
positions, ``ai.games.connect4.exact``), its words, and why a move loses: the threats the
refutation line builds.
"""
from __future__ import annotations

from . import exact
from .exact import analyse_position, outcome, table_key
from .bitboard import geometry, winning_cells
from ai.messages import N_, in_moves


def exact_score(game, state, *, time_limit=None, max_nodes=None, at_least=None,
                need_move=True, store="default"):
    """``(score, best column, nodes)`` of ``state``, Pons' score for the side to move (a
    finished game too: the side to move has lost, or drawn); None when the budget runs out.

    ``at_least``: a lower bound known already (the review knows that a position scores at
    least minus its parent's score): the solver's first null-window probe then asks whether
    the score is exactly that, which settles a best move in one probe. ``need_move=False``:
    the score alone (the best column may be None): a position of the opening book's ply
    is then one look-up, not a search of its columns."""
    if state.over == 1:          # the player who just moved won with their last stone
        return -((game.cells + 2 - state.moves) // 2), None, 0
    if state.over == 2:
        return 0, None, 0
    if not need_move:
        return _score_only(game, state, time_limit, max_nodes, at_least, store)
    a = analyse_position(state.current, state.mask, state.moves, game.width, game.height,
                         time_limit=time_limit, max_nodes=max_nodes, best_only=True,
                         store=store)
    if a.score is None:
        return None
    return a.score, a.best_move, a.nodes


def _score_only(game, state, time_limit, max_nodes, at_least, store):
    """The score alone: the table of solved positions, the book, else one solver search."""
    if store == "default":
        store = exact.default_store()
    g = geometry(game.width, game.height)
    key = table_key(state.current, state.mask, g)
    if store is not None:
        hit = store.get_many(g.width, g.height, [key])
        if key in hit:
            return hit[key], None, 0
    with exact.solver_for(game.width, game.height) as solver:
        if solver.book is not None and state.moves == solver.book.ply:
            s = solver.book.score(state.current, state.mask)
            if s is not None:
                return s, None, 0
        known = None if at_least is None else (at_least, g.cells)
        r = solver.solve_bitboard(state.current, state.mask, state.moves, time_limit=time_limit,
                                  max_nodes=max_nodes, known=known, guess=at_least)
    if not r.complete:
        return None
    if store is not None:
        store.put_many(g.width, g.height, {key: r.score})
    # the column the solver names is proven best only when a probe rose to the score: not
    # after a fail-low from the bound given, so none is named here
    return r.score, None, r.nodes


def score_outcome(game, state, score):
    """Pons' score of a move or position at ``state`` in words (``exact.outcome``)."""
    kind, k = outcome(score, state.moves, game.cells)
    return kind, (None if kind == "draw" else k)


def _threats(game, state, player: int) -> tuple[list[int], list[int]]:
    """The columns where ``player`` wins at once (playable), and those where a winning cell
    of theirs lies right above another of theirs (a stacked threat: whoever blocks the
    lower one gives them the upper one)."""
    g = geometry(game.width, game.height)
    stones = state.current if game.to_move(state) == player else state.current ^ state.mask
    wins = winning_cells(stones, state.mask, g)
    playable = 0
    for b, m in zip(game.bottom, game.column_mask):
        playable |= (state.mask + b) & m
    playable &= game.board_mask
    now = [c for c in range(game.width) if wins & playable & game.column_mask[c]]
    stacked = [c for c in range(game.width)
               if wins & (wins >> 1) & game.column_mask[c]]
    return now, stacked


def review_why(game, before, move, kept, line, before_words, after_words, cls):
    """The sentence of a move that lost something, as a list of (template, values)."""
    mover = game.to_move(before)
    kind_b, k_b = before_words
    kind_a, k_a = after_words
    v = {"move": move + 1, "kept": None if kept is None else kept + 1,
         "reply": line[0] + 1 if line else "", "in_k": in_moves(k_a),
         "in_kb": in_moves(k_b),
         "player": mover, "opponent": 1 - mover}
    if cls == "inaccuracy":
        if kind_a == "win":
            return [(N_("Column %(move)s still wins, but %(in_k)s instead of %(in_kb)s: "
                        "column %(kept)s was quicker."), v)]
        return [(N_("Column %(move)s still loses, but %(in_k)s instead of %(in_kb)s: "
                    "column %(kept)s held out longer."), v)]
    parts = []
    if kind_a == "loss":
        parts.append((N_("After column %(move)s, %(opponent)s wins %(in_k)s, starting with "
                         "column %(reply)s."), v))
    else:
        parts.append((N_("After column %(move)s, %(opponent)s holds a draw, starting with "
                         "column %(reply)s."), v))
    if kind_a == "loss":
        # Where the line builds two threats at once (or one on top of another), say so.
        state = game.result(before, move)
        for i, m in enumerate(line):
            state = game.result(state, m)
            if game.is_terminal(state):
                break
            if i % 2 == 0:            # after a move of the winner
                now, stacked = _threats(game, state, 1 - mover)
                if len(now) >= 2:
                    parts.append((N_("%(player)s cannot stop both threats, in columns %(a)s "
                                     "and %(b)s."), {"player": mover, "a": now[0] + 1,
                                                     "b": now[1] + 1}))
                    break
                if stacked and now:
                    parts.append((N_("%(player)s cannot stop %(opponent)s's two threats "
                                     "one above the other in column %(c)s."),
                                  {"player": mover, "opponent": 1 - mover, "c": stacked[0] + 1}))
                    break
    if kept is not None:
        if kind_b == "win":
            parts.append((N_("Column %(kept)s won %(in_kb)s."), v))
        elif kind_b == "draw":
            parts.append((N_("Column %(kept)s held the draw."), v))
    return parts


def review_drawing(game, before, move, line, max_line=None):
    """The position after the erring ``move`` with the refutation ``line`` on it, as rows
    from the top: each cell ``(player or None, number or None, erring)``: the erring disc
    marked, the line's discs numbered 1, 2, … in the order they are played."""
    numbers = {}
    state = game.result(before, move)
    err_cell = (move, bin(before.mask & game.column_mask[move]).count("1"))
    played = {err_cell: game.to_move(before)}
    for i, m in enumerate(line[:max_line] if max_line else line, 1):
        row = bin(state.mask & game.column_mask[m]).count("1")
        played[(m, row)] = game.to_move(state)
        numbers[(m, row)] = i
        state = game.result(state, m)
        if game.is_terminal(state):
            break
    rows = []
    for r in range(game.height - 1, -1, -1):
        cells = []
        for c in range(game.width):
            p = played.get((c, r))
            if p is None:
                p = game.cell(before, c, r)
            cells.append((p, numbers.get((c, r)), (c, r) == err_cell))
        rows.append(cells)
    return {"rows": rows, "width": game.width, "height": game.height,
            "wins": game.winning_cells(state)}
