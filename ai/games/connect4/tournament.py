"""A Connect-4 tournament of heuristics: every entrant plays every other, both colours, from
each of K balanced openings the exact solver chose; standings from ``ai.teach.standings``.

**Entrants.** A heuristic entrant is a name and weights of ``terms``' named terms
(``"Ada:cells=1,open3=8"``). Every heuristic entrant searches with the same algorithm, the
levels' depth-limited alpha-beta compiled (``compiled_search``, no table kept between moves;
of equal moves, the first in the course's centre-first order, ``course_move``: the move of
the app's custom level with that heuristic and depth, ``level=custom&algo=alphabeta&
order=center``, so the game page re-runs and draws the tree behind any move of a game), to
the same depth, and within the same node budget if one is given: counts, never the clock, so
a game replays move for move on any machine.
A **boss** is one of the app's levels (``ai.levels``), named by its level (``beginner``),
playing as the app plays it (its own algorithm, depth, heuristic and node budgets) with no
time budget: counts decide its moves too. A boss at the tournament's depth would only be its
level's heuristic, which anyone can enter as weights (``terms.LEVEL_WEIGHTS``), and beginner
would be easy, medium hard. ``perfect`` is not a boss: its budget is a clock.

**Openings.** The games start from positions of ``OPENING_PLIES`` (2) plies, one stone of
each colour, so that the first moves, which a depth-limited search always plays the same,
differ between the openings. Balanced means the exact solver scores it a **draw**: with
perfect play neither colour wins, so a game is decided by the entrants' mistakes, not by
the colour they drew (each pair plays both colours anyway). Of the 49 two-ply positions, 12
are draws, 6 up to the board's mirror image (``24`` and ``64`` are one opening): those come
first, the most central first (the sum of both stones' distances to the centre column),
then by their moves. Beyond them come the openings nearest a draw: the wins with the
smallest Pons score, the win that comes latest (a score of 1: on the board's last stones),
which, played with both colours, still measure the players more than the colour. The list
(``candidates``) is made by the solver at first use (``exact.analyse``, from its opening
book: milliseconds) and is the same on every machine; ``openings(k)`` is its first ``k``.

**Schedule.** A double round robin: for each opening, for each pair in entry order, two
games, each entrant first once. Each game's ``moves`` are the whole game from the empty
board (the opening included), 1-indexed columns as the app's links write them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from ai.teach.standings import Result, standings

from . import compiled_search
from .accuracy import MAX_DEPTH
from .rules import Connect4
from .terms import WeightedHeuristic, format_weights, parse

GAME = Connect4()
OPENING_PLIES = 2
MAX_OPENINGS = 12
MAX_ENTRANTS = 60              # a double round robin of 60: 3,540 games an opening
MAX_NAME = 40


@dataclass(frozen=True)
class Entrant:
    name: str
    heuristic: str | None      # the weights' text form; None for a boss
    level: str | None = None   # a boss: its level's name

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": "boss" if self.level else "heuristic",
                "heuristic": self.heuristic, "level": self.level}


def check_name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else name
    if not isinstance(name, str) or not name:
        raise ValueError("an entrant needs a name before its heuristic: NAME:cells=1,open3=8")
    if len(name) > MAX_NAME:
        raise ValueError(f"an entrant's name is at most {MAX_NAME} characters: {name[:20]!r}...")
    if not name.isprintable():
        raise ValueError(f"an entrant's name is printable characters only: {name!r}")
    return name


def entrant(text: str) -> Entrant:
    """An entrant from ``NAME:weights`` (``terms.parse``'s text form).

    Raises:
        ValueError: no ``:``, no name, a name too long, weights ``terms.parse`` refuses.
    """
    name, colon, weights = (text or "").partition(":")
    if not colon:
        raise ValueError(f"{text!r}: an entrant is NAME:weights, e.g. Ada:cells=1,open3=8")
    name = check_name(name)
    try:
        return Entrant(name, format_weights(parse(weights)))
    except ValueError as err:
        raise ValueError(f"entrant {name!r}: {err}") from None


def boss(level: str) -> Entrant:
    """The app's level ``level`` as an entrant named by its level.

    Raises:
        ValueError: an unknown level, or ``perfect`` (its budget is a clock).
    """
    from ai.levels import LEVELS
    lv = LEVELS.get(level)
    if lv is None:
        raise ValueError(f"unknown level {level!r}: the bosses are "
                         + ", ".join(n for n, v in LEVELS.items() if v.load_independent))
    if not lv.load_independent:
        raise ValueError(f"{level!r} cannot be a boss: its moves depend on a clock, and every "
                         "move of a tournament is decided by counts")
    return Entrant(level, None, level)


def check_entrants(entrants: list[Entrant]) -> list[Entrant]:
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least two entrants (heuristics or bosses)")
    if len(entrants) > MAX_ENTRANTS:
        raise ValueError(f"at most {MAX_ENTRANTS} entrants in a round robin, not "
                         f"{len(entrants)}")
    seen = set()
    for e in entrants:
        key = e.name.casefold()
        if key in seen:
            raise ValueError(f"two entrants are named {e.name!r}: each name once (a boss is "
                             "named by its level)")
        seen.add(key)
    return entrants


def check_depth(depth) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"the depth is a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    return depth


# -- openings -----------------------------------------------------------------------------------

def _mirror(moves: str) -> str:
    return "".join(str(GAME.width + 1 - int(c)) for c in moves)


@lru_cache(maxsize=1)
def candidates() -> tuple[tuple[str, int], ...]:
    """Every two-ply opening up to the mirror image, with its exact score for the side to
    move (Pons'), in the order the tournament takes them (see the module's text)."""
    from .exact import analyse
    centre = (GAME.width + 1) / 2
    out = []
    for a in range(1, GAME.width + 1):
        reply = analyse(str(a), store=None, time_limit=60.0)
        if not reply.complete:
            raise ValueError(f"the exact solver did not score the replies to {a}")
        for b in range(1, GAME.width + 1):
            moves = f"{a}{b}"
            if _mirror(moves) < moves or reply.scores[b - 1] is None:
                continue
            score = -reply.scores[b - 1]            # for the side to move after both stones
            out.append((moves, score, abs(a - centre) + abs(b - centre)))
    out.sort(key=lambda m: (abs(m[1]), m[1] < 0, m[2], m[0]))
    return tuple((m, s) for m, s, _ in out)


def openings(k: int) -> list[dict]:
    """The first ``k`` openings (``candidates``): each ``moves`` and its exact ``score``."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_OPENINGS:
        raise ValueError(f"the number of openings is a whole number from 1 to {MAX_OPENINGS}, "
                         f"not {k!r}")
    return [{"moves": m, "score": s} for m, s in candidates()[:k]]


# -- games --------------------------------------------------------------------------------------

class Player:
    """An entrant's move chooser, counting its nodes."""

    def __init__(self, e: Entrant, depth: int, max_nodes: int | None):
        self.entrant, self.nodes = e, 0
        if e.level:
            from ai.levels import LEVELS
            level = LEVELS[e.level]
            self._play = lambda s: level.play(GAME, s, time_limit=None)
        else:
            h = WeightedHeuristic(GAME, parse(e.heuristic))
            self._play = lambda s: compiled_search.alphabeta(GAME, s, depth, heuristic=h,
                                                             max_nodes=max_nodes,
                                                             order="center", course_move=True)

    def move(self, state) -> int:
        r = self._play(state)
        self.nodes += r.stats.nodes
        return r.move


def play_game(first: Player, second: Player, opening: str) -> tuple[str, float]:
    """The game between ``first`` (who moves after the opening) and ``second``: its moves
    from the empty board and the first's points."""
    state = GAME.from_moves(opening)
    moves = list(opening)
    players = (first, second)
    turn = 0
    while not GAME.is_terminal(state):
        column = players[turn].move(state)
        state = GAME.result(state, column)
        moves.append(str(column + 1))
        turn ^= 1
    u = GAME.utility(state, GAME.to_move(GAME.from_moves(opening)))
    return "".join(moves), 1.0 if u > 0 else 0.0 if u < 0 else 0.5


def schedule(n: int, k: int) -> list[tuple[int, int, int]]:
    """(opening, first, second) of every game: for each opening, each pair in entry order,
    both colours."""
    return [(o, a, b) for o in range(k) for i in range(n) for j in range(i + 1, n)
            for a, b in ((i, j), (j, i))]


def run(entrants: list[Entrant], depth: int = 4, n_openings: int = 2,
        max_nodes: int | None = None, progress=None) -> dict:
    """The whole tournament (see the module's text) as a dict: ``settings``, ``entrants``,
    ``openings``, ``standings``, ``crosstable``, ``games``, and ``timing`` (every measured
    time, in ms, and nothing else measured in time: the rest is the same on every run).
    ``progress(done, total)``, if given, after each game."""
    started = time.perf_counter()
    check_entrants(entrants)
    check_depth(depth)
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise ValueError(f"the node budget is a positive whole number, not {max_nodes!r}")
    chosen = openings(n_openings)
    opened = time.perf_counter()
    players = [Player(e, depth, max_nodes) for e in entrants]
    games, results = [], []
    plan = schedule(len(entrants), len(chosen))
    for done, (o, a, b) in enumerate(plan, 1):
        moves, score = play_game(players[a], players[b], chosen[o]["moves"])
        first, second = entrants[a].name, entrants[b].name
        games.append({"first": first, "second": second, "opening": chosen[o]["moves"],
                      "moves": moves, "result": {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[score],
                      "winner": first if score == 1 else second if score == 0 else None})
        results.append(Result(first, second, score))
        if progress:
            progress(done, len(plan))
    played = time.perf_counter()
    rows, cross = standings([e.name for e in entrants], results)
    nodes = {p.entrant.name: p.nodes for p in players}
    for row in rows:
        row["nodes"] = nodes[row["name"]]
    ended = time.perf_counter()
    return {
        "game": "connect4",
        "settings": {"depth": depth, "max_nodes": max_nodes, "openings": len(chosen),
                     "opening_plies": OPENING_PLIES, "algorithm": "alphabeta",
                     "schedule": "double round robin"},
        "entrants": [e.as_dict() for e in entrants],
        "openings": chosen,
        "standings": rows,
        "crosstable": cross,
        "games": games,
        "timing": {"total_ms": _ms(ended - started), "openings_ms": _ms(opened - started),
                   "games_ms": _ms(played - opened), "standings_ms": _ms(ended - played),
                   "games_per_second": round(len(games) / max(played - opened, 1e-9), 1)},
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
