"""A class's tournament on its pages, through Flask's test client on both stores (SQLite,
then a real redis-server): the teacher starts it (entries close), the runner plays it beside
the lesson and a restart resumes it, the standings move on the live stream as games end,
the CSV is safe, a phone finds its own games and why it lost, the finale is played move by
move; only the teacher starts and runs the finale; bad input is a clear 4xx."""
import csv
import io
import re
import threading

import pytest

from ai.games.connect4.accuracy import measure
from web.classroom.tournaments import tournaments_of
from web.tournament import runner as R
from web.tournament.live import runner

from test_classroom import Stream, start_class, student


@pytest.fixture()
def app(make_app):
    return make_app(TOURNAMENT_RUNNER="manual")


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def start(teacher, code, **form):
    data = {"lines": "Ada:cells=1,open3=8\nBob:open2=4,open3=16", "boss": ["beginner"],
            "depth": "2", "openings": "1", **form}
    return teacher.post(f"/connect4/tournament/live/{code}/start", data=data)


def play(app, code, most=None):
    with app.app_context():
        return runner().advance(code, most)


def test_the_teacher_starts_it_and_a_restart_plays_only_the_missing_games(make_app):
    first = make_app(TOURNAMENT_RUNNER="manual")
    teacher, code, _ = start_class(first)
    setup = teacher.get(f"/connect4/tournament/live/{code}?lang=fr").get_data(as_text=True)
    assert "Clore les inscriptions et lancer" in setup
    r = start(teacher, code)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/live/{code}")
    assert play(first, code, 2) == 2
    page = text(teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True))
    assert "2 of 6 games played" in page
    # the server restarts: a new app on the same store, nothing of the first in memory
    second = make_app(TOURNAMENT_RUNNER="manual")
    store = second.extensions["class_store"]
    now = [store.clock() + R.LEASE + 1]          # the dead worker's lease runs out
    store.clock = lambda: now[0]
    with second.app_context():
        again = runner()
        assert again.advance(code) == 4 and again.played == 4
    t = tournaments_of(store).get(code)
    assert sorted(t.games) == list(range(6)) and t.spec["state"] == "done"
    page = text(second.test_client().get(f"/connect4/tournament/live/{code}")
                .get_data(as_text=True))
    assert "Finished: 6 games." in page


def test_only_the_teacher_starts_and_bad_input_is_a_clear_4xx(app):
    teacher, code, _ = start_class(app)
    phone = student(app, code)
    assert start(phone, code).status_code == 403
    assert "Close the entries" not in phone.get(f"/connect4/tournament/live/{code}").text
    r = start(teacher, code, lines="Ada cells=1", boss=[])
    assert r.status_code == 400 and "write a name, a colon" in r.text
    r = start(teacher, code, lines="Ada:cells=1", boss=[], lang="fr")
    assert r.status_code == 400
    r = start(teacher, code, lines="", boss=["nobody"])
    assert r.status_code == 400 and "nobody" in r.text
    r = start(teacher, code, depth="99")
    assert r.status_code == 400
    assert teacher.get("/connect4/tournament/live/ZZZZZZ").status_code == 404
    assert teacher.get(f"/connect4/tournament/live/{code}/standings.csv").status_code == 404
    assert teacher.get(f"/connect4/tournament/live/{code}/why/0").status_code == 404
    assert tournaments_of(app.extensions["class_store"]).get(code) is None


def test_the_standings_move_on_the_live_stream_as_games_end(app):
    teacher, code, _ = start_class(app)
    start(teacher, code)
    stream = Stream(student(app, code), f"/connect4/tournament/live/{code}/events")
    try:
        assert "0 of 6 games played" in text(stream.event("live"))
        play(app, code, 1)
        live = text(stream.event("live", where=lambda d: "1 of 6 games played" in text(d)))
        # each entrant's rating and its uncertainty, fitted on the games so far (not at the end)
        assert len(re.findall(r"\d ± \d", live)) == 3
        assert "Game 1" in text(stream.event("featured", where=lambda d: "Game" in d))
        play(app, code)
        # the last game comes to the board once (a later update of the standings does not
        # send it again, which would start its play-out over)
        last = stream.event("featured", where=lambda d: "Game 6" in d)
        assert "Game 6" in text(last)
        # its result comes after its last stone, not before: the class watches it played out
        step = int(re.search(r'class="tl-after tl-o(\d+)"', last).group(1))
        assert step == last.count("tl-drop") > 0
        assert "Finished: 6 games." in text(student(app, code).get(
            f"/connect4/tournament/live/{code}").get_data(as_text=True))
    finally:
        stream.done.set()


