"""The default level's book of first replies (``ai.games.connect4.level_book``): each stored reply is the
search the level makes now, the book covers every position a game can reach in its first
plies, a book built for another version of the search is ignored, and the app answers from
it without searching."""
import gzip
import json
import random
import re

import pytest

from ai.games.connect4 import level_book
from ai.games.connect4.rules import Connect4
from ai.levels import LEVELS
from app import create_app

GAME = Connect4()
HARD = LEVELS["hard"]


def stored():
    with gzip.open(level_book.path_of("hard"), "rt") as f:
        return json.load(f)


def test_the_shipped_book_was_built_by_today_s_search():
    assert stored()["fingerprint"] == level_book.fingerprint(LEVELS["hard"]), (
        "ai/games/connect4/data/hard-replies.json.gz was built for another version of the search (the "
        "level's settings or a search module changed): rebuild it with "
        "`python -m ai level-book connect4`")


def test_stored_replies_are_what_the_level_searches_now():
    book = stored()
    rng = random.Random(7)
    sample = book["entries"][:3] + rng.sample(book["entries"], 20)
    for current, mask, *_ in sample:
        state = _state(current, mask)
        # as the book was built: by the level's node budget alone, not its 1 s cap, which a
        # loaded machine reaches first (the suite beside 4 busy processes failed so)
        live = HARD.play(GAME, state, time_limit=None)
        kept = level_book.reply(LEVELS["hard"], GAME, state)
        assert kept is not None
        assert (kept.move, kept.value, kept.pv, kept.stats.nodes, kept.stats.depth,
                kept.complete, kept.root_values, kept.iterations) == \
            (live.move, live.value, live.pv, live.stats.nodes, live.stats.depth,
             live.complete, live.root_values, live.iterations)


def _state(current, mask):
    """A stored position as the game's state (the moves count from the stones)."""
    return GAME.initial_state()._replace(current=current, mask=mask, moves=mask.bit_count())


@pytest.mark.parametrize("level_first", [True, False])
def test_every_game_is_in_the_book_for_its_first_plies(level_first):
    rng = random.Random(11 + level_first)
    for _ in range(12):
        state, ply = GAME.initial_state(), 0
        while ply <= level_book.MAX_PLY and not GAME.is_terminal(state):
            if (ply % 2 == 0) == level_first:
                kept = level_book.reply(LEVELS["hard"], GAME, state)
                assert kept is not None, GAME.render(state)
                move = kept.move
            else:
                move = rng.choice(GAME.actions(state))
            state, ply = GAME.result(state, move), ply + 1
    # and not beyond
    state = GAME.from_moves("44444433")
    assert level_book.reply(LEVELS["hard"], GAME, state) is None


def test_a_book_built_for_another_search_is_ignored(monkeypatch):
    level_book._load.cache_clear()
    monkeypatch.setattr(level_book, "fingerprint", lambda name: "another search")
    try:
        assert level_book.reply(LEVELS["hard"], GAME, GAME.initial_state()) is None
    finally:
        level_book._load.cache_clear()
    assert level_book.reply(LEVELS["hard"], Connect4(6, 5), Connect4(6, 5).initial_state()) is None
    assert level_book.reply(LEVELS["medium"], GAME, GAME.initial_state()) is None


def test_the_app_answers_from_the_book_without_searching():
    # A client allowed 1 ms of search a minute: any real search after the first is a 429.
    client = create_app({"TESTING": True, "CLIENT_SEARCH_SECONDS": 0.001}).test_client()
    client.get("/connect4")
    hx = {"HX-Request": "true"}
    live = HARD.play(GAME, GAME.from_moves("4"))
    for moves in ["4", "45", "4", "1"]:
        ai_first = len(moves) % 2 == 0
        url = f"/connect4/ai?moves={moves}&mode={'ai-human' if ai_first else 'human-ai'}"
        r = client.get(url, headers=hx)
        assert r.status_code == 200, moves
    text = client.get("/connect4/ai?moves=4&mode=human-ai", headers=hx).get_data(as_text=True)
    assert re.search(rf"{live.stats.nodes:,} nodes", text)


def test_the_tree_of_a_reply_from_the_book_is_that_search():
    client = create_app({"TESTING": True}).test_client()
    live = HARD.play(GAME, GAME.from_moves("4"), record=True)
    html = client.get("/connect4/ai?moves=4&mode=human-ai&tree=1",
                      headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f"{live.stats.nodes:,} nodes" in html and f"{live.tree.explored:,}" in html
