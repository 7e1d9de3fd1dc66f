"""What a game gives the tournament's pages (``TournamentGame``), asked of its web package
through the games table (``GameSpec.hook("tournament_game")``): the pages name no game, each
game's part stays in its folder (``web/<game>/tournament.py``).

The search, the openings and the terms are its rules' (``ai.teach.tournament``: its
``weights_text``, ``tournament_openings``, ``tournament_player``); here is what the web adds:
how its pages write an entrant and an opening, how deep a page lets its heuristics search,
its two sides' names, its board drawn with the game's stones or marks, where a heuristic is
built (a workshop, if it has one) and what the class sent.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from flask import abort, url_for

from ..games import GAMES, GameSpec


def _none(*args):
    return None


def _no_entries(store, code: str) -> list:
    return []


class Sent(NamedTuple):
    """A heuristic a student of the class sent for the tournament, with how good the exact
    solver found it when it was sent, if the game measures it (``TournamentGame.judge``)."""

    voter: str                       # the student's anonymous id (the store's)
    name: str
    heuristic: str                   # as the game's ``weights_text`` writes it
    depth: int | None                # the class's depth it was built (and measured) at
    accuracy: float | None = None    # the share of the game's positions where its move
    blunders: int | None = None      # keeps the exact value; where it worsens the outcome
    positions: int | None = None


@dataclass(frozen=True)
class TournamentGame:
    rules: object                    # the game's rules (``ai.course.game.Game``), as played
    example: str                     # an entrant as a link writes it: ``Ada:cells=1,open3=8``
    examples: tuple[str, ...]        # the heuristics of the first page's example tournament
    terms: tuple[str, ...]           # its terms' names, as a message lists them
    default_depth: int
    max_depth: int                   # the game page re-runs the search behind each move
    max_openings: int                # of its rules' ``tournament_openings``
    # an opening's moves as a teacher reads them ("cells 5 then 1"), not bare digits
    opening_words: Callable[[str], str]
    # the sides: who moves first after the opening, the other (headings, the CSV)
    first_side: object               # a table's heading: "X (first)"
    second_side: object              # "O"
    side_names: tuple                # in a sentence: ("X", "O")
    # the position after ``moves`` as its board macro draws it, each stone or mark with the
    # order it comes in a play-out (None for the opening's, already there)
    board: Callable[[str, str], list]
    board_template: str              # a template with the macro ``board(cells, cls="")``
    # where a heuristic is built and opened (its workshop at a depth), or None
    workshop_url: Callable[[str, int], str | None] = _none
    # each heuristic a class sent (``Sent``), in the order sent
    class_entries: Callable[[object, str], list] = _no_entries
    # the class stops sending heuristics: the tournament has its entrants
    close_entries: Callable[[object, str], None] = _none
    # how good a heuristic (as ``weights_text`` writes it) is at a depth, refereed by the
    # exact solver: an object with its ``accuracy`` (a fraction), ``blunders`` and
    # ``positions``, measured in a search lane when a phone sends it; None if the game has no
    # such measure
    judge: Callable[[str, int], object | None] = _none

    @property
    def collects(self) -> bool:
        """Whether a class sends its heuristics from the phones (``class_entries``)."""
        return self.class_entries is not _no_entries


def tournament_game(spec: GameSpec) -> TournamentGame | None:
    """The game's part of the tournament's pages, None for a game without tournaments."""
    hook = spec.hook("tournament_game")
    return hook if isinstance(hook, TournamentGame) else None


def games() -> list[GameSpec]:
    """The games whose tournaments the app plays, in the table's order."""
    return [spec for spec in GAMES.values() if tournament_game(spec)]


def for_page(spec: GameSpec) -> TournamentGame:
    """The game's part, or a 404: a game without tournaments has no tournament pages."""
    found = tournament_game(spec)
    if found is None:
        abort(404)
    return found


def by_name(name: str) -> TournamentGame:
    """The part of the game a stored tournament names (``spec["game"]``).

    Raises:
        KeyError: a game that is not in the table or holds no tournaments.
    """
    spec = GAMES.get(name)
    found = tournament_game(spec) if spec else None
    if found is None:
        raise KeyError(name)
    return found


def review_url(game: str, moves: str) -> str:
    return url_for("review.page", game=game, moves=moves)


def move_words(rules, moves: str) -> list[str]:
    """Each move of ``moves`` (a link's) as the rules write one alone."""
    return [rules.format_move(m) for m in rules.parse_moves(moves)]


def move_url(game: str, rules, moves: str, ply: int, *, level: str | None = None,
             heuristic: str | None = None, depth: int | None = None) -> str:
    """The game page after move ``ply`` (0-based) of ``moves``, the tree panel on, with the
    mover's settings (its ``level``, or the custom level with its ``heuristic`` at ``depth``):
    the panel draws the search behind that move."""
    n = len(rules.parse_moves(moves))
    args = dict(moves=moves, tree=1, mode="ai-human" if ply % 2 == 0 else "human-ai")
    if ply + 1 != n:
        args["at"] = ply + 1
    if level:
        args["level"] = level
    else:
        args.update(level="custom", algo="alphabeta", depth=depth, heur=heuristic,
                    order="center", time=1000)
    return url_for("play.show", game=game, **args)
