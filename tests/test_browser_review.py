"""Issue 25: the review of a game in Debian's Chromium against the README's gunicorn, at a
phone's, a laptop's and a projector's size, in English and French: the graph and its table,
the marks (sign and word), a blunder's refutation drawn and explained after a click on its
point, and a mistake replayed and passed in "learn from your mistakes". Screenshots go to
test-artifacts/."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GAME = "444455661"     # yellow's 5 and red's 5 are blunders, yellow's 1 an inaccuracy
SIZES = {"phone": (390, 844, ""), "laptop": (1366, 768, ""), "projector": (1920, 1080, "&proj=1")}
WORDS = {"en": {"blunder": "blunder", "why": "Yellow wins in 2 moves", "passed": "Well played",
                "learn": "Learn from your mistakes"},
         "fr": {"blunder": "gaffe", "why": "Jaune gagne en 2 coups", "passed": "Bien joué",
                "learn": "Apprendre de ses erreurs"}}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_review_draws_the_graph_marks_and_a_refutation(page, live_server, artifacts, size, lang):
    w, h, proj = SIZES[size]
    words = WORDS[lang]
    page.set_viewport_size({"width": w, "height": h})
    page.goto(f"{live_server}/connect4/review?moves={GAME}&lang={lang}{proj}")
    expect(page.locator("svg.graph-svg")).to_be_visible()
    expect(page.locator("svg.graph-svg a.pt")).to_have_count(9)
    # the marks: sign and word in the table, both players' blunders
    blunders = page.locator("tr.cls-blunder td.cls")
    expect(blunders).to_have_count(2)
    expect(blunders.first).to_have_text(f"?? {words['blunder']}")
    # a click on red's blunder in the graph: its refutation, numbered on the board, and why
    page.locator("svg.graph-svg a.pt-blunder").nth(1).click()
    expect(page.locator("#review-detail .why")).to_contain_text(words["why"], timeout=30_000)
    expect(page.locator("#review-detail .review-board .disc-n")).not_to_have_count(0)
    assert "ply=6" in page.url
    if size == "projector":
        size_px = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#review-detail .why')).fontSize)")
        assert size_px >= 18
        svg_scale = page.evaluate("document.querySelector('svg.graph-svg').getBoundingClientRect().width / 900")
        assert 22 * svg_scale >= 18          # the graph's words (22 units) read at 18 px or more
    page.screenshot(path=str(artifacts / f"review-{size}-{lang}.png"), full_page=True)


@pytest.mark.parametrize("path", [f"/connect4/review?moves={GAME}", "/tictactoe/review?moves=1593724"])
def test_on_a_phone_each_class_word_of_the_table_stays_on_one_line(page, live_server, path):
    """French's "meilleur" is written "meil-leur" with a soft hyphen, for the narrow hint
    boxes: the table never cuts it, nor parts a sign from its word."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server}{path}&lang=fr")
    cells = page.locator(".review-table td.cls")
    expect(cells.first).to_be_visible()
    lines = page.evaluate("""() => [...document.querySelectorAll('.review-table td.cls')].map(td => {
        const r = document.createRange(); r.selectNodeContents(td);
        return [td.textContent.trim(), r.getBoundingClientRect().height
                / parseFloat(getComputedStyle(td).lineHeight)]; })""")
    assert any("meil\u00adleur" in word for word, _ in lines)      # the soft hyphen is there
    assert all(n < 1.5 for _, n in lines), lines                       # one line each
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_mistake_replayed_and_passed(page, live_server, artifacts, lang):
    words = WORDS[lang]
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server}/connect4/review?moves={GAME}&lang={lang}")
    page.get_by_role("link", name=words["learn"]).click()
    expect(page.locator("#learn-count")).to_be_visible()
    # red's blunder (the second position): 1 loses, explained; then 3 keeps the win
    page.locator('[data-key="next"]').click()
    expect(page.locator("#learn-count")).to_contain_text("6")          # before move 6
    page.locator('#learn a[data-move="1"]').click()
    # (an exact search: the machine's load decides how long it takes, not what it finds)
    expect(page.locator("#learn-verdict")).to_contain_text(words["why"], timeout=30_000)
    expect(page.locator("#learn-verdict .review-board")).to_be_visible()
    page.screenshot(path=str(artifacts / f"review-learn-failed-{lang}.png"), full_page=True)
    page.locator('#learn a[data-move="3"]').click()
    expect(page.locator("#learn-verdict")).to_contain_text(words["passed"], timeout=30_000)
    assert "try=3" in page.url
    assert ("lang=fr" in page.url) == (lang == "fr")         # the language kept in the link


def test_the_teaching_game_warns_and_takes_the_move_back(page, live_server, artifacts):
    page.goto(f"{live_server}/connect4?moves=4444&teach=1")
    page.locator('#game button[data-col="5"]').click()
    expect(page.locator("#teach-warning")).to_contain_text("turns your win into a loss",
                                                           timeout=30_000)
    page.screenshot(path=str(artifacts / "review-teaching-game.png"), full_page=True)
    page.locator('[data-key="takeback"]').click()
    expect(page.locator("#teach-warning")).to_have_count(0)
    assert page.url.endswith("/connect4?moves=4444&teach=1")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", [f"/connect4/review?moves={GAME}&ply=6",
                                  f"/connect4/review?moves={GAME}&ply=6&proj=1&lang=fr",
                                  "/nim/review?moves=123&ply=3",
                                  f"/connect4/review/learn?moves={GAME}&k=1&try=1",
                                  "/connect4?moves=4444&teach=1"])
def test_the_review_pages_pass_the_accessibility_audit(browser, live_server, path, scheme):
    from tests.test_accessibility import audit
    bad = audit(browser, live_server + path, scheme=scheme)
    assert not bad, bad
