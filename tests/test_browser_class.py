"""Class mode in Chromium against the README's gunicorn: the teacher's page and three
students' pages, each in a browser context of its own (separate cookies, as three phones).
The teacher plays, the students' boards follow; they vote, the teacher's chart shows 3 votes;
a student explores on their own and rejoins. Screenshots: a phone, a laptop, a projector in
French (test-artifacts/class-*.png)."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture()
def contexts(browser):
    opened = []

    def new(viewport, **options):
        context = browser.new_context(viewport=viewport, **options)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        return page

    yield new
    for context in opened:
        context.close()


def boxes(page, *selectors) -> dict:
    """The boxes of every element each of ``selectors`` finds, found and measured in one step
    in the page, once each finds one: a locator's ``bounding_box`` finds its element, then
    measures it in a second round trip, and a live update that redraws it in between measures
    an element no longer in the page (None)."""
    return page.wait_for_function("""selectors => {
        const found = {};
        for (const s of selectors) {
            found[s] = Array.from(document.querySelectorAll(s), e => {
                const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; });
            if (!found[s].length) return null;
        }
        return found; }""", arg=list(selectors)).json_value()


def box(page, selector) -> dict:
    """The box of the first element ``selector`` finds, found and measured in one step
    (``boxes``): where a class's live stream may redraw it between two round trips."""
    return boxes(page, selector)[selector][0]


def start_class(teacher, url):
    """The teacher opens a game page and turns on class mode: the class's code."""
    teacher.goto(url)
    teacher.locator('[data-key="class"]').click()
    expect(teacher.locator(".class-bar .class-code")).to_be_visible()
    return teacher.locator(".class-bar .class-code").inner_text().strip()


def join(page, base, code):
    page.goto(f"{base}/c/{code}")
    expect(page.locator("#class-live[data-live='on']")).to_have_count(1)   # the stream is open


def test_three_students_follow_the_teacher_and_vote(contexts, live_server, artifacts):
    teacher = contexts(LAPTOP)
    code = start_class(teacher, live_server + "/connect4?mode=human-human")
    assert "cls=" + code in teacher.url and "proj=1" in teacher.url
    students = [contexts(PHONE, is_mobile=True, has_touch=True) for _ in range(3)]
    for s in students:
        join(s, live_server, code)
    expect(teacher.locator("#class-followers")).to_contain_text("3 students following")

    # the teacher plays: every student's board follows, without a reload
    teacher.locator('#game button[data-col="4"]').click()
    teacher.locator('#game button[data-col="3"]').click()
    for s in students:
        expect(s.locator("#class-board .disc")).to_have_count(2)
        expect(s.locator("#class-board .status")).to_contain_text("Yellow to play")

    # the vote: students choose on their phones, the projector counts (live: the teacher
    # turns off "counts hidden until the vote closes", on by default)
    teacher.get_by_role("button", name="Show them live").click()
    teacher.keyboard.press("v")
    for s, col in zip(students, "443"):
        s.locator(f'#class-vote button[value="{col}"]').click()
        expect(s.locator("#class-vote")).to_contain_text(f"Your vote: column {col}")
    expect(teacher.locator(".vote-title")).to_have_text("Vote open: 3 votes")
    expect(teacher.locator(".vote-chart text.n")).to_have_text(["0", "0", "1", "2", "0", "0", "0"])
    students[0].reload()                                     # a reload keeps the vote
    expect(students[0].locator("#class-vote")).to_contain_text("Your vote: column 4")
    students[0].screenshot(path=str(artifacts / "class-phone-student.png"), full_page=True)
    teacher.screenshot(path=str(artifacts / "class-laptop-teacher-vote.png"))

    # closed: the teacher plays the class's choice, then reveals the AI's
    teacher.keyboard.press("v")
    expect(teacher.locator(".vote-title")).to_have_text("Vote closed: 3 votes")
    teacher.keyboard.press("p")
    for s in students:
        expect(s.locator("#class-board .disc")).to_have_count(3)
        expect(s.locator("#class-vote")).to_contain_text("The vote is closed.")
    teacher.keyboard.press("r")
    expect(teacher.locator(".ai-choice")).to_contain_text("The AI would have played column")
    expect(students[1].locator("#class-vote")).to_contain_text("The AI would have played column")
    # its tree is that of the vote's position: the board goes back to it (the class's move
    # kept, one click away), the students' boards too
    teacher.locator('[data-key="class-tree"]').click()
    expect(teacher.locator("#tree-panel")).to_be_visible()
    for s in students:                                        # the tree is on the projector
        expect(s.locator("#class-board")).to_contain_text("the search tree")
        expect(s.locator("#class-board .status")).to_contain_text("Viewing move 2 of 3")

    # a student explores on their own, then rejoins in one click
    explorer = students[2]
    explorer.get_by_role("link", name="Explore from here on my own").click()
    expect(explorer.locator("#game")).to_be_visible()
    explorer.locator('#game button[data-col="1"]').click()
    explorer.get_by_role("link", name=f"Rejoin class {code}").click()
    expect(explorer.locator("#class-live[data-live='on']")).to_have_count(1)
    expect(explorer.locator("#class-board .disc")).to_have_count(2)
    expect(explorer.locator("h1")).to_have_count(1)


