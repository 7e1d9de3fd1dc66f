"""Tournaments of heuristics and levels in the web app, for every game whose web package gives
its part (``game.TournamentGame``, the hook ``tournament_game``): these modules name no game.

- ``page``: ``/<game>/tournament``, a tournament the link holds, played in the request's lane;
- ``live``: ``/<game>/tournament/live/<code>``, a class's tournament on the projector and the
  phones, its games played beside the lesson by ``runner``, kept in the class store
  (``web.classroom.tournaments``);
- ``results``: ``/<game>/tournament/results?t=...``, a class tournament's standings reopened
  from a link after the class has gone;
- ``entrants``: the entrants a link or a form gives, each wrong one a translated 400;
- ``finale``: the best of 3 between the top two, then the perfect player (``live``'s route).

``init_app`` registers them (``app.create_app``) and starts each worker's runner once it has
booted (``live.after_boot``).
"""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from . import live, page, results
    app.register_blueprint(page.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(results.bp)
    app.extensions.setdefault("after_boot", []).append(live.after_boot)
