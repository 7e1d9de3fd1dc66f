"""Blueprint ``classroom``: class mode. The teacher's projector shows a board the class
follows live on phones and laptops; students vote on the next move.

Teacher (the holder of the secret in the teacher's link):

- ``POST /class`` (the "Class mode" button of any game page, ``link=`` that page): a new
  class; redirected to its teacher link ``/class/<code>/teach?key=<secret>``, which puts the
  secret in a cookie for this browser (HttpOnly, SameSite=Strict) and opens the board in
  projector mode with ``cls=<code>``: an ordinary game page (every move, undo, setting and
  tree step as usual) with the class bar on top (the code, the QR code, the vote).
- ``POST /class/<code>/sync``: the page tells the class where its board is now (app.js,
  after each change of the address bar); ``POST /class/<code>/vote`` (open, close, reveal),
  ``POST /class/<code>/end``; ``GET /class/<code>/events``: the bar, live.

Students (no account; an anonymous cookie id, one ballot per round):

- ``GET /c/<code>`` (or ``/c?code=``): the board, following the teacher's within a second
  (server-sent events, ``GET /c/<code>/events``), the vote when one is open, a nickname;
  "explore on my own" makes it an ordinary game link, and every page then offers to rejoin.
- ``POST /c/<code>/vote``, ``POST /c/<code>/name``.

A bad code is a 404 page, an ended class a 410 page, in the page's language; teacher actions
need the secret (compared in constant time) and come by POST from this site only.
"""
from __future__ import annotations

import collections
import re
import secrets
import time

from flask import (Blueprint, Flask, Response, current_app, redirect, render_template,
                   request, url_for)
from flask_babel import get_locale, lazy_gettext as _l
from jinja2_fragments.flask import render_block

from ai.messages import GameError, N_

from .admission import Busy, client_id
from .class_live import Hub
from .class_store import TTL, ClassState, ClassStore, open_store
from .class_view import ClassView, board_query, game_from_link, wants_projector
from .htmx import is_htmx
from .i18n import tr
from .security import client_address
from .panel import ai_move
from .params import CLASS_CODE, BadRequest, Game

bp = Blueprint("classroom", __name__)

TEACHER_COOKIE = "teach"       # "<code>:<secret>", this browser teaches that class
STUDENT_COOKIE = "student"     # an anonymous random id: one ballot per round
JOINED_COOKIE = "joined"       # the class a student follows, for "rejoin" on other pages
_STUDENT_ID = re.compile(r"[0-9a-f]{16}")
NAME_MAX = 24                  # characters of a nickname
BODY_MAX = 2048                # bytes of a POST: a link, a vote, a nickname
HEARTBEAT = 15.0               # seconds between heartbeats on a quiet stream
RETRY_MS = 2000                # the browser's reconnection delay after a dropped stream


class ClassProblem(GameError):
    """A class page that cannot be shown or an action refused: its status and message, in
    the page's language."""

    def __init__(self, status: int, template: str, **values):
        super().__init__(template, **values)
        self.status = status


# The messages of refused requests (marked for translation here, translated where shown).
NO_CLASS = N_("There is no class with the code %(code)s: check the code on the projector. "
              "A class also ends after a few hours without activity.")
ENDED = N_("The class %(code)s has ended.")
TEACHER_ONLY = N_("Only the teacher's link can do this.")
WRONG_KEY = N_("This teacher link is not right: use the one the class was created with.")
TOO_MANY = N_("Too many requests in a short time: wait a moment.")
NO_COOKIE = N_("Your browser did not keep this page's cookie: open the class's link again "
               "to vote.")
VOTE_CLOSED = N_("This vote is closed.")
UNAVAILABLE = N_("The class's server cannot be reached just now: try again in a moment.")

TITLES = {403: _l("Teacher only"), 404: _l("No such class"), 410: _l("Class ended"),
          400: _l("Bad Request"), 429: _l("Too many requests"), 503: _l("Server busy")}


@bp.errorhandler(ClassProblem)
@bp.errorhandler(BadRequest)
def problem(err):
    """A clear page (or, for htmx, a line in place), never a 500."""
    status = getattr(err, "status", 400)
    if is_htmx():
        return Response(render_template("_class_problem.html", message=tr(err)), status,
                        mimetype="text/html")
    page = render_template("class_problem.html", title=TITLES.get(status, TITLES[400]),
                           message=tr(err), status=status)
    return Response(page, status, mimetype="text/html")


# -- helpers -------------------------------------------------------------------------------------

def store() -> ClassStore:
    return current_app.extensions["class_store"]


def hub() -> Hub:
    return current_app.extensions["class_hub"]


