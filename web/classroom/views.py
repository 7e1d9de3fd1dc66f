"""Blueprint ``classroom``: class mode. The teacher's projector shows a board the class
follows live on phones and laptops; students vote on the next move.

Teacher (the holder of the class's secret):

- ``POST /class`` (the "Class mode" button of any game page, ``link=`` that page): a new
  class; the secret goes into a cookie for this browser (HttpOnly, SameSite=Strict, Secure
  over HTTPS) with the answer, never into a URL (no access log holds it), and the browser goes
  on to the board in projector mode with ``cls=<code>``: an ordinary game page (every move,
  undo, setting and tree step as usual) with the class bar on top (the code, the QR code, the
  vote).
- ``/class/<code>/teach#key=<secret>``: the teacher link, to take the class on to another
  device. The secret is in the fragment, which browsers never send; the page asks to confirm
  (``POST /class/<code>/teach``, from this site only): no link alone makes a browser a
  teacher or replaces its teacher cookie.
- ``POST /class/<code>/sync``: the page tells the class where its board is now (app.js,
  after each change of the address bar); ``POST /class/<code>/vote`` (open, close, reveal),
  ``POST /class/<code>/end``; ``GET /class/<code>/events``: the bar, live.

Students (no account; an anonymous id the server gives and signs, one ballot per round: an id
made up by a script counts nothing):

- ``GET /c/<code>`` (or ``/c?code=``): the board, following the teacher's within a second
  (server-sent events, ``GET /c/<code>/events``), the vote when one is open, a nickname;
  "explore on my own" makes it an ordinary game link, and every page then offers to rejoin.
- ``POST /c/<code>/vote``, ``POST /c/<code>/name``.

A bad code is a 404 page, an ended class a 410 page, in the page's language; teacher actions
need the secret (compared in constant time) and come by POST from this site only. Wrong codes,
new classes and new students are counted per address in the store (so across workers and
instances), with bounds a class of 100 behind one router never meets; a store that fails is a
503 saying so (``StoreError``), never a 500 or a ballot dropped without a word.
"""
from __future__ import annotations

import collections
import os
import re
import secrets
import time
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit

from flask import (Blueprint, Flask, Response, current_app,
                   redirect, render_template, request, url_for)
from flask_babel import get_locale, lazy_gettext as _l
from itsdangerous import BadSignature, Signer
from jinja2_fragments.flask import render_block

from ai.messages import GameError, N_

from .. import admission
from ..admission import Busy, client_id, refuse
from .live import Hub, Shared
from .store import (ADDRESS_FULL, MAX_BALLOTS, MAX_NAMES, TTL, ClassState, ClassStore, StoreError,
                          Vote, open_store, tally_event)
from .page import ClassPage, class_page
from .reading import ClassData, read_class
from .view import VOTE_SECONDS, ClassView, board_query, game_from_link, wants_projector
from ..htmx import is_htmx
from ..i18n import tr
from ..security import client_address
from ..ai_move import ai_move
from ..page_bar import CLASS_BAR
from ..params import CLASS_CODE, BadRequest, read_int

bp = Blueprint("classroom", __name__)

TEACHER_COOKIE = "teach"       # "<code>:<secret>", this browser teaches that class
STUDENT_COOKIE = "student"     # an anonymous random id, signed by the server: one ballot a round
JOINED_COOKIE = "joined"       # the class a student follows, for "rejoin" on other pages
_STUDENT_ID = re.compile(r"[0-9a-f]{16}")
# Per address (a whole classroom may share one behind its router), counted in the store:
WRONG_CODES = (30, 10.0)       # codes that lead to no class, per 10 s: guessing one of 10^9
# (a server that serves a whole school through one address raises the next two: docs/serving.md)
NEW_CLASSES = (int(os.environ.get("CLASS_NEW_CLASSES_PER_HOUR", 120)), 3600.0)   # classes
#                                started, per hour (a school's teachers, one router)
NEW_STUDENTS = (int(os.environ.get("CLASS_NEW_STUDENTS_PER_HOUR", 300)), 3600.0)  # student ids
#                                given, per hour (a class of 100 takes 100)
# A ballot of a student who joined less than FOLLOW_SECONDS ago (by the store's clock) is
# "fresh"; past the first store.FRESH_BALLOTS of an address in a round, it is set aside, and
# set-aside ballots do not count once someone who followed the class a while voted
# (store.room_tally)
FOLLOW_SECONDS = float(os.environ.get("CLASS_FOLLOW_SECONDS", 20))
NAME_MAX = 24                  # characters of a nickname
BODY_MAX = 2048                # bytes of a POST: a link, a vote, a nickname
# seconds between heartbeats on a stream ("beat" events: a page that hears none for two of
# them takes its stream for stalled and opens another, static/app.js)
HEARTBEAT = float(os.environ.get("CLASS_HEARTBEAT", 3.0))
FOLLOWER_REFRESH = 15.0        # seconds between a stream's "still here" to the store
RETRY_MS = 1000                # the browser's reconnection delay after a dropped stream
STREAM_WAIT = 30.0             # seconds a phone's stream waits to draw a class exercise


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
TOO_MANY_WAIT = N_("Too many requests from your network in a short time: try again in "
                   "%(s)s s.")
