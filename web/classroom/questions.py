"""What the class answers, decided here so that the templates only draw: peer instruction on
the vote (counts hidden until the vote closes, a discussion, a re-vote, both histograms, the
AI's choice and the exact outcome of every move), "predict the next step" questions on the
real tree of a step-by-step replay, and the summary of the lesson's rounds.

A question is made from the search the teacher's board replays (``web.tree_panel.tree_panel``, the
same search the projector draws), at the step the board is at: the next event of that
search decides the answer. Four kinds:

- ``window`` "what is α here?": the next event enters a node (its α on entry) or moves its
  window (α, or β when only β moves);
- ``cut`` "is there a cut-off here?": a node whose child has just returned; the next event
  at that node is a cut-off (yes) or the next child entered (no);
- ``value`` "what value does this node get?": the next event scores a leaf or returns a node;
- ``move`` "which move does the search try next?": the next event enters a child; the
  choices are the node's moves not tried yet.

Nothing of the answer reaches the phones before the teacher reveals it (the question's data
is in the store; the pages draw only its prompt and choices). At the reveal the class's split
(each first answer and how many gave it) is kept with the question, and every phone shows it
as the projector's chart counts it (``question_split``), its own answer marked.
"""
from __future__ import annotations

import math
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, replace
from functools import cached_property
from urllib.parse import parse_qsl

import flask
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ai.course.scores import MAX_SCORE
from ai.messages import N_

from .answers import Activity, answers_of
from ..admission import Busy
from ..i18n import tr
from .view import CHART_HEIGHT, CHART_WIDTH, Choice, ClassView, stored_game
from ..notation import (kept_number, node_text, number_text, read_value, same_value,
                        value_text, writes_estimate)

KINDS = ("window", "cut", "value", "move")
KIND_LABELS = {"window": _l("What is α here?"), "cut": _l("Is there a cut-off here?"),
               "value": _l("What value does this node get?"),
               "move": _l("Which move does the search try next?")}
DISCUSS_TIMES = (0, 60, 120, 180)      # seconds: the discussion's optional timer
NUMBER_BARS = 6                        # a number question's chart: the 6 answers given most
LABEL_CHAR = 16                        # SVG units a character of a bar's label takes at most
#                                        (the chart's bold 26-unit font: .vote-chart .label)
TABLE_EVENTS = ("probe", "store")      # the table's own steps: no question about them
OUTCOME_LIMIT = 0.4                    # seconds per move for its exact outcome
OUTCOME_NODES = 3_000_000


# -- predict the next step ---------------------------------------------------------------------

@dataclass(frozen=True)
class Asked:
    """A question about the next step, as the store keeps it (``data``): what is asked, of
    which node, the choices (or a number), the answer, and the step that shows it."""

    kind: str
    what: str                 # "alpha", "beta", "cut", "value", "move"
    max_node: bool            # the node asked about is a max node
    node: str                 # its path as the game writes moves ("4 3"), "" for the root
    choices: tuple            # labels to choose from; () for a number
    answer: str               # the right choice, or the number as text ("3", "-inf")
    then: int                 # the step that shows the answer
    edges: tuple = ()         # the moves on its edges, one by one ("3", "2")
    left: int | None = None   # what the game counts there (the course writes it in the node)
    estimates: bool = False   # the tree writes values as the course's estimate, M − 3/5

    @property
    def data(self) -> dict:
        return {"kind": self.kind, "what": self.what, "max": self.max_node,
                "node": self.node, "choices": list(self.choices), "answer": self.answer,
                "then": self.then, "edges": list(self.edges), "left": self.left,
                "estimates": self.estimates}


def read_answer(raw: str) -> str | None:
    """A typed value as kept (``web.notation.read_value``: −M, -M, M, +M, −∞, -inf, 2,5,
    M − 1/5, M − 0,2...), or None when it is not one: a number beyond ±maxScore is no
    search's value (only ±∞ are), and the charts could not write it."""
    kept = read_value(raw)
    number = kept_number(kept) if kept is not None else None
    if number is not None and math.isfinite(number) and abs(number) > MAX_SCORE:
        return None
    return kept


