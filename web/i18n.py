"""Languages: ``lang`` in the URL first (a shared link opens in the sender's language), then
the browser's Accept-Language, then English; the language kept in every link and form; labels
and numbers in the page's language."""
from __future__ import annotations

from flask import Flask, Response, render_template, request, url_for
from flask_babel import Babel, format_decimal, get_locale, gettext, lazy_gettext as _l
from babel.numbers import get_group_symbol
from markupsafe import Markup

from ai.search import INF, MAX_SCORE, WIN_THRESHOLD

LANGUAGES = {"en": "English", "fr": "Français"}
ALGORITHM_LABELS = {"minimax": _l("minimax"), "alphabeta": _l("alpha-beta"),
                    "alphabeta-tt": _l("alpha-beta + table"),
                    "iterative": _l("iterative deepening")}
LEVEL_LABELS = {"beginner": _l("beginner"), "easy": _l("easy"), "medium": _l("medium"),
                "hard": _l("hard"), "expert": _l("expert")}


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
    """The hidden field that keeps the language in a form."""
    lang = kept_lang()
    return Markup(f'<input type="hidden" name="lang" value="{lang}">') if lang else ""


def num(value, digits=None) -> str:
    """A number in the page's locale: 1,234 in English, 1 234 in French. Whole numbers of
    any size (a Nim tree of 99 matches has 10^28 nodes) are grouped by hand: Babel's
    decimal context would raise on them."""
    if isinstance(value, int) and digits is None:
        return f"{value:,}".replace(",", get_group_symbol(locale=get_locale()))
    if digits is not None:
        return format_decimal(round(value, digits),
                              format="#,##0." + "0" * digits if digits else "#,##0")
    return format_decimal(value)


def switch_lang(lang: str) -> str:
    """This page's link in another language."""
    args = request.args.to_dict()
    args["lang"] = lang
    return url_for(request.endpoint or "pages.home", **(request.view_args or {}), **args)


def format_value(value) -> str:
    """A search value for people: a proven result in words, an estimate as a number."""
    if value >= WIN_THRESHOLD:
        return gettext("win in %(n)s", n=int(MAX_SCORE - value))
    if value <= -WIN_THRESHOLD:
        return gettext("loss in %(n)s", n=int(MAX_SCORE + value))
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):+d}"


def format_bound(value) -> str:
    """An alpha or beta bound, short enough for a tree node."""
    if value is None:
        return ""
    if value == INF:
        return "+∞"
    if value == -INF:
        return "−∞"
    if abs(value) >= WIN_THRESHOLD:
        return ("W" if value > 0 else "L") + str(int(MAX_SCORE - abs(value)))
    if value == int(value):
        return str(int(value))
    return format_decimal(round(value, 2))


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


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    Babel(app, locale_selector=select_locale)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.before_request(check_lang)
    app.url_defaults(add_lang)
