"""minimax-lab: play games against a game-tree search AI, and see how it thinks.

``create_app`` puts the pieces together: the search engine is ``ai/`` (plain Python), the web
layer is ``web/`` (blueprints, the URL-as-game parser, htmx, languages, headers). Routes:

- ``/``: home; ``/<game>`` for each game of the games table (``web.games``), with
  ``/<game>/move``, ``/ai``, ``/tree``, ``/tree.svg``, ``/compare``, ``/peek`` (``web.play``);
  a game's own pages come from its web package (``GameSpec.web``: ``web.connect4``, ...);
- ``/tree``: the exercise lab (``web.lab``); ``/course``: the course's figures (``web.course``);
- ``/class/...`` (the teacher) and ``/c/<code>`` (students): class mode (``web.classroom``).

Serve it with ``scripts/serve`` (gunicorn, ``gunicorn.conf.py``).
"""
from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter, ValidationError

from web import (admission, classroom, course, i18n, lab, lesson, pages, play, projector, review,
                 security, template_cache, templating, tournament)
from web.games import GAMES


class GameConverter(BaseConverter):
    """``/<game:spec>``: a game of the table, given to the view as its ``GameSpec``."""

    regex = "[a-z0-9-]{1,30}"

    def to_python(self, value):
        if value not in GAMES:
            raise ValidationError()      # not a game: the next route, or a 404
        return GAMES[value]

    def to_url(self, value) -> str:
        return getattr(value, "name", value)


def create_app(test_config: dict | None = None) -> Flask:
    """The app, configured by ``test_config`` (tests) over the defaults."""
    app = Flask(__name__)
    app.config.update(SEND_FILE_MAX_AGE_DEFAULT=3600)
    if test_config:
        app.config.update(test_config)
    app.url_map.converters["game"] = GameConverter
    i18n.init_app(app)
    projector.init_app(app)
    lesson.init_app(app)
    templating.init_app(app)
    template_cache.init_app(app)         # templates compiled once for all workers and starts
    app.register_blueprint(pages.bp)
    app.register_blueprint(course.bp)
    # each game's own pages, before play's /<game>/...: once per web package, which two
    # entries on the same rules may share (a blueprint is registered once)
    for spec in {spec.web: spec for spec in GAMES.values() if spec.web}.values():
        init_game = spec.hook("init_app")
        if init_game is not None:
            init_game(app)
    app.register_blueprint(lab.bp)       # before play: /tree is the lab, not a game
    review.init_app(app)                 # /<game>/review: the exact review of a game
    tournament.init_app(app)             # /<game>/tournament...: a game's tournaments
    app.register_blueprint(play.bp)
    classroom.init_app(app)              # class mode: /class/..., /c/<code>, answers, review
    admission.init_app(app)
    security.init_app(app)
    return app
