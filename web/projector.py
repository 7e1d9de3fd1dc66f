"""Projector mode (``proj=1``): large type and high contrast on every page, kept in every link
as the language is, so a teacher who starts in it stays in it from page to page."""
from __future__ import annotations

from flask import Flask, g, has_request_context, request
from markupsafe import Markup

from .links import this_page


def projector_on() -> bool:
    """Whether this page is in projector mode. The game pages also read ``proj`` strictly
    (a bad value is a 400 there); here any value but 1 simply means "off"."""
    if not has_request_context():
        return False
    on = g.get("_projector_on")
    if on is None:       # once per request: every link of a page asks
        on = g._projector_on = request.args.get("proj") == "1"
    return on


def add_proj(endpoint, values) -> None:
    if endpoint != "static" and "proj" not in values and projector_on():
        values["proj"] = 1


def proj_field() -> Markup | str:
    """The hidden field that keeps projector mode in a form (the game's own forms carry it
    among the game's parameters)."""
    return Markup('<input type="hidden" name="proj" value="1">') if projector_on() else ""


def projector_link(on: bool) -> str:
    """This page's link with projector mode turned on or off."""
    return this_page(proj=1 if on else 0)


def init_app(app: Flask) -> None:
    app.url_defaults(add_proj)
    app.jinja_env.globals.update(projector_on=projector_on, proj_field=proj_field,
                                 projector_link=projector_link)
