"""Blueprint ``class_answers``: what the class answers beyond the vote (``web.classroom.questions``,
``web.classroom.exercise``, kept by ``web.classroom.answers``).

Teacher (the class's secret, from this site, as every teacher action of ``web.classroom.views``):

- ``POST /class/<code>/peer``: peer instruction on the vote: ``action`` = ``hide`` (counts
  hidden until the vote closes: ``value`` 1 or 0), ``show`` (the closed round's counts),
  ``discuss`` (a discussion, ``seconds`` of an optional timer), ``revote`` (the same position
  again), ``reveal`` (the AI's choice and the exact outcome of every move).
- ``POST /class/<code>/ask``: a question about the next step (``kind``), then ``close``,
  ``reveal``, ``cancel``.
- ``POST /class/<code>/exercise``: send a tree (``start``), ``close``, ``reopen``, ``open``
  a node, ``end``; ``GET /class/<code>/exercise.csv?per=question|student``.
- ``GET /class/<code>/summary`` (and ``.csv``): the lesson's rounds, the class's choice vs
  the AI's vs the truth. CSV files and the summary are there after the class ended too.

Students: ``POST /c/<code>/answer`` (a question), ``POST /c/<code>/exercise`` (an exercise,
sent as often as they like: marked each time, the first try kept for the dashboard).
Every answer is checked and written in one step (``web.classroom.answers``), a store that fails
is a 503 with the form kept, never a lost answer without a word. A teacher's action whose
search finds no slot in its lane (``web.admission.Busy``) is a 503 with Retry-After whose body
is the bar again, saying so (``views.busy_bar``), and changes nothing.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import replace
from urllib.parse import urlencode

from flask import (Blueprint, Flask, Response, copy_current_request_context, redirect,
                   render_template, request, url_for)
from werkzeug.datastructures import MultiDict

from ai.messages import GameError, N_

from ..admission import Busy, admitted, in_lane, in_this_request, offload
from ..ai_move import ai_move
from ..exercise import COURSE_TREE_TITLES, parse_answer
from ..games import GAMES
from ..htmx import is_htmx
from ..i18n import tr
from ..notation import use_notation, value_text
from ..params import BadRequest
from ..review import FOLLOW
from ..spreadsheet import csv_response
from . import review, views as cls
from .answers import MAX_ANSWER_TEXT, answers_of
from .exercise import ExerciseView, answer_text, solved, source_of
from .plan import (MAX_ITEMS, MAX_PLAN, VERBS, PlanItem, board_link, item_board, parse_plan,
                   plan_json, plan_text, stored_plan)
from .questions import (DISCUSS_TIMES, KINDS, ActivityView, board_questions, exact_outcomes,
                        lesson_rounds, read_answer)
from .reading import ClassData, read_class
from .store import MAX_BALLOTS, StoreError, Vote
from .view import ClassView, board_query, game_from_link, wants_projector

bp = Blueprint("class_answers", __name__)
BODY_MAX = 64 * 1024           # an exercise's answer: a few hundred fields at most

NO_QUESTION = N_("No question is open: the teacher's next question will appear here.")
NOT_NOW = N_("This question cannot be asked at this step: step on to one where it can.")
NOT_ON_POSITION = N_("The board has moved on from the vote's position: go back to it "
                         "(the link above) to vote again on it.")


bp.register_error_handler(cls.ClassProblem, cls.problem)
bp.register_error_handler(BadRequest, cls.problem)


@bp.before_request
def limit_body():
    request.max_content_length = BODY_MAX


def answers():
    return answers_of(cls.store())


def class_data(state) -> ClassData:
    """What the store holds of ``state``'s class now, in one round trip (its state alone when
    it has just gone)."""
    return read_class(cls.store(), state.code) or ClassData(state)


# -- the teacher ---------------------------------------------------------------------------------

@bp.post("/class/<code>/peer")
def peer(code):
    """Peer instruction's steps on the vote (see the module)."""
    state = cls.teacher_class(code)
    action = request.form.get("action")
    a = answers()
    if action == "hide":
        a.set_setting(state.code, "hide", "0" if request.form.get("value") == "0" else "1")
    elif action == "show" and state.round and not state.vote_open:
        a.set_setting(state.code, f"shown:{state.round}", "1")
    elif action == "discuss" and state.round and not state.vote_open:
        seconds = read_seconds(request.form.get("seconds", "0"))
        a.start(state.code, "peer", {"first": state.round, "second": 0,
                                     "query": state.vote_query,
                                     "until": time.time() + seconds if seconds else 0})
    elif action == "revote":
        data = class_data(state)
        p = ActivityView(ClassView(data.state, data, teacher=True)).peer
        if p is None or state.round != p.data.get("first") or state.vote_open:
            raise BadRequest("no discussion to vote again after")
        if state.query != p.data.get("query"):
            raise cls.ClassProblem(409, NOT_ON_POSITION)
        state = cls.store().open_vote(state.code)
        a.change(state.code, p.seq, data={"second": state.round, "until": 0})
    elif action == "reveal" and state.round and not state.vote_open:
        try:
            reveal(state)
        except Busy as err:
            return cls.busy_bar(state, err)
    else:
        raise BadRequest("unknown action: %(action)s", action=(action or "")[:20])
    return cls.bar_answer(cls.store().get(state.code) or state)


