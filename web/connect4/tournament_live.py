"""Blueprint ``tournament_live``: a class's Connect-4 tournament, live on the projector and on
the phones (``/connect4/tournament/live/<code>``), played beside the lesson by the worker's
runner (``web.connect4.tournament_runner``), kept in the class store.

Teacher (the class's secret, as every teacher action of class mode):

- the page, before a start: the entrants (the heuristics the class sent from the workshop,
  ``submitted``; heuristics typed one a line, ``NAME:weights``; the app's levels as bosses,
  ticked), the depth and the openings; ``POST .../start`` starts it (entries close);
- while it runs and after: progress, the standings as games finish, rated (a Swiss's byes:
  who sat each round out, ``R.sat_out``) (server-sent events,
  ``GET .../events``, as the class's own live pages), one game played out on a board (the
  latest finished), the crosstable; the CSV (``.../standings.csv``, ``web.spreadsheet``), and
  a link that reopens the standings after the class has gone (``tournament_results``);
- the finale, ``POST .../finale``: best of 3 between the top two, move by move (``next``),
  each move's link opening the game page with the tree of the search behind it; then the
  champion against the perfect player.

Students (a phone that joined the class): the same page without the controls, and their own
games ("Why did my bot lose?", ``.../why/<n>``: the exact review of the game, opened at the
first move of their bot that threw the value away).

Every search of a request (a finale's move, a review) runs in a search lane
(``web.admission``); the tournament's games never run in a request.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import (Blueprint, Response, current_app, redirect, render_template, request,
                   url_for)
from flask_babel import gettext, lazy_gettext as _l
from jinja2_fragments.flask import render_block
from werkzeug.datastructures import MultiDict

from ai.games.connect4 import tournament as T
from ai.levels import LEVELS
from ai.messages import N_

from ..admission import Busy, admitted, game_lane, refuse
from ..classroom import views as cv
from ..classroom.answers import answers_of
from ..classroom.tournaments import tournaments_of
from ..i18n import LEVEL_LABELS, tr
from ..params import LABELS, BadRequest, label, read_int
from ..spreadsheet import csv_response
from . import tournament_runner as R
from .tournament_results import link as results_link, settings_line
from .class_workshop import KIND as WORKSHOP, class_heuristics
from .tournament_page import BOSSES, DEFAULT_DEPTH, DEFAULT_OPENINGS, read_entrants

bp = Blueprint("tournament_live", __name__)
bp.register_error_handler(cv.ClassProblem, cv.problem)     # class mode's clear pages
bp.register_error_handler(BadRequest, cv.problem)
LABELS.update({"lines": _l("Heuristics"), "action": _l("Action")})

MAX_LINES_TEXT = 8000           # characters of the typed heuristics
MAX_OPENINGS = 4
FINALE_GAMES = 3
PERFECT = "perfect"
FEATURED_STEP = 0.35            # seconds between two stones of the featured game (CSS)
TEMPLATE = "games/connect4/tournament_live.html"


def submitted(code: str) -> list[tuple[str, str, str, int]]:
    """(voter, name, heuristic, depth) of each heuristic the class sent from the workshop
    (``class_workshop.class_heuristics``: each student's latest, in the order they first
    came; the depth the class built them at)."""
    return [(s.voter, s.name, s.heuristic, s.depth)
            for s in class_heuristics(cv.store(), code)]


def close_entries(code: str) -> None:
    """The workshop's "build your heuristic" closes on the phones: the tournament has its
    entrants."""
    answers = answers_of(cv.store())
    now = answers.current(code)
    if now is not None and now.kind == WORKSHOP and now.open:
        answers.change(code, now.seq, open=False)


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


class Live:
    """A class's tournament as its pages draw it (computed here; templates only draw)."""

    def __init__(self, state, t, *, teacher: bool, voter: str | None):
        self.code, self.t, self.teacher = state.code, t, teacher
        self.spec = t.spec if t else None
        self.games = t.games if t else {}
        self.entries = submitted(self.code) if teacher and not t else []
        # the depth the class built its heuristics at, the latest sent
        self.depth = self.entries[-1][3] if self.entries else DEFAULT_DEPTH
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
        them, or past a server's length one to them kept in the store (``tournament_results``:
        either outlives the class), None if the store cannot keep them now; before, this
        page."""
        if self.done:
            return results_link(self.spec, self.games)
        return url_for(".page", code=self.code)

    def review_url(self, moves: str) -> str:
        return url_for("review.page", game="connect4", moves=moves)

    def why_url(self, n: int) -> str:
        return url_for(".why", code=self.code, n=n)

    def move_url(self, who: str, moves: str, ply: int) -> str:
        """The game page after move ``ply`` (0-based) of ``moves``, the tree of the search of
        ``who`` (an entrant, or the perfect player) behind it."""
        args = dict(moves=moves, tree=1, mode="ai-human" if ply % 2 == 0 else "human-ai")
        if ply + 1 != len(moves):
            args["at"] = ply + 1
        e = self.by_name.get(who)
        if who == PERFECT or (e and e["level"]):
            args["level"] = who if who == PERFECT else e["level"]
        else:
            args.update(level="custom", algo="alphabeta", depth=self.spec["depth"],
                        heur=e["heuristic"], order="center", time=1000)
        return url_for("play.show", game="connect4", **args)

    def board(self, moves: str, opening: str = "") -> list[list[tuple]]:
        """The position after ``moves``, top row first: (player or None, the order in which
        its stone comes in the play-out, or None for an opening's stone, already there)."""
        heights = [0] * 7
        cells = [[(None, None)] * 7 for _ in range(6)]
        for i, ch in enumerate(moves):
            c = int(ch) - 1
            cells[heights[c]][c] = (i % 2, None if i < len(opening) else
                                    min(i - len(opening), 41))
            heights[c] += 1
        return cells[::-1]

    def finale_games(self) -> list[dict]:
        f = self.finale or {}
        return f.get("games", []) + ([f["perfect"]] if f.get("perfect") else [])

    def finale_moves(self, g: dict) -> list[tuple[int, str, str, str]]:
        """(ply, column, mover, link) of each move of a finale game after its opening."""
        out = []
        for ply in range(len(g["opening"]), len(g["moves"])):
            mover = g["first"] if (ply - len(g["opening"])) % 2 == 0 else g["second"]
            out.append((ply + 1, g["moves"][ply], mover, self.move_url(mover, g["moves"], ply)))
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


def live_for(state) -> Live:
    t = tournaments_of(cv.store()).get(state.code)
    return Live(state, t, teacher=is_teacher(state), voter=cv.student_id())


def page_response(state, *, status=200, error=None) -> Response:
    live = live_for(state)
    if live.spec and live.spec["state"] == "running":
        kick()
    return Response(render_template(TEMPLATE, live=live,
                                    error=error, step=FEATURED_STEP),
                    status, mimetype="text/html")


@bp.get("/connect4/tournament/live/<code>")
def page(code):
    """The class's tournament: the teacher's set-up or the live standings (see the module)."""
    state = cv.the_class(code, ended_ok=True)
    if state.code != code:
        return redirect(url_for(".page", code=state.code, **request.args), 301)
    return page_response(state)


@bp.get("/connect4/tournament/live/<code>/events")
def events(code):
    """The live part of the page, again on each game that ends and each move of the finale."""
    state = cv.the_class(code, ended_ok=True)
    teacher, voter = is_teacher(state), cv.student_id()
    shown = [None]                        # the featured game this page has

    def render(state, kinds, in_context):
        return in_context(lambda: draw(state))

    def draw(state):
        if state.closed:
            return cv.sse("closed", render_template("_class_ended.html", code=state.code))
        # read once per worker for all the class's pages woken by the same event
        t = cv.hub().latest(state.code, tournaments_of(cv.store()).get, what="tournament")
        if t and t.spec["state"] == "running":
            kick()
        live = Live(state, t, teacher=teacher, voter=voter)
        out = cv.sse("live", render_block(TEMPLATE, "live", live=live, step=FEATURED_STEP))
        featured = (live.spec or {}).get("id"), live.featured and live.featured[0]
        if featured != shown[0]:
            shown[0] = featured
            out += cv.sse("featured", render_block(TEMPLATE, "featured", live=live))
        return out

    return cv.stream(state, render, follower=None, kinds={"tournament", "closed"})


def read_lines(text: str) -> list[str]:
    if len(text) > MAX_LINES_TEXT:
        raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)", "lines",
                         field=label("lines"), n=len(text), most=MAX_LINES_TEXT)
    return [line.strip() for line in text.splitlines() if line.strip()]


