"""A class that answers, in Chromium against gunicorn: the teacher's projector (1920x1080,
proj=1) and phones (390x844), each in a browser context of its own. A peer-instruction round
(counts hidden while the vote is open, a discussion with its timer, a re-vote, both
histograms, the exact outcomes), a question on the next step of the tree (in French), a class
exercise with its live dashboard and its CSV. Screenshots in test-artifacts/answer-*.png."""
import csv
import io
import re

import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, join, start_class  # noqa: F401

pytestmark = pytest.mark.browser


def phones(contexts, n, **options):  # noqa: F811
    return [contexts(PHONE, is_mobile=True, has_touch=True, **options) for _ in range(n)]


def test_a_peer_instruction_round_hides_counts_then_shows_both_votes(
        contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR)
    # Nim, 9 matches, take 1 to 3: taking 1 leaves 8, a multiple of 4: the one winning move
    code = start_class(teacher, live_server + "/nim?n=9&k=3&mode=human-human")
    students = phones(contexts, 3)
    for s in students:
        join(s, live_server, code)
    expect(teacher.locator("#class-followers")).to_contain_text("3 students following")

    teacher.keyboard.press("v")
    for s, take in zip(students, "223"):
        s.locator(f'#class-vote button[value="{take}"]').click()
        expect(s.locator("#class-vote")).to_contain_text("The counts are shown when the "
                                                         "teacher closes the vote")
    expect(teacher.locator(".answered-count")).to_have_text("3 of 3 answered")
    expect(teacher.locator(".class-bar .vote-chart")).to_have_count(0)     # no count shown
    teacher.screenshot(path=str(artifacts / "answer-projector-vote-hidden.png"))

    teacher.keyboard.press("v")                                            # closed
    expect(teacher.locator(".class-bar")).to_contain_text("The counts are hidden")
    teacher.locator(".discuss-form select").select_option("60")
    teacher.locator('[data-key="class-discuss"]').click()
    for s in students:
        expect(s.locator(".discuss-student")).to_contain_text("Discuss with your neighbour")
        expect(s.locator(".countdown")).to_have_text(re.compile(r"^[01]:\d\d$"))
    students[0].screenshot(path=str(artifacts / "answer-phone-discuss.png"))

    teacher.keyboard.press("v")                                            # the re-vote
    expect(teacher.locator(".vote-title")).to_have_text("Second vote open")
    for s, take in zip(students, "113"):
        expect(s.locator("#class-vote")).to_contain_text("Vote again, after your discussion")
        s.locator(f'#class-vote button[value="{take}"]').click()
    expect(teacher.locator(".answered-count")).to_have_text("3 of 3 answered")
    teacher.keyboard.press("v")
    charts = teacher.locator(".round-chart")
    expect(charts).to_have_count(2)
    expect(charts.nth(0).locator("text.n")).to_have_text(["0", "2", "1"])
    expect(charts.nth(1).locator("text.n")).to_have_text(["2", "0", "1"])
    teacher.keyboard.press("r")
    expect(teacher.locator(".ai-choice")).to_have_text("The AI would play 1 match here")
    expect(teacher.locator(".class-bar .outcomes")).to_contain_text("1 match: win")
    expect(teacher.locator(".class-bar .outcomes")).to_contain_text("2 matches: loss")
    expect(students[1].locator("#class-vote .outcomes")).to_contain_text("1 match: win")
    teacher.screenshot(path=str(artifacts / "answer-projector-two-votes.png"))
    students[1].screenshot(path=str(artifacts / "answer-phone-outcomes.png"), full_page=True)

    # the summary: the class's choice, the AI's, the truth
    teacher.goto(f"{live_server}/class/{code}/summary")
    row = teacher.locator(".summary-table tbody tr").last
    expect(row).to_contain_text("1 match · wins")
    expect(row).to_contain_text("peer instruction")