def read_seconds(raw: str) -> int:
    try:
        seconds = int(raw)
    except ValueError:
        raise BadRequest("a number of seconds, please: %(raw)s", raw=raw[:10]) from None
    if seconds not in DISCUSS_TIMES:
        raise BadRequest("a number of seconds, please: %(raw)s", raw=raw[:10])
    return seconds


def reveal(state) -> None:
    """The AI's move on the round's position, and the exact outcome of every move there,
    kept with the round for the summary. Searched in the admission lanes: Busy, nothing
    kept, when one is full (the bar says so, and the teacher presses again)."""
    data = class_data(state)
    view = ClassView(state, data, teacher=True)
    g = view.vote_g
    reply, _ = ai_move(g)
    outcomes = admitted(lambda: exact_outcomes(g), heavy=True)
    av = ActivityView(view)
    record = {"ai": reply.label, "out": outcomes, "peer": av.peer is not None,
              "moves": g.rules.format_moves(g.moves[:g.at])}
    answers().set_setting(state.code, f"round:{state.round}", json.dumps(record))
    if av.peer is not None:
        answers().set_setting(state.code, f"round:{av.peer.data.get('first')}",
                              json.dumps({**record, "peer": True}))
    cls.store().set_reveal(state.code, reply.label)


@bp.post("/class/<code>/ask")
def ask(code):
    """A question about the board's next step, then its close and reveal."""
    state = cls.teacher_class(code)
    action = request.form.get("action", "ask")
    a = answers()
    q = a.current(state.code)
    if action == "ask":
        kind = request.form.get("kind", "")
        if kind not in KINDS:
            raise BadRequest("unknown question: %(kind)s", kind=kind[:20])
        try:
            found = board_questions(state) or {}
        except Busy as err:         # the step may well ask it: the server says it is busy
            return cls.busy_bar(state, err)
        asked = found.get(kind)
        if not hasattr(asked, "data"):
            raise cls.ClassProblem(409, NOT_NOW)
        a.start(state.code, "predict", {**asked.data, "step": query_step(state.query)})
    elif q is None or q.kind != "predict":
        raise cls.ClassProblem(409, NO_QUESTION)
    elif action == "close":
        a.change(state.code, q.seq, open=False)
    elif action == "reveal":
        # closed first (no answer counts after), then the class's split kept with the
        # question: the phones show it without reading every answer (a phone reads its own)
        a.change(state.code, q.seq, open=False, event="tally")
        split = Counter(g.first for g in a.all_given(state.code, q.seq).values())
        a.change(state.code, q.seq, revealed=True, data={"split": dict(split)})
    elif action == "cancel":
        a.change(state.code, q.seq, open=False, data={"cancelled": True})
    else:
        raise BadRequest("unknown action: %(action)s", action=action[:20])
    return cls.bar_answer(cls.store().get(state.code) or state)


