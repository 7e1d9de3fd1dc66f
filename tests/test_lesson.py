"""Issue 21: a lesson without a hitch, as the server answers it. A replay's steps replace the
history entry instead of piling up (Back leaves the replay); every teaching page leads back to
the course's figure it was opened from and out of projector mode; projector mode keeps the
settings and the move list in a drawer; class mode served on 127.0.0.1 gives students a link
their phones can open. (What a person sees of it: tests/test_browser_lesson.py.)"""
import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import pytest

from web import network
from web.classroom import view as class_view

# The course's card "The MiniMax procedure, step by step" (chapter 2, figure 1), at step 6.
MINIMAX = ("/nim?n=5&mode=ai-human&level=custom&heur=course&order=reverse&moves=1&tree=1"
           "&algo=minimax&depth=5&td=5")


def htmx(client, url, current):
    """``url`` asked by htmx from the page ``current`` (the address bar)."""
    return client.get(url, headers={"HX-Request": "true", "HX-Current-URL": "http://localhost" + current})


def test_a_step_of_a_replay_replaces_the_history_entry_and_entering_it_pushes_one(client):
    entering = htmx(client, f"/nim/tree?{MINIMAX[5:]}&step=0", MINIMAX)
    assert "step=0" in entering.headers["HX-Push-Url"] and "HX-Replace-Url" not in entering.headers
    forward = htmx(client, f"/nim/tree?{MINIMAX[5:]}&step=7", MINIMAX + "&step=6")
    assert "HX-Push-Url" not in forward.headers
    assert dict(parse_qsl(urlsplit(forward.headers["HX-Replace-Url"]).query))["step"] == "7"
    # leaving the replay for the whole tree is a new entry again (Back comes back to the step)
    whole = htmx(client, f"/nim/tree?{MINIMAX[5:]}", MINIMAX + "&step=7")
    assert "HX-Push-Url" in whole.headers and "step" not in whole.headers["HX-Push-Url"]


def links_of(html):
    return [unescape(h) for h in re.findall(r'href="([^"]+)"', html)]


def test_every_course_card_links_with_its_anchor_and_the_page_leads_back_to_it(client):
    html = client.get("/course?lang=fr&proj=1").get_data(as_text=True)
    cards = re.findall(r'<article class="figure-card" id="(fig-\d+-\d+)">(.*?)</article>', html, re.S)
    assert len(cards) >= 20
    for card, body in cards:
        opened = [h for h in links_of(body) if "card=" in h]
        assert opened, card
        for link in opened:
            assert dict(parse_qsl(urlsplit(link).query))["card"] == card
    # the MiniMax procedure's card, opened: its way back is to that card, in French, projector
    link = next(h for card, body in cards if card == "fig-2-1" for h in links_of(body) if "card=" in h)
    page = client.get(link).get_data(as_text=True)
    nav = re.search(r'<nav class="lesson-nav".*?</nav>', page, re.S).group(0)
    assert "Retour au cours" in nav
    back = urlsplit(links_of(nav)[0])
    assert back.path == "/course" and back.fragment == "fig-2-1"
    # the page keeps its language, projector mode and notation (a card opens in the course's)
    assert dict(parse_qsl(back.query)) == {"lang": "fr", "proj": "1", "notation": "course"}


@pytest.mark.parametrize("url", [
    "/connect4/table?moves=4453", "/connect4/compare?moves=4453", "/nim/compare?n=20",
    "/tree/growth?b=3&m=6", "/nim/theory?n=8", "/tree", "/connect4/heuristic?board=--2-12-1--",
    "/connect4/edit?board=--2-12-1--"])
def test_a_teaching_page_in_projector_mode_leads_back_to_the_course_and_out_of_the_mode(client, url):
    html = client.get(url + "&proj=1&lang=fr&card=fig-3-2" if "?" in url else url + "?proj=1&lang=fr&card=fig-3-2")
    html = html.get_data(as_text=True)
    nav = re.search(r'<nav class="lesson-nav".*?</nav>', html, re.S).group(0)
    course, leave = links_of(nav)
    assert urlsplit(course).path == "/course" and urlsplit(course).fragment == "fig-3-2"
    assert "Quitter le mode projecteur" in nav
    left = dict(parse_qsl(urlsplit(leave).query))
    assert urlsplit(leave).path == urlsplit(url).path and left["proj"] == "0"
    assert left["card"] == "fig-3-2" and left["lang"] == "fr"


def test_the_figure_is_kept_in_the_links_and_forms_of_the_pages_that_follow(client):
    html = client.get(MINIMAX + "&step=3&card=fig-2-1").get_data(as_text=True)
    steps = [h for h in links_of(html) if "step=" in h and h.startswith("/nim")]
    assert steps and all("card=fig-2-1" in h for h in steps)
    assert html.count('<input type="hidden" name="card" value="fig-2-1">') >= 2   # settings, rules
    # an anchor that is not a figure's is ignored: the page opens, the way back to the course
    # goes to its top, and no link to another page carries the odd value on
    odd = client.get("/connect4/table?moves=4453&proj=1&card=%22%3E%3Cb%3E").get_data(as_text=True)
    assert 'href="/course?proj=1"' in odd and "<b>" not in odd
    onwards = [h for h in links_of(odd) if h.startswith("/") and not h.startswith("/connect4/table")]
    assert onwards and not [h for h in onwards if "card=" in h]


