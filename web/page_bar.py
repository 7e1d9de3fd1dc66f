"""The class bar of a whole page that shows a class's board (a link with ``cls=``: the
projector's game page, its tree, its comparison, its review), read once when the page is
built (``web.htmx.render``, which the views call) and handed to its template as
``class_page``: the template draws it and never reaches the store.

Class mode registers the reading (``web.classroom.views.class_bar``); without it a page is an
ordinary game page. An htmx block has no bar, and asks nothing.
"""
from __future__ import annotations

from flask import current_app

#: ``app.extensions`` key of ``bar(code) -> ClassPage | None``: class ``code`` as this
#: browser sees it (its teacher, or anyone else), None when it is gone or cannot be read now.
CLASS_BAR = "page.class_bar"


def class_bar(g) -> dict:
    """``{"class_page": ...}`` for the template of a whole page showing ``g`` (a game link)
    in class mode, else nothing."""
    code = getattr(getattr(g, "settings", None), "class_code", "")
    bar = current_app.extensions.get(CLASS_BAR)
    if not code or bar is None:
        return {}
    return {"class_page": bar(code)}


def draws_dashboard(bar: dict) -> bool:
    """The bar (``class_bar``'s) shows its teacher a class exercise's dashboard: every answer
    marked on a tree of up to 400 nodes (50-130 ms for a class of 100), a drawing that grows
    with the class, drawn in the pages' lane off the loop (``web.htmx.render``)."""
    page = bar.get("class_page")
    return page is not None and page.view.teacher and page.ex is not None
