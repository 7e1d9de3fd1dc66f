"""A game's link: the URL is the game. ``Settings`` (who plays, how the AI searches) and
``GameLink`` (the settings, the moves, the position shown) read from a link's parameters by
the value readers of ``web.params``, and written back as links.

"Game" means one thing: a game of the games table (``web.games.GameSpec``), whose rules are
``ai.games.<game>``; a ``GameLink`` is one position of one such game, as its link says it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from ai.course.search import ALGORITHMS
from ai.heuristics import heuristics_for
from ai.levels import DEFAULT_LEVEL, LEVELS

from .games import GAMES, GameSpec
from .i18n import ALGORITHM_LABELS
from .links import endpoint_url
from .params import (BadRequest, label, read_choice, read_class_code, read_decimal, read_flag,
                     read_int, read_param, WINDOWS)
from .notation import read_notation

MODES = ("human-ai", "ai-human", "human-human", "ai-ai")
MAX_DEPTH = {"minimax": 8, "alphabeta": 12, "alphabeta-tt": 14, "iterative": 20}
MAX_TIME_MS = 1000          # no search may run longer than this: ~1 s of CPU per request at most
MAX_PARAM = 200             # longest accepted parameter value (moves included)
# Seed 004's adjusted heuristic, whose α weighs the cell values: its name and default α, as
# the heuristic gives them (a game's heuristic that takes an ``alpha`` setting; checked
# against it by tests/test_games_table.py)
ADJUSTED = "adjusted"
DEFAULT_ALPHA = 0.2


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
    alpha: float = DEFAULT_ALPHA   # seed 004's adjusted heuristic: α x cell value
    window: str = "infinite"       # alpha-beta's first window: infinite or the course's ±maxScore
    order: str = "natural"         # children tried: the game's orders (GameSpec.orders)
    autoplay: bool = True          # AI vs AI: keep playing
    show_tree: bool = False        # the tree panel: what the AI's search explored
    tree_depth: int | None = None  # the depth that search reached (iterative deepening)
    projector: bool = False        # projector mode: big type, high contrast, tree beside
    notation: str = "plies"        # values: W3/L3 (won/lost in 3 plies) or the course's ±maxScore
    class_code: str = ""           # class mode: this page is the board of that class
    hints: bool = False            # the game's exact outcomes beside the board (a game's own page)
    players: str = ""              # how the players are named (PLAYER_NAMES); "": the game's way
    teach: bool = False            # teaching game: a move that loses the win or the draw is
    #                                said at once, with the offer to take it back (web.review)
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
        """The naming in force: the setting, else the game's own (``GameSpec.namings``, its
        first: colours where stones have colours, J0/J1 as in the minmax chapter); a class's
        board (``class_code``) names them as its phones do (``GameSpec.class_naming``), so
        that the projector and the phones say the same player."""
        if self.players:
            return self.players
        return self.spec.class_naming if self.class_code else self.spec.namings[0]

    def player_name(self, player: int, naming: str | None = None) -> str:
        """Player 0 or 1 named as the setting (or ``naming``) says: Yellow/Red, J0/J1 (the
        minmax chapter, seed 000) or Player 1/Player 2 ("joueur 1", "joueur 2": the MIN-MAX
        chapter, seed 003) or X/O, the marks of a game played with marks."""
        names = naming or self.player_names
        if names == "marks":
            return "X" if player == 0 else "O"
        if names == "colours":
            return gettext("Yellow") if player == 0 else gettext("Red")
        if names == "numbers":
            return gettext("Player 1") if player == 0 else gettext("Player 2")
        return f"J{player}"

    def ai_plays(self, player: int) -> bool:
        return {"human-ai": player == 1, "ai-human": player == 0,
                "human-human": False, "ai-ai": True}[self.mode]

    def params(self) -> dict:
        """URL parameters that differ from the defaults (short links): worked out once per
        settings (a game's page draws some fifty links), a new dict each time."""
        kept = self.__dict__.get("_kept_params")
        if kept is None:
            kept = self._params()
            object.__setattr__(self, "_kept_params", kept)   # not a field: equality ignores it
        return dict(kept)

    def _params(self) -> dict:
        default = default_settings(self.spec)
        out = {}
        names = ["mode", "level"]
        if self.level == "custom":
            names += ["algorithm", "depth", "time_ms", "heuristic", "window", "order"]
            if self.heuristic == ADJUSTED:
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
        if self.teach:
            out["teach"] = 1
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
                  hints=read_flag(args, "hints"), board=board, teach=read_flag(args, "teach"),
                  notation=read_notation(args),
                  class_code=read_class_code(args),
                  players=read_choice(args, "players", "", spec.namings))
    if level == "custom":
        algorithm = read_choice(args, "algo", base["algorithm"], tuple(ALGORITHMS))
        most = MAX_DEPTH[algorithm]
        depth = read_int(args, "depth", min(base["depth"], most), 1, max(MAX_DEPTH.values()))
        if depth > most:
            raise BadRequest("%(field)s: at most %(most)s for %(algo)s", "depth",
                             field=label("depth"), most=most, algo=ALGORITHM_LABELS[algorithm])
        rules = spec.rules(**dict(board))
        heuristics = list(heuristics_for(rules)) or [""]
        values.update(algorithm=algorithm, depth=depth,
                      time_ms=read_int(args, "time", base["time_ms"], 10, MAX_TIME_MS),
                      heuristic=read_heuristic(args, base["heuristic"], heuristics, rules),
                      alpha=read_decimal(args, "alpha", DEFAULT_ALPHA, 0, 10),
                      window=read_choice(args, "window", "infinite", WINDOWS),
                      order=read_choice(args, "order", spec.orders[0], spec.orders))
    else:
        values.update(base)
    if values["show_tree"]:
        values["tree_depth"] = read_int(args, "td", None, 1, values["depth"])
    return Settings(**values)


