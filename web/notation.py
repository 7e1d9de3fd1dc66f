"""How values are read and written: the one module that does both, for the projector, the
phones, the lab, the review and the CSVs. One setting for the whole app (``notation=``), kept
from page to page like the language and projector mode. Read here: a class's answers as it
types them (``read_value``: −M, -M, M, −∞, -inf, 2,5), the lab's (``read_number``: the same,
maxScore being the tree's largest leaf), kept as ``number_text`` keeps a number. Written here:
a search's values as the projector writes them (``format_bound`` in a tree's node, W3/L3 or
+M/−M, M − 3/5; ``format_long`` in words; ``value_text``/``number_value`` a kept value or a
number, for the phones, the lab's marks and the CSVs), with ``web.i18n``'s numbers in the
page's language (this module imports ``web.i18n``, never the other way). Nodes named as the
tree labels them (``node_text``: the tree's narration, the class's questions); a class's pages
write in its board's notation (``use_notation``)."""
from __future__ import annotations

import math
import re
from fractions import Fraction

from flask import g as request_globals, has_request_context, request
from flask_babel import format_decimal, gettext, ngettext
from markupsafe import Markup

from ai.course.scores import HEURISTIC_MAX, INF, MAX_SCORE, WIN_THRESHOLD
from ai.heuristics import LIMIT as HEURISTIC_LIMIT
from ai.messages import translate

from .i18n import num
from .params import BadRequest, read_choice

NOTATIONS = ("plies", "course")
DEFAULT_NOTATION = "plies"


def read_notation(args) -> str:
    """How values are written (``notation=``): "plies", W3/L3 (won or lost in 3 plies), or
    "course", the course's ±maxScore (+M/−M, the course's estimate as M − 3/5). The one reader
    of the setting: a game page's settings (``parse_settings``) and every other page
    (``current_notation``) ask it."""
    return read_choice(args, "notation", DEFAULT_NOTATION, NOTATIONS)


def current_notation() -> str:
    """The notation of this request, read once: like the language and projector mode, kept
    in every link (``add_notation``) and form (``notation_field``), so a lesson opened in the
    course's notation stays in it from page to page. A wrong value is a 400 on a game page
    (``parse_settings``); elsewhere the default."""
    if not has_request_context():
        return DEFAULT_NOTATION
    notation = request_globals.get("_notation")
    if notation is None:
        try:
            notation = read_notation(request.args)
        except BadRequest:
            notation = DEFAULT_NOTATION
        request_globals._notation = notation
    return notation


def add_notation(endpoint, values) -> None:
    """Keeps the notation in every link (``app.url_defaults``), as the language is kept."""
    if endpoint != "static" and "notation" not in values:
        notation = current_notation()
        if notation != DEFAULT_NOTATION:
            values["notation"] = notation


def notation_field() -> Markup | str:
    """The hidden field that keeps the notation in a form (a game's forms carry it among the
    game's settings)."""
    notation = current_notation()
    return (Markup(f'<input type="hidden" name="notation" value="{notation}">')
            if notation != DEFAULT_NOTATION else "")


def use_notation(notation: str) -> None:
    """This request writes values in ``notation``, whatever its own link says: a class's
    pages (the phone's, the teacher's bar redrawn after a button) write them as the class's
    board does, so that the projector and the phones say the same thing."""
    if has_request_context() and notation in NOTATIONS:
        request_globals._notation = notation


def use_lab_values(lab: dict) -> None:
    """This request writes a lab tree's values (``web.exercise.parse_lab``): where the tree is
    searched with the course's window [−maxScore, +maxScore], maxScore being its largest leaf,
    the course's notation writes ±maxScore as +M and −M, as the projector writes the game's
    (the course's 5-stick lesson tree: α = −M, β = +M on the lab, the projector and the phones alike).

    The course's depth-2 tree (seed 003: its leaves scored +maxScore − remaining/5, with
    maxScore = 1) writes those estimates as the course and the game's tree on the projector
    do, "M − 3/5" where the plies' notation writes 0,4: its leaves are known to be that
    estimate. A typed tree's 0,4 stays 0,4 (nothing says what it estimates), and so do the
    course tree's under the window [−∞, +∞], where its 1 is not written +M either."""
    if has_request_context() and lab.get("window") == "course" and lab.get("max_score"):
        request_globals._max_score = abs(lab["max_score"])
        if lab.get("estimate_total"):
            request_globals._estimate_total = lab["estimate_total"]


def page_max_score() -> float | None:
    """The maxScore of the lab tree this request writes (``use_lab_values``), else None."""
    return request_globals.get("_max_score") if has_request_context() else None