WRONG_CODES_MSG = N_("Too many wrong class codes from your network: check the code on the "
                     "projector, then try again in %(s)s s.")
SERVER_FULL = N_("This server already holds %(num)s classes, as many as it can: end a class "
                 "you no longer use, or try again later.")
ADDRESS_CLASSES = N_("Your network already holds %(num)s live classes on this server, as many "
                     "as one network may: end one you no longer use (Class settings, End the "
                     "class), or go on with the one you made. A class no one followed ends "
                     "by itself within %(minutes)s minutes.")
NO_COOKIE = N_("Your browser did not keep this page's cookie: open the class's link again "
               "to vote.")
VOTE_CLOSED = N_("This vote is closed.")
VOTE_FULL = N_("This vote already has %(num)s votes, as many as it can count: yours was not "
               "counted.")
NAMES_FULL = N_("This class already has %(num)s nicknames, as many as it keeps: yours was not "
                "saved.")
UNAVAILABLE = N_("The class's server cannot be reached just now: try again in a moment.")
STORE_FULL = N_("The class's server cannot save anything just now (its storage is full or "
                "read-only): nothing was saved. Tell the person who runs the server.")
STORE_LOST = N_("The class's data has gone from the server (its database was removed): its "
                "classes and votes cannot be shown. Tell the person who runs the server.")
STORE_MESSAGES = {"busy": (UNAVAILABLE, 2), "full": (STORE_FULL, 30), "lost": (STORE_LOST, 60)}

TITLES = {403: _l("Teacher only"), 404: _l("No such class"), 410: _l("Class ended"),
          409: _l("Not counted"), 400: _l("Bad Request"), 429: _l("Too many requests"),
          503: _l("Server busy")}


class Refused(ClassProblem):
    """A refusal to try again after ``retry_after`` seconds (429, 503): said in the page and
    in a Retry-After header."""

    def __init__(self, status: int, retry_after: int, template: str, **values):
        super().__init__(status, template, **values)
        self.retry_after = retry_after


@bp.errorhandler(ClassProblem)
@bp.errorhandler(BadRequest)
def problem(err):
    """A clear page (or, for htmx, a line in place), never a 500."""
    status = getattr(err, "status", 400)
    if is_htmx():
        response = Response(render_template("_class_problem.html", message=tr(err)), status,
                            mimetype="text/html")
    else:
        page = render_template("class_problem.html", title=TITLES.get(status, TITLES[400]),
                               message=tr(err), status=status)
        response = Response(page, status, mimetype="text/html")
    if getattr(err, "retry_after", None):
        response.headers["Retry-After"] = str(err.retry_after)
    return response


# -- helpers -------------------------------------------------------------------------------------

def store() -> ClassStore:
    return current_app.extensions["class_store"]


def hub() -> Hub:
    return current_app.extensions["class_hub"]


def address() -> str:
    """The client's address for the bounds per address: behind a proxy of
    ``PROXY_ADDRESSES``, the one the proxy saw (``web.security.client_address``)."""
    return client_address() or "?"


def limited(kind: str, bound: tuple[int, float], message: str = TOO_MANY_WAIT) -> None:
    """One more ``kind`` action from this address, counted in the store for every worker:
    a 429 with Retry-After beyond ``bound`` (at most n per window)."""
    wait = store().hit(f"{kind}:{address()}", *bound)
    if wait:
        raise Refused(429, wait, message, s=wait)