def _skip(events, i, kinds=TABLE_EVENTS):
    while i < len(events) and events[i][0] in kinds:
        i += 1
    return i


def questions_at(panel) -> dict[str, Asked | int | None]:
    """For a tree panel replayed to its step: each kind's question about the next step, or
    (an int) the step where the next one can be asked, or None when no step ahead has one."""
    tree = panel.result.tree
    events = tree.events
    step = panel.step or 0
    found = {}
    for kind in KINDS:
        if kind == "window" and not panel.has_window:
            found[kind] = None
            continue
        asked = None
        for at in range(step, len(events)):
            asked = _question(panel, kind, at)
            if asked is not None:
                break
        found[kind] = asked if asked is None or at == step else at
    if any(isinstance(a, Asked) for a in found.values()):
        # whether a phone's hint names M − 1/5: only where the tree writes such a value
        estimates = panel.g.settings.notation == "course" and writes_estimate(
            n.value for n in tree.nodes)
        found = {k: replace(a, estimates=estimates) if isinstance(a, Asked) else a
                 for k, a in found.items()}
    return found


def _name(panel, node_id):
    """The node and how the projector's tree names it: its path as the game writes moves,
    the moves on its edges, what the game counts there (``web.notation.node_text``)."""
    from ai.teach.tree_view import path_of
    node = panel.result.tree.nodes[node_id]
    path = path_of(panel.result.tree, node)
    return node, panel.path_text(path), {
        "edges": tuple(panel.g.rules.format_move(m) for m in path), "left": panel.left_at(path)}


def _question(panel, kind, at) -> Asked | None:
    """The question of ``kind`` about the step after ``at`` events, if that step has one."""
    tree = panel.result.tree
    events = tree.events
    i = _skip(events, at)
    if i >= len(events) or (i > at and kind != "cut"):
        return None        # a table's step comes first: ask after it
    e = events[i]
    if kind == "window" and e[0] in ("enter", "update"):
        node, where, named = _name(panel, e[1])
        what = "alpha"
        if e[0] == "update":
            before = _window_before(events, i, e[1])
            if before is not None and before[0] == e[2]:
                what = "beta"
        value = e[2] if what == "alpha" else e[3]
        return Asked(kind, what, node.is_max, where, (), number_text(value), i + 1, **named)
    if kind == "value" and e[0] in ("leaf", "exit", "table"):
        node, where, named = _name(panel, e[1])
        return Asked(kind, "value", node.is_max, where, (), number_text(e[2]), i + 1, **named)
    if kind == "move" and e[0] == "enter" and tree.nodes[e[1]].parent is not None:
        child = tree.nodes[e[1]]
        parent, where, named = _name(panel, child.parent)
        entered = {ev[1] for ev in events[:i] if ev[0] == "enter"}
        left = [tree.nodes[c] for c in parent.children if c not in entered]
        if len(left) < 2:
            return None        # one move left: nothing to predict
        labels = sorted({panel.g.rules.format_move(c.move) for c in left}, key=_order)
        return Asked(kind, "move", parent.is_max, where, tuple(labels),
                     panel.g.rules.format_move(child.move), i + 1, **named)
    if kind == "cut":
        # a node whose child has just returned: its next own event (its window moved first)
        if at == 0 or events[at - 1][0] not in ("exit", "leaf", "table"):
            return None
        child = tree.nodes[events[at - 1][1]]
        if child.parent is None:
            return None
        parent_id = child.parent
        j = _skip(events, at, TABLE_EVENTS + ("update",))
        if j >= len(events):
            return None
        e = events[j]
        node, where, named = _name(panel, parent_id)
        if e[0] == "cut" and e[1] == parent_id:
            return Asked(kind, "cut", node.is_max, where, ("yes", "no"), "yes", j + 1, **named)
        if e[0] == "enter" and tree.nodes[e[1]].parent == parent_id:
            return Asked(kind, "cut", node.is_max, where, ("yes", "no"), "no", j, **named)
        return None        # its last child: no cut-off to ask about
    return None


def _window_before(events, i, node_id):
    for e in reversed(events[:i]):
        if e[1] == node_id and e[0] in ("enter", "update"):
            return e[2], e[3]
    return None


