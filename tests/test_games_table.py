"""The table of games: a third game added through ``web.games.GAMES`` alone (no view, no
route, no template of its own) is served and played like Connect-4 and Nim."""
from typing import NamedTuple
from urllib.parse import parse_qs, urlparse

import pytest

from ai.course.game import Game
from app import create_app
from web.games import GAMES, GameSpec, Param

HX = {"HX-Request": "true"}


class RaceState(NamedTuple):
    total: int
    to_move: int


class Race(Game):
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


# -- the same checks as the real games, for a game the table alone adds ----------------------
# (issue 23: before the shared pages read the table, the class page answered 500, three pages
# spoke of matches, there was no nav link or home card and the number keys did nothing)

import re

from werkzeug.datastructures import MultiDict

from web.games import Words

GAME_WORDS = re.compile(r"\b(match|matches|allumettes?|columns?|colonnes?|discs?|pions?)\b", re.I)


def visible(html: str) -> str:
    """The text a person reads (and the labels read out), without markup."""
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', html))
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", text) + " " + labels


def speaks_of_another_game(html: str) -> list:
    """Words of the real games in what a page shows of its game (its main part: the keyboard
    help of a page that is not a game's lists every game's keys)."""
    main = html.split("<main>", 1)[-1].split("</main>", 1)[0]
    return GAME_WORDS.findall(visible(main))


@pytest.fixture()
def race_app(monkeypatch, tmp_path):
    monkeypatch.setitem(GAMES, "race", GameSpec(
        "race", "Race to 7", Race, (Param("goal", "goal", "Goal", 7, 3, 30),), "add",
        card_text="Add 1 or 2; who reaches the goal wins."))
    return create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                       "SOLVER_WARM_UP": False})


@pytest.fixture()
def race(race_app):
    return race_app.test_client()


def test_the_race_page_has_its_board_its_moves_for_the_keys_and_its_own_words(race):
    html = race.get("/race?goal=10").get_data(as_text=True)
    assert "total 0 of 10" in html
    # each move button carries data-move, which the number keys press (static/app.js)
    assert re.findall(r'data-move="(\d)"', html) == ["1", "2"]
    assert 'aria-label="move 2"' in html                  # the generic words for a move
    assert speaks_of_another_game(html) == []
    # its own parameters as fields of "New game with other rules"
    assert 'name="goal" min="3" max="30" value="10"' in html


