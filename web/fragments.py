"""A part of a page drawn once per worker and kept, where it depends on little: a game's
settings form (its dozen fields, the levels' list...) is the same on every position of a game
with the same settings, in the same language, and took a fifth of the AI's reply's rendering;
so are the fields of a new game's own parameters (a board's columns and rows) and a game's
legend (who plays which colour).

The template names what the part depends on besides the language (``key``); a page with an
error message draws it anew (the message is written beside its field)."""
from __future__ import annotations

from jinja2 import pass_context

from .i18n import get_locale

MAX_KEPT = 1024         # parts kept per worker (a few KB at most): the settings in use
_kept: dict = {}


@pass_context
def drawn_once(context, key, macro, *args):
    """``macro(*args)``, drawn once per ``key`` and language (``key`` names everything else
    the part shows), unless the page shows an error."""
    if context.get("error"):
        return macro(*args)
    full = (macro.name, str(get_locale()), key)
    part = _kept.get(full)
    if part is None:
        if len(_kept) >= MAX_KEPT:
            _kept.clear()       # settings nobody uses any more: start again
        part = _kept[full] = macro(*args)
    return part
