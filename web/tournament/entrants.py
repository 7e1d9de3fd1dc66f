"""A tournament's entrants as a link or a form gives them: ``e=NAME:weights`` for each
heuristic (the game's terms), ``boss=LEVEL`` for each of the app's levels; each wrong one a
translated 400 (``BadRequest``) that says what to write, in the game's terms."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from ai.levels import LEVELS
from ai.teach import tournament as T

from ..i18n import tr
from ..params import LABELS, BadRequest, label
from .game import TournamentGame

LABELS.update({"e": _l("Entrant"), "boss": _l("Boss")})

MAX_TEXT = 200
BOSSES = tuple(n for n, lv in LEVELS.items() if lv.load_independent)


def read_entrants(args, game: str, tg: TournamentGame, most: int) -> list[T.Entrant]:
    """The entrants of ``args``, heuristics (``e``) then bosses (``boss``), blank ones
    skipped; at most ``most`` (a page's bound, a class's its own). ``game``: the game's name
    in the table (the command line's)."""
    out = []
    example = tg.example.partition(":")[2]
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
                             example=tg.example, raw=raw[:40])
        if len(name) > T.MAX_NAME or not name.isprintable():
            raise BadRequest("%(field)s: a name of at most %(most)s printable characters, not "
                             "“%(raw)s”", "e", field=label("e"), most=T.MAX_NAME,
                             raw=name[:40])
        try:
            weights = tg.rules.weights_text(text)
        except ValueError as err:
            raise BadRequest("%(field)s %(name)s: write name=weight pairs separated by commas, "
                             "e.g. %(example)s (the terms: %(terms)s). Here: %(why)s", "e",
                             field=label("e"), name=name, example=example,
                             terms=", ".join(tg.terms), why=tr(err)) from None
        out.append(T.Entrant(name, weights))
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
                         "tournament, use the command line (python -m ai tournament "
                         "%(game)s).", "e", most=most, n=len(out), game=game)
    return out
