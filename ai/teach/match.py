"""One game of a tournament, wherever it is played: the entrants (``Entrant``), a game to
play (``Job``) and how it went (``Outcome``), an entrant's move chooser (``player``) and the
game itself (``play_game``); ``local`` plays a list of jobs in this process.
``ai.teach.tournament`` schedules the games and rates them (and says what decides an
entrant's moves); ``ai.teach.queue`` plays them on other machines. Both use this module, and
neither needs the other to play a game.
"""
from __future__ import annotations

from dataclasses import dataclass

REMEMBERED = 5_000              # replies an entrant keeps (``remembered``)


@dataclass(frozen=True)
class Entrant:
    name: str
    heuristic: str | None      # the weights' text form; None for a boss
    level: str | None = None   # a boss: its level's name

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": "boss" if self.level else "heuristic",
                "heuristic": self.heuristic, "level": self.level}

    @classmethod
    def from_dict(cls, d: dict) -> Entrant:
        return cls(d["name"], d["heuristic"], d["level"])


# -- games --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    """One game to play: the opening's moves, the first (who moves after the opening) and
    the second, as indices of the tournament's entrants."""

    opening: str
    first: int
    second: int


@dataclass(frozen=True)
class Outcome:
    """One game played: all its moves from the start (as the links write them), the first's
    points (1, ½, 0), and the nodes each side searched."""

    moves: str
    score: float
    first_nodes: int
    second_nodes: int


def player(game, e: Entrant, depth: int, max_nodes: int | None):
    """``e``'s move chooser in ``game``: a function ``state -> SearchResult``, which keeps
    its replies (``remembered``)."""
    from ai.levels import LEVELS, Level
    if e.level:
        level = LEVELS[e.level]
        return remembered(lambda s: level.play(game, s, time_limit=None))
    own = game.tournament_player(e.heuristic, depth, max_nodes)
    if own is not None:
        return remembered(own)
    custom = Level("custom", "alphabeta", depth, 0.0, order="center", fast=False,
                   heuristic=e.heuristic)
    return remembered(lambda s: custom.play(game, s, time_limit=None, max_nodes=max_nodes))


def remembered(choose, most: int = REMEMBERED):
    """``choose`` keeping its first ``most`` replies by position: an entrant meets the same
    positions again and again (its first move after an opening, against every opponent), and
    its reply, decided by counts, is the same every time, nodes included; so the JSON is
    the one without it, sooner."""
    replies: dict = {}

    def move(state):
        r = replies.get(state)
        if r is None:
            r = choose(state)
            if len(replies) < most:
                replies[state] = r
        return r

    return move


def play_game(game, first, second, opening: str) -> Outcome:
    """The game between the players ``first`` (who moves after the opening) and
    ``second`` from ``opening`` (its moves as the links write them)."""
    moves = list(game.parse_moves(opening))
    state = game.initial_state()
    for m in moves:
        state = game.result(state, m)
    me = game.to_move(state)
    players, nodes, turn = (first, second), [0, 0], 0
    while not game.is_terminal(state):
        r = players[turn](state)
        nodes[turn] += r.stats.nodes
        state = game.result(state, r.move)
        moves.append(r.move)
        turn ^= 1
    u = game.utility(state, me)
    return Outcome(game.format_moves(moves), 1.0 if u > 0 else 0.0 if u < 0 else 0.5, *nodes)


@dataclass(frozen=True)
class Settings:
    """What decides a tournament's games: the game, its entrants, the depth, the budget."""

    game: object
    entrants: tuple[Entrant, ...]
    depth: int
    max_nodes: int | None


def local(settings: Settings, jobs: list[Job]):
    """Play ``jobs`` one after the other in this process, yielding each ``Outcome``."""
    players = [player(settings.game, e, settings.depth, settings.max_nodes)
               for e in settings.entrants]
    for job in jobs:
        yield play_game(settings.game, players[job.first], players[job.second], job.opening)
