"""Issue 9, items 1 and 15: a rejected setting never loses the game, its message stands beside
the field in the page's words; each game offers only the settings that mean something for it."""
import json
import re
from urllib.parse import parse_qs, urlparse

HX = {"HX-Request": "true"}


def query(url):
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def discs_on_board(html):
    return html.split('class="legend"')[0].count('class="disc p')


def test_item1_a_depth_above_the_algorithms_cap_keeps_the_game_and_says_why_beside_the_field(client):
    url = "/connect4?moves=44&level=custom&algo=minimax&depth=10"
    r = client.get(url, headers=HX)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert discs_on_board(html) == 2                                  # the position is kept
    assert '<option value="custom" selected>' in html                 # and the settings
    assert '<option value="minimax" selected>' in html
    error = re.search(r'<p class="field-error" id="error-depth"[^>]*>([^<]*)</p>', html)
    assert error and error.group(1) == "Depth: at most 8 for minimax"
    assert 'aria-describedby="error-depth"' in html                   # tied to its field
    assert "depth must" not in html and "depth doit" not in html      # never the URL's name
    pushed = query(r.headers["HX-Push-Url"])                          # the address bar: what is shown
    assert pushed["moves"] == "44" and pushed["level"] == "custom" and pushed["algo"] == "minimax"
    assert pushed.get("depth") != "10"


def test_item1_the_depth_fields_bounds_follow_the_algorithm(client):
    html = client.get("/connect4?level=custom&algo=minimax&depth=3").get_data(as_text=True)
    field = re.search(r'<input type="number" name="depth"[^>]*>', html).group(0)
    assert 'max="8"' in field
    caps = json.loads(re.search(r'data-max-depth="([^"]*)"', field).group(1).replace("&#34;", '"'))
    assert caps == {"minimax": 8, "alphabeta": 12, "alphabeta-tt": 14, "iterative": 20}
    html = client.get("/connect4?level=custom&algo=alphabeta&depth=3").get_data(as_text=True)
    assert 'max="12"' in re.search(r'<input type="number" name="depth"[^>]*>', html).group(0)


def test_item1_a_bad_board_size_keeps_the_moves_with_the_message_beside_its_field(client):
    r = client.get("/connect4?moves=4453&w=12&level=easy")
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and discs_on_board(html) == 4
    assert re.search(r'id="error-w"[^>]*>Columns: from 4 to 9, not 12<', html)
    assert '<option value="easy" selected>' in html


def test_item15_nim_offers_no_centre_first_order(client):
    html = client.get("/nim?level=custom").get_data(as_text=True)
    orders = re.search(r'<select name="order"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'value="(\w+)"', orders) == ["natural", "reverse"]
    assert client.get("/nim?level=custom&order=center").status_code == 400
    html = client.get("/connect4?level=custom").get_data(as_text=True)
    orders = re.search(r'<select name="order"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'value="(\w+)"', orders) == ["center", "natural", "reverse"]


def test_item15_nim_compare_has_no_centre_first_row(client):
    nim = client.get("/nim/compare?n=9").get_data(as_text=True)
    assert "centre first" not in nim
    assert nim.count('<th scope="row">') == 3         # minimax, alpha-beta, alpha-beta + table
    c4 = client.get("/connect4/compare?moves=44&cd=3").get_data(as_text=True)
    # the four algorithms, then the exact solver's row (issue 14)
    assert "centre first" in c4 and c4.count('<th scope="row">') == 5
