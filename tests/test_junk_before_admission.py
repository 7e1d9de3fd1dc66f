"""Nothing costly before admission (issue 37): a review's (or "learn from your mistakes")
move list with a long junk tail is cut at the longest value a link holds, and its longest legal
beginning is found in one replay, not by parsing every shorter beginning (once ~3,900 parses).
Counted in calls to the game's own ``parse_moves`` and ``result``, never timed."""
import pytest

from ai.games.connect4.rules import Connect4
from ai.games.marienbad.rules import Marienbad
from ai.games.nim.rules import Nim
from ai.games.tictactoe.rules import TicTacToe
from web.game_link import MAX_PARAM, MOVE_TEXT

JUNK = 3_900


@pytest.fixture()
def counted(monkeypatch):
    """calls[name]: how often any game's parse_moves and result ran."""
    calls = {"parse_moves": 0, "result": 0, "chars": 0}
    for cls in (Connect4, Nim, TicTacToe, Marienbad):
        for name in ("parse_moves", "result"):
            original = getattr(cls, name)

            def wrapper(self, arg, *rest, _original=original, _name=name):
                calls[_name] += 1
                if _name == "parse_moves":
                    calls["chars"] += len(arg or "")
                return _original(self, arg, *rest)
            monkeypatch.setattr(cls, name, wrapper)
    import web.game_link
    import web.review
    parse_game, read_game = web.game_link.parse_game, web.review.read_game

    def counting_parse_game(*a, **k):
        calls["parse_game"] += 1
        return parse_game(*a, **k)

    def counting_read_game(*a, **k):       # what runs before admission: the link's reading
        before = calls["result"]
        try:
            return read_game(*a, **k)
        finally:
            calls["played_before_admission"] += calls["result"] - before
    calls.update(parse_game=0, played_before_admission=0)
    monkeypatch.setattr(web.game_link, "parse_game", counting_parse_game)
    monkeypatch.setattr(web.review, "parse_game", counting_parse_game)
    monkeypatch.setattr(web.review, "read_game", counting_read_game)
    return calls


@pytest.mark.parametrize("path,legal,tail", [
    ("/connect4/review", "4453", "x" * JUNK),
    ("/connect4/review", "4453", "4" * JUNK),           # legal digits, a full column at move 7
    ("/connect4/review/learn", "4453", "x" * JUNK),
    ("/tictactoe/review", "5139", "0" * JUNK),
    ("/tictactoe/review/learn", "5139", "5" * JUNK),    # a cell taken twice
    ("/nim/review", "312", "x" * JUNK),
    ("/nim/review/learn", "312", "9" * JUNK),           # more than k
    ("/marienbad/review", "b3", "z9" * (JUNK // 2)),
])
def test_a_junk_tail_costs_one_replay_not_one_parse_per_prefix(client, counted, path, legal,
                                                               tail):
    r = client.get(f"{path}?moves={legal}{tail}&mode=human-human")
    assert r.status_code == 400
    body = r.get_data(as_text=True)
    assert 'role="alert"' in body or 'class="error"' in body
    # the text read is bounded by the longest value a link may hold, whatever the tail
    assert counted["chars"] <= 4 * (MAX_PARAM + MOVE_TEXT)
    assert counted["parse_moves"] <= 2 * (MAX_PARAM + 1) + 4
    # before admission: the link read three times at most (as written, the legal moves
    # found in one replay, then read again), each legal move played three times at most
    assert counted["parse_game"] <= 3
    assert counted["played_before_admission"] <= 3 * (len(legal) + 6)    # 4453 + 4444 legal


def test_the_same_junk_in_a_longer_tail_costs_the_same(client, counted):
    """The count does not grow with the tail: the link is cut before any parsing."""
    client.get(f"/connect4/review?moves=4453{'x' * 300}&mode=human-human")
    short = dict(counted)
    for k in counted:
        counted[k] = 0
    client.get(f"/connect4/review?moves=4453{'x' * 30_000}&mode=human-human")
    assert counted == short


@pytest.mark.parametrize("game,moves,kept", [
    ("connect4", "44444445", "444444"), ("connect4", "4453x" + "4" * JUNK, "4453"),
    ("connect4", "4" * JUNK, "444444"), ("tictactoe", "51395", "5139"),
    ("nim", "3129" + "1" * JUNK, "312"), ("marienbad", "b3d7b9", "b3d7"),
    ("marienbad", "b3d", "b3"), ("connect4", "", ""), ("connect4", "x", "")])
def test_the_longest_legal_beginning_is_kept(app, game, moves, kept):
    from werkzeug.datastructures import MultiDict
    from web.games import GAMES
    from web.review import read_game
    with app.test_request_context("/"):
        g, error = read_game(GAMES[game], MultiDict({"moves": moves, "mode": "human-human"}))
        assert g.rules.format_moves(g.moves) == kept
        assert (error is None) == (moves == kept)
