"""web.links.endpoint_url: a game's links, built from one url_for per request and view, are
url_for's own text, whatever the page keeps in every link (the language, projector mode, the
notation, the course's figure) and whatever the link sets or clears itself."""
from __future__ import annotations

import pytest
from flask import url_for

from app import create_app
from web.game_link import parse_game
from web.games import GAMES
from web.links import endpoint_url

PAGES = ["", "lang=fr", "lang=en", "proj=1", "notation=course", "card=fig-3", "proj=0&lang=fr",
         "lang=fr&proj=1&notation=course&card=fig-3", "lang=xx"]
LINKS = [  # (view, the game's link's own parameters)
    ("show", {}), ("ai", {}), ("move", {}), ("show", {"upto": 0}), ("show", {"upto": 3}),
    ("show", {"proj": 1, "tree": 1}), ("show", {"proj": 0}), ("show", {"lang": "en"}),
    ("show", {"notation": None, "td": ""}), ("compare", {"teach": 1}), ("tree", {"path": "3,4"}),
    ("show", {"card": None, "play": 0}), ("show", {"moves": ["1", "2"]}),
]


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True})


@pytest.mark.parametrize("page", PAGES)
def test_a_games_links_are_url_fors_own(app, page):
    checked = 0
    for name in ("connect4", "nim"):
        spec = GAMES[name]
        query = "moves=4453&mode=human-human" if name == "connect4" else "moves=&mode=ai-ai"
        with app.test_request_context(f"/{name}?{query}&{page}"):
            from flask import request
            g = parse_game(spec, request.args)
            for view, extra in LINKS:
                extra = dict(extra)
                upto = extra.pop("upto", None)
                fast = g.url(view, upto=upto, **extra)
                values = g.query(upto, **extra)
                assert fast == url_for(f"play.{view}", game=g.settings.game, **values), \
                    (page, view, extra)
                # twice: the second from the request's kept base
                assert endpoint_url(f"play.{view}", {"game": g.settings.game}, values) == fast
                checked += 1
    assert checked == 2 * len(LINKS)


VIEWS = [  # (endpoint, values) as a game's page links them
    ("play.show", {"game": "connect4", "mode": "ai-human"}), ("play.move", {"game": "nim"}),
    ("play.ai", {"game": "connect4"}), ("play.show", {"game": "connect4", "tree": 0, "td": ""}),
    ("review.page", {"game": "connect4", "moves": "4453", "cls": None}),
    ("classroom.create", {"proj": None}), ("table.table", {"moves": "44", "lang": "en"}),
    ("workshop.page", {"moves": "-"}), ("pages.home", {}),
]


@pytest.mark.parametrize("page", PAGES)
def test_a_templates_links_to_other_views_are_url_fors_own(app, page):
    from web.links import link
    with app.test_request_context(f"/connect4?moves=4453&{page}"):
        for endpoint, values in VIEWS:
            assert link(endpoint, **values) == url_for(endpoint, **values), (page, endpoint)
            assert link(endpoint, **values) == url_for(endpoint, **values)   # kept base


@pytest.mark.parametrize("page", PAGES)
def test_the_move_lists_links_are_the_games_own(app, page):
    for link_query in ("moves=4453&mode=human-human", "moves=4453&at=2&tree=1",
                       "moves=4&level=easy", "moves=445&w=8&notation=course"):
        with app.test_request_context(f"/connect4?{link_query}&{page}"):
            from flask import request
            g = parse_game(GAMES["connect4"], request.args)
            for upto in (None, 2):
                links = g.move_links(upto)
                assert len(links) == (len(g.moves) if upto is None else min(upto, len(g.moves)))
                assert links == [(i, g.url(upto=i), g.rules.format_move(m))
                                 for i, m in enumerate(g.moves[:len(links)], 1)], link_query


def test_links_keep_each_requests_mount_point(app):
    from web.links import link
    for base in ("http://localhost/", "http://localhost/lab/", "http://localhost/"):
        with app.test_request_context("/connect4?moves=44&lang=fr", base_url=base):
            from flask import request
            g = parse_game(GAMES["connect4"], request.args)
            for endpoint, values in VIEWS:
                assert link(endpoint, **values) == url_for(endpoint, **values), (base, endpoint)
            assert g.url() == url_for("play.show", game="connect4", **g.query())
            assert g.url().startswith("/lab/connect4?" if "lab" in base else "/connect4?")
