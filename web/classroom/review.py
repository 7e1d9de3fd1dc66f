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

This module draws it (from what the view read: ``ClassView.data``); the route and the
projector's selection are in ``web.classroom.activities``.
"""
from __future__ import annotations

from flask import current_app
from flask_babel import get_locale, gettext, ngettext
from jinja2_fragments.flask import render_block

from ai.teach.review import why_text

from ..admission import Busy, admitted
from ..review import _summary, build, drawing, review_url, score_seconds
from .view import ClassView

KEY = "review"


def _read(view: ClassView) -> tuple[str, int] | None:
    raw = view.data.settings.get(KEY, "")
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
    return current_app.extensions["class_hub"].cached(key, lambda: _render(view, ply or None))


def warm(view: ClassView, ply: int) -> None:
    """Render the phones' review from the teacher's request, as a phone's request would (in
    the teacher's language, without the projector's parameters that the teacher's request
    carries), before the phones are told."""
    with current_app.test_request_context("/", query_string={"lang": str(get_locale())}):
        try:
            rendered(ClassView(view.state, view.data), ply)
        except Busy:
            pass


def _render(view: ClassView, ply: int | None) -> str:
    g = view.g
    seconds = score_seconds()
    r = admitted(lambda: build(g, ply, 2, seconds), heavy=True)
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
