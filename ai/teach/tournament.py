"""A tournament of heuristics and levels, for any game whose rules give openings
(``tournament_openings``): the entrants, the schedule, the games, the standings
(``ai.teach.standings``). This module names no game: each gives its terms (``weights_text``),
its balanced openings and, if it has one, a faster search of its own (``tournament_player``)
through the game protocol (``ai.course.game.Game``).

**Entrants.** A heuristic entrant is a name and weights of the game's named terms
(``"Ada:cells=1,open3=8"``), kept in the game's one written form of them. Every heuristic
entrant plays the move of the app's custom level with its heuristic and the tournament's
depth: the course's alpha-beta, centre first, the first of equal moves (the game page re-runs
and draws the tree behind any move of a game), within the same node budget if one is given:
counts, never the clock, so a game replays move for move on any machine. A **boss** is one of
the app's levels (``ai.levels``), named by its level (``beginner``), playing as the app plays
it with no time budget: counts decide its moves too. ``perfect`` is not a boss: its budget is
a clock.

**Openings.** The game's, balanced by its exact play (draws first), the same on every machine;
every pair plays each of them with both colours, so a game is decided by the entrants'
mistakes, not by the colour they drew.

**Schedule** (``ai.teach.pairing``). A double round robin up to a class's size (40 and the
bosses): for each opening, for each pair in entry order, two games, each entrant first once;
a Swiss system beyond, each round's pairs playing the same match. Each game's ``moves`` are
the whole game from the start (the opening included), as the app's links write them.

**Where the games run.** One after the other in this process (``local``), or through any
``runner``: a function given the tournament and a list of ``Job``s that yields each job's
``Outcome`` in the jobs' order (a queue's workers on other machines: ``ai.teach.queue``).
A game depends only on its job, so the result is the same wherever it ran. By default, the
queue of ``REDIS_URL`` when workers listen there, else this process.
"""
from __future__ import annotations

import time

from ai.teach import pairing
# a game's words, here too for the tournament's callers (``T.entrant``, ``T.local``...)
from ai.teach.match import (Entrant, Job, Outcome, Settings, local, play_game,  # noqa: F401
                            player, remembered)
from ai.teach.standings import Result, standings

MAX_NAME = 40
MAX_ENTRANTS = 500              # a Swiss system: 11 rounds of 250 pairs
MAX_DEPTH = 12                  # a game may refuse less deep (its ``tournament_player``)
RESULTS = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}


def check_name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else name
    if not isinstance(name, str) or not name:
        raise ValueError("an entrant needs a name before its heuristic: NAME:cells=1")
    if len(name) > MAX_NAME:
        raise ValueError(f"an entrant's name is at most {MAX_NAME} characters: {name[:20]!r}...")
    if not name.isprintable():
        raise ValueError(f"an entrant's name is printable characters only: {name!r}")
    return name


def entrant(game, text: str) -> Entrant:
    """An entrant from ``NAME:weights`` (the game's terms, ``weights_text``).

    Raises:
        ValueError: no ``:``, no name, a name too long, weights the game refuses.
    """
    name, colon, weights = (text or "").partition(":")
    if not colon:
        raise ValueError(f"{text!r}: an entrant is NAME:weights, e.g. Ada:cells=1")
    name = check_name(name)
    try:
        return Entrant(name, game.weights_text(weights))
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
        raise ValueError(f"at most {MAX_ENTRANTS} entrants, not {len(entrants)}")
    seen = set()
    for e in entrants:
        key = e.name.casefold()
        if key in seen:
            raise ValueError(f"two entrants are named {e.name!r}: each name once (a boss is "
                             "named by its level)")
        seen.add(key)
    return entrants


def check_depth(depth, most: int = MAX_DEPTH) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= most:
        raise ValueError(f"the depth is a whole number from 1 to {most}, not {depth!r}")
    return depth


def check_budget(max_nodes) -> int | None:
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise ValueError(f"the node budget is a positive whole number, not {max_nodes!r}")
    return max_nodes