def query_step(query: str) -> int:
    from urllib.parse import parse_qsl
    try:
        return int(dict(parse_qsl(query)).get("step", 0))
    except ValueError:
        return 0


@bp.post("/class/<code>/exercise")
def exercise(code):
    """Send a tree to every phone, close or reopen it, open a node on the dashboard."""
    state = cls.teacher_class(code)
    action = request.form.get("action", "")
    a = answers()
    q = a.current(state.code)
    if action == "start":
        params = source_of(request.form)
        a.start(state.code, "exercise", {"lab": urlencode(params)})
    elif q is None or q.kind != "exercise":
        raise cls.ClassProblem(409, NO_QUESTION)
    elif action in ("close", "reopen"):
        a.change(state.code, q.seq, open=action == "reopen")
    elif action == "open":
        node = request.form.get("node", "")[:40]
        ex = ExerciseView(q, {})
        if node and node not in {s.name for s in ex.nodes}:
            raise BadRequest("no node named %(names)s in this tree", names=node)
        a.change(state.code, q.seq, data={"open_node": node}, event="tally")
    elif action == "end":
        a.change(state.code, q.seq, open=False, data={"ended": True})
    else:
        raise BadRequest("unknown action: %(action)s", action=action[:20])
    return cls.bar_answer(cls.store().get(state.code) or state)


def teacher_any(code):
    """The class for its teacher, ended or not (the CSV and the summary stay there)."""
    state = cls.the_class(code, ended_ok=True)
    if not state.is_teacher(cls.teacher_secret(state.code)):
        raise cls.ClassProblem(403, cls.TEACHER_ONLY)
    return state


@bp.get("/class/<code>/exercise.csv")
@in_lane()          # its cells grow with the class and the tree: in the pages' lane, off the loop
def exercise_csv(code):
    """The exercise's results: per question, or per anonymous student (nicknames if given).
    ``seq`` names an earlier exercise of the class; the current (or last) one by default."""
    state = teacher_any(code)
    a = answers()
    per = request.args.get("per", "question")
    if per not in ("question", "student"):
        raise BadRequest("per: question or student")
    found = [x for x in a.history(state.code) if x.kind == "exercise"]
    if request.args.get("seq"):
        found = [x for x in found if str(x.seq) == request.args["seq"]]
    if not found:
        raise cls.ClassProblem(404, NO_QUESTION)
    act = found[-1]
    ex = ExerciseView(act, a.all_given(state.code, act.seq),
                      names=cls.store().names(state.code))
    notation = ClassView(state).g.settings.notation

    @copy_current_request_context
    def rows():           # off the loop: its values in the page's locale and the class's notation
        use_notation(notation)
        return ex.csv_questions() if per == "question" else ex.csv_students()

    rows = offload(rows)
    return csv_response(rows, f"class-{state.code}-exercise-{act.seq}-{per}.csv")


@bp.get("/class/<code>/summary")
@in_lane()          # every exercise of the lesson marked: in the pages' lane, off the loop
def summary(code):
    """The lesson's rounds: the class's choice, the AI's, the exact outcome; the questions
    and how many were right; the exercises."""
    state = teacher_any(code)
    data = class_data(state)
    view = ClassView(state, data, teacher=True, projector=wants_projector())
    return render_template("class_summary.html", view=view,
                           rounds=lesson_rounds(ActivityView(view), cls.store()),
                           exercises=exercises_of(state))


