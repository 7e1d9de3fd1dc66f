"""Tic-tac-toe's class tournament (issue 39) on both stores (SQLite, then a real
redis-server), with no workshop: the teacher opens the entries, each phone sends a name and a
heuristic over tic-tac-toe's terms on the tournament's page (again to change it; checked,
translated 400s; refused once the entries are closed), the teacher starts it with their bots
and two bosses; the runner plays the whole class tournament, a phone finds its own games and
why it lost (the exact review, opened at its bot's mistake), and the finale is played move by
move on tic-tac-toe's board. The class's pages link to it."""
import re

import pytest

from ai.games.tictactoe.accuracy import measure
from ai.games.tictactoe.tournament import GAME
from web.classroom.tournaments import tournaments_of
from web.tournament import runner as R
from web.tournament.live import runner

from test_classroom import start_class, student

BOTS = {"Zoé": "lines=1,open2=4", "Yann": "center=2,corners=1", "Xavier": "open1=1",
        "Wen": "cells=1", "Val": "corners=1,lines=-1", "Ugo": "open2=8,open1=2"}


@pytest.fixture()
def app(make_app):
    return make_app(TOURNAMENT_RUNNER="manual")


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def live(code):
    return f"/tictactoe/tournament/live/{code}"


def test_the_phones_enter_their_bots_and_the_class_tournament_finishes(app):
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    board = teacher.get(f"/tictactoe?cls={code}").get_data(as_text=True)
    assert f'href="{live(code)}"' in board                 # the teacher's bar links to it
    phones = {name: student(app, code) for name in BOTS}
    assert f'href="{live(code)}"' in phones["Zoé"].get(f"/c/{code}").get_data(as_text=True)
    # before the teacher opens the entries, a phone's entry is refused
    r = phones["Zoé"].post(live(code) + "/entry", data={"name": "Zoé", "h": BOTS["Zoé"]})
    assert r.status_code == 409
    assert teacher.post(live(code) + "/open").status_code == 303
    assert phones["Zoé"].post(live(code) + "/open").status_code == 403
    assert 'id="tl-entry"' in phones["Yann"].get(live(code)).get_data(as_text=True)
    # bad entries: a translated 400 in tic-tac-toe's terms, the text kept to correct
    r = phones["Zoé"].post(live(code) + "/entry?lang=fr",
                           data={"name": "Zoé", "h": "cells=1,open3=8"})
    assert r.status_code == 400 and "open3" in r.get_data(as_text=True)
    assert 'value="cells=1,open3=8"' in r.get_data(as_text=True)
    for name, h in BOTS.items():
        assert phones[name].post(live(code) + "/entry", data={"name": name, "h": "lines=1"}
                                 ).status_code == 303
        r = phones[name].post(live(code) + "/entry", data={"name": name, "h": h})   # again
        assert r.status_code == 303
    r = phones["Yann"].post(live(code) + "/entry", data={"name": "zoé", "h": "lines=1"})
    assert r.status_code == 400 and "Two entrants" in r.get_data(as_text=True)
    phones["Yann"].post(live(code) + "/entry", data={"name": "Yann", "h": BOTS["Yann"]})
    page = teacher.get(live(code)).get_data(as_text=True)
    listed = re.findall(r'name="sub" value="([^"]+)" checked> <strong>([^<]+)</strong> '
                        r'<code>([^<]+)</code>', page)
    assert [(n, h) for _v, n, h in listed] == [(n, GAME.weights_text(h))   # as written,
                                               for n, h in BOTS.items()]   # in the order sent
    # each with its accuracy against the solved game at the class's depth, measured when sent
    for name, h in BOTS.items():
        r = measure(h, 2)
        assert (f"<strong>{name}</strong> <code>{GAME.weights_text(h)}</code> <span "
                f'class="tl-judged">accuracy {r.accuracy * 100:.1f} %, {r.blunders} blunder'
                ) in page
    assert "Accuracy: on 431 positions" in text(page) and "at depth 2" in text(page)
    mine = text(phones["Wen"].get(live(code) + "?lang=fr").get_data(as_text=True))
    r = measure(BOTS["Wen"], 2)
    assert (f"Envoyé : Wen, cells=1 · précision {r.accuracy * 100:.1f} %, "
            f"{r.blunders} gaffes").replace(".", ",") in mine
    # the teacher starts: their six bots and two bosses, depth 2, two openings
    r = teacher.post(live(code) + "/start", data={
        "sub": [v for v, _n, _h in listed], "boss": ["beginner", "easy"], "depth": "2",
        "openings": "2"})
    assert r.status_code == 303
    r = phones["Zoé"].post(live(code) + "/entry", data={"name": "Zoé", "h": "lines=2"})
    assert r.status_code == 409                           # the entries have closed
    spec = tournaments_of(app.extensions["class_store"]).get(code).spec
    assert spec["game"] == "tictactoe" and len(spec["entrants"]) == 8
    assert R.total_games(spec) == 8 * 7 * 2
    with app.app_context():
        assert runner().advance(code) == 8 * 7 * 2            # the whole class tournament
    t = tournaments_of(app.extensions["class_store"]).get(code)
    assert t.spec["state"] == "done"
    done = text(teacher.get(live(code) + "?lang=fr").get_data(as_text=True))
    assert "Terminé" in done and "Morpion" in done
    assert "cases 1 puis 5" in done                       # its openings, in words
    # a phone finds its bot's games; a lost one opens the exact review at its bot's mistake
    for name in BOTS:
        mine = [n for n, g in t.games.items() if g["winner"] and name in (g["first"],
                                                                            g["second"])
                and g["winner"] != name]
        if mine:
            break
    page = phones[name].get(live(code)).get_data(as_text=True)
    assert f"Your bot: {name}" in text(page) and "Why did my bot lose?" in page
    r = phones[name].get(live(code) + f"/why/{mine[0]}")
    assert r.status_code == 303 and r.headers["Location"].startswith("/tictactoe/review?")
    assert phones[name].get(r.headers["Location"]).status_code == 200
    # the CSV names tic-tac-toe's sides
    csv = teacher.get(live(code) + "/standings.csv").get_data(as_text=True)
    assert "X (first)" in csv and len(csv.splitlines()) > 8 * 7 * 2