def _value_order(text):
    value = read_value(text)
    return float(value.replace("M", "1e9")) if value else 0.0


def _order(label):
    try:
        return (0, float(label))
    except ValueError:
        return (1, label)


_cache: OrderedDict = OrderedDict()
_cache_lock = threading.Lock()


def board_questions(state, *, limit: int = 64):
    """``questions_at`` for the class's board (its stored link, at its step), or None when
    the board shows no step-by-step replay. Kept for the last few boards: the teacher's bar
    is drawn again at each ballot, the search behind it once. Busy (``web.admission``) when
    the search behind them finds no slot in its lane: the server's state, not the board's,
    so nothing is kept, and a request that asks twice (an ask, then its bar) is refused
    once, without waiting for the lane again."""
    args = MultiDict(parse_qsl(state.query))
    if args.get("step") in (None, "") or args.get("tree") != "1":
        return None
    key = (state.game, state.query)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    refused = flask.g.setdefault("questions_refused", {})
    if key in refused:
        raise refused[key]
    from ..tree_panel import TreePanel, tree_panel
    g = stored_game(state.game, state.query)
    try:
        # only a replay has questions: a larger search's panel (10-31 ms to build, where the
        # bar is drawn) is not built
        panel = tree_panel(g, args, replay_only=True)
    except Busy as err:          # no search slot just now: asked again next time
        refused[key] = err
        raise
    except Exception:            # a board that cannot be replayed is no question, never a 500
        panel = None
    found = (questions_at(panel) if isinstance(panel, TreePanel) and panel.step is not None
             else None)
    with _cache_lock:
        _cache[key] = found
        while len(_cache) > limit:
            _cache.popitem(last=False)
    return found


# -- exact outcomes ------------------------------------------------------------------------------

OUTCOME_LABELS = {"win": _l("wins"), "draw": _l("draws"), "loss": _l("loses"),
                  "unknown": _l("not proven in time")}


def exact_outcomes(g) -> dict[str, str]:
    """Each move of the position ``g`` shows, with its exact outcome for the player who
    plays it ("win", "draw", "loss"), or "unknown" when it was not proven within the budget
    (``OUTCOME_LIMIT`` a move). The game's exact play (``ai.perfect``): its solver, its
    theory, or alpha-beta to the end."""
    from ai.perfect import perfect_play

    rules, state = g.rules, g.state
    me = rules.to_move(state)
    found = {}
    for move in sorted(rules.actions(state)):
        child = rules.result(state, move)
        label = rules.format_move(move)
        if rules.is_terminal(child):
            u = rules.utility(child, me)
            found[label] = "win" if u > 0 else "loss" if u < 0 else "draw"
            continue
        try:
            r = perfect_play(rules, child, time_limit=OUTCOME_LIMIT, max_nodes=OUTCOME_NODES)
        except Exception:
            found[label] = "unknown"
            continue
        if not r.complete:
            found[label] = "unknown"
            continue
        theirs = r.value if rules.to_move(child) != me else -r.value
        found[label] = "win" if theirs < 0 else "loss" if theirs > 0 else "draw"
    return found


# -- what the pages show ------------------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    height: float
    right: bool = False
    ai: bool = False


@dataclass(frozen=True)
class Share:
    """One answer of the class's split as a phone shows it after the reveal: the projector's
    bar (its label as the projector writes it), its share of the answers in percent, whether
    it is the right one and whether it holds this student's answer."""
    label: str
    count: int
    share: int
    right: bool = False
    mine: bool = False


def bars(labels, counts: Counter, *, right=(), ai=None) -> list[Bar]:
    most = max(counts.values(), default=0) or 1
    return [Bar(x, counts.get(x, 0), CHART_HEIGHT * counts.get(x, 0) / most, x in right,
                x == ai) for x in labels]


