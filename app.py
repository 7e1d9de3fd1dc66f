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
- ``GET /<game>/tree`` (the tree panel alone: unfold ``path=``, ``step=``), ``/<game>/tree.svg``
  (download), ``/<game>/peek`` (a node's position), ``/<game>/compare`` (algorithms side by
  side), ``/nim/theory`` (the whole Nim tree and the theory), ``/tree`` (the exercise lab).

A move request answers htmx with the ``game`` fragment and ``HX-Push-Url`` (the position's
canonical link); a plain browser is redirected (303) to that link. Bad input is a 400 with a
readable message in the page.
"""
from __future__ import annotations

import gzip
import hashlib
import math
import time
from dataclasses import dataclass, field, replace

from flask import Flask, Response, redirect, render_template, request, url_for
from flask_babel import Babel, format_decimal, get_locale, gettext, lazy_gettext as _l
from markupsafe import Markup, escape
from jinja2_fragments.flask import render_block
from werkzeug.exceptions import HTTPException

from ai.connect4 import Connect4
from ai.compare import VARIANTS, compare as compare_algorithms
from ai.exercise import check as check_answer, name as node_name, solve as solve_tree
from ai.exercise_tree import ExerciseTree, format_tree
from ai.heuristics import heuristics_for, make_heuristic
from ai.levels import DEFAULT_LEVEL, LEVELS
from ai.messages import GameError, translate
from ai.nim import Nim
from ai.nim_tree import nim_tree_size
from ai.search import ALGORITHMS, INF, MAX_SCORE, WIN_THRESHOLD, SearchResult, search
from ai.tree_view import caption_counts, full_tree_size, path_of, replay, unfold, walk, width

MODES = ("human-ai", "ai-human", "human-human", "ai-ai")
WINDOWS = ("infinite", "course")
ORDERS = ("center", "natural", "reverse")
ALGORITHM_LABELS = {"minimax": _l("minimax"), "alphabeta": _l("alpha-beta"),
                    "alphabeta-tt": _l("alpha-beta + table"),
                    "iterative": _l("iterative deepening")}
LEVEL_LABELS = {"beginner": _l("beginner"), "easy": _l("easy"), "medium": _l("medium"),
                "hard": _l("hard"), "expert": _l("expert")}
LANGUAGES = {"en": "English", "fr": "Français"}
MAX_DEPTH = {"minimax": 8, "alphabeta": 12, "alphabeta-tt": 14, "iterative": 20}
MAX_TIME_MS = 2000          # no search may run longer than this
MAX_NODES = 400_000         # nor visit more nodes than this
MAX_PARAM = 200             # longest accepted parameter value (moves included)


class BadRequest(GameError):
    """A parameter a person (or an edited link) got wrong: shown in the page with a 400,
    in the page's language (the template is the catalogue's msgid)."""


# -- reading the URL ---------------------------------------------------------------------------

def as_bad_request(err: ValueError) -> BadRequest:
    """A ValueError from ``ai/`` as a BadRequest, keeping its template for translation."""
    if isinstance(err, GameError):
        return BadRequest(err.template, **err.values)
    return BadRequest("%(err)s", err=str(err))


def _int(args, name, default, lo, hi):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if len(raw) > 12 or not raw.strip().lstrip("-").isdigit() or not raw.isascii():
        raise BadRequest("%(name)s must be a whole number from %(lo)s to %(hi)s, not %(raw)r",
                         name=name, lo=lo, hi=hi, raw=raw[:20])
    value = int(raw)
    if not lo <= value <= hi:
        raise BadRequest("%(name)s must be from %(lo)s to %(hi)s, not %(value)s",
                         name=name, lo=lo, hi=hi, value=value)
    return value


def _choice(args, name, default, choices):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in choices:
        raise BadRequest("%(name)s must be one of %(choices)s, not %(raw)r",
                         name=name, choices=", ".join(choices), raw=raw[:30])
    return raw


def _flag(args, name, default=False):
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in ("0", "1"):
        raise BadRequest("%(name)s must be 0 or 1, not %(raw)r", name=name, raw=raw[:20])
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
    window: str = "infinite"       # alpha-beta's first window: infinite or the course's ±maxScore
    order: str = "center"          # children tried: center (Connect-4 centre first), natural, reverse
    autoplay: bool = True          # AI vs AI: keep playing
    show_tree: bool = False        # the tree panel: what the AI's search explored
    tree_depth: int | None = None  # the depth that search reached (iterative deepening)
    projector: bool = False        # projector mode: big type, high contrast, tree beside
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
            names += ["algorithm", "depth", "time_ms", "heuristic", "window", "order"]
        names += ["width", "height"] if self.game == "connect4" else ["n", "k", "variant"]
        for name in names:
            value = getattr(self, name)
            if value != getattr(default, name):
                out[PARAM_NAMES[name]] = value
        if self.mode == "ai-ai" and not self.autoplay:
            out["play"] = 0
        if self.show_tree:
            out["tree"] = 1
            if self.tree_depth is not None:
                out["td"] = self.tree_depth
        if self.projector:
            out["proj"] = 1
        return out


PARAM_NAMES = {"mode": "mode", "level": "level", "algorithm": "algo", "depth": "depth",
               "time_ms": "time", "heuristic": "heur", "window": "window", "order": "order", "width": "w", "height": "h",
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
            raise BadRequest("%(name)s is too long (%(n)s characters, at most %(most)s)",
                             name=name[:30], n=len(value), most=MAX_PARAM)
    mode = _choice(args, "mode", "human-ai", MODES)
    level = _choice(args, "level", DEFAULT_LEVEL, (*LEVELS, "custom"))
    base = _level_settings(game, level if level != "custom" else DEFAULT_LEVEL)
    values = dict(game=game, mode=mode, level=level, autoplay=_flag(args, "play", True),
                  show_tree=_flag(args, "tree"), projector=_flag(args, "proj"))
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
                      heuristic=_choice(args, "heur", base["heuristic"], heuristic_names),
                      window=_choice(args, "window", "infinite", WINDOWS),
                      order=_choice(args, "order", "center", ORDERS))
    else:
        values.update(base)
    if values["show_tree"]:
        values["tree_depth"] = _int(args, "td", None, 1, values["depth"])
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
        return url_for(endpoint or self.settings.game, **self.query(upto, **extra))

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
        raise BadRequest("moves: %(err)s", err=err) from None
    states = [rules.initial_state()]
    for i, move in enumerate(moves, 1):
        try:
            states.append(rules.result(states[-1], move))
        except ValueError as err:
            raise BadRequest("move %(i)s of %(text)r: %(err)s", i=i, text=text, err=err) from None
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
        return gettext("win in %(n)s", n=int(MAX_SCORE - value))
    if value <= -WIN_THRESHOLD:
        return gettext("loss in %(n)s", n=int(MAX_SCORE + value))
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):+d}"


def run_search(settings: Settings, rules, state, *, record=False, depth=None,
               time_limit=None, max_nodes=MAX_NODES) -> SearchResult:
    """The AI's search as ``settings`` say, always bounded by depth, nodes and time."""
    kwargs = dict(heuristic=make_heuristic(rules, settings.heuristic or None),
                  order=settings.order, time_limit=time_limit or settings.time_ms / 1000,
                  max_nodes=max_nodes, record=record)
    if settings.algorithm != "minimax":
        kwargs["window"] = settings.window
    depth = depth or settings.depth
    if settings.algorithm == "iterative":
        kwargs["max_depth"] = depth
    else:
        kwargs["depth"] = depth
    return search(settings.algorithm, rules, state, **kwargs)


