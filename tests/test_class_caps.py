"""Caps that free themselves (issue 37): a class no one followed and its teacher never used is
reclaimed after ``UNUSED_TTL`` (minutes), not ``TTL`` (hours); one address holds at most
``LIVE_PER_ADDRESS`` live classes; a full server still serves the classes it holds, and a new
teacher gets in once the unused ones are reclaimed. The store's clock is simulated; both
stores."""
import re

import pytest

from web.classroom import store as class_store
from test_classroom import streams  # noqa: F401  (the fixture)


@pytest.fixture()
def app(make_app):
    return make_app()


def create(app, addr, lang="en"):
    teacher = app.test_client()
    teacher.environ_base["REMOTE_ADDR"] = addr
    made = teacher.post(f"/class?lang={lang}", data={"link": "/nim?mode=human-human"})
    code = re.search(r"cls=([A-Z0-9]{6})", made.headers.get("Location", ""))
    return teacher, made, code.group(1) if code else None


def test_a_class_no_one_used_is_reclaimed_after_minutes_a_used_one_lives_hours(
        app, class_clock, streams):  # noqa: F811
    st = app.extensions["class_store"]
    _, _, idle = create(app, "198.51.100.1")
    teacher, _, moved = create(app, "198.51.100.2")
    _, _, followed = create(app, "198.51.100.3")
    assert teacher.post(f"/class/{moved}/sync", data={"link": "/nim?mode=human-human&moves=1"},
                        headers={"HX-Request": "true"}).status_code == 204
    phone = app.test_client()
    assert phone.get(f"/c/{followed}").status_code == 200
    streams(phone, f"/c/{followed}/events").event("board")      # a student follows it live
    class_clock[0] += st.unused_ttl + 1
    assert st.get(idle) is None
    assert app.test_client().get(f"/c/{idle}").status_code == 404
    assert st.get(moved) is not None and st.get(followed) is not None
    class_clock[0] += st.ttl - st.unused_ttl - 120
    assert st.get(moved) is not None and st.get(followed) is not None


def test_one_address_holds_a_few_live_classes_and_is_told_what_to_do(app, class_clock):
    st = app.extensions["class_store"]
    st.live_per_address = 3
    for _ in range(3):
        assert create(app, "203.0.113.9")[2]
    _, refused, _ = create(app, "203.0.113.9")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    body = refused.get_data(as_text=True)
    assert "Your network already holds 3 live classes" in body and "End the class" in body
    _, french, _ = create(app, "203.0.113.9", "fr")
    assert french.status_code == 429 and "Votre réseau" in french.get_data(as_text=True)
    assert create(app, "203.0.113.10")[2]                       # another address: in
    class_clock[0] += st.unused_ttl + 1                               # unused: reclaimed
    assert create(app, "203.0.113.9")[2]


def test_a_full_server_keeps_its_classes_and_frees_room_for_a_new_teacher(app, class_clock):
    st = app.extensions["class_store"]
    st.max_classes = 5
    teacher, _, mine = create(app, "192.0.2.50")
    teacher.post(f"/class/{mine}/vote", data={"action": "open"})          # in use
    for i in range(4):                                                    # a script's
        assert create(app, f"198.51.100.{100 + i}")[2]
    _, full, _ = create(app, "192.0.2.77")
    assert full.status_code == 503 and full.headers["Retry-After"]
    assert "5 classes" in full.get_data(as_text=True)
    board = teacher.get(f"/nim?mode=human-human&cls={mine}")             # still the teacher's
    assert board.status_code == 200 and mine in board.get_data(as_text=True)
    class_clock[0] += st.unused_ttl + 1
    assert create(app, "192.0.2.77")[2]                                   # a new teacher gets in
    assert st.get(mine) is not None
    assert class_store.UNUSED_TTL <= 30 * 60 < class_store.TTL


def test_behind_a_trusted_proxy_the_bounds_are_per_client(app, class_clock, monkeypatch):
    import web.security
    monkeypatch.setattr(web.security, "PROXY_ADDRESSES", frozenset({"127.0.0.1"}))
    app.extensions["class_store"].live_per_address = 1

    def via_proxy(client_addr):
        return app.test_client().post("/class", data={"link": "/nim"},
                                      headers={"X-Forwarded-For": client_addr},
                                      environ_overrides={"REMOTE_ADDR": "127.0.0.1"})
    assert via_proxy("10.1.0.1").status_code == 303
    assert via_proxy("10.1.0.2").status_code == 303          # another school, same proxy
    assert via_proxy("10.1.0.1").status_code == 429
