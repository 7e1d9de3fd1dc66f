"""Blueprint ``tournament_live``: a class's tournament, live on the projector and on the
phones (``/<game>/tournament/live/<code>``, for every game with tournaments:
``web.tournament.game``), played beside the lesson by the worker's runner
(``web.tournament.runner``), kept in the class store. A class has one tournament at a time,
of one game; its page under another game's path redirects to its own.

Teacher (the class's secret, as every teacher action of class mode):

- the page, before a start: the entrants (the heuristics the class sent: through the
  game's own activity, its ``class_entries`` (a workshop's), or, for a game without
  one, typed on the phones once the teacher opens the entries, ``POST .../open``: a record
  of state ``entries`` in the class store, ``typed``; ``submitted`` lists both; heuristics
  typed one a line,
  ``NAME:weights`` over the game's terms; the app's levels as bosses,
  ticked), the depth and the openings; ``POST .../start`` starts it (entries close);
- while it runs and after: progress, the standings as games finish, rated (a Swiss's byes:
  who sat each round out, ``R.sat_out``) (server-sent events,
  ``GET .../events``, as the class's own live pages), one game played out on a board (the
  latest finished), the crosstable; the CSV (``.../standings.csv``, ``web.spreadsheet``), and
  a link that reopens the standings after the class has gone (``results``);
- the finale, ``POST .../finale``: best of 3 between the top two, move by move (``next``),
  each move's link opening the game page with the tree of the search behind it; then the
  champion against the perfect player.

Students (a phone that joined the class): while the entries are open, a form that sends
their bot's name and heuristic (``POST .../entry``, checked as a link's entrant, refereed
by the exact solver if the game measures it (its ``judge``: accuracy and blunders, shown to
the phone and in the teacher's list), the latest kept, each written in one step of the store:
``Tournaments.update``); then the same page without the controls, and their own games ("Why
did my bot lose?", ``.../why/<n>``: the exact review of the game, opened at the first move of
their bot that threw the value away).

Every search of a request (a finale's move, a review) runs in a search lane
(``web.admission``); the tournament's games never run in a request.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from flask import (Blueprint, Response, current_app, redirect, render_template, request,
                   url_for)
from flask_babel import gettext, lazy_gettext as _l
from jinja2_fragments.flask import render_block
from werkzeug.datastructures import MultiDict

from ai.messages import N_

from ..admission import Busy, admitted, drawn_in_lane, game_lane, refuse
from ..classroom import views as cv
from ..classroom.tournaments import tournaments_of
from ..games import GAMES
from ..i18n import LEVEL_LABELS, tr
from ..params import LABELS, BadRequest, label, read_int
from ..spreadsheet import csv_response
from . import finale as F
from . import runner as R
from .entrants import BOSSES, read_entrants
from .finale import PERFECT
from .game import Sent, TournamentGame, for_page, move_url, move_words, review_url
from .page import DEFAULT_OPENINGS
from .results import link as results_link, settings_line

bp = Blueprint("tournament_live", __name__)
bp.register_error_handler(cv.ClassProblem, cv.problem)     # class mode's clear pages
bp.register_error_handler(BadRequest, cv.problem)
LABELS.update({"lines": _l("Heuristics"), "action": _l("Action")})

MAX_LINES_TEXT = 8000           # characters of the typed heuristics
MAX_OPENINGS = 4
FEATURED_STEP = 0.35            # seconds between two stones of the featured game (CSS)
TEMPLATE = "tournament/live.html"
ENTRIES = "entries"             # a class's tournament before its start: phones send entries


def submitted(tg: TournamentGame, code: str, t=None) -> list[Sent]:
    """Each heuristic the class sent (``Sent``): through the game's own activity (its
    ``class_entries``: each student's latest, in the order they first came; the depth the
    class built them at), or typed on this page's phone form while the entries are open
    (``t``, the class's tournament: ``typed``)."""
    return list(tg.class_entries(cv.store(), code)) + typed(t)


def typed(t) -> list[Sent]:
    """Each entry a phone typed while the entries were open (a spec of state ``entries``:
    ``open_entries``), in the order they first came."""
    if t is None or t.spec.get("state") != ENTRIES:
        return []
    depth, entries = t.spec.get("depth"), t.spec.get("entries", {})
    return [as_sent(voter, entries[voter], depth) for voter in entry_order(t.spec)]


def entry_order(spec: dict) -> list[str]:
    """The voters of the entries in the order they first came: the spec's ``order`` (the
    store writes a dict's keys sorted), then any it misses, sorted."""
    entries = spec.get("entries", {})
    order = [v for v in spec.get("order", []) if v in entries]
    return order + sorted(set(entries) - set(order))


def as_sent(voter: str, entry: list, depth: int | None) -> Sent:
    """A stored entry, ``[name, heuristic, judged]``: ``judged`` the accuracy, blunders and
    positions measured when it was sent (``enter``), None (or absent) if the game measures
    none."""
    name, h, *rest = entry
    judged = rest[0] if rest and isinstance(rest[0], dict) else {}
    return Sent(voter, name, h, depth, judged.get("accuracy"), judged.get("blunders"),
                judged.get("positions"))


def runner(app=None) -> R.Runner:
    app = app or current_app
    made = app.extensions.get("tournament_runner")
    if made is None:
        made = app.extensions["tournament_runner"] = R.Runner(app.extensions["class_store"],
                                                               lane=game_lane)
    return made


def kick() -> None:
    """The worker's runner wakes (started if it was not: after a restart, the first page of
    a running tournament starts it again). Tests play the games themselves."""
    if current_app.config.get("TOURNAMENT_RUNNER", "thread") == "thread":
        runner().kick()


def after_boot(app) -> None:
    """Once a worker has booted (gunicorn's ``post_worker_init``): its runner looks in the
    store for the tournaments a restart left unfinished, and then now and then, and plays
    them with no page opened (``Runner.watch``)."""
    if app.config.get("TOURNAMENT_RUNNER", "thread") == "thread":
        runner(app).watch()


def is_teacher(state) -> bool:
    return state.is_teacher(cv.teacher_secret(state.code))


LAST_STEP = 41          # the play-out's last delay class (static/tournament.css)


class Live:
    """A class's tournament as its pages draw it (computed here; templates only draw)."""

    def __init__(self, state, t, game, *, teacher: bool, voter: str | None):
        self.code, self.teacher = state.code, teacher
        self.game, self.tg = game, for_page(game)      # game: its entry in the games table
        # the entries open on the phones (typed there: the game collects none of its own)
        self.open = t is not None and t.spec.get("state") == ENTRIES
        # before a start, what the page shows: no entries yet, or these entries open (the
        # stream draws a page again that was drawn at another stage: ``events``)
        self.stage = f"open-{t.spec.get('id')}" if self.open else "none"
        self.t = None if self.open else t
        self.spec = self.t.spec if self.t else None
        self.games = self.t.games if self.t else {}
        self.entries = submitted(self.tg, self.code, t) if teacher and not self.t else []
        mine = t.spec.get("entries", {}).get(voter) if self.open and voter else None
        self.my_entry = as_sent(voter, mine, t.spec.get("depth")) if mine else None
        # the depth the class built its heuristics at, the latest sent
        self.depth = (self.entries[-1].depth if self.entries and self.entries[-1].depth
                      else self.tg.default_depth)
        # the accuracy's explanation under the teacher's list: how many positions, what depth
        self.judged = next((e for e in self.entries if e.accuracy is not None), None)
        self.bosses = BOSSES
        if not self.spec:
            return
        spec = self.spec
        self.by_name = {e["name"]: e for e in spec["entrants"]}
        self.settings = settings_line(spec)
        final = spec.get("final")
        so_far = _provisional(spec, self.games)
        self.rows, self.cross = ((final["standings"], final["crosstable"]) if final else
                                 so_far[:2])
        # a Swiss's byes: (round, from 1, name), and each entrant's rounds sat out
        self.byes = [(r + 1, name) for r, name in so_far[2]]
        self.byes_of: dict[str, list[int]] = {}
        for r, name in self.byes:
            self.byes_of.setdefault(name, []).append(r)
        self.played, self.total = len(self.games), R.total_games(spec)
        self.percent = int(100 * self.played / max(self.total, 1))
        self.done = spec["state"] == "done"
        last = max(self.games) if self.games else None
        self.featured = (last, self.games[last]) if last is not None else None
        self.mine = spec.get("voters", {}).get(voter) if voter else None
        self.my_games = [(n, g) for n, g in sorted(self.games.items())
                         if self.mine in (g["first"], g["second"])]
        self.finale = spec.get("finale")

    # -- what the pages link to --

    def name(self, name: str) -> str:
        e = self.by_name.get(name)
        if e and e["level"] or name == PERFECT:
            return str(LEVEL_LABELS.get(name, name))
        return name

    def standings_url(self) -> str | None:
        """A link that reopens these standings: once the tournament is over, one that holds
        them, or past a server's length one to them kept in the store (``results``:
        either outlives the class), None if the store cannot keep them now; before, this
        page."""
        if self.done:
            return results_link(self.spec, self.games)
        return url_for(".page", game=self.game.name, code=self.code)

    def review_url(self, moves: str) -> str:
        return review_url(self.game.name, moves)

    def why_url(self, n: int) -> str:
        return url_for(".why", game=self.game.name, code=self.code, n=n)

    def move_url(self, who: str, moves: str, ply: int) -> str:
        """The game page after move ``ply`` (0-based) of ``moves``, the tree of the search of
        ``who`` (an entrant, or the perfect player) behind it."""
        e = self.by_name.get(who)
        level = who if who == PERFECT else e["level"] if e else None
        return move_url(self.game.name, self.tg.rules, moves, ply, level=level,
                        heuristic=e and e["heuristic"], depth=self.spec["depth"])

    def board(self, moves: str, opening: str = "") -> list:
        """The position after ``moves`` as the game's board macro draws it, each stone or mark
        with its order in the play-out (None for the opening's)."""
        return self.tg.board(moves, opening)

    def result_step(self, moves: str, opening: str = "") -> int:
        """The play-out's step at which the featured game's result appears: after its last
        move (told at once, it gave the end away while the class watched the stones come).
        Each move is one character of ``moves``, as the games' ``board`` count them; the
        steps' delays are static/tournament.css's ``tl-o0`` to ``tl-o41``."""
        return min(len(moves) - len(opening), LAST_STEP)

    def finale_games(self) -> list[dict]:
        f = self.finale or {}
        return f.get("games", []) + ([f["perfect"]] if f.get("perfect") else [])

    def finale_moves(self, g: dict) -> list[tuple[int, str, str, str]]:
        """(ply, move, mover, link) of each move of a finale game after its opening."""
        words = move_words(self.tg.rules, g["moves"])
        skip = len(move_words(self.tg.rules, g["opening"]))
        out = []
        for ply in range(skip, len(words)):
            mover = g["first"] if (ply - skip) % 2 == 0 else g["second"]
            out.append((ply + 1, words[ply], mover, self.move_url(mover, g["moves"], ply)))
        return out


_counted: "OrderedDict[tuple, tuple]" = OrderedDict()
_counting = threading.Lock()      # gevent's under the server: a page waiting for it yields


def _provisional(spec: dict, games: dict) -> tuple[list[dict], list[dict], list]:
    """The standings so far, rated (the fit takes a few ms: ``ai.teach.standings``), and a
    Swiss's byes (``R.sat_out``), counted once per worker for all the class's pages (the
    projector and every phone woken by the same games wait for the one count), off the
    event loop in the games' lane (``game_lane``): a Swiss of 200 and its 8,000 games take
    ~100 ms to count, its crosstable most of it."""
    key = (spec["id"], len(games))
    with _counting:
        if key not in _counted:
            _counted[key] = game_lane(lambda: (*R.results(spec, games, rate=True),
                                               R.sat_out(spec, games)))
            while len(_counted) > 32:
                _counted.popitem(last=False)
        return _counted[key]


def stored(state, game):
    """(the class's tournament or None, the game it is of: ``game``, the page's, when there
    is none yet)."""
    t = tournaments_of(cv.store()).get(state.code)
    return t, (GAMES.get(t.spec["game"], game) if t else game)


def live_for(state, game) -> Live:
    t, game = stored(state, game)
    return Live(state, t, game, teacher=is_teacher(state), voter=cv.student_id())


def drawn(draw):
    """``draw()`` in the pages' lane, off the loop (``drawn_in_lane``): the standings and
    crosstable of a Swiss of 200 (40,000 cells, ~140 ms) and its CSV (8,000 games) grow with
    the tournament; the app's 503 with Retry-After, translated, before any drawing when the
    lane stays full."""
    try:
        return drawn_in_lane(draw, pages=True)
    except Busy as err:
        raise refuse(err) from None


def page_response(state, game, *, status=200, error=None) -> Response:
    live = live_for(state, game)
    if live.spec and live.spec["state"] == "running":
        kick()
    return Response(drawn(lambda: render_template(TEMPLATE, live=live, error=error,
                                                  step=FEATURED_STEP)),
                    status, mimetype="text/html")


@bp.get("/<game:game>/tournament/live/<code>")
def page(game, code):
    """The class's tournament: the teacher's set-up or the live standings (see the module);
    under its own game's path (a class's tournament of another game redirects there)."""
    for_page(game)
    state = cv.the_class(code, ended_ok=True)
    t, own = stored(state, game)
    if state.code != code or own.name != game.name:
        # the link's own parameters kept (lang, proj), none that url_for reads as its own
        kept = {k: v for k, v in request.args.items()
                if k not in ("game", "code", "endpoint") and not k.startswith("_")}
        return redirect(url_for(".page", game=own.name, code=state.code, **kept), 301)
    return page_response(state, game)


@bp.get("/<game:game>/tournament/live/<code>/events")
def events(game, code):
    """The live part of the page, again on each game that ends and each move of the finale;
    before the start, the set-up's changes (the entries opened, a phone's entry)."""
    for_page(game)
    state = cv.the_class(code, ended_ok=True)
    teacher, voter = is_teacher(state), cv.student_id()
    shown = [None]                        # the featured game this page has
    # the set-up's stage the page was drawn at (``Live.stage``; never echoed, so any text
    # will do: a wrong one draws the page once more)
    stage = [request.args.get("at", "")[:40]]

    def render(state, kinds, in_context):
        return in_context(lambda: draw(state))

    def draw(state):
        if state.closed:
            return cv.sse("closed", render_template("_class_ended.html", code=state.code))
        # read once per worker for all the class's pages woken by the same event
        t = cv.hub().latest(state.code, tournaments_of(cv.store()).get, what="tournament")
        if t and t.spec["state"] == "running":
            kick()
        own = GAMES.get(t.spec["game"], game) if t else game
        live = Live(state, t, own, teacher=teacher, voter=voter)
        if not live.spec:                 # nothing live to draw yet: the set-up
            out = ""
            if live.stage != stage[0]:    # the entries opened since the page was drawn: the
                stage[0] = live.stage     # page again, the phones' form on it ("stage")
                out += cv.sse("stage", live.stage)
            # while the entries are open, the teacher's list follows them ("setup")
            return out + (cv.sse("setup", str(len(live.entries))) if live.open else "")
        out = cv.sse("live", in_stream_lane(lambda: render_block(
            TEMPLATE, "live", live=live, step=FEATURED_STEP)))
        featured = (live.spec or {}).get("id"), live.featured and live.featured[0]
        if featured != shown[0]:
            shown[0] = featured
            out += cv.sse("featured", in_stream_lane(lambda: render_block(
                TEMPLATE, "featured", live=live)))
        return out

    def in_stream_lane(draw):
        """``draw()`` off the loop (the standings and crosstable, at each game's end), as a
        class exercise's streams draw: the teacher's in the pages' lane, a phone's in the
        trees' lane (never ahead of the teacher's), waiting ``cv.STREAM_WAIT`` at most;
        beyond, Busy ends the stream cleanly and its page reconnects (``cv.stream``)."""
        return drawn_in_lane(draw, pages=teacher, wait=cv.STREAM_WAIT)

    return cv.stream(state, render, follower=None, kinds={"tournament", "closed"})


def read_lines(text: str) -> list[str]:
    if len(text) > MAX_LINES_TEXT:
        raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)", "lines",
                         field=label("lines"), n=len(text), most=MAX_LINES_TEXT)
    return [line.strip() for line in text.splitlines() if line.strip()]


