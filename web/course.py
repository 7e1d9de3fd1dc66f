"""Blueprint ``course``: ``/course``, the course's figures as a gallery, chapter by chapter.

Each card is one figure of the course material (the seeds), titled in the course's words,
with a small picture drawn by the app and a link that opens the app in exactly that state:
the game, its settings, the position, the step or notation. Links keep the page's language
and projector mode like every link (``web.i18n``, ``web.projector``). The pictures that are
not trees (the dictionary of Listing VIII.1, the cell values of Figure VIII.2, the sum that
gives h = 2) are computed here from ``ai/``, so they are the app's, not copied numbers.
A figure whose tree is too large to replay step by step (drawn folded, as Connect-4's
depth-3 minimax) links its replay too: the same position and search at a depth whose tree
is drawn whole, at its first step (``Figure.steps``), where a class can be asked the next step.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from flask import Blueprint, Response, render_template, request
from flask_babel import lazy_gettext as _l

from ai.games.connect4.rules import Connect4
from ai.games.connect4.heuristic import cell_values
from ai.games.nim.tree import course_tree, nim_tree_size
from ai.games.connect4.position import cell_value_terms, columns_of, format_columns
from ai.teach.tree_view import Shown, unfold, walk
from ai.games.tictactoe.course_figures import whole_tree as tictactoe_tree
from ai.games.tictactoe.rules import TicTacToe

from .admission import drawn_in_lane
from .games import GameSpec
from .tree_panel import SMALL_TREE_NODES, TreePanel, tree_panel_in_lane
from .i18n import tr
from .game_link import MAX_TIME_MS, parse_game
from .params import BadRequest


bp = Blueprint("course", __name__)

# Seed 003's tree of dimension 5 as its figures draw it: 5 matches, the AI (J0) first, the
# course's evaluation, children tried 3-2-1, the tree of the AI's first move.
FIVE_MATCHES = dict(n=5, mode="ai-human", level="custom", heur="course", order="reverse",
                    moves=1, tree=1)
# Seed 003's alpha-beta figure: depth 2, the window [-maxScore, +maxScore] (the home page
# shows it too).
NINE_OF_28 = dict(FIVE_MATCHES, algo="alphabeta", depth=2, window="course", td=2)
# Seed 000, Figure VIII.1 (its picture is not in the text): a position where J0 (o, yellow)
# is on cells worth 4, 5, 7, 6, 8, 13, 11 and J1 (x, red) on 3, 5, 4, 8, 10, 11, 11, in the
# order the course lists them when the grid is read row by row from the bottom
# (ai.games.connect4.position.cell_value_terms):
#   . . x . . . .
#   . . x o o . .
#   . o x x o . .
#   x o o o x x .
FIGURE_VIII_1 = "44453353532621"
# Seed 003's game of dimension 11, player 1 first: 3, 2, 2, 1, 3, and player 1 wins. The link
# opens it at its start (at=0), to be replayed one move at a time.
ELEVEN_MATCHES = dict(n=11, moves="32213", at=0, mode="human-human")
# Alpha-beta with the table, step by step, on a 4x4 board where only columns 3 and 4 are open:
# 35 nodes to depth 4, small enough to draw whole, with two positions met twice (table hits).
TABLE_STEPS = dict(w=4, h=4, moves="1111222", mode="human-human", level="custom",
                   algo="alphabeta-tt", depth=4, order="natural", tree=1)


@dataclass(frozen=True)
class Use:
    """One of the home page's ways into a lesson: a link to the app in a state of the course."""

    title: object
    text: object
    endpoint: str
    args: dict = field(default_factory=dict)


# The home page's lesson part: the course's alpha-beta figure (seed 003, NINE_OF_28: 5
# matches, depth 2, 9 nodes of 28 explored), and the ways into the app a lesson takes. The
# course names its games, so these do; the home page only draws them.
HOME_FIGURE = Use(_l("Alpha-beta with pruning on the game of 5 matches, depth 2: only 9 nodes "
                     "of 28 are explored (course: “Depth-limited search and pruning”)."),
                  _l("The search tree of alpha-beta on 5 matches at depth 2: 9 nodes explored, "
                     "the others pruned"), "play.show", dict(game="nim", **NINE_OF_28))