def test_the_projector_view_in_french_and_a_student_after_the_class_ends(
        contexts, live_server, artifacts):
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, live_server + "/connect4?lang=fr&moves=4453&tree=1")
    assert "lang=fr" in teacher.url and "proj=1" in teacher.url
    expect(teacher.locator("#tree-panel")).to_be_visible()
    student = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    join(student, live_server, code)
    expect(student.locator("h1")).to_contain_text(f"Classe {code}")
    # a long nickname fits its field whole on the phone: the French label ("Votre pseudo
    # (facultatif)") wraps rather than squeeze the field to five letters
    student.locator("#nickname-field").fill("Samira-la-grande")
    assert student.evaluate("""() => { const f = document.getElementById("nickname-field");
                                       return f.scrollWidth <= f.clientWidth; }""")
    teacher.keyboard.press("v")
    student.locator('#class-vote button[value="3"]').click()
    expect(teacher.locator(".vote-title")).to_have_text("Vote ouvert")      # counts hidden
    expect(teacher.locator(".answered-count")).to_have_text("1 sur 1 a répondu")
    expect(teacher.locator("#class-followers")).to_have_text("1 élève suit")
    teacher.screenshot(path=str(artifacts / "class-projector-fr.png"))
    student.screenshot(path=str(artifacts / "class-phone-student-fr.png"), full_page=True)
    # the teacher ends the class: the student's page says so
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.locator(".class-more > summary").click()
    teacher.get_by_role("button", name="Terminer la classe").click()
    expect(student.locator(".class-ended")).to_contain_text(
        re.compile(f"La classe {code} est terminée"))
    expect(teacher.locator(".class-ended")).to_contain_text(f"La classe {code} est terminée")
    expect(teacher.locator(".class-bar")).to_have_count(0)


def test_a_server_restarted_mid_lesson_loses_nothing_and_pages_reconnect(contexts, tmp_path):
    """The whole server stopped (every worker killed with SIGKILL, then the master) and
    started again on the same address: the move and the ballot are still there, the
    student's page reconnects by itself, and the teacher's next move reaches it."""
    import os
    import signal

    from conftest import _free_port, class_env, start_gunicorn, stop_gunicorn

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = class_env(str(tmp_path))
    server = start_gunicorn(port, env, "gunicorn-restart.log")
    try:
        teacher = contexts(LAPTOP)
        code = start_class(teacher, base + "/connect4?mode=human-human")
        student = contexts(PHONE, is_mobile=True, has_touch=True)
        join(student, base, code)
        teacher.locator('#game button[data-col="4"]').click()
        expect(student.locator("#class-board .disc")).to_have_count(1)
        teacher.keyboard.press("v")
        student.locator('#class-vote button[value="5"]').click()
        expect(teacher.locator(".answered-count")).to_have_text("1 of 1 answered")

        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text()
        workers = [int(pid) for pid in children.split()]
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        server.kill()
        server.wait()
        expect(student.locator("#class-live[data-live='reconnecting']")).to_have_count(1)
        server = start_gunicorn(port, env, "gunicorn-restart.log")

        # the student's page is back by itself, with the board and the ballot
        expect(student.locator("#class-live[data-live='on']")).to_have_count(1, timeout=30_000)
        expect(student.locator("#class-board .disc")).to_have_count(1)
        expect(student.locator("#class-vote")).to_contain_text("Your vote: column 5")
        # the teacher's page goes on: the next move reaches the student, the count is kept
        expect(teacher.locator(".answered-count")).to_have_text("1 of 1 answered",
                                                                timeout=30_000)
        teacher.locator('#game button[data-col="3"]').click()
        expect(student.locator("#class-board .disc")).to_have_count(2)
    finally:
        stop_gunicorn(server)


def axe_violations(page):
    """Serious and critical violations found by axe-core (vendored) in ``page`` as it is."""
    from test_accessibility import AXE

    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang, scheme", [("en", "light"), ("fr", "light"), ("en", "dark")])