@bp.post("/<game:game>/tournament/live/<code>/start")
def start(game, code):
    """The teacher starts the tournament: entries close; the runner plays it."""
    tg = for_page(game)
    state = cv.teacher_class(code)
    form = request.form
    try:
        sent = submitted(tg, state.code, tournaments_of(cv.store()).get(state.code))
        chosen = set(form.getlist("sub"))
        lines = [f"{e.name}:{e.heuristic}" for e in sent if e.voter in chosen]
        lines += read_lines(form.get("lines", ""))
        args = MultiDict([("e", x) for x in lines] + [("boss", b) for b in form.getlist("boss")])
        entrants = read_entrants(args, game.name, tg, R.MAX_LIVE_ENTRANTS)
        depth = read_int(form, "depth", tg.default_depth, 1, tg.max_depth)
        openings = read_int(form, "openings", DEFAULT_OPENINGS, 1,
                            min(MAX_OPENINGS, tg.max_openings))
        if len(entrants) < 2:
            raise BadRequest("A tournament needs at least two entrants: add a heuristic or a "
                             "boss.", "e")
        voters = {e.voter: e.name for e in sent if e.voter in chosen}
        spec = R.new_spec(game.name, entrants, depth, openings, voters)
    except BadRequest as err:
        return page_response(state, game, status=400, error=tr(err))
    tg.close_entries(cv.store(), state.code)
    tournaments_of(cv.store()).start(state.code, spec)
    kick()
    return redirect(url_for(".page", game=game.name, code=state.code), 303)