HOME_USES = [
    Use(_l("The course, figure by figure"),
        _l("Every figure of the course, each one click from the app in its state."),
        "course.course"),
    Use(_l("Alpha-beta step by step"),
        _l("The course's example, one node at a time: alpha and beta as they change, each cut "
           "as it happens."), "play.show", dict(game="nim", step=0, **NINE_OF_28)),
    Use(_l("The search tree of a Connect-4 move"),
        _l("Every position the AI explored before it played: values, alpha and beta, pruned "
           "branches, the best line."),
        "play.show", dict(game="connect4", moves="4453", tree=1, level="medium")),
    Use(_l("Exercise lab"),
        _l("The course's trees, a random one or your own: students give α and β on entry, the "
           "values and the pruned branches; the app names each mistake without giving the "
           "answer away, and gives a score."), "lab.lab", dict(mode="exercise", ex="nim5d2")),
    Use(_l("The whole Nim tree and the theory"),
        _l("The 28 nodes of the 5-match game with their MIN-MAX values; why the multiples of "
           "4 lose."), "nim.theory"),
    Use(_l("Compare the algorithms"),
        _l("Minimax, alpha-beta and alpha-beta with a transposition table on one position: "
           "nodes, cut-offs, time."), "play.compare", dict(game="connect4", moves="4453")),
]


def _board_of(moves: str) -> str:
    """The editor's ``board=`` of the position after ``moves`` (``ai.games.connect4.position``)."""
    game = Connect4()
    return format_columns(columns_of(game, game.from_moves(moves)))


@dataclass(frozen=True)
class Figure:
    title: object            # the figure's title, in the course's words
    text: object             # one sentence: what it shows
    endpoint: str            # where the link goes (a view), with ``args``
    args: dict = field(default_factory=dict)
    picture: str = "tree"    # "tree" (the tree panel's SVG of that state), "dict", "grid",
    #                          "sum", or "" (the link says enough)
    inspect: dict | None = None   # a heuristic's figure: the inspector's arguments (its
    #                               position and heuristic), a second link
    exercise: dict | None = None  # a tree the lab asks as an exercise (its ``ex`` and ``algo``)
    steps: dict | None = None     # a figure whose tree is too large to replay step by step
    #                               (drawn folded: web.tree_panel.SMALL_TREE_NODES): what
    #                               changes in its settings for a tree drawn whole, a third link

    def __post_init__(self):
        # every card opens in the course's notation (+M/−M, M − 3/5), kept from page to page
        object.__setattr__(self, "args", {**self.args, "notation": "course"})

    @property
    def step_args(self) -> dict:
        """The step-by-step link's arguments: the figure's own with ``steps``, at step 0."""
        return {**self.args, **(self.steps or {}), "step": 0}


def _nim(**args) -> dict:
    return {"game": "nim", **args}


def _c4(**args) -> dict:
    return {"game": "connect4", **args}


def _ttt(**args) -> dict:
    return {"game": "tictactoe", **args}


# The players named as each chapter names them: J0 and J1 in the minmax chapter (seed 000),
# joueur 1 and joueur 2 in the MIN-MAX chapter (seed 003).
def _c4_j(**args) -> dict:
    return _c4(players="j", **args)


def _nim_numbered(**args) -> dict:
    return _nim(players="numbers", **args)