# -- values as the class writes them: read from a phone, written back in the board's notation --

MAX_WORDS = ("m", "maxscore")
_INFINITIES = {"inf": math.inf, "∞": math.inf, "infini": math.inf, "infinity": math.inf}
# M − 3/5, or M − 0,6 (a decimal, comma or point); digits bounded: a typed value is short
_ESTIMATE = re.compile(r"^([+-]?)(?:m|maxscore)([+-])(?:(\d{1,9})/(\d{1,9})|(\d{1,9}(?:[.,]\d{1,9})?))$")
_PLIES = re.compile(r"^([wvld])(\d{1,9})$")


def _plain(raw: str) -> str:
    """A typed value in lower case, every dash a hyphen, no space of any kind."""
    text = (raw or "").strip().lower()
    for dash in ("−", "–", "—"):
        text = text.replace(dash, "-")
    for space in (" ", "\u00a0", "\u202f"):
        text = text.replace(space, "")
    return text


def read_value(raw: str) -> str | None:
    """A value as a student may write it, as it is kept (``value_text`` writes it back): the
    course's +M, M, −M, -M, maxScore ("M" or "-M": a win or a loss, flat), its estimate
    M − 3/5 (or M − 0,6, the same number: read exactly, ``_estimate_gap``), −∞, -inf,
    ∞, +∞ ("inf", "-inf"), a number with a French comma or a point ("2.5"), a win or loss in plies as the tree writes it (W3/L3, V3/D3 in French: the
    number it stands for); None when it is none of these."""
    text = _plain(raw)
    sign = -1 if text.startswith("-") else 1
    bare = text.lstrip("+-")
    if text[:1] in "+-" and text[1:2] in "+-":
        return None                                    # "--3", "+-M": not a value
    if bare in _INFINITIES:
        return "inf" if sign > 0 else "-inf"
    if bare in MAX_WORDS:
        return "M" if sign > 0 else "-M"
    found = _ESTIMATE.match(text)
    gap = _estimate_gap(found)
    if gap is not None:
        side = -1 if found[1] == "-" else 1
        if (side > 0) == (found[2] == "-"):            # M − 3/5, −M + 3/5, M − 0,6
            return number_text(side * float(HEURISTIC_MAX - gap))
        return None
    found = _PLIES.match(text)
    if found:
        plies = int(found[2])
        return number_text((1 if found[1] in "wv" else -1) * (MAX_SCORE - plies))
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return number_text(value) if math.isfinite(value) else None


def _estimate_gap(found) -> Fraction | None:
    """What an estimate typed after M takes off it, exactly (``_ESTIMATE``'s match): 3/5,
    or a decimal, 0,6 or 0.6, read as the fraction it writes, so that M − 0,2 is M − 1/5
    itself; None for no match or a fraction over 0."""
    if found is None:
        return None
    if found[5] is not None:
        return Fraction(found[5].replace(",", "."))
    return Fraction(int(found[3]), int(found[4])) if int(found[4]) else None


def read_number(raw: str, max_score: float):
    """A value typed in the exercise lab (or a class exercise), read as ``read_value`` reads
    a class's answers, where maxScore is the tree's own (its largest leaf): M, −M, -M,
    maxScore as ±``max_score``, the estimate M − 3/5 as ``max_score`` − 3/5, −∞, -inf, ∞,
    2,5 or 2.5; a number (float, ±inf), or the text itself when it is none of these (the
    lab marks it as not a number)."""
    kept = read_value(raw)
    if kept is None:
        return raw.strip()
    if kept in ("M", "-M"):
        return max_score if kept == "M" else -max_score
    found = _ESTIMATE.match(_plain(raw))
    gap = _estimate_gap(found)
    if gap is not None:
        side = -1 if found[1] == "-" else 1
        return side * float(Fraction(max_score) - gap)
    return float(kept)


def number_text(value) -> str:
    """A number as a value is kept: "3", "-2.5", "inf", "-inf"."""
    if value is None:
        return "?"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def kept_number(text: str) -> float | None:
    """A kept value's number (+-M as +-maxScore), None when it is not one."""
    if text in ("M", "-M"):
        return MAX_SCORE if text == "M" else -MAX_SCORE
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def same_value(given: str, answer: str, notation: str | None = None) -> bool:
    """Whether ``given`` (as ``read_value`` keeps it) is ``answer`` (a search's value, as
    ``number_text`` keeps it) written another way: −M is every loss (in the course's
    notation a loss is −M, flat; in the plies' notation too when the student wrote M, the
    course's way), -9998 and L2 the same number, 2,5 and 2.5 the same."""
    if given == answer:
        return True
    g, a = kept_number(given), kept_number(answer)
    if g is None or a is None:
        return False
    if abs(a) >= WIN_THRESHOLD and abs(g) >= WIN_THRESHOLD and math.isfinite(a) \
            and math.isfinite(g):
        return (a > 0) == (g > 0) and (
            given in ("M", "-M") or answer in ("M", "-M")
            or (notation or current_notation()) == "course" or g == a)
    return g == a or (math.isfinite(g) and math.isfinite(a) and abs(g - a) < 1e-9)


