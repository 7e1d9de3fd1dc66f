"""The URL is the game: every parameter of a link read and checked here, into ``Settings``
(who plays, how the AI searches) and ``Game`` (the settings, the moves, the position shown).

The server keeps no session: ``/connect4?moves=4453&level=hard`` is the whole game, so any
position is a link and any worker can answer. Every value is read by one strict parser: a whole
number is ``[+-]?[0-9]{1,9}`` and nothing else, a choice is one of its list, a flag is 0 or 1.
A wrong value raises ``BadRequest`` naming the field as the page labels it, in the page's
language, and the URL name of the parameter, so the page can show the message beside the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from flask import g as request_globals, has_request_context, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ai.heuristics import heuristics_for

from ai.games.connect4.heuristic import AdjustedCells
from ai.levels import DEFAULT_LEVEL, LEVELS
from ai.messages import GameError
from ai.course.search import ALGORITHMS

from .games import GAMES, GameSpec
from .i18n import ALGORITHM_LABELS, NOTATIONS, set_matches_total
from markupsafe import Markup

MODES = ("human-ai", "ai-human", "human-human", "ai-ai")
WINDOWS = ("infinite", "course")
MAX_DEPTH = {"minimax": 8, "alphabeta": 12, "alphabeta-tt": 14, "iterative": 20}
MAX_TIME_MS = 1000          # no search may run longer than this: ~1 s of CPU per request at most
MAX_PARAM = 200             # longest accepted parameter value (moves included)

# How the page labels each parameter, for messages ("Depth: at most 8 for minimax").
LABELS = {
    "mode": _l("Who plays"), "level": _l("Level"), "algo": _l("Algorithm"),
    "depth": _l("Depth"), "time": _l("Time budget (ms)"), "heur": _l("Heuristic"),
    "window": _l("First window (alpha-beta)"), "order": _l("Move order"),
    "moves": _l("Moves"), "at": _l("Move shown"), "play": _l("Autoplay"),
    "tree": _l("Search tree"), "td": _l("Tree depth"), "proj": _l("Projector mode"),
    "path": _l("Tree node"), "step": _l("Step"), "cd": _l("Depth"), "ttd": _l("Depth"), "cls": _l("Class code"),
    "notation": _l("Notation"), "hints": _l("Hints"), "players": _l("Players' names"),
    "alpha": _l("α (adjusted heuristic)"), "side": _l("From the side of"),
    "rest": _l("The other columns"),
}

_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
_DECIMAL = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{1,3})?")     # 0.2, or 0,2 as French writes it
CLASS_CODE = re.compile(r"[A-HJ-NP-Z2-9]{6}")     # web.class_store's alphabet: no 0/O, 1/I


class BadRequest(GameError):
    """A parameter a person (or an edited link) got wrong: shown in the page with a 400, in
    the page's language (the template is the catalogue's msgid). ``param`` is the parameter's
    name in the URL, when one parameter is to blame."""

    def __init__(self, template: str, param: str | None = None, **values):
        super().__init__(template, **values)
        self.param = param


def as_bad_request(err: ValueError, param: str | None = None) -> BadRequest:
    """A ValueError from ``ai/`` as a BadRequest, keeping its template for translation."""
    if isinstance(err, GameError):
        return BadRequest(err.template, param, **err.values)
    return BadRequest("%(err)s", param, err=str(err))


def label(name: str, spec: GameSpec | None = None):
    if spec is not None:
        for p in spec.params:
            if p.url == name:
                return p.label
    return LABELS.get(name, name)


def read_int(args, name: str, default, lo: int, hi: int, spec: GameSpec | None = None):
    """A whole number from ``lo`` to ``hi``; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if not _WHOLE.fullmatch(raw):
        raise BadRequest("%(field)s: a whole number from %(lo)s to %(hi)s, not “%(raw)s”", name,
                         field=label(name, spec), lo=lo, hi=hi, raw=raw[:20])
    value = int(raw)
    if not lo <= value <= hi:
        raise BadRequest("%(field)s: from %(lo)s to %(hi)s, not %(value)s", name,
                         field=label(name, spec), lo=lo, hi=hi, value=value)
    return value