def exercises_of(state) -> list:
    """The lesson's exercises, each with its answers marked (off the loop: ``offload``)."""
    a = answers()
    out = [ExerciseView(act, a.all_given(state.code, act.seq))
           for act in a.history(state.code) if act.kind == "exercise"]
    offload(lambda: [ex.finished for ex in out])
    return out


@bp.get("/class/<code>/summary.csv")
@in_lane()
def summary_csv(code):
    state = teacher_any(code)
    data = class_data(state)
    view = ClassView(state, data, teacher=True)
    rows = [["kind", "round", "position", "votes_or_answers", "class_choice",
             "class_choice_outcome", "ai_choice", "ai_choice_outcome", "best_outcome",
             "right_answer", "right", "peer_instruction"]]
    for r in lesson_rounds(ActivityView(view), cls.store()):
        if r["kind"] == "vote":
            rows.append(["vote", r["round"], r["moves"], r["votes"], r["choice"] or "",
                         r["outcome"] or "", r["ai"] or "", r["ai_outcome"] or "",
                         r["best"] or "", "", "", "yes" if r["peer"] else "no"])
        else:
            rows.append(["question", r["seq"], r["what"], r["answered"], "", "", "", "", "",
                         r["answer"] if r["choices"] else value_text(r["answer"] or ""),
                         r["right"], ""])       # a value as the projector wrote it: −M
    for ex in exercises_of(state):
        rows.append(["exercise", ex.activity.seq, ex.activity.data["lab"], ex.answered, "",
                     "", "", "", "", "", ex.finished, ""])
    return csv_response(rows, f"class-{state.code}-summary.csv")


# -- students ------------------------------------------------------------------------------------

def student_answer(state, sid, send) -> Response:
    """Send a student's answer (``send()`` -> Vote), and answer with their part of the page:
    the refusal said in place, the form kept to try again when the store failed (503)."""
    try:
        result = send()
    except StoreError as err:
        if not is_htmx():
            raise
        message, retry = cls.STORE_MESSAGES.get(err.kind, cls.STORE_MESSAGES["busy"])
        return cls.phone_block(cls.unread_page(state, sid), status=503,
                               error=tr(cls.Refused(503, retry, message)), retry_after=retry)
    if result is Vote.CLOSED:
        raise cls.ClassProblem(400, cls.VOTE_CLOSED)
    if result is Vote.FULL:
        raise cls.ClassProblem(409, cls.VOTE_FULL, num=MAX_BALLOTS)
    if not is_htmx():
        return redirect(url_for("classroom.student", code=state.code), 303)
    return cls.phone_block(cls.phone_page(state, sid))


def the_activity(state, kind):
    a = answers().current(state.code)
    seq = request.form.get("seq", "")
    if a is None or a.kind != kind or seq != str(a.seq) or not a.open:
        raise cls.ClassProblem(400, cls.VOTE_CLOSED)
    return a


@bp.post("/c/<code>/answer")
def answer(code):
    """A student's answer to a question: a choice, or a number; once per question."""
    state = cls.the_class(code)
    sid = cls.acting_student("vote")
    q = the_activity(state, "predict")
    if q.data.get("choices"):
        text = request.form.get("choice", "")[:20]
        if text not in q.data["choices"]:
            raise BadRequest("not one of the choices: %(choice)s", choice=text)
    else:
        # a value button (−M, +M, −∞, +∞) or the typed field, written any way the projector
        # or the course writes a value
        raw = (request.form.get("value") or request.form.get("number", ""))[:40]
        text = read_answer(raw)
        if text is None:
            raise BadRequest("“%(raw)s” is not a value: write a number (2,5), −M, +M, −∞ or +∞",
                             raw=raw[:20])
    return student_answer(state, sid, lambda: answers().answer(state.code, q.seq, sid, text))


