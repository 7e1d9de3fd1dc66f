"""Issue 13: the transposition table made visible (/connect4/table): the Zobrist key as the
XOR of one number per stone, the same key for the same stones in another order, and the
entries a search left, checked against alpha-beta without a table."""
import re

from ai.connect4 import Connect4
from ai.heuristics import make_heuristic
from ai.search import alphabeta


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
    html = client.get("/connect4/table?moves=4453&depth=4").get_data(as_text=True)
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
    r = client.get("/connect4/table?moves=4453&depth=9")
    assert r.status_code == 400 and "Depth: from 1 to 6, not 9" in r.get_data(as_text=True)


def test_seed_004_s_table_gives_a_wrong_value_where_ours_gives_minimax_s():
    """Issue 13: the (alpha, beta, depth) table of the project report, written down, gives
    the game of 8 matches at depth 3 another value than minimax; the table that keeps the
    bound's kind gives minimax's."""
    from ai.table_view import window_table_demonstration
    demo = window_table_demonstration(8, 3, 3)
    assert demo["window"] != demo["minimax"]
    assert demo["ours"] == demo["minimax"]


def test_the_table_page_shows_the_demonstration(client):
    html = client.get("/connect4/table?moves=4453").get_data(as_text=True)
    demo = re.search(r'<table class="tt-demo">.*?</table>', html, re.S).group(0)
    assert "✗ wrong" in demo and "✓ right" in demo
