"""Issue 22: no single client can stop the server. The parts that need no live server: the
CPU work of every page in the bounded lanes (the editor, the lab, the growth page), and the
crafted links that answered 500 (with 8 KB of traceback each) answered as the 4xx they are.
The live-server parts are in tests/test_server.py."""
import contextlib
import logging

import pytest

from ai.games.connect4.rules import Connect4
from ai.messages import GameError
from ai.games.connect4.position import moves_reaching, parse_columns
from web import admission

FULL_BOARD = "121212-212121-121212-212121-121212-212121-121212"


@contextlib.contextmanager
def lanes_full():
    """Every search and page slot of this worker taken, as by a burst of searches."""
    taken = []
    for lane, n in ((admission._light, admission.LIGHT_SLOTS), (admission._heavy, admission.HEAVY_SLOTS),
                    (admission._pages, admission.PAGE_SLOTS)):
        for _ in range(n):
            assert lane.acquire(timeout=1)
            taken.append(lane)
    try:
        yield
    finally:
        for lane in taken:
            lane.release()


def test_the_issue_s_full_board_is_refused_without_trying_orders():
    # two diagonal fours of yellow that do not share a stone: one was made before the end
    game = Connect4()
    with pytest.raises(GameError, match="no game reaches"):
        moves_reaching(game, parse_columns(FULL_BOARD, game))


def test_a_four_holding_the_last_stone_is_reached_and_one_without_it_is_not():
    game = Connect4()
    # yellow's four in column 1 made by its top stone, red's stones beside: reachable
    order = moves_reaching(game, parse_columns("1111-222-----", game))
    assert order[-1] == 0 and sorted(order) == [0, 0, 0, 0, 1, 1, 1]
    # yellow's four and red's four: whoever made the first, the other one came after it
    with pytest.raises(GameError, match="no game reaches"):
        moves_reaching(game, parse_columns("1111-2222-1----", game))


@pytest.mark.parametrize("url", [f"/connect4/edit?board={FULL_BOARD}", "/connect4/edit?board=12-2--1---",
                                 "/tree?t=[[3,12,8],[2,4,6],[14,5,2]]", "/tree/growth?b=3&m=5"])
def test_pages_that_search_wait_for_the_lanes_and_say_when_to_retry(client, url):
    with lanes_full():
        r = client.get(url)
    assert r.status_code == 503, url
    assert int(r.headers["Retry-After"]) > 0
    assert b"busy" in r.data
    r = client.get(url)                  # slots free again: the page itself
    assert r.status_code == 200, url


def test_a_full_lane_is_said_in_the_page_s_language(client):
    with lanes_full():
        r = client.get("/connect4/edit?board=12-2--1---&lang=fr")
    assert r.status_code == 503
    assert "Serveur occupé" in r.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/?endpoint=x", "/connect4?_method=POST", "/nim?endpoint=",
                                 "/tree?_external=1", "/connect4/edit?_anchor=x&board=1------"])
def test_url_for_s_own_arguments_in_a_link_are_ignored_not_a_500(client, url):
    r = client.get(url)
    assert r.status_code == 200, url
    assert b"endpoint=" not in r.data and b"_method" not in r.data


def test_a_link_cannot_turn_the_language_links_into_javascript(client):
    r = client.get("/connect4?_scheme=javascript&_external=1")
    assert r.status_code == 200
    assert b"javascript:" not in r.data


@pytest.mark.parametrize("path", ["/", "/static/app.css", "/connect4?moves=44"])
@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", "x" * 70])
def test_a_host_that_is_no_host_name_is_a_400_page(client, path, host, caplog):
    with caplog.at_level(logging.ERROR):
        r = client.get(path, headers={"Host": host, "Accept-Language": "fr"})
    assert r.status_code == 400
    assert "Requête incorrecte" in r.get_data(as_text=True)     # the page, in French
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]   # no traceback


@pytest.mark.parametrize("link", ["//[", "http://[::1", "//[x]/connect4", "/connect4?moves=44#["])
def test_a_class_from_a_link_that_is_not_a_url_is_a_400(client, link, caplog):
    with caplog.at_level(logging.ERROR):
        r = client.post("/class", data={"link": link})
    assert r.status_code in (400, 303), link
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_stream_slots_are_shared_out_per_address_class_and_browser(tmp_path):
    from web.classroom.live import Hub
    from web.classroom.store import open_store

    hub = Hub(open_store({"CLASS_DB": str(tmp_path / "c.sqlite3"), "REDIS_URL": ""}),
              max_streams=10, per_address=4, per_class=6, per_client=2)
    try:
        # one browser: two tabs, not a third
        tabs = [hub.subscribe("AAAAAA", address="10.0.0.1", client="phone") for _ in range(3)]
        assert tabs[0] and tabs[1] and tabs[2] is None
        # one address (forging browser ids): four, not a fifth
        forged = [hub.subscribe("AAAAAA", address="10.0.0.9", client=f"forged{i}") for i in range(5)]
        assert sum(s is not None for s in forged) == 4
        # the class holds 6 now: a seventh of it is refused, another class is not
        assert hub.subscribe("AAAAAA", address="10.0.0.2", client="x") is None
        other = hub.subscribe("BBBBBB", address="10.0.0.2", client="x")
        assert other is not None
        # a slot given back twice is given back once
        hub.unsubscribe(tabs[0])
        hub.unsubscribe(tabs[0])
        assert hub.streams == 6
        # the worker stops: every stream is told to end, and no new one starts
        hub.close()
        assert all(s.ended for s in [tabs[1], other] + [f for f in forged if f])
        assert "stop" in tabs[1].wait(0.1)
        assert hub.subscribe("CCCCCC", address="10.0.0.3", client="y") is None
    finally:
        hub.stop()
