"""The review of a class game on the students' phones (issue 25; names no game).

When the class's game is over, the teacher's bar offers "Show the review to the class":
``POST /class/<code>/review`` (teacher only: the class's secret, from this site), with
``action`` = ``show`` (the projector opens the review page of the class's board, kept in class
mode with ``cls=``) or ``hide``. The class store keeps what is shown (the class setting
``review``: the board it reviews and the move selected, ``web.classroom.answers``' settings, on
both backends; its change is a ``vote`` event, so every phone re-reads it). On the projector's
review page, each move the teacher selects is recorded too (``record_selection``), and the
phones follow: their vote area shows the review (summary, marked moves, the selected move's
explanation and refutation: ``templates/review.html``'s own block) instead of the vote.

The review stops being shown by itself when the board changes (a new game, a move taken
back): the setting names the board it was shown for.
"""
from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, redirect, request
from flask_babel import get_locale, gettext, ngettext
from jinja2_fragments.flask import render_block

from ai.teach.review import why_text

from . import views as cls
from .answers import answers_of
from .store import StoreError
from ..admission import Busy, admitted
from .view import ClassView
from ..htmx import is_htmx
from ..params import BadRequest
from ..review import FOLLOW, _summary, build, drawing, review_url

bp = Blueprint("class_review", __name__)
bp.register_error_handler(cls.ClassProblem, cls.problem)
bp.register_error_handler(BadRequest, cls.problem)

KEY = "review"


def _read(view: ClassView) -> tuple[str, int] | None:
    raw = answers_of(view.store).settings(view.code).get(KEY, "")
    ply, sep, query = raw.partition(":")
    if not sep or not ply.isdigit():
        return None
    return query, int(ply)


def shown(view: ClassView) -> int | None:
    """The move selected (0: none) when the review of the class's board is shown now, else
    None (not shown, or shown for a board the class has left)."""
    got = _read(view)
    if got is None or got[0] != view.state.query or not view.g.over:
        return None
    return min(got[1], len(view.g.moves))


def review_link(view: ClassView, ply: int = 0) -> str:
    """The projector's review of the class's board, kept in class mode."""
    return review_url(view.g, **({"ply": ply} if ply else {}), cls=view.code)


@bp.post("/class/<code>/review")
def control(code):
    """Show the review of the class's finished game on the phones, or stop showing it."""
    state = cls.teacher_class(code)
    view = ClassView(state, cls.store(), teacher=True, projector=cls.wants_projector())
    action = request.form.get("action")
    if action == "show":
        if not view.g.over:
            raise BadRequest("the class's game is not over: there is no review to show yet")
        warm(view, 0)
        answers_of(view.store).set_setting(state.code, KEY, f"0:{state.query}")
        target = review_link(view)
        if is_htmx():
            return Response(status=204, headers={"HX-Redirect": target})
        return redirect(target, 303)
    if action == "hide":
        answers_of(view.store).set_setting(state.code, KEY, "")
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
    state = cls.store().get(code)
    if (state is None or state.closed or not cls.same_site()
            or not state.is_teacher(cls.teacher_secret(state.code))):
        return False
    view = ClassView(state, cls.store())           # as the phones see it
    now = shown(view)
    if now is None:
        return False
    if ply is not None and ply != now:
        warm(view, ply)
        answers_of(view.store).set_setting(state.code, KEY, f"{ply}:{state.query}")
    return True


def phone_review(view: ClassView) -> str | None:
    """The review as the phones show it (rendered once per class, board, selection and
    language: every phone of the class shares it), or None when it is not shown."""
    ply = shown(view)
    if ply is None:
        return None
    try:
        return rendered(view, ply)
    except Busy:               # not kept: the next event (or reload) tries again
        return ""


def rendered(view: ClassView, ply: int) -> str:
    """The phones' review of the class's board with move ``ply`` selected, rendered once
    (the teacher's action renders it before the phones are told: thirty phones do not all
    start the same review at once). Raises ``Busy`` when the heavy lane is full."""
    key = ("review", view.code, view.state.query, ply, str(get_locale()))
    return cls.hub().cached(key, lambda: _render(view, ply or None))


def warm(view: ClassView, ply: int) -> None:
    """Render the phones' review from the teacher's request, as a phone's request would (in
    the teacher's language, without the projector's parameters that the teacher's request
    carries), before the phones are told."""
    with current_app.test_request_context("/", query_string={"lang": str(get_locale())}):
        try:
            rendered(ClassView(view.state, view.store), ply)
        except Busy:
            pass


def _render(view: ClassView, ply: int | None) -> str:
    g = view.g
    r = admitted(lambda: build(g, ply, 2), heavy=True)
    r.summary = _summary(r)
    r.ai_values = {}
    if r.selected is not None:
        r.why = why_text(r.selected, gettext=gettext, ngettext=ngettext,
                         names=g.settings.player_name)
        r.drawing = drawing(g, r.rev, r.selected.ply, r.selected.move, r.selected.refutation)
    return render_block("review.html", "review", r=r, g=g, error=None, in_class=True)


def bar_state(view: ClassView) -> dict:
    """What the teacher's bar needs: whether a review can be shown, is shown, its link."""
    over = view.g.over
    return {"over": over, "shown": over and shown(view) is not None,
            "link": review_link(view) if over else None}


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(class_review=bar_state, class_phone_review=phone_review)
    app.extensions[FOLLOW] = record_selection       # the review page calls it
    app.register_blueprint(bp)
