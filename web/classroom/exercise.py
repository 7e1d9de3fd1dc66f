"""A class exercise: the teacher sends a tree of the lab (the course's, a random one, or one
typed in the lab, by its link) to every phone; each student answers as in the lab (node
values, α and β on entry, the pruned branches) and is marked as there; the projector shows,
live and anonymous, how many finished, the share right per node (first tries), and the node
missed most, which the teacher can open with the answers given there. The results export as
CSV, per question and per anonymous student (nicknames if given), during and after the class.
"""
from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ai.teach.exercise import Answer, check, name as name_of, questions
from ai.teach.exercise_tree import RANDOM_DEPTHS

from ..exercise import COURSE_TREE_TITLES, LAB_PARAMS, LabPanel, new_seed, parse_answer, parse_lab
from ..notation import number_value, use_lab_values
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
    the teacher's dashboard again), with what the exercise asks (``asked``: its questions in
    tree order; ``names``: the nodes they ask about, in that order)."""
    with _lock:
        if lab in _cache:
            _cache.move_to_end(lab)
            return _cache[lab]
    made = parse_lab(MultiDict(parse_qsl(lab)))
    made["mode"] = "exercise"
    made["asked"] = asked = questions(made["solved"])
    made["names"] = list(dict.fromkeys(q.name for q in asked))
    # for ``marked``: every node's name, and those a tick is no mistake on (a pruned branch,
    # below one, or the root: as ``ai.teach.exercise.check`` counts them)
    paths = made["solved"].paths.values()
    pruned = {q.path for q in asked if q.what == "pruned"}
    made["node_names"] = {name_of(p) for p in paths}
    made["tick_ignored"] = {name_of(p) for p in paths
                            if not p or any(p[:i] in pruned for i in range(len(p) + 1))}
    made["marking"] = [(q.key, q.name, q.what == "pruned", q.accepted) for q in asked]
    with _lock:
        _cache[lab] = made
        while len(_cache) > 32:
            _cache.popitem(last=False)
    return made


@dataclass(frozen=True)
class Marked:
    """What the dashboard and the CSV count of one answer text, marked as the lab marks it:
    each question's state in the order asked (one character: r right, w wrong, m missing,
    t typo), the nodes (their indices in ``names``) all of whose marks are right, how many
    questions are right, and whether all is right. About a kilobyte: kept for the last
    ``MARKED_KEPT`` answers of the worker, so that a redraw after one more answer checks that
    one alone (a class of 100 on a tree of 400 nodes was 1.9-3.3 s per draw on a loaded
    machine, issue 37)."""

    states: str
    names_right: tuple
    right: int
    done: bool

    def ok(self, i: int) -> bool:
        return self.states[i] == "r"


MARKED_KEPT = 4096
_marked: OrderedDict = OrderedDict()


def marked(lab: str, text: str) -> Marked | None:
    """Answer ``text`` to the exercise ``lab`` marked (``Marked``), None when this tree cannot
    read it (a node it does not have). Marked once, then kept (see ``Marked``)."""
    key = hashlib.blake2b(f"{lab}\0{text}".encode(), digest_size=16).digest()
    with _lock:
        if key in _marked:
            _marked.move_to_end(key)
            return _marked[key]
    found = solved(lab)
    try:
        made = _mark(found, answer_of(text, found["max_score"]))
    except (BadRequest, ValueError):
        made = None                  # an answer this tree cannot read: not counted
    with _lock:
        _marked[key] = made
        while len(_marked) > MARKED_KEPT:
            _marked.popitem(last=False)
    return made


def _mark(found: dict, answer: Answer) -> Marked | None:
    """The states ``ai.teach.exercise.check`` gives each question, without its notes and
    hints (a tenth of its time: tests/test_class_dashboard.py checks that they agree)."""
    named = {key.split(".", 1)[1] for key in answer.numbers} | set(answer.ticked)
    if not named <= found["node_names"]:
        return None
    states, wrong = [], {n for n in answer.ticked if n not in found["tick_ignored"]}
    numbers, ticked = answer.numbers, answer.ticked
    for key, name, pruned, accepted in found["marking"]:
        if pruned:
            state = "r" if name in ticked else "w"
        else:
            given = numbers.get(key)
            state = ("m" if given is None else "t" if isinstance(given, str)
                     else "r" if given in accepted else "w")
        states.append(state)
        if state != "r":
            wrong.add(name)
    right = states.count("r")
    return Marked("".join(states),
                  tuple(i for i, n in enumerate(found["names"]) if n not in wrong),
                  right, not wrong)


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
        """The tree sent, solved; the page writes its values as the lab does, ±maxScore as
        ±M in the course's notation where the tree has the course's window
        (``web.notation.use_lab_values``)."""
        found = solved(self.activity.data["lab"])
        use_lab_values(found)
        return found

    @property
    def solved(self):
        return self.lab["solved"]

    @property
    def ab(self) -> bool:
        return self.solved.algorithm == "alphabeta"

    @cached_property
    def panel(self) -> LabPanel:
        return LabPanel(self.solved, {}, exercise=True)

    @property
    def asked(self):
        return self.lab["asked"]

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
        """voter -> (first try's marks, latest's marks) (``Marked``), each answer checked once
        in this worker (``marked``): a redraw costs the new answers' checks and one pass."""
        lab = self.activity.data["lab"]
        out = {}
        for voter, g in self.given.items():
            first = marked(lab, g.first)
            latest = first if g.latest == g.first else marked(lab, g.latest)
            if first is not None and latest is not None:
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
        right = Counter()
        for first, _ in self.reports.values():
            right.update(first.names_right)
        n = self.answered
        return [NodeShare(name, right[i], n, round(100 * right[i] / n) if n else 0)
                for i, name in enumerate(self.lab["names"])]

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
        asked = [q for q in self.asked if q.name == name]
        given = [Counter() for _ in asked]
        for voter, g in self.given.items():
            a = answer_of(g.first, self.lab["max_score"])
            for q, count in zip(asked, given):
                if q.what == "pruned":
                    count["✓" if name in a.ticked else "—"] += 1
                else:
                    v = a.numbers.get(q.key)
                    count["—" if v is None else v if isinstance(v, str) else number_value(v)] += 1
        return [(q.what, "✓" if q.what == "pruned" else number_value(q.answer),
                 count.most_common(6))
                for q, count in zip(asked, given)]

    # -- CSV --

    def csv_questions(self) -> list[list]:
        """The rows of the CSV per question (``web.spreadsheet`` writes them), the values as
        the projector writes them (``number_value``: −∞, +∞, 2,5)."""
        rows = [["node", "asked", "answer", "answered", "right_first_try", "right_now",
                 "share_right_first_try", "most_common_wrong"]]
        firsts = {voter: answer_of(self.given[voter].first, self.lab["max_score"])
                  for voter, (first, _) in self.reports.items() if "w" in first.states}
        n = len(self.reports)
        for i, q in enumerate(self.asked):
            answered = right_first = right_now = 0
            wrong = Counter()
            for voter, (first, latest) in self.reports.items():
                answered += first.states[i] != "m"
                right_first += first.ok(i)
                right_now += latest.ok(i)
                if first.states[i] == "w" and q.what != "pruned":
                    v = firsts[voter].numbers.get(q.key)
                    wrong[number_value(v) if not isinstance(v, str) else v] += 1
            rows.append([q.name, q.what, "yes" if q.what == "pruned" else number_value(q.answer),
                         answered, right_first, right_now,
                         f"{100 * right_first / n:.0f}" if n else "",
                         wrong.most_common(1)[0][0] if wrong else ""])
        return rows

    def csv_students(self) -> list[list]:
        """The rows of the CSV per student: nicknames, the answers' values as the projector
        writes them (``number_value``: −∞, 2,5) and any other text as typed (``web.spreadsheet``
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
                    cells.append("" if v is None else v if isinstance(v, str) else number_value(v))
            rows.append([f"S{i:02d}", names.get(voter, ""), g.sent, first.right,
                         latest.right, len(self.asked), "yes" if latest.done else "no", *cells])
        return rows


LAB_KEYS = LAB_PARAMS
