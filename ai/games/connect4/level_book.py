"""A level's replies in the first plies of 7x6 Connect-4, searched once and shipped with the
app (``ai/games/connect4/data/<level>-replies.json.gz``), so that the first moves of a game cost no search.

The default level decides by depth and node budget (``Level.load_independent``): its reply to
a position is the same on every machine, so a stored reply is exactly the search it would
make, stored whole (move, value, principal variation, root values, counts and the time it
took when the book was built). The book holds every position where the level is to move
within ``MAX_PLY`` plies when the other side plays anything and the level replies itself:
the level first (plies 0, 2, 4, 6) or second (plies 1, 3, 5, 7), about 1,700 positions. An
opening book of the engine's own, the way chess engines ship one; the tree panel of a move
from the book replays that search (``Level.with_tree``) as for any other.

The file carries a fingerprint of everything that decides a reply: the level's settings and
the source of the modules that search. If any changed, ``replies`` ignores the file (the
level searches as usual) and ``tests/test_level_book.py`` fails until it is rebuilt:

    python -m ai level-book connect4            # about a minute

The level is handed in (a ``Level`` of ``ai.levels``: its settings and its ``play``), by the
web through the rules' ``level_reply`` and by the command line through ``build_level_book``
(``ai.games.connect4.cli``): this folder does not import the levels.
"""
from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache
from pathlib import Path

from ai.course.scores import SearchResult, SearchStats

from .state import C4State

HERE = Path(__file__).resolve().parent
AI = HERE.parent.parent                  # ai/: the sources below are named from there
BOOK_LEVELS = ("hard",)          # the default level: the cheaper ones need no book
MAX_PLY = 7
# What decides a reply besides the level's settings (comments included: any edit counts).
# The solver's too: the default level asks it first, within a count of nodes (ai.levels,
# the rules' ``exact_within``).
SEARCH_SOURCES = ("games/connect4/bitboard.py", "games/connect4/rules.py", "games/connect4/state.py",
                  "games/connect4/fast_search.py", "games/connect4/heuristic.py",
                  "games/connect4/compiled_search.py", "games/connect4/compiled_terms.py",
                  "games/connect4/search_kernel.py", "games/connect4/bits_kernel.py",
                  "games/connect4/terms.py", "engine.py",
                  "heuristics.py", "course/scores.py", "course/search.py", "course/table.py",
                  "levels.py", "games/connect4/exact/play.py",
                  "games/connect4/exact/opening_book.py", "games/connect4/exact/book_layout.py",
                  "games/connect4/exact/solver.py", "games/connect4/exact/solver_fast.py",
                  "games/connect4/exact/solver_kernel.py")


def path_of(level_name: str) -> Path:
    return HERE / "data" / f"{level_name}-replies.json.gz"


def fingerprint(level) -> str:
    """What decides the replies of ``level`` (a ``Level``): its settings and the sources."""
    return _fingerprint(repr(level))


@lru_cache(maxsize=None)
def _fingerprint(settings: str) -> str:
    h = hashlib.sha256(settings.encode())
    for name in SEARCH_SOURCES:
        h.update((AI / name).read_bytes())
    return h.hexdigest()[:16]


def _entry(state: C4State, r: SearchResult) -> list:
    s = r.stats
    return [state.current, state.mask, r.move, r.value, list(r.pv), s.nodes, s.leaves,
            s.cutoffs, s.tt_probes, s.tt_hits, s.depth, round(s.elapsed, 6), r.algorithm,
            r.depth, r.complete, [[m, v] for m, v in r.root_values.items()],
            [list(layer) for layer in r.iterations]]


def _result(entry: list) -> SearchResult:
    (_, _, move, value, pv, nodes, leaves, cutoffs, probes, hits, depth, elapsed, algorithm,
     asked, complete, root_values, layers) = entry
    return SearchResult(move, value, tuple(pv),
                        SearchStats(nodes, leaves, cutoffs, probes, hits, depth, elapsed),
                        algorithm, asked, complete, None, {m: v for m, v in root_values},
                        tuple(tuple(layer) for layer in layers))


def positions(game, reply, max_ply: int = MAX_PLY):
    """Every position, not over, where the level is to move within ``max_ply`` plies, the
    other side playing any move and the level answering with ``reply(state)``."""
    seen = set()
    for level_first in (True, False):
        frontier = [game.initial_state()]
        for ply in range(max_ply + 1):
            level_to_move = (ply % 2 == 0) == level_first
            after = []
            for state in frontier:
                if game.is_terminal(state):
                    continue
                if level_to_move:
                    if state not in seen:
                        seen.add(state)
                        yield state
                    after.append(game.result(state, reply(state).move))
                else:
                    after.extend(game.result(state, m) for m in game.actions(state))
            frontier = list(dict.fromkeys(after))       # transpositions once
    return


def build(level, game, max_ply: int = MAX_PLY) -> dict:
    """The book of ``level`` (a ``Level``) on ``game`` (the rules, 7x6)."""
    entries, replies = [], {}

    def reply(state):
        if state not in replies:
            # no clock: the book holds what the counts decide, even on a busy machine
            replies[state] = level.play(game, state, time_limit=None)
            entries.append(_entry(state, replies[state]))
        return replies[state]
    for _ in positions(game, reply, max_ply):
        pass
    return {"level": level.name, "fingerprint": fingerprint(level), "max_ply": max_ply,
            "width": 7, "height": 6, "entries": entries}


@lru_cache(maxsize=None)
def _load(level_name: str, expected: str) -> dict | None:
    path = path_of(level_name)
    if level_name not in BOOK_LEVELS or not path.exists():
        return None
    with gzip.open(path, "rt") as f:
        book = json.load(f)
    if book["fingerprint"] != expected:
        return None                    # built for another version of the search: ignored
    return {(e[0], e[1]): e for e in book["entries"]}


def reply(level, game, state) -> SearchResult | None:
    """The stored search of ``level`` (a ``Level``) in ``state``, or None (no book for that
    level or board, a stale book, or a position outside it)."""
    if game.name != "connect4" or (game.width, game.height) != (7, 6):
        return None
    entries = _load(level.name, fingerprint(level))
    if entries is None:
        return None
    entry = entries.get((state.current, state.mask))
    return None if entry is None else _result(entry)


def write(level, game, max_ply: int = MAX_PLY) -> str:
    """Build the book of ``level`` on ``game`` (7x6) and write it where ``reply`` reads it;
    says what it did (``python -m ai level-book connect4``: ``ai.games.connect4.cli``).

    Raises:
        ValueError: a level that has no book (``BOOK_LEVELS``)."""
    if level.name not in BOOK_LEVELS:
        raise ValueError(f"level {level.name!r} has no book of first replies: "
                         f"{', '.join(BOOK_LEVELS)}")
    book = build(level, game, max_ply)
    path = path_of(level.name)
    path.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:          # mtime 0: the same bytes each time
        f.write(json.dumps(book, separators=(",", ":")).encode())
    return (f"{len(book['entries'])} replies of level {level.name} to ply {max_ply} "
            f"in {path.relative_to(AI.parent)}")
