"""The one place that reads htmx's request headers: answer a whole page, or only the block of
the page's own template that htmx asked for (jinja2-fragments), so page and fragment never
drift apart."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import Response, render_template, request
from jinja2_fragments.flask import render_block


def is_htmx() -> bool:
    """An htmx request that swaps part of the page. A history restore also carries
    ``HX-Request`` but needs the whole page."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def current_page_args() -> dict:
    """The parameters of the page the browser shows while it makes this htmx request
    (``HX-Current-URL``), e.g. whether it is at a step of a replay; {} if unknown."""
    url = request.headers.get("HX-Current-URL", "") if is_htmx() else ""
    return parse_qs(urlsplit(url[:4096]).query)


def render(template: str, *, block: str, status: int = 200, push_url: str | None = None,
           replace_url: str | None = None, **context) -> Response:
    """``template`` whole, or its ``block`` alone for htmx; ``push_url`` becomes the
    address bar's link as a new history entry (``HX-Push-Url``), ``replace_url`` in place of
    the current one (``HX-Replace-Url``: Back then skips it)."""
    if is_htmx():
        body = render_block(template, block, **context)
    else:
        body = render_template(template, **context)
    response = Response(body, status=status, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    elif replace_url and is_htmx():
        response.headers["HX-Replace-Url"] = replace_url
    return response