def read_decimal(args, name: str, default, lo: float, hi: float,
                 spec: GameSpec | None = None) -> float:
    """A number from ``lo`` to ``hi`` with at most 3 decimals, written with a point or a
    comma (0.2 or 0,2); ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    value = float(raw.replace(",", ".")) if _DECIMAL.fullmatch(raw) else None
    if value is None or not lo <= value <= hi:
        raise BadRequest(
            "%(field)s: a number from %(lo)s to %(hi)s (such as 0.2), not “%(raw)s”", name,
            field=label(name, spec), lo=lo, hi=hi, raw=raw[:20])
    return value


def read_choice(args, name: str, default, choices, spec: GameSpec | None = None):
    """One of ``choices``; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in choices:
        raise BadRequest("%(field)s: one of %(choices)s, not “%(raw)s”", name,
                         field=label(name, spec), choices=", ".join(choices), raw=raw[:30])
    return raw


def read_flag(args, name: str, default: bool = False) -> bool:
    """0 or 1; ``default`` when absent or empty."""
    raw = args.get(name)
    if raw is None or raw == "":
        return default
    if raw not in ("0", "1"):
        raise BadRequest("%(field)s: 0 or 1, not “%(raw)s”", name, field=label(name),
                         raw=raw[:20])
    return raw == "1"


def read_class_code(args, name: str = "cls") -> str:
    """A class code (six capitals and digits, as the projector shows it), or "" when absent."""
    raw = args.get(name) or ""
    if raw and not CLASS_CODE.fullmatch(raw.upper()):
        raise BadRequest("%(field)s: six letters and digits, not “%(raw)s”", name,
                         field=label(name), raw=raw[:20])
    return raw.upper()


def read_param(args, p, spec: GameSpec):
    """A game's own parameter (``ai.games.Param``): a number or a choice."""
    if p.choices:
        return read_choice(args, p.url, p.default, p.choices, spec)
    return read_int(args, p.url, p.default, p.lo, p.hi, spec)


# -- the notation: one setting for the whole app -----------------------------------------------

DEFAULT_NOTATION = "plies"


def read_notation(args) -> str:
    """How values are written (``notation=``): "plies", W3/L3 (won or lost in 3 plies), or
    "course", the course's ±maxScore (+M/−M, the Nim estimate as M − 3/5). The one reader
    of the setting: a game page's settings (``parse_settings``) and every other page
    (``current_notation``) ask it."""
    return read_choice(args, "notation", DEFAULT_NOTATION, NOTATIONS)


def current_notation() -> str:
    """The notation of this request, read once: like the language and projector mode, kept
    in every link (``add_notation``) and form (``notation_field``), so a lesson opened in the
    course's notation stays in it from page to page. A wrong value is a 400 on a game page
    (``parse_settings``); elsewhere the default."""
    if not has_request_context():
        return DEFAULT_NOTATION
    notation = request_globals.get("_notation")
    if notation is None:
        try:
            notation = read_notation(request.args)
        except BadRequest:
            notation = DEFAULT_NOTATION
        request_globals._notation = notation
    return notation


def add_notation(endpoint, values) -> None:
    """Keeps the notation in every link (``app.url_defaults``), as the language is kept."""
    if endpoint != "static" and "notation" not in values:
        notation = current_notation()
        if notation != DEFAULT_NOTATION:
            values["notation"] = notation


def notation_field() -> Markup | str:
    """The hidden field that keeps the notation in a form (a game's forms carry it among the
    game's settings)."""
    notation = current_notation()
    return (Markup(f'<input type="hidden" name="notation" value="{notation}">')
            if notation != DEFAULT_NOTATION else "")