def test_the_ai_replies_with_its_tree_in_the_race(race):
    r = race.get("/race/ai?moves=1&mode=human-human&tree=1", headers=HX)
    assert r.status_code == 400                           # two people: not the AI's turn
    r = race.get("/race/ai?moves=1&tree=1&mode=ai-ai&play=0", headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="tree-panel"' in html and "The search behind" in html
    assert re.search(r"AI: [^<]*depth", html)              # the AI's summary
    assert "AI plays" in html                              # read out, in the generic words
    assert speaks_of_another_game(html) == []


def test_the_race_tree_peek_and_handout(race):
    html = race.get("/race?moves=12&tree=1&mode=human-human").get_data(as_text=True)
    assert 'id="tree-panel"' in html and "nodes" in html
    peek = race.get("/race/peek?moves=121").get_data(as_text=True)
    assert "total 4 of 7" in peek and "J1 to move" in peek
    svg = race.get("/race/tree.svg?moves=12&mode=human-human&tree=1")
    text = svg.get_data(as_text=True)
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert "total 3 of 7" in text and "Race to 7" in text
    assert speaks_of_another_game(peek + text) == []


def test_the_nav_the_home_card_and_the_keys_help_list_the_race(race):
    home = race.get("/").get_data(as_text=True)
    nav = home.split('<nav aria-label="Games">')[1].split("</nav>")[0]
    assert '<a href="/race" data-game="race">Race to 7</a>' in nav
    card = re.search(r'<a class="card" href="/race">(.*?)</a>', home, re.S)
    assert card and "Race to 7" in card.group(1)
    assert "Add 1 or 2; who reaches the goal wins." in card.group(1)
    # the keyboard help says what the number keys do on this page
    page = race.get("/race").get_data(as_text=True)
    keys = page.split('id="help"')[1]
    assert "play the move of that number" in keys and not speaks_of_another_game(keys)
    assert 'aria-current="page">Race to 7</a>' in page


def test_a_class_follows_and_votes_on_the_race(race_app):
    teacher = race_app.test_client()
    created = teacher.post("/class", data={"link": "/race?mode=human-human&moves=1"})
    assert created.status_code == 303
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    student = race_app.test_client()
    page = student.get(f"/c/{code}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Race to 7" in html and "total 1 of 7" in html
    assert "Player 2 to play." in html and speaks_of_another_game(html) == []
    teacher.post(f"/class/{code}/peer", data={"action": "hide", "value": "0"},  # counts live
                 headers={"HX-Request": "true"})
    assert teacher.post(f"/class/{code}/vote", data={"action": "open"},
                        headers={"HX-Request": "true"}).status_code == 200
    vote = student.get(f"/c/{code}").get_data(as_text=True)
    assert "Choose a move. One vote per round." in vote
    assert re.findall(r'name="choice" value="(\d)" aria-label="([^"]*)"', vote) == [
        ("1", "move 1"), ("2", "move 2")]
    voted = student.post(f"/c/{code}/vote", data={"round": "1", "choice": "2"},
                         headers={"HX-Request": "true"})
    assert voted.status_code == 200 and "Your vote: move 2." in voted.get_data(as_text=True)
    assert race_app.extensions["class_store"].tally(code, 1)["2"] == 1
    closed = teacher.post(f"/class/{code}/vote", data={"action": "close"},
                          headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Play the class's choice: move 2" in closed


def test_a_game_says_its_moves_in_its_own_words(race_app, monkeypatch):
    """A game gives its words in its entry: the class page and the page read them."""
    spec = GAMES["race"]
    monkeypatch.setitem(GAMES, "race", GameSpec(
        spec.name, spec.title, spec.rules, spec.params, spec.move_param,
        words=Words(move=lambda m: f"add {m}", vote=lambda: "Add one or two.")))
    html = race_app.test_client().get("/race").get_data(as_text=True)
    assert 'aria-label="add 2"' in html


def test_the_shared_templates_and_script_name_no_game():
    """The shared web modules, templates and script read the games table: none names a game
    (a game's own pages are in web/<game>/ and templates/games/<game>/)."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    names = [spec.name for spec in GAMES.values()] + ["connect-4", "nim", "matches",
                                                      "allumette", "colonne"]
    shared = ([*root.glob("web/*.py"), *root.glob("web/classroom/*.py"),
               *root.glob("web/tournament/*.py"), *root.glob("templates/*.html"),
               *root.glob("templates/tournament/*.html"), root / "static/app.js",
               root / "static/tournament.css"])
    # games.py is the table; the course's figures (course.py) and its exercise trees
    # (exercise.py: "the Nim tree N = 4") are course material, which names its games
    exempt = {"web/games.py", "web/course.py", "web/exercise.py"}
    found = {}
    for path in shared:
        if str(path.relative_to(root)) in exempt:
            continue
        text = path.read_text().replace(".matches(", ".")    # the DOM's Element.matches()
        hits = [n for n in names if re.search(rf"\b{re.escape(n)}\b", text, re.I)]
        hits += re.findall(r"isinstance\([^)]*\b(?:Connect4|Nim|TicTacToe)\b", text)
        if hits:
            found[str(path.relative_to(root))] = hits
    assert len(shared) > 30 and found == {}


def test_the_settings_know_the_adjusted_heuristics_alpha_as_it_gives_it():
    from ai.games.connect4.heuristic import AdjustedCells
    from web.game_link import ADJUSTED, DEFAULT_ALPHA
    assert (ADJUSTED, DEFAULT_ALPHA) == (AdjustedCells.name, AdjustedCells.DEFAULT_ALPHA)


def test_each_games_templates_have_no_unmarked_text():
    """tests/test_i18n.py's check, on the templates a game keeps in its own folder."""
    from pathlib import Path
    from test_i18n import unmarked
    found = sorted((Path(__file__).resolve().parent.parent / "templates/games").rglob("*.html"))
    assert len(found) >= 10
    assert {p.name: unmarked(p.read_text()) for p in found if unmarked(p.read_text())} == {}


def _odd_goal(text):
    """A reader of its own: an odd goal from 5 to 9, written as a digit."""
    if text not in ("5", "7", "9"):
        raise ValueError(f"an odd goal from 5 to 9, not {text[:10]}")
    return int(text)


def test_a_parameter_with_its_own_reader_is_read_kept_and_rejected_with_its_label(monkeypatch):
    monkeypatch.setitem(GAMES, "race", GameSpec(
        "race", "Race to 7", Race, (Param("goal", "goal", "Goal", 7, read=_odd_goal),), "add"))
    client = create_app({"TESTING": True}).test_client()
    html = client.get("/race?goal=9&moves=1").get_data(as_text=True)
    assert "total 1 of 9" in html
    assert 'name="goal" value="9"' in html                 # its field, and kept in the links
    r = client.get("/race?goal=8&moves=1")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Goal: an odd goal from 5 to 9, not 8" in html and "total 1 of 7" in html


# -- a second entry on the same rules (issue 34) ---------------------------------------------
# The course's game of 11 matches (seed 003: "un jeu de dimension 11") as an entry of its own,
# on Nim's rules and Nim's web package: the app starts (Nim's own pages are registered once),
# and every link, form and page of the entry says its own name.

import dataclasses

from web.games import NIM


@pytest.fixture()
def nim11_app(monkeypatch, tmp_path):
    params = tuple(dataclasses.replace(p, default=11) if p.name == "n" else p
                   for p in NIM.params)
    monkeypatch.setitem(GAMES, "nim11", dataclasses.replace(
        NIM, name="nim11", title="Nim 11", heading=None, card_title=None, params=params,
        card_text="The course game: 11 matches."))
    return create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                       "SOLVER_WARM_UP": False})


def own_links(html: str, name: str) -> list:
    """The page's links and forms to a game's pages (/<name>, /<name>/move, ...), but the
    nav's (which lists every game) and Nim's own page (/nim/theory, both entries share it)."""
    main = html.split("<main>", 1)[-1]
    return re.findall(rf'(?:href|action|hx-get)="/{name}(?:/(?!theory)[^"]*|\?[^"]*)?"', main)


def test_a_second_entry_on_the_same_rules_starts_and_has_its_own_page(nim11_app):
    client = nim11_app.test_client()
    html = client.get("/nim11").get_data(as_text=True)
    assert "<title>Nim 11 · minimax-lab</title>" in html and "<h1>Nim 11</h1>" in html
    assert 'data-game="nim11"' in html and "<strong>11</strong>" in html      # its own default
    assert 'action="/nim11/move"' in html and 'action="/nim11"' in html
    assert own_links(html, "nim11") and not own_links(html, "nim")
    nav = html.split('<nav aria-label="Games">')[1].split("</nav>")[0]
    assert '<a href="/nim" data-game="nim">' in nav
    assert '<a href="/nim11" data-game="nim11" aria-current="page">Nim 11</a>' in nav
    assert html.count('href="/static/games/nim.css') == 1                   # linked once
    nim = client.get("/nim").get_data(as_text=True)                          # Nim keeps its own
    assert "<strong>21</strong>" in nim and not own_links(nim, "nim11")
    card = re.search(r'<a class="card" href="/nim11">(.*?)</a>', client.get("/").get_data(
        as_text=True), re.S)
    assert card and "The course game: 11 matches." in card.group(1)


def test_a_second_entry_on_the_same_rules_is_played_under_its_own_name(nim11_app):
    client = nim11_app.test_client()
    r = client.get("/nim11/move?take=3", headers=HX)
    assert r.status_code == 200 and r.headers["HX-Push-Url"].startswith("/nim11?")
    html = r.get_data(as_text=True)
    assert "<strong>8</strong>" in html and own_links(html, "nim11") and not own_links(html, "nim")
    r = client.get("/nim11/ai?moves=3&tree=1", headers=HX)                  # the AI replies
    assert r.status_code == 200 and r.headers["HX-Push-Url"].startswith("/nim11?moves=3")
    assert 'id="tree-panel"' in r.get_data(as_text=True)
    review = client.get("/nim11/review?moves=3221").get_data(as_text=True)
    assert own_links(review, "nim11") and not own_links(review, "nim")
    created = client.post("/class", data={"link": "/nim11?mode=human-human&moves=3"})
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    student = nim11_app.test_client().get(f"/c/{code}").get_data(as_text=True)
    assert "Nim 11" in student and "<strong>8</strong>" in student


# -- a games-table entry whose rules are not a whole game stops the start, naming what lacks -----
# (issue 34: without parse_moves a game's page answered 500; the entry is made at start-up)

from web.games import GameTableError


class RaceWithoutParseMoves(Game):
    """Race with every method but ``parse_moves``: no link of its could be read."""

    name = "race"
    __init__ = Race.__init__
    initial_state, to_move, actions, result = (Race.initial_state, Race.to_move, Race.actions,
                                               Race.result)
    is_terminal, utility, parse_move, format_move, format_moves = (
        Race.is_terminal, Race.utility, Race.parse_move, Race.format_move, Race.format_moves)


def test_an_entry_whose_rules_lack_parse_moves_is_refused_with_the_game_and_the_method():
    with pytest.raises(GameTableError) as err:
        GameSpec("race", "Race to 7", RaceWithoutParseMoves,
                 (Param("goal", "goal", "Goal", 7, 3, 30),), "add")
    assert str(err.value) == ("game 'race': its rules RaceWithoutParseMoves lack parse_moves, "
                              "which every game defines (ai.course.game.Game)")


def test_an_entry_whose_rules_are_not_a_game_is_refused_too():
    class Duck:                     # duck-typed rules, as every game's were before Game
        pass

    with pytest.raises(GameTableError, match="game 'duck': its rules Duck do not subclass"):
        GameSpec("duck", "Duck", Duck, (), "move")
    with pytest.raises(GameTableError, match="game 'race': its rules cannot be built"):
        GameSpec("race", "Race", lambda goal: RaceWithoutParseMoves(goal),
                 (Param("goal", "goal", "Goal", 7, 3, 30),), "add")
