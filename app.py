"""minimax-lab's web layer: Flask views that read a game from its URL, call ``ai/`` and render
the page, or just its ``game`` block for htmx requests (jinja2-fragments), from one template.

The whole game lives in the URL (``/connect4?moves=4453&mode=human-ai&level=hard``), so any
position is a link, any gunicorn worker can answer, and the server keeps no session:

- ``GET /connect4``, ``GET /nim``: show a position. Never plays a move, so a link can be
  opened, reloaded and shared safely. If the AI is to move, the page asks for its move
  (``hx-trigger="load"``; without JavaScript, a button).
- ``GET /<game>/move``: a person's move (``col=`` or ``take=``); plays it, then the AI's reply
  if the AI is to move.
- ``GET /<game>/ai``: the AI plays the side to move (AI first, AI vs AI demo).

A move request answers htmx with the ``game`` fragment and ``HX-Push-Url`` (the position's
canonical link); a plain browser is redirected (303) to that link. Bad input is a 400 with a
readable message in the page.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from flask import Flask, Response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_block
from werkzeug.exceptions import HTTPException

from ai.connect4 import Connect4
from ai.heuristics import heuristics_for, make_heuristic
from ai.levels import DEFAULT_LEVEL, LEVELS
from ai.nim import Nim
from ai.search import ALGORITHMS, MAX_SCORE, WIN_THRESHOLD, search

MODES = ("human-ai", "ai-human", "human-human", "ai-ai")
ALGORITHM_LABELS = {"minimax": "minimax", "alphabeta": "alpha-beta",
                    "alphabeta-tt": "alpha-beta + table", "iterative": "iterative deepening"}
MAX_DEPTH = {"minimax": 8, "alphabeta": 12, "alphabeta-tt": 14, "iterative": 20}
MAX_TIME_MS = 2000          # no search may run longer than this
MAX_NODES = 400_000         # nor visit more nodes than this
MAX_PARAM = 200             # longest accepted parameter value (moves included)


class BadRequest(ValueError):
    """A parameter a person (or an edited link) got wrong: shown in the page with a 400."""


# -- reading the URL ---------------------------------------------------------------------------

def _int(args, name, default, lo, hi):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if len(raw) > 12 or not raw.strip().lstrip("-").isdigit() or not raw.isascii():
        raise BadRequest(f"{name} must be a whole number from {lo} to {hi}, not {raw[:20]!r}")
    value = int(raw)
    if not lo <= value <= hi:
        raise BadRequest(f"{name} must be from {lo} to {hi}, not {value}")
    return value


def _choice(args, name, default, choices):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in choices:
        raise BadRequest(f"{name} must be one of {', '.join(choices)}, not {raw[:30]!r}")
    return raw


def _flag(args, name, default=False):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in ("0", "1"):
        raise BadRequest(f"{name} must be 0 or 1, not {raw[:20]!r}")
    return raw == "1"


@dataclass(frozen=True)
class Settings:
    """Everything about a game that is not the moves: who plays, how the AI searches."""

    game: str
    mode: str = "human-ai"
    level: str = DEFAULT_LEVEL     # a preset, or "custom"
    algorithm: str = "iterative"
    depth: int = 7
    time_ms: int = 250
    heuristic: str = ""
    autoplay: bool = True          # AI vs AI: keep playing
    # Connect-4
    width: int = 7
    height: int = 6
    # Nim
    n: int = 21
    k: int = 3
    variant: str = "normal"

    def make_game(self):
        return Connect4(self.width, self.height) if self.game == "connect4" else Nim(self.n, self.k, self.variant)

    def ai_plays(self, player: int) -> bool:
        return {"human-ai": player == 1, "ai-human": player == 0,
                "human-human": False, "ai-ai": True}[self.mode]

    def params(self) -> dict:
        """URL parameters that differ from the defaults (short links)."""
        default = DEFAULTS[self.game]
        out = {}
        names = ["mode", "level"]
        if self.level == "custom":
            names += ["algorithm", "depth", "time_ms", "heuristic"]
        names += ["width", "height"] if self.game == "connect4" else ["n", "k", "variant"]
        for name in names:
            value = getattr(self, name)
            if value != getattr(default, name):
                out[PARAM_NAMES[name]] = value
        if self.mode == "ai-ai" and not self.autoplay:
            out["play"] = 0
        return out


PARAM_NAMES = {"mode": "mode", "level": "level", "algorithm": "algo", "depth": "depth",
               "time_ms": "time", "heuristic": "heur", "width": "w", "height": "h",
               "n": "n", "k": "k", "variant": "variant"}


def _level_settings(game: str, level: str) -> dict:
    preset = LEVELS[level]
    return dict(algorithm=preset.algorithm, depth=preset.depth,
                time_ms=int(preset.time_limit * 1000),
                heuristic=preset.heuristics.get(game) or "")


DEFAULTS = {g: Settings(g, **_level_settings(g, DEFAULT_LEVEL)) for g in ("connect4", "nim")}


def parse_settings(game: str, args) -> Settings:
    for name, value in args.items():
        if len(value) > MAX_PARAM:
            raise BadRequest(f"{name} is too long ({len(value)} characters, at most {MAX_PARAM})")
    mode = _choice(args, "mode", "human-ai", MODES)
    level = _choice(args, "level", DEFAULT_LEVEL, (*LEVELS, "custom"))
    base = _level_settings(game, level if level != "custom" else DEFAULT_LEVEL)
    values = dict(game=game, mode=mode, level=level, autoplay=_flag(args, "play", True))
    if game == "connect4":
        values.update(width=_int(args, "w", 7, 4, 9), height=_int(args, "h", 6, 4, 9))
        heuristic_names = list(heuristics_for(Connect4()))
    else:
        values.update(n=_int(args, "n", 21, 1, 99), k=_int(args, "k", 3, 1, 9),
                      variant=_choice(args, "variant", "normal", ("normal", "misere")))
        heuristic_names = list(heuristics_for(Nim()))
    if level == "custom":
        algorithm = _choice(args, "algo", base["algorithm"], tuple(ALGORITHMS))
        values.update(algorithm=algorithm,
                      depth=_int(args, "depth", min(base["depth"], MAX_DEPTH[algorithm]), 1,
                                 MAX_DEPTH[algorithm]),
                      time_ms=_int(args, "time", base["time_ms"], 10, MAX_TIME_MS),
                      heuristic=_choice(args, "heur", base["heuristic"], heuristic_names))
    else:
        values.update(base)
    return Settings(**values)


@dataclass
class Game:
    """A game read from the URL: its settings, its moves, the position shown."""

    settings: Settings
    rules: object                  # ai.connect4.Connect4 or ai.nim.Nim
    moves: list                    # every move in the link (the future too, for redo)
    at: int                        # how many of them are shown (history navigation)
    states: list = field(default_factory=list)   # states[i]: after i moves

    @property
    def state(self):
        return self.states[self.at]

    @property
    def live(self) -> bool:
        return self.at == len(self.moves)

    @property
    def over(self) -> bool:
        return self.rules.is_terminal(self.state)

    @property
    def to_move(self) -> int:
        return self.rules.to_move(self.state)

    @property
    def ai_to_move(self) -> bool:
        return not self.over and self.settings.ai_plays(self.to_move)

    def moves_text(self, upto=None) -> str:
        return self.rules.format_moves(self.moves[:self.at if upto is None else upto])

    def query(self, upto=None, **extra) -> dict:
        """The URL parameters of this game showing ``upto`` moves (default: as shown)."""
        upto = self.at if upto is None else upto
        params = {"moves": self.rules.format_moves(self.moves)} if self.moves else {}
        if upto != len(self.moves):
            params["at"] = upto
        params.update(self.settings.params())
        params.update(extra)
        return params

    def url(self, endpoint=None, upto=None, **extra) -> str:
        """The link to this game showing ``upto`` moves (default: the shown position)."""
        params = self.query(upto, **extra)
        return url_for(endpoint or self.settings.game) + ("?" + urlencode(params) if params else "")

    def _human_turn(self, i) -> bool:
        return self.rules.is_terminal(self.states[i]) or not self.settings.ai_plays(
            self.rules.to_move(self.states[i]))

    @property
    def undo_to(self):
        """Where undo goes: back to the previous position where a person is to move (against
        the AI that takes back its reply and your move), or None at the start."""
        i = self.at - 1
        while i > 0 and not self._human_turn(i) and self.settings.mode != "ai-ai":
            i -= 1
        return i if i >= 0 else None

    @property
    def redo_to(self):
        if self.live:
            return None
        i = self.at + 1
        while i < len(self.moves) and not self._human_turn(i) and self.settings.mode != "ai-ai":
            i += 1
        return i

    @property
    def last_cell(self):
        """Connect-4: (col, row) of the last stone shown, to highlight it."""
        if self.at == 0 or self.settings.game != "connect4":
            return None
        col = self.moves[self.at - 1]
        return col, (self.state.mask & self.rules.column_mask[col]).bit_count() - 1

    @property
    def winner(self):
        return self.rules.winner(self.state)

    def truncated(self) -> "Game":
        """The game as played from the shown position: a new move drops the undone ones."""
        return replace(self, moves=self.moves[:self.at], states=self.states[:self.at + 1])

    def play(self, move) -> "Game":
        state = self.rules.result(self.state, move)   # ValueError: illegal move
        return replace(self, moves=self.moves + [move], at=self.at + 1,
                       states=self.states + [state])


def parse_game(game: str, args) -> Game:
    settings = parse_settings(game, args)
    rules = settings.make_game()
    text = args.get("moves", "")
    try:
        moves = rules.parse_moves(text)
    except ValueError as err:
        raise BadRequest(f"moves: {err}") from None
    states = [rules.initial_state()]
    for i, move in enumerate(moves, 1):
        try:
            states.append(rules.result(states[-1], move))
        except ValueError as err:
            raise BadRequest(f"move {i} of {text!r}: {err}") from None
    at = _int(args, "at", len(moves), 0, len(moves))
    return Game(settings, rules, moves, at, states)


# -- the AI ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AIMove:
    move: object
    label: str            # the move as people write it
    value: float
    nodes: int
    depth: int
    ms: float
    algorithm: str
    complete: bool

    @property
    def value_text(self) -> str:
        return format_value(self.value)


def format_value(value) -> str:
    """A search value for people: a proven result in words, an estimate as a number."""
    if value >= WIN_THRESHOLD:
        return f"win in {int(MAX_SCORE - value)}"
    if value <= -WIN_THRESHOLD:
        return f"loss in {int(MAX_SCORE + value)}"
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):+d}"


def ai_move(g: Game) -> AIMove:
    """Run the game's search for the side to move, within the depth, time and node bounds."""
    s = g.settings
    kwargs = dict(heuristic=make_heuristic(g.rules, s.heuristic or None), order="center",
                  time_limit=s.time_ms / 1000, max_nodes=MAX_NODES)
    if s.algorithm == "iterative":
        kwargs["max_depth"] = s.depth
    else:
        kwargs["depth"] = s.depth
    start = time.perf_counter()
    r = search(s.algorithm, g.rules, g.state, **kwargs)
    ms = (time.perf_counter() - start) * 1000
    return AIMove(r.move, g.rules.format_move(r.move), r.value, r.stats.nodes, r.stats.depth,
                  ms, ALGORITHM_LABELS[s.algorithm], r.complete)


