"""A class's tournament played beside the lesson, for any game with tournaments
(``web.tournament.game``): the games in a bounded lane of a worker, one at a time, each
written to the class store as it ends (``web.classroom.tournaments``), so the standings move
on the projector as games finish and a restart resumes where it was.

**The spec** (what the teacher started, kept in the store): the game (``game``: its name in
the games table), the entrants, the depth, the openings (its rules' ``tournament_openings``),
the schedule, an ``id`` (a game of a tournament since replaced is never counted in the new
one), its ``state`` (``running``, then ``done``), and who sent each heuristic (``voters``: a
phone finds its own games).

**The schedule.** Up to ``SWISS_ABOVE`` entrants (a class of 40 and its bosses:
``ai.teach.pairing``), a double round robin, the same games as the command line's (each pair, both colours, each opening)
in the circle method's rounds, so that midway every entrant has played about as many games
as the others and the standings already mean something. Beyond, the command line's Swiss
(``ai.teach.pairing``: ``swiss_rounds`` rounds, each pairing playing both colours from each
opening, a bye worth a drawn match), the next round paired once the last one is over. Either way ``plan(spec, games)`` lists every game
known so far, by number, and ``missing`` those not played: a runner plays only those.

**The runner** (``Runner``): takes the lease of a running tournament (the store's clock:
``LEASE`` seconds, renewed after each game), plays its missing games one at a time, each in
the games' lane (``web.admission.game_lane``: off the event loop, ``GAME_SLOTS`` per worker,
so plain pages and the class's live pages never wait for it), writes each game, wakes the
class's live pages every few games (about ``UPDATES`` times in all: they count the standings
so far, rated, once per worker: ``tournament_live``), and marks the tournament ``done`` when
none is missing, with its final standings (in the lane). A worker's runner wakes when a page of a
tournament is opened (``kick``).

**Resuming after a restart** with no page open (``Runner.watch``, started in each worker once
it has booted: ``live.after_boot``): at once, then every ``RESUME_EVERY`` seconds,
the worker looks in the store for the running tournaments no runner holds (``resume``: the
lease free or run out, a dead worker's) and takes their lease, the lease keeping two workers
from playing the same one; its runner's loop starts only when it took one. A look is one read
of the store (off the event loop, as every store call); with no tournament nothing else runs.
Tests call ``Runner.advance`` or ``resume`` themselves (``TOURNAMENT_RUNNER = "manual"``).
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
from collections import OrderedDict

from ai.teach import pairing
from ai.teach import tournament as T
from ai.teach.standings import Result, standings

from ..classroom.store import StoreError
from ..classroom.tournaments import tournaments_of
from .game import TournamentGame, by_name

log = logging.getLogger("minimax-lab.tournament")

SWISS_ABOVE = pairing.ROUND_ROBIN_MAX   # entrants (a class and the bosses): a round robin
MAX_LIVE_ENTRANTS = 200     # a Swiss beyond
LEASE = 30.0                # seconds of the store's clock a runner holds a tournament
IDLE = 1.0                  # seconds between two looks for a running tournament
RESUME_EVERY = 30.0         # seconds between two looks for a tournament nobody plays
BATCH = 32                  # games a runner plays of one tournament before looking again
RESULTS = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}
UPDATES = 100               # wakes of the live pages in a whole tournament, about


def new_spec(game: str, entrants: list[T.Entrant], depth: int, n_openings: int,
             voters: dict[str, str] | None = None) -> dict:
    """What the store keeps of a tournament of ``game`` (its name in the games table) the
    teacher starts (see the module).

    Raises:
        ValueError: too few or too many entrants, two of a name, a depth or a number of
            openings the game refuses.
    """
    tg = by_name(game)
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least two entrants (heuristics or bosses)")
    if len(entrants) > MAX_LIVE_ENTRANTS:
        raise ValueError(f"at most {MAX_LIVE_ENTRANTS} entrants, not {len(entrants)}")
    if len({e.name.casefold() for e in entrants}) < len(entrants):
        raise ValueError("two entrants have the same name: each name once")
    T.check_depth(depth, tg.max_depth)
    kind = "swiss" if len(entrants) > SWISS_ABOVE else "double round robin"
    return {"id": secrets.token_hex(6), "game": game, "state": "running",
            "entrants": [e.as_dict() for e in entrants], "depth": depth,
            "openings": tg.rules.tournament_openings(n_openings), "schedule": kind,
            "rounds": pairing.swiss_rounds(len(entrants)) if kind == "swiss" else None,
            "voters": dict(voters or {}), "finale": None}


def entrants_of(spec: dict) -> list[T.Entrant]:
    return [T.Entrant.from_dict(e) for e in spec["entrants"]]


def game_of(spec: dict) -> TournamentGame:
    """The game's part of the pages for the tournament ``spec``."""
    return by_name(spec["game"])


