"""The web routes, through Flask's test client: pages and fragments, links, bad input."""
import re
from urllib.parse import parse_qs, urlparse

import pytest

HX = {"HX-Request": "true"}


def query(url):
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def test_home_page_links_both_games(client):
    html = client.get("/").get_data(as_text=True)
    assert 'href="/connect4"' in html and 'href="/nim"' in html


def test_the_same_url_gives_the_full_page_or_the_fragment_and_says_it_varies(client):
    full = client.get("/connect4?moves=4453")
    frag = client.get("/connect4?moves=4453", headers=HX)
    assert full.status_code == frag.status_code == 200
    assert full.headers["Vary"] == frag.headers["Vary"] == "HX-Request, Accept-Encoding"
    assert "<html" in full.get_data(as_text=True)
    body = frag.get_data(as_text=True)
    assert "<html" not in body and "<h1" not in body
    assert body.strip().startswith('<section id="game"')


def test_a_history_restore_request_gets_the_whole_page(client):
    r = client.get("/connect4?moves=4453", headers={**HX, "HX-History-Restore-Request": "true"})
    assert "<html" in r.get_data(as_text=True)


def test_a_click_shows_the_move_at_once_then_the_page_asks_for_the_ai_reply(client):
    """Issue 9, item 9: the person's disc appears at once with "thinking", the reply after."""
    r = client.get("/connect4/move?moves=4453&col=4", headers=HX)
    assert r.status_code == 200
    pushed = r.headers["HX-Push-Url"]
    assert query(pushed)["moves"] == "44534"                    # our 4, no reply yet
    html = r.get_data(as_text=True)
    assert "is thinking" in html and 'class="spinner"' in html  # visibly thinking
    assert 'hx-get="/connect4/ai?moves=44534"' in html and 'hx-trigger="load' in html
    assert 'aria-disabled="true"' in html                       # a click meanwhile is refused
    r = client.get("/connect4/ai?moves=44534", headers=HX)      # what the page asks next
    moves = query(r.headers["HX-Push-Url"])["moves"]
    assert moves.startswith("44534") and len(moves) == 6
    html = r.get_data(as_text=True)
    assert "AI:" in html and "nodes" in html                    # the search summary
    assert 'class="cell last"' in html                          # the AI's move highlighted
    # The pushed link, opened without htmx, is the same position as a whole page.
    page = client.get(r.headers["HX-Push-Url"]).get_data(as_text=True)
    assert page.count('class="disc p') == html.count('class="disc p')


def test_without_javascript_a_move_redirects_to_the_new_positions_link(client):
    r = client.get("/connect4/move?moves=4453&col=4")
    assert r.status_code == 303
    assert query(r.headers["Location"])["moves"].startswith("44534")


def test_opening_a_link_where_the_ai_is_to_move_does_not_play_but_asks(client):
    html = client.get("/connect4?mode=ai-human").get_data(as_text=True)
    assert 'class="disc' not in html.split('class="legend"')[0]   # empty board
    assert 'hx-get="/connect4/ai?mode=ai-human"' in html and 'hx-trigger="load' in html


def test_the_ai_endpoint_plays_for_the_ai(client):
    r = client.get("/connect4/ai?mode=ai-human", headers=HX)
    assert r.status_code == 200
    assert query(r.headers["HX-Push-Url"]) == {"moves": "4", "mode": "ai-human"}


def test_nim_move_then_ai_reply_in_both_variants(client):
    r = client.get("/nim/move?take=1")                      # 21 -> 20, then the AI's reply
    assert r.status_code == 303
    assert len(query(r.headers["Location"])["moves"]) == 2
    r = client.get("/nim/move?take=3&variant=misere&n=10")
    q = query(r.headers["Location"])
    assert q["variant"] == "misere" and q["n"] == "10" and len(q["moves"]) == 2


def test_settings_survive_in_every_link(client):
    r = client.get("/connect4/move?col=4&w=6&h=5&mode=human-ai&level=custom&algo=alphabeta&depth=3&heur=cells", headers=HX)
    q = query(r.headers["HX-Push-Url"])
    assert q == {"moves": q["moves"], "w": "6", "h": "5", "level": "custom", "algo": "alphabeta",
                 "depth": "3", "heur": "cells"}
    r = client.get("/connect4/ai?moves=4&w=6&h=5&level=custom&algo=alphabeta&depth=3&heur=cells", headers=HX)
    assert "alpha-beta, depth 3" in r.get_data(as_text=True)