def the_class(code: str, *, ended_ok: bool = False) -> ClassState:
    """The class of ``code`` (any case), or a 404 / 410 page. Codes that lead nowhere are
    counted per address: a script guessing codes is held back (429) long before it finds
    one; until its window ends, its address looks up no code at all."""
    code = code.upper()
    blocked = current_app.extensions["class_guessers"]
    until = blocked.get(address(), 0.0)
    # held back: only a browser that already belongs to this class (its signed "joined"
    # cookie, or the teacher's secret) may go on, so that one guesser on a school's network
    # does not stop the class behind the same router
    member = until > time.monotonic() and CLASS_CODE.fullmatch(code) and (
        joined_here(code) or TEACHER_COOKIE in request.cookies)
    if until > time.monotonic() and not member:
        raise Refused(429, int(until - time.monotonic()) + 1, WRONG_CODES_MSG,
                      s=int(until - time.monotonic()) + 1)
    state = store().get(code) if CLASS_CODE.fullmatch(code) else None
    if member and (state is None or not (joined_here(code)
                                         or state.is_teacher(teacher_secret(code)))):
        raise Refused(429, int(until - time.monotonic()) + 1, WRONG_CODES_MSG,
                      s=int(until - time.monotonic()) + 1)
    if state is None:
        wait = store().hit(f"code:{address()}", *WRONG_CODES)
        if wait:
            if len(blocked) > 10_000:
                blocked.clear()
            blocked[address()] = time.monotonic() + wait
            raise Refused(429, wait, WRONG_CODES_MSG, s=wait)
        raise ClassProblem(404, NO_CLASS, code=code[:12])
    if state.closed and not ended_ok:
        raise ClassProblem(410, ENDED, code=state.code)
    return state


def joined_here(code: str) -> bool:
    """Whether this browser joined class ``code`` (its "joined" cookie, signed)."""
    cookie = request.cookies.get(JOINED_COOKIE, "")
    try:
        return len(cookie) < 80 and signer().unsign(cookie).decode() == code
    except (BadSignature, UnicodeDecodeError):
        return False