@bp.post("/<game:game>/tournament/live/<code>/open")
def open_entries(game, code):
    """The teacher opens the entries: each phone of the class may send a name and a
    heuristic (over the game's terms) on this page, again until the start; for a game whose
    class builds its heuristics in an activity of its own (``collects``), that activity."""
    tg = for_page(game)
    state = cv.teacher_class(code)
    if tg.collects:
        raise cv.ClassProblem(409, OWN_ENTRIES)
    tournaments_of(cv.store()).start(state.code, {
        "id": secrets.token_hex(6), "game": game.name, "state": ENTRIES, "entries": {},
        "depth": tg.default_depth})
    return redirect(url_for(".page", game=game.name, code=state.code), 303)


@bp.post("/<game:game>/tournament/live/<code>/entry")
def enter(game, code):
    """A phone's entry: its name and heuristic, checked as a link's entrant
    (``read_entrants``); sent again, the latest replaces it. Refused when the entries are
    not open (the teacher has not opened them, or has started)."""
    tg = for_page(game)
    state = cv.the_class(code)
    sid = cv.acting_student("vote")
    form = request.form
    name = "".join(c for c in form.get("name", "") if c.isprintable() and c != ":").strip()
    try:
        entrant = read_entrants(MultiDict([("e", f"{name}:{form.get('h', '')}")]), game.name,
                                tg, 1)[0]
    except BadRequest as err:
        return page_response(state, game, status=400, error=tr(err))
    t = tournaments_of(cv.store()).get(state.code)
    if t is None or t.spec.get("state") != ENTRIES:
        raise cv.ClassProblem(409, NOT_OPEN)
    judged = measured(tg, entrant.heuristic, t.spec.get("depth") or tg.default_depth)

    def add(spec):
        if spec.get("state") != ENTRIES:
            raise cv.ClassProblem(409, NOT_OPEN)
        taken = {e[0].casefold() for v, e in spec["entries"].items() if v != sid}
        if entrant.name.casefold() in taken:
            raise BadRequest("Two entrants are named %(name)s: give each a name of its own (a "
                             "boss is named by its level).", "e", name=entrant.name)
        order = entry_order(spec)
        return {**spec, "entries": {**spec["entries"],
                                    sid: [entrant.name, entrant.heuristic, judged]},
                "order": order if sid in order else order + [sid]}

    try:
        if tournaments_of(cv.store()).update(state.code, add) is None:
            raise cv.ClassProblem(409, NOT_OPEN)
    except BadRequest as err:
        return page_response(state, game, status=400, error=tr(err))
    return redirect(url_for(".page", game=game.name, code=state.code) + "#tl-entry", 303)