def ai_move(g: Game, record=False) -> tuple[AIMove, SearchResult]:
    """The AI's move for the side to move, and the search behind it."""
    start = time.perf_counter()
    r = run_search(g.settings, g.rules, g.state, record=record)
    ms = (time.perf_counter() - start) * 1000
    return (AIMove(r.move, g.rules.format_move(r.move), r.value, r.stats.nodes, r.stats.depth,
                   ms, ALGORITHM_LABELS[g.settings.algorithm], r.complete), r)


# -- the tree panel ------------------------------------------------------------------------------

TREE_MAX_NODES = 60_000      # recording more than this is refused (the panel says so)
TREE_TIME = 2.0              # seconds
STEP_MAX_EVENTS = 2_000      # step-by-step replay for trees up to a few hundred nodes


@dataclass
class TreePanel:
    """What the tree panel shows: the search behind a move, folded around ``path``."""

    g: Game
    base: int                  # the search was made in g.states[base]
    about: str                 # "last": the AI's last move; "next": what the AI would play
    result: SearchResult
    path: tuple
    view: object               # ai.tree_view.ViewNode
    total: int | None          # nodes of the whole tree to that depth, when countable
    step: int | None = None
    replay: list | None = None
    event: tuple | None = None

    @property
    def counts(self):
        return caption_counts(self.result.tree)

    @property
    def steppable(self) -> bool:
        return len(self.result.tree.events) <= STEP_MAX_EVENTS

    def path_text(self, path) -> str:
        return self.g.rules.format_moves(path)

    def url(self, endpoint=None, path=None, step=None):
        extra = {}
        path = self.path if path is None else path
        if path:
            extra["path"] = self.path_text(path)
        if step is not None:
            extra["step"] = step
        return self.g.url(endpoint, **extra)

    def peek_url(self, path) -> str:
        """The small board of the position at ``path`` (for hover and focus)."""
        s = self.g.settings
        params = {"moves": self.position_moves(path)}
        if s.game == "connect4":
            params.update(w=s.width, h=s.height)
        else:
            params.update(n=s.n, k=s.k, variant=s.variant)
        return url_for(f"{s.game}_peek", **params)

    def position_moves(self, path) -> str:
        """The moves of the game up to the searched position, then along ``path``."""
        return self.g.rules.format_moves(self.g.moves[:self.base] + list(path))


