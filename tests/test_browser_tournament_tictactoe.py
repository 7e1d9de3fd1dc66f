"""Tic-tac-toe's class tournament rehearsed in Chromium against the README's gunicorn: a
projector (1920x1080, proj=1, French) and three phones (390x844). The teacher's bar links to
the tournament; the teacher opens the entries; each phone, from its class page, sends a bot
(a name and weights of tic-tac-toe's terms); the teacher's list follows them with no reload;
the teacher adds a boss and starts; the phones' pages turn live by themselves, to the end;
the featured game is drawn with X and O; a phone opens a lost game at the move that lost it.
Screenshots: test-artifacts/tournament-ttt-*.png."""
import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, start_class  # noqa: F401

pytestmark = pytest.mark.browser

BOTS = [("Zoé", "lines=1,open2=4"), ("Yann", "center=2,corners=1"), ("Xavier", "open1=1")]


def test_the_phones_enter_their_bots_and_watch_the_class_tournament(contexts, live_server,
                                                                   artifacts):
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/tictactoe?mode=human-human&lang=fr&proj=1")
    teacher.locator("#class-tournament-link").click()
    teacher.locator("#tl-open").click()
    phones = []
    for name, h in BOTS:
        ph = contexts(PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
        ph.goto(f"{live_server}/c/{code}?lang=fr")
        ph.locator("#class-tournament-link").click()
        ph.fill("#tl-name", name)
        ph.fill("#tl-h", h)
        ph.locator("#tl-send").click()
        expect(ph.locator("#tl-entry .voted")).to_contain_text(name)
        assert ph.evaluate("document.documentElement.scrollWidth") <= 390
        phones.append(ph)
    phones[0].screenshot(path=artifacts / "tournament-ttt-phone-entry.png")
    expect(teacher.locator("#tl-entries-box strong")).to_have_count(3)   # no reload
    teacher.check("input[name=boss][value=beginner]")
    teacher.screenshot(path=artifacts / "tournament-ttt-setup.png")
    teacher.locator("#tl-start").click()
    # 4 entrants, 2 openings: 24 games; each phone's page turns live by itself
    for ph in phones:
        expect(ph.locator(".tl-count")).to_contain_text("Terminé\u202f: 24 parties.")
    expect(teacher.locator(".tl-featured .ttt-board")).to_be_visible()
    expect(teacher.locator(".tl-featured .mark").first).to_be_visible()
    assert "projector" in teacher.locator("body").get_attribute("class")
    teacher.screenshot(path=artifacts / "tournament-ttt-projector.png")
    phones[0].screenshot(path=artifacts / "tournament-ttt-phone-live.png", full_page=True)
    # Yann's bot loses one of its games (counts decide: the same on every run)
    loser = phones[1]
    loser.locator("text=Pourquoi mon bot a-t-il perdu").first.click()
    expect(loser.locator("#review-detail")).to_contain_text("Coup")
    assert "/tictactoe/review?" in loser.url and "ply=" in loser.url
    loser.screenshot(path=artifacts / "tournament-ttt-phone-why.png")


def test_a_phone_that_opened_the_page_first_gets_the_form_without_a_reload(contexts,
                                                                          live_server,
                                                                          artifacts):
    """A phone on the tournament's page before the teacher opens the entries: the form
    appears by itself (the class's stream), in the same page (no reload); the bot sent shows
    its accuracy against the solved game."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/tictactoe?mode=human-human&lang=fr&proj=1")
    teacher.locator("#class-tournament-link").click()
    phone = contexts(PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    phone.goto(f"{live_server}/c/{code}?lang=fr")
    phone.locator("#class-tournament-link").click()
    expect(phone.locator(".tl-setup-page")).to_contain_text("pas encore commencé")
    phone.evaluate("window.sameDocument = true")
    phone.screenshot(path=artifacts / "tournament-ttt-phone-before-entries.png")
    teacher.locator("#tl-open").click()
    expect(phone.locator("#tl-entry")).to_be_visible()                       # by itself
    assert phone.evaluate("window.sameDocument === true")                    # no reload
    phone.fill("#tl-name", "Zoé")
    phone.fill("#tl-h", "lines=1,open2=4")
    phone.locator("#tl-send").click()
    expect(phone.locator("#tl-entry .voted")).to_contain_text("précision")
    phone.screenshot(path=artifacts / "tournament-ttt-phone-entries-opened.png")
    expect(teacher.locator("#tl-entries-box .tl-judged")).to_contain_text("précision")
