"""Blueprint ``tournament``: ``/connect4/tournament``, a tournament of heuristics and levels on
a page of its own (``ai.games.connect4.tournament``): a club, or one student testing versions.

The link holds the whole tournament, so it can be shared and reopened: ``e=NAME:weights``
for each heuristic (repeated), ``boss=LEVEL`` for each level (repeated), ``depth=`` every
heuristic's depth, ``openings=`` how many of the exact solver's balanced openings. The page
gives the openings, the standings, the crosstable and every game, each with a link to its
exact review and one to its moves, each move a link to the game page at that move with the
tree panel on (``tree=1``) and the mover's settings (the custom level with its heuristic and
depth, or its level), which re-runs the search behind that move. ``game=N`` shows game N's
moves. A form adds an entrant or a boss (another ``e=`` or ``boss=`` on the link); the
workshop's "enter this heuristic" link makes one (``entry_url``).

One request stays bounded: at most ``MAX_ENTRANTS`` entrants, entrants x openings at most
``MAX_SIZE`` (264 games at most: 2 s of CPU here at depth 6 with hard and expert as bosses,
1.2 s with twelve heuristics, ``bench/bench_tournament.py``), depth at most ``MAX_DEPTH``; bigger
tournaments: the command line (``python -m ai tournament connect4``). It runs off the event
loop in the pages' lane (``web.admission.in_lane``), charged to the client like a search; the
same link gives the same games, so a few recent results are kept (``_played``).
"""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, copy_current_request_context, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ai.games.connect4 import tournament as T
from ai.games.connect4.terms import NAMES, format_weights, parse
from ai.levels import LEVELS

from ..admission import in_lane, offload
from ..htmx import render
from ..i18n import tr
from ..params import LABELS, BadRequest, label, read_int

bp = Blueprint("tournament", __name__)
LABELS.update({"e": _l("Entrant"), "boss": _l("Boss"), "openings": _l("Openings"),
               "game": _l("Game")})

MAX_ENTRANTS = 12
MAX_SIZE = 24                   # entrants x openings: 12 x 2, 8 x 3, 6 x 4 ...
MAX_DEPTH = 6                   # the game page's tree of a move re-runs the course's search
DEFAULT_DEPTH = 4
DEFAULT_OPENINGS = 2
MAX_TEXT = 200
BOSSES = tuple(n for n, lv in LEVELS.items() if lv.load_independent)
ENTRY_BOSSES = ("beginner", "easy")   # the workshop's link: a heuristic against these


def read_entrants(args, most: int = MAX_ENTRANTS) -> list[T.Entrant]:
    """The link's entrants, heuristics (``e``) then bosses (``boss``), blank ones skipped;
    at most ``most`` (this page's bound; a class's live tournament has its own)."""
    out = []
    for raw in args.getlist("e"):
        raw = raw.strip()
        if not raw:
            continue
        if len(raw) > MAX_TEXT:
            raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)", "e",
                             field=label("e"), n=len(raw), most=MAX_TEXT)
        name, colon, text = raw.partition(":")
        name = name.strip()
        if not colon or not name:
            raise BadRequest("%(field)s: write a name, a colon, then the weights, e.g. "
                             "%(example)s, not “%(raw)s”", "e", field=label("e"),
                             example="Ada:cells=1,open3=8", raw=raw[:40])
        if len(name) > T.MAX_NAME or not name.isprintable():
            raise BadRequest("%(field)s: a name of at most %(most)s printable characters, not "
                             "“%(raw)s”", "e", field=label("e"), most=T.MAX_NAME,
                             raw=name[:40])
        try:
            weights = parse(text)
        except ValueError as err:
            raise BadRequest("%(field)s %(name)s: write name=weight pairs separated by commas, "
                             "e.g. %(example)s (the terms: %(terms)s). Here: %(why)s", "e",
                             field=label("e"), name=name, example="cells=1,open3=8",
                             terms=", ".join(NAMES), why=tr(err)) from None
        out.append(T.Entrant(name, format_weights(weights)))
    for raw in args.getlist("boss"):
        raw = raw.strip()
        if not raw:
            continue
        if raw not in BOSSES:
            raise BadRequest("%(field)s: one of %(choices)s, not “%(raw)s”", "boss",
                             field=label("boss"), choices=", ".join(BOSSES), raw=raw[:20])
        out.append(T.boss(raw))
    seen = set()
    for e in out:
        if e.name.casefold() in seen:
            raise BadRequest("Two entrants are named %(name)s: give each a name of its own (a "
                             "boss is named by its level).", "e", name=e.name)
        seen.add(e.name.casefold())
    if len(out) > most:
        raise BadRequest("At most %(most)s entrants on this page, not %(n)s: for a bigger "
                         "tournament, use the command line (python -m ai tournament connect4).",
                         "e", most=most, n=len(out))
    return out


