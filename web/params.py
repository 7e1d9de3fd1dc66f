"""The value readers: every parameter of a link read and checked here (``web.game_link``
makes a game's link of them: ``Settings`` and ``GameLink``).

The server keeps no session: a game's link is the whole game, so any position is a link and
any worker can answer. Every value is read by one strict parser: a whole number is
``[+-]?[0-9]{1,9}`` and nothing else, a choice is one of its list, a flag is 0 or 1. A wrong
value raises ``BadRequest`` naming the field as the page labels it, in the page's language,
and the URL name of the parameter, so the page can show the message beside the field.
"""
from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l

from ai.messages import GameError

from .games import GameSpec

WINDOWS = ("infinite", "course")

# How the page labels each parameter, for messages ("Depth: at most 8 for minimax"); a game's
# own pages add theirs (web/<game>/).
LABELS = {
    "mode": _l("Who plays"), "level": _l("Level"), "algo": _l("Algorithm"),
    "depth": _l("Depth"), "time": _l("Time budget (ms)"), "heur": _l("Heuristic"),
    "window": _l("First window (alpha-beta)"), "order": _l("Move order"),
    "moves": _l("Moves"), "at": _l("Move shown"), "play": _l("Autoplay"),
    "tree": _l("Search tree"), "td": _l("Tree depth"), "proj": _l("Projector mode"),
    "path": _l("Tree node"), "step": _l("Step"), "cd": _l("Depth"), "ttd": _l("Depth"), "cls": _l("Class code"),
    "notation": _l("Notation"), "hints": _l("Hints"), "players": _l("Players' names"),
    "alpha": _l("α (adjusted heuristic)"), "teach": _l("Teaching game"),
    "ply": _l("Move reviewed"), "k": _l("Position to replay"), "try": _l("Move tried"),
}

_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
_DECIMAL = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{1,3})?")     # 0.2, or 0,2 as French writes it
CLASS_CODE = re.compile(r"[A-HJ-NP-Z2-9]{6}")     # web.classroom.store's alphabet: no 0/O, 1/I


class BadRequest(GameError):
    """A parameter a person (or an edited link) got wrong: shown in the page with a 400, in
    the page's language (the template is the catalogue's msgid). ``param`` is the parameter's
    name in the URL, when one parameter is to blame."""

    def __init__(self, template: str, param: str | None = None, **values):
        super().__init__(template, **values)
        self.param = param


def as_bad_request(err: ValueError, param: str | None = None) -> BadRequest:
    """A ValueError from ``ai/`` as a BadRequest, keeping its template for translation."""
    if isinstance(err, GameError):
        return BadRequest(err.template, param, **err.values)
    return BadRequest("%(err)s", param, err=str(err))


def label(name: str, spec: GameSpec | None = None):
    if spec is not None:
        for p in spec.params:
            if p.url == name:
                return p.label
    return LABELS.get(name, name)


def read_int(args, name: str, default, lo: int, hi: int, spec: GameSpec | None = None):
    """A whole number from ``lo`` to ``hi``; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if not _WHOLE.fullmatch(raw):
        raise BadRequest("%(field)s: a whole number from %(lo)s to %(hi)s, not “%(raw)s”", name,
                         field=label(name, spec), lo=lo, hi=hi, raw=raw[:20])
    value = int(raw)
    if not lo <= value <= hi:
        raise BadRequest("%(field)s: from %(lo)s to %(hi)s, not %(value)s", name,
                         field=label(name, spec), lo=lo, hi=hi, value=value)
    return value


def read_decimal(args, name: str, default, lo: float, hi: float,
                 spec: GameSpec | None = None) -> float:
    """A number from ``lo`` to ``hi`` with at most 3 decimals, written with a point or a
    comma (0.2 or 0,2); ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    value = float(raw.replace(",", ".")) if _DECIMAL.fullmatch(raw) else None
    if value is None or not lo <= value <= hi:
        raise BadRequest(
            "%(field)s: a number from %(lo)s to %(hi)s (such as 0.2), not “%(raw)s”", name,
            field=label(name, spec), lo=lo, hi=hi, raw=raw[:20])
    return value


def read_choice(args, name: str, default, choices, spec: GameSpec | None = None):
    """One of ``choices``; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in choices:
        raise BadRequest("%(field)s: one of %(choices)s, not “%(raw)s”", name,
                         field=label(name, spec), choices=", ".join(choices), raw=raw[:30])
    return raw


def read_flag(args, name: str, default: bool = False) -> bool:
    """0 or 1; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in ("0", "1"):
        raise BadRequest("%(field)s: 0 or 1, not “%(raw)s”", name, field=label(name),
                         raw=raw[:20])
    return raw == "1"


def read_class_code(args, name: str = "cls") -> str:
    """A class code (six capitals and digits, as the projector shows it), or "" when absent."""
    raw = args.get(name) or ""
    if raw and not CLASS_CODE.fullmatch(raw.upper()):
        raise BadRequest("%(field)s: six letters and digits, not “%(raw)s”", name,
                         field=label(name), raw=raw[:20])
    return raw.upper()


def read_param(args, p, spec: GameSpec):
    """A game's own parameter (``web.games.Param``): a number, a choice, or what its own
    reader accepts."""
    if p.read is not None:
        raw = args.get(p.url)
        if raw is None or raw == "":
            return p.default
        try:
            return p.read(raw)
        except ValueError as err:
            raise BadRequest("%(field)s: %(err)s", p.url, field=label(p.url, spec),
                             err=err) from None
    if p.choices:
        return read_choice(args, p.url, p.default, p.choices, spec)
    return read_int(args, p.url, p.default, p.lo, p.hi, spec)