def searched_position(g: Game):
    """Which search the panel shows: the one behind the AI's last move, or else the one the
    AI would make in the position shown. Returns (index in g.states, "last"|"next") or None."""
    if g.at > 0 and g.settings.ai_plays(g.rules.to_move(g.states[g.at - 1])):
        return g.at - 1, "last"
    if not g.over:
        return g.at, "next"
    return None


def tree_panel(g: Game, args, result: SearchResult | None = None) -> TreePanel | None:
    found = searched_position(g)
    if found is None:
        return None
    base, about = found
    if result is None or result.tree is None:
        result = run_search(g.settings, g.rules, g.states[base], record=True,
                            depth=g.settings.tree_depth, time_limit=TREE_TIME,
                            max_nodes=TREE_MAX_NODES)
    if result.tree is None:     # iterative deepening did not finish even depth 1
        return None
    try:
        path = tuple(g.rules.parse_moves(args.get("path", "")))
        view = unfold(result.tree, path, levels=2)
    except ValueError as err:
        raise BadRequest("path: %(err)s", err=err) from None
    depth = result.stats.depth
    # Nim counts against the whole game tree, as seed 003 does ("9 sommets sur 28"); a
    # Connect-4 game tree is astronomically large, so there the count is the tree that
    # minimax would visit to the same depth, when it is small enough to count.
    if isinstance(g.rules, Nim):
        total = nim_tree_size(g.states[base].remaining, g.rules.k)
    else:
        total = full_tree_size(g.rules, g.states[base], depth)
    panel = TreePanel(g, base, about, result, path, view, total)
    if "step" in args and panel.steppable:
        panel.step = _int(args, "step", 0, 0, len(result.tree.events))
        panel.replay, panel.event = replay(result.tree, panel.step)
    return panel


def format_bound(value) -> str:
    if value is None:
        return ""
    if value == INF:
        return "+∞"
    if value == -INF:
        return "−∞"
    if abs(value) >= WIN_THRESHOLD:
        return ("W" if value > 0 else "L") + str(int(MAX_SCORE - abs(value)))
    if value == int(value):
        return str(int(value))
    return format_decimal(round(value, 2))


# -- algorithms side by side -------------------------------------------------------------------