def test_the_finale_is_played_on_its_board_then_against_the_perfect_player(app):
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    teacher.post(live(code) + "/start", data={
        "lines": "Ada:lines=1,open2=4\nBob:center=2,corners=1", "boss": ["beginner"],
        "depth": "1", "openings": "1"})
    with app.app_context():
        runner().advance(code)
    url = live(code) + "/finale"
    assert teacher.post(url, data={"action": "start"}).status_code == 303
    store = tournaments_of(app.extensions["class_store"])
    for _ in range(40):
        if store.get(code).spec["finale"]["champion"]:
            break
        assert teacher.post(url, data={"action": "next"}).status_code == 303
    f = store.get(code).spec["finale"]
    assert f["champion"] and all(g["result"] for g in f["games"])
    teacher.post(url, data={"action": "perfect"})
    for _ in range(9):
        teacher.post(url, data={"action": "next"})
    p = store.get(code).spec["finale"]["perfect"]
    assert p["result"] in ("0-1", "½-½")                   # the perfect player never loses
    page = teacher.get(live(code)).get_data(as_text=True)
    assert "ttt-board tl-board" in page and "tree=1" in page


def test_a_class_tournament_opens_under_its_own_games_path(app):
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    teacher.post(live(code) + "/open")
    r = teacher.get(f"/connect4/tournament/live/{code}?lang=fr")
    assert r.status_code == 301 and r.headers["Location"].startswith(live(code))
    assert teacher.get(f"/nim/tournament/live/{code}").status_code == 404
    # Connect-4's class sends its heuristics from its workshop: no entries on the page
    assert teacher.post(f"/connect4/tournament/live/{code}/open").status_code == 409


