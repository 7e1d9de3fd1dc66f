"""What every template can use: asset links with a content hash, labels, formatters."""
from __future__ import annotations

import hashlib

from flask import Flask, url_for

from ai.heuristics import heuristics_for
from ai.levels import LEVELS
from ai.course.scores import HEURISTIC_MAX, MAX_SCORE, WIN_THRESHOLD
from ai.teach.table_view import key_text
from ai.teach.tree_layout import handout_geometry, tree_geometry
from ai.teach.tree_view import fit_text, path_of, text_width, walk, width, wrap_text

from .charts import iteration_chart
from .fragments import drawn_once
from .links import link
from .games import GAMES, ORDER_LABELS
from .i18n import (ALGORITHM_LABELS, LANGUAGES, LEVEL_LABELS, PLAYER_NAMING_LABELS,
                   decimal_mark, get_locale, lang_field, num, switch_lang, this_page, tr)
from .game_link import MAX_DEPTH, MAX_TIME_MS, MODES
from .notation import (add_notation, bound_shown, current_notation, format_bound, format_long,
                       format_shown, notation_field, value_message, value_text)


def init_app(app: Flask) -> None:
    versions = {}

    def asset(filename: str) -> str:
        """A static file's URL with a hash of its content, so a browser that cached it
        still fetches the new one after an update."""
        if filename not in versions:
            with app.open_resource(f"static/{filename}") as f:
                versions[filename] = hashlib.sha256(f.read()).hexdigest()[:10]
        return url_for("static", filename=filename, v=versions[filename])

    app.jinja_env.globals.update(
        asset=asset, drawn_once=drawn_once, link=link, GAMES=GAMES, MODES=MODES, LEVELS=LEVELS, ALGORITHM_LABELS=ALGORITHM_LABELS,
        LEVEL_LABELS=LEVEL_LABELS, ORDER_LABELS=ORDER_LABELS, MAX_DEPTH=MAX_DEPTH,
        MAX_TIME_MS=MAX_TIME_MS, LANGUAGES=LANGUAGES, heuristics_for=heuristics_for,
        fmt=format_bound, fmt_long=format_long, fmt_shown=format_shown, bound_shown=bound_shown, walk=walk, view_width=width, fit_text=fit_text, wrap_text=wrap_text, zobrist_key=key_text, text_width=text_width, path_of=path_of, lang_field=lang_field,
        num=num, decimal_mark=decimal_mark, switch_lang=switch_lang, tr=tr, value_message=value_message, iteration_chart=iteration_chart,
        WIN_THRESHOLD=WIN_THRESHOLD, MAX_SCORE=MAX_SCORE, HEURISTIC_MAX=HEURISTIC_MAX,
        PLAYER_NAMING_LABELS=PLAYER_NAMING_LABELS, current_notation=current_notation,
        notation_field=notation_field, value_text=value_text, switch_notation=lambda n: this_page(notation=n))
    app.jinja_env.globals.update(tree_geometry=tree_geometry, handout_geometry=handout_geometry)
    app.url_defaults(add_notation)

    @app.context_processor
    def page_language():
        return {"locale": str(get_locale())}