def test_undo_against_the_ai_goes_back_two_plies_and_redo_forward(client):
    html = client.get("/connect4?moves=4453").get_data(as_text=True)
    undo = re.search(r'href="([^"]+)"[^>]*data-key="undo"', html).group(1).replace("&amp;", "&")
    assert query(undo) == {"moves": "4453", "at": "2"}
    html = client.get(undo).get_data(as_text=True)
    redo = re.search(r'href="([^"]+)"[^>]*data-key="redo"', html).group(1).replace("&amp;", "&")
    assert query(redo) == {"moves": "4453"}


def test_playing_from_an_earlier_position_drops_the_undone_moves(client):
    r = client.get("/connect4/move?moves=4453&at=2&col=1", headers=HX)
    assert query(r.headers["HX-Push-Url"])["moves"].startswith("441")


def test_winning_four_is_highlighted_and_no_more_moves_are_accepted(client):
    html = client.get("/connect4?moves=1122334&mode=human-human").get_data(as_text=True)
    assert html.count('class="cell win') == 4
    assert "Yellow wins!" in html
    r = client.get("/connect4/move?moves=1122334&mode=human-human&col=5", headers=HX)
    assert r.status_code == 400 and "the game is over" in r.get_data(as_text=True)


@pytest.mark.parametrize("url, message", [
    ("/connect4/move?moves=4453&col=8", "column 8 does not exist"),
    ("/connect4/move?moves=444444&col=4", "column 4 is full"),
    ("/connect4/move?moves=1122334&col=5&mode=human-human", "the game is over"),
    ("/connect4?moves=44x3", "a column is a digit"),
    ("/connect4?moves=4444444", "column 4 is full"),
    ("/connect4/move?moves=4453&col=", "a column is a digit"),
    ("/connect4?w=12", "Columns: from 4 to 9, not 12"),
    ("/connect4?h=abc", "Rows: a whole number from 4 to 9"),
    ("/connect4?mode=robot", "Who plays: one of"),
    ("/connect4?level=custom&depth=99", "Depth: from 1 to 20, not 99"),
    ("/connect4?level=custom&time=999999", "Time budget (ms): from 10 to 1,000"),
    ("/connect4?level=custom&algo=dfs", "Algorithm: one of"),
    ("/connect4?at=9&moves=44", "Move shown: from 0 to 2"),
    ("/connect4?moves=" + "1" * 300, "too long"),
    ("/connect4/move?moves=4&col=4", "it is the AI's turn"),
    ("/connect4/ai?moves=44", "it is your turn"),
    ("/nim/move?take=4", "cannot take 4"),
    ("/nim/move?moves=333333&n=20&take=3", "cannot take 3"),
    ("/nim?n=0", "Matches: from 1 to 99"),
    ("/nim?variant=reverse", "Variant: one of"),
    ("/nim?k=10", "Take at most: from 1 to 9"),
    ("/nim?moves=9", "cannot take 9"),
])
@pytest.mark.parametrize("headers", [{}, HX])
def test_bad_input_is_a_400_with_a_readable_message_in_the_page(client, url, message, headers):
    r = client.get(url, headers=headers)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'role="alert"' in html
    assert message.replace("'", "&#39;") in html
    if headers:
        assert "<html" not in html   # htmx swaps the message into the page


def test_an_unknown_page_is_a_404_page_not_a_crash(client):
    r = client.get("/chess")
    assert r.status_code == 404 and "<h1>404" in r.get_data(as_text=True)


def test_against_the_ai_the_result_speaks_to_the_player(client):
    # X (you) wins with four in the bottom row; the AI (O) wins with a column in column 2.
    assert "You win!" in client.get("/connect4?moves=1122334").get_data(as_text=True)
    assert "The AI wins!" in client.get("/connect4?moves=12123242").get_data(as_text=True)
    fr = client.get("/connect4?moves=1122334&lang=fr").get_data(as_text=True)
    assert "Vous avez gagné" in fr
