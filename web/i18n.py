"""Languages: ``lang`` in the URL first (a shared link opens in the sender's language), then
the browser's Accept-Language, then English; the language kept in every link and form; labels
and numbers in the page's language."""
from __future__ import annotations

import math
from pathlib import Path

from flask import Flask, Response, g, has_request_context, render_template, request, url_for
from flask_babel import (Babel, format_decimal, get_locale as babel_locale, get_translations,
                         gettext, lazy_gettext as _l, ngettext)
from babel.numbers import get_group_symbol
from markupsafe import Markup

from ai.messages import translate
from ai.course.scores import HEURISTIC_MAX
from ai.heuristics import LIMIT as HEURISTIC_LIMIT
from ai.course.search import INF, MAX_SCORE, WIN_THRESHOLD

from .games import GAMES
from .links import this_page
from .notation import current_notation, kept_number, number_text, page_max_score

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = {"en": "English", "fr": "Français"}
ALGORITHM_LABELS = {"minimax": _l("minimax"), "alphabeta": _l("alpha-beta"),
                    "alphabeta-tt": _l("alpha-beta + table"),
                    "iterative": _l("iterative deepening"), "exact": _l("exact solver")}
LEVEL_LABELS = {"beginner": _l("beginner"), "easy": _l("easy"), "medium": _l("medium"),
                "hard": _l("hard"), "expert": _l("expert"), "perfect": _l("perfect")}
# How the players may be named (web.params.Settings.player_name), as the course's chapters do.
PLAYER_NAMING_LABELS = {"colours": _l("Yellow and Red"), "marks": _l("X and O"),
                        "j": _l("J0 and J1 (minmax chapter)"),
                        "numbers": _l("Player 1 and Player 2 (MIN-MAX chapter)")}


def get_locale():
    """The page's locale, looked up once per request (Flask-Babel's own look-up goes through
    several context variables, and a page asks a few hundred times: every label, number and
    link)."""
    locale = g.get("_locale")
    if locale is None:
        locale = g._locale = babel_locale()
    return locale


def _translations():
    """The page's catalogue, once per request (see ``get_locale``)."""
    t = g.get("_translations")
    if t is None:
        t = g._translations = get_translations()
    return t


def select_locale() -> str:
    lang = request.args.get("lang")
    if lang in LANGUAGES:
        return lang
    return request.accept_languages.best_match(LANGUAGES) or "en"


def kept_lang() -> str | None:
    """The language to keep in every link: the page's, unless it is the default one and
    nobody asked for it."""
    lang = str(get_locale())
    return lang if lang != "en" or request.args.get("lang") else None


def add_lang(endpoint, values) -> None:
    if endpoint != "static" and "lang" not in values and request:
        lang = kept_lang()
        if lang:
            values["lang"] = lang


def lang_field() -> Markup | str:
    """The hidden field that keeps the language in a form (and the course's figure the
    lesson came from, ``web.lesson``)."""
    from .lesson import card_field     # web.lesson imports this module's neighbours

    lang = kept_lang()
    field = Markup(f'<input type="hidden" name="lang" value="{lang}">') if lang else ""
    return field + card_field()


def num(value, digits=None) -> str:
    """A number in the page's locale: 1,234 in English, 1 234 in French (a narrow no-break
    space). Whole numbers of any size (a game tree may have 10^28 nodes) are grouped
    by hand: Babel's decimal context would raise on them."""
    if isinstance(value, int) and digits is None:
        group = g.get("_group")
        if group is None:
            group = g._group = get_group_symbol(locale=get_locale())
        return f"{value:,}".replace(",", group)
    if digits is not None:
        return format_decimal(round(value, digits),
                              format="#,##0." + "0" * digits if digits else "#,##0")
    return format_decimal(value)


def _numbers_in_locale(values: dict) -> dict:
    """A message's numbers in the page's locale, an infinity as the projector writes it
    (+∞, −∞: the lab's marks say "it is −∞, not 3" as its tree and the class's reveal do)."""
    return {k: (format_bound(v) if isinstance(v, float) and math.isinf(v) else num(v))
            if isinstance(v, (int, float)) and not isinstance(v, bool) else v
            for k, v in values.items()}