@bp.post("/connect4/tournament/live/<code>/start")
def start(code):
    """The teacher starts the tournament: entries close; the runner plays it."""
    state = cv.teacher_class(code)
    form = request.form
    try:
        sent = submitted(state.code)
        chosen = set(form.getlist("sub"))
        lines = [f"{name}:{h}" for voter, name, h, _ in sent if voter in chosen]
        lines += read_lines(form.get("lines", ""))
        args = MultiDict([("e", x) for x in lines] + [("boss", b) for b in form.getlist("boss")])
        entrants = read_entrants(args, most=R.MAX_LIVE_ENTRANTS)
        depth = read_int(form, "depth", DEFAULT_DEPTH, 1, 6)
        openings = read_int(form, "openings", DEFAULT_OPENINGS, 1, MAX_OPENINGS)
        if len(entrants) < 2:
            raise BadRequest("A tournament needs at least two entrants: add a heuristic or a "
                             "boss.", "e")
        voters = {voter: name for voter, name, _, _ in sent if voter in chosen}
        spec = R.new_spec(entrants, depth, openings, voters)
    except BadRequest as err:
        return page_response(state, status=400, error=tr(err))
    close_entries(state.code)
    tournaments_of(cv.store()).start(state.code, spec)
    kick()
    return redirect(url_for(".page", code=state.code), 303)