def comparison_charts(runs, per_depth, depth):
    """Geometry for the two SVG charts (log scale: node counts span orders of magnitude)."""
    top = max([r.nodes for r in runs] + [1])
    scale = math.log10(top * 1.2) or 1
    bars = [dict(run=r, w=max(2.0, 340 * math.log10(max(r.nodes, 1)) / scale)) for r in runs]
    points = {}
    all_nodes = [r.nodes for series in per_depth.values() for r in series] or [1]
    ymax = math.log10(max(all_nodes) * 1.5)
    for variant, series in per_depth.items():
        points[variant] = [(60 + (r.depth - 1) * (440 / max(depth - 1, 1)),
                            230 - 200 * math.log10(max(r.nodes, 1)) / ymax, r) for r in series]
    ticks = [10 ** e for e in range(0, int(ymax) + 1)]
    yticks = [(230 - 200 * math.log10(t) / ymax, t) for t in ticks]
    # line labels at the right end, pushed apart so they never overlap
    labels, last = {}, -1e9
    for variant, pts in sorted(((v, p) for v, p in points.items() if p), key=lambda vp: vp[1][-1][1]):
        y = max(pts[-1][1] + 4, last + 15)
        labels[variant] = last = y
    return dict(bars=bars, points=points, yticks=yticks, labels=labels)


# -- the exercise lab ---------------------------------------------------------------------------

LAB_EXAMPLES = [
    ("AIMA Figure 5.2", "[[3,12,8],[2,4,6],[14,5,2]]"),
    ("Deeper, with cut-offs at two levels", "[[[3,17],[2,12]],[[15],[25,0]],[[2,5],[3]],[[2,14]]]"),
    ("Four levels (Wikipedia's alpha-beta figure)",
     "[[[[5,6],[7,4,5]],[[3]]],[[[6],[6,9]],[[7]]],[[[5]],[[9,8],[6]]]]"),
]


class LabPanel:
    """Duck-types TreePanel for the SVG macro: a typed tree solved by the lab."""

    def __init__(self, solved, args, step=None):
        self.solved, self.args = solved, args
        self.g = type("LabGame", (), {"rules": solved.game,
                                      "settings": type("S", (), {"game": "lab"})()})()
        self.path = ()
        self.step = step
        tree = solved.result.tree if step is not None else solved.full
        self.result = solved.result
        self.view = unfold(tree, (), levels=99)
        self.replay, self.event = replay(solved.result.tree, step) if step is not None else (None, None)

    def path_text(self, path):
        return node_name(path) if path else ""

    def url(self, endpoint=None, path=None, step=None, **extra):
        params = {k: v for k, v in self.args.items() if k in ("t", "algo", "root", "window", "order", "mode")}
        if step is not None:
            params["step"] = step
        params.update(extra)
        return url_for("lab", **params)


def parse_lab(args):
    text = args.get("t") or LAB_EXAMPLES[0][1]
    if len(text) > 4000:
        raise BadRequest("the tree is too long (%(n)s characters, at most %(most)s)",
                         n=len(text), most=4000)
    root = _choice(args, "root", "max", ("max", "min"))
    algo = _choice(args, "algo", "alphabeta", ("alphabeta", "minimax"))
    window = _choice(args, "window", "infinite", WINDOWS)
    order = _choice(args, "order", "natural", ("natural", "reverse"))
    mode = _choice(args, "mode", "show", ("show", "exercise"))
    try:
        game = ExerciseTree(text, root)
    except ValueError as err:
        raise BadRequest("tree: %(err)s", err=err) from None
    if game.size() > 400:
        raise BadRequest("the lab draws trees of up to %(most)s nodes; this one has %(n)s",
                         most=400, n=game.size())
    solved = solve_tree(game, algo, window=window, order=order)
    return dict(text=format_tree(game.tree), root=root, algo=algo, window=window, order=order,
                mode=mode, solved=solved)


def parse_answer(args):
    """The student's answer from the form: ``v.<node>`` values, ``p`` pruned node names."""
    values = {}
    for key, raw in args.items():
        if key.startswith("v.") and raw.strip():
            try:
                values[key[2:]] = float(raw.replace(",", ".").replace("−", "-"))
            except ValueError:
                raise BadRequest("node %(node)s: %(raw)r is not a number", node=key[2:][:20],
                                 raw=raw[:20]) from None
    return values, set(args.getlist("p")) if hasattr(args, "getlist") else set()


# -- headers -------------------------------------------------------------------------------------