def run(game, entrants: list[Entrant], depth: int = 4, n_openings: int = 2,
        max_nodes: int | None = None, progress=None, runner=None, schedule: str = "auto",
        rounds: int | None = None) -> dict:
    """The whole tournament (see the module's text) as a dict: ``game``, ``settings``,
    ``entrants``, ``openings``, ``standings``, ``crosstable``, ``games``, and ``timing``
    (every measured time, in ms, and nothing else measured in time: the rest is the same on
    every run, wherever its games ran); a Swiss system's also ``byes``, and its games their
    ``round``. ``schedule``: ``"round robin"``, ``"swiss"`` (``rounds`` of them, default
    ``pairing.swiss_rounds``), or ``"auto"``: a double round robin up to
    ``pairing.ROUND_ROBIN_MAX`` entrants, Swiss beyond. ``progress(done, total)``, if given,
    after each game. ``runner``: where the games are played (see the module's text); None:
    on the Redis queue of ``REDIS_URL`` if workers listen there, else here
    (``ai.teach.queue.runner``).

    Raises:
        ValueError: too few or too many entrants, two of one name, a bad depth, budget,
            number of openings, schedule or rounds, a game without tournaments.
    """
    started = time.perf_counter()
    check_entrants(entrants)
    check_depth(depth)
    check_budget(max_nodes)
    n = len(entrants)
    swiss = check_schedule(schedule, n)
    if swiss:
        rounds = check_rounds(rounds, n)
    elif rounds is not None:
        raise ValueError("rounds are a Swiss system's: a round robin plays every pair")
    chosen = game.tournament_openings(n_openings)
    if chosen is None:
        raise ValueError(f"the {game.name} game holds no tournaments (it gives no openings)")
    settings = Settings(game, tuple(entrants), depth, max_nodes)
    if runner is None:
        from .queue import runner as where
        runner = where()
    for e in entrants:          # a depth the game's own search refuses: before any game
        if not e.level:
            player(game, e, depth, max_nodes)
            break
    opened = time.perf_counter()
    k = len(chosen)
    total = rounds * (n // 2) * 2 * k if swiss else n * (n - 1) * k
    games, results, byes = [], [], []
    nodes, points = [0] * n, [0.0] * n
    met: set[frozenset] = set()

    def play(jobs, round_=None):
        outcomes = runner(settings, jobs)
        try:
            for job, out in zip(jobs, outcomes):
                record(job, out, round_)
        finally:                # a queue's runner takes back what it did not hand out
            if hasattr(outcomes, "close"):
                outcomes.close()

    def record(job, out, round_):
        first, second = entrants[job.first].name, entrants[job.second].name
        g = {"first": first, "second": second, "opening": job.opening,
             "moves": out.moves, "result": RESULTS[out.score],
             "winner": first if out.score == 1 else second if out.score == 0 else None}
        if round_ is not None:
            g["round"] = round_
        games.append(g)
        results.append(Result(first, second, out.score))
        nodes[job.first] += out.first_nodes
        nodes[job.second] += out.second_nodes
        points[job.first] += out.score
        points[job.second] += 1 - out.score
        if progress:
            progress(len(games), total)

    if swiss:
        had: set[int] = set()
        for r in range(1, rounds + 1):
            pairs, bye = pairing.swiss_round(points, met, had)
            if bye is not None:
                had.add(bye)
                points[bye] += k            # a drawn match: half its 2k games' points
                byes.append({"round": r, "name": entrants[bye].name, "points": k})
            met.update(frozenset(p) for p in pairs)
            play([Job(o["moves"], x, y) for o in chosen for a, b in pairs
                  for x, y in ((a, b), (b, a))], r)
    else:
        play([Job(chosen[o]["moves"], a, b) for o, a, b in pairing.round_robin(n, k)])
    if len(games) != total:
        raise RuntimeError(f"{total - len(games)} of the tournament's games were not played")
    played = time.perf_counter()
    bye_points: dict[str, float] = {}
    for b in byes:
        bye_points[b["name"]] = bye_points.get(b["name"], 0) + b["points"]
    rows, cross = standings([e.name for e in entrants], results,
                            bye_points if swiss else None)
    by_name = {e.name: c for e, c in zip(entrants, nodes)}
    for row in rows:
        row["nodes"] = by_name[row["name"]]
    ended = time.perf_counter()
    data = {
        "game": game.name,
        "settings": {"depth": depth, "max_nodes": max_nodes, "openings": k,
                     "opening_plies": len(game.parse_moves(chosen[0]["moves"])),
                     "algorithm": "alphabeta",
                     "schedule": "swiss" if swiss else "double round robin"},
        "entrants": [e.as_dict() for e in entrants],
        "openings": chosen,
        "standings": rows,
        "crosstable": cross,
        "games": games,
        "timing": {"total_ms": _ms(ended - started), "openings_ms": _ms(opened - started),
                   "games_ms": _ms(played - opened), "standings_ms": _ms(ended - played),
                   "games_per_second": round(len(games) / max(played - opened, 1e-9), 1)},
    }
    if swiss:
        data["settings"]["rounds"] = rounds
        data["byes"] = byes
    return data


def check_schedule(schedule: str, n: int) -> bool:
    """Whether ``schedule`` for ``n`` entrants is a Swiss system (see ``run``)."""
    if schedule == "auto":
        return n > pairing.ROUND_ROBIN_MAX
    if schedule == "round robin":
        if n > pairing.ROUND_ROBIN_MAX:
            raise ValueError(f"a round robin takes {pairing.ROUND_ROBIN_MAX} entrants at most, "
                             f"not {n}: beyond, a Swiss system")
        return False
    if schedule == "swiss":
        return True
    raise ValueError(f"the schedule is auto, round robin or swiss, not {schedule!r}")


def check_rounds(rounds, n: int) -> int:
    if rounds is None:
        return pairing.swiss_rounds(n)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= n - 1:
        raise ValueError(f"a Swiss system of {n} entrants has 1 to {n - 1} rounds, not "
                         f"{rounds!r}")
    return rounds


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
