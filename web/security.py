"""Security headers on every response, stylesheets without their comments, and gzip for text
bodies."""
from __future__ import annotations

import gzip
import os
import re

from flask import Flask, request
from werkzeug.exceptions import BadHost

# No inline script or style anywhere: htmx reads its settings from a <meta> tag and its
# indicator styles come from app.css (includeIndicatorStyles: false).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# A picture of a tree downloaded for a handout carries its styles inside (a <style> element),
# so that it looks the same opened from a disk; served here it may use them and nothing else.
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
# Addresses of proxies in front (nginx on the same machine: 127.0.0.1), whose
# X-Forwarded-For names the client; none by default: a client could write that header itself.
PROXY_ADDRESSES = frozenset(a.strip() for a in os.environ.get("PROXY_ADDRESSES", "").split(",")
                            if a.strip())


def client_address() -> str:
    """The client's address, for limits per address (live streams, connections): the
    connection's, or behind a proxy of ``PROXY_ADDRESSES``, the one the proxy saw (the last
    of X-Forwarded-For, which the proxy appends)."""
    address = request.remote_addr or ""
    if address in PROXY_ADDRESSES:
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        return forwarded[:64] or address
    return address


GZIP_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "application/json")


def _vary(response, header: str) -> None:
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = header
    elif header.lower() not in vary.lower():
        response.headers["Vary"] = f"{vary}, {header}"


CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def lean_stylesheet(response):
    """A stylesheet goes over the wire without its comments: they say why a rule is there to
    whoever reads static/ (a third of app.css), and a page's first load has a 60 KB budget
    (bench/page_weight.py), which the comments alone took past."""
    if (request.endpoint == "static" and response.mimetype == "text/css"
            and response.status_code == 200):
        response.direct_passthrough = False
        response.set_data(CSS_COMMENT.sub("", response.get_data(as_text=True)))
    return response


def gzip_response(response):
    """Compress a text response when the browser accepts gzip (a board fragment of 13 KB
    goes over the wire as about 2 KB). Every compressible response says it varies with
    Accept-Encoding, compressed or not, and the compressed form has its own ETag, so no cache
    hands a gzip body to a client that did not ask for one."""
    if response.mimetype not in GZIP_TYPES or "Content-Encoding" in response.headers:
        return response
    _vary(response, "Accept-Encoding")
    if (response.status_code not in (200, 400, 503)
            or not request.accept_encodings.quality("gzip")):
        return response
    response.direct_passthrough = False    # static files too: read the file to compress it
    data = response.get_data()
    if len(data) < 600:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(response.get_data()))
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(etag + "-gzip", weak=weak)
    return response


def add_headers(response):
    """Security headers on every response, stylesheets without their comments, and gzip
    for text bodies."""
    h = response.headers
    h.setdefault("Content-Security-Policy",
                 SVG_CSP if response.mimetype == "image/svg+xml" else CSP)
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("Referrer-Policy", "same-origin")
    h.setdefault("X-Frame-Options", "DENY")
    if request.endpoint == "static" and request.args.get("v") and response.status_code == 200:
        # asset() puts a hash of the file's content in its URL: that URL never changes meaning
        response.cache_control.public = True
        response.cache_control.max_age = 31_536_000
        response.cache_control.immutable = True
    return gzip_response(lean_stylesheet(response))


class HostGuard:
    """WSGI middleware: a Host header that is no host name (a label of 64 characters or
    more, an empty one: "a..b", a punycode one that does not decode: "xn--") made Flask's URL
    building (or its ``request.url``) fail on every page, static files
    too, with a 500 and its traceback. Such a request is answered by the app as the 400 it
    is (its error page, translated): the Host is replaced by the server's own name, and
    the request marked, before Flask reads it."""

    MARK = "minimax.bad_host"

    def __init__(self, app: Flask, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ, start_response):
        try:
            self.app.url_map.bind_to_environ(environ)
            # a name that encodes but does not decode ("xn--"): request.url would fail
            host = environ.get("HTTP_HOST", "")
            name = host if host.endswith("]") else host.rpartition(":")[0] or host
            name.encode("idna").decode("idna")
        except (BadHost, UnicodeError):
            environ[self.MARK] = True
            environ["HTTP_HOST"] = environ.get("SERVER_NAME") or "localhost"
            environ.pop("HTTP_X_FORWARDED_HOST", None)
        return self.wsgi_app(environ, start_response)


def refuse_bad_host():
    if request.environ.get(HostGuard.MARK):
        raise BadHost()


def init_app(app: Flask) -> None:
    app.wsgi_app = HostGuard(app, app.wsgi_app)
    app.before_request(refuse_bad_host)
    app.after_request(add_headers)