CHAPTERS = [
    (_l("Minmax algorithm, using a heuristic (course, minmax chapter)"), [
        Figure(_l("Listing VIII.1 – the Nim tree (N = 4) as a dictionary"),
               _l("constrarbreNIM(4, {}, 0, 0): every node named max_/min_, matches left, number."),
               "nim.theory", dict(n=4, variant="misere"), "dict"),
        Figure(_l("Labelling the tree with minmax (N = 4)"),
               _l("+1 where the maximiser wins, −1 where he loses; the course's game is the one "
                  "where taking the last match loses (misère)."),
               "nim.theory", dict(n=4, variant="misere"), "",
               exercise=dict(ex="nim4", algo="minimax")),
        Figure(_l("Minmax with a heuristic, depth-limited"),
               _l("Connect-4, minimax to depth 3, each leaf scored by the cell values."),
               "play.show", _c4_j(moves="4453", mode="human-human", level="custom",
                                  algo="minimax", depth=3, heur="cells", tree=1),
               inspect=dict(board=_board_of("4453")),
               # depth 3's 400 nodes (343 leaves) are drawn folded, too many to replay; depth
               # 2's 57 (7 moves, 49 leaves) are drawn whole: 114 steps
               steps=dict(depth=2)),
        Figure(_l("Figure VIII.2 – the “rated” Connect-4 grid"),
               _l("Each cell: the number of fours it can take part in. The link opens the "
                  "course's position (Figure VIII.1), scored with these values."),
               "play.show", _c4_j(moves=FIGURE_VIII_1, mode="human-human", level="custom",
                                  algo="minimax", depth=3, heur="cells"), "grid",
               inspect=dict(board=_board_of(FIGURE_VIII_1))),
        Figure(_l("Figure VIII.1 – a game in progress: h(grille) = 2"),
               _l("J0's cell values minus J1's, computed by the app on the course's position."),
               "editor.edit", dict(board=_board_of(FIGURE_VIII_1)), "sum",
               inspect=dict(board=_board_of(FIGURE_VIII_1))),
    ]),
    (_l("Writing a MiniMax procedure"), [
        Figure(_l("The MiniMax procedure, step by step"),
               _l("Play a move, search below it, undo it, keep the best value: on the course's "
                  "tree of 5 matches, one step at a time."),
               "play.show", _nim(**FIVE_MATCHES, algo="minimax", depth=5, td=5, step=0)),
        Figure(_l("Alpha-beta, the same way"),
               _l("α and β as they change, each cut as it happens."),
               "play.show", _nim(**NINE_OF_28, step=0)),
    ]),
    (_l("The Minimax algorithm (rational agent, complexity)"), [
        Figure(_l("O(b^m): the tree grows with the depth"),
               _l("A uniform tree of branching b: the nodes minimax and alpha-beta visit at each "
                  "depth, beside the formulas."),
               "lab.tree_growth", dict(b=3, m=6), ""),
        Figure(_l("The same growth on a real position"),
               _l("Nodes searched per depth by minimax and alpha-beta on Connect-4."),
               "play.compare", _c4(moves="4453"), ""),
        Figure(_l("Tic-tac-toe (le morpion): the whole tree"),
               _l("Minimax visits every node of the whole game tree and finds a draw; "
                  "alpha-beta visits a few thousand, fewer with a transposition table, fewer "
                  "still when the centre is tried first. The link compares them on the rest "
                  "of a game, X in the centre and O in a corner, to its end."),
               "play.compare", _ttt(moves="51", cd=7), "whole-tree"),
        Figure(_l("The agent: perceive, decide, act"),
               _l("The AI sees the position (the link), searches, plays: each move is one turn "
                  "of the loop."),
               "play.show", _c4(mode="ai-ai"), ""),
    ]),
    (_l("State-space search (the game of matches)"), [
        Figure(_l("The game of 11 matches"),
               _l("The course's game, move by move: player 1 takes 3, player 2 takes 2, "
                  "player 1 takes 2, player 2 takes 1, player 1 takes the last 3 and wins. "
                  "“Next move” plays it one move at a time."),
               "play.show", _nim_numbered(**ELEVEN_MATCHES), ""),
        Figure(_l("The tree of dimension 5 and its MIN-MAX values"),
               _l("28 nodes; the root is worth +maxScore: take 1 match and win."),
               "play.show", _nim_numbered(**FIVE_MATCHES, algo="minimax", depth=5, td=5,
                                          notation="course"),
               exercise=dict(ex="nim5", algo="minimax")),
        Figure(_l("Dimension 20: more than 250,000 nodes"),
               _l("The whole tree of 20 matches, counted by the app."),
               "play.compare", _nim(n=20), "count"),
        Figure(_l("Depth 3 with the evaluation +maxScore − remaining/total"),
               _l("Depth-limited MIN-MAX: the leaves are estimates, not results."),
               "play.show", _nim_numbered(**FIVE_MATCHES, algo="minimax", depth=3, td=3)),
        Figure(_l("Alpha-beta on the tree of dimension 5"),
               _l("The exact value with fewer nodes."),
               "play.show", _nim_numbered(**FIVE_MATCHES, algo="alphabeta", depth=5,
                                          window="course", td=5),
               exercise=dict(ex="nim5", algo="alphabeta")),
        Figure(_l("Depth limit and pruning: 9 nodes of 28"),
               _l("Alpha-beta at depth 2, the window [−maxScore, +maxScore]."),
               "play.show", _nim_numbered(**NINE_OF_28, notation="course"),
               exercise=dict(ex="nim5d2", algo="alphabeta")),
        Figure(_l("A computable game: the multiples of 4 lose"),
               _l("The whole tree beside the theory."),
               "nim.theory", dict(n=8), ""),
    ]),
    (_l("Project report: misère Nim, Connect-4, memory"), [
        Figure(_l("Misère Nim"), _l("Whoever takes the last match loses."),
               "play.show", _nim(variant="misere", tree=1), ""),
        Figure(_l("The adjusted heuristic"),
               _l("For each stone: α × its cell value (α = 0.2) plus, in each of the 4 "
                  "directions, the square of the number of its owner's stones aligned with it "
                  "(0 when the opponent leaves no room for four); mine minus the opponent's."),
               # the most time a search may have (MAX_TIME_MS): its 4,698 nodes, recorded,
               # take some 0.15 s of CPU, near the default 250 ms; on a busy laptop the clock
               # cut the figure short (a full test run beside 4 busy processes, 28 Nov)
               "play.show", _c4(moves="4453", mode="human-human", level="custom",
                                algo="alphabeta", depth=5, heur="adjusted", tree=1,
                                time=MAX_TIME_MS),
               inspect=dict(board=_board_of("4453"), heur="adjusted"),
               # depth 5's 4,698 nodes (10,746 steps) are drawn folded, too many to replay;
               # depth 2's tree is drawn whole: 39 nodes explored of 57, 5 cut-offs, 94 steps
               steps=dict(depth=2)),
        Figure(_l("Alpha-beta with memory and Zobrist keys"),
               _l("The transposition table: TT marks where an entry decided a node."),
               "table.table", dict(moves="4453", ttd=4), ""),
        Figure(_l("The table step by step: keys, slots, probes and hits"),
               _l("Each move XORs one random number into the key; each node looks its key up "
                  "in its slot before searching and stores its value after: on a small "
                  "Connect-4 position, one step at a time."),
               "play.show", _c4(**TABLE_STEPS, step=0)),
        Figure(_l("Why a table of (alpha, beta, depth) did not work"),
               _l("A cut node knows a bound, not a value: the table keeps the bound's kind."),
               "table.table", dict(moves="4453", ttd=4), ""),
    ]),
]