@dataclass
class ActivityView:
    """The class's activity (``web.classroom.answers``) and its peer-instruction settings as one
    page shows them, from what the view read (``view.data``); ``sid`` the student looking, if
    one is."""

    view: ClassView
    sid: str | None = None

    @property
    def activity(self) -> Activity | None:
        return self.view.data.activity

    @property
    def settings(self) -> dict:
        return self.view.data.settings

    @property
    def hide_counts(self) -> bool:
        """Counts stay hidden until the teacher closes the vote (on by default)."""
        return self.settings.get("hide", "1") == "1"

    chart_bar_width = CHART_WIDTH
    chart_height = CHART_HEIGHT

    # -- peer instruction --

    @cached_property
    def peer(self) -> Activity | None:
        """The round's peer instruction (a discussion, a re-vote), if it has one."""
        a = self.activity
        st = self.view.state
        if a is None or a.kind != "peer" or not st.round:
            return None
        return a if st.round in (a.data.get("first"), a.data.get("second")) else None

    @property
    def phase(self) -> str:
        """"vote" (a first vote), "discuss", "revote", "both" (the re-vote closed: both
        histograms) for the class's current round."""
        p, st = self.peer, self.view.state
        if p is None:
            return "vote"
        if st.round == p.data.get("first"):
            return "discuss"
        return "revote" if st.vote_open else "both"

    @property
    def counts_hidden(self) -> bool:
        """Whether the projector hides the current round's counts: the vote open (hidden
        counts on), or closed but not shown yet (the teacher may go on to a discussion)."""
        st = self.view.state
        if not self.hide_counts or not st.round or st.reveal:
            return False
        if st.vote_open:
            return True
        if self.phase == "both":
            return False
        return self.settings.get(f"shown:{st.round}") != "1"

    @cached_property
    def expected(self) -> int:
        """How many may answer: the students following, or more when more voted already
        (a re-vote expects at least the first vote's number)."""
        most = max(self.view.followers, self.view.votes)
        if self.phase == "revote":
            most = max(most, sum(self.round_tally(self.peer.data.get("first")).values()))
        return most

    @property
    def discuss_until(self) -> float:
        return float(self.peer.data.get("until", 0)) if self.peer else 0.0

    @property
    def discuss_left(self) -> int:
        return max(0, int(self.discuss_until - time.time() + 0.999)) if self.discuss_until else 0

    def round_tally(self, round_: int) -> Counter:
        """A round's tally: the current one's, or one the peer activity compares."""
        return self.view.data.round_tally(round_) if round_ else Counter()

    @cached_property
    def both(self) -> list[tuple[str, list[Bar], int]]:
        """The first vote's histogram and the second's, side by side."""
        p = self.peer
        if p is None or self.phase != "both" or self.view.vote_g is None:
            return []
        labels = self.view.moves_of(self.view.vote_g)
        ai = self.view.state.reveal or None
        right = self.best_moves if self.view.state.reveal else set()
        out = []
        for title, r in ((_l("First vote"), p.data.get("first")),
                         (_l("After discussion"), p.data.get("second"))):
            t = self.round_tally(r)
            out.append((title, bars(labels, t, right=right, ai=ai), sum(t.values())))
        return out

    @property
    def outcomes(self) -> dict[str, str]:
        """The exact outcome of every move of the round's position, once revealed."""
        rec = self.round_record(self.view.state.round)
        return rec.get("out", {}) if rec else {}

    @property
    def best_moves(self) -> set[str]:
        """The moves framed as the best once revealed: those of the best outcome, when some
        move does worse (when every move loses, or all draw, none is framed as "best")."""
        found = self.outcomes
        if len(set(found.values()) - {"unknown"}) < 2:
            return set()
        return {m for m, o in found.items() if o == self.best_outcome}

    @property
    def best_outcome(self) -> str | None:
        found = set(self.outcomes.values())
        return next((o for o in ("win", "draw", "loss") if o in found), None)

    def round_record(self, round_: int) -> dict | None:
        import json
        raw = self.settings.get(f"round:{round_}")
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return None

    # -- a question --

    @cached_property
    def question(self) -> Activity | None:
        a = self.activity
        return a if a is not None and a.kind == "predict" else None

    @property
    def question_shown(self) -> bool:
        """A question open, or revealed while the board still replays the search at its
        step or after it (the teacher may step the tree while the class answers: the
        question, its count and its chart stay in view, on the projector and the phones
        alike, until the next question, a step back before it, or "Hide"); a cancelled
        one is gone."""
        q = self.question
        if q is None or q.data.get("cancelled"):
            return False
        asked_at = q.data.get("step")
        step = self.view.step
        return q.open or (q.revealed and step is not None and isinstance(asked_at, int)
                          and step >= asked_at)

    @property
    def question_given(self) -> dict:
        return self.view.data.given if self.question else {}

    @cached_property
    def question_firsts(self) -> Counter:
        """Each first answer given and how many gave it: from every answer (the teacher's
        page reads them all), else from the split kept at the reveal (a phone reads no one
        else's answer: ``web.classroom.activities.ask`` keeps it in the question's data)."""
        if self.question_given:
            return Counter(g.first for g in self.question_given.values())
        kept = (self.question.data.get("split") if self.question else None) or {}
        return Counter({k: int(n) for k, n in kept.items() if isinstance(n, int) and n > 0})

    @property
    def question_count(self) -> int:
        return sum(self.question_firsts.values())

    @property
    def my_answer(self) -> str | None:
        g = self.view.data.mine if self.sid else None
        return g.first if g else None

    def question_bars(self) -> list[Bar]:
        """The distribution of the answers given: every choice, or the values given most
        (the right one always among them), "other" for the rest. Values written alike on
        the projector are one bar (−M typed, -M typed, the −M button, D2 in the course's
        notation), labelled as the projector writes them."""
        q = self.question
        answer = q.data["answer"]
        firsts = self.question_firsts
        if q.data["choices"]:
            return bars(q.data["choices"], firsts, right={answer})
        right_text = value_text(answer)
        counts = Counter()
        for given, n in firsts.items():
            counts[right_text if self.is_right(given) else value_text(given)] += n
        top = [x for x, _ in counts.most_common(NUMBER_BARS)]
        if right_text not in top:
            top = top[:NUMBER_BARS - 1] + [right_text]
        order = {value_text(x): x for x in firsts}
        order[right_text] = answer
        labels = sorted(top, key=lambda x: _value_order(order.get(x, "0")))
        rest = sum(n for x, n in counts.items() if x not in labels)
        out = bars(labels, counts, right={right_text})
        if rest:
            most = max([*counts.values(), 1])
            out.append(Bar(OTHER, rest, CHART_HEIGHT * rest / most))
        return out

    def node_name(self, d: dict) -> str:
        """The node a question asks about, named as the projector's tree names it
        (``web.notation.node_text``), on the projector and the phones alike: "max 0 (after
        3, 2)" where the course writes the count in the node, else by the moves on its edges
        and the count in the game's words, as the tree's tooltips and narration name it
        ("max (after 3, 2; 4 left)")."""
        g = self.view.g
        return node_text(d.get("max", True), d.get("node", ""), d.get("edges") or (),
                         d.get("left"), left_first=g.settings.notation == "course"
                         and g.spec.left is not None, left_words=g.spec.words.left)

    @property
    def notation(self) -> str:
        """The class's notation: its board's (the projector's), which the phones write too."""
        return self.view.g.settings.notation

    @property
    def hint_estimates(self) -> bool:
        """Whether the value pad's hint names the course's estimate (M − 1/5): the class
        writes in the course's notation and the question's tree has such a value."""
        q = self.question
        return self.notation == "course" and q is not None and bool(q.data.get("estimates"))

    def is_right(self, given: str) -> bool:
        """Whether an answer to the question is right, however the projector or the course
        writes its value (``web.notation.same_value``)."""
        answer = self.question.data["answer"]
        if self.question.data["choices"]:
            return given == answer
        return same_value(given, answer, self.notation)

    @property
    def my_answer_right(self) -> bool:
        return self.my_answer is not None and self.is_right(self.my_answer)

    @staticmethod
    def bar_width(bars) -> int:
        """The width of each bar of a chart of ``bars``: the vote's (``CHART_WIDTH``), or
        wider where a label would run into the next one's ("M − 1/5" beside "−M" read
        "−MM − 1/5" on the projector)."""
        longest = max((len(b.label) for b in bars), default=0)
        return max(CHART_WIDTH, LABEL_CHAR * longest + 12)

    def question_split(self) -> list[Share]:
        """The class's split for a phone, once the teacher revealed the answer (none before:
        the phones never see how the class answers while it answers): the projector's bars
        (``question_bars``: the same answers, written alike, merged and ordered alike), each
        with its share of the answers, the right one and this student's own marked."""
        q = self.question
        n = self.question_count
        if q is None or q.open or not q.revealed or not n:
            return []
        found = self.question_bars()
        mine = self._my_label({b.label for b in found})
        return [Share(b.label, b.count, round(100 * b.count / n), b.right, b.label == mine)
                for b in found]

    def _my_label(self, labels: set) -> str | None:
        """The bar that holds this student's answer ("other" when it is among the rest)."""
        given = self.my_answer
        if given is None:
            return None
        if self.question.data["choices"]:
            label = given
        else:
            label = value_text(self.question.data["answer"]) if self.is_right(given) \
                else value_text(given)
        return label if label in labels else OTHER

    @property
    def question_right_share(self) -> int:
        n = self.question_count
        right = sum(k for given, k in self.question_firsts.items() if self.is_right(given))
        return round(100 * right / n) if n else 0

    @cached_property
    def _board_asks(self) -> tuple[dict | None, str | None]:
        if not self.view.teacher:
            return None, None
        try:
            return board_questions(self.view.state), None
        except Busy as err:
            return None, tr(err)

    @property
    def board_questions(self):
        """For the teacher: the questions the board's replay can ask now (``questions_at``);
        None when there are none, or when the search behind them found no slot just now
        (``questions_busy``)."""
        return self._board_asks[0]

    @property
    def questions_busy(self) -> str | None:
        """Why the bar cannot tell which questions the board can ask (the server busy with
        other searches), in words: the bar then offers them all, and an ask says what it
        finds (asked, not at this step, or still busy)."""
        return self._board_asks[1]

    @property
    def play_step(self) -> int | None:
        """The step that shows a revealed question's answer, while the teacher's board is
        before it; None once the board is there or past it (Space then steps on, as before the
        question). The page's Space skips its link once the page is there: the bar may be
        drawn before the server learns of the teacher's last step."""
        q = self.question
        if q is None or not q.revealed:
            return None
        step = self.view.step
        if step is not None and step >= q.data["then"]:
            return None
        return q.data["then"]

    @property
    def play_step_url(self) -> str | None:
        """The teacher's board at ``play_step`` (the link is the bar's Space key while it is
        offered), or None."""
        step = self.play_step
        return None if step is None else self.view.g.url(step=step)


