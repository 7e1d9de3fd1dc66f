"""What a class page draws, computed once by its view: the teacher's bar (on the board's page,
in its live stream, in each answer to the teacher's buttons) and a student's phone (its page,
its stream, the answer to a ballot).

``class_page`` reads the class in one round trip (``web.classroom.reading``) and hands the
templates a ``ClassPage``: the class as the page shows it (``view``), its activity (``av``),
the exercise, the game's own activity, the lesson plan, the review. Everything in it is computed from that one read:
the templates draw what they are handed and never reach the store.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask import url_for

from ..games import GAMES
from ..tournament.game import tournament_game
from ..admission import offload
from .exercise import ExerciseView
from .plan import VERBS, plan_text, stored_plan
from .questions import ActivityView
from .reading import ClassData, read_class
from .review import bar_state, phone_review
from .store import ClassStore
from .view import ClassView


@dataclass
class ClassPage:
    """One class page's drawing: for its teacher (``view.teacher``) or a student (``sid``)."""

    view: ClassView
    sid: str | None = None

    @property
    def data(self) -> ClassData:
        return self.view.data

    @property
    def ballot(self) -> str | None:
        """The student's own ballot in the current round."""
        return self.data.ballot

    @property
    def name(self) -> str:
        """The student's own nickname."""
        return self.data.names.get(self.sid, "") if self.sid else ""

    @cached_property
    def av(self) -> ActivityView:
        """The class's activity (a question, a discussion, an exercise), as this page shows it
        (a student's own answer on a phone)."""
        return ActivityView(self.view, None if self.view.teacher else self.sid)

    @cached_property
    def ex(self) -> ExerciseView | None:
        """The exercise open now, if one is: its dashboard (teacher) or the phone's form."""
        a = self.av.activity
        if a is None or a.kind != "exercise" or a.data.get("ended"):
            return None
        if self.view.teacher:
            return ExerciseView(a, self.data.given, names=None)
        return ExerciseView(a, {}, mine=self.data.mine)

    @cached_property
    def game_activity(self):
        """The game's own class activity, when it has one (its hook ``class_activity``, e.g.
        the heuristic workshop's "build your heuristic"): an object with ``template`` (macros
        ``start``, ``teacher``, ``phone``) and ``shown`` (the class is on it now); None."""
        spec = GAMES.get(self.view.state.game)
        hook = spec.hook("class_activity") if spec is not None else None
        return hook(self) if hook is not None else None

    @cached_property
    def tournament_url(self) -> str | None:
        """The class's tournament (``web.tournament.live``), for a game with tournaments whose
        class enters its bots there (a game collecting them in an activity of its own links
        to it from that activity); None for a game without."""
        tg = tournament_game(GAMES[self.view.state.game]) \
            if self.view.state.game in GAMES else None
        if tg is None or tg.collects:
            return None
        return url_for("tournament_live.page", game=self.view.state.game, code=self.view.code)

    @cached_property
    def plan(self) -> dict:
        """The lesson plan as the teacher's bar shows it: its items, the next one, the link
        that opens it."""
        items, next_ = stored_plan(self.data.settings)
        return {"items": items, "next": next_, "verbs": VERBS,
                "link": url_for("class_answers.plan_page", plan=plan_text(items), _external=True,
                                lang=None, proj=None) if items else None}

    @cached_property
    def review(self) -> dict:
        """The teacher's bar: whether the game's review can be shown, is shown, its link."""
        return bar_state(self.view)

    @cached_property
    def phone_review(self) -> str | None:
        """The review as the phones show it ("" while it is prepared), None when not shown."""
        return phone_review(self.view)


def class_page(store: ClassStore, code: str, *, teacher: bool = False, projector: bool = False,
               key: str | None = None, sid: str | None = None) -> ClassPage | None:
    """Class ``code``'s page for its teacher (``key``: the secret, to show the teacher link)
    or for student ``sid``, read in one round trip; None when the class is gone."""
    data = read_class(store, code, voter=None if teacher else sid, every_answer=teacher)
    if data is None:
        return None
    view = ClassView(data.state, data, teacher=teacher, projector=projector, key=key)
    page = ClassPage(view, None if teacher else sid)
    if teacher and page.ex is not None:
        # the dashboard's answers marked off the loop: each is marked once in a worker, but the
        # first draw in a worker marks them all (a class of 500: a thousand answers)
        offload(lambda: page.ex.reports)
    return page