def the_class(code: str, *, ended_ok: bool = False) -> ClassState:
    """The class of ``code`` (any case), or a 404 / 410 page."""
    code = code.upper()
    state = store().get(code) if CLASS_CODE.fullmatch(code) else None
    if state is None:
        raise ClassProblem(404, NO_CLASS, code=code[:12])
    if state.closed and not ended_ok:
        raise ClassProblem(410, ENDED, code=state.code)
    return state


def teacher_secret(code: str) -> str | None:
    cookie = request.cookies.get(TEACHER_COOKIE, "")
    cookie_code, _, secret = cookie.partition(":")
    return secret if cookie_code == code else None


def teacher_class(code: str) -> ClassState:
    """The class, for its teacher only: the secret from this browser's cookie, and the
    request from this site (an Origin header, when sent, must be ours)."""
    state = the_class(code)
    origin = request.headers.get("Origin")
    if origin is not None and origin != request.host_url.rstrip("/"):
        raise ClassProblem(403, TEACHER_ONLY)
    if not state.is_teacher(teacher_secret(state.code)):
        raise ClassProblem(403, TEACHER_ONLY)
    return state


def student_id() -> str | None:
    sid = request.cookies.get(STUDENT_COOKIE, "")
    return sid if _STUDENT_ID.fullmatch(sid) else None


class Limiter:
    """At most ``n`` actions per ``per`` seconds for each key (a student, a browser), in this
    worker: votes, nicknames and new classes cannot be sent in floods."""

    def __init__(self, n: int, per: float):
        self.n, self.per = n, per
        self._seen: dict[str, collections.deque] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self._seen) > 10_000:                       # forget idle keys
            self._seen = {k: d for k, d in self._seen.items() if d and d[-1] > now - self.per}
        times = self._seen.setdefault(key, collections.deque())
        while times and times[0] < now - self.per:
            times.popleft()
        if len(times) >= self.n:
            return False
        times.append(now)
        return True


def limiters() -> dict[str, Limiter]:
    return {"vote": Limiter(10, 10.0), "name": Limiter(5, 60.0), "create": Limiter(60, 3600.0)}


def limit(kind: str, key: str) -> None:
    if not current_app.extensions["class_limits"][kind].allow(key):
        raise ClassProblem(429, TOO_MANY)


def acting_student(kind: str) -> str:
    """The student sending a ballot or a name (their cookie: a 400 without one), within the
    rate of ``kind``."""
    sid = student_id()
    if sid is None:
        raise ClassProblem(400, NO_COOKIE)
    limit(kind, sid)
    return sid


def teacher_page_url(state: ClassState) -> str:
    g = ClassView(state, store(), teacher=True, projector=True).g
    return g.url()


# -- the teacher ---------------------------------------------------------------------------------

@bp.post("/class")
def create():
    """A class showing the game page it was started from; on to its teacher link."""
    limit("create", client_id())
    spec, g, args = game_from_link(request.form.get("link", ""))
    state, secret = store().create(spec.name, board_query(g, args))
    return redirect(url_for(".teach", code=state.code, key=secret, proj=None), 303)


@bp.get("/class/<code>/teach")
def teach(code):
    """The teacher's link: this browser becomes the class's teacher, and opens its board."""
    state = the_class(code)
    key = request.args.get("key", "")
    if not state.is_teacher(key):
        raise ClassProblem(403, WRONG_KEY)
    response = redirect(teacher_page_url(state), 303)
    response.set_cookie(TEACHER_COOKIE, f"{state.code}:{key}", max_age=int(TTL) * 2,
                        httponly=True, samesite="Strict")
    return response


@bp.post("/class/<code>/sync")
def sync(code):
    """The teacher's board changed (a move, undo, settings, a tree step): the class follows."""
    state = teacher_class(code)
    spec, g, args = game_from_link(request.form.get("link", ""))
    store().set_board(state.code, spec.name, board_query(g, args))
    return Response(status=204)


@bp.post("/class/<code>/vote")
def vote_control(code):
    """Open a vote on the board shown, close it, or reveal the AI's choice on its position."""
    state = teacher_class(code)
    action = request.form.get("action")
    error = None
    if action == "open":
        view = ClassView(state, store(), teacher=True, projector=wants_projector())
        if view.can_open_vote:
            state = store().open_vote(state.code)
    elif action == "close":
        state = store().close_vote(state.code)
    elif action == "reveal" and state.round:
        view = ClassView(state, store(), teacher=True)
        try:
            reply, _ = ai_move(view.vote_g)
            state = store().set_reveal(state.code, reply.label)
        except Busy as err:
            error = tr(err)
    else:
        raise BadRequest("unknown action: %(action)s", action=(action or "")[:20])
    return bar_answer(state, error)