def test_while_the_entries_are_open_the_pages_follow_them_and_turn_live_at_the_start(app):
    from test_classroom import Stream
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    teacher.post(live(code) + "/open")
    page = teacher.get(live(code)).get_data(as_text=True)
    assert 'hx-trigger="sse:setup"' in page and 'hx-trigger="sse:live, sse:stage"' in page
    zoe = student(app, code)
    stream = Stream(teacher, live(code) + "/events")
    try:
        zoe.post(live(code) + "/entry", data={"name": "Zoé", "h": "lines=1"})
        assert stream.event("setup", where=lambda d: d == "1")   # the teacher's list, again
        teacher.post(live(code) + "/start", data={"sub": list(tournaments_of(
            app.extensions["class_store"]).get(code).spec["entries"]), "boss": ["easy"],
            "depth": "1", "openings": "1"})
        assert "of 2 games played" in text(stream.event("live"))   # every page turns live
    finally:
        stream.close()


def test_an_entry_made_while_the_listener_reconnects_reaches_the_teachers_list(app):
    """Events missed while a worker's listener (re)connects to the store (its first look at
    the store coming after an entry, on a loaded machine: 22:20 on 2026-11-27, beside 4 busy
    processes) wake every stream to read its class again, the tournament's page too, which
    listens to none of a class page's kinds: its list stayed at no entry."""
    from test_classroom import Stream
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    teacher.post(live(code) + "/open")
    zoe = student(app, code)
    stream = Stream(teacher, live(code) + "/events")
    try:
        assert stream.event("setup") == "0"
        hub = app.extensions["class_hub"]
        hub.stop()                            # the listener gone: the entry's event is missed
        zoe.post(live(code) + "/entry", data={"name": "Zoé", "h": "lines=1"})
        hub.dispatch(None, "board")           # what the listener says when it is back
        assert stream.event("setup", where=lambda d: d == "1", timeout=10.0)
    finally:
        stream.close()


def events_until(stream, name, timeout=30.0) -> list[str]:
    """The names of the stream's next events, up to the first ``name`` (the last)."""
    import time
    names, deadline = [], time.monotonic() + timeout
    while True:
        while "\n\n" in stream.buffer:
            message, stream.buffer = stream.buffer.split("\n\n", 1)
            names += [ln[7:] for ln in message.split("\n") if ln.startswith("event: ")]
            if name in names:
                return names
        stream.buffer += stream.chunks.get(timeout=max(deadline - time.monotonic(), 0.01))


def test_a_phone_that_opened_the_page_first_gets_the_form_when_the_entries_open(app):
    """The page a phone opened before the teacher opened the entries follows the class's
    stream: the entries opening sends "stage", which draws the page again (its form); a page
    drawn at the stage the stream sees is not drawn again."""
    from test_classroom import Stream
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    zoe = student(app, code)
    first = zoe.get(live(code)).get_data(as_text=True)
    assert 'id="tl-entry"' not in first
    assert f'sse-connect="{live(code)}/events?at=none"' in first
    assert 'hx-trigger="sse:live, sse:stage"' in first
    stream = Stream(zoe, live(code) + "/events?at=none")
    try:
        teacher.post(live(code) + "/open")
        stage = f"open-{tournaments_of(app.extensions['class_store']).get(code).spec['id']}"
        assert stream.event("stage") == stage
    finally:
        stream.close()
    page = zoe.get(live(code)).get_data(as_text=True)
    assert 'id="tl-entry"' in page and f"/events?at={stage}" in page
    stream = Stream(zoe, live(code) + f"/events?at={stage}")
    try:
        assert "stage" not in events_until(stream, "setup")      # drawn once, at its stage
    finally:
        stream.close()
