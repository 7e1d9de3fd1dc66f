"""Gunicorn's own error answers (a request line too long: 414, too many or too large header
fields: 431 or 400, a malformed request: 400), made as plain and safe as the app's: a fixed
text in plain text, nothing of the request echoed, the same protective headers.
``gunicorn.conf.py`` installs ``write_error`` in place of gunicorn's."""
from __future__ import annotations

from gunicorn import util

TEXTS = {400: "Bad request.", 408: "The request did not arrive in time: try again.",
         413: "The request is too large.", 414: "The link is too long.",
         431: "The request's headers are too large.", 501: "Not implemented."}


def write_error(sock, status_int, reason, mesg):
    """What gunicorn writes to the client on a request it could not parse."""
    body = (TEXTS.get(status_int, reason) + "\n").encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            "Content-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"
            "Content-Security-Policy: default-src 'none'\r\nX-Frame-Options: DENY\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


REFUSAL = b"Too many connections from your address: try again in a few seconds.\n"


REFUSAL_ANSWER = ("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\n"
                  "Content-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"
                  "Content-Security-Policy: default-src 'none'\r\nX-Frame-Options: DENY\r\n"
                  f"Content-Length: {len(REFUSAL)}\r\n\r\n").encode("latin-1") + REFUSAL
"""What ``web.worker`` sends to a connection over its address's bound (then closed)."""


def install() -> None:
    util.write_error = write_error