# -- values written as the projector writes them: its tree, the phones, the lab, the CSVs -------

def format_value(value) -> str:
    """A search value for people: a proven result in words, an estimate as a signed number
    in the page's locale (+2.5 in English, +2,5 in French)."""
    if course_notation() and (abs(value) >= WIN_THRESHOLD or course_estimate(value)):
        return format_bound(value, long=True)
    if abs(value) >= WIN_THRESHOLD or abs(value) == HEURISTIC_LIMIT:   # as the tree writes
        return format_long(value)           # it, with its unit: W3 (won in 3 plies)
    return format_decimal(round(value, 2), format="+#,##0.##;-#,##0.##")


def course_notation() -> bool:
    """Whether the page writes values in the course's notation (the ``notation`` setting,
    read in one place: ``current_notation``): a win or a loss is +maxScore or
    −maxScore, flat, as seed 003 scores a final position, instead of W3/L3 (won or lost in
    3 plies), and the course's estimate is written as it computes it, M − 3/5."""
    return current_notation() == "course"


def set_estimate_total(n: int) -> None:
    """The game of this page started from ``n`` (the course's small game, seed 003): the
    course's estimate ``maxScore − remaining/total`` is written with it ("M − 3/5")."""
    request_globals._estimate_total = n


def course_estimate(value) -> str | None:
    """The course's estimate (the course's own heuristic in ``ai.heuristics``: HEURISTIC_MAX
    − r/n, from the root player's side; a lab tree's maxScore − r/n, ``use_lab_values``) as
    the course writes it, "M − 3/5" ("−M + 3/5" for the other side), or None for any other
    value."""
    gap = (page_max_score() or HEURISTIC_MAX) - abs(value)
    total = request_globals.get("_estimate_total") if has_request_context() else None
    if not total or not 0 <= gap < 1:
        return None
    left = round(gap * total)
    if abs(left - gap * total) > 1e-6:
        return None
    return f"M − {left}/{total}" if value > 0 else f"−M + {left}/{total}"


def writes_estimate(values) -> bool:
    """Whether the course's notation writes any of ``values`` as the course's estimate,
    "M − 3/5" (``course_estimate``): a phone's hint names that form only for a tree that has
    it (a tree whose values are all wins, losses and whole numbers has none)."""
    return any(course_estimate(v) is not None for v in values
               if v is not None and math.isfinite(v))


def format_bound(value, group: bool = True, long: bool = False) -> str:
    """A value or an alpha or beta bound, short enough for a tree node: W3 (a win in 3
    plies), L3 (a loss), or a number in the page's locale; in the course's notation +M and
    −M (``long``: +maxScore and −maxScore; the word does not fit in a node, the legend says
    M = maxScore). ``group=False`` for a form field, which reads the number back (no
    thousands separator, the locale's decimal sign)."""
    if value is None:
        return ""
    if value == INF:
        return "+∞"
    if value == -INF:
        return "−∞"
    if course_notation() and group:
        if abs(value) >= WIN_THRESHOLD or abs(value) == page_max_score():   # a lab tree's M
            word = "maxScore" if long else "M"
            return f"+{word}" if value > 0 else f"−{word}"
        if abs(value) == HEURISTIC_LIMIT:   # the evaluation's ceiling, M − 1 as M − 3/5
            word = "maxScore" if long else "M"
            return f"{word} − 1" if value > 0 else f"−{word} + 1"
        estimate = course_estimate(value)
        if estimate is not None:
            return estimate.replace("M", "maxScore") if long else estimate
    if abs(value) >= WIN_THRESHOLD:
        plies = num(int(MAX_SCORE - abs(value)))
        # the letters of "win" and "loss": V and D in French (victoire, défaite)
        return gettext("W%(n)s", n=plies) if value > 0 else gettext("L%(n)s", n=plies)
    if group and abs(value) == HEURISTIC_LIMIT:
        # The evaluation's ceiling (±999, an exact evaluation's won or lost position, as
        # a game's theory says): a win or a loss whose plies it does not count, W or L.
        return gettext("W%(n)s", n="") if value > 0 else gettext("L%(n)s", n="")
    if value == int(value):
        return num(int(value)) if group else str(int(value))
    return format_decimal(round(value, 2), format="#,##0.##" if group else "0.##")