@bp.post("/c/<code>/exercise")
def exercise_answer(code):
    """A student's answer to the class exercise, marked as in the lab (sent again as often
    as they like while it is open; the first try is the one the dashboard counts)."""
    state = cls.the_class(code)
    sid = cls.acting_student("vote")
    act = the_activity(state, "exercise")
    lab = solved(act.data["lab"])
    answer_ = parse_answer(request.form, lab["max_score"])
    from ai.teach.exercise import check
    try:
        check(lab["solved"], answer_)
    except (GameError, ValueError) as err:
        raise BadRequest("%(err)s", err=tr(err) if isinstance(err, GameError) else err) from None
    text = answer_text(request.form, answer_)
    if len(text) > MAX_ANSWER_TEXT:
        raise BadRequest("the answer is too long")
    return student_answer(state, sid, lambda: answers().answer(state.code, act.seq, sid, text,
                                                               again=True))


# -- the review of the class's game on the phones (web.classroom.review) --------------------------

review_bp = Blueprint("class_review", __name__)
review_bp.register_error_handler(cls.ClassProblem, cls.problem)
review_bp.register_error_handler(BadRequest, cls.problem)


@review_bp.post("/class/<code>/review", endpoint="control")
def review_control(code):
    """Show the review of the class's finished game on the phones, or stop showing it."""
    state = cls.teacher_class(code)
    view = ClassView(state, teacher=True, projector=cls.wants_projector())
    action = request.form.get("action")
    if action == "show":
        if not view.g.over:
            raise BadRequest("the class's game is not over: there is no review to show yet")
        review.warm(view, 0)
        answers().set_setting(state.code, review.KEY, f"0:{state.query}")
        target = review.review_link(view)
        if is_htmx():
            return Response(status=204, headers={"HX-Redirect": target})
        return redirect(target, 303)
    if action == "hide":
        answers().set_setting(state.code, review.KEY, "")
        return cls.bar_answer(cls.store().get(state.code) or state)
    raise BadRequest("unknown action: %(action)s", action=(action or "")[:20])


def record_selection(code: str, ply: int | None) -> bool:
    """The projector's review selected move ``ply``: the phones follow, when this browser is
    the class's teacher (its cookie secret, from this site) and the review is shown. False
    (nothing recorded) otherwise: the review page is then an ordinary one."""
    try:
        return _record(code, ply)
    except StoreError:
        return False


def _record(code: str, ply: int | None) -> bool:
    data = read_class(cls.store(), code)
    state = data.state if data else None
    if (state is None or state.closed or not cls.same_site()
            or not state.is_teacher(cls.teacher_secret(state.code))):
        return False
    view = ClassView(state, data)           # as the phones see it
    now = review.shown(view)
    if now is None:
        return False
    if ply is not None and ply != now:
        review.warm(view, ply)
        answers().set_setting(state.code, review.KEY, f"{ply}:{state.query}")
    return True


def init_app(app: Flask) -> None:
    # constants the class templates draw with (none reads the store)
    app.jinja_env.globals.update(DISCUSS_TIMES=DISCUSS_TIMES, now_ts=time.time,
                                 COURSE_TREE_TITLES=COURSE_TREE_TITLES)
    app.extensions[FOLLOW] = record_selection       # the review page calls it
    app.register_blueprint(bp)
    app.register_blueprint(review_bp)


# -- the lesson plan (web.classroom.plan) --------------------------------------------------------

@bp.get("/class/plan")
@in_lane()          # each line read as its page would (up to 6,000 characters): off the loop
def plan_page():
    """The plan's page: its lines checked, the link that opens it again, a class started
    with it."""
    return offload(in_this_request(plan_drawn))


