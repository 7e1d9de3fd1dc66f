"""The heuristic workshop in class mode (issue 38): the teacher sends "build your heuristic" to
every phone with the depth fixed; each student builds one in the workshop
(``web.connect4.workshop``, opened from the phone at that depth) or types it, and sends it; the
teacher's bar lists the class's heuristics (nickname, heuristic, accuracy at the class's depth),
ready for the tournament, and exports them as CSV (``web.spreadsheet``).

An activity of kind ``heuristic`` (``web.classroom.answers``: data ``{"depth": d}``), offered to
the shared class pages through the game's hook ``class_activity`` (``ClassWorkshop``). A
student's answer is stored as ``h=<heuristic>&d=<depth>&kept=<positions where its move keeps the
value>&bl=<blunders>&n=<positions>``: the text as ``ai.games.connect4.terms.format_weights``
writes it (checked by its parser: a wrong one is a translated 400 on the phone, the text kept to
correct), its accuracy measured once when it is sent, in the lanes (``web.admission.admitted``),
so that nothing reading the class's heuristics searches. Sent again, the latest replaces it
(``Answers.answer(again=True)``).

Routes: ``POST /class/<code>/heuristic`` (the teacher: ``action`` = ``start`` with ``depth``,
``close``, ``reopen``, ``end``), ``GET /class/<code>/heuristics.csv`` (the teacher, during and
after the class), ``POST /c/<code>/heuristic`` (a student: ``h``, and ``seq`` from the phone's
form; the workshop's "send to the class" form sends none: the open activity).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, request, url_for

from ai.games.connect4 import accuracy
from ai.games.connect4.terms import format_weights, parse
from ai.messages import N_
from ai.games.connect4.tournament import MAX_NAME

from ..admission import Busy, admitted
from ..classroom import views as cls
from ..classroom.answers import answers_of
from ..htmx import is_htmx
from ..i18n import tr
from ..params import BadRequest, read_int
from ..spreadsheet import csv_response
from . import workshop

KIND = "heuristic"
DEPTHS = tuple(range(1, workshop.MAX_DEPTH + 1))
DEFAULT_DEPTH = workshop.DEFAULT_DEPTH
MAX_TEXT = workshop.MAX_TEXT

NO_WORKSHOP = N_("The class is not building heuristics now: send it “build your heuristic” "
                 "first.")
CLOSED = N_("The teacher is not collecting heuristics now: yours was not sent.")

bp = Blueprint("class_workshop", __name__)
bp.register_error_handler(cls.ClassProblem, cls.problem)
bp.register_error_handler(BadRequest, cls.problem)


@dataclass(frozen=True)
class Submitted:
    """A student's heuristic as the class keeps it."""

    voter: str             # the student's anonymous id (the store's)
    name: str              # their nickname, else "S01", "S02"... (see ``class_heuristics``)
    heuristic: str         # the weights' text (``terms.format_weights``): ``cells=1,open3=8``
    depth: int             # the class's depth it was measured at
    accuracy: float        # share of the workshop's positions where its move keeps the value
    blunders: int
    positions: int
    sent: int              # how many times the student sent one (the latest kept)


def activity_depth(activity) -> int:
    """The depth the teacher fixed for this "build your heuristic" (the default when the
    stored one cannot be read)."""
    try:
        depth = int(activity.data.get("depth", DEFAULT_DEPTH))
    except (TypeError, ValueError, AttributeError):
        return DEFAULT_DEPTH
    return depth if depth in DEPTHS else DEFAULT_DEPTH


def stored_text(text: str, depth: int, report) -> str:
    kept = sum(1 for c in report.choices if c.kept)
    return urlencode({"h": text, "d": depth, "kept": kept, "bl": report.blunders,
                      "n": report.positions})


def read_stored(voter: str, text: str, sent: int) -> Submitted | None:
    """A stored answer, None when it cannot be read (written by another version)."""
    d = dict(parse_qsl(text or ""))
    try:
        h = format_weights(parse(d["h"]))
        kept, n = int(d["kept"]), int(d["n"])
        return Submitted(voter, "", h, int(d["d"]), kept / n if n else 0.0, int(d["bl"]), n,
                         sent)
    except (KeyError, ValueError):
        return None