def test_outside_projector_mode_a_page_not_opened_from_the_course_has_no_lesson_bar(client):
    assert 'class="lesson-nav"' not in client.get("/connect4/table?moves=4453").get_data(as_text=True)
    html = client.get("/connect4/table?moves=4453&card=fig-5-3").get_data(as_text=True)
    nav = re.search(r'<nav class="lesson-nav".*?</nav>', html, re.S).group(0)
    assert "Back to the course" in nav and "projector" not in nav


def test_projector_mode_keeps_the_settings_and_the_move_list_in_a_drawer(client):
    html = client.get("/connect4?moves=4453&level=custom&algo=alphabeta&depth=5&tree=1&proj=1&lang=fr").get_data(as_text=True)
    drawer = re.search(r'<details class="proj-drawer".*?</details>\s*</div>\s*</details>', html, re.S).group(0)
    assert "Réglages et coups" in drawer
    assert 'name="depth"' in drawer and 'value="5"' in drawer and 'name="level"' in drawer
    assert 'class="move-list"' in drawer and "4. 3" in drawer
    assert 'name="proj" value="1"' in drawer                # the settings keep projector mode
    plain = client.get("/connect4?moves=4453&tree=1").get_data(as_text=True)
    assert "proj-drawer" not in plain and 'class="move-list"' in plain and 'name="depth"' in plain


@pytest.mark.parametrize("host,loopback", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True), ("127.1.2.3", True),
    ("LOCALHOST", True), ("app.localhost:5000", True), ("192.168.1.23:8000", False),
    ("[fd00::2]:8000", False), ("ecole.example", False), ("[::1", False), ("x:notaport", False)])
def test_a_loopback_host_is_this_computer(host, loopback):
    assert network.is_loopback(host) is loopback


def test_the_network_addresses_leave_out_loopback_and_link_local_and_prefer_ipv4(monkeypatch):
    monkeypatch.setattr(network, "_routed", lambda: ["fd00::2", "192.168.1.23"])
    assert network.network_addresses() == ["192.168.1.23"]
    monkeypatch.setattr(network, "_routed", lambda: ["127.0.0.1", "fe80::1%eth0", "fd00::2"])
    assert network.network_addresses() == ["fd00::2"]
    monkeypatch.setattr(network, "_routed", lambda: [])
    assert network.network_addresses() == []
    assert network.url_host("fd00::2", 8000) == "[fd00::2]:8000"


def test_the_routed_address_is_found_without_sending_anything():
    """The UDP trick on this machine: whatever it finds is an address of one of its own
    interfaces, never a loopback one (on a machine with no network: nothing)."""
    for address in network.network_addresses():
        assert not network.is_loopback(address)


def class_page(client, base_url):
    r = client.post("/class?lang=fr", data={"link": "/connect4?moves=44"},
                    base_url=base_url, follow_redirects=True)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_class_mode_on_127_0_0_1_gives_the_network_address_with_its_qr_code(client, monkeypatch):
    monkeypatch.setattr(class_view, "network_addresses", lambda: ["192.168.1.23"])
    html = class_page(client, "http://127.0.0.1:8000")
    code = re.search(r'class="class-code">([A-Z0-9]{6})<', html).group(1)
    assert f'<p class="join-link">http://192.168.1.23:8000/c/{code}</p>' in html
    note = re.search(r'<div class="loopback-note".*?</div>\s*$', html, re.S | re.M).group(0)
    assert f"Les téléphones ne peuvent pas ouvrir http://127.0.0.1:8000/c/{code}" in note
    assert "scripts/serve --lan" in note
    # one address: one QR code, on the bar and, large, on the join screen (a class just made)
    assert html.count('class="qr"') == 2
    assert f'<p class="lobby-link">http://192.168.1.23:8000/c/{code}</p>' in html
    # two addresses: the second with a QR code of its own
    monkeypatch.setattr(class_view, "network_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    html = class_page(client, "http://localhost:8000")
    assert html.count('class="qr"') == 3 and "http://10.0.0.5:8000/c/" in html


def test_class_mode_on_127_0_0_1_without_a_network_says_how_to_get_one(client, monkeypatch):
    monkeypatch.setattr(class_view, "network_addresses", lambda: [])
    html = class_page(client, "http://127.0.0.1:8000")
    assert "n’a d’adresse sur aucun réseau" in html


def test_class_mode_on_a_network_address_says_nothing_more(client, monkeypatch):
    monkeypatch.setattr(class_view, "network_addresses", lambda: ["192.168.1.23"])
    html = class_page(client, "http://192.168.1.23:8000")
    assert "loopback-note" not in html
    assert re.search(r'<p class="join-link">http://192\.168\.1\.23:8000/c/[A-Z0-9]{6}</p>', html)
