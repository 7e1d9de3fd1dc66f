"""A class exercise: the teacher sends a tree of the lab (the course's, a random one, or one
typed in the lab, by its link) to every phone; each student answers as in the lab (node
values, α and β on entry, the pruned branches) and is marked as there; the projector shows,
live and anonymous, how many finished, the share right per node (first tries), and the node
missed most, which the teacher can open with the answers given there. The results export as
CSV, per question and per anonymous student (nicknames if given), during and after the class.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ai.teach.exercise import Answer, check, fmt, questions
from ai.teach.exercise_tree import RANDOM_DEPTHS

from ..exercise import COURSE_TREE_TITLES, LAB_PARAMS, LabPanel, new_seed, parse_answer, parse_lab
from ..params import BadRequest

KEPT = ("t", "ex", "seed", "rd", "algo", "root", "window", "order")   # the tree and its search
WHAT_LABELS = {"value": _l("value"), "alpha": "α", "beta": "β", "pruned": _l("pruned")}


def source_of(form) -> dict:
    """The tree the teacher sends, from the bar's form: ``source`` = ``ex:<course tree>``,
    ``random:<depth>`` (a new seed drawn now), or ``link`` with ``link`` = a lab link
    (``/tree?...``, the tree and settings it names); ``algo`` alpha-beta or minimax. Checked by
    solving it (a BadRequest says what is wrong)."""
    source = form.get("source", "")
    if source.startswith("ex:") and source[3:] in COURSE_TREE_TITLES:
        params = {"ex": source[3:]}
    elif source.startswith("random:") and source[7:].isdigit() \
            and int(source[7:]) in RANDOM_DEPTHS:
        params = {"seed": str(new_seed()), "rd": source[7:]}
    elif source == "link":
        link = (form.get("link") or "").strip()
        try:
            parts = urlsplit(link)
        except ValueError:
            parts = None
        if parts is None or not parts.path.rstrip("/").endswith("/tree"):
            raise BadRequest("not a link of the exercise lab: %(link)s", "link",
                             link=link[:60])
        params = {k: v for k, v in parse_qsl(parts.query) if k in KEPT}
        if not params.get("t") and not params.get("ex") and not params.get("seed"):
            params["t"] = parse_lab({})["text"]
    else:
        raise BadRequest("choose a tree to send", "source")
    if form.get("algo") in ("alphabeta", "minimax") and "algo" not in params:
        params["algo"] = form["algo"]
    solved(urlencode(params))             # a tree that cannot be solved is a 400 here
    return params


_cache: OrderedDict = OrderedDict()
_lock = threading.Lock()


def solved(lab: str) -> dict:
    """``web.exercise.parse_lab`` of a lab query, kept for the last few (every ballot draws
    the teacher's dashboard again)."""
    with _lock:
        if lab in _cache:
            _cache.move_to_end(lab)
            return _cache[lab]
    made = parse_lab(MultiDict(parse_qsl(lab)))
    made["mode"] = "exercise"
    with _lock:
        _cache[lab] = made
        while len(_cache) > 32:
            _cache.popitem(last=False)
    return made


def answer_text(form, answer: Answer) -> str:
    """A student's answer as the store keeps it: the fields they filled, the nodes ticked,
    and the wrong tries it was sent with (a check of it gives the same marks again)."""
    pairs = [(k, v.strip()) for k, v in form.items(multi=True)
             if k[:2] in ("v.", "a.", "b.") and v.strip()]
    pairs += [("p", n) for n in sorted(answer.ticked)]
    pairs += [("w", k) for k, n in sorted(answer.tries.items()) for _ in range(n)]
    return urlencode(pairs)


def answer_of(text: str, max_score: float) -> Answer:
    return parse_answer(MultiDict(parse_qsl(text or "", keep_blank_values=False)), max_score)


@dataclass(frozen=True)
class NodeShare:
    name: str
    right: int                 # students right at every question of this node, first try
    answered: int              # students who sent an answer
    share: int                 # percent


@dataclass
class ExerciseView:
    """The class's exercise (an activity of kind "exercise") for a page: the phone's form
    and marks, the projector's dashboard, the CSV."""

    activity: object           # web.classroom.answers.Activity
    given: dict                # voter -> Given (the dashboard; {} on a phone)
    mine: object = None        # this student's Given, on a phone
    names: dict | None = None  # voter -> nickname

    @cached_property
    def lab(self) -> dict:
        return solved(self.activity.data["lab"])

    @property
    def solved(self):
        return self.lab["solved"]

    @property
    def ab(self) -> bool:
        return self.solved.algorithm == "alphabeta"

    @cached_property
    def panel(self) -> LabPanel:
        return LabPanel(self.solved, {}, exercise=True)

    @cached_property
    def asked(self):
        return questions(self.solved)

    def path_text(self, path) -> str:
        return self.panel.path_text(path)

    # -- a phone --

    @cached_property
    def answer(self) -> Answer:
        return answer_of(self.mine.latest, self.lab["max_score"]) if self.mine else Answer()

    @cached_property
    def report(self):
        return check(self.solved, self.answer) if self.mine else None

    # -- the dashboard --

    @cached_property
    def reports(self) -> dict:
        """voter -> (first try's report, latest's report)."""
        out = {}
        for voter, g in self.given.items():
            try:
                first = check(self.solved, answer_of(g.first, self.lab["max_score"]))
                latest = first if g.latest == g.first else check(
                    self.solved, answer_of(g.latest, self.lab["max_score"]))
            except (BadRequest, ValueError, Exception):
                continue            # an answer this tree cannot read: not counted
            out[voter] = (first, latest)
        return out

    @property
    def answered(self) -> int:
        return len(self.reports)

    @property
    def finished(self) -> int:
        return sum(1 for _, latest in self.reports.values() if latest.done)

    @cached_property
    def nodes(self) -> list[NodeShare]:
        """Each node asked about, in tree order, with the share of students right at all
        its questions at their first try."""
        names = []
        for q in self.asked:
            if q.name not in names:
                names.append(q.name)
        out = []
        n = self.answered
        for name in names:
            right = 0
            for first, _ in self.reports.values():
                marks = [m for m in first.marks if m.name == name]
                if marks and all(m.ok for m in marks):
                    right += 1
            out.append(NodeShare(name, right, n, round(100 * right / n) if n else 0))
        return out

    @property
    def most_missed(self) -> NodeShare | None:
        if not self.answered:
            return None
        worst = min(self.nodes, key=lambda s: s.share, default=None)
        return worst if worst is not None and worst.share < 100 else None

    @property
    def open_node(self) -> str | None:
        return self.activity.data.get("open_node") or None

    def node_detail(self, name: str) -> list[tuple]:
        """The node the teacher opened: each of its questions with the right answer and the
        first answers given, most common first ([(what, right answer, [(given, n)...])])."""
        out = []
        for q in self.asked:
            if q.name != name:
                continue
            given = Counter()
            for voter, g in self.given.items():
                a = answer_of(g.first, self.lab["max_score"])
                if q.what == "pruned":
                    given["✓" if name in a.ticked else "—"] += 1
                else:
                    v = a.numbers.get(q.key)
                    given["—" if v is None else v if isinstance(v, str) else fmt(v)] += 1
            right = "✓" if q.what == "pruned" else fmt(q.answer)
            out.append((q.what, right, given.most_common(6)))
        return out

    # -- CSV --

    def csv_questions(self) -> list[list]:
        """The rows of the CSV per question (``web.spreadsheet`` writes them)."""
        rows = [["node", "asked", "answer", "answered", "right_first_try", "right_now",
                 "share_right_first_try", "most_common_wrong"]]
        for q in self.asked:
            answered = right_first = right_now = 0
            wrong = Counter()
            for voter, (first, latest) in self.reports.items():
                fm = next((m for m in first.marks if m.key == q.key), None)
                lm = next((m for m in latest.marks if m.key == q.key), None)
                if fm is not None and fm.state != "missing":
                    answered += 1
                right_first += bool(fm and fm.ok)
                right_now += bool(lm and lm.ok)
                if fm is not None and fm.state == "wrong" and q.what != "pruned":
                    v = answer_of(self.given[voter].first, self.lab["max_score"]).numbers.get(q.key)
                    wrong[fmt(v) if not isinstance(v, str) else v] += 1
            n = len(self.reports)
            rows.append([q.name, q.what, "yes" if q.what == "pruned" else fmt(q.answer),
                         answered, right_first, right_now,
                         f"{100 * right_first / n:.0f}" if n else "",
                         wrong.most_common(1)[0][0] if wrong else ""])
        return rows

    def csv_students(self) -> list[list]:
        """The rows of the CSV per student: nicknames and answers as typed (``web.spreadsheet``
        makes them cells a spreadsheet does not run)."""
        keys = [q.key for q in self.asked]
        rows = [["student", "nickname", "answers_sent", "right_first_time", "right_now",
                 "questions", "finished", *keys]]
        names = self.names or {}
        for i, (voter, (first, latest)) in enumerate(self.reports.items(), 1):
            g = self.given[voter]
            a = answer_of(g.latest, self.lab["max_score"])
            cells = []
            for q in self.asked:
                if q.what == "pruned":
                    cells.append("pruned" if q.name in a.ticked else "")
                else:
                    v = a.numbers.get(q.key)
                    cells.append("" if v is None else v if isinstance(v, str) else fmt(v))
            rows.append([f"S{i:02d}", names.get(voter, ""), g.sent, first.right,
                         latest.right, latest.total, "yes" if latest.done else "no", *cells])
        return rows


LAB_KEYS = LAB_PARAMS