def test_class_pages_pass_the_accessibility_audit(contexts, live_server, lang, scheme):
    teacher = contexts(LAPTOP, bypass_csp=True, color_scheme=scheme)
    code = start_class(teacher, f"{live_server}/connect4?moves=44&lang={lang}")
    student = contexts(PHONE, bypass_csp=True, color_scheme=scheme)
    join(student, live_server, code + f"?lang={lang}")
    assert axe_violations(student) == []
    teacher.keyboard.press("v")
    expect(student.locator("#class-vote button")).to_have_count(7)
    student.locator('#class-vote button[value="4"]').click()
    expect(teacher.locator(".class-live .answered-count")).to_be_visible()   # counts hidden
    assert axe_violations(student) == []
    assert axe_violations(teacher) == []
    student.goto(f"{live_server}/c/ZZZZZZ?lang={lang}")          # the page of a bad code
    assert axe_violations(student) == []


@pytest.mark.parametrize("lang, other_view, names", [
    ("fr", PHONE, ("Réglages de la classe", "Enseigner depuis un autre appareil",
                   "Enseigner à cette classe")),
    ("en", LAPTOP, ("Class settings", "Teach from another device", "Teach this class"))])
def test_the_teacher_link_takes_the_class_to_another_device_only_when_asked(
        contexts, live_server, artifacts, lang, other_view, names):
    """The projector's settings show no secret until "Teach from another device" is opened;
    the link's key is after '#' (never sent), and the other device becomes the teacher only
    with its button."""
    settings, another, confirm = names
    teacher = contexts(PROJECTOR)
    code = start_class(teacher, f"{live_server}/connect4?lang={lang}&moves=44")
    teacher.locator(".class-more > summary").click()
    expect(teacher.get_by_text(settings)).to_be_visible()
    expect(teacher.locator(".teacher-link .link-field")).to_be_hidden()   # not on the screen
    teacher.screenshot(path=str(artifacts / f"class-projector-settings-{lang}.png"))
    teacher.get_by_text(another).click()
    link = teacher.locator(".teacher-link .link-field").input_value()
    assert f"/class/{code}/teach#key=" in link and "?key=" not in link
    other = contexts(other_view, is_mobile=other_view is PHONE, has_touch=other_view is PHONE,
                     bypass_csp=True, locale="fr-FR" if lang == "fr" else "en-GB")
    other.goto(link)
    expect(other.locator("h1")).to_contain_text(code)
    expect(other.locator(".key-field")).not_to_have_value("")     # filled from the link
    assert "#key" not in other.url and "key=" not in other.url    # and gone from the address
    other.screenshot(path=str(artifacts / f"class-teach-link-{lang}.png"), full_page=True)
    assert axe_violations(other) == []
    other.get_by_role("button", name=confirm).click()
    expect(other.locator(".class-bar .class-code")).to_have_text(code)   # its teacher now


def test_a_ballot_sent_while_the_store_is_locked_is_told_to_try_again(contexts, tmp_path,
                                                                     artifacts):
    """An admin's sqlite3 shell holds the class database's write lock while a student votes:
    the phone says, in French, to try again (nothing counted, nothing lost); once the lock is
    gone the same button counts the vote."""
    import sqlite3

    from conftest import _free_port, class_env, start_gunicorn, stop_gunicorn

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = class_env(str(tmp_path))
    server = start_gunicorn(port, env, "gunicorn-locked.log")
    try:
        teacher = contexts(LAPTOP)
        code = start_class(teacher, base + "/connect4?mode=human-human&lang=fr")
        student = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
        join(student, base, code)
        teacher.keyboard.press("v")
        expect(student.locator('#class-vote button[value="4"]')).to_be_visible()
        shell = sqlite3.connect(env["CLASS_DB"], isolation_level=None)
        shell.execute("BEGIN IMMEDIATE")
        try:
            student.locator('#class-vote button[value="4"]').click()
            expect(student.locator("#class-vote .error")).to_contain_text(
                "ne peut pas être joint pour l’instant")
            student.screenshot(path=str(artifacts / "class-phone-vote-busy-fr.png"),
                               full_page=True)
        finally:
            shell.execute("ROLLBACK")
            shell.close()
        expect(teacher.locator(".answered-count")).to_have_text("0 sur 1 a répondu")
        student.locator('#class-vote button[value="4"]').click()      # the same button again
        expect(student.locator("#class-vote")).to_contain_text("Votre vote")
        expect(teacher.locator(".answered-count")).to_have_text("1 sur 1 a répondu")
    finally:
        stop_gunicorn(server)