# -- the summary --

def lesson_rounds(av: ActivityView, store) -> list[dict]:
    """The lesson's rounds for the summary: each vote round recorded at its reveal (the
    class's choice, the AI's, the exact outcomes) and each question (right share). Read by
    the summary's views (a round trip per round and question), handed to the page."""
    out = []
    answers = answers_of(store)
    code = av.view.code
    st = av.view.state
    for r in range(1, st.round + 1):
        rec = av.round_record(r)
        if rec is None:
            continue
        tally = store.tally(code, r)
        ranked = tally.most_common(2)
        choice = ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) \
            else None
        out.append(dict(kind="vote", round=r, votes=sum(tally.values()), choice=choice,
                        ai=rec.get("ai"), outcome=rec.get("out", {}).get(choice)
                        if choice else None, ai_outcome=rec.get("out", {}).get(rec.get("ai")),
                        best=_best(rec.get("out", {})), peer=rec.get("peer", False),
                        moves=rec.get("moves", "")))
    for a in answers.history(code):
        if a.kind != "predict":
            continue
        given = answers.all_given(code, a.seq)
        answer = a.data.get("answer")
        right = sum(1 for g in given.values() if g.first == answer or (
            not a.data.get("choices") and same_value(g.first, answer or "", av.notation)))
        out.append(dict(kind="question", seq=a.seq, what=a.data.get("kind"),
                        answered=len(given), right=right, answer=a.data.get("answer"),
                        choices=bool(a.data.get("choices"))))
    return out


OTHER = N_("other")


def _best(outcomes: dict) -> str | None:
    found = set(outcomes.values())
    return next((o for o in ("win", "draw", "loss") if o in found), None)
