"""The course's algorithms as the course writes them (``ai.course.as_written``) against the
engine the app runs (``ai.course.search``): the same value at the root, and for alpha-beta
the same nodes explored when the children are tried in the same order, on every course tree
the app shows (the course gallery's cards, the tic-tac-toe card, the exercise lab's trees)
and on random trees. And the algorithm text shown beside a replay (``web.algorithm_text``)
says lines that are written in the module.

What is compared, and why only that:
- the engine is a negamax: its values are the side to move's, the course's are the
  maximiser J0's. The root's are the same up to the sign (``j0_side``).
- the engine scores a quick win above a slow one by default; the course's scores are flat
  (±maxScore), so the engine runs with ``quick_wins=False``. With quick wins and the course's
  window the engine also tightens the window at each node (``ai.course.search``: the
  "situation optimale" for distance-scored wins), which can change what it explores.
- the engine returns the best child's value even outside the window (fail-soft), the
  course returns α or β (fail-hard): the root's value is the same, and so is every cut,
  since a parent reads a child's bound only to compare it with its own α or β. The nodes
  explored are therefore the same, node for node.
- minimax explores every node whatever the order; alpha-beta's count depends on it ("9
  sommets sur 28" tries 3, 2, 1 matches), so the course's functions see the children in the
  order the engine is given (``Counting``).
"""
from __future__ import annotations

import inspect
import re
from math import inf

import pytest
from hypothesis import given, settings, strategies as st

from ai.course import as_written as course
from ai.course.as_written import J0
from ai.course.scores import MAX_SCORE
from ai.course.search import alphabeta as engine_alphabeta, minimax as engine_minimax, move_orderer
from ai.games.nim.course_trees import COURSE_TREES
from ai.games.nim.heuristic import NimCourse
from ai.games.nim.rules import Nim
from ai.games.tictactoe.course_figures import whole_tree
from ai.games.tictactoe.rules import TicTacToe
from ai.heuristics import heuristics_for, make_heuristic
from ai.teach.exercise_tree import RANDOM_DEPTHS, ExerciseTree, random_tree
from tests.strategies import connect4_games, nim_games, reachable


class Counting:
    """The game as the course's functions see it: it counts the nodes they explore (each of
    them asks ``is_terminal`` once per node it enters) and gives the children in the order
    the engine is given (``move_orderer``). Everything else is the game's own."""

    def __init__(self, game, order=None):
        self.game, self.nodes = game, 0
        self.order = move_orderer(game, order)

    def __getattr__(self, name):
        return getattr(self.game, name)

    def is_terminal(self, state):
        self.nodes += 1
        return self.game.is_terminal(state)

    def actions(self, state):
        return self.order(state, self.game.actions(state))


def j0_side(game, state, value):
    """The engine's value (the side to move's at ``state``) as the course's, J0's."""
    return value if game.to_move(state) == J0 else -value


def course_window(game, window):
    """The engine's window by name, as (alpha, beta): "infinite", or the course's
    [−maxScore, +maxScore] (an exercise tree's maxScore is its largest leaf)."""
    if window == "infinite":
        return -inf, inf
    max_score = game.max_score if isinstance(game, ExerciseTree) else MAX_SCORE
    return -max_score, max_score


def both_ways(game, state=None, depth=None, heuristic=None, window="infinite", order=None):
    """Minimax and alpha-beta on ``state``, the course's way and the engine's, checked equal:
    the root's value, minimax's nodes (the whole tree to ``depth``) and alpha-beta's nodes.
    Returns (value, minimax's nodes, alpha-beta's nodes) for the worked examples to read."""
    state = game.initial_state() if state is None else state
    h = None if heuristic is None else (lambda sommet: heuristic(sommet, J0))
    if heuristic is not None:   # the engine asks the side to move, the course J0: the same
        assert heuristic(state, 1) == -heuristic(state, 0)    # only if h(J1) = −h(J0)

    written = Counting(game, order)
    value = (course.minmax(written, state) if depth is None
             else course.minmax_h(written, state, depth, h))
    engine = engine_minimax(game, state, depth, heuristic=heuristic, order=order,
                            quick_wins=False)
    assert value == j0_side(game, state, engine.value)
    assert written.nodes == engine.stats.nodes
    minimax_nodes = written.nodes

    written = Counting(game, order)
    alpha, beta = course_window(game, window)
    pruned = course.alphabeta(written, state, inf if depth is None else depth, h, alpha, beta)
    engine = engine_alphabeta(game, state, depth, heuristic=heuristic, order=order,
                              window=window, quick_wins=False)
    assert pruned == value == j0_side(game, state, engine.value)
    assert written.nodes == engine.stats.nodes
    return value, minimax_nodes, written.nodes


# -- the course's worked examples --------------------------------------------------------------

def test_seed_000_minmax_labels_the_4_token_tree_plus_one_and_explores_its_15_nodes():
    # ">>> print(minmax('max_4-0',arbre))  1": the seed's game is the misère one (a "max"
    # leaf, J0 to move with no token left, returns +1), +1 written +maxScore here.
    value, nodes, _ = both_ways(Nim(4, 3, "misere"))
    assert (value, nodes) == (MAX_SCORE, 15)


