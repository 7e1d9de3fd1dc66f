"""Blueprint ``pages``: the home page, and the error pages of the whole app."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.exceptions import HTTPException

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    """The home page: what the app does for a lesson and for a game."""
    return render_template("home.html")


@bp.get("/favicon.ico")
def favicon():
    """The icon, for clients that ask for it at its old address without reading the page."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.app_errorhandler(HTTPException)
def http_error(err: HTTPException):
    """Any HTTP error (404, 405...) as a page of the app, in the page's language."""
    return render_template("error.html", error=err), err.code
