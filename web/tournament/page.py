"""Blueprint ``tournament``: ``/<game>/tournament``, a tournament of heuristics and levels on a
page of its own (``ai.teach.tournament``), for every game whose web package gives its part
(``web.tournament.game``): a club, or one student testing versions.

The link holds the whole tournament, so it can be shared and reopened: ``e=NAME:weights``
for each heuristic (repeated, over the game's terms), ``boss=LEVEL`` for each level
(repeated), ``depth=`` every heuristic's depth, ``openings=`` how many of the game's balanced
openings. The page gives the openings, the standings, the crosstable and every game, each
with a link to its exact review and one to its moves, each move a link to the game page at
that move with the tree panel on (``tree=1``) and the mover's settings (the custom level with
its heuristic and depth, or its level), which re-runs the search behind that move.
``game=N`` shows game N's moves. A form adds an entrant or a boss (another ``e=`` or
``boss=`` on the link); a game's workshop may link to it ("enter this heuristic").

One request stays bounded: at most ``MAX_ENTRANTS`` entrants, entrants x openings at most
``MAX_SIZE`` (264 games at most: on the 7x6 board, 2 s of CPU here at depth 6 with hard and
expert as bosses, 1.2 s with twelve heuristics, ``bench/bench_tournament.py``; on a 3x3 one,
games of a few moves), depth at most the game's ``max_depth``; bigger tournaments: the
command line (``python -m ai tournament GAME``). It runs off the event loop in the pages'
lane (``web.admission.in_lane``), charged to the client like a search; the same link gives
the same games, so a few recent results are kept (``_played``).
"""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, request, url_for
from flask_babel import lazy_gettext as _l

from ai.teach import tournament as T

from ..admission import in_lane, in_this_request, offload
from ..htmx import render
from ..i18n import tr
from ..params import LABELS, BadRequest, read_int
from .entrants import BOSSES, read_entrants
from .game import TournamentGame, by_name, for_page, move_url, move_words, review_url

bp = Blueprint("tournament", __name__)
LABELS.update({"openings": _l("Openings"), "game": _l("Game")})

MAX_ENTRANTS = 12
MAX_SIZE = 24                   # entrants x openings: 12 x 2, 8 x 3, 6 x 4 ...
DEFAULT_OPENINGS = 2
TEMPLATE = "tournament/page.html"


@lru_cache(maxsize=8)
def _played(game: str, entrants: tuple, depth: int, openings: int) -> dict:
    """The tournament (the same link, the same games: kept for the next view of it)."""
    return T.run(by_name(game).rules, list(entrants), depth, openings)


class Page:
    """The tournament as the template shows it: links to its games and its parts."""

    def __init__(self, spec, tg: TournamentGame, entrants, depth, openings, data, shown):
        self.spec, self.tg, self.game = spec, tg, spec.name
        self.entrants, self.depth, self.n_openings = entrants, depth, openings
        self.data, self.shown = data, shown
        self.by_name = {e.name: e for e in entrants}

    def query(self, **change) -> dict:
        args = {"e": [f"{e.name}:{e.heuristic}" for e in self.entrants if not e.level],
                "boss": [e.level for e in self.entrants if e.level],
                "depth": self.depth if self.depth != self.tg.default_depth else None,
                "openings": self.n_openings if self.n_openings != DEFAULT_OPENINGS else None}
        args.update(change)
        return {k: v for k, v in args.items() if v not in (None, [])}

    def url(self, **change) -> str:
        return url_for("tournament.page", spec=self.game, **self.query(**change))

    def without(self, name: str) -> str:
        """This tournament without the entrant ``name``."""
        e = self.by_name[name]
        if e.level:
            return self.url(boss=[x.level for x in self.entrants if x.level and x is not e])
        return self.url(e=[f"{x.name}:{x.heuristic}" for x in self.entrants
                           if not x.level and x is not e])

    def game_url(self, n: int) -> str:
        return self.url(game=n) + "#game"

    def workshop_url(self, name: str) -> str | None:
        return self.tg.workshop_url(self.by_name[name].heuristic, self.depth)

    def review_url(self, moves: str) -> str:
        return review_url(self.game, moves)

    def opening_url(self, moves: str) -> str:
        """The opening's position with the exact outcome of every move."""
        return url_for("play.show", game=self.game, moves=moves, hints=1, mode="human-human")

    def moves_of(self, game: dict) -> list[tuple[int, str, str, str]]:
        """(ply, move in words, mover, link) of each move after the opening: the link opens
        the game page at that move with the tree of the mover's search."""
        rules, out = self.tg.rules, []
        words = move_words(rules, game["moves"])
        skip = len(move_words(rules, game["opening"]))
        for ply in range(skip, len(words)):
            mover = self.by_name[game["first"] if (ply - skip) % 2 == 0 else game["second"]]
            link = move_url(self.game, rules, game["moves"], ply, level=mover.level,
                            heuristic=mover.heuristic, depth=self.depth)
            out.append((ply + 1, self.spec.words.move(words[ply]), mover.name, link))
        return out


# the game is ``spec`` in the route: the link's ``game=N`` is the game of the tournament shown
@bp.get("/<game:spec>/tournament")
@in_lane()      # the games off the loop, the page drawn in a pages' slot (web.admission)
def page(spec):
    """The tournament of the link (see the module's text); a 400 with the reason."""
    game = spec
    tg = for_page(game)
    args = request.args
    common = dict(block="tournament", bosses=BOSSES, spec=game, tg=tg)
    try:
        entrants = read_entrants(args, game.name, tg, MAX_ENTRANTS)
        depth = read_int(args, "depth", tg.default_depth, 1, tg.max_depth)
        most = max(1, min(tg.max_openings, MAX_SIZE // max(1, len(entrants))))
        openings = read_int(args, "openings", DEFAULT_OPENINGS, 1, tg.max_openings)
        if entrants and len(entrants) * openings > MAX_SIZE:
            raise BadRequest("%(n)s entrants x %(k)s openings is more than this page plays "
                             "(%(most)s at most): with %(n)s entrants, at most %(fit)s "
                             "openings; for a bigger tournament, use the command line.",
                             "openings", n=len(entrants), k=openings, most=MAX_SIZE, fit=most)
        if len(entrants) == 1:
            raise BadRequest("A tournament needs at least two entrants: add a heuristic or a "
                             "boss.", "e")
        shown = read_int(args, "game", 0, 0, len(entrants) * (len(entrants) - 1) * openings)
    except BadRequest as err:
        return render(TEMPLATE, status=400, error=tr(err), t=None, **common)
    if not entrants:
        return render(TEMPLATE, error=None, t=None, example=url_for(
            "tournament.page", spec=game.name, e=list(tg.examples),
            boss=["beginner", "easy"]), **common)
    data = offload(lambda: _played(game.name, tuple(entrants), depth, openings))
    t = Page(game, tg, entrants, depth, openings, data, shown)
    return offload(in_this_request(lambda: render(TEMPLATE, error=None, t=t, **common)))