def test_seed_003_the_tree_of_dimension_5_is_worth_plus_maxscore_over_its_28_nodes():
    # "le joueur qui commence est certain de pouvoir gagner (score sur la racine = +maxScore)"
    value, nodes, pruned = both_ways(Nim(5), window="course", order="reverse")
    assert (value, nodes) == (MAX_SCORE, 28)
    assert pruned == 12          # the gallery: "alpha-beta explored 12 of 28 nodes"


def test_seed_003_minmax_at_depth_3_with_maxscore_minus_remaining_over_total():
    # "MIN-MAX avec profondeur limitée": the gallery's "minimax explored 22 of 28 nodes · depth 3"
    game = Nim(5)
    value, nodes, _ = both_ways(game, depth=3, heuristic=NimCourse(game), order="reverse")
    assert nodes == 22
    assert value == MAX_SCORE    # J0 takes 1 and wins by move 3, seen within the depth


def test_seed_003_alphabeta_at_depth_2_explores_only_9_nodes_of_28_trying_3_2_1():
    # "ici évaluation avec élagage et profondeur limitée à 2: Seuls 9 sommets sur 28 sont
    # explorés", the window initialised to [−maxScore, +maxScore].
    game = Nim(5)
    value, nodes, pruned = both_ways(game, depth=2, heuristic=NimCourse(game),
                                     window="course", order=(3, 2, 1))
    assert (pruned, nodes) == (9, 12)       # 9 of the 12 nodes to depth 2 (28 in all)
    assert value == pytest.approx(1000 - 3 / 5)   # maxScore − remaining/total, 3 of 5 left


def test_seed_003_alphabeta_at_depth_2_explores_12_nodes_trying_1_2_3():
    game = Nim(5)
    _, _, pruned = both_ways(game, depth=2, heuristic=NimCourse(game), window="course",
                             order=(1, 2, 3))
    assert pruned == 12


