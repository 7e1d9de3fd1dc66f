"""The join screen (the lobby: the class's QR code at the top of the projector) in Chromium
against gunicorn, as a teacher expects it: a teacher who asks the class something has started,
so the first vote folds it away (and a reload keeps it folded; the server's part, a question
or an exercise as well, is in tests/test_class_lobby.py); Escape closes it whether it is in
the page or over it (the j key). Screenshots in test-artifacts/lobby-*.png."""
import pytest
from playwright.sync_api import expect

from test_browser_class import PROJECTOR, contexts, start_class  # noqa: F401

pytestmark = pytest.mark.browser

def test_the_first_vote_folds_the_join_screen_away(contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    start_class(teacher, live_server + "/connect4?mode=human-human&lang=fr")
    lobby = teacher.locator("#class-lobby")
    expect(lobby).to_be_visible()
    teacher.keyboard.press("v")                               # a vote, before "Commencer"
    expect(teacher.locator(".vote-title")).to_contain_text("Vote ouvert")
    expect(lobby).to_be_hidden()
    teacher.keyboard.press("v")                               # closed
    expect(teacher.locator(".vote-title")).to_contain_text("Vote clos")
    expect(lobby).to_be_hidden()
    teacher.screenshot(path=str(artifacts / "lobby-after-vote-fr.png"))
    teacher.reload()                                          # and the page drawn anew
    expect(teacher.locator(".vote-title")).to_contain_text("Vote clos")
    expect(lobby).to_be_hidden()


def test_escape_closes_the_join_screen_in_the_page_and_over_it(contexts, live_server):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    start_class(teacher, live_server + "/connect4?mode=human-human&lang=fr")
    lobby = teacher.locator("#class-lobby")
    expect(lobby).to_be_visible()
    assert not teacher.evaluate("document.getElementById('class-lobby').matches(':modal')")
    teacher.keyboard.press("Escape")                          # in the page
    expect(lobby).to_be_hidden()
    teacher.keyboard.press("j")                               # over everything
    expect(lobby).to_be_visible()
    assert teacher.evaluate("document.getElementById('class-lobby').matches(':modal')")
    teacher.keyboard.press("Escape")
    expect(lobby).to_be_hidden()