def plan_drawn():
    """The plan's page for this request (in a lane slot, off the loop: ``plan_page``)."""
    text = request.args.get("plan", "")
    error = None
    try:
        items, wrong = parse_plan(text)
    except BadRequest as err:
        items, wrong, error = [], [], tr(err)
    status = 400 if error else 200
    page = render_template("class_plan.html", text=text[:MAX_PLAN], items=items, wrong=wrong,
                           error=error, link=url_for(".plan_page", plan=plan_text(items),
                                                     _external=True) if items else None,
                           verbs=VERBS)
    return Response(page, status, mimetype="text/html")


@bp.post("/class/plan/start")
@in_lane()          # the plan read off the loop, as its page reads it
def plan_start():
    """A class whose board is the plan's first position, the plan in its bar."""
    if not cls.same_site():
        raise cls.ClassProblem(403, cls.TEACHER_ONLY)
    text = request.form.get("plan", "")
    items, wrong = offload(in_this_request(lambda: parse_plan(text)))
    if not items:
        raise BadRequest("the plan has no item this app can read", "plan")
    cls.limited("classes", cls.NEW_CLASSES)
    first = next((i for i in items if i.verb != "exercise"), None)
    spec, g, args = game_from_link(first.link if first else "/" + next(iter(GAMES)))
    made = cls.store().create(spec.name, board_query(g, args))
    if made is None:
        raise cls.Refused(503, 60, cls.SERVER_FULL, num=cls.store().max_classes)
    state, secret = made
    answers().set_setting(state.code, "plan", plan_json(items, 0))
    return cls.as_teacher(state, secret)


@bp.post("/class/<code>/plan")
def plan_action(code):
    """The plan in class: ``go`` to item ``item`` (its position on the board, its vote, its
    question or its exercise opened), ``add`` the board as a ``verb`` item, ``clear``."""
    state = cls.teacher_class(code)
    a = answers()
    items, next_ = stored_plan(a.settings(state.code))
    action = request.form.get("action", "")
    if action == "add":
        verb = request.form.get("verb", "")
        if verb not in VERBS or verb == "exercise":
            raise BadRequest("unknown action: %(action)s", action=verb[:20])
        if len(items) >= MAX_ITEMS:
            raise BadRequest("a plan of at most %(most)s items, please", "plan", most=MAX_ITEMS)
        items.append(PlanItem(verb, board_link(state.game, state.query)))
        a.set_setting(state.code, "plan", plan_json(items, next_))
        return cls.bar_answer(state)
    if action == "clear":
        a.set_setting(state.code, "plan", plan_json([], 0))
        return cls.bar_answer(state)
    if action != "go":
        raise BadRequest("unknown action: %(action)s", action=action[:20])
    try:
        k = int(request.form.get("item", ""))
        item = items[k]
    except (ValueError, IndexError):
        raise BadRequest("no such item in the plan") from None
    if item.verb == "exercise":
        a.start(state.code, "exercise",
                {"lab": urlencode(source_of(MultiDict({"source": "link", "link": item.link})))})
    else:
        spec, g, args, query = item_board(item)
        asked = None
        if item.question:
            # its questions before the board moves: a busy server changes nothing, says so,
            # and the same item goes again (not one skipped as if its step asked nothing)
            try:
                asked = (board_questions(replace(state, game=spec.name, query=query))
                         or {}).get(item.question)
            except Busy as err:
                return cls.busy_bar(state, err)
        state = cls.store().set_board(state.code, spec.name, query) or state
        if item.verb == "vote":
            view = ClassView(state, teacher=True)
            if view.can_open_vote:
                state = cls.store().open_vote(state.code) or state
        elif hasattr(asked, "data"):
            a.start(state.code, "predict", {**asked.data, "step": query_step(query)})
    a.set_setting(state.code, "plan", plan_json(items, k + 1))
    if item.verb == "exercise" or not is_htmx():
        return cls.bar_answer(cls.store().get(state.code) or state) if is_htmx() else \
            redirect(cls.teacher_page_url(state), 303)
    response = Response(status=204)
    response.headers["HX-Redirect"] = cls.teacher_page_url(state)   # the board, its page
    return response
