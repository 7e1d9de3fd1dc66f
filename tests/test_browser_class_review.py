"""A class game's review in Chromium against gunicorn (issue 25): the teacher, on a projector
(1920x1080, proj=1, French), ends a Nim game and shows its review to the class; a phone
(390x844) shows the review in place of the vote and follows the move the teacher selects.
Screenshots: test-artifacts/class-review-*.png."""
import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, join, start_class  # noqa: F401

pytestmark = pytest.mark.browser


def test_the_projector_shows_the_review_and_the_phone_follows(contexts, live_server,  # noqa: F811
                                                               artifacts):
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server
                       + "/nim?n=5&k=3&mode=human-human&moves=211&proj=1&lang=fr")
    phone = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    join(phone, live_server, code)
    teacher.locator("[data-close-lobby]").click()
    teacher.locator('#game button[data-move="1"]').click()        # the last match: over
    expect(phone.locator("#class-board .status")).to_contain_text("Victoire")
    expect(phone.locator("#class-vote")).not_to_contain_text("analyse")

    teacher.get_by_role("button", name="Montrer l’analyse à la classe").click()
    expect(teacher.locator(".class-review-note")).to_contain_text(
        "Affichée sur les téléphones des élèves")
    assert "proj=1" in teacher.url and f"cls={code}" in teacher.url
    expect(phone.locator("#class-vote .class-review-title")).to_have_text(
        "L’enseignant montre l’analyse de la partie")
    expect(phone.locator("#class-vote .review-summary")).to_be_visible()
    expect(phone.locator("#class-vote .review-table tbody tr")).to_have_count(4)
    teacher.screenshot(path=str(artifacts / "class-review-projector-top-fr.png"))

    teacher.locator('.review-table a[data-ply="2"]').click()     # the teacher selects move 2
    expect(teacher.locator("#review-detail h2")).to_contain_text("Coup 2")
    expect(phone.locator("#class-vote #review-detail h2")).to_contain_text("Coup 2")
    expect(phone.locator("#class-vote #review-detail .kept")).to_contain_text("3")
    teacher.screenshot(path=str(artifacts / "class-review-projector-fr.png"))
    phone.screenshot(path=str(artifacts / "class-review-phone-fr.png"), full_page=True)