def measured(tg: TournamentGame, heuristic: str, depth: int) -> dict | None:
    """How good the exact solver finds ``heuristic`` at ``depth`` (the game's ``judge``, a
    fraction of a second of searches: in a search lane, charged to the phone), as an entry
    keeps it; None for a game without the measure."""
    try:
        report = admitted(lambda: tg.judge(heuristic, depth), heavy=False)
    except Busy as err:
        raise refuse(err) from None
    if report is None:
        return None
    return {"accuracy": report.accuracy, "blunders": report.blunders,
            "positions": report.positions}


OWN_ENTRIES = N_("This game's class sends its heuristics from an activity of its own: send "
                 "it from the class's bar.")
NOT_OPEN = N_("The entries are not open: the teacher opens them before the tournament, "
              "and closes them at its start.")


@bp.get("/<game:game>/tournament/live/<code>/standings.csv")
def standings_csv(game, code):
    """The standings, then every game, as a spreadsheet opens them safely."""
    for_page(game)
    state = cv.the_class(code, ended_ok=True)
    live = live_for(state, game)
    if not live.spec:
        raise cv.ClassProblem(404, NO_TOURNAMENT, code=state.code)
    return drawn(lambda: csv_response(standings_rows(live), f"tournament-{state.code}.csv"))


