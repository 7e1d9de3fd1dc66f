"""Issue 13: the position editor (/connect4/edit): a position set up by hand is checked, gets
a game that reaches it (its "start a game from here" link), and opens up the course's
heuristic on it."""
import random
import re

import pytest

from ai.games.connect4.rules import Connect4
from ai.messages import GameError
from ai.games.connect4.position import columns_of, format_columns, moves_reaching, parse_columns

GAME = Connect4()


def test_every_position_of_a_real_game_is_reached_again():
    rng = random.Random(3)
    for width, height in ((7, 6), (5, 4), (9, 9)):
        game = Connect4(width, height)
        for _ in range(60):
            state = game.initial_state()
            for _ in range(rng.randint(0, width * height)):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(game.actions(state)))
            columns = columns_of(game, state)
            again = game.initial_state()
            for move in moves_reaching(game, columns):
                assert not game.is_terminal(again)          # nobody won before the end
                again = game.result(again, move)
            assert columns_of(game, again) == columns


def test_impossible_positions_say_why():
    with pytest.raises(GameError, match="yellow plays first"):
        moves_reaching(GAME, parse_columns("2------", GAME))
    # yellow's four and red's four: whoever finished first, the other could not play on
    with pytest.raises(GameError, match="no game reaches"):
        moves_reaching(GAME, parse_columns("1111-2222-1-2-1-2-1", GAME))
    with pytest.raises(GameError, match="taller than the board"):
        parse_columns("1212121------", GAME)          # 7 stones in a 6-row column
    with pytest.raises(GameError, match="columns"):
        parse_columns("1-2", GAME)


def test_the_editor_opens_up_the_course_s_example_and_starts_a_game_from_it(client):
    # seed 000, Figure VIII.1 (tests/test_seeds.py): h(grille) = 2
    state = GAME.from_moves("44412625353533")
    board = format_columns(columns_of(GAME, state))
    html = client.get(f"/connect4/edit?board={board}&lang=fr").get_data(as_text=True)
    formula = re.search(r'<p class="formula"[^>]*>(.*?)</p>', html).group(1)
    assert formula.endswith("= 54 − 52 = <strong>2</strong>")
    assert "Aux jaunes de jouer." in html
    link = re.search(r'href="(/connect4\?moves=(\d+)[^"]*)"', html)
    assert columns_of(GAME, GAME.from_moves(link.group(2))) == columns_of(GAME, state)
    assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200


def test_the_game_page_links_to_its_position_in_the_editor(client):
    html = client.get("/connect4?moves=4453").get_data(as_text=True)
    url = re.search(r'href="(/connect4/edit\?[^"]*)"', html).group(1)
    # 4 4 5 3: column 3 holds red, column 4 yellow under red, column 5 yellow
    assert url.endswith("board=--2-12-1--")
    assert client.get(url.replace("&amp;", "&")).status_code == 200


def test_a_wrong_board_is_a_400_with_the_reason(client):
    r = client.get("/connect4/edit?board=xyz")
    assert r.status_code == 400 and "columns" in r.get_data(as_text=True)
    r = client.get("/connect4/edit?board=3------")
    assert r.status_code == 400 and "a stone is 1 (yellow) or 2 (red)" in r.get_data(as_text=True)


def test_a_wrong_board_size_is_a_400_not_a_500(client):
    """Found by bench/fuzz.py: a size the parser refuses raised out of the view."""
    r = client.get("/connect4/edit?h=%B7%AD_~%BE")
    assert r.status_code == 400 and "a whole number from 4 to 9" in r.get_data(as_text=True)
    assert client.get("/connect4/edit?w=3").status_code == 400