def test_a_stream_opened_before_the_start_waits_for_it(app):
    # the page opens its stream once a tournament is started; a client that opens it before
    # gets nothing drawn (there was a 'Live' with no standings to draw: the stream died)
    teacher, code, _ = start_class(app)
    stream = Stream(teacher, f"/connect4/tournament/live/{code}/events")
    try:
        start(teacher, code)
        play(app, code, 1)
        assert "1 of 6 games played" in text(stream.event(
            "live", where=lambda d: "1 of 6 games played" in text(d)))
    finally:
        stream.done.set()


def test_the_csv_has_the_standings_and_every_game_and_runs_nothing(app):
    teacher, code, _ = start_class(app)
    start(teacher, code, lines="=HYPERLINK(1):cells=1\nBob:open2=4")
    play(app, code)
    r = teacher.get(f"/connect4/tournament/live/{code}/standings.csv?sep=comma")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][:4] == ["Rank", "Entrant", "Heuristic", "Points"]
    names = {row[1] for row in rows[1:4]}
    assert names == {"'=HYPERLINK(1)", "Bob", "beginner"}
    games = rows[rows.index([]) + 2:]
    assert len(games) == 6 and all(re.fullmatch(r"[1-7]+", g[5]) for g in games)


def test_the_phones_send_heuristics_until_the_start_and_a_phone_finds_why_it_lost(app):
    teacher, code, _ = start_class(app)
    hx = {"HX-Request": "true"}
    assert teacher.post(f"/class/{code}/heuristic", data={"action": "start", "depth": "2"},
                        headers=hx).status_code == 200
    zoe, max_ = student(app, code), student(app, code)
    zoe.post(f"/c/{code}/name", data={"name": "Zoé"}, headers=hx)
    max_.post(f"/c/{code}/name", data={"name": "Max"}, headers=hx)
    seq = re.search(r'name="seq" value="(\d+)"', zoe.get(f"/c/{code}").text).group(1)
    for phone, h in ((zoe, "cells=1"), (zoe, "center=1"), (max_, "cells=1,open3=8")):
        assert phone.post(f"/c/{code}/heuristic", data={"seq": seq, "h": h},
                          headers=hx).status_code == 200          # re-sent: the latest kept
    setup = teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True)
    sent = dict(re.findall(r'name="sub" value="([0-9a-f]+)" checked> <strong>([^<]+)</strong>',
                           setup))
    assert sorted(sent.values()) == ["Max", "Zoé"] and "center=1" in setup
    # each with its accuracy, as the workshop measured it when it was sent
    r = measure("center=1", 2)
    assert (f'<code>center=1</code> <span class="tl-judged">accuracy '
            f'{r.accuracy * 100:.1f} %, {r.blunders} blunders</span>') in setup
    assert f"Accuracy: on {r.positions} positions" in text(setup)
    r = start(teacher, code, sub=list(sent), lines="", boss=["beginner", "medium"])
    assert r.status_code == 303
    # entries closed: a heuristic sent now is not taken
    assert zoe.post(f"/c/{code}/heuristic", data={"seq": seq, "h": "cells=2"},
                    headers=hx).status_code != 200
    spec = tournaments_of(app.extensions["class_store"]).get(code).spec
    assert [(e["name"], e["heuristic"]) for e in spec["entrants"]] == [
        ("Zoé", "center=1"), ("Max", "cells=1,open3=8"), ("beginner", None), ("medium", None)]
    play(app, code)
    page = zoe.get(f"/connect4/tournament/live/{code}").get_data(as_text=True)
    assert "Your bot: Zoé" in text(page)
    t = tournaments_of(app.extensions["class_store"]).get(code)
    lost = [n for n, g in t.games.items() if g["winner"] and g["winner"] != "Zoé"
            and "Zoé" in (g["first"], g["second"])]
    assert lost, "Zoé lost no game: pick weaker weights"
    assert page.count("Why did my bot lose?") == len(lost)
    assert "Why did my bot lose?" not in teacher.get(f"/connect4/tournament/live/{code}").text
    r = zoe.get(f"/connect4/tournament/live/{code}/why/{lost[0]}")
    assert r.status_code == 303 and "/connect4/review?" in r.headers["Location"]
    ply = int(re.search(r"ply=(\d+)", r.headers["Location"]).group(1))
    g = t.games[lost[0]]
    mine = 0 if g["first"] == "Zoé" else 1
    assert (ply - 1 - len(g["opening"])) % 2 == mine           # a move of Zoé's bot
    review = zoe.get(r.headers["Location"]).get_data(as_text=True)
    assert "cls-blunder" in review or "cls-mistake" in review


