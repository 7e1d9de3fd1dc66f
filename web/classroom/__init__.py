"""Class mode, a wing of its own: the teacher's projector shows a board the class follows live
on phones and laptops; students vote, answer questions and exercises, and review the game.

Its rooms:

- ``store``: the class's state and its fan-out, one interface, two backends (SQLite, Redis);
  ``answers``: what the class answers beyond the vote, on the same store's primitives;
- ``live``: one worker's open streams (server-sent events), woken by the store;
- ``view``: what the class pages show, decided once, so the templates only draw;
- ``questions`` (peer instruction, "predict the next step"), ``exercise`` (a tree of the lab
  sent to the class) and ``plan`` (a lesson prepared as a list of links);
- ``reading``: what one class page draws, read from the store in one round trip;
  ``page``: the page object the views hand the templates (the teacher's bar, the phone),
  computed from that read: the templates never reach the store;
- ``review``: a finished class game's review as the phones show it;
- the blueprints: ``views`` (``/class/...``, the teacher; ``/c/<code>``, the students; the
  streams, the ballot) and ``activities`` (questions, exercises, the plan, the summary and
  its CSV, the review shown on the phones).

``init_app`` opens the store and registers them (``app.create_app``).
"""
from __future__ import annotations

from flask import Flask

from . import activities, views


def init_app(app: Flask) -> None:
    views.init_app(app)          # the store, the streams: /class/..., /c/<code>
    activities.init_app(app)     # what the class answers, the plan, the review on the phones
