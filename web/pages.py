"""Blueprint ``pages``: the home page, and the error pages of the whole app."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from .course import HOME_FIGURE, HOME_USES

bp = Blueprint("pages", __name__)

# The error pages in the page's language (Werkzeug's own names and descriptions are English).
HTTP_ERRORS = {
    400: (_l("Bad Request"), _l("The link or the form has something the app cannot read.")),
    404: (_l("Page not found"),
          _l("There is no page at this address. Check the link, or go back to the games.")),
    405: (_l("Method not allowed"), _l("This address does not answer this kind of request.")),
    408: (_l("Request too slow"), _l("The request did not arrive in time: try again.")),
    413: (_l("Request too large"), _l("The request is larger than the app accepts.")),
    414: (_l("Link too long"), _l("The link is longer than the app accepts.")),
    429: (_l("Too many requests"), _l("Too many searches in a short time: try again soon.")),
    500: (_l("Server error"), _l("Something went wrong on the server. Try again, or go back "
                                 "to the games.")),
    503: (_l("Server busy"), _l("The server is busy: try again in a moment.")),
}


@bp.get("/")
def home():
    """The home page: what the app does for a lesson and for a game."""
    return render_template("home.html", figure=HOME_FIGURE, uses=HOME_USES)


@bp.get("/favicon.ico")
def favicon():
    """The icon, for clients that ask for it at its old address without reading the page."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.app_errorhandler(HTTPException)
def http_error(err: HTTPException):
    """Any HTTP error (404, 405...) as a page of the app, in the page's language."""
    name, description = HTTP_ERRORS.get(err.code, (_l("Error"), _l("The request failed.")))
    error = dict(code=err.code, name=name, description=description)
    response = err.get_response()          # its headers (Retry-After, Allow), the app's page
    response.set_data(render_template("error.html", error=error))
    response.mimetype = "text/html"
    return response
