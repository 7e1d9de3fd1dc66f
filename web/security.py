"""Security headers on every response, and gzip for text bodies."""
from __future__ import annotations

import gzip

from flask import Flask, request

# No inline script or style anywhere: htmx reads its settings from a <meta> tag and its
# indicator styles come from app.css (includeIndicatorStyles: false).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# A picture of a tree downloaded for a handout carries its styles inside (a <style> element),
# so that it looks the same opened from a disk; served here it may use them and nothing else.
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
GZIP_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "application/json")


def _vary(response, header: str) -> None:
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = header
    elif header.lower() not in vary.lower():
        response.headers["Vary"] = f"{vary}, {header}"


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
    """Security headers on every response, and gzip for text bodies."""
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
    return gzip_response(response)


def init_app(app: Flask) -> None:
    app.after_request(add_headers)
