"""The table of games: a third game added through ``web.games.GAMES`` alone (no view, no
route, no template of its own) is served and played like Connect-4 and Nim."""
from typing import NamedTuple
from urllib.parse import parse_qs, urlparse

import pytest

from app import create_app
from web.games import GAMES, GameSpec, Param

HX = {"HX-Request": "true"}


class RaceState(NamedTuple):
    total: int
    to_move: int


class Race:
    """A test-only game: players in turn add 1 or 2 to a running total; who reaches
    ``goal`` wins. From a total of goal - 3 the player to move loses (as Nim with k = 2)."""

    name = "race"

    def __init__(self, goal: int = 7):
        self.goal = goal

    def initial_state(self):
        return RaceState(0, 0)

    def to_move(self, s):
        return s.to_move

    def actions(self, s):
        return [m for m in (1, 2) if s.total + m <= self.goal]

    def result(self, s, move):
        if move not in self.actions(s) or self.is_terminal(s):
            raise ValueError(f"cannot add {move}")
        return RaceState(s.total + move, 1 - s.to_move)

    def is_terminal(self, s):
        return s.total == self.goal

    def utility(self, s, player):
        return -1 if player == s.to_move else 1      # the player to move did not reach it

    def key(self, s):
        return s

    def winner(self, s):
        return 1 - s.to_move if self.is_terminal(s) else None

    def parse_move(self, text):
        if text not in ("1", "2"):
            raise ValueError(f"add 1 or 2, not {text!r}")
        return int(text)

    def format_move(self, move):
        return str(move)

    def parse_moves(self, text):
        return [self.parse_move(c) for c in text or ""]

    def format_moves(self, moves):
        return "".join(map(str, moves))

    def render(self, s):
        return f"total {s.total} of {self.goal}"


@pytest.fixture()
def race_client(monkeypatch):
    monkeypatch.setitem(GAMES, "race", GameSpec(
        "race", "Race to 7", Race, (Param("goal", "goal", "Goal", 7, 3, 30),), "add"))
    return create_app({"TESTING": True}).test_client()


def test_a_game_added_to_the_table_has_its_page(race_client):
    r = race_client.get("/race?goal=10")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Race to 7" in html and "total 0 of 10" in html
    assert 'name="add" value="1"' in html and 'name="add" value="2"' in html


def test_a_game_added_to_the_table_is_played_against_the_ai(race_client):
    # From 3 (goal 7), adding 1 leaves 4 = goal - 3: the AI, to move there, loses whatever it
    # does; our move 1 is the winning one, and the AI's reply is 1 or 2.
    r = race_client.get("/race/move?moves=12&add=1", headers=HX)   # our move, at once
    assert r.status_code == 200 and "total 4 of 7" in r.get_data(as_text=True)
    r = race_client.get("/race/ai?moves=121", headers=HX)           # then the AI's reply
    moves = parse_qs(urlparse(r.headers["HX-Push-Url"]).query)["moves"][0]
    assert moves[:3] == "121" and len(moves) == 4 and moves[3] in "12"
    assert "total" in r.get_data(as_text=True)


def test_a_game_added_to_the_table_rejects_bad_input_with_its_own_labels(race_client):
    r = race_client.get("/race?goal=99&moves=12")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Goal: from 3 to 30, not 99" in html and "total 3 of 7" in html   # the moves kept


def test_a_game_not_in_the_table_is_a_404(client):
    assert client.get("/race").status_code == 404