def test_the_finale_best_of_three_move_by_move_then_the_perfect_player(app):
    teacher, code, _ = start_class(app)
    start(teacher, code)
    play(app, code)
    page = teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True)
    assert 'value="start"' in page
    phone = student(app, code)
    url = f"/connect4/tournament/live/{code}/finale"
    assert phone.post(url, data={"action": "start"}).status_code == 403
    assert teacher.post(url, data={"action": "dance"}).status_code == 400
    assert teacher.post(url, data={"action": "start"}).status_code == 303
    store = app.extensions["class_store"]
    f = tournaments_of(store).get(code).spec["finale"]
    rows = R.results(tournaments_of(store).get(code).spec, tournaments_of(store).get(code).games)[0]
    assert (f["a"], f["b"]) == (rows[0]["name"], rows[1]["name"])
    moves = 0
    while not tournaments_of(store).get(code).spec["finale"]["champion"]:
        assert teacher.post(url, data={"action": "next"}).status_code == 303
        moves += 1
        assert moves < 200
    f = tournaments_of(store).get(code).spec["finale"]
    assert 2 <= len(f["games"]) <= 3 and all(g["result"] for g in f["games"])
    assert len({g["opening"] for g in f["games"]}) == len(f["games"])   # no game replayed
    assert moves == sum(len(g["moves"]) - len(g["opening"]) for g in f["games"])
    page = teacher.get(f"/connect4/tournament/live/{code}?lang=fr").get_data(as_text=True)
    assert "Champion" in page and "joueur parfait" in page
    assert "tree=1" in page                         # each move opens its tree
    teacher.post(url, data={"action": "perfect"})
    for _ in range(3):
        teacher.post(url, data={"action": "next"})
    p = tournaments_of(store).get(code).spec["finale"]["perfect"]
    assert p["first"] == f["champion"] and p["second"] == "perfect"
    assert len(p["moves"]) == len(p["opening"]) + 3


def test_the_workers_runner_plays_it_in_the_background_when_a_page_of_it_is_opened(make_app):
    app = make_app()                                 # the runner of a real worker: a thread
    teacher, code, _ = start_class(app)
    start(teacher, code)
    store = tournaments_of(app.extensions["class_store"])
    done = threading.Event()
    for _ in range(600):                             # a bound, not a measure: 60 s at most
        if store.get(code).spec["state"] == "done":
            done.set()
            break
        done.wait(0.1)
    runner_ = app.extensions["tournament_runner"]
    runner_.stop()
    assert done.is_set() and sorted(store.get(code).games) == list(range(6))
    assert runner_.played == 6


def test_a_link_reopens_the_standings_after_the_class_has_gone(app, monkeypatch):
    teacher, code, _ = start_class(app)
    start(teacher, code)
    play(app, code)
    page = teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True)
    link = re.search(r'href="([^"]*)" id="tl-standings-link"', page).group(1)
    link = link.replace("&amp;", "&")
    assert link.startswith("/connect4/tournament/results?t=") and len(link) < 4000
    final = tournaments_of(app.extensions["class_store"]).get(code).spec["final"]["standings"]
    assert teacher.post(f"/class/{code}/end").status_code in (200, 204, 303)
    other = app.test_client()                       # anyone, any time after
    html = other.get(link + "&lang=fr").get_data(as_text=True)
    assert "Terminé" in html and "Classement" in html and "Tableau croisé" in html
    rows = re.findall(r'<td class="num">(\d+)</td><th scope="row">(?:<span class="tn-boss">)?'
                      r'([^<]+)', html)
    names = {"beginner": "débutant"}
    assert [(int(r), n) for r, n in rows] == [(x["rank"], names.get(x["name"], x["name"]))
                                              for x in final]
    for x in final:                                   # the same points and rating
        assert f'<strong>{x["points"]}</strong>' in html.replace(",", ".")
        r = abs(x["rating"])
        assert f">{round(r)} <" in html.replace("−", "")      # whole points, as Elo's are read
    # a link cut or changed: a translated 400, never a 500
    for bad in (link[:-5], link[:-5] + "AAAAA", "/connect4/tournament/results",
                "/connect4/tournament/results?t=%%%", "/connect4/tournament/results?t=" + "A" * 7000):
        r = other.get(bad + ("&" if "?" in bad else "?") + "lang=fr")
        assert r.status_code == 400 and "ce lien" in r.get_data(as_text=True).lower(), bad