def test_a_question_on_the_next_step_in_french(contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR, locale="fr-FR")
    link = "/nim?lang=fr&n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1"
    code = start_class(teacher, live_server + link)
    students = phones(contexts, 2, locale="fr-FR")
    for s in students:
        join(s, live_server, code)
    teacher.keyboard.press(" ")                 # step by step: before the search, then
    expect(teacher).to_have_url(re.compile(r"step=0"))
    teacher.keyboard.press(" ")                 # the root entered
    expect(teacher).to_have_url(re.compile(r"step=1"))
    expect(teacher.locator(".ask-menu")).to_be_visible()
    teacher.get_by_role("button", name="Quel coup la recherche essaie-t-elle ensuite\u202f?").click()
    expect(teacher.locator(".class-question .vote-title")).to_contain_text(
        "Quel coup la recherche essaie-t-elle ensuite au sommet max (racine\u202f; 5 allumettes "
        "restantes)\u202f?")
    for s, take in zip(students, "12"):
        expect(s.locator(".question-student button[name=choice]")).to_have_count(3)
        s.locator(f'.question-student button[value="{take}"]').click()
        expect(s.locator("#class-vote")).to_contain_text(f"Votre réponse\u202f: {take}.")
    expect(teacher.locator(".answered-count")).to_have_text("2 sur 2 ont répondu")
    students[0].screenshot(path=str(artifacts / "answer-phone-question-fr.png"))
    teacher.keyboard.press("r")
    expect(teacher.locator(".question-chart text.n")).to_have_text(["1", "1", "0"])
    expect(teacher.locator(".right-answer")).to_contain_text("Bonne réponse\u202f: 1")
    expect(students[0].locator("#class-vote")).to_contain_text("Vous aviez raison.")
    expect(students[1].locator("#class-vote")).to_contain_text("Vous avez répondu 2.")
    teacher.screenshot(path=str(artifacts / "answer-projector-question-fr.png"))
    teacher.get_by_role("link", name="Jouer l’étape →").click()
    expect(teacher).to_have_url(re.compile(r"step=2"))
    for s in students:                  # the step plays on the phones' boards too
        expect(s.locator("#class-board")).to_contain_text("étape 2")


def test_a_class_exercise_with_its_dashboard_and_csv(contexts, live_server, artifacts):  # noqa: F811
    teacher = contexts(PROJECTOR, accept_downloads=True)
    code = start_class(teacher, live_server + "/nim?n=5&k=3&mode=human-human")
    a, b = phones(contexts, 2)
    for s in (a, b):
        join(s, live_server, code)
    b.locator("input[name=name]").fill("Zoé")
    b.get_by_role("button", name="Save").click()
    teacher.locator(".exercise-start summary").click()
    teacher.locator(".exercise-start select[name=source]").select_option("ex:nim4")
    teacher.locator(".exercise-start select[name=algo]").select_option("minimax")
    teacher.get_by_role("button", name="Send to the class").click()
    expect(teacher.locator(".class-exercise-dashboard")).to_contain_text("0 of 2 finished")
    for s in (a, b):
        expect(s.locator(".exercise-student .tree-scroll svg")).to_be_visible()
    # the course's Nim tree N = 4, minimax: every inner node is worth +1 or -1 for J0
    # the fields' names read in one step: counted, then read one by one, a redraw by the
    # phone's stream in between would leave the count stale
    names = a.wait_for_function("""() => {
        const found = [...document.querySelectorAll(".exercise-student input[name^='v.']")];
        return found.length && found.map(e => e.name); }""").json_value()
    assert "v.R" in names
    from web.classroom.exercise import solved
    from ai.teach.exercise import questions
    right = {q.key: str(int(q.answer)) for q in questions(solved("ex=nim4&algo=minimax")["solved"])}
    for key, value in right.items():
        a.locator(f".exercise-student input[name='{key}']").fill(value)
        b.locator(f".exercise-student input[name='{key}']").fill(
            "-1" if key == "v.R" else value)
    a.get_by_role("button", name="Check my answer").click()
    expect(a.locator(".exercise-student .verdict")).to_have_text("All correct!")
    b.get_by_role("button", name="Check my answer").click()
    expect(b.locator(".exercise-student .verdict")).to_contain_text("right so far")
    expect(teacher.locator(".class-exercise-dashboard .answered-count")).to_have_text(
        "1 of 2 finished · 2 answers sent")
    expect(teacher.locator(".share-caption")).to_contain_text("missed most: R (50 %)")
    teacher.locator(".node-shares li.worst button").click()
    expect(teacher.locator(".node-detail")).to_contain_text("Node R: the first answers given")
    a.screenshot(path=str(artifacts / "answer-phone-exercise.png"), full_page=True)
    teacher.screenshot(path=str(artifacts / "answer-projector-exercise.png"))
    with teacher.expect_download() as got:
        teacher.get_by_role("link", name="CSV per student").click()
    with open(got.value.path(), encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(io.StringIO(f.read())))
    assert [(r["student"], r["nickname"], r["finished"]) for r in rows] == [
        ("S01", "", "yes"), ("S02", "Zoé", "no")]