def standings_rows(live: Live) -> list[list]:
    """The CSV's rows: the standings, a blank row, every game."""
    rows = [[gettext("Rank"), gettext("Entrant"), gettext("Heuristic"), gettext("Points"),
             gettext("Games"), gettext("W"), gettext("D"), gettext("L"), gettext("Rating"),
             gettext("± error")]]
    for r in live.rows:
        e = live.by_name[r["name"]]
        rows.append([r["rank"], r["name"], e["heuristic"] or e["level"], r["points"],
                     r["games"], r["W"], r["D"], r["L"], r["rating"], r["rating_error"]])
    rows.append([])
    rows.append(["#", str(live.tg.first_side), str(live.tg.second_side), gettext("Result"),
                 gettext("Opening"), gettext("Moves")])
    for n, g in sorted(live.games.items()):
        rows.append([n + 1, g["first"], g["second"], g["result"], g["opening"], g["moves"]])
    return rows


NO_TOURNAMENT = N_("The class %(code)s has no tournament yet.")


@bp.get("/<game:game>/tournament/live/<code>/why/<int:n>")
def why(game, code, n):
    """Game ``n``'s exact review, opened at the first move that threw the value away (of the
    loser, or of the student's own bot when it lost): the move that lost it."""
    for_page(game)
    state = cv.the_class(code, ended_ok=True)
    live = live_for(state, game)
    played = live.games.get(n) if live.spec else None
    if played is None:
        raise cv.ClassProblem(404, NO_GAME, n=n + 1)
    loser = (played["second"] if played["winner"] == played["first"] else
             played["first"] if played["winner"] else None)
    side = None if loser is None else (0 if loser == played["first"] else 1)
    try:
        ply = admitted(lambda: first_losing_ply(live.tg.rules, played, side), heavy=True)
    except Busy as err:
        raise refuse(err) from None
    args = dict(moves=played["moves"], mode="human-human")   # no AI of the page: bots both
    if ply:
        args["ply"] = ply
    return redirect(url_for("review.page", game=live.game.name, **args)
                    + ("#review-detail" if ply else ""), 303)


