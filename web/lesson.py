"""The way back in a lesson: every teaching page (a game, its tree and replay, the table, the
comparisons, the growth chart, the inspector, the theory, the lab...) shows a way back to the
course, to the very figure it was opened from, and a way out of projector mode, also when
projector mode hides the header.

The figure travels in the link as ``card=`` (``fig-2-1``: chapter 2, figure 1, the anchor of
its card on ``/course``), kept in every link and form of the pages that follow, as the
language and projector mode are. A value that is not a figure's anchor is ignored: the link
still opens, with a way back to the top of the course.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask, g, has_request_context, request, url_for
from markupsafe import Markup

from .projector import projector_on

CARD = re.compile(r"fig-[0-9]{1,2}-[0-9]{1,2}")
# Pages with their own "Leave projector mode" button among the game's controls.
OWN_PROJECTOR_BUTTON = ("play.show", "play.move", "play.ai", "play.tree")
# Links that do not keep the figure: the course itself (its anchor says the figure), and class
# mode's (students open them on their phones).
NOT_KEPT = ("static", "course.course")


def course_card() -> str | None:
    """The course's figure this page was opened from (``card=``), if the link says one: read
    once per request (every link and form of a page asks, a game's page some twenty times)."""
    if not has_request_context():
        return None
    card = g.get("_course_card", False)
    if card is False:
        raw = request.args.get("card", "")
        card = g._course_card = raw if CARD.fullmatch(raw) else None
    return card


def add_card(endpoint, values) -> None:
    if (endpoint not in NOT_KEPT and not endpoint.startswith("classroom.")
            and "card" not in values and course_card()):
        values["card"] = course_card()


def card_field() -> Markup | str:
    """The hidden field that keeps the figure in a form (``web.i18n.lang_field`` adds it)."""
    card = course_card()
    return Markup(f'<input type="hidden" name="card" value="{card}">') if card else ""


@dataclass(frozen=True)
class LessonNav:
    course_url: str | None       # back to the course, at the figure's card
    leave_projector: bool        # this page needs its own way out of projector mode


def lesson_nav() -> LessonNav | None:
    """What the lesson bar shows on this page: None when there is nothing to show (outside
    projector mode, a page not opened from the course: the header has the way)."""
    projector = projector_on()
    card = course_card()
    if not projector and not card:
        return None
    on_course = request.endpoint == "course.course"
    return LessonNav(
        course_url=None if on_course else url_for("course.course", _anchor=card),
        leave_projector=projector and request.endpoint not in OWN_PROJECTOR_BUTTON)


def init_app(app: Flask) -> None:
    app.url_defaults(add_card)
    app.jinja_env.globals.update(lesson_nav=lesson_nav, course_card=course_card)
