"""The 5-matches lesson in Chromium against gunicorn, as issue 36 rehearses it: the projector
(1920x1080, French) asks an α question and three phones (390x844) answer it each way the
projector writes −M (the pad, the keyboard, the −M button), all counted right; the question,
its count and its chart stay in view while the teacher steps the tree; the bar's nicknames
collapse to their count. Screenshots in test-artifacts/values-*.png."""
import re

import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, box, contexts, join, start_class  # noqa: F401

pytestmark = pytest.mark.browser

LESSON = ("/nim?lang=fr&n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1"
          "&notation=course&window=course")


def test_minus_m_answered_three_ways_stays_in_view_while_the_tree_steps(
        contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + LESSON)
    phones = [contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR") for _ in range(3)]
    for s in phones:
        join(s, live_server, code)
    teacher.keyboard.press(" ")                 # step by step: before the search, then
    expect(teacher).to_have_url(re.compile(r"step=0"))
    teacher.keyboard.press(" ")                 # the root entered
    expect(teacher).to_have_url(re.compile(r"step=1"))
    teacher.get_by_role("button", name=re.compile("Que vaut α ici")).click()
    expect(teacher.locator(".class-question .vote-title")).to_contain_text("min 4 (après 1)")
    for s in phones:
        expect(s.locator(".question-student h2")).to_contain_text("min 4 (après 1)")
    # the field is wide enough for its value, its hint whole below it; the keys thumb-sized
    field = box(phones[0], "#value-field")        # (each in one step: the stream may redraw)
    assert field["width"] >= 200 and field["height"] >= 48
    key = box(phones[0], '[data-pad="7"]')
    assert key["width"] >= 48 and key["height"] >= 48
    expect(phones[0].locator(".value-hint")).to_contain_text("−∞, +∞")
    phones[0].screenshot(path=str(artifacts / "values-phone-asked.png"))
    phones[0].locator('[data-pad="−"]').click()              # the pad: − then M
    phones[0].locator('[data-pad="M"]').click()
    expect(phones[0].locator("#value-field")).to_have_value("−M")
    phones[0].get_by_role("button", name="Envoyer").click()
    phones[1].locator("#value-field").fill("-M")              # typed with a hyphen
    phones[1].get_by_role("button", name="Envoyer").click()
    phones[2].locator('button[name="value"][value="-M"]').click()    # the −M button
    for s in phones:
        expect(s.locator("#class-vote")).to_contain_text("Votre réponse\u202f: −M.")
    expect(teacher.locator(".class-question .answered-count")).to_have_text("3 sur 3 ont répondu")
    expect(phones[0].locator(".question-split")).to_have_count(0)   # no split before the reveal
    for step in range(2, 6):                # the teacher steps on: the question stays in view
        teacher.keyboard.press(" ")
        expect(teacher).to_have_url(re.compile(rf"step={step}\b"))
    assert teacher.evaluate("scrollY") > 0               # the page scrolled with the tree,
    expect(teacher.locator(".class-question")).to_be_in_viewport(ratio=1)   # not the question
    teacher.screenshot(path=str(artifacts / "values-projector-stepped.png"))
    teacher.keyboard.press("r")
    expect(teacher.locator(".right-answer")).to_contain_text("Bonne réponse\u202f: −M")
    expect(teacher.locator(".right-answer")).to_contain_text(re.compile(r"100\W% de la classe a juste"))
    expect(teacher.locator(".class-question .question-chart")).to_be_in_viewport(ratio=1)
    for s in phones:
        expect(s.locator("#class-vote")).to_contain_text("Bonne réponse\u202f: −M. Vous aviez raison.")
        # the class's split after the reveal, the student's own answer marked, on the screen
        split = s.locator(".question-split .split-row.right.mine")
        expect(split).to_contain_text("100\u202f%")
        expect(split).to_be_in_viewport(ratio=1)
    assert phones[0].evaluate("document.documentElement.scrollWidth") <= 390
    # past the answer's step, Space steps the tree on (not back to the answer's step)
    teacher.keyboard.press(" ")
    expect(teacher).to_have_url(re.compile(r"step=6\b"))
    teacher.screenshot(path=str(artifacts / "values-projector-revealed.png"))
    phones[0].screenshot(path=str(artifacts / "values-phone-revealed.png"))


def test_twenty_four_nicknames_collapse_to_their_count(browser, contexts, live_server,  # noqa: F811
                                                       artifacts):
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/nim?lang=fr&n=5&k=3&mode=human-human")
    teacher.locator("[data-close-lobby]").click()           # the join screen: "Start"
    expect(teacher.locator("#class-lobby")).to_be_hidden()
    opened = []
    bar_before = None
    for i in range(24):
        c = browser.new_context()
        opened.append(c)
        assert c.request.get(f"{live_server}/c/{code}").ok
        assert c.request.post(f"{live_server}/c/{code}/name",
                              form={"name": f"Élève {i + 1:02d}"}).ok
        if i == 0:                          # the bar with one nickname
            expect(teacher.locator(".bar-names .names-count")).to_have_text(
                re.compile(r"1 pseudo\W:"))
            bar_before = box(teacher, ".class-bar")["height"]   # (the bar's stream redraws it)
    try:
        count = teacher.locator(".bar-names .names-count")
        expect(count).to_have_text(re.compile(r"24 pseudos\W:"))
        expect(teacher.locator(".bar-names .name-chip").first).to_be_hidden()
        # the bar no taller with 24 nicknames than with one
        teacher.screenshot(path=str(artifacts / "values-projector-names-collapsed.png"))
        assert box(teacher, ".class-bar")["height"] <= bar_before + 2
        count.click()
        expect(teacher.locator(".bar-names .name-chip").first).to_be_visible()
        assert box(teacher, ".bar-names .name-chips")["height"] <= 110
        teacher.screenshot(path=str(artifacts / "values-projector-names.png"))
        count.click()
        expect(teacher.locator(".bar-names .name-chip").first).to_be_hidden()
    finally:
        for c in opened:
            c.close()


def test_a_class_exercise_fits_a_phone_and_its_verdict_comes_into_view(
        contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/nim?lang=fr&n=5&k=3&mode=human-human")
    sent = teacher.context.request.post(
        f"{live_server}/class/{code}/exercise", headers={"HX-Request": "true"},
        form={"action": "start", "source": "ex:nim5", "algo": "alphabeta"})
    assert sent.ok
    phone = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    join(phone, live_server, code)
    tree = phone.locator(".exercise-student .tree-scroll")
    expect(tree).to_be_visible()
    # found and measured in one step: the phone's stream may redraw the exercise meanwhile
    widths = phone.wait_for_function("""() => {
        const e = document.querySelector('.exercise-student .tree-scroll');
        return e && [e.scrollWidth, e.clientWidth]; }""").json_value()
    assert widths[0] <= widths[1] + 1, widths            # no sideways scroll
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_role("button", name="Vérifier ma réponse").click()
    verdict = phone.locator(".exercise-student .verdict")
    expect(verdict).to_contain_text("pour l’instant")
    expect(verdict).to_be_in_viewport(ratio=1)          # whole, in sight, not above the fold
    phone.screenshot(path=str(artifacts / "values-phone-exercise-verdict.png"))


def test_a_field_corrected_right_after_the_verdict_keeps_what_the_student_typed(
        contexts, live_server):  # noqa: F811
    """The phone's own check wakes its stream (so that a drawing read before the check does
    not stay, web.classroom.store.tally_event), which sends the vote area the check's reply
    has just drawn: it is not swapped in again, and a field the student started to correct
    at once keeps what they typed. The student is a script here, typing as soon as the
    verdict is in; the test waits for the stream's message before it looks."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/nim?lang=fr&n=5&k=3&mode=human-human")
    assert teacher.context.request.post(
        f"{live_server}/class/{code}/exercise", headers={"HX-Request": "true"},
        form={"action": "start", "source": "ex:nim5", "algo": "alphabeta"}).ok
    phone = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    phone.add_init_script("""
        window.voteMessages = 0;
        document.addEventListener('htmx:sseBeforeMessage', function (e) {
          if (e.detail.type === 'vote') window.voteMessages += 1; });
        document.addEventListener('htmx:afterSettle', function (e) {
          var elt = e.detail.requestConfig && e.detail.requestConfig.elt;
          if (elt && elt.closest && elt.closest('.exercise-student')) {
            document.querySelector('.exercise-student input[name="v.R"]').value = '7';
          }});""")
    join(phone, live_server, code)
    phone.wait_for_function("() => window.voteMessages >= 1")   # the stream's first drawing
    expect(phone.locator(".exercise-student .tree-scroll")).to_be_visible()
    sent = phone.evaluate("window.voteMessages")
    phone.get_by_role("button", name="Vérifier ma réponse").click()
    expect(phone.locator(".exercise-student .verdict")).to_contain_text("pour l’instant")
    phone.wait_for_function("n => window.voteMessages > n", arg=sent)   # the stream's, after
    expect(phone.locator('.exercise-student input[name="v.R"]')).to_have_value("7")
    expect(phone.locator(".exercise-student .verdict")).to_contain_text("pour l’instant")


TREE_TEXT = """() => [...document.querySelectorAll('svg.tree-svg text')]
    .filter(t => t.textContent.trim() && t.getBoundingClientRect().width)
    .map(t => [t.textContent.trim(),
               parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a,
                                                                     t.getScreenCTM().b)])"""


def test_the_tree_s_labels_read_at_18_px_beside_the_class_s_question(
        contexts, live_server, artifacts):  # noqa: F811
    """Issue 36, on the projector (1920x1080, proj=1): with the class's question beside it,
    the 5-matches tree was fitted into its 822 px panel, 1,267 units wide, and wrote "α −M"
    and "β +M" under the root in 13 px (10 px with three phones' bar): every text of the tree
    is 18 px or more now, at the step the question is asked, after its reveal and further
    on (the tree's box scrolls across, the step's node in view)."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    start_class(teacher, live_server + LESSON + "&proj=1")
    teacher.keyboard.press(" ")
    expect(teacher).to_have_url(re.compile(r"step=0"))
    teacher.keyboard.press(" ")
    expect(teacher).to_have_url(re.compile(r"step=1"))
    teacher.get_by_role("button", name=re.compile("Que vaut α ici")).click()
    expect(teacher.locator(".class-question .vote-title")).to_contain_text("min 4 (après 1)")
    asked = teacher.evaluate(TREE_TEXT)
    assert {"α −M", "β +M"} <= {text for text, _ in asked}, asked
    reveal = teacher.locator('.class-bar [data-key="class-reveal"]')
    expect(reveal).to_be_visible()
    reveal.click()
    expect(teacher.locator(".right-answer")).to_contain_text("Bonne réponse\u202f: −M")
    revealed = teacher.evaluate(TREE_TEXT)
    teacher.screenshot(path=str(artifacts / "values-projector-labels-revealed.png"))
    for step in range(2, 13):           # the tree's own forward button, step after step
        teacher.locator('#tree-panel [data-key="step"]').click()
        expect(teacher.locator("#tree-panel .step-count")).to_have_text(f"étape {step} sur 22")
    expect(teacher.locator(".tnode.current")).to_be_in_viewport()
    stepped = teacher.evaluate(TREE_TEXT)
    teacher.screenshot(path=str(artifacts / "values-projector-labels-step12.png"))
    assert len(stepped) > len(asked)
    small = [(text, round(px, 1)) for text, px in asked + revealed + stepped if px < 18 - 0.05]
    assert not small, small


def test_the_lab_s_depth_2_tree_on_the_projector_in_the_course_s_notation(
        browser, live_server, artifacts):
    """The lab under gunicorn draws its tree in a thread of the pool: it wrote the course's
    5-matches depth-2 tree with -1 and 0,4 there (its ±M set in the request's greenlet was
    not in that thread's ``g``), where the course writes −M and M − 3/5; its labels 18 px or
    more on the projector."""
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(live_server + "/tree?ex=nim5d2&notation=course&lang=fr&proj=1")
    texts = page.evaluate(TREE_TEXT)
    page.screenshot(path=str(artifacts / "values-lab-depth-2-projector.png"))
    page.close()
    written = {text for text, _ in texts}
    assert {"M − 3/5", "M − 1/5", "α −M", "β +M"} <= written, written
    assert not {"0,4", "α -1", "β 1"} & written, written
    small = [(text, round(px, 1)) for text, px in texts if px < 18 - 0.05]
    assert not small, small


def test_a_number_typed_and_sent_with_the_keyboard_s_enter_is_the_one_sent(
        contexts, live_server, artifacts):  # noqa: F811
    """A phone types its value in the field and sends it with its keyboard's Enter (Go), as a
    phone's keyboard invites: the form's first button was −M's, so the browser sent −M in
    the student's name (seen rehearsing Nim's alpha-beta card: "1" typed, "Votre réponse : −M")."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + LESSON)
    phone = contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    join(phone, live_server, code)
    for step in range(2):
        teacher.keyboard.press(" ")
        expect(teacher).to_have_url(re.compile(rf"step={step}\b"))
    teacher.get_by_role("button", name=re.compile("Que vaut α ici")).click()
    expect(phone.locator("#value-field")).to_be_visible()
    phone.locator("#value-field").fill("1")
    phone.locator("#value-field").press("Enter")
    expect(phone.locator("#class-vote")).to_contain_text("Votre réponse\u202f: 1.")
    phone.screenshot(path=str(artifacts / "values-phone-enter.png"))


LABELS_OVERLAP = """() => {
    const boxes = Array.from(document.querySelectorAll('.class-question .question-chart text.label'),
                             t => t.getBoundingClientRect());
    const overlaps = [];
    for (let i = 1; i < boxes.length; i++)
        if (boxes[i].left < boxes[i - 1].right - 0.5) overlaps.push([i, boxes[i - 1].right, boxes[i].left]);
    return {labels: boxes.length, overlaps, smallest: Math.min(...Array.from(
        document.querySelectorAll('.class-question .question-chart text.label'),
        t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))};
}"""


def test_the_answers_chart_on_the_projector_keeps_each_value_apart(
        contexts, live_server, artifacts):  # noqa: F811
    """The chart of a value question's answers, revealed on the projector: each bar was 60
    units wide whatever its label, and "M − 1/5" ran into "−M" beside it ("−MM − 1/5", seen
    rehearsing Nim's alpha-beta card); each label clear of the next, at 18 px and more."""
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + LESSON)
    phones = [contexts(PHONE, is_mobile=True, has_touch=True, locale="fr-FR") for _ in range(3)]
    for s in phones:
        join(s, live_server, code)
    for step in range(2):
        teacher.keyboard.press(" ")
        expect(teacher).to_have_url(re.compile(rf"step={step}\b"))
    teacher.get_by_role("button", name=re.compile("Que vaut α ici")).click()
    for s, typed in zip(phones, ("M − 1/5", "-M", "-inf")):
        s.locator("#value-field").fill(typed)
        s.get_by_role("button", name="Envoyer").click()
        expect(s.locator("#class-vote")).to_contain_text("Votre réponse")
    expect(teacher.locator(".class-question .answered-count")).to_have_text("3 sur 3 ont répondu")
    teacher.keyboard.press("r")
    expect(teacher.locator(".class-question .question-chart text.label")).to_have_count(3)
    found = teacher.evaluate(LABELS_OVERLAP)
    teacher.screenshot(path=str(artifacts / "values-projector-chart-labels.png"))
    assert found["labels"] == 3 and not found["overlaps"], found
    assert found["smallest"] >= 18, found