def same_site() -> bool:
    """Whether a POST comes from this site's own pages (an Origin header, when sent, is
    ours; so is Sec-Fetch-Site)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != request.host_url.rstrip("/"):
        return False
    return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")


def teacher_secret(code: str) -> str | None:
    cookie = request.cookies.get(TEACHER_COOKIE, "")
    cookie_code, _, secret = cookie.partition(":")
    return secret if cookie_code == code else None


def teacher_class(code: str, *, ended_ok: bool = False) -> ClassState:
    """The class, for its teacher only: the secret from this browser's cookie, and the
    request from this site (an Origin header, when sent, must be ours)."""
    state = the_class(code, ended_ok=ended_ok)
    if not same_site() or not state.is_teacher(teacher_secret(state.code)):
        raise ClassProblem(403, TEACHER_ONLY)
    return state


def signer() -> Signer:
    """Signs the students' ids with the app's SECRET_KEY when it has one, else with the key
    the store keeps for every worker and instance."""
    key = current_app.config.get("SECRET_KEY") or store().signing_key()
    return Signer(key, salt="minimax-lab student")


def student_cookie() -> tuple[str, float] | None:
    """(id, when the server gave it, by the store's clock) from the student's cookie, when it
    holds one this server signed; an id given before ids said when: 0."""
    cookie = request.cookies.get(STUDENT_COOKIE, "")
    if not cookie or len(cookie) > 100:
        return None
    try:
        sid, _, since = signer().unsign(cookie).decode().partition(".")
    except (BadSignature, UnicodeDecodeError):
        return None
    if not _STUDENT_ID.fullmatch(sid) or not (since.isdigit() or since == ""):
        return None
    return sid, float(since or 0)


def student_id() -> str | None:
    """The student's id, when their cookie holds one this server gave (signed)."""
    found = student_cookie()
    return found[0] if found else None


def fresh_from() -> str | None:
    """This student's address when they joined less than ``FOLLOW_SECONDS`` ago (by the
    store's clock: their ballot is "fresh", see ``store.room_tally``), else None."""
    found = student_cookie()
    if found is None or store().clock() - found[1] >= FOLLOW_SECONDS:
        return None
    return address()


def new_student(response: Response) -> None:
    """Give this browser a student id (a few hundred an hour per address at most), signed
    with the time it was given."""
    limited("students", NEW_STUDENTS)
    value = f"{secrets.token_hex(8)}.{int(store().clock())}"
    set_cookie(response, STUDENT_COOKIE, signer().sign(value).decode(),
               max_age=86400, samesite="Lax")


def set_cookie(response: Response, name: str, value: str, **options) -> None:
    """HttpOnly always; Secure when the page came over HTTPS (directly, or through a proxy
    gunicorn trusts: ``forwarded_allow_ips``, which then sets the scheme)."""
    response.set_cookie(name, value, httponly=True, secure=request.is_secure, **options)


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
    return {"vote": Limiter(10, 10.0), "name": Limiter(5, 60.0)}


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
    """The teacher's page: the class's board, at the tree's step it is at (a class started
    from a tree shown step by step stays there, nothing of the search shown before its
    time)."""
    view = ClassView(state, teacher=True, projector=True)
    return view.g.url() if view.step is None else view.g.url(step=view.step)


def back_to_teacher(state: ClassState) -> str:
    """Where a bar's form sent without JavaScript (or before the page's script wired it) leads
    back: the teacher's own page, its tree's step and settings kept (the form's Referer), when
    that is this class's game page on this host; else the class's board as stored, without
    the step. Any other Referer (another site, class or page) is ignored: never a redirect
    off this class's page."""
    board = teacher_page_url(state)
    try:
        ref = urlsplit(request.referrer or "")
    except ValueError:                     # "http://[": not even a URL
        return board
    if (ref.scheme not in ("http", "https") or ref.netloc != request.host
            or ref.path != urlsplit(board).path
            or parse_qs(ref.query).get("cls") != [state.code]):
        return board
    return f"{ref.path}?{urlencode(parse_qsl(ref.query, keep_blank_values=True))}"


# -- the teacher ---------------------------------------------------------------------------------

@bp.post("/class")
def create():
    """A class showing the game page it was started from: this browser is its teacher (the
    secret in a cookie, in no URL), on to its board."""
    spec, g, args = game_from_link(request.form.get("link", ""))
    if not same_site():
        raise ClassProblem(403, TEACHER_ONLY)
    limited("classes", NEW_CLASSES)
    made = store().create(spec.name, board_query(g, args), address())
    if made is None:
        raise Refused(503, 60, SERVER_FULL, num=store().max_classes)
    if made == ADDRESS_FULL:
        wait = min(store().unused_ttl, TTL)
        raise Refused(429, wait, ADDRESS_CLASSES, num=store().live_per_address,
                      minutes=wait // 60)
    state, secret = made
    return as_teacher(state, secret)


def as_teacher(state: ClassState, secret: str) -> Response:
    response = redirect(teacher_page_url(state), 303)
    set_cookie(response, TEACHER_COOKIE, f"{state.code}:{secret}", max_age=int(TTL) * 2,
               samesite="Strict")
    return response


@bp.route("/class/<code>/teach", methods=["GET", "POST"])
def teach(code):
    """The teacher link (``#key=<secret>``, which the browser keeps to itself): a page that
    asks this browser to become the class's teacher; only the confirmation (a POST from this
    site, with the key) makes it so."""
    state = the_class(code)
    current = (request.cookies.get(TEACHER_COOKIE, "").partition(":")[0]
               if request.cookies.get(TEACHER_COOKIE) else None)
    error = None
    if request.method == "POST":
        key = request.form.get("key", "").strip()
        if not same_site():
            raise ClassProblem(403, TEACHER_ONLY)
        if state.is_teacher(key):
            return as_teacher(state, key)
        error = tr(ClassProblem(403, WRONG_KEY))
    elif state.is_teacher(teacher_secret(state.code)):
        return redirect(teacher_page_url(state), 303)    # this browser teaches it already
    page = render_template("class_teach.html", code=state.code, error=error,
                           other=current if current and current != state.code else None)
    return Response(page, 403 if error else 200, mimetype="text/html")


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
    if action == "open":
        view = ClassView(state, teacher=True, projector=wants_projector())
        seconds = read_int(request.form, "seconds", 0, 0, max(VOTE_SECONDS))
        if view.can_open_vote:
            state = store().open_vote(state.code, seconds)
    elif action == "close":
        state = store().close_vote(state.code)
    elif action == "reveal" and state.round:
        view = ClassView(state, teacher=True)
        try:
            reply, _ = ai_move(view.vote_g)
        except Busy as err:
            return busy_bar(state, err)
        state = store().set_reveal(state.code, reply.label)
    else:
        raise BadRequest("unknown action: %(action)s", action=(action or "")[:20])
    return bar_answer(state)


@bp.post("/class/<code>/end")
def end(code):
    """The teacher ends the class: students see that it has ended."""
    state = store().end(teacher_class(code).code)
    return bar_answer(state)


def bar_answer(state: ClassState, error: str | None = None) -> Response:
    """The bar for htmx; without JavaScript, back to the teacher's page."""
    if not is_htmx():
        return redirect(back_to_teacher(state), 303)
    if state.closed:       # the whole bar goes, its stream with it (no reconnection)
        response = Response(render_template("_class_ended.html", code=state.code),
                            mimetype="text/html")
        response.headers.update({"HX-Retarget": ".class-bar", "HX-Reswap": "outerHTML"})
        return response
    page = teacher_page(state)
    try:
        html = drawing(page, lambda: render_block("class_bar.html", "bar", page=page,
                                                  view=page.view, error=error))
    except Busy as err:
        raise refuse(err) from None
    return Response(html, mimetype="text/html")


def busy_bar(state: ClassState, err: Busy) -> Response:
    """A teacher's action whose search found no slot in its lane (``web.admission.Busy``): for
    htmx, the bar again with why at its top, in words, as the 503 (or 429) it is with its
    Retry-After, its buttons there to try again (never a 4xx that blames the action); without
    JavaScript, the class's page of it (``problem``)."""
    if not is_htmx():
        raise err
    response = bar_answer(state, tr(err))
    response.status_code = err.status
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def teacher_page(state: ClassState) -> ClassPage:
    """The teacher's bar of ``state``'s class, read now (one round trip)."""
    return class_page(store(), state.code, teacher=True, projector=wants_projector(),
                      key=teacher_secret(state.code)) or \
        ClassPage(ClassView(state, ClassData(state), teacher=True, projector=wants_projector()))


@bp.get("/class/<code>/events")
def teacher_events(code):
    """The teacher's bar, live: the vote as ballots come and the round's state ("bar"), the
    followers' count and nicknames ("followers", "names"), each to its own place in the bar."""
    state = teacher_class(code, ended_ok=True)

    def render(state, kinds, in_context):
        return in_context(lambda: draw(state, kinds))

    def draw(state, kinds):
        if state.closed:
            return sse("closed", render_template("_class_ended.html", code=state.code))
        page = teacher_page(state)
        view = page.view
        # A student joining or naming themselves changes only the count and the names (their own
        # places below): the rest of the bar is not redrawn then, or a form the teacher has open
        # there (a class exercise, a question) would close under their hands. During a vote the
        # bar's "N of M answered" counts the followers too.
        out = ""
        if kinds - {"followers"} or state.vote_open:
            # an exercise's dashboard, redrawn at each answer, off the loop (``drawing``)
            out = sse("bar", drawing(page, lambda: render_block(
                "class_bar.html", "bar", page=page, view=view, error=None), wait=STREAM_WAIT))
        if "followers" in kinds:
            out += sse("followers", render_block("class_bar.html", "followers", view=view))
            out += sse("names", render_block("class_bar.html", "names", view=view))
        return out

    return stream(state, render, follower=None)


# -- students ------------------------------------------------------------------------------------

@bp.get("/c")
def join():
    """A code typed in (the home page's form): on to that class."""
    code = (request.args.get("code") or "").strip().upper()
    return redirect(url_for(".student", code=the_class(code).code), 303)


@bp.get("/c/<code>")
def student(code):
    """A student's page: the board, following the teacher's; the vote when one is open. An
    ended class (a page reloaded after the end) is a 410 page that still offers to go on from
    the class's last position."""
    state = the_class(code, ended_ok=True)
    if state.closed:
        return ended_page(state)
    if code != state.code:
        return redirect(url_for(".student", code=state.code), 301)
    sid = student_id()
    page = phone_page(state, sid)
    try:
        # the replay step's panel made here, in its lanes (ClassView.tree_step), not from
        # inside the drawing's (an exercise's page is drawn in the trees' lane)
        page.view.tree_step
        html = drawing(page, lambda: render_template("class_student.html", page=page,
                                                     view=page.view, ballot=page.ballot,
                                                     name=page.name))
    except Busy as err:
        raise refuse(err) from None
    response = Response(html, mimetype="text/html")
    if sid is None:
        new_student(response)
    set_cookie(response, JOINED_COOKIE, signer().sign(state.code).decode(), max_age=int(TTL),
               samesite="Lax")
    return response


def ended_page(state: ClassState) -> Response:
    page = render_template("class_problem.html", title=TITLES[410],
                           message=tr(ClassProblem(410, ENDED, code=state.code)), status=410,
                           explore=ClassView(state).explore_url)
    return Response(page, 410, mimetype="text/html")


@bp.get("/c/<code>/events")
def student_events(code):
    """The student's board and vote, live (sent again in full on each change); an ended class
    says so (no 410 to an event source, which would try again and again)."""
    state = the_class(code, ended_ok=True)
    sid = student_id()
    # what the phone's events are drawn with, taken once: the drawings its streams share are
    # then handed over without a request context (each costs one only when it draws)
    the_hub, the_store, locale = hub(), store(), str(get_locale())
    # their own ballot or answer too: a drawing read before it may have been sent after it
    mine = tally_event(sid) if sid else "vote"

    def render(state, kinds, in_context):
        if state.closed:
            return in_context(lambda: sse("closed", render_template(
                "_class_ended.html", code=state.code, explore=ClassView(state).explore_url)))
        out = ""
        if "board" in kinds:            # the board alone: the same for every phone
            out += the_hub.cached((state.code, state.version, locale), lambda: in_context(
                lambda: sse("board", render_block("class_student.html", "board",
                                                  view=ClassView(state)))))
        # a closed round's words depend on the board too ("would play" / "would have played")
        if {"vote", mine} & kinds or ("board" in kinds and state.round and not state.vote_open):
            out += phone_vote(the_hub, the_store, state, sid, locale, in_context)
        return out

    return stream(state, render, follower=sid or secrets.token_hex(8),
                  kinds={"board", "vote", "closed", mine})


def phone_vote(the_hub: Hub, the_store: ClassStore, state: ClassState, sid: str | None,
               locale: str, in_context) -> str:
    """Student ``sid``'s vote area as a live event, drawn from one read of the class that
    every phone's stream in this worker shares (every ballot and answer in it: each phone
    takes its own), and drawn once for all the phones that show the same (the same ballot,
    the same answer, the same language): a change costs a read and a few drawings, however
    many phones follow. A vote ended by its timer, which no event tells, is read apart: the
    read is shared as made with the vote open or closed, as ``state`` has it, and only when
    it found the same (a state read just before a timed vote opened, then this read just
    after: shared as a read of the vote closed, it was drawn again, open, once the vote's time
    had passed)."""
    shared = the_hub.latest(state.code, lambda code: Shared(read_class(
        the_store, code, every_answer=True, every_ballot=True)),
        what=("phones", state.vote_open),
        keep=lambda read: read.value is None or read.value.state.vote_open == state.vote_open)
    data = shared.value.for_student(sid) if shared.value is not None else None

    def draw():
        # (gone meanwhile: drawn from the state alone; the next event says it ended)
        page = ClassPage(ClassView(data.state, data), sid) if data else unread_page(state, sid)
        return sse("vote", drawing(page, lambda: render_block(
            "class_student.html", "vote", page=page, view=page.view, ballot=page.ballot),
            wait=STREAM_WAIT))
    key = (data.ballot, data.mine) if data else "unread"
    return shared.drawn((key, locale), lambda: in_context(draw))


@bp.post("/c/<code>/vote")
def vote(code):
    """A student's ballot: once per round (a second one is refused, the first kept). Three
    round trips to the store: the class (its round and position, to check the choice), the
    ballot (checked and counted in one step), then what the phone shows now (``phone_page``)."""
    state = the_class(code)
    sid = acting_student("vote")
    view = ClassView(state)
    choice = request.form.get("choice", "")[:3]
    round_ = request.form.get("round", "")
    if view.vote_g is None or choice not in view.moves_of(view.vote_g):
        raise BadRequest("not a move you can vote for: %(choice)s", choice=choice)
    if round_ != str(state.round) or not state.vote_open:
        raise ClassProblem(400, VOTE_CLOSED)
    try:
        result = store().vote(state.code, state.round, sid, choice, fresh_from(), address())
    except StoreError as err:
        if not is_htmx():
            raise
        # the vote again, with the reason above it: the same button tries again
        message, retry = STORE_MESSAGES.get(err.kind, STORE_MESSAGES["busy"])
        return phone_block(unread_page(state, sid), status=503,
                           error=tr(Refused(503, retry, message)), retry_after=retry)
    if result is Vote.CLOSED:
        raise ClassProblem(400, VOTE_CLOSED)
    if result is Vote.FULL:
        raise ClassProblem(409, VOTE_FULL, num=MAX_BALLOTS)
    if not is_htmx():
        return redirect(url_for(".student", code=state.code), 303)
    return phone_block(phone_page(state, sid))


@bp.post("/c/<code>/name")
def name(code):
    """A student's nickname (optional; at most ``NAME_MAX`` characters, printable)."""
    state = the_class(code)
    sid = acting_student("name")
    text = " ".join(request.form.get("name", "").split())
    if len(text) > NAME_MAX or not text.isprintable():
        raise BadRequest("a nickname of at most %(most)s characters, please", most=NAME_MAX)
    if not store().set_name(state.code, sid, text):
        raise ClassProblem(409, NAMES_FULL, num=MAX_NAMES)
    if not is_htmx():
        return redirect(url_for(".student", code=state.code), 303)
    return Response(render_block("class_student.html", "name", view=ClassView(state),
                                 name=text), mimetype="text/html")


def phone_page(state: ClassState, sid: str | None) -> ClassPage:
    """What student ``sid``'s phone shows of ``state``'s class, read now (one round trip)."""
    return class_page(store(), state.code, sid=sid) or unread_page(state, sid)


def unread_page(state: ClassState, sid: str | None) -> ClassPage:
    """The phone's page from ``state`` alone, when the store cannot be read (its vote form,
    to try again)."""
    return ClassPage(ClassView(state, ClassData(state)), sid)


def phone_block(page: ClassPage, *, status: int = 200, error: str | None = None,
                retry_after: int | None = None) -> Response:
    """The phone's vote area (its ballot, a question, an exercise, the review), for htmx;
    a refusal to try again says when in its Retry-After (``retry_after`` seconds)."""
    try:
        html = drawing(page, lambda: render_block("class_student.html", "vote", page=page,
                                                  view=page.view,
                                                  ballot=None if error else page.ballot,
                                                  error=error))
    except Busy as err:
        raise refuse(err) from None
    response = Response(html, status, mimetype="text/html")
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def drawing(page: ClassPage, draw, *, wait: float | None = None) -> str:
    """``draw()``, the phone's page or part, or the teacher's bar: on the loop, or, when it
    shows a class exercise (a phone's tree: up to the lab's 400 nodes, a form of 300 KB; the
    teacher's dashboard, every answer marked on that tree: 50-130 ms for a class of 100), in
    the trees' lane off the loop (``web.admission.drawn_in_lane``: a class redrawn at once is
    drawn a phone after another, plain pages in between), the teacher's in the pages' lane
    (never behind the class's phones), waiting ``PHONE_WAIT`` s at most; Busy beyond."""
    if page.ex is None:
        return draw()
    return admission.drawn_in_lane(draw, wait=admission.PHONE_WAIT if wait is None else wait,
                                   pages=page.view.teacher)


# -- server-sent events ----------------------------------------------------------------------------

def sse(event: str, html: str) -> str:
    """One server-sent event carrying an HTML fragment (htmx's SSE extension swaps it)."""
    data = "\n".join("data: " + line for line in html.splitlines()) or "data: "
    return f"event: {event}\n{data}\n\n"


def stream(state: ClassState, render, *, follower: str | None, kinds=None) -> Response:
    """A live stream of ``state``'s class: what ``render(state, kinds, in_context)`` gives
    now, then again on each change of one of ``kinds`` (all by default), and a "beat" event every
    ``HEARTBEAT`` seconds (its data: the period in ms), by which the page tells a live stream
    from a stalled one (a phone asleep, Wi-Fi gone half-open: static/app.js opens another),
    until the class ends. A vote with a time limit is shown closed at its end without
    anyone's request: the stream wakes then. It waits on an event in a greenlet: no search
    slot, no worker held. ``follower`` counts in the teacher's "following" figure while the
    stream is open (told to the store every ``FOLLOWER_REFRESH`` s). ``render`` runs outside
    any context and draws through ``in_context(draw)``: ``draw()`` in a request context of its
    own, made from this request (its language, its links), entered and left within one
    drawing: the stream holds no context while it waits, and a drawing it shares with the
    worker's other streams (already made) costs it none."""
    the_hub, the_store = hub(), store()
    code = state.code
    if request.method == "HEAD":           # no stream to send: no slot to take, no follower
        return _event_stream_response(iter(()))
    # the first store calls before the answer starts: a store that fails is a 503 here
    # this stream apart from the follower's others (its page reloaded: the old stream, still
    # beating until it ends, neither replaces the new one nor takes the follower with it)
    stream_id = secrets.token_hex(4)
    if state.expires < the_store.clock() + the_store.ttl / 2:
        try:                               # followed live: the class is in use, it stays
            the_store.used(code)
        except StoreError:
            pass                           # kept for UNUSED_TTL at least; tried again later
    if follower:
        the_store.follower_seen(code, follower, stream_id)
    sub = the_hub.subscribe(code, kinds, address=client_address(),
                            client=follower or client_id())
    if sub is None:
        quietly(the_store.follower_gone, code, follower, stream_id)
        response = Response("busy: too many live pages on this server", 503,
                            mimetype="text/plain")
        response.headers["Retry-After"] = "5"
        return response
    try:
        # subscribed before reading: a change made meanwhile is sent, not lost
        current = the_store.get(code)
    except StoreError:
        the_hub.unsubscribe(sub)
        quietly(the_store.follower_gone, code, follower, stream_id)
        raise
    app = current_app._get_current_object()
    environ = dict(request.environ)
    beat = float(app.config.get("CLASS_HEARTBEAT", HEARTBEAT))
    refresh = min(FOLLOWER_REFRESH, 3 * beat)
    beat_event = f"event: beat\ndata: {int(beat * 1000)}\n\n"

    def in_context(draw):
        with app.request_context(environ):
            return draw()

    def rendered(current, came):
        return render(current, came, in_context)

    left = []

    def leave():
        """The slot given back and the follower gone, once: when the stream ends, or when the
        server closes a response whose stream never started (a HEAD, a client gone at once:
        the generator's own clean-up then never runs)."""
        if not left:
            left.append(True)
            the_hub.unsubscribe(sub)
            quietly(the_store.follower_gone, code, follower, stream_id)

    def events():
        nonlocal current
        try:
            yield f"retry: {RETRY_MS}\n\n" + beat_event
            if current is not None:
                yield rendered(current, {"board", "vote", "followers"})
            last_beat = last_seen = time.monotonic()
            while current is not None and not current.closed and not sub.ended:
                wait = beat - (time.monotonic() - last_beat)
                timer = current.vote_ends if current.vote_open else 0.0
                if timer:                      # wake when the vote's time is up
                    wait = min(wait, max(timer - the_store.clock(), 0.0) + 0.05)
                came = sub.wait(max(wait, 0.0))
                if sub.ended:                  # the worker stops: the page reconnects
                    break
                if timer and the_store.clock() >= timer:
                    came = came | {"vote"}
                if time.monotonic() - last_beat >= beat:
                    last_beat = time.monotonic()
                    if follower and last_beat - last_seen >= refresh:
                        last_seen = last_beat
                        quietly(the_store.follower_seen, code, follower, stream_id)
                    yield beat_event
                if came:
                    # shared with the worker's other streams of the class; a timed vote's end
                    # (no event tells it) shares a read made after it, which says it closed
                    current = the_hub.latest(code, the_store.get, what=(
                        "timed out", timer) if timer and the_store.clock() >= timer else "state")
                    if current is not None:
                        yield rendered(current, came)
        except (StoreError, Busy):
            # the store failed mid-lesson, or the phones' drawings queue past STREAM_WAIT:
            # the stream ends cleanly (no 500) and the page's event source comes back after
            # ``retry``, to a 503 until the store answers, or to its page drawn in full
            return
        finally:
            leave()

    response = _event_stream_response(events())
    response.call_on_close(leave)
    return response


def _event_stream_response(body) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"      # nginx: pass each event on at once
    return response


def quietly(call, code, follower, *more) -> None:
    """A follower's count kept up to date, when the store lets us: it is a figure for the
    teacher, never a reason to break a stream."""
    if follower:
        try:
            call(code, follower, *more)
        except StoreError:
            pass


# -- every page ----------------------------------------------------------------------------------

def store_failed(err: StoreError):
    """The store cannot do what was asked: a 503 saying what happened (out of reach or
    locked: try again; full or read-only; its data gone), with Retry-After (the teacher's page
    sends its board again by itself, a student's page reconnects). Logged by the store."""
    message, retry = STORE_MESSAGES.get(err.kind, STORE_MESSAGES["busy"])
    return problem(Refused(503, retry, message))


def class_bar(code: str) -> ClassPage | None:
    """The class bar of a whole page showing class ``code``'s board (``web.page_bar``, which
    its view calls before the template draws): the class as its teacher or anyone else sees
    it, in one read. None when the class is gone, or its store cannot be reached just now:
    the page is then an ordinary game."""
    try:
        state = the_class(code, ended_ok=True)
        if state.closed:
            return None
        key = teacher_secret(state.code)
        teacher = state.is_teacher(key)
        return class_page(store(), state.code, teacher=teacher, projector=wants_projector(),
                          key=key if teacher else None)
    except (StoreError, ClassProblem, BadRequest):
        return None


def joined_class() -> str | None:
    """The class this browser follows, for a "rejoin" link on other pages (read without its
    signature: a link, not a right, and no page outside class mode asks the store)."""
    code = request.cookies.get(JOINED_COOKIE, "").partition(".")[0]
    return code if CLASS_CODE.fullmatch(code) else None


def limit_body():
    if request.blueprint == "classroom":
        request.max_content_length = BODY_MAX


def init_app(app: Flask) -> None:
    s = open_store(app.config)
    app.extensions["class_store"] = s
    app.extensions["class_hub"] = Hub(s)
    app.extensions["class_limits"] = limiters()
    app.extensions["class_guessers"] = {}      # address -> when it may look up codes again
    app.before_request(limit_body)
    app.jinja_env.globals.update(joined_class=joined_class)      # a cookie, not the store
    app.extensions[CLASS_BAR] = class_bar
    app.register_error_handler(StoreError, store_failed)
    app.register_blueprint(bp)