def test_a_swiss_shows_who_sat_a_round_out(app, monkeypatch):
    monkeypatch.setattr(R, "SWISS_ABOVE", 2)      # three entrants: a Swiss, one bye a round
    teacher, code, _ = start_class(app)
    lines = "Ada:cells=1,open3=8\nBob:open2=4,open3=16\nCyd:cells=2"
    assert start(teacher, code, lines=lines, boss=[]).status_code == 303
    store = app.extensions["class_store"]
    spec = tournaments_of(store).get(code).spec
    assert spec["schedule"] == "swiss"
    [(_, sat)] = R.sat_out(spec, {})              # round 1 is paired at the start
    html = teacher.get(f"/connect4/tournament/live/{code}?lang=fr").get_data(as_text=True)
    rows = {re.sub(r"\s+", " ", text(row)).strip() for row in
            re.findall(r'<th scope="row">(.*?)</th>', html)}
    assert [r for r in rows if "exempté" in r] == [f"{sat} exempté à la ronde 1"]
    assert "Exemptés (une exemption compte comme un match nul) : ronde 1, " + sat in text(html)
    assert "match nul)\u202f:" in html
    play(app, code, 2)                            # round 1 played: round 2 paired, its bye
    t = tournaments_of(store).get(code)
    byes = R.sat_out(t.spec, t.games)
    assert [r for r, _ in byes] == [0, 1] and byes[1][1] != sat
    page = text(teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True))
    assert f"round 1, {sat} · round 2, {byes[1][1]}" in page
    # the bye counts as a drawn match: each opening's two games' half, 1 point a round here
    row = next(r for r in R.results(t.spec, t.games)[0] if r["name"] == sat)
    assert row["points"] >= 1


def test_the_settings_write_the_openings_as_columns_not_as_a_number(app):
    teacher, code, _ = start_class(app)
    start(teacher, code)                            # one opening: 34
    page = teacher.get(f"/connect4/tournament/live/{code}?lang=fr").get_data(as_text=True)
    assert "ouverture\u202f: colonnes 3 puis 4, avec les deux couleurs" in page
    assert "ouvertures 34" not in text(page)
    page = text(teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True))
    assert "opening: columns 3 then 4, with both colours" in page


def cap_results(n, k):
    """A tournament of ``n`` entrants at ``k`` openings, every game given a result (the link
    holds results, not moves: none is played)."""
    import random
    from ai.teach.tournament import Entrant
    rng = random.Random(39)           # results as a real tournament's: no pattern to compress
    spec = R.new_spec("connect4", [Entrant(f"Élève {i:03d}", f"cells={rng.randint(1, 9)},open3="
                                           f"{rng.randint(1, 20)},open2={rng.randint(1, 9)}")
                                   for i in range(n)], 2, k)
    games = {}
    while len(known := R.plan(spec, games)) > len(games):
        for i in range(len(games), len(known)):
            _r, _o, a, b = known[i]
            res = rng.choice(("1-0", "0-1", "½-½"))
            games[i] = {"first": spec["entrants"][a]["name"], "second": spec["entrants"][b]["name"],
                        "opening": "", "moves": "", "result": res, "winner": None}
    return spec, games


