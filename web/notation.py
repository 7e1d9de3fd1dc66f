"""How values are written: one setting for the whole app (``notation=``), kept from page to
page like the language and projector mode."""
from __future__ import annotations

from flask import g as request_globals, has_request_context, request
from markupsafe import Markup

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
