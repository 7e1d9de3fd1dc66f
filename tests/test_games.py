"""The games behind the one protocol: rules, notation, errors, immutability."""
import pytest
from hypothesis import given, settings, strategies as st

from ai.games.connect4.rules import Connect4
from ai.teach.exercise_tree import ExerciseTree, format_tree, parse_tree
from ai.course.game import Game, play
from ai.games.nim.rules import Nim


@pytest.mark.parametrize("game", [Nim(5), Connect4(), ExerciseTree([[1, 2], [3]])])
def test_every_game_implements_the_protocol(game):
    assert isinstance(game, Game)
    state = game.initial_state()
    hash(state)
    assert game.to_move(state) in (0, 1)
    assert game.actions(state)


def test_connect4_moves_are_written_as_1_indexed_columns_both_ways():
    game = Connect4()
    assert game.parse_moves("4453") == [3, 3, 4, 2]
    assert game.format_moves([3, 3, 4, 2]) == "4453"
    state = game.from_moves("4453")
    assert game.render(state).splitlines()[-3:] == [
        ". . . O . . .",
        ". . O X X . .",
        "1 2 3 4 5 6 7"]


def test_a_vertical_four_wins_for_the_player_who_made_it():
    game = Connect4()
    state = game.from_moves("1212121")
    assert game.is_terminal(state) and game.winner(state) == 0
    assert game.utility(state, 0) == 1 and game.utility(state, 1) == -1
    assert game.winning_cells(state) == {(0, 0), (0, 1), (0, 2), (0, 3)}


def test_both_diagonals_are_fours():
    game = Connect4()
    rising = game.from_moves("12233434474")      # X on (0,0) (1,1) (2,2) (3,3)
    assert game.winner(rising) == 0
    assert game.winning_cells(rising) == {(0, 0), (1, 1), (2, 2), (3, 3)}
    falling = game.from_moves("76655454414")
    assert game.winner(falling) == 0
    assert game.winning_cells(falling) == {(6, 0), (5, 1), (4, 2), (3, 3)}


def test_a_four_does_not_wrap_around_the_board_edge():
    # X in column 7 rows 1-2 and column 1 rows 3-4 would be four bits in a row without the
    # spare bit on top of each column.
    game = Connect4()
    state = game.from_moves("7733771111")
    assert game.winner(state) is None and not game.is_terminal(state)


def test_a_full_board_without_four_is_a_draw():
    game = Connect4(4, 4)
    #   O O X X
    #   X O O O
    #   O X X X
    #   O X O X
    state = game.from_moves("4321311144234232")
    assert game.is_terminal(state) and game.winner(state) is None
    assert game.utility(state, 0) == game.utility(state, 1) == 0


@pytest.mark.parametrize("moves, message", [
    ("8", "column 8 does not exist"),
    ("1111111", "column 1 is full"),
    ("1212121" "3", "the game is over"),
    ("0", "a column is a digit"),
    ("4a", "a column is a digit"),
])
def test_connect4_illegal_moves_raise_readable_errors(moves, message):
    with pytest.raises(ValueError, match=message):
        Connect4().from_moves(moves)


@pytest.mark.parametrize("width, height", [(3, 6), (10, 6), (7, 3), (7, 10), ("7", 6), (True, 6)])
def test_connect4_sizes_outside_4_to_9_are_refused(width, height):
    with pytest.raises(ValueError, match="must be from 4 to 9"):
        Connect4(width, height)


def test_connect4_states_are_immutable_and_transpositions_are_equal():
    game = Connect4()
    a, b = game.from_moves("1234"), game.from_moves("3214")
    assert a == b and hash(a) == hash(b) and a.key == b.key   # same stones, same Zobrist key
    assert game.from_moves("1243") != a
    with pytest.raises(AttributeError):
        a.mask = 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=30), st.integers(4, 9), st.integers(4, 9))
def test_zobrist_key_is_the_xor_of_the_stones_however_the_position_was_reached(cols, w, h):
    game = Connect4(w, h)
    state = game.initial_state()
    for c in cols:
        if c < w and c in game.actions(state):
            state = game.result(state, c)
    expected = 0
    for player in (0, 1):
        stones = game.stones(state, player)
        while stones:
            low = stones & -stones
            expected ^= game.zobrist[player][low.bit_length() - 1]
            stones ^= low
    assert state.key == expected


def test_nim_rules_and_errors():
    game = Nim(5, 3)
    state = play(game, [3, 1])
    assert state.remaining == 1 and game.to_move(state) == 0
    assert game.actions(state) == [1]
    with pytest.raises(ValueError, match="cannot take 2"):
        game.result(state, 2)
    with pytest.raises(ValueError, match="a move is a number"):
        game.result(state, "1")
    end = game.result(state, 1)
    with pytest.raises(ValueError, match="game is over"):
        game.result(end, 1)
    assert game.winner(end) == 0 and Nim(5, 3, "misere").winner(end) == 1
    for bad in [dict(n=0), dict(n=1001), dict(k=0), dict(k=10), dict(variant="reverse")]:
        with pytest.raises(ValueError):
            Nim(**{"n": 5, **bad})