def dictionary_lines(n: int = 4, k: int = 3) -> list[str]:
    """Listing VIII.1 as the course prints it, one key per line."""
    return [f"'{key}': {children}" for key, children in course_tree(n, k).items()]


def heuristic_sum(moves: str) -> dict:
    """h(grille) on the position after ``moves`` (``ai.games.connect4.position.cell_value_terms``)."""
    game = Connect4()
    return cell_value_terms(game, columns_of(game, game.from_moves(moves)))


@bp.get("/course")
def course():
    """The course's figures, chapter by chapter, each one click from the app in its state."""
    return render_template("course.html", chapters=CHAPTERS, dictionary=dictionary_lines(),
                  grid=cell_values(7, 6), h=heuristic_sum(FIGURE_VIII_1),
                  size_20=nim_tree_size(20, 3), whole_tree=tictactoe_tree(TicTacToe()),
                  thumbnail_args=thumbnail_args)


def thumbnail_args(f: Figure) -> dict:
    """The link of a card's picture: the figure's own settings (no step: a thumbnail is not a
    replay)."""
    return {k: v for k, v in f.args.items() if k != "step"}


@bp.get("/course/<game:game>/figure.svg")
def thumbnail(game: GameSpec):
    """A card's picture: the tree the figure is about, drawn as a question (its shape, the
    moves, Nim's matches left), never the answer (values, cuts, pruned branches, best line),
    so that a thumbnail spoils neither a replay nor the question the figure asks. On Nim the
    whole tree to the figure's depth (minimax's, as the course draws the tree of states: an
    alpha-beta tree's shape would show where it cut); on Connect-4 the root and its moves
    (minimax to depth 1: the position's moves, not a search's findings)."""
    try:
        return _thumbnail(game, request.args.to_dict())
    except BadRequest as err:      # an edited link (or a busy server): said in words, never a 500
        response = Response(tr(err), status=getattr(err, "status", 400),
                            mimetype="text/plain")
        if getattr(err, "retry_after", None):
            response.headers["Retry-After"] = str(err.retry_after)
        return response


def _thumbnail(game: GameSpec, args: dict) -> Response:
    args.pop("step", None)
    if args.get("level") == "custom":
        args["algo"] = "minimax"
        if game.name != "nim":
            args["depth"] = args["td"] = "1"
    g = parse_game(game, args)
    g = replace(g, settings=replace(g.settings, show_tree=True))
    panel = tree_panel_in_lane(g, args)      # built off the loop, as it is drawn
    if panel is None:
        raise BadRequest("no search to draw: the game is over")
    if getattr(panel, "solved", False):
        raise BadRequest("the exact solver chose this move: there is no search tree to draw")
    if not isinstance(panel, TreePanel):
        raise BadRequest("this search explored %(n)s nodes: too many to draw (at most %(most)s)",
                         n=panel.result.stats.nodes, most=panel.limit)
    tree = panel.result.tree
    small = tree.whole and len(tree.nodes) <= SMALL_TREE_NODES
    panel.view = unfold(tree, (), levels=99 if small else 1)
    panel.spine, panel.path = False, ()
    panel.shown = {v.node.id: Shown() for v in walk(panel.view)}
    # drawn in the trees' lane off the loop, as the tree panel is (Busy: a 503 in words)
    return Response(drawn_in_lane(lambda: render_template("figure_thumb.svg", panel=panel)),
                    mimetype="image/svg+xml")
