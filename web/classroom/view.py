"""What the class pages show, decided here so that the templates only draw: the class's game
(read back from its stored link), the vote's choices and counts, the class's choice, the
AI's choice once revealed, and the links the teacher's buttons follow."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import segno
from flask import request, url_for
from werkzeug.datastructures import MultiDict

from .reading import ClassData
from .store import ClassState
from ..games import GAMES
from ..notation import use_notation
from ..network import SERVE_ON_NETWORK, is_loopback, network_addresses, url_host
from ..game_link import GameLink, parse_game
from ..params import BadRequest, read_int

CHART_WIDTH = 60            # SVG units per bar of the vote chart
CHART_HEIGHT = 100          # the tallest bar: the chart stays low on the projector
VOTE_SECONDS = (0, 15, 20, 30, 45, 60, 90, 120)   # the time limits a teacher may give a vote


def board_query(g: GameLink, args) -> str:
    """The class's board as stored: the game's link without projector mode, class code or
    language (each page adds its own), and the tree step the teacher is at."""
    g = replace(g, settings=replace(g.settings, projector=False, class_code=""))
    query = g.query()
    if g.settings.show_tree and args.get("step"):
        query["step"] = read_int(args, "step", 0, 0, 10**6)
    return urlencode(query)


def game_from_link(link: str):
    """A game page's link (``/<game>?moves=44``, from the teacher's address bar) as
    (spec, game, args); BadRequest when it is not one."""
    try:
        parts = urlsplit(link or "")
    except ValueError:                      # "//[": not even a URL
        parts = None
    spec = GAMES.get(parts.path.strip("/")) if parts else None
    if spec is None or parts.scheme or parts.netloc:
        raise BadRequest("not a game's link: %(link)s", link=(link or "")[:60])
    args = MultiDict(parse_qsl(parts.query, keep_blank_values=True))
    return spec, parse_game(spec, args), args


def stored_game(game: str, query: str, **settings) -> GameLink:
    """The game of a stored link, with ``settings`` changed (projector mode, class code)."""
    g = parse_game(GAMES[game], MultiDict(parse_qsl(query)))
    return replace(g, settings=replace(g.settings, **settings)) if settings else g


@dataclass(frozen=True)
class Choice:
    label: str              # the move as people write it (GameSpec.words.move says it in words)
    count: int
    height: float           # the bar's height in the chart
    legal: bool = True


@dataclass
class ClassView:
    """A class as one page shows it (``teacher``: the holder of the secret), from what the
    store held when the view read it (``data``, one round trip: ``web.classroom.reading``);
    without ``data``, only the board and its links (no counts)."""

    state: ClassState
    data: ClassData | None = None
    teacher: bool = False
    projector: bool = False
    key: str | None = None          # the teacher's secret, to show the teacher their link

    def __post_init__(self):
        # every class page writes values as the class's board does (its stored link's
        # notation): the phones, and the teacher's bar redrawn after a button, say what the
        # projector says
        use_notation(self.g.settings.notation)

    @property
    def code(self) -> str:
        return self.state.code

    @cached_property
    def g(self) -> GameLink:
        """The board now, its links keeping class mode (and projector mode for the teacher)."""
        return stored_game(self.state.game, self.state.query, class_code=self.code,
                           projector=self.projector)

    @cached_property
    def step(self) -> int | None:
        value = dict(parse_qsl(self.state.query)).get("step")
        return int(value) if value is not None else None

    @cached_property
    def vote_g(self) -> GameLink | None:
        """The position of the current vote round (None before the first round)."""
        if not self.state.round:
            return None
        return stored_game(self.state.game, self.state.vote_query, class_code=self.code,
                           projector=self.projector)

    @cached_property
    def tally(self):
        return self.data.tally if self.state.round else Counter()

    @property
    def votes(self) -> int:
        return sum(self.tally.values())

    @property
    def crowd(self):
        """The teacher's flag on the round's busiest address, when it cast many ballots
        (``store.Crowd``); None on a phone."""
        return self.data.crowd if self.teacher and self.state.round else None

    @cached_property
    def followers(self) -> int:
        return self.data.followers

    @property
    def can_open_vote(self) -> bool:
        """A vote is on a person's move: not when the game is over or the AI is to move."""
        return not self.g.over and not self.g.ai_to_move

    def moves_of(self, g: GameLink) -> list[str]:
        """The moves people may choose in ``g``, in the board's order (the rules' own order of
        its moves, sorted)."""
        return [g.rules.format_move(m) for m in sorted(g.rules.actions(g.state))]

    @cached_property
    def choices(self) -> list[Choice]:
        """The vote's chart: every legal move of the round's position with its count."""
        if self.vote_g is None:
            return []
        most = max(self.tally.values(), default=0) or 1
        return [Choice(m, self.tally.get(m, 0), CHART_HEIGHT * self.tally.get(m, 0) / most)
                for m in self.moves_of(self.vote_g)]

    @property
    def chart_width(self) -> int:
        return CHART_WIDTH * max(len(self.choices), 1)

    chart_bar_width = CHART_WIDTH
    chart_height = CHART_HEIGHT

    @cached_property
    def class_choice(self) -> str | None:
        """The move most students chose (None before any vote, or on a tie)."""
        ranked = self.tally.most_common(2)
        if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    @property
    def on_vote_position(self) -> bool:
        """Whether the board is still where the vote was (then its choice can be played)."""
        v, g = self.vote_g, self.g
        return v is not None and g.moves[:g.at] == v.moves[:v.at] and g.live

    def play_url(self, move: str) -> str:
        return self.g.url("move", **{self.g.spec.move_param: move})

    @property
    def tree_url(self) -> str:
        """The AI's tree on the vote's position: on the board when it went on from there (its
        moves kept, to come back to), else the vote's position itself."""
        v, g = self.vote_g, self.g
        if g.moves[:v.at] == v.moves[:v.at]:
            return g.url(upto=v.at, tree=1)
        return v.url(tree=1)

    # -- links and the QR code --

    @property
    def page_student_url(self) -> str:
        """The student link on this page's own address: the class's code alone (a phone
        takes its language from the browser, and writes values in the class's notation,
        ``use_notation``, whatever its link says; a short link, a simple QR code)."""
        return url_for("classroom.student", code=self.code, _external=True, lang=None,
                       proj=None, notation=None)

    @cached_property
    def loopback(self) -> bool:
        """Whether the teacher opened this page on the computer's own address (127.0.0.1,
        localhost, ::1): a link on it would send students' phones to themselves."""
        return is_loopback(request.host)

    @cached_property
    def join_links(self) -> list[str]:
        """The links students open, the first on the projector with its QR code: the page's
        own; on a loopback address, this computer's network addresses instead (the same
        path and port), or the page's own if it has none."""
        if not self.loopback:
            return [self.page_student_url]
        parts = urlsplit(self.page_student_url)
        try:
            port = parts.port
        except ValueError:
            port = None
        found = [urlunsplit((parts.scheme, url_host(address, port), parts.path, "", ""))
                 for address in network_addresses()]
        return found or [self.page_student_url]

    @property
    def student_url(self) -> str:
        """The link students open: short, on the projector and in its QR code."""
        return self.join_links[0]

    @property
    def qr_svg(self) -> str:
        """The student link's QR code (``qr_of``)."""
        return qr_of(self.student_url)

    serve_on_network = SERVE_ON_NETWORK      # how to serve to the classroom: shown on loopback

    @property
    def other_join_links(self) -> list[tuple[str, str]]:
        """The other network addresses' links, each with its QR code."""
        return [(link, qr_of(link)) for link in self.join_links[1:]]

    @property
    def explore_url(self) -> str:
        """The board as an ordinary game link, for a student who explores on their own."""
        g = stored_game(self.state.game, self.state.query)
        return g.url()

    @cached_property
    def names(self) -> list[str]:
        return sorted(self.data.names.values(), key=str.casefold)

    @property
    def teacher_link(self) -> str | None:
        """The teacher's link, to take the class on to another device: the secret after
        ``#``, which browsers never send (no server log, no proxy holds it), and which the
        link's page asks to confirm."""
        if not self.key:
            return None
        return url_for("classroom.teach", code=self.code, _external=True, lang=None,
                       proj=None) + "#key=" + self.key

    @property
    def ai_label(self) -> str:
        return self.state.reveal

    # -- the live classroom: join screen, time limit, who answered, the phones' buttons --

    @property
    def started(self) -> bool:
        """Whether the lesson has begun: its board moved, or a vote, a question or an
        exercise was opened. A teacher who asks the class something has started: the join
        screen at the top of the projector folds away (its bar says so: static/app.js)."""
        return self.state.version > 1 or bool(self.state.round) or \
            self.data.activity is not None

    @property
    def lobby_at_start(self) -> bool:
        """Whether the teacher's page opens on the join screen: a class not started yet."""
        return not self.started

    vote_seconds_choices = VOTE_SECONDS
    vote_seconds_default = 0

    @property
    def seconds_left(self) -> int | None:
        """Whole seconds until the open vote closes by itself (None: no time limit)."""
        if not (self.state.vote_open and self.state.vote_ends):
            return None
        return max(0, math.ceil(self.state.vote_ends - self.data.now))

    @property
    def answer_total(self) -> int:
        """The "of N" of "45 of 60 answered": the students following, or more when some who
        voted have left since."""
        return max(self.followers, self.votes)

    @property
    def board_moved_on(self) -> bool:
        """Whether the board went on from the vote's position (the class's move played): the
        AI's choice is then what it would have played there."""
        v, g = self.vote_g, self.g
        return v is not None and (g.at != v.at or g.moves[:g.at] != v.moves[:v.at])

    @cached_property
    def board_g(self) -> GameLink:
        """The board as the projector shows it: during a replay of the AI's search, the
        position it searched, its move not played yet (``web.tree_panel.board_game``)."""
        from ..tree_panel import board_game
        return board_game(self.g, self.tree_step)

    @cached_property
    def tree_step(self):
        """The search tree's panel at the step the projector shows (its step's text goes on
        the phones), or None: no step, a search too large to replay, or no search slot free
        just now (the phones then say only the step's number). Its search in its lane, the
        replay to the step (up to 2,000 events) in the trees' lane off the loop: a class's
        phones loading at once never hold the worker's plain pages."""
        if self.step is None or not self.g.settings.show_tree:
            return None
        from ..admission import Busy
        from ..tree_panel import tree_panel_in_lane
        try:
            panel = tree_panel_in_lane(self.g, {"step": str(self.step)}, replay_only=True)
        except (Busy, BadRequest):
            return None
        if panel is None or getattr(panel, "step", None) is None:
            return None
        return panel

    @cached_property
    def vote_slots(self) -> list[str | None]:
        """The phone's vote buttons, one per move of the game's first position in the board's
        order (a board's columns, say), so that they line up with the board: the move's
        label when it can be chosen now, else None (a gap)."""
        if self.vote_g is None:
            return []
        rules = self.vote_g.rules
        legal = set(self.moves_of(self.vote_g))
        every = [rules.format_move(m) for m in sorted(rules.actions(rules.initial_state()))]
        slots = [m if m in legal else None for m in every]
        if set(every) >= legal:
            return slots
        return self.moves_of(self.vote_g)          # moves the first position did not have


def qr_of(link: str) -> str:
    """A link's QR code, drawn as SVG on the server (segno): no script, no image service."""
    qr = segno.make(link, error="m")
    return qr.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr", lineclass=None,
                         dark="#000", light="#fff")


def wants_projector() -> bool:
    return request.args.get("proj") == "1"