def test_play_names_the_first_illegal_move():
    with pytest.raises(ValueError, match=r"move 3 \(4\)"):
        play(Nim(5), [1, 1, 4])


def test_exercise_trees_parse_typed_text_with_clear_errors():
    assert parse_tree(" [[3, 12, 8], [2, 4, 6], [14, 5, 2]] ") == [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    assert parse_tree("[-1, 2.5, [+3]]") == [-1, 2.5, [3]]
    assert format_tree([[3, 12.0], [-2.5]]) == "[[3, 12], [-2.5]]"
    for text, message in [("", "empty"), ("[[]]", "no children"), ("[1, x]", "must be a number"),
                          ("[1, 'a']", "must be a number"), ("[1,", "not well formed"),
                          ("__import__('os').system('true')", "must be a number"),
                          ("[" * 20 + "1" + "]" * 20, "too deep"),
                          ("[" + ",".join(["1"] * 5000) + "]", "too many leaves"),
                          ("[1e400]", "must be a number")]:
        with pytest.raises(ValueError, match=message):
            parse_tree(text)


def test_exercise_tree_with_min_at_the_root():
    game = ExerciseTree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", root="min")
    assert game.to_move(()) == 1 and game.to_move((0,)) == 0
    assert game.utility((0, 1), 1) == -12


# -- the base class: what a game that does not say otherwise gets (issue 34) ------------------

import random

from ai import games
from ai.course.game import missing_methods
from ai.games.nim.tree import nim_tree_size
from ai.teach.tree_view import full_tree_size


class Count(Game):
    """A test-only game with the required methods alone: players in turn add 1 or 2 from 0;
    who reaches 4 wins."""

    name = "count"

    def initial_state(self):
        return (0, 0)

    def to_move(self, s):
        return s[1]

    def actions(self, s):
        return [m for m in (1, 2) if s[0] + m <= 4]

    def result(self, s, move):
        if move not in self.actions(s):
            raise ValueError(f"cannot add {move}")
        return (s[0] + move, 1 - s[1])

    def is_terminal(self, s):
        return s[0] == 4

    def utility(self, s, player):
        return -1 if player == s[1] else 1

    def parse_move(self, text):
        return int(text)

    def format_move(self, move):
        return str(move)

    def parse_moves(self, text):
        return [int(c) for c in text]

    def format_moves(self, moves):
        return "".join(map(str, moves))


def test_a_game_of_the_required_methods_alone_gets_every_hook_s_default():
    game = Count()
    won = play(game, [2, 1, 1])                             # J0 reached 4
    assert game.winner(won) == 0 and game.winner(play(game, [2])) is None
    assert game.key(won) == won and game.render(won) == str(won)
    assert game.move_json(2) == 2 and game.move_json(None) is None
    assert game.plies_left(won) is None and game.center_order is None
    assert not game.heuristics and not game.level_heuristics and not game.leaf_scores
    assert game.fast_alphabeta(depth=3) is None
    assert game.exact_play(won) is None and game.exact_within(won, 100) is None
    assert game.level_reply(None, won) is None and game.key_step(won, 1) is None
    assert game.exact_score(won) is None and game.score_outcome(won, 1) is None
    assert game.review_why(won, 1, None, (), None, None, "blunder") is None
    assert game.review_drawing(won, 1, ()) is None
    assert not (game.solves_within or game.scores_exactly or game.zobrist_keys)
    assert game.preparing == "" and Count.prepare() == 0
    # the whole tree, ply by ply: 0; 1 2; 2 3 3 4; 3 4 4 4; 4 (a 4 ends its branch)
    assert game.tree_size(game.initial_state()) == 12 == full_tree_size(game,
                                                                        game.initial_state(), 9)
    assert game.tree_size(game.initial_state(), 1) == 3
    assert game.tree_size(game.initial_state(), limit=10) is None


def test_a_class_missing_a_required_method_cannot_be_built_and_says_which():
    class NoMoves(Game):
        name = "no-moves"

    assert missing_methods(Count) == []
    assert missing_methods(NoMoves) == sorted(
        ["actions", "format_move", "format_moves", "initial_state", "is_terminal",
         "parse_move", "parse_moves", "result", "to_move", "utility"])
    with pytest.raises(TypeError, match="parse_moves"):
        NoMoves()


def test_the_games_own_hooks_are_seen_as_their_own():
    c4, nim, tree = Connect4(), Nim(), ExerciseTree([[1, 2], [3]])
    assert c4.solves_within and c4.scores_exactly and c4.zobrist_keys
    assert nim.scores_exactly and not nim.solves_within and not nim.zobrist_keys
    assert not (tree.scores_exactly or tree.solves_within or tree.zobrist_keys)
    # Nim's own count of its whole tree is the base's count, position by position
    assert Game.tree_size(nim, Nim(12).initial_state(), None, 10**6) == nim_tree_size(12, 3)


@pytest.mark.parametrize("name", games.names())
def test_plies_left_is_a_bound_every_game_keeps(name):
    game, rng = games.load(name).Rules(), random.Random(34)
    for _ in range(20):
        state = game.initial_state()
        bound = game.plies_left(state)
        plies = 0
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
            plies += 1
        assert bound is None or plies <= bound
        assert game.format_moves(game.parse_moves(game.format_moves([]))) == ""
