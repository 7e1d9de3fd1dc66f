"""Security headers on every response, and gzip for text bodies."""
from __future__ import annotations

import gzip

from flask import Flask, request

# No inline script or style anywhere: htmx reads its settings from a <meta> tag and its
# indicator styles come from app.css (includeIndicatorStyles: false).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
GZIP_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "application/json")


def gzip_response(response):
    """Compress a text response when the browser accepts gzip (a board fragment of 13 KB
    goes over the wire as about 2 KB)."""
    if (response.status_code not in (200, 400) or "Content-Encoding" in response.headers
            or response.mimetype not in GZIP_TYPES
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    response.direct_passthrough = False    # static files too: read the file to compress it
    data = response.get_data()
    if len(data) < 600:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(response.get_data()))
    vary = response.headers.get("Vary")
    response.headers["Vary"] = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
    return response


def add_headers(response):
    """Security headers on every response, and gzip for text bodies."""
    h = response.headers
    h.setdefault("Content-Security-Policy", CSP)
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("Referrer-Policy", "same-origin")
    h.setdefault("X-Frame-Options", "DENY")
    return gzip_response(response)


def init_app(app: Flask) -> None:
    app.after_request(add_headers)