LABEL_UNDER_FIELD = """() => {
    const label = document.querySelector('label[for="nickname-field"]');
    const f = document.getElementById("nickname-field").getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(label);
    const lines = Array.from(range.getClientRects());
    return {lines: lines.length, under: lines.filter(r => r.right > f.left + 0.5 && r.left < f.right
        && r.bottom > f.top + 0.5 && r.top < f.bottom).map(r => [r.left, r.right, r.top])};
}"""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_nickname_s_label_is_clear_of_its_field_on_a_phone(contexts, live_server, lang):
    """The label beside a phone's nickname field: its column could shrink below its longest
    word, and "(facultatif)", "nickname" ran under the field ("(facultati", seen on the phones
    of a rehearsal); no line of it under the field."""
    teacher = contexts(LAPTOP)
    code = start_class(teacher, live_server + "/nim?mode=human-human")
    student = contexts(PHONE, is_mobile=True, has_touch=True)
    student.goto(f"{live_server}/c/{code}?lang={lang}")
    expect(student.locator("#nickname-field")).to_be_visible()
    found = student.evaluate(LABEL_UNDER_FIELD)
    assert found["lines"] and not found["under"], found
    assert student.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_class_started_from_a_tree_step_by_step_stays_at_its_step(contexts, live_server):
    """A course card opened step by step (seed 005's table card, at its step 0: nothing of
    the search shown yet), stepped on with Space, then class mode turned on: the class's
    board was the card's link without its step, so the projector drew the whole tree, every
    value the class was about to be asked, at once (seen rehearsing the table card). The
    class starts at the step the teacher was at, and the phones follow that step."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    teacher.goto(live_server + "/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom"
                 "&algo=alphabeta-tt&depth=4&order=natural&tree=1&step=0&proj=1&lang=fr")
    for step in (1, 2):
        teacher.keyboard.press(" ")
        expect(teacher).to_have_url(re.compile(rf"step={step}\b"))
    a_class_started_here_is_at_step_2(teacher, contexts, live_server)   # as it was stepped


def a_class_started_here_is_at_step_2(teacher, contexts, live_server):  # noqa: F811
    """The teacher, at step 2 of a tree, presses "Class mode": the class starts there, on
    the projector and on a French phone."""
    teacher.locator('[data-key="class"]').click()
    expect(teacher.locator(".class-bar .class-code")).to_be_visible()
    code = teacher.locator(".class-bar .class-code").inner_text().strip()
    expect(teacher).to_have_url(re.compile(r"step=2\b"))
    expect(teacher.locator("#tree-panel")).to_contain_text("étape 2 sur")
    student = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    join(student, live_server, code)
    expect(student.locator("#class-board")).to_contain_text("étape 2 sur")


def test_a_class_started_without_javascript_at_a_tree_s_step_stays_at_its_step(contexts,
                                                                               live_server):
    """The same, in a browser with JavaScript off: each step is a whole page (a plain link
    to its ``step=``), and the "Class mode" form of that page sent the game's link without
    the step, so the projector drew the whole tree (the page's script put the step back,
    6dc74a6, but no script runs here). The class starts at the step the teacher was at."""
    teacher = contexts(PROJECTOR, locale="fr-FR", java_script_enabled=False)
    teacher.goto(live_server + "/connect4?w=4&h=4&moves=1111222&mode=human-human&level=custom"
                 "&algo=alphabeta-tt&depth=4&order=natural&tree=1&step=0&proj=1&lang=fr")
    for step in (1, 2):
        teacher.locator('#tree-panel [data-key="step"]').click()
        expect(teacher).to_have_url(re.compile(rf"step={step}\b"))
    a_class_started_here_is_at_step_2(teacher, contexts, live_server)


def test_the_vote_s_buttons_line_up_with_the_bar_s_on_the_teacher_s_phone(contexts, live_server):
    """The teacher's bar on a phone, a vote open then closed: "Close the vote" sat 16 px in
    from the bar's other buttons (its form closed the paragraph meant to hold it, and an empty
    paragraph and a gap came before it). Every button of the vote starts where "Join screen"
    does, on its row's left."""
    teacher = contexts(PHONE, is_mobile=True, has_touch=True)
    start_class(teacher, live_server + "/nim?mode=human-human&lang=fr")
    teacher.locator("[data-close-lobby]").click()
    teacher.get_by_role("button", name="Ouvrir un vote").click()
    expect(teacher.get_by_role("button", name="Clore le vote")).to_be_visible()
    left = box(teacher, ".class-bar [data-open-lobby]")["x"]
    assert box(teacher, '.class-bar [data-key="class-vote"]')["x"] == pytest.approx(left, abs=1)
    teacher.get_by_role("button", name="Clore le vote").click()
    expect(teacher.get_by_role("button", name="Montrer les décomptes")).to_be_visible()
    assert box(teacher, ".class-bar .vote-actions button")["x"] == pytest.approx(left, abs=1)
