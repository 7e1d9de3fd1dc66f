"""Issue 13: the transposition table made visible (/connect4/table): the Zobrist key as the
XOR of one number per stone, the same key for the same stones in another order, and the
entries a search left, checked against alpha-beta without a table."""
import re
from html import unescape
from urllib.parse import parse_qsl

from ai.games.connect4.rules import Connect4
from ai.heuristics import make_heuristic
from ai.course.search import alphabeta


def shown(client, url):
    html = client.get(url).get_data(as_text=True)
    # keys written as everywhere else: 16 hexadecimal digits in groups of 4 (issue 21)
    hex64 = r"([0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4})"
    numbers = [int(h.replace(" ", ""), 16) for h in re.findall(
        r'<td class="hex" translate="no">(?:⊕ )?' + hex64 + '</td>', html.split("<tfoot>")[0])]
    key = int(re.search(r'<tfoot>.*?= ' + hex64, html, re.S).group(1).replace(" ", ""), 16)
    return html, numbers, key


def test_the_key_is_the_xor_of_the_stones_numbers_whatever_the_order(client):
    html, numbers, key = shown(client, "/connect4/table?moves=4453")
    assert len(numbers) == 4
    xor = 0
    for n in numbers:
        xor ^= n
    assert xor == key
    _, _, same = shown(client, "/connect4/table?moves=5344")       # the same stones
    assert same == key


def test_the_root_entry_is_exact_and_is_alpha_beta_s_value(client):
    game = Connect4()
    state = game.from_moves("4453")
    plain = alphabeta(game, state, 4, heuristic=make_heuristic(game, "cells"))
    html = client.get("/connect4/table?moves=4453&ttd=4").get_data(as_text=True)
    root = re.search(r"<tr><td>the position</td>.*?</tr>", html, re.S).group(0)
    cells = re.findall(r'<td[^>]*>(.*?)</td>', root)
    assert cells[3] == "4" and cells[4] == "exact" and cells[5] == f"{plain.value:,}"
    # its slot: the key (Zobrist's, of the stones) modulo the table's 1,048,576 places
    assert cells[2] == f"{state.key % (1 << 20):,}"
    assert "1,048,576 slots" in html
    # a child's entry is the opponent's, turned round to the root player's side as the tree's
    # values are (issue 21, defect 10): the opponent's cut ("at least") is an "at most" here
    assert "at most (a bound)" in html and "Values are from the side of Yellow" in html
    assert "Why a table of (alpha, beta, depth) did not work" in html


def test_a_wrong_depth_is_a_400_with_the_reason(client):
    r = client.get("/connect4/table?moves=4453&ttd=9")
    assert r.status_code == 400 and "Depth: from 1 to 6, not 9" in r.get_data(as_text=True)


def test_seed_004_s_table_gives_a_wrong_value_where_ours_gives_minimax_s():
    """Issue 13: the (alpha, beta, depth) table of the project report, written down, gives
    the game of 8 matches at depth 3 another value than minimax; the table that keeps the
    bound's kind gives minimax's."""
    from ai.games.nim.table_demo import window_table_demonstration
    demo = window_table_demonstration(8, 3, 3)
    assert demo["window"] != demo["minimax"]
    assert demo["ours"] == demo["minimax"]


def test_the_table_page_shows_the_demonstration(client):
    html = client.get("/connect4/table?moves=4453").get_data(as_text=True)
    demo = re.search(r'<table class="tt-demo">.*?</table>', html, re.S).group(0)
    assert "✗ wrong" in demo and "✓ right" in demo


def test_a_custom_level_s_depth_and_the_table_s_depth_are_two_parameters(client):
    """Issue 21: the course's custom-level game (minimax, depth 3) links to its table page;
    that link carried the game's ``depth=3`` and the page's own depth buttons added another,
    a 500. The table's depth is ``ttd``: the game's depth stays in the link for "Back to the
    game", the table's buttons change only ``ttd``."""
    r = client.get("/connect4/table?moves=4453&level=custom&depth=3")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    buttons = [dict(parse_qsl(unescape(link).split("?")[1])) for link in
               re.findall(r'href="(/connect4/table\?[^"]*)"',
                          re.search(r'<nav class="layers".*?</nav>', html, re.S).group(0))]
    assert [b["ttd"] for b in buttons] == ["1", "2", "3", "4", "5", "6"]
    assert all(b["depth"] == "3" and b["level"] == "custom" for b in buttons)
    back = re.search(r'<a href="([^"]*)">Back to the game</a>', html).group(1)
    back = dict(parse_qsl(unescape(back).split("?")[1]))
    assert back["level"] == "custom" and back["depth"] == "3" and "ttd" not in back
    # a custom depth beyond the table's 6 is the game's business, not an error here
    assert client.get("/connect4/table?moves=4453&level=custom&algo=alphabeta&depth=12").status_code == 200
