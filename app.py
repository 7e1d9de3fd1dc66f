"""minimax-lab: the Flask application (``create_app`` is the factory gunicorn calls)."""
from __future__ import annotations

from flask import Flask, render_template


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def home():
        """The home page: choose a game."""
        return render_template("home.html")

    return app