def read_heuristic(args, default: str, names, rules) -> str:
    """``heur``: one of the game's heuristics by name, or weights of its named terms
    (``cells=1,open3=8``, checked by its rules' ``weighted_heuristic``: the heuristic
    workshop's link to play against a student's heuristic)."""
    raw = args.get("heur") or ""
    if "=" not in raw:
        return read_choice(args, "heur", default, names)
    if len(raw) > MAX_PARAM:
        raise BadRequest("%(field)s is too long (%(n)s characters, at most %(most)s)", "heur",
                         field=label("heur"), n=len(raw), most=MAX_PARAM)
    try:
        rules.weighted_heuristic(raw)
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "heur", field=label("heur"), err=err) from None
    return raw.replace(" ", "")


# -- the game's link -----------------------------------------------------------------------

@dataclass
class GameLink:
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

    @cached_property
    def all_moves_text(self) -> str:
        """Every move of the link as text (the future too): once per game link, which a page
        asks for in each of its links (a game link's moves are never changed in place:
        ``play`` and ``truncated`` make a new one)."""
        return self.rules.format_moves(self.moves)

    def query(self, upto=None, **extra) -> dict:
        """The URL parameters of this game showing ``upto`` moves (default: as shown)."""
        upto = self.at if upto is None else upto
        params = {"moves": self.all_moves_text} if self.moves else {}
        if upto != len(self.moves):
            params["at"] = upto
        params.update(self.settings.params())
        params.update(extra)
        return params

    def url(self, action: str = "show", upto=None, **extra) -> str:
        """The link to ``action`` (a view of the play blueprint: show, move, ai, tree,
        tree_svg, compare, peek) on this game showing ``upto`` moves (default: as shown)."""
        return endpoint_url(f"play.{action}", {"game": self.settings.game},
                            self.query(upto, **extra))

    def move_links(self, upto=None) -> list[tuple[int, str, str]]:
        """(i, the link showing i moves, the i-th move as text) for each move of the link
        (the first ``upto`` only, if given): the move list, one entry a move."""
        moves = self.moves if upto is None else self.moves[:upto]
        fmt = self.rules.format_move
        # The links differ only in ``at=``, which follows the moves: built once, at=0, its
        # number then written per move (the link showing every move has no ``at=``)
        head, at0, tail = self.url(upto=0).partition("&at=0")
        last = len(self.moves)
        if not at0:                     # (no such link: each built whole)
            return [(i, self.url(upto=i), fmt(m)) for i, m in enumerate(moves, 1)]
        return [(i, f"{head}&at={i}{tail}" if i != last else self.url(upto=i), fmt(m))
                for i, m in enumerate(moves, 1)]

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
    def winner(self):
        return self.rules.winner(self.state)

    def truncated(self) -> "GameLink":
        """The game as played from the shown position: a new move drops the undone ones."""
        return replace(self, moves=self.moves[:self.at], states=self.states[:self.at + 1])

    def play(self, move) -> "GameLink":
        state = self.rules.result(self.state, move)   # ValueError: illegal move
        return replace(self, moves=self.moves + [move], at=self.at + 1,
                       states=self.states + [state])


