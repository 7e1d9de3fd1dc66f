"""A lesson plan: positions and questions prepared before the lesson, one a line, in a link
that opens it (``/class/plan?plan=...``). Each line is what to do and where:

    vote /<game>?moves=...                         a vote (peer instruction) on that position
    ask-move /<game>?...&tree=1&step=3             a question on the next step of that replay
    ask-window|ask-cut|ask-value <link>            (α, a cut-off, a node's value)
    exercise /tree?ex=nim5&algo=alphabeta          a class exercise on the lab's tree

The plan's page checks every line (a wrong one is named, never a 500), shows the link to
keep, and starts a class with it; the class bar then offers the plan's next item: one click
shows its position on the board, and opens its vote, its question or its exercise. During a
class the teacher can add the board to the plan ("add to the plan") and keep its new link.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from .view import board_query, game_from_link
from ..params import BadRequest

VERBS = {"vote": _l("vote"), "ask-window": _l("question: α"), "ask-cut": _l("question: cut-off"),
         "ask-value": _l("question: value"), "ask-move": _l("question: next move"),
         "exercise": _l("class exercise")}
MAX_ITEMS = 40
MAX_PLAN = 6000               # characters of a plan


@dataclass(frozen=True)
class PlanItem:
    verb: str
    link: str                 # a game's link, or the lab's (/tree?...) for an exercise

    @property
    def line(self) -> str:
        return f"{self.verb} {self.link}"

    @property
    def question(self) -> str | None:
        return self.verb[4:] if self.verb.startswith("ask-") else None


def parse_plan(text: str) -> tuple[list[PlanItem], list[tuple[int, str]]]:
    """The plan's items, and its wrong lines (line number, the line) : a line is checked
    by reading its link as the game's (or the lab's) page would."""
    items, wrong = [], []
    if len(text) > MAX_PLAN:
        raise BadRequest("the plan is too long (%(n)s characters, at most %(most)s)", "plan",
                         n=len(text), most=MAX_PLAN)
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        verb, _, link = line.partition(" ")
        link = link.strip()
        try:
            if verb not in VERBS:
                raise BadRequest("unknown action")
            if verb == "exercise":
                from .exercise import source_of
                source_of(MultiDict({"source": "link", "link": link}))
            else:
                game_from_link(link)
        except BadRequest:
            wrong.append((i, line[:120]))
            continue
        items.append(PlanItem(verb, link))
        if len(items) > MAX_ITEMS:          # said at once: the lines after are not read
            raise BadRequest("a plan of at most %(most)s items, please", "plan",
                             most=MAX_ITEMS)
    return items, wrong


def plan_text(items: list[PlanItem]) -> str:
    return "\n".join(item.line for item in items)


def plan_query(items: list[PlanItem]) -> str:
    return urlencode({"plan": plan_text(items)})


def stored_plan(settings: dict) -> tuple[list[PlanItem], int]:
    """The class's plan (settings ``plan``), and the index of the next item."""
    try:
        d = json.loads(settings.get("plan") or "{}")
        items = [PlanItem(v, link) for v, link in d.get("items", [])]
        return items, int(d.get("next", 0))
    except (ValueError, TypeError, AttributeError):
        return [], 0


def plan_json(items: list[PlanItem], next_: int) -> str:
    return json.dumps({"items": [(i.verb, i.link) for i in items], "next": next_})


def board_link(game: str, query: str) -> str:
    """The class's board as a plan's link."""
    return f"/{game}?{query}" if query else f"/{game}"


def item_board(item: PlanItem):
    """(spec, game, args, query to store) of a game item's position."""
    spec, g, args = game_from_link(item.link)
    return spec, g, args, board_query(g, args)


def lab_params(link: str) -> dict:
    return {k: v for k, v in parse_qsl(urlsplit(link).query)}