def tournament_name(nickname: str) -> str:
    """A nickname as an entrant's name: printable, no colon (the tournament's link writes
    ``name:weights``), at most ``tournament.MAX_NAME`` characters."""
    name = "".join(c for c in nickname if c.isprintable() and c != ":").strip()
    return name[:MAX_NAME]


def named(found: list[Submitted], names: dict[str, str]) -> list[Submitted]:
    """Each heuristic with its student's name: the nickname, else ``S01``... in the order
    they first sent; two equal names (any case) get `` (2)``, `` (3)``..."""
    out, seen = [], set()
    for i, s in enumerate(found, 1):
        base = tournament_name(names.get(s.voter, "")) or f"S{i:02d}"
        name, k = base, 1
        while name.casefold() in seen:
            k += 1
            suffix = f" ({k})"
            name = base[:MAX_NAME - len(suffix)] + suffix
        seen.add(name.casefold())
        out.append(Submitted(s.voter, name, s.heuristic, s.depth, s.accuracy, s.blunders,
                             s.positions, s.sent))
    return out


def class_heuristics(store, code: str) -> list[Submitted]:
    """The heuristics class ``code``'s students sent, each student's latest (of every
    "build your heuristic" the teacher sent, the last they answered), in the order the
    students first sent one: ``Submitted`` (``name``, ``heuristic``, ``accuracy``, ``depth``,
    ``blunders``, ``positions``...), ready to enter in a tournament.

    ``name``: the student's nickname (checked as every nickname is: at most 24 characters),
    colons and unprintable characters taken out, else ``S01``, ``S02``... (by the order they
    first sent); unique in the class, ignoring case (`` (2)`` added to a repeated one), at most
    ``ai.games.connect4.tournament.MAX_NAME`` characters: ``f"{s.name}:{s.heuristic}"`` is an
    entrant of ``/connect4/tournament``'s link, and ``tournament.Entrant(s.name,
    s.heuristic)`` one of its own. ``heuristic``: the text ``terms.parse`` reads, as
    ``terms.format_weights`` writes it. ``accuracy``: a fraction, measured when it was sent at
    the class's ``depth`` on the workshop's positions (``accuracy.measure``): reading them
    searches nothing. An empty list for a class with none (or gone); ``StoreError`` when the
    store fails."""
    a = answers_of(store)
    latest: dict[str, Submitted] = {}
    order: list[str] = []
    for act in a.history(code):
        if act.kind != KIND:
            continue
        for voter, g in a.all_given(code, act.seq).items():
            s = read_stored(voter, g.latest, g.sent)
            if s is None:
                continue
            if voter not in latest:
                order.append(voter)
            latest[voter] = s
    return named([latest[v] for v in order], store.names(code) if order else {})


def csv_rows(found: list[Submitted]) -> list[list]:
    """The class's heuristics as CSV rows (``web.spreadsheet`` makes every cell one a
    spreadsheet does not run)."""
    rows = [["student", "heuristic", "depth", "accuracy", "blunders", "positions", "sent"]]
    for s in found:
        rows.append([s.name, s.heuristic, s.depth, f"{s.accuracy:.4f}", s.blunders,
                     s.positions, s.sent])
    return rows


# -- what the class pages draw (the game's hook ``class_activity``) -----------------------------

