"""The one place that reads htmx's request headers: answer a whole page, or only the block of
the page's own template that htmx asked for (jinja2-fragments), so page and fragment never
drift apart."""
from __future__ import annotations

from flask import Response, render_template, request
from jinja2_fragments.flask import render_block


def is_htmx() -> bool:
    """An htmx request that swaps part of the page. A history restore also carries
    ``HX-Request`` but needs the whole page."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render(template: str, *, block: str, status: int = 200, push_url: str | None = None,
           **context) -> Response:
    """``template`` whole, or its ``block`` alone for htmx; ``push_url`` becomes the
    address bar's link (``HX-Push-Url``)."""
    if is_htmx():
        body = render_block(template, block, **context)
    else:
        body = render_template(template, **context)
    response = Response(body, status=status, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    return response