# -- the settings ------------------------------------------------------------------------------

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
    alpha: float = AdjustedCells.DEFAULT_ALPHA   # seed 004's adjusted heuristic: α x cell value
    window: str = "infinite"       # alpha-beta's first window: infinite or the course's ±maxScore
    order: str = "natural"         # children tried: the game's orders (GameSpec.orders)
    autoplay: bool = True          # AI vs AI: keep playing
    show_tree: bool = False        # the tree panel: what the AI's search explored
    tree_depth: int | None = None  # the depth that search reached (iterative deepening)
    projector: bool = False        # projector mode: big type, high contrast, tree beside
    notation: str = "plies"        # values: W3/L3 (won/lost in 3 plies) or the course's ±maxScore
    class_code: str = ""           # class mode: this page is the board of that class
    hints: bool = False            # 7x6 Connect-4: every column's exact outcome (web.hints)
    players: str = ""              # how the players are named (PLAYER_NAMES); "": the game's way
    board: tuple = ()              # the game's own parameters: (("width", 7), ("height", 6))

    def __getattr__(self, name):
        # s.width, s.n ...: the game's own parameters read as attributes (templates do)
        for key, value in self.__dict__.get("board", ()):
            if key == name:
                return value
        raise AttributeError(name)

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.game]

    def make_game(self):
        return self.spec.rules(**dict(self.board))

    @property
    def player_names(self) -> str:
        """The naming in force: the setting, else the game's own (colours on Connect-4,
        J0/J1 on Nim as in the minmax chapter)."""
        return self.players or ("colours" if self.game == "connect4" else "j")

    def player_name(self, player: int) -> str:
        """Player 0 or 1 named as the setting says: Yellow/Red, J0/J1 (the minmax chapter,
        seed 000) or Player 1/Player 2 ("joueur 1", "joueur 2": the MIN-MAX chapter, seed
        003)."""
        names = self.player_names
        if names == "colours":
            return gettext("Yellow") if player == 0 else gettext("Red")
        if names == "numbers":
            return gettext("Player 1") if player == 0 else gettext("Player 2")
        return f"J{player}"

    def ai_plays(self, player: int) -> bool:
        return {"human-ai": player == 1, "ai-human": player == 0,
                "human-human": False, "ai-ai": True}[self.mode]

    def params(self) -> dict:
        """URL parameters that differ from the defaults (short links)."""
        default = default_settings(self.spec)
        out = {}
        names = ["mode", "level"]
        if self.level == "custom":
            names += ["algorithm", "depth", "time_ms", "heuristic", "window", "order"]
            if self.heuristic == AdjustedCells.name:
                names.append("alpha")
        for name in names:
            value = getattr(self, name)
            if value != getattr(default, name):
                out[PARAM_NAMES[name]] = value
        for p in self.spec.params:
            value = getattr(self, p.name)
            if value != p.default:
                out[p.url] = value
        if self.mode == "ai-ai" and not self.autoplay:
            out["play"] = 0
        if self.show_tree:
            out["tree"] = 1
            if self.tree_depth is not None:
                out["td"] = self.tree_depth
        if self.projector:
            out["proj"] = 1
        if self.notation != "plies":
            out["notation"] = self.notation
        if self.class_code:
            out["cls"] = self.class_code
        if self.hints:
            out["hints"] = 1
        if self.players:
            out["players"] = self.players
        return out


PARAM_NAMES = {"mode": "mode", "level": "level", "algorithm": "algo", "depth": "depth",
               "time_ms": "time", "heuristic": "heur", "window": "window", "order": "order",
               "alpha": "alpha"}


def level_settings(spec: GameSpec, level: str) -> dict:
    """The search settings of a preset level for this game."""
    preset = LEVELS[level]
    return dict(algorithm=preset.algorithm, depth=preset.depth,
                time_ms=int(preset.time_limit * 1000),
                heuristic=preset.heuristic_for(spec.rules) or "", order=spec.orders[0])


def default_settings(spec: GameSpec) -> Settings:
    return Settings(spec.name, board=tuple((p.name, p.default) for p in spec.params),
                    **level_settings(spec, DEFAULT_LEVEL))


def player_namings(game: str) -> tuple:
    """The ways of naming the players a game offers (``Settings.player_name``): colours
    only where stones have colours."""
    return ("colours", "j", "numbers") if game == "connect4" else ("j", "numbers")