# No inline script or style anywhere: htmx reads its settings from a <meta> tag and its
# indicator styles come from app.css (includeIndicatorStyles: false).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
GZIP_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "application/json")


def gzip_response(response):
    """Compress a text response when the browser accepts gzip (a board fragment of 13 KB
    goes over the wire as about 2 KB)."""
    if (response.status_code not in (200, 400) or "Content-Encoding" in response.headers
            or response.mimetype not in GZIP_TYPES
            or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    response.direct_passthrough = False    # static files too: read the file to compress it
    data = response.get_data()
    if len(data) < 600:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(response.get_data()))
    vary = response.headers.get("Vary")
    response.headers["Vary"] = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
    return response


# -- the application ---------------------------------------------------------------------------

def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(SEND_FILE_MAX_AGE_DEFAULT=3600)
    if test_config:
        app.config.update(test_config)
    asset_versions = {}

    def asset(filename: str) -> str:
        """A static file's URL with a hash of its content, so a browser that cached it for an
        hour still fetches the new one after an update."""
        if filename not in asset_versions:
            with app.open_resource(f"static/{filename}") as f:
                asset_versions[filename] = hashlib.sha256(f.read()).hexdigest()[:10]
        return url_for("static", filename=filename, v=asset_versions[filename])

    app.jinja_env.globals["asset"] = asset

    def select_locale():
        """``lang`` in the URL first (a shared link opens in the sender's language), then
        the browser's Accept-Language, then English."""
        lang = request.args.get("lang")
        if lang in LANGUAGES:
            return lang
        return request.accept_languages.best_match(LANGUAGES) or "en"

    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    Babel(app, locale_selector=select_locale)
    app.jinja_env.policies["ext.i18n.trimmed"] = True

    @app.before_request
    def check_lang():
        lang = request.args.get("lang")
        if lang is not None and lang not in LANGUAGES:
            return Response(render_template("error.html", error=type("E", (), {
                "code": 400, "name": gettext("Bad Request"),
                "description": gettext("lang must be one of %(choices)s, not %(raw)r",
                                       choices=", ".join(LANGUAGES), raw=lang[:20])})()),
                status=400, mimetype="text/html")

    def kept_lang():
        """The language to keep in every link: the page's, unless it is the default one
        and nobody asked for it."""
        lang = str(get_locale())
        return lang if lang != "en" or request.args.get("lang") else None

    @app.url_defaults
    def add_lang(endpoint, values):
        if endpoint != "static" and "lang" not in values and request:
            lang = kept_lang()
            if lang:
                values["lang"] = lang

    def lang_field():
        lang = kept_lang()
        return Markup(f'<input type="hidden" name="lang" value="{lang}">') if lang else ""

    def num(value, digits=None):
        """A number in the page's locale: 1,234 in English, 1 234 in French."""
        if digits is not None:
            return format_decimal(round(value, digits), format="#,##0." + "0" * digits if digits else "#,##0")
        return format_decimal(value)

    def switch_lang(lang):
        args = request.args.to_dict()
        args["lang"] = lang
        return url_for(request.endpoint or "home", **(request.view_args or {}), **args)

    @app.context_processor
    def globals_():
        return {"MODES": MODES, "LEVELS": LEVELS, "ALGORITHM_LABELS": ALGORITHM_LABELS,
                "MAX_DEPTH": MAX_DEPTH, "MAX_TIME_MS": MAX_TIME_MS, "heuristics_for": heuristics_for,
                "fmt": format_bound, "walk": walk, "view_width": width, "path_of": path_of,
                "LEVEL_LABELS": LEVEL_LABELS, "LANGUAGES": LANGUAGES, "lang_field": lang_field,
                "num": num, "switch_lang": switch_lang, "locale": str(get_locale()),
                "tr": lambda err: translate(err, gettext)}

    def is_htmx() -> bool:
        # A history restore also carries HX-Request but needs the whole page.
        return (request.headers.get("HX-Request") == "true"
                and request.headers.get("HX-History-Restore-Request") != "true")

    def render(template: str, status: int = 200, push_url: str | None = None,
               block: str = "game", **context):
        if is_htmx():
            body = render_block(template, block, **context)
        else:
            body = render_template(template, **context)
        response = Response(body, status=status, mimetype="text/html")
        response.headers["Vary"] = "HX-Request"
        if push_url and is_htmx():
            response.headers["HX-Push-Url"] = push_url
        return response

    def game_page(game: str, g: Game, *, status=200, error=None, ai: AIMove | None = None,
                  push=False, result: SearchResult | None = None, args=None):
        panel = None
        if g.settings.show_tree and error is None:
            panel = tree_panel(g, args if args is not None else {}, result)
        return render(f"{game}.html", status=status, push_url=g.url() if push else None,
                      g=g, error=error, ai=ai, panel=panel)

    def bad_request(game: str, err: Exception):
        """The page with the error shown in it: the game as the link gave it if it parses,
        else a new game, so the person can carry on."""
        try:
            g = parse_game(game, request.args)
        except BadRequest:
            g = parse_game(game, {})
        return game_page(game, g, status=400, error=translate(err, gettext))

    @app.get("/")
    def home():
        """The home page: choose a game."""
        return render_template("home.html")

    def show(game):
        """A position, as its link describes it (never plays a move)."""
        try:
            g = parse_game(game, request.args)
            return game_page(game, g, args=request.args)
        except BadRequest as err:
            return bad_request(game, err)

    def tree(game):
        """The tree panel alone: unfold a node (``path``) or step through the search (``step``)."""
        try:
            g = parse_game(game, request.args)
            if not g.settings.show_tree:
                g = replace(g, settings=replace(g.settings, show_tree=True))
            panel = tree_panel(g, request.args)
        except BadRequest as err:
            return bad_request(game, err)
        page_url = panel.url() if panel else g.url()
        if panel and panel.step is not None:
            page_url = panel.url(step=panel.step)
        return render(f"{game}.html", push_url=page_url, block="tree", g=g, panel=panel,
                      error=None, ai=None)

    def play_ai(g):
        """The AI's move in ``g``, recording its tree when the panel will show it."""
        reply, result = ai_move(g, record=g.settings.show_tree)
        g = g.play(reply.move)
        if g.settings.show_tree:
            g = replace(g, settings=replace(g.settings, tree_depth=result.stats.depth or None))
        return g, reply, result

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
                raise as_bad_request(err) from None
        except BadRequest as err:
            return bad_request(game, err)
        reply = result = None
        if g.ai_to_move and g.settings.mode != "ai-ai":
            g, reply, result = play_ai(g)
        return answer(game, g, reply, result)

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
        g, reply, result = play_ai(g)
        return answer(game, g, reply, result)

    def answer(game, g, reply, result):
        if is_htmx():
            return game_page(game, g, ai=reply, push=True, result=result)
        return redirect(g.url(), code=303)

    @app.get("/tree")
    def lab():
        """The exercise lab: type a tree, see minimax or alpha-beta on it, or be checked."""
        try:
            lab = parse_lab(request.args)
            step = None
            if request.args.get("step") not in (None, ""):
                step = _int(request.args, "step", 0, 0, len(lab["solved"].result.tree.events))
            panel = LabPanel(lab["solved"], request.args, step)
            verdicts, answer = None, ({}, set())
            if lab["mode"] == "exercise" and request.args.get("check") == "1":
                answer = parse_answer(request.args)
                try:
                    verdicts = check_answer(lab["solved"], *answer)
                except ValueError as err:
                    raise as_bad_request(err) from None
        except BadRequest as err:
            lab = parse_lab({})
            lab["text"] = request.args.get("t", "")[:4000]   # keep what they typed, to fix it
            return render("lab.html", status=400, block="lab", error=translate(err, gettext), lab=lab,
                          panel=LabPanel(lab["solved"], {}), verdicts=None,
                          examples=LAB_EXAMPLES, answer=({}, set()))
        return render("lab.html", block="lab", error=None, lab=lab, panel=panel,
                      verdicts=verdicts, examples=LAB_EXAMPLES, answer=answer)

    def compare(game):
        """The algorithms side by side on the position shown, at the AI's depth."""
        try:
            g = parse_game(game, request.args)
            if g.over:
                raise BadRequest("the game is over: there is nothing to search")
        except BadRequest as err:
            return bad_request(game, err)
        # Minimax must fit the time budget for the comparison to mean something: by default
        # depth 5 on Connect-4 (about 20,000 nodes), the AI's depth on Nim; ``cd`` chooses.
        default = min(g.settings.depth, 5 if g.settings.game == "connect4" else 8)
        try:
            depth = _int(request.args, "cd", default, 1, 8)
        except BadRequest as err:
            return bad_request(game, err)
        runs, per_depth = compare_algorithms(
            g.rules, g.state, depth, make_heuristic(g.rules, g.settings.heuristic or None),
            window=g.settings.window)
        return render("compare.html", block="compare", g=g, runs=runs, per_depth=per_depth,
                      depth=depth, variants=VARIANTS, charts=comparison_charts(runs, per_depth, depth))

    def peek(game):
        """A small board: the position at a node of the tree (hover or focus)."""
        try:
            g = parse_game(game, request.args)
        except BadRequest as err:
            return Response(f'<p class="error">{escape(translate(err, gettext))}</p>', status=400,
                            mimetype="text/html")
        return render_template("_peek.html", g=g)

    @app.get("/nim/theory")
    def nim_theory():
        """The whole Nim game tree with its minimax labels (seeds 000 and 003), beside the
        theory: the player to move loses on the multiples of k+1 (normal play), or one more
        (misere)."""
        try:
            n = _int(request.args, "n", 5, 1, 8)
            k = _int(request.args, "k", 3, 1, 4)
            variant = _choice(request.args, "variant", "normal", ("normal", "misere"))
        except BadRequest as err:
            n, k, variant, error, status = 5, 3, "normal", translate(err, gettext), 400
        else:
            error, status = None, 200
        game = Nim(n, k, variant)
        result = search("minimax", game, game.initial_state(), record=True, quick_wins=False)
        tree = result.tree
        agree = 0
        for node in tree.nodes:
            # theory: the player to move at r matches loses iff is_losing(r); minimax says the
            # same when the value, from that player's side, is a loss
            remaining = n - sum(path_of(tree, node))
            mover_loses_by_search = (node.value < 0) == node.is_max
            agree += mover_loses_by_search == game.is_losing(remaining)
        view = unfold(tree, (), levels=99)
        return render("nim_theory.html", status=status, block="theory", error=error, game=game,
                      result=result, view=view, agree=agree, n_nodes=len(tree.nodes),
                      remaining_of=lambda v: n - sum(v.path))

    def tree_svg(game):
        """The tree panel's picture as a standalone SVG file, for a handout."""
        try:
            g = parse_game(game, request.args)
            g = replace(g, settings=replace(g.settings, show_tree=True))
            panel = tree_panel(g, request.args)
        except BadRequest as err:
            return bad_request(game, err)
        if panel is None:
            return bad_request(game, BadRequest("no search to draw: the game is over"))
        body = render_template("tree.svg", panel=panel)
        name = f"{game}-{g.moves_text() or 'start'}-tree.svg"
        return Response(body, mimetype="image/svg+xml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    for game, param in (("connect4", "col"), ("nim", "take")):
        app.add_url_rule(f"/{game}", game, lambda game=game: show(game))
        app.add_url_rule(f"/{game}/move", f"{game}_move",
                         lambda game=game, param=param: move(game, param))
        app.add_url_rule(f"/{game}/ai", f"{game}_ai", lambda game=game: ai(game))
        app.add_url_rule(f"/{game}/tree", f"{game}_tree", lambda game=game: tree(game))
        app.add_url_rule(f"/{game}/tree.svg", f"{game}_tree_svg", lambda game=game: tree_svg(game))
        app.add_url_rule(f"/{game}/compare", f"{game}_compare", lambda game=game: compare(game))
        app.add_url_rule(f"/{game}/peek", f"{game}_peek", lambda game=game: peek(game))

    @app.after_request
    def headers(response):
        """Security headers on every response, and gzip for text bodies."""
        h = response.headers
        h.setdefault("Content-Security-Policy", CSP)
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("X-Frame-Options", "DENY")
        return gzip_response(response)

    @app.errorhandler(HTTPException)
    def http_error(err):
        return render_template("error.html", error=err), err.code

    return app