@bp.post("/class/<code>/end")
def end(code):
    """The teacher ends the class: students see that it has ended."""
    state = store().end(teacher_class(code).code)
    return bar_answer(state)


def bar_answer(state: ClassState, error: str | None = None) -> Response:
    """The bar for htmx; without JavaScript, back to the board."""
    if not is_htmx():
        return redirect(teacher_page_url(state), 303)
    if state.closed:       # the whole bar goes, its stream with it (no reconnection)
        response = Response(render_template("_class_ended.html", code=state.code),
                            mimetype="text/html")
        response.headers.update({"HX-Retarget": ".class-bar", "HX-Reswap": "outerHTML"})
        return response
    view = ClassView(state, store(), teacher=True, projector=wants_projector())
    return Response(render_block("class_bar.html", "bar", view=view, error=error),
                    mimetype="text/html")


@bp.get("/class/<code>/events")
def teacher_events(code):
    """The teacher's bar, live: followers, votes as they come, the round's state."""
    state = teacher_class(code)

    def render(state):
        if state.closed:
            return sse("closed", render_template("_class_ended.html", code=state.code))
        view = ClassView(state, store(), teacher=True, projector=wants_projector())
        return sse("bar", render_block("class_bar.html", "bar", view=view, error=None))

    return stream(state, lambda state, kinds: render(state), follower=None)


# -- students ------------------------------------------------------------------------------------

@bp.get("/c")
def join():
    """A code typed in (the home page's form): on to that class."""
    code = (request.args.get("code") or "").strip().upper()
    return redirect(url_for(".student", code=the_class(code).code), 303)


@bp.get("/c/<code>")
def student(code):
    """A student's page: the board, following the teacher's; the vote when one is open."""
    state = the_class(code)
    if code != state.code:
        return redirect(url_for(".student", code=state.code), 301)
    sid = student_id()
    view = ClassView(state, store())
    response = Response(render_template("class_student.html", view=view,
                                        ballot=my_ballot(state, sid), name=my_name(state, sid)),
                        mimetype="text/html")
    if sid is None:
        response.set_cookie(STUDENT_COOKIE, secrets.token_hex(8), max_age=86400,
                            httponly=True, samesite="Lax")
    response.set_cookie(JOINED_COOKIE, state.code, max_age=int(TTL), httponly=True,
                        samesite="Lax")
    return response


@bp.get("/c/<code>/events")
def student_events(code):
    """The student's board and vote, live (sent again in full on each change)."""
    state = the_class(code)
    sid = student_id()

    def render(state, kinds):
        if state.closed:
            return sse("closed", render_template("_class_ended.html", code=state.code,
                                                 explore=ClassView(state, store()).explore_url))
        view = ClassView(state, store())
        out = ""
        if "board" in kinds:
            out += hub().cached((state.code, state.version, str(get_locale())),
                                lambda: sse("board", render_block(
                                    "class_student.html", "board", view=view)))
        if "vote" in kinds:
            out += sse("vote", render_block("class_student.html", "vote", view=view,
                                            ballot=my_ballot(state, sid)))
        return out

    return stream(state, render, follower=sid or secrets.token_hex(8),
                  kinds={"board", "vote", "closed"})


@bp.post("/c/<code>/vote")
def vote(code):
    """A student's ballot: once per round (a second one is refused, the first kept)."""
    state = the_class(code)
    sid = acting_student("vote")
    view = ClassView(state, store())
    choice = request.form.get("choice", "")[:3]
    round_ = request.form.get("round", "")
    if view.vote_g is None or choice not in view.moves_of(view.vote_g):
        raise BadRequest("not a move you can vote for: %(choice)s", choice=choice)
    if round_ != str(state.round) or not state.vote_open:
        raise ClassProblem(400, VOTE_CLOSED)
    store().vote(state.code, state.round, sid, choice)
    if not is_htmx():
        return redirect(url_for(".student", code=state.code), 303)
    return Response(render_block("class_student.html", "vote", view=view,
                                 ballot=my_ballot(state, sid)), mimetype="text/html")


@bp.post("/c/<code>/name")
def name(code):
    """A student's nickname (optional; at most ``NAME_MAX`` characters, printable)."""
    state = the_class(code)
    sid = acting_student("name")
    text = " ".join(request.form.get("name", "").split())
    if len(text) > NAME_MAX or not text.isprintable():
        raise BadRequest("a nickname of at most %(most)s characters, please", most=NAME_MAX)
    store().set_name(state.code, sid, text)
    if not is_htmx():
        return redirect(url_for(".student", code=state.code), 303)
    return Response(render_block("class_student.html", "name", view=ClassView(state, store()),
                                 name=text), mimetype="text/html")