def parse_settings(spec: GameSpec, args) -> Settings:
    """The settings a link gives (defaults for what it leaves out)."""
    for name, value in args.items():
        if len(value) > MAX_PARAM:
            raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)",
                             name, field=label(name[:30], spec), n=len(value), most=MAX_PARAM)
    mode = read_choice(args, "mode", "human-ai", MODES)
    level = read_choice(args, "level", DEFAULT_LEVEL, (*LEVELS, "custom"))
    base = level_settings(spec, level if level != "custom" else DEFAULT_LEVEL)
    board = tuple((p.name, read_param(args, p, spec)) for p in spec.params)
    values = dict(game=spec.name, mode=mode, level=level, autoplay=read_flag(args, "play", True),
                  show_tree=read_flag(args, "tree"), projector=read_flag(args, "proj"),
                  hints=read_flag(args, "hints"), board=board,
                  notation=read_notation(args),
                  class_code=read_class_code(args),
                  players=read_choice(args, "players", "", player_namings(spec.name)))
    if level == "custom":
        algorithm = read_choice(args, "algo", base["algorithm"], tuple(ALGORITHMS))
        most = MAX_DEPTH[algorithm]
        depth = read_int(args, "depth", min(base["depth"], most), 1, max(MAX_DEPTH.values()))
        if depth > most:
            raise BadRequest("%(field)s: at most %(most)s for %(algo)s", "depth",
                             field=label("depth"), most=most, algo=ALGORITHM_LABELS[algorithm])
        heuristics = list(heuristics_for(spec.rules(**dict(board)))) or [""]
        values.update(algorithm=algorithm, depth=depth,
                      time_ms=read_int(args, "time", base["time_ms"], 10, MAX_TIME_MS),
                      heuristic=read_choice(args, "heur", base["heuristic"], heuristics),
                      alpha=read_decimal(args, "alpha", AdjustedCells.DEFAULT_ALPHA, 0, 10),
                      window=read_choice(args, "window", "infinite", WINDOWS),
                      order=read_choice(args, "order", spec.orders[0], spec.orders))
    else:
        values.update(base)
    if values["show_tree"]:
        values["tree_depth"] = read_int(args, "td", None, 1, values["depth"])
    return Settings(**values)


# -- the game ----------------------------------------------------------------------------------

@dataclass
class Game:
    """A game read from the URL: its settings, its moves, the position shown."""

    settings: Settings
    rules: object                  # built by the game's GameSpec.rules
    moves: list                    # every move in the link (the future too, for redo)
    at: int                        # how many of them are shown (history navigation)
    states: list = field(default_factory=list)   # states[i]: after i moves

    @property
    def spec(self) -> GameSpec:
        return self.settings.spec

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

    def url(self, action: str = "show", upto=None, **extra) -> str:
        """The link to ``action`` (a view of the play blueprint: show, move, ai, tree,
        tree_svg, compare, peek) on this game showing ``upto`` moves (default: as shown)."""
        return url_for(f"play.{action}", game=self.settings.game, **self.query(upto, **extra))

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
    def last_move(self):
        """The last move shown (to highlight it), or None at the start."""
        return self.moves[self.at - 1] if self.at else None

    @property
    def last_cell(self):
        """Connect-4: (col, row) of the last disc shown: its column's discs so far, less one."""
        col = self.last_move
        if col is None or not hasattr(self.rules, "playable_row"):
            return None
        return col, self.moves[:self.at].count(col) - 1

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


def parse_game(spec: GameSpec, args) -> Game:
    """The game a link describes; BadRequest on anything wrong in it."""
    settings = parse_settings(spec, args)
    rules = settings.make_game()
    text = args.get("moves", "")
    try:
        moves = rules.parse_moves(text)
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "moves", field=label("moves"), err=err) from None
    if settings.game == "nim":
        set_matches_total(rules.n)      # the course's estimate is written M − r/n
    states = [rules.initial_state()]
    for i, move in enumerate(moves, 1):
        try:
            states.append(rules.result(states[-1], move))
        except ValueError as err:
            raise BadRequest("move %(i)s of %(text)s: %(err)s", "moves", i=i, text=text,
                             err=err) from None
    at = read_int(args, "at", len(moves), 0, len(moves))
    return Game(settings, rules, moves, at, states)


def parse_game_keeping_what_is_right(spec: GameSpec, args) -> Game:
    """The game a link describes, without the parameters that are wrong in it: a rejected
    setting never loses the position (a bad depth keeps the moves and the other settings)."""
    args = {name: args.get(name) for name in args.keys()}
    for _ in range(len(args) + 1):
        try:
            return parse_game(spec, args)
        except BadRequest as err:
            if err.param not in args:
                break
            del args[err.param]
    return parse_game(spec, {})
