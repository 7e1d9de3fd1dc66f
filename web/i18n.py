"""Languages: ``lang`` in the URL first (a shared link opens in the sender's language), then
the browser's Accept-Language, then English; the language kept in every link and form; labels
and numbers in the page's language. A search's values (+M, −∞, W3, M − 3/5) are written by
``web.notation``, which writes them with this module's numbers: this module never imports
it."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, g, render_template, request
from jinja2 import pass_eval_context
from flask_babel import (Babel, format_decimal, get_locale as babel_locale, get_translations,
                         gettext, lazy_gettext as _l)
from babel.numbers import get_decimal_symbol, get_group_symbol
from markupsafe import Markup

from ai.messages import translate

from .games import GAMES
from .links import this_page

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


def _gettext(string: str, **variables) -> str:
    """Flask-Babel's ``Domain.gettext``, with the catalogue looked up once per request."""
    s = _translations().ugettext(string)
    return s if not variables else s % variables


def select_locale() -> str:
    lang = request.args.get("lang")
    if lang in LANGUAGES:
        return lang
    return request.accept_languages.best_match(LANGUAGES) or "en"


def kept_lang() -> str | None:
    """The language to keep in every link: the page's, unless it is the default one and
    nobody asked for it."""
    kept = g.get("_kept_lang", False)       # once per request: every link asks
    if kept is False:
        lang = str(get_locale())
        kept = g._kept_lang = lang if lang != "en" or request.args.get("lang") else None
    return kept


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


def decimal_mark() -> str:
    """The page's decimal mark: "," in French, "." in English (a phone's number pad types
    it; every way of writing a value is read either way, ``web.notation.read_value``)."""
    return get_decimal_symbol(locale=get_locale())


def _numbers_in_locale(values: dict) -> dict:
    """A message's numbers in the page's locale (a message whose numbers are a search's
    values, the lab's marks, is written by ``web.notation.value_message``)."""
    return {k: num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
            for k, v in values.items()}


def tr(err: Exception) -> str:
    """An error's message in the page's language, its numbers too (``GameError`` from
    ``ai/``, ``BadRequest`` from ``web.params``; any other exception keeps its message)."""
    return translate(err, lambda template, **values: gettext(template,
                                                             **_numbers_in_locale(values)))


def switch_lang(lang: str) -> str:
    """This page's link in another language."""
    return this_page(lang=lang)


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
    babel = Babel(app, locale_selector=select_locale)
    # Flask-Babel's own gettext, which its lazy strings call (the levels', algorithms' and
    # settings' labels: some thirty a game's page), finds the context, the locale and the
    # catalogue again at each call: through the page's catalogue instead (see get_locale).
    with app.app_context():             # (the domain reads the app's settings)
        babel.domain_instance.gettext = _gettext
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # Flask-Babel's callables, with the catalogue looked up once per request (see get_locale).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n), newstyle=True)
    # Templates' ``_`` went through three layers (Jinja's alias, its newstyle wrapper, the
    # callable above), each called through ``Context.call``, for some eighty labels a game's
    # page: one layer now, doing what the three did; ``ngettext`` likewise.
    app.jinja_env.globals["_"] = app.jinja_env.globals["gettext"] = _template_gettext
    app.jinja_env.globals["ngettext"] = _template_ngettext
    app.context_processor(page_labels)
    app.before_request(check_lang)
    app.url_defaults(add_lang)


# Both take the evaluation context, not the template's context: Jinja gives a callable that
# asks for the context, called in a block after a ``{% set %}``, a copy of the whole context
# with the block's variables (some ninety names), once per label.
@pass_eval_context
def _template_gettext(__eval_ctx, __string: str, **variables):
    """A template's ``_(...)`` and ``gettext(...)``: what Jinja's newstyle gettext does
    (the text as markup where the template escapes, always formatted with ``variables``,
    which escapes them), with the page's catalogue (``_translations``)."""
    return _label(_translations(), __eval_ctx.autoescape, __string, variables)


@pass_eval_context
def _template_ngettext(__eval_ctx, __singular: str, __plural: str, __num: int, **variables):
    """A template's ``ngettext(...)``: Jinja's newstyle ngettext (``num`` among the variables
    unless given), with the page's catalogue."""
    return _plural(_translations(), __eval_ctx.autoescape, __singular, __plural, __num,
                   variables)


def page_labels() -> dict:
    """A context processor: the template's ``_``, ``gettext`` and ``ngettext`` (as above)
    bound to this request's catalogue, looked up once per page drawn rather than once per
    label (some eighty a game's page)."""
    translations = _translations()

    @pass_eval_context
    def gettext(__eval_ctx, __string: str, **variables):
        return _label(translations, __eval_ctx.autoescape, __string, variables)

    @pass_eval_context
    def ngettext(__eval_ctx, __singular: str, __plural: str, __num: int, **variables):
        return _plural(translations, __eval_ctx.autoescape, __singular, __plural, __num,
                       variables)
    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def _label(translations, autoescape: bool, string: str, variables: dict):
    if not autoescape or not all(type(v) is int for v in variables.values()):
        rv = translations.ugettext(string)
        return (Markup(rv) if autoescape else rv) % variables
    key = (translations, string, *variables.items())
    label = _labels.get(key)
    if label is None:
        if len(_labels) >= MAX_LABELS:
            _labels.clear()
        label = _labels[key] = Markup(translations.ugettext(string)) % variables
    return label


# A label whose variables, if any, are whole numbers, as markup, per catalogue, text and
# numbers: the same every time (a game's page draws some eighty: "Undo", "Moves", "Column 3",
# "row 2:"...). Bounded: the templates' texts, with a board's rows and columns. (Only ints:
# True is 1 as a key, but not as a text.)
MAX_LABELS = 4096
_labels: dict = {}


def _plural(translations, autoescape: bool, singular: str, plural: str, num: int,
            variables: dict):
    variables.setdefault("num", num)
    rv = translations.ungettext(singular, plural, num)
    if autoescape:
        rv = Markup(rv)
    return rv % variables