@dataclass
class ClassWorkshop:
    """The workshop's part of a class page (``web.classroom.page.ClassPage``): the teacher's
    start form, the teacher's list, the phone's form."""

    page: object                    # web.classroom.page.ClassPage

    template = "games/connect4/_class_workshop.html"
    depths = DEPTHS
    default_depth = DEFAULT_DEPTH

    @property
    def activity(self):
        a = self.page.av.activity
        return a if a is not None and a.kind == KIND else None

    @property
    def shown(self) -> bool:
        """Whether the class is on "build your heuristic" now."""
        return self.activity is not None and not self.activity.data.get("ended")

    @property
    def depth(self) -> int:
        return activity_depth(self.activity)

    @cached_property
    def heuristics(self) -> list[Submitted]:
        """The teacher's list: this activity's answers, best accuracy first."""
        data = self.page.data
        found = [s for s in (read_stored(v, g.latest, g.sent) for v, g in data.given.items())
                 if s is not None]
        return sorted(named(found, data.names), key=lambda s: (-s.accuracy, s.blunders))

    @cached_property
    def mine(self) -> Submitted | None:
        g = self.page.data.mine
        return read_stored("", g.latest, g.sent) if g else None

    def workshop_url(self, text: str | None = None) -> str:
        """The workshop at the class's depth, from the student's latest heuristic (seed 000's
        cell values at first), with its form to send it to the class."""
        h = text or (self.mine.heuristic if self.mine else workshop.DEFAULT_TEXT)
        return url_for("workshop.page", h=h, depth=self.depth, cls=self.page.view.code)

    def percent(self, x: float) -> float:
        return round(100 * x, 1)


def class_activity(page) -> ClassWorkshop:
    """The hook the shared class pages ask the game for (``web.classroom.page``)."""
    return ClassWorkshop(page)


# -- the teacher ---------------------------------------------------------------------------------

@bp.post("/class/<code>/heuristic")
def control(code):
    """Send "build your heuristic" (``start``, at ``depth``), ``close``, ``reopen``, ``end``."""
    state = cls.teacher_class(code)
    action = request.form.get("action", "")
    a = answers_of(cls.store())
    current = a.current(state.code)
    if action == "start":
        depth = read_int(request.form, "depth", DEFAULT_DEPTH, 1, workshop.MAX_DEPTH)
        a.start(state.code, KIND, {"depth": depth})
    elif current is None or current.kind != KIND:
        raise cls.ClassProblem(409, NO_WORKSHOP)
    elif action in ("close", "reopen"):
        a.change(state.code, current.seq, open=action == "reopen")
    elif action == "end":
        a.change(state.code, current.seq, open=False, data={"ended": True})
    else:
        raise BadRequest("unknown action: %(action)s", action=action[:20])
    return cls.bar_answer(cls.store().get(state.code) or state)


@bp.get("/class/<code>/heuristics.csv")
def heuristics_csv(code):
    """The class's heuristics (each student's latest), as CSV; after the class too."""
    state = cls.the_class(code, ended_ok=True)
    if not state.is_teacher(cls.teacher_secret(state.code)):
        raise cls.ClassProblem(403, cls.TEACHER_ONLY)
    return csv_response(csv_rows(class_heuristics(cls.store(), state.code)),
                        f"class-{state.code}-heuristics.csv")


# -- a student -------------------------------------------------------------------------------------

def read_heuristic(form) -> str:
    """The heuristic a student sent, as the parser writes it; BadRequest (translated) with
    the reason."""
    raw = (form.get("h") or "").strip()
    if not raw:
        raise BadRequest("Write your heuristic: name=weight pairs separated by commas, e.g. "
                         "%(example)s", "h", example="cells=1,open3=8")
    return format_weights(workshop.read_weights(form, "h", None))


@bp.post("/c/<code>/heuristic")
def send(code):
    """A student's heuristic: checked, measured at the class's depth, kept (the latest)."""
    state = cls.the_class(code)
    sid = cls.acting_student("vote")
    a = answers_of(cls.store())
    act = a.current(state.code)
    seq = request.form.get("seq", "")
    if act is None or act.kind != KIND or not act.open or (seq and seq != str(act.seq)):
        raise cls.ClassProblem(400, CLOSED)
    try:
        text = read_heuristic(request.form)
        depth = activity_depth(act)
        report = admitted(lambda: accuracy.measure(text, depth), heavy=False)
    except (BadRequest, Busy) as err:
        if not is_htmx():
            raise
        return cls.phone_block(cls.phone_page(state, sid), status=getattr(err, "status", 400),
                               error=tr(err), retry_after=getattr(err, "retry_after", None))
    from ..classroom.activities import student_answer
    return student_answer(state, sid, lambda: a.answer(state.code, act.seq, sid,
                                                       stored_text(text, depth, report),
                                                       again=True))


def init_app(app) -> None:
    app.register_blueprint(bp)