def my_ballot(state: ClassState, sid: str | None) -> str | None:
    return store().ballot(state.code, state.round, sid) if sid and state.round else None


def my_name(state: ClassState, sid: str | None) -> str:
    return store().names(state.code).get(sid, "") if sid else ""


# -- server-sent events ----------------------------------------------------------------------------

def sse(event: str, html: str) -> str:
    """One server-sent event carrying an HTML fragment (htmx's SSE extension swaps it)."""
    data = "\n".join("data: " + line for line in html.splitlines()) or "data: "
    return f"event: {event}\n{data}\n\n"


def stream(state: ClassState, render, *, follower: str | None, kinds=None) -> Response:
    """A live stream of ``state``'s class: what ``render(state, kinds)`` gives now, then again
    on each change of one of ``kinds`` (all by default), a heartbeat comment when quiet (a
    proxy keeps the connection, a gone client is noticed), until the class ends. It waits on
    an event in a greenlet: no search slot, no worker held. ``follower`` counts in the
    teacher's "following" figure while the stream is open. Each rendering runs in a request
    context of its own, made from this request (its language, its links), entered and left
    within one event: the stream holds no context while it waits."""
    the_hub, the_store = hub(), store()
    if request.method == "HEAD":           # no stream to send: no slot to take
        return _event_stream_response(iter(()))
    sub = the_hub.subscribe(state.code, kinds, address=client_address(),
                            client=follower or client_id())
    if sub is None:
        response = Response("busy: too many live pages on this server", 503,
                            mimetype="text/plain")
        response.headers["Retry-After"] = "5"
        return response
    app = current_app._get_current_object()
    environ = dict(request.environ)
    beat = float(app.config.get("CLASS_HEARTBEAT", HEARTBEAT))
    code = state.code

    def rendered(current, came):
        with app.request_context(environ):
            return render(current, came)

    def events():
        try:
            if follower:
                the_store.follower_seen(code, follower)
            yield f"retry: {RETRY_MS}\n\n"
            # subscribed before reading: a change made meanwhile is sent, not lost
            current = the_store.get(code)
            if current is not None:
                yield rendered(current, {"board", "vote"})
            last_beat = time.monotonic()
            while current is not None and not current.closed and not sub.ended:
                came = sub.wait(beat)
                if sub.ended:                  # the worker stops: the page reconnects
                    break
                if time.monotonic() - last_beat >= beat:
                    last_beat = time.monotonic()
                    if follower:
                        the_store.follower_seen(code, follower)
                    yield ": heartbeat\n\n"
                if came:
                    current = the_store.get(code)
                    if current is not None:
                        yield rendered(current, came)
        finally:
            the_hub.unsubscribe(sub)
            if follower:
                the_store.follower_gone(code, follower)

    response = _event_stream_response(events())
    # the slot is given back when the server closes the response, even if the stream never
    # started (a HEAD, a client gone at once: the generator's own clean-up then never runs)
    response.call_on_close(lambda: the_hub.unsubscribe(sub))
    return response


def _event_stream_response(body) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"      # nginx: pass each event on at once
    return response


# -- every page ----------------------------------------------------------------------------------

def unavailable(err):
    """The store cannot be reached (Redis restarting, a locked database): a 503 to try again
    (the teacher's page sends its board again by itself, a student's page reconnects)."""
    response = problem(ClassProblem(503, UNAVAILABLE))
    response.headers["Retry-After"] = "2"
    return response


def class_bar(g: Game) -> ClassView | None:
    """The class bar of a game page opened with ``cls=``: the class as its teacher or anyone
    else sees it (None when the class is gone, or its store cannot be reached just now: the
    page is then an ordinary game)."""
    try:
        state = store().get(g.settings.class_code)
    except store().unavailable:
        return None
    if state is None or state.closed:
        return None
    key = teacher_secret(state.code)
    teacher = state.is_teacher(key)
    return ClassView(state, store(), teacher=teacher, projector=g.settings.projector,
                     key=key if teacher else None)


def joined_class() -> str | None:
    """The class this browser follows, for a "rejoin" link on other pages."""
    code = request.cookies.get(JOINED_COOKIE, "")
    return code if CLASS_CODE.fullmatch(code) else None


def limit_body():
    if request.blueprint == "classroom":
        request.max_content_length = BODY_MAX


def init_app(app: Flask) -> None:
    s = open_store(app.config)
    app.extensions["class_store"] = s
    app.extensions["class_hub"] = Hub(s)
    app.extensions["class_limits"] = limiters()
    app.before_request(limit_body)
    app.jinja_env.globals.update(class_bar=class_bar, joined_class=joined_class)
    for error in s.unavailable:
        app.register_error_handler(error, unavailable)
    app.register_blueprint(bp)