NO_GAME = N_("There is no game %(n)s in this tournament (yet).")
REVIEW_NODES = 2_000_000


def first_losing_ply(rules, game: dict, side: int | None) -> int | None:
    """The ply (1-based, from the start) of the first move after the opening by ``side``
    (0: who moved first after it) that lost value (a mistake or a blunder: the value thrown
    away), by the exact review within a node budget; None if none is found."""
    from ai.teach.review import review
    moves = rules.parse_moves(game["moves"])
    rev = review(rules, moves, time_limit=None, max_nodes=REVIEW_NODES, lines=False)
    skip = len(rules.parse_moves(game["opening"]))
    for item in rev.items[skip:]:
        mover = (item.ply - 1 - skip) % 2
        if (side is None or mover == side) and item.cls in ("mistake", "blunder"):
            return item.ply
    return None


# -- the finale (web.tournament.finale) -------------------------------------------------------

@bp.post("/<game:game>/tournament/live/<code>/finale")
def finale(game, code):
    """The teacher's finale: ``action=start`` (the top two now), ``next`` (one move),
    ``perfect`` (the champion against the perfect player)."""
    state = cv.teacher_class(code)
    action = request.form.get("action", "")
    if action not in ("start", "next", PERFECT):
        raise BadRequest("%(field)s: one of %(choices)s, not “%(raw)s”", "action",
                         field=label("action"), choices="start, next, perfect",
                         raw=action[:20])
    for_page(game)
    live = live_for(state, game)
    if not live.spec:
        raise cv.ClassProblem(404, NO_TOURNAMENT, code=state.code)
    try:
        f = F.step(live, action)
    except Busy as err:
        raise refuse(err) from None
    if f != live.finale:
        tournaments_of(cv.store()).change(state.code, {"finale": f})
    return redirect(url_for(".page", game=live.game.name, code=state.code) + "#finale", 303)
