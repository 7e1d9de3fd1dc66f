"""Blueprint ``tournament_results``: ``/<game>/tournament/results``, a class tournament's
standings reopened from a link, after the class has gone (the game is the link's path:
``web.tournament.game``).

The link holds what decides the standings, not the games' moves: the entrants (name, weights
or level), the depth, the openings, the schedule, and each game's result, one character per
game in the order the runner numbers them (``runner.plan``: who played whom follows
from it, a Swiss's rounds included), the whole compressed (zlib) and written in base64url
(``?t=...``): a class of 40 and its bosses at 2 openings fits in about 2,000 characters.

**Past ``MAX_LINK``** (a link longer than a server takes: a Swiss of 200 at 4 openings needs
~4,700 for its token alone) the same token is kept in the class store
(``web.classroom.kept_links``: SQLite by default, Redis with ``REDIS_URL``, a year) and the
link is its key (``?k=`` and 22 characters). Why both, not always the key: a link that holds
its standings reopens them on any server of the app, for ever, with nothing kept, which is
what a class's link is; the key is for the fields too big to be held, and only reopens them
where the store keeps them. Why not a tighter token: the results are already ~1.6 bits a game
once compressed, near the 1.58 of three outcomes, and the heuristics, the rest, are text the
students typed; no packing brings 200 of them and 8,000 results under 4,000 characters.

The page draws the standings (rated), the crosstable and the settings; every game replays
from the entrants and the settings (the same games on any machine), so a game's moves are not
needed to rank them. A link that is not one of these, or whose key is not kept here (cut,
changed, or past its year): a translated 400.
"""
from __future__ import annotations

import base64
import json
import zlib

from collections import OrderedDict

from flask import Blueprint, current_app, render_template, request, url_for
from flask_babel import lazy_gettext as _l, ngettext

from ai.messages import N_

from ..admission import in_lane, offload
from ..classroom.kept_links import KEEP_DAYS, KEY, MAX_TEXT, kept_links_of
from ..classroom.store import StoreError
from ..i18n import tr
from ..params import LABELS, BadRequest, label
from . import runner as R
from .game import for_page

bp = Blueprint("tournament_results", __name__)
LABELS.update({"t": _l("Standings"), "k": _l("Standings")})

TEMPLATE = "tournament/results.html"
VERSION = 1
MAX_TOKEN = 6000                 # characters: gunicorn takes request lines of 4094 at most
# the longest link offered: "GET <link>&lang=fr HTTP/1.1" within gunicorn's 4094 characters
# (a Swiss of 200 at 4 openings needs ~4,700 for its token alone: kept, the link its key)
MAX_LINK = 4000
MAX_DATA = 200_000               # bytes once inflated
RESULT_CHARS = {"1-0": "1", "½-½": "=", "0-1": "0"}
CHAR_RESULTS = {c: r for r, c in RESULT_CHARS.items()}


def token(spec: dict, games: dict[int, dict]) -> str:
    """The link's ``t`` for the games played so far of the tournament ``spec``."""
    played = "".join(RESULT_CHARS[games[i]["result"]] for i in range(len(games)) if i in games)
    data = {"v": VERSION,
            "e": [[e["name"], e["heuristic"], e["level"]] for e in spec["entrants"]],
            "d": spec["depth"], "o": [o["moves"] for o in spec["openings"]],
            "s": spec["schedule"], "r": spec.get("rounds"), "x": played}
    raw = zlib.compress(json.dumps(data, separators=(",", ":"),
                                   ensure_ascii=False).encode(), 9)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def settings_line(spec: dict) -> str:
    """The tournament's settings in a sentence: the depth and the openings, in the game's
    words (``opening_words``: "cells 5 then 1", not bare digits, "51" read as a count on the
    projector)."""
    words = " · ".join(R.game_of(spec).opening_words(o["moves"]) for o in spec["openings"])
    return ngettext("Depth %(d)s for every heuristic; opening: %(o)s, with both colours.",
                    "Depth %(d)s for every heuristic; openings: %(o)s, each with both colours.",
                    len(spec["openings"]), d=spec["depth"], o=words)


_kept: "OrderedDict[str, str]" = OrderedDict()     # token -> key, kept by this worker


def link(spec: dict, games: dict[int, dict]) -> str | None:
    """The link that reopens these standings: the one that holds them, or past ``MAX_LINK``
    the one to them kept in the class store (once per worker); None only when the store
    cannot keep them now (the page says so, and offers the CSV)."""
    t = token(spec, games)
    url = url_for("tournament_results.page", game=spec["game"], t=t)
    if len(url) <= MAX_LINK:
        return url
    if t not in _kept:
        try:
            _kept[t] = kept_links_of(current_app.extensions["class_store"]).keep(t)
        except StoreError:
            return None
        while len(_kept) > 16:
            _kept.popitem(last=False)
    return url_for("tournament_results.page", game=spec["game"], k=_kept[t])