def circle_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The rounds of a single round robin of ``n`` by the circle method: each entrant at most
    once a round, every pair once in all (its order in a pair alternates the colours)."""
    seats = list(range(n)) + ([None] if n % 2 else [])
    m = len(seats)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = seats[i], seats[m - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        seats = [seats[0], seats[-1]] + seats[1:-1]
    return rounds


def plan(spec: dict, games: dict[int, dict]) -> list[tuple[int, int, int, int]]:
    """(round, opening, first, second) of every game known so far, the list's index its
    number: the whole double round robin; a Swiss's rounds up to the first not finished (the
    next one is paired from the standings once it is)."""
    n, k = len(spec["entrants"]), len(spec["openings"])
    out: list[tuple[int, int, int, int]] = []
    if spec["schedule"] != "swiss":
        rounds = circle_rounds(n)
        for leg in range(2):               # each pair once each way round
            for r, pairs in enumerate(rounds):
                for o in range(k):
                    for a, b in pairs:
                        out.append((leg * len(rounds) + r, o, *((a, b) if leg == 0 else (b, a))))
        return out
    for r, (pairs, _bye) in enumerate(swiss_pairings(spec, games)):
        out += [(r, o, x, y) for o in range(k) for a, b in pairs for x, y in ((a, b), (b, a))]
    return out


def swiss_pairings(spec: dict, games: dict[int, dict]) -> list[tuple[list, int | None]]:
    """(pairs, bye) of each Swiss round that can be paired now: the first, then each after
    a round whose games are all played (``ai.teach.pairing.swiss_round``, as the command
    line pairs them: by points so far, a bye worth a drawn match)."""
    names = [e["name"] for e in spec["entrants"]]
    n, k = len(names), len(spec["openings"])
    points, met, had, out, played = [0.0] * n, set(), set(), [], 0
    for r in range(spec["rounds"]):
        pairs, bye = pairing.swiss_round(points, met, had)
        out.append((pairs, bye))
        if bye is not None:
            had.add(bye)
            points[bye] += k
        met.update(frozenset(p) for p in pairs)
        numbers = range(played, played + len(pairs) * 2 * k)
        if any(i not in games for i in numbers):
            break
        for i in numbers:
            s = _score(games[i])
            points[names.index(games[i]["first"])] += s
            points[names.index(games[i]["second"])] += 1 - s
        played += len(numbers)
    return out


def _score(game: dict) -> float:
    return {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)


def missing(spec: dict, games: dict[int, dict]) -> list[int]:
    return [i for i in range(len(plan(spec, games))) if i not in games]


def total_games(spec: dict) -> int:
    """Every game the tournament will play (a Swiss's, all rounds)."""
    n, k = len(spec["entrants"]), len(spec["openings"])
    if spec["schedule"] != "swiss":
        return n * (n - 1) * k
    return spec["rounds"] * (n // 2) * 2 * k


_players: OrderedDict = OrderedDict()
_players_lock = threading.Lock()


def _player(spec: dict, i: int):
    """Entrant ``i``'s player (kept by the worker between games: a heuristic's compiled
    weights are made once)."""
    key = (spec["id"], i)
    with _players_lock:
        if key in _players:
            _players.move_to_end(key)
            return _players[key]
    p = T.player(game_of(spec).rules, entrants_of(spec)[i], spec["depth"], None)
    with _players_lock:
        _players[key] = p
        while len(_players) > 256:
            _players.popitem(last=False)
    return p


def play(spec: dict, games: dict[int, dict], number: int) -> dict:
    """Game ``number`` of the plan, played as the command line plays it
    (``ai.teach.tournament``: its players, its game)."""
    r, o, a, b = plan(spec, games)[number]
    opening = spec["openings"][o]["moves"]
    out = T.play_game(game_of(spec).rules, _player(spec, a), _player(spec, b), opening)
    moves, score = out.moves, out.score
    first, second = spec["entrants"][a]["name"], spec["entrants"][b]["name"]
    return {"round": r, "first": first, "second": second, "opening": opening, "moves": moves,
            "result": RESULTS[score],
            "winner": first if score == 1 else second if score == 0 else None}


def results(spec: dict, games: dict[int, dict], rate: bool = False
            ) -> tuple[list[dict], list[dict]]:
    """(standings, crosstable) of the games played so far; ``rate``: with the ratings (a
    few ms more: ``ai.teach.standings``)."""
    names = [e["name"] for e in spec["entrants"]]
    byes = None
    if spec["schedule"] == "swiss":             # a bye: a drawn match, 2k games' half
        byes = {}
        for _round, name in sat_out(spec, games):
            byes[name] = byes.get(name, 0) + len(spec["openings"])
    return standings(names, [Result(g["first"], g["second"], _score(g))
                             for _, g in sorted(games.items())], byes, rate=rate)


def sat_out(spec: dict, games: dict[int, dict]) -> list[tuple[int, str]]:
    """(round, from 0, entrant's name) of each bye of a Swiss so far (an odd number of
    entrants: one sits each round out, scored as a drawn match); none in a round robin."""
    if spec["schedule"] != "swiss":
        return []
    names = [e["name"] for e in spec["entrants"]]
    return [(r, names[bye]) for r, (_pairs, bye) in enumerate(swiss_pairings(spec, games))
            if bye is not None]


def tell_every(spec: dict) -> int:
    """Games between two wakes of the live pages: about ``UPDATES`` in a tournament."""
    return max(1, total_games(spec) // UPDATES)


class Runner:
    """Plays the missing games of the class store's running tournaments (see the module)."""

    def __init__(self, store, lane=None):
        self.store, self.tournaments = store, tournaments_of(store)
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.lane = lane                 # runs a game: lane(fn) -> fn(); None: right here
        self.played = 0                  # games this runner played (tests count them)
        self._thread = None
        self._watch_pid = None
        self._stop = threading.Event()
        self._wake = threading.Event()

    def advance(self, code: str, most: int | None = None) -> int:
        """Up to ``most`` (all by default) of the class's missing games, under the lease
        (renewed before each); the number played. The class's live pages are woken every
        ``tell_every`` games; a tournament with none missing is marked ``done`` with its
        final standings, rated (``final``)."""
        done = 0
        t = None
        while most is None or done < most:
            if not self.tournaments.claim(code, self.owner, LEASE):
                break
            if t is None:                  # read once: the lease keeps others away
                t = self.tournaments.get(code)
            if t is None or t.spec.get("state") != "running":
                break
            todo = missing(t.spec, t.games)
            if not todo:
                final = self._run(lambda: results(t.spec, t.games, rate=True))
                self.tournaments.change(code, {"state": "done", "final": {
                    "standings": final[0], "crosstable": final[1]}})
                break
            number = todo[0]
            game = self._run(lambda: play(t.spec, t.games, number))
            self.played += 1
            done += 1
            t.games[number] = game
            tell = len(t.games) % tell_every(t.spec) == 0 or len(t.games) == total_games(t.spec)
            self.tournaments.add_game(code, number, game, t.spec["id"], publish=tell)
        return done

    def _run(self, fn):
        return self.lane(fn) if self.lane else fn()

    def step(self) -> int:
        """A few games (``BATCH``) of each running tournament this runner can hold: the
        tournament is read once a batch, not once a game (thousands of games each time)."""
        played = 0
        for code in self.tournaments.running():
            played += self.advance(code, BATCH)
        return played

    def resume(self) -> list[str]:
        """The running tournaments no runner holds (the lease free or run out: a restarted
        server's, a dead worker's), their lease now this runner's, and its loop started
        (``kick``) to play them; nothing started when there is none."""
        taken = [code for code in self.tournaments.running()
                 if self.tournaments.claim(code, self.owner, LEASE)]
        if taken:
            self.kick()
        return taken

    def watch(self, every: float = RESUME_EVERY) -> None:
        """``resume`` in the background, at once and then every ``every`` seconds (a thread:
        a greenlet under gevent, its store calls off the loop; the first look comes once the
        worker serves, not during its boot)."""
        if self._watch_pid == os.getpid():
            return
        self._watch_pid = os.getpid()
        threading.Thread(target=self._watch, args=(every,), name="tournament-resume",
                         daemon=True).start()

    def _watch(self, every: float) -> None:
        while not self._stop.is_set():
            try:
                self.resume()
            except StoreError:
                pass                     # the store is away: the next look
            except Exception:
                log.exception("tournament resume")
            self._stop.wait(every)

    def kick(self) -> None:
        """Start this process's loop if it is not running, and wake it."""
        self._wake.set()
        if self._thread is not None and self._thread.is_alive() and \
                self._thread_pid == os.getpid():
            return
        self._thread_pid = os.getpid()
        self._thread = threading.Thread(target=self._loop, name="tournament-runner",
                                        daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                played = self.step()
            except StoreError:
                played = 0               # the store is away: try again in a moment
            except Exception:            # a bug must not end the loop silently
                log.exception("tournament runner")
                played = 0
            if not played:
                self._wake.wait(IDLE)
                self._wake.clear()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
