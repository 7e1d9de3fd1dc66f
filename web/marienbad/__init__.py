"""Marienbad's own page (``theory``: the heaps in binary, the columns' parities and the rule
of the "position paire", revealed step by step, ``/marienbad/theory``) and the hooks the
shared pages ask it for (``GameSpec.hook``)."""
from __future__ import annotations

from flask import Flask

from ..notation import set_estimate_total
from . import theory


def init_app(app: Flask) -> None:
    app.register_blueprint(theory.bp)


def prepare(rules) -> None:
    """A page of this game: the course's estimate is written M − r/n, n the matches at the
    start (seed 003's matches game, carried over)."""
    set_estimate_total(sum(rules.heaps))