def test_the_textbook_tree_is_worth_3_and_alphabeta_skips_the_4_and_the_6():
    # AIMA Figure 5.2, the lab's first example: 13 nodes, 2 leaves pruned.
    value, nodes, pruned = both_ways(ExerciseTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert (value, nodes, pruned) == (3, 13, 11)


# -- every course tree of the app -------------------------------------------------------------

def course_cards():
    """The course gallery's cards (and the home page's figure) that open a replay of minimax
    or alpha-beta, by title. Alpha-beta with a table is seed 004's, which the course writes
    no code for."""
    from web.course import CHAPTERS, HOME_FIGURE
    figures = [f for _, chapter in CHAPTERS for f in chapter] + [HOME_FIGURE]
    return [pytest.param(f.args, id=str(f.title)) for f in figures
            if f.endpoint == "play.show" and f.args.get("algo") in ("minimax", "alphabeta")]


@pytest.mark.parametrize("args", course_cards())
def test_every_course_card_s_search_is_the_course_s(app, args):
    # the card's link read as the page reads it: the game, the position searched, the settings
    from web.game_link import parse_game
    from web.games import GAMES
    from web.tree_panel import searched_position

    with app.test_request_context():
        g = parse_game(GAMES[args["game"]], {k: str(v) for k, v in args.items()})
    at, _ = searched_position(g)
    s = g.settings
    heuristic = make_heuristic(g.rules, s.heuristic or None, alpha=s.alpha)
    both_ways(g.rules, g.states[at], s.depth, heuristic, s.window, s.order)


def test_the_course_gallery_has_the_cards_the_course_draws():
    # the worked examples above, the two Connect-4 positions of the minmax chapter, the
    # adjusted heuristic and the home page's figure: a card lost would go unchecked
    assert len(course_cards()) >= 9


def test_the_tic_tac_toe_card_s_counts_are_the_course_s_alphabeta():
    # "alpha-beta visits a few thousand, fewer still when the centre is tried first": the
    # card's numbers, from the empty board, the course's flat scores, the window (−∞, +∞)
    card = whole_tree(TicTacToe())
    for order, key in (("natural", "alphabeta"), ("center", "alphabeta_centre")):
        game = Counting(TicTacToe(), order)
        assert course.alphabeta(game, game.initial_state(), alpha=-inf, beta=inf) == card["value"] == 0
        assert game.nodes == card[key]


def test_the_tic_tac_toe_card_s_link_minimax_to_the_end_after_x_centre_o_corner():
    game = TicTacToe()
    state = game.result(game.result(game.initial_state(), game.parse_move("5")),
                        game.parse_move("1"))
    value, nodes, pruned = both_ways(game, state)
    assert value == 0 and pruned < nodes


@pytest.mark.parametrize("ex", sorted(COURSE_TREES))
@pytest.mark.parametrize("order", ["given", "natural", "reverse"])
def test_the_lab_s_course_trees(ex, order):
    spec = COURSE_TREES[ex]
    both_ways(ExerciseTree(spec["tree"], spec["root"]), window=spec["window"],
              order=spec["order"] if order == "given" else order)


def lab_trees():
    from web.exercise import LAB_EXAMPLES
    for title, text in LAB_EXAMPLES:
        yield pytest.param(text, id=str(title))
    for depth in RANDOM_DEPTHS:
        for seed in range(5):
            yield pytest.param(random_tree(seed, depth), id=f"random-{seed}-{depth}")


@pytest.mark.parametrize("tree", list(lab_trees()))
@pytest.mark.parametrize("root", ["max", "min"])
@pytest.mark.parametrize("window", ["infinite", "course"])
def test_the_lab_s_examples_and_random_trees(tree, root, window):
    for order in ("natural", "reverse"):
        both_ways(ExerciseTree(tree, root), window=window, order=order)


# -- random trees -----------------------------------------------------------------------------

leaf = st.integers(-20, 20)
trees = st.lists(st.recursive(leaf, lambda kids: st.lists(kids, min_size=1, max_size=4),
                              max_leaves=40), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(tree=trees, root=st.sampled_from(["max", "min"]),
       window=st.sampled_from(["infinite", "course"]), order=st.sampled_from(["natural", "reverse"]))
def test_random_trees_the_same_value_and_nodes_as_the_engine(tree, root, window, order):
    both_ways(ExerciseTree(tree, root), window=window, order=order)


def with_heuristic(games, max_moves):
    @st.composite
    def build(draw):
        game, state = draw(reachable(games, max_moves))
        name = draw(st.sampled_from(sorted(heuristics_for(game))))
        return game, state, make_heuristic(game, name)
    return build()


@settings(max_examples=120, deadline=None)
@given(position=with_heuristic(nim_games(), 6), depth=st.integers(1, 4),
       window=st.sampled_from(["infinite", "course"]),
       order=st.sampled_from(["natural", "reverse"]))
def test_nim_positions_to_a_depth_with_a_heuristic(position, depth, window, order):
    game, state, heuristic = position
    both_ways(game, state, depth, heuristic, window, order)


@settings(max_examples=60, deadline=None)
@given(position=with_heuristic(connect4_games(5, 5), 8), depth=st.integers(1, 3),
       window=st.sampled_from(["infinite", "course"]),
       order=st.sampled_from(["natural", "center"]))
def test_connect4_positions_to_a_depth_with_a_heuristic(position, depth, window, order):
    game, state, heuristic = position
    both_ways(game, state, depth, heuristic, window, order)


@settings(max_examples=60, deadline=None)
@given(position=with_heuristic(st.just(TicTacToe()), 9), depth=st.integers(1, 3),
       window=st.sampled_from(["infinite", "course"]),
       order=st.sampled_from(["natural", "center"]))
def test_tic_tac_toe_positions_to_a_depth_with_a_heuristic(position, depth, window, order):
    game, state, heuristic = position
    both_ways(game, state, depth, heuristic, window, order)


# -- the text beside a replay says this code ----------------------------------------------------

def code_lines(function) -> set[str]:
    """The lines of ``function``'s source, without their indentation and their comments."""
    source = inspect.getsource(function)
    return {re.sub(r"\s+#.*$", "", line).strip() for line in source.splitlines()}


@pytest.mark.parametrize("name", ["MINIMAX", "ALPHABETA"])
def test_each_line_of_the_algorithm_text_is_written_in_the_course_s_functions(name):
    from ai.course import table
    from web import algorithm_text

    for key, words, where in getattr(algorithm_text, name):
        assert where, key
        for function, *code in where:
            # the course's own functions; the table's lines, the engine's table
            assert function.__module__ in (course.__name__, table.__name__), key
            if function.__module__ == table.__name__:
                assert key in ("table", "store") and not code
                continue
            assert code, key
            missing = set(code) - code_lines(function)
            assert not missing, f"{name} {key!r}: not in {function.__name__}: {missing}"


def test_every_function_of_the_course_s_algorithms_is_cited_by_the_text():
    from web.algorithm_text import ALPHABETA, MINIMAX

    cited = {f for _, _, where in MINIMAX + ALPHABETA for f, *_ in where}
    assert {course.minmax_h, course.fils_de, course.alphabeta, course.valeur_max,
            course.valeur_min} <= cited


def test_the_check_reads_each_line_of_code_without_its_comment():
    # so a line the text cites, changed in the source, is no longer found there
    lines = code_lines(course.valeur_max)
    assert "alpha = max(alpha, s)" in lines and "if alpha >= beta:" in lines
    assert "alpha = max(alpha, s)  # α = max(α, s_i)" not in lines


def test_the_replay_says_where_its_current_line_is_written():
    """Beside a replay, the algorithm's text names the file and functions of the line being
    executed, so a student can open the course's code that runs (ai/course/as_written.py)."""
    from web.algorithm_text import ALPHABETA, MINIMAX, where_written

    for key, _, where in MINIMAX + ALPHABETA:
        text = where_written(where)
        assert text.startswith(("ai/course/as_written.py · ", "ai/course/table.py · ")), (key, text)
    cut = next(where for key, _, where in ALPHABETA if key == "cut")
    assert where_written(cut) == "ai/course/as_written.py · valeur_max, valeur_min"