def test_the_largest_field_gets_a_short_link_kept_in_the_store(app, monkeypatch):
    from web.classroom.kept_links import kept_links_of
    from web.tournament import live as L, results as TR
    # "GET <link>&lang=fr HTTP/1.1" within gunicorn's request line
    assert len("GET ") + TR.MAX_LINK + len("&lang=fr") + len(" HTTP/1.1") <= 4094
    client = app.test_client()
    with app.test_request_context():
        spec, games = cap_results(40, 2)             # a class at 2 openings: the link holds it
        url = TR.link(spec, games)
        assert url.startswith("/connect4/tournament/results?t=") and len(url) <= TR.MAX_LINK
        spec, games = cap_results(R.MAX_LIVE_ENTRANTS, L.MAX_OPENINGS)   # the page's cap
        assert spec["schedule"] == "swiss" and len(games) == R.total_games(spec)
        assert len(TR.token(spec, games)) > TR.MAX_LINK     # too long to hold them
        short = TR.link(spec, games)
        assert re.fullmatch(r"/connect4/tournament/results\?k=[\w-]{22}", short)
        assert TR.link(spec, games) == short          # the same standings, the same key
        want = R.results(spec, games, rate=True)[0]
    assert client.get(url + "&lang=fr").status_code == 200
    # opened by anyone: the key names the standings the store keeps (no worker's memory)
    TR._kept.clear()
    html = client.get(short + "&lang=fr").get_data(as_text=True)
    assert "Terminé" in html
    rows = re.findall(r'<td class="num">(\d+)</td><th scope="row">([^<]+)', html)
    assert [(int(r), n) for r, n in rows] == [(x["rank"], x["name"]) for x in want]
    assert len(rows) == 200
    for x in want[:5]:
        r = abs(x["rating"])
        assert f">{round(r)} <" in html.replace("−", "")      # whole points, as Elo's are read
    # a key cut, changed, unknown, or not a key: a translated 400, never a 500
    key = short.rsplit("=", 1)[1]
    for bad in (key[:-1], key[:-1] + ("A" if key[-1] != "A" else "B"), "A" * 22, "%%%",
                "x" * 5000, ""):
        r = client.get("/connect4/tournament/results?lang=fr&k=" + bad)
        body = r.get_data(as_text=True)
        assert r.status_code == 400 and ("conservé" in body or "ce lien" in body.lower()), bad
    r = client.get("/connect4/tournament/results?k=" + "A" * 22)
    assert "not kept on this server" in r.get_data(as_text=True)
    # the store keeps the text the link names, nothing a client sent
    assert kept_links_of(app.extensions["class_store"]).get("A" * 22) is None


def test_the_page_says_so_when_the_store_cannot_keep_the_link(app, monkeypatch):
    from web.classroom import kept_links
    from web.classroom.store import StoreError
    from web.tournament import results as TR
    teacher, code, _ = start_class(app)
    start(teacher, code)
    play(app, code)
    monkeypatch.setattr(TR, "MAX_LINK", 40)       # past it: a key kept in the store

    def away(self, text):
        raise StoreError("away")
    monkeypatch.setattr(kept_links.SqliteKeptLinks, "keep", away)
    monkeypatch.setattr(kept_links.RedisKeptLinks, "keep", away)
    TR._kept.clear()
    html = teacher.get(f"/connect4/tournament/live/{code}?lang=fr").get_data(as_text=True)
    assert 'id="tl-standings-link"' not in html
    assert "pas de lien vers ce classement pour l’instant\u202f:" in html
    monkeypatch.undo()
    monkeypatch.setattr(TR, "MAX_LINK", 40)
    html = teacher.get(f"/connect4/tournament/live/{code}").get_data(as_text=True)
    link = re.search(r'href="([^"]*)" id="tl-standings-link"', html).group(1)
    assert "?k=" in link and teacher.get(link).status_code == 200


# -- drawn in the pages' lane (issue 37: a Swiss of 200's crosstable, 40,000 cells, ~140 ms, and
# its CSV of 8,000 games were drawn on the loop) ------------------------------------------------

@pytest.fixture()
def drawings(monkeypatch):
    """The live page's and its CSV's drawings, each with its thread's name; ``_offload`` as
    under gevent's server (in another thread, named "pool...")."""
    from concurrent.futures import ThreadPoolExecutor

    import web.admission as admission
    import web.tournament.live as live
    threads = []

    def watched(draw):
        def inner(*args, **kwargs):
            threads.append(threading.current_thread().name)
            return draw(*args, **kwargs)
        return inner
    monkeypatch.setattr(live, "render_template", watched(live.render_template))
    monkeypatch.setattr(live, "csv_response", watched(live.csv_response))
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    executor = ThreadPoolExecutor(1, thread_name_prefix="pool")
    monkeypatch.setattr(admission, "_offload", lambda fn: executor.submit(fn).result())
    yield threads
    executor.shutdown()


@pytest.mark.parametrize("game, lines", [("connect4", "Ada:cells=1,open3=8\nBob:open2=4"),
                                         ("tictactoe", "Ada:lines=1,open2=4\nBob:corners=1")])