BROKEN = N_("%(field)s: this link does not hold a tournament's standings (it was cut, or "
            "changed): copy it again from the tournament's page.")


GONE = N_("%(field)s: these standings are not kept on this server: the link was cut or "
          "changed, or it is older than the %(days)s days they are kept. Copy it again from "
          "the tournament's page, or open its CSV.")


class BadLink(BadRequest):
    def __init__(self, field: str = "t"):
        super().__init__(BROKEN, field, field=label(field))


class NotKept(BadRequest):
    def __init__(self):
        super().__init__(GONE, "k", field=label("k"), days=int(KEEP_DAYS))


def read(text: str, game: str, most: int = MAX_TOKEN) -> tuple[dict, dict[int, dict]]:
    """(spec, games) of a tournament of ``game`` from a link's ``t`` (at most ``most``
    characters: a kept one may be longer); each game its players and result, no moves.

    Raises:
        BadLink: anything else.
    """
    if not text or len(text) > most:
        raise BadLink()
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        body = inflater.decompress(raw, MAX_DATA)
        if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
            raise ValueError("too big, cut, or more after its end")
        data = json.loads(body)
        if data["v"] != VERSION:
            raise ValueError("another version")
        entrants = [{"name": str(n), "heuristic": h, "level": lv,
                     "kind": "boss" if lv else "heuristic"} for n, h, lv in data["e"]]
        spec = {"id": "link", "game": game, "state": "done", "entrants": entrants,
                "depth": int(data["d"]), "openings": [{"moves": str(m), "score": None}
                                                      for m in data["o"]],
                "schedule": "swiss" if data["s"] == "swiss" else "double round robin",
                "rounds": int(data["r"]) if data["s"] == "swiss" else None,
                "voters": {}, "finale": None}
        if not 2 <= len(entrants) <= R.MAX_LIVE_ENTRANTS or not 1 <= len(spec["openings"]) <= 12:
            raise ValueError("out of bounds")
        if spec["rounds"] is not None and not 1 <= spec["rounds"] <= len(entrants):
            raise ValueError("out of bounds")
        names = [e["name"] for e in entrants]
        if len(set(names)) != len(names):
            raise ValueError("a name twice")
        results = str(data["x"])
        if len(results) > R.total_games(spec) or set(results) - set(CHAR_RESULTS):
            raise ValueError("results")
        games: dict[int, dict] = {}
        while len(games) < len(results):
            known = R.plan(spec, games)
            if len(known) == len(games):
                raise ValueError("more results than games")
            for i in range(len(games), min(len(known), len(results))):
                _r, o, a, b = known[i]
                res = CHAR_RESULTS[results[i]]
                first, second = names[a], names[b]
                games[i] = {"first": first, "second": second,
                            "opening": spec["openings"][o]["moves"], "moves": "",
                            "result": res, "winner": first if res == "1-0" else
                            second if res == "0-1" else None}
        return spec, games
    except BadLink:
        raise
    except (ValueError, KeyError, TypeError, IndexError, zlib.error, UnicodeDecodeError):
        raise BadLink() from None


def kept(key: str) -> str:
    """The token kept under a short link's key (``link``).

    Raises:
        BadLink: not a key.
        NotKept: not kept here (never, or no longer).
    """
    if not KEY.fullmatch(key):
        raise BadLink("k")
    text = kept_links_of(current_app.extensions["class_store"]).get(key)
    if text is None:
        raise NotKept()
    return text


@bp.get("/<game:game>/tournament/results")
@in_lane()          # the standings of a Swiss of 200: ~100 ms of Python (bench_standings.py)
def page(game):
    """The standings the link holds, or the one it names holds (see the module's text); a
    400 saying why not."""
    tg = for_page(game)
    try:
        if "k" in request.args and "t" not in request.args:
            key = request.args["k"]
            text, most = kept(key), MAX_TEXT    # the store's call: off the loop by itself
            here = url_for(".page", game=game.name, k=key)
        else:
            text, most = request.args.get("t", ""), MAX_TOKEN
            here = url_for(".page", game=game.name, t=text)
        # a Swiss's rounds paired again from its results: tens of ms for 200 entrants
        spec, games = offload(lambda: read(text, game.name, most))
    except BadRequest as err:
        return render_template(TEMPLATE, error=tr(err), spec=None, game=game, tg=tg), 400
    rows, cross = offload(lambda: R.results(spec, games, rate=True))
    return render_template(TEMPLATE, game=game, tg=tg, error=None, spec=spec,
                           played=len(games), total=R.total_games(spec), rows=rows,
                           cross=cross, by_name={e["name"]: e for e in spec["entrants"]},
                           here=here, settings=settings_line(spec))