# -- the application ---------------------------------------------------------------------------

def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(SEND_FILE_MAX_AGE_DEFAULT=3600)
    if test_config:
        app.config.update(test_config)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_null_translations(newstyle=True)

    @app.context_processor
    def globals_():
        return {"MODES": MODES, "LEVELS": LEVELS, "ALGORITHM_LABELS": ALGORITHM_LABELS,
                "MAX_DEPTH": MAX_DEPTH, "MAX_TIME_MS": MAX_TIME_MS, "heuristics_for": heuristics_for}

    def is_htmx() -> bool:
        # A history restore also carries HX-Request but needs the whole page.
        return (request.headers.get("HX-Request") == "true"
                and request.headers.get("HX-History-Restore-Request") != "true")

    def render(template: str, status: int = 200, push_url: str | None = None, **context):
        if is_htmx():
            body = render_block(template, "game", **context)
        else:
            body = render_template(template, **context)
        response = Response(body, status=status, mimetype="text/html")
        response.headers["Vary"] = "HX-Request"
        if push_url and is_htmx():
            response.headers["HX-Push-Url"] = push_url
        return response

    def game_page(game: str, g: Game, *, status=200, error=None, ai: AIMove | None = None,
                  push=False):
        return render(f"{game}.html", status=status, push_url=g.url() if push else None,
                      g=g, error=error, ai=ai)

    def bad_request(game: str, err: Exception):
        """The page with the error shown in it: the game as the link gave it if it parses,
        else a new game, so the person can carry on."""
        try:
            g = parse_game(game, request.args)
        except BadRequest:
            g = parse_game(game, {})
        return game_page(game, g, status=400, error=str(err))

    @app.get("/")
    def home():
        """The home page: choose a game."""
        return render_template("home.html")

    def show(game):
        try:
            g = parse_game(game, request.args)
        except BadRequest as err:
            return bad_request(game, err)
        return game_page(game, g)

    def move(game, param):
        """A person's move, then the AI's reply if it is the AI's turn."""
        try:
            g = parse_game(game, request.args).truncated()
            if g.over:
                raise BadRequest("the game is over: start a new game or undo")
            if g.ai_to_move:
                raise BadRequest("it is the AI's turn, not yours")
            raw = request.args.get(param, "")
            try:
                g = g.play(g.rules.parse_move(raw))
            except ValueError as err:
                raise BadRequest(str(err)) from None
        except BadRequest as err:
            return bad_request(game, err)
        ai = None
        if g.ai_to_move and g.settings.mode != "ai-ai":
            ai = ai_move(g)
            g = g.play(ai.move)
        return answer(game, g, ai)

    def ai(game):
        """The AI plays the side to move."""
        try:
            g = parse_game(game, request.args).truncated()
            if g.over:
                raise BadRequest("the game is over: start a new game or undo")
            if not g.ai_to_move:
                raise BadRequest("it is your turn, not the AI's")
        except BadRequest as err:
            return bad_request(game, err)
        reply = ai_move(g)
        return answer(game, g.play(reply.move), reply)

    def answer(game, g, ai):
        if is_htmx():
            return game_page(game, g, ai=ai, push=True)
        return redirect(g.url(), code=303)

    for game, param in (("connect4", "col"), ("nim", "take")):
        app.add_url_rule(f"/{game}", game, lambda game=game: show(game))
        app.add_url_rule(f"/{game}/move", f"{game}_move",
                         lambda game=game, param=param: move(game, param))
        app.add_url_rule(f"/{game}/ai", f"{game}_ai", lambda game=game: ai(game))

    @app.errorhandler(HTTPException)
    def http_error(err):
        return render_template("error.html", error=err), err.code

    return app