def tr(err: Exception) -> str:
    """An error's message in the page's language, its numbers too (``GameError`` from
    ``ai/``, ``BadRequest`` from ``web.params``; any other exception keeps its message)."""
    return translate(err, lambda template, **values: gettext(template,
                                                             **_numbers_in_locale(values)))


def switch_lang(lang: str) -> str:
    """This page's link in another language."""
    return this_page(lang=lang)


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
    read in one place: ``web.notation.current_notation``): a win or a loss is +maxScore or
    −maxScore, flat, as seed 003 scores a final position, instead of W3/L3 (won or lost in
    3 plies), and the course's estimate is written as it computes it, M − 3/5."""
    return current_notation() == "course"


def set_estimate_total(n: int) -> None:
    """The game of this page started from ``n`` (the course's small game, seed 003): the
    course's estimate ``maxScore − remaining/total`` is written with it ("M − 3/5")."""
    g._estimate_total = n


def course_estimate(value) -> str | None:
    """The course's estimate (the course's own heuristic in ``ai.heuristics``: HEURISTIC_MAX − r/n, from the
    root player's side) as the course writes it, "M − 3/5" ("−M + 3/5" for the other side),
    or None for any other value."""
    gap = HEURISTIC_MAX - abs(value)
    total = g.get("_estimate_total") if has_request_context() else None
    if not total or not 0 <= gap < 1:
        return None
    left = round(gap * total)
    if abs(left - gap * total) > 1e-6:
        return None
    return f"M − {left}/{total}" if value > 0 else f"−M + {left}/{total}"


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
    if course_notation() and abs(value) >= WIN_THRESHOLD and (
            (bound == "upper") == (value < 0)):
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


def check_lang():
    """An unknown ``lang`` is a 400 in the page's default language, before any view runs."""
    lang = request.args.get("lang")
    if lang is not None and lang not in LANGUAGES:
        error = dict(code=400, name=gettext("Bad Request"),
                     description=gettext("lang must be one of %(choices)s, not “%(raw)s”",
                                         choices=", ".join(LANGUAGES), raw=lang[:20]))
        return Response(render_template("error.html", error=error), status=400,
                        mimetype="text/html")
    return None


def catalogue_dirs() -> list[Path]:
    """Every folder of translations, the shared one first, then each game's own
    (``GameSpec.catalogue``, once for games that share a web package). Flask-Babel merges
    their catalogues of one language into one, a later folder's entry over an earlier
    one's: a game's words never hide the shared ones, as no msgid is in both
    (``scripts/translations`` puts a word used by shared code in the shared catalogue)."""
    dirs = [ROOT / "translations"]
    for spec in GAMES.values():
        if spec.catalogue is not None and spec.catalogue not in dirs:
            dirs.append(spec.catalogue)
    return dirs


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES",
                          ";".join(str(d) for d in catalogue_dirs()))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # Flask-Babel's callables, with the catalogue looked up once per request (see get_locale).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n), newstyle=True)
    app.before_request(check_lang)
    app.url_defaults(add_lang)


def number_value(value) -> str:
    """A number (a lab tree's value, an answer typed in the lab) as the projector and the
    phones write values (``value_text`` of its kept text): −∞, +∞, 2,5, −3; the lab's marks,
    its class exercise's dashboard and CSV write them so."""
    return value_text(number_text(value))


def value_text(text: str) -> str:
    """A kept value (``web.notation.read_value``, ``number_text``) as this page writes values:
    the projector's and the phone's notation (+M, −M, −∞, +∞, 2,5, or W3/L3). Here, beside
    ``format_bound``, since ``web.notation`` reads values and this module writes them."""
    if text in ("M", "-M"):
        return "+M" if text == "M" else "−M"
    value = kept_number(text)
    return text if value is None else format_bound(value)