@bp.get("/connect4/tournament/live/<code>/standings.csv")
def standings_csv(code):
    """The standings, then every game, as a spreadsheet opens them safely."""
    state = cv.the_class(code, ended_ok=True)
    live = live_for(state)
    if not live.spec:
        raise cv.ClassProblem(404, NO_TOURNAMENT, code=state.code)
    rows = [[gettext("Rank"), gettext("Entrant"), gettext("Heuristic"), gettext("Points"),
             gettext("Games"), gettext("W"), gettext("D"), gettext("L"), gettext("Rating"),
             gettext("± error")]]
    for r in live.rows:
        e = live.by_name[r["name"]]
        rows.append([r["rank"], r["name"], e["heuristic"] or e["level"], r["points"],
                     r["games"], r["W"], r["D"], r["L"], r["rating"], r["rating_error"]])
    rows.append([])
    rows.append(["#", gettext("Yellow (first)"), gettext("Red"), gettext("Result"),
                 gettext("Opening"), gettext("Moves")])
    for n, g in sorted(live.games.items()):
        rows.append([n + 1, g["first"], g["second"], g["result"], g["opening"], g["moves"]])
    return csv_response(rows, f"tournament-{state.code}.csv")


NO_TOURNAMENT = N_("The class %(code)s has no tournament yet.")


@bp.get("/connect4/tournament/live/<code>/why/<int:n>")
def why(code, n):
    """Game ``n``'s exact review, opened at the first move that threw the value away (of the
    loser, or of the student's own bot when it lost): the move that lost it."""
    state = cv.the_class(code, ended_ok=True)
    live = live_for(state)
    game = live.games.get(n) if live.spec else None
    if game is None:
        raise cv.ClassProblem(404, NO_GAME, n=n + 1)
    loser = (game["second"] if game["winner"] == game["first"] else
             game["first"] if game["winner"] else None)
    side = None if loser is None else (0 if loser == game["first"] else 1)
    try:
        ply = admitted(lambda: first_losing_ply(game, side), heavy=True)
    except Busy as err:
        raise refuse(err) from None
    args = dict(moves=game["moves"], mode="human-human")   # no AI of the page: bots both
    if ply:
        args["ply"] = ply
    return redirect(url_for("review.page", game="connect4", **args) + ("#review-detail" if ply else ""),
                    303)


NO_GAME = N_("There is no game %(n)s in this tournament (yet).")
REVIEW_NODES = 2_000_000


def first_losing_ply(game: dict, side: int | None) -> int | None:
    """The ply (1-based, from the empty board) of the first move after the opening by
    ``side`` (0: who moved first after it) that lost value (a mistake or a blunder: the
    value thrown away), by the exact review within a node budget; None if none is found."""
    from ai.teach.review import review
    rules = T.GAME
    moves = [int(c) - 1 for c in game["moves"]]
    rev = review(rules, moves, time_limit=None, max_nodes=REVIEW_NODES, lines=False)
    skip = len(game["opening"])
    for item in rev.items[skip:]:
        mover = (item.ply - 1 - skip) % 2
        if (side is None or mover == side) and item.cls in ("mistake", "blunder"):
            return item.ply
    return None


# -- the finale ----------------------------------------------------------------------------------