@lru_cache(maxsize=8)
def _played(entrants: tuple, depth: int, openings: int) -> dict:
    """The tournament (the same link, the same games: kept for the next view of it)."""
    return T.run(list(entrants), depth, openings)


class Page:
    """The tournament as the template shows it: links to its games and its parts."""

    def __init__(self, entrants, depth, openings, data, shown):
        self.entrants, self.depth, self.n_openings = entrants, depth, openings
        self.data, self.shown = data, shown
        self.by_name = {e.name: e for e in entrants}

    def query(self, **change) -> dict:
        args = {"e": [f"{e.name}:{e.heuristic}" for e in self.entrants if not e.level],
                "boss": [e.level for e in self.entrants if e.level],
                "depth": self.depth if self.depth != DEFAULT_DEPTH else None,
                "openings": self.n_openings if self.n_openings != DEFAULT_OPENINGS else None}
        args.update(change)
        return {k: v for k, v in args.items() if v not in (None, [])}

    def url(self, **change) -> str:
        return url_for("tournament.page", **self.query(**change))

    def without(self, name: str) -> str:
        """This tournament without the entrant ``name``."""
        e = self.by_name[name]
        if e.level:
            return self.url(boss=[x.level for x in self.entrants if x.level and x is not e])
        return self.url(e=[f"{x.name}:{x.heuristic}" for x in self.entrants
                           if not x.level and x is not e])

    def game_url(self, n: int) -> str:
        return self.url(game=n) + "#game"

    def workshop_url(self, name: str) -> str:
        return url_for("workshop.page", h=self.by_name[name].heuristic,
                       depth=self.depth if self.depth != DEFAULT_DEPTH else None)

    def review_url(self, moves: str) -> str:
        return url_for("review.page", game="connect4", moves=moves)

    def opening_url(self, moves: str) -> str:
        """The opening's position with the exact outcome of every column."""
        return url_for("play.show", game="connect4", moves=moves, hints=1, mode="human-human")

    def move_url(self, game: dict, ply: int) -> str:
        """The game page after the move of ply ``ply`` (0-based), the tree panel on, the
        mover's settings: the panel draws the search behind that move."""
        mover = game["first"] if (ply - len(game["opening"])) % 2 == 0 else game["second"]
        e = self.by_name[mover]
        args = dict(moves=game["moves"], tree=1, mode="ai-human" if ply % 2 == 0 else "human-ai")
        if ply + 1 != len(game["moves"]):
            args["at"] = ply + 1
        if e.level:
            args["level"] = e.level
        else:
            args.update(level="custom", algo="alphabeta", depth=self.depth, heur=e.heuristic,
                        order="center", time=1000)
        return url_for("play.show", game="connect4", **args)

    def moves_of(self, game: dict) -> list[tuple[int, str, str, str]]:
        """(ply, column, mover, link) of each move after the opening."""
        out = []
        for ply in range(len(game["opening"]), len(game["moves"])):
            mover = game["first"] if (ply - len(game["opening"])) % 2 == 0 else game["second"]
            out.append((ply + 1, game["moves"][ply], mover, self.move_url(game, ply)))
        return out


@bp.app_template_global("tournament_entry_url")
def entry_url(heuristic: str, depth: int | None = None) -> str:
    """A tournament of this heuristic (named "Mine", in the page's language) against the
    first bosses, at this depth: the workshop's "enter this heuristic" link."""
    name = gettext("Mine")
    return url_for("tournament.page", e=f"{name}:{heuristic}",
                   boss=list(ENTRY_BOSSES),
                   depth=depth if depth and depth != DEFAULT_DEPTH else None)


@bp.get("/connect4/tournament")
@in_lane()      # the games off the loop, the page drawn in a pages' slot (web.admission)
def page():
    """The tournament of the link (see the module's text); a 400 with the reason."""
    args = request.args
    try:
        entrants = read_entrants(args)
        depth = read_int(args, "depth", DEFAULT_DEPTH, 1, MAX_DEPTH)
        most = max(1, min(T.MAX_OPENINGS, MAX_SIZE // max(1, len(entrants))))
        openings = read_int(args, "openings", DEFAULT_OPENINGS, 1, T.MAX_OPENINGS)
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
        return render("games/connect4/tournament.html", block="tournament", status=400,
                      error=tr(err), t=None, bosses=BOSSES)
    if not entrants:
        return render("games/connect4/tournament.html", block="tournament", error=None,
                      t=None, bosses=BOSSES, example=url_for(
                          "tournament.page", e=["Ada:cells=1,open3=8", "Bob:open2=4,open3=16",
                                                "Cy:center=1"], boss=["beginner", "easy"]))
    data = offload(lambda: _played(tuple(entrants), depth, openings))
    t = Page(entrants, depth, openings, data, shown)
    return offload(copy_current_request_context(
        lambda: render("games/connect4/tournament.html", block="tournament", error=None, t=t,
                       bosses=BOSSES)))