def bound_shown(value, bound: str | None) -> str | None:
    """The bound a node's value is, as the page says it: "upper" (≤), "lower" (≥) or None.
    In the course's notation a loss is −M and a win +M, flat: "at most −M" or "at least +M"
    says nothing more than −M or +M, so it is written as the value it is."""
    if bound is None or value is None:
        return None
    if course_notation() and (abs(value) >= WIN_THRESHOLD or abs(value) == page_max_score()) \
            and (bound == "upper") == (value < 0):          # a lab tree's ±M too
        return None
    return bound


def format_shown(value, bound: str | None = None) -> str:
    """A node's value as its picture writes it: "?" when not known yet, a bound with its
    sign ("≤ 11": at most 11; "≥ W3": at least a win in 3 plies), else ``format_bound``."""
    if value is None:
        return "?"
    sign = {"upper": "≤ ", "lower": "≥ "}.get(bound_shown(value, bound), "")
    return sign + format_bound(value)


def format_long(value) -> str:
    """A node's value for its tooltip and the narration: a win or a loss in words ("W3 (won
    in 3 plies)"), any other value as ``format_bound`` writes it."""
    if value is None:
        return ""
    if value in (INF, -INF):
        return format_bound(value)
    if abs(value) >= WIN_THRESHOLD:
        plies = int(MAX_SCORE - abs(value))
        short = format_bound(value, long=True)
        if value > 0:
            words = ngettext("won in %(n)s ply", "won in %(n)s plies", plies, n=num(plies))
        else:
            words = ngettext("lost in %(n)s ply", "lost in %(n)s plies", plies, n=num(plies))
        return f"{short} ({words})"
    if abs(value) == HEURISTIC_LIMIT:
        short = format_bound(value, long=True)
        if value > 0:
            words = gettext("won, says the evaluation function")
        else:
            words = gettext("lost, says the evaluation function")
        return f"{short} ({words})"
    return format_bound(value)


def number_value(value) -> str:
    """A number (a lab tree's value, an answer typed in the lab) as the projector and the
    phones write values (``value_text`` of its kept text): −∞, +∞, 2,5, −3; the lab's marks,
    its class exercise's dashboard and CSV write them so."""
    return value_text(number_text(value))


def value_text(text: str) -> str:
    """A kept value (``read_value``, ``number_text``) as this page writes values: the
    projector's and the phone's notation (+M, −M, −∞, +∞, 2,5, or W3/L3), as ``format_bound``
    writes the tree's."""
    if text in ("M", "-M"):
        return "+M" if text == "M" else "−M"
    value = kept_number(text)
    return text if value is None else format_bound(value)


def value_message(err: Exception) -> str:
    """A message whose numbers are a search's values (the lab's marks: "it is −∞, not 3",
    "= +M"), in the page's language with each value written as the tree beside it writes it
    (``number_value``); ``web.i18n.tr`` writes any other message's numbers."""
    return translate(err, lambda template, **values: gettext(template, **{
        k: number_value(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        for k, v in values.items()}))


# -- nodes, as the tree on the projector labels them ---------------------------------------------

def node_text(is_max: bool, path: str, edges=(), left: int | None = None, *,
              left_first: bool = False, left_words=None) -> str:
    """A node named as the projector's tree draws it, for the tree's narration, the phones
    and a class's questions alike: max or min, then the moves on its edges one by one as the
    game writes them on the edges ("min (after 2, 3)", "max (root)"), never run together
    into what reads as a number ("min 23"). With what the game counts there written in the
    node (the course's notation, seed 003: ``left_first``) that number comes first, as in
    the circle: "min 2 (after 3)"; otherwise it follows in the game's words
    (``left_words(left)``), inside the same brackets after a semicolon, so that it does
    not read as one more move: "max (after 2, 3; 3 left)", "max (root; 5 left)".
    ``path`` (the moves as one word) stands for the edges when none are given."""
    kind = gettext("max") if is_max else gettext("min")
    moves = tuple(edges) or ((path,) if path else ())
    where = gettext("after %(moves)s", moves=", ".join(moves)) if moves else gettext("root")
    if left is not None and left_first:
        return f"{kind} {left} ({where})"
    words = left_words(left) if left is not None and left_words is not None else ""
    if words:
        where = gettext("%(where)s; %(left)s", where=where, left=words)
    return f"{kind} ({where})"