def test_the_standings_and_their_csv_are_drawn_in_the_pages_lane_refused_when_full(
        app, drawings, game, lines):
    import web.admission as admission
    teacher, code, _ = start_class(app, f"/{game}?mode=human-human")
    url = f"/{game}/tournament/live/{code}"
    assert teacher.post(url + "/start", data={"lines": lines, "boss": ["beginner"],
                                              "depth": "2", "openings": "1"}).status_code == 303
    play(app, code)
    for page in (url, url + "/standings.csv"):
        drawings.clear()
        assert teacher.get(page).status_code == 200
        assert drawings and all(name.startswith("pool") for name in drawings)   # off the loop
    slots = [admission._pages.acquire(blocking=False) for _ in range(admission.PAGE_SLOTS)]
    try:
        assert all(slots)
        for page in (url, url + "/standings.csv"):
            drawings.clear()
            busy = teacher.get(page + "?lang=fr")
            assert busy.status_code == 503 and busy.headers["Retry-After"]
            assert "Le serveur est occupé" in busy.get_data(as_text=True)      # translated
            assert drawings == []                                # refused before any drawing
        assert teacher.get("/").status_code == 200                # a plain page: not held
    finally:
        for _ in slots:
            admission._pages.release()
    assert teacher.get(url + "/standings.csv").status_code == 200


def test_the_live_stream_draws_its_standings_off_the_loop_and_ends_when_its_lane_is_full(
        app, drawings, monkeypatch):
    """The teacher's stream in the pages' lane, a phone's in the trees' lane; a stream that
    cannot draw ends cleanly (no 500, no event drawn), and its page reconnects."""
    import web.admission as admission
    import web.classroom.views as cv
    import web.tournament.live as live
    threads = []
    original = live.render_block

    def watched(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)
    monkeypatch.setattr(live, "render_block", watched)
    monkeypatch.setattr(cv, "STREAM_WAIT", 0.01)
    teacher, code, _ = start_class(app)
    start(teacher, code)
    play(app, code, 1)
    phone = student(app, code)
    url = f"/connect4/tournament/live/{code}/events"
    stream = Stream(teacher, url)
    try:
        assert "1 of 6 games played" in text(stream.event("live"))
        assert threads and all(name.startswith("pool") for name in threads)
    finally:
        # ended before the lanes are filled: a drawing of its own (woken by the store
        # listener's first look, on a slow machine) is not one of the refused streams'
        stream.close()
    assert not stream.thread.is_alive()
    for client, lane in ((teacher, admission._pages), (phone, admission._trees)):
        assert lane.acquire(blocking=False)
        try:
            threads.clear()
            ended = client.get(url)
            assert ended.status_code == 200
            assert "event: live" not in ended.get_data(as_text=True)   # ended, drew nothing
            assert threads == []
        finally:
            lane.release()
    assert admission._pages.acquire(blocking=False)     # the teacher's lane: a phone's not held
    try:
        stream = Stream(phone, url)
        assert "1 of 6 games played" in text(stream.event("live"))
    finally:
        stream.done.set()
        admission._pages.release()


def test_a_phones_entry_is_measured_in_a_search_lane_refused_when_full(app, drawings,
                                                                       monkeypatch):
    """Tic-tac-toe's entries are refereed by the solved game when sent (431 small searches):
    off the loop in the light searches' lane; a full lane answers the app's 503, translated,
    with Retry-After, and keeps nothing."""
    import web.admission as admission
    from ai.games.tictactoe import accuracy
    threads = []
    measured = accuracy._measured
    monkeypatch.setattr(accuracy, "_measured", lambda h, d: threads.append(
        threading.current_thread().name) or measured(h, d))
    teacher, code, _ = start_class(app, "/tictactoe?mode=human-human")
    url = f"/tictactoe/tournament/live/{code}"
    teacher.post(url + "/open")
    zoe = student(app, code)
    slots = [admission._light.acquire(blocking=False) for _ in range(admission.LIGHT_SLOTS)]
    try:
        assert all(slots)
        busy = zoe.post(url + "/entry?lang=fr", data={"name": "Zoé", "h": "lines=1"})
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert "Le serveur est occupé" in busy.get_data(as_text=True)
        assert threads == []                                     # refused before any search
    finally:
        for _ in slots:
            admission._light.release()
    assert tournaments_of(app.extensions["class_store"]).get(code).spec["entries"] == {}
    assert zoe.post(url + "/entry", data={"name": "Zoé", "h": "lines=1"}).status_code == 303
    assert threads and all(name.startswith("pool") for name in threads)       # off the loop