def parse_game(spec: GameSpec, args) -> GameLink:
    """The game a link describes; BadRequest on anything wrong in it."""
    if isinstance(args, MultiDict):
        # each name's first value, as ``get`` reads it: a name the link leaves out (most of
        # the twenty read here) is then a dict's miss, not an exception werkzeug raises
        args = args.to_dict()
    settings = parse_settings(spec, args)
    rules = settings.make_game()
    text = args.get("moves", "")
    try:
        moves = rules.parse_moves(text)
    except ValueError as err:
        raise BadRequest("%(field)s: %(err)s", "moves", field=label("moves"), err=err) from None
    prepare = spec.hook("prepare")
    if prepare is not None:
        prepare(rules)                  # e.g. the course's estimate written M − r/n
    states = [rules.initial_state()]
    for i, move in enumerate(moves, 1):
        try:
            states.append(rules.result(states[-1], move))
        except ValueError as err:
            raise BadRequest("move %(i)s of %(text)s: %(err)s", "moves", i=i, text=text,
                             err=err) from None
    at = read_int(args, "at", len(moves), 0, len(moves))
    return GameLink(settings, rules, moves, at, states)


MOVE_TEXT = 4     # the most characters one move takes in a link (two: a heap and a count)


def parse_longest_legal(spec: GameSpec, args) -> GameLink:
    """The game of the link with its moves cut to their longest legal beginning, found in one
    replay: the text is first cut at the longest value a link may hold (``MAX_PARAM``), then
    read a move at a time (a piece of at most ``MOVE_TEXT`` characters the game's own
    ``parse_moves`` reads as moves), each move played once, until one is not legal; a junk tail
    costs no more than its first few characters. BadRequest when the settings are wrong."""
    args = {name: args.get(name) for name in args.keys()}
    text = (args.get("moves") or "")[:MAX_PARAM]
    rules = parse_settings(spec, {**args, "moves": ""}).make_game()
    state, kept, start = rules.initial_state(), 0, 0
    end = start + 1
    while end <= len(text) and end - start <= MOVE_TEXT:
        try:
            moves = rules.parse_moves(text[start:end])
        except ValueError:
            end += 1                    # a move's text not whole yet (or not a move at all)
            continue
        if not moves:
            end += 1                    # blanks: read with the move after them
            continue
        try:
            for move in moves:
                state = rules.result(state, move)
        except ValueError:
            break
        kept, start, end = end, end, end + 1
    # one more replay, of the legal text only; a position ``at`` past it, or a text whose
    # pieces read but whose whole does not, is dropped as any wrong parameter is
    return parse_game_keeping_what_is_right(spec, {**args, "moves": text[:kept]})


def parse_game_keeping_what_is_right(spec: GameSpec, args) -> GameLink:
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