def _finale_player(live: Live, name: str):
    if name == PERFECT:
        level = LEVELS[PERFECT]
        return lambda s: level.play(T.GAME, s).move
    i = [e["name"] for e in live.spec["entrants"]].index(name)
    p = R._player(live.spec, i)
    return lambda s: p(s).move


def finale_move(live: Live, g: dict) -> dict:
    """``g`` with its next move played (a search of the mover, in the light lane)."""
    state = T.GAME.from_moves(g["moves"])
    if T.GAME.is_terminal(state):
        return g
    ply = len(g["moves"]) - len(g["opening"])
    mover = g["first"] if ply % 2 == 0 else g["second"]
    move = admitted(lambda: _finale_player(live, mover)(state), heavy=mover == PERFECT)
    moves = g["moves"] + str(move + 1)
    after = T.GAME.from_moves(moves)
    result = None
    if T.GAME.is_terminal(after):
        u = T.GAME.utility(after, T.GAME.to_move(T.GAME.from_moves(g["opening"])))
        result = "1-0" if u > 0 else "0-1" if u < 0 else "½-½"
    return {**g, "moves": moves, "result": result}


def finale_games(a: str, b: str, openings: list[dict]) -> list[dict]:
    """Best of 3: the first of the standings starts the first game, colours alternate, each
    game from the next of the solver's balanced openings (three of them: a third game from
    the first one's opening and colours would replay it move for move)."""
    out = []
    for i in range(FINALE_GAMES):
        o = openings[i % len(openings)]["moves"]
        first, second = (a, b) if i % 2 == 0 else (b, a)
        out.append({"first": first, "second": second, "opening": o, "moves": o,
                    "result": None})
    return out


def finale_score(games: list[dict], name: str) -> float:
    pts = 0.0
    for g in games:
        if g["result"]:
            s = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
            pts += s if g["first"] == name else 1 - s
    return pts


def finale_step(live: Live, action: str) -> dict | None:
    """The finale after the teacher's ``action`` (``start``, ``next``, ``perfect``)."""
    spec, f = live.spec, live.finale
    if action == "start":
        if len(live.rows) < 2:
            return f
        a, b = live.rows[0]["name"], live.rows[1]["name"]
        return {"a": a, "b": b, "games": finale_games(a, b, T.openings(FINALE_GAMES)),
                "perfect": None, "champion": None}
    if not f:
        return f
    if action == "next":
        if f.get("perfect"):
            if not f["perfect"]["result"]:
                f = {**f, "perfect": finale_move(live, f["perfect"])}
            return f
        games = list(f["games"])
        for i, g in enumerate(games):
            if not g["result"]:
                games[i] = finale_move(live, g)
                break
        f = {**f, "games": games}
        a, b = f["a"], f["b"]
        sa, sb = finale_score(games, a), finale_score(games, b)
        left = sum(1 for g in games if not g["result"])
        if sa > sb + left or sb > sa + left or not left:
            # decided: the games left are not played; level after three, the standings' first
            f = {**f, "champion": a if sa >= sb else b,
                 "games": [g for g in games if g["result"] or g["moves"] != g["opening"]]}
        return f
    if action == PERFECT and f.get("champion") and not f.get("perfect"):
        o = spec["openings"][0]["moves"]
        return {**f, "perfect": {"first": f["champion"], "second": PERFECT, "opening": o,
                                 "moves": o, "result": None}}
    return f


@bp.post("/connect4/tournament/live/<code>/finale")
def finale(code):
    """The teacher's finale: ``action=start`` (the top two now), ``next`` (one move),
    ``perfect`` (the champion against the perfect player)."""
    state = cv.teacher_class(code)
    action = request.form.get("action", "")
    if action not in ("start", "next", PERFECT):
        raise BadRequest("%(field)s: one of %(choices)s, not “%(raw)s”", "action",
                         field=label("action"), choices="start, next, perfect",
                         raw=action[:20])
    live = live_for(state)
    if not live.spec:
        raise cv.ClassProblem(404, NO_TOURNAMENT, code=state.code)
    try:
        f = finale_step(live, action)
    except Busy as err:
        raise refuse(err) from None
    if f != live.finale:
        tournaments_of(cv.store()).change(state.code, {"finale": f})
    return redirect(url_for(".page", code=state.code) + "#finale", 303)


def init_app(app) -> None:
    from . import tournament_results
    app.register_blueprint(bp)
    app.register_blueprint(tournament_results.bp)
    app.extensions.setdefault("after_boot", []).append(after_boot)
