"""A class that answers, through Flask's test client on both stores (SQLite, then a real
redis-server): peer instruction on the vote (counts hidden until it closes, a discussion, a
re-vote on the same position, both histograms, the AI's choice with the exact outcome of
every move), a question about the next step of the real tree, a class exercise with its
dashboard and its CSV, the summary of the rounds. Only the teacher can run them; a student
answers once per question; bad input is a clear 4xx."""
import csv
import io
import re

import pytest

from test_classroom import start_class, student

HX = {"HX-Request": "true"}


@pytest.fixture()
def app(make_app):
    return make_app()


def bar(teacher, code, path, **data):
    r = teacher.post(f"/class/{code}/{path}", data=data, headers=HX)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    return r.get_data(as_text=True)


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_peer_instruction_hides_counts_then_shows_both_votes_and_the_truth(app):
    # Nim, 5 matches, take at most 3: taking 1 leaves 4, a multiple of k+1: the only win
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    opened = text(bar(teacher, code, "vote", action="open"))
    assert "Vote open" in opened and "0 of 0 answered" in opened
    students = [student(app, code) for _ in range(4)]
    for s, take in zip(students, "2231"):
        assert s.post(f"/c/{code}/vote", data={"round": "1", "choice": take},
                      headers=HX).status_code == 200
    page = text(teacher.get(f"/nim?n=5&k=3&mode=human-human&cls={code}&proj=1")
                .get_data(as_text=True))
    assert "4 of 4 answered" in page and page.count("Counts hidden until the vote closes.") == 1
    assert "2 votes" not in page                    # no count of any move while it is open
    phone = text(students[0].get(f"/c/{code}").get_data(as_text=True))
    assert "The counts are shown when the teacher closes the vote" in phone

    closed = text(bar(teacher, code, "vote", action="close"))
    assert "The counts are hidden" in closed and "Show the counts" in closed
    discuss = text(bar(teacher, code, "peer", action="discuss", seconds="60"))
    assert "Discuss with your neighbour" in discuss and "Vote again" in discuss
    assert re.search(r"\b[01]:\d\d\b", discuss)            # the timer
    phone = text(students[0].get(f"/c/{code}").get_data(as_text=True))
    assert "Explain your choice to your neighbour" in phone

    revote = text(bar(teacher, code, "peer", action="revote"))
    assert "Second vote open" in revote and "0 of 4 answered" in revote
    assert "Vote again, after your discussion" in text(
        students[0].get(f"/c/{code}").get_data(as_text=True))
    for s, take in zip(students, "1131"):                 # minds changed: round 2
        assert s.post(f"/c/{code}/vote", data={"round": "2", "choice": take},
                      headers=HX).status_code == 200
    both = bar(teacher, code, "vote", action="close")
    assert "First vote" in both and "After discussion" in both
    charts = re.findall(r'<figure class="round-chart">.*?</figure>', both, re.S)
    assert len(charts) == 2
    counts = [re.findall(r'class="n"[^>]*>(\d+)<', c) for c in charts]
    assert counts == [["1", "2", "1"], ["3", "0", "1"]]     # take 1, 2, 3: first, then second

    shown = text(bar(teacher, code, "peer", action="reveal"))
    assert "The AI would play 1 match" in shown
    assert "1 match: win" in shown and "2 matches: loss" in shown and "3 matches: loss" in shown

    summary = text(teacher.get(f"/class/{code}/summary").get_data(as_text=True))
    assert "1 match" in summary
    rows = list(csv.DictReader(io.StringIO(
        teacher.get(f"/class/{code}/summary.csv").get_data(as_text=True).lstrip("\ufeff"))))
    second = next(r for r in rows if r["round"] == "2")
    assert (second["class_choice"], second["class_choice_outcome"], second["ai_choice"],
            second["best_outcome"], second["peer_instruction"]) == ("1", "win", "1", "win", "yes")


def test_counts_can_be_shown_live_instead(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    bar(teacher, code, "peer", action="hide", value="0")
    bar(teacher, code, "vote", action="open")
    student(app, code).post(f"/c/{code}/vote", data={"round": "1", "choice": "2"}, headers=HX)
    live = text(teacher.get(f"/nim?n=5&k=3&mode=human-human&cls={code}")
                .get_data(as_text=True))
    # the counts live, and how many answered (i26-live: "45 of 60 answered" on every vote)
    assert "Vote open: 1 vote" in live and "1 of 1 answered" in live


def test_only_the_teacher_runs_peer_instruction_questions_and_exercises(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    s = student(app, code)
    for path, data in (("peer", {"action": "hide", "value": "0"}),
                       ("ask", {"kind": "value"}),
                       ("exercise", {"action": "start", "source": "ex:nim5"})):
        assert s.post(f"/class/{code}/{path}", data=data, headers=HX).status_code == 403
    assert s.get(f"/class/{code}/exercise.csv").status_code == 403
    assert s.get(f"/class/{code}/summary").status_code == 403
    for path, data in (("peer", {"action": "explode"}), ("ask", {"kind": "nonsense"}),
                       ("exercise", {"action": "start", "source": "nowhere"}),
                       ("peer", {"action": "discuss", "seconds": "9999"})):
        r = teacher.post(f"/class/{code}/{path}", data=data, headers=HX)
        assert 400 <= r.status_code < 500


def test_a_question_on_the_next_step_counts_each_answer_once_then_reveals_and_steps(app):
    # Nim 5, depth 2 alpha-beta, the tree replayed to its first step: the root was entered
    link = "/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1&step=1"
    teacher, code, _ = start_class(app, link)
    page = text(teacher.get(f"{link}&cls={code}&proj=1").get_data(as_text=True))
    assert "Ask the class about the next step" in page
    asked = text(bar(teacher, code, "ask", kind="move"))
    assert "Which move does the search try next at max (root; 5 matches left)?" in asked
    assert "0 of 0 answered" in asked
    students = [student(app, code) for _ in range(3)]
    phone = students[0].get(f"/c/{code}").get_data(as_text=True)
    choices = re.findall(r'name="choice" value="([^"]+)"', phone)
    assert choices == ["1", "2", "3"]
    seq = re.search(r'name="seq" value="(\d+)"', phone).group(1)
    for s, c in zip(students, "112"):
        assert s.post(f"/c/{code}/answer", data={"seq": seq, "choice": c},
                      headers=HX).status_code == 200
    again = students[0].post(f"/c/{code}/answer", data={"seq": seq, "choice": "3"}, headers=HX)
    assert again.status_code == 200 and "Your answer: 1" in text(again.get_data(as_text=True))
    assert "3 of 3 answered" in text(teacher.get(f"{link}&cls={code}&proj=1")
                                     .get_data(as_text=True))
    shown = bar(teacher, code, "ask", action="reveal")
    assert re.findall(r'class="n"[^>]*>(\d+)<', shown) == ["2", "1", "0"]
    assert "Right answer: 1" in text(shown) and "67 % of the class right" in text(shown)
    assert "step=2" in re.search(r'href="([^"]+)"[^>]*data-key="step"', shown).group(1)
    late = student(app, code).post(f"/c/{code}/answer", data={"seq": seq, "choice": "1"},
                                   headers=HX)
    assert late.status_code == 400                         # closed: not counted


def test_a_number_question_takes_typed_numbers_and_refuses_words(app):
    link = "/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1&step=1"
    teacher, code, _ = start_class(app, link)
    asked = text(bar(teacher, code, "ask", kind="window"))
    assert "What is α at" in asked
    s = student(app, code)
    seq = re.search(r'name="seq" value="(\d+)"', s.get(f"/c/{code}").get_data(as_text=True))
    assert s.post(f"/c/{code}/answer", data={"seq": seq.group(1), "number": "lots"},
                  headers=HX).status_code == 400
    assert s.post(f"/c/{code}/answer", data={"seq": seq.group(1), "number": "-inf"},
                  headers=HX).status_code == 200


def test_a_class_exercise_marks_each_phone_and_the_dashboard_and_csv_follow(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    sent = text(bar(teacher, code, "exercise", action="start", source="ex:nim4",
                    algo="minimax"))
    assert "Class exercise" in sent and "0 of 0 finished" in sent
    a, b = student(app, code), student(app, code)
    b.post(f"/c/{code}/name", data={"name": "Zoé"}, headers=HX)
    phone = a.get(f"/c/{code}").get_data(as_text=True)
    assert "Check my answer" in phone and 'class="tree' in phone
    seq = re.search(r'name="seq" value="(\d+)"', phone).group(1)
    fields = re.findall(r'name="(v\.[^"]+)"', phone)
    assert "v.R" in fields
    # the course's Nim tree N = 4: J0 (max) wins from 4 (+1)
    from web.classroom.exercise import solved
    from ai.teach.exercise import questions
    lab = solved("ex=nim4&algo=minimax")
    right = {q.key: str(int(q.answer)) for q in questions(lab["solved"])}
    ok = a.post(f"/c/{code}/exercise", data={"seq": seq, **right}, headers=HX)
    assert ok.status_code == 200 and "All correct!" in text(ok.get_data(as_text=True))
    wrong = {k: ("-1" if k == "v.R" else v) for k, v in right.items()}
    marked = text(b.post(f"/c/{code}/exercise", data={"seq": seq, **wrong},
                         headers=HX).get_data(as_text=True))
    assert "All correct" not in marked and "right so far" in marked
    board = text(teacher.get(f"/nim?n=5&k=3&mode=human-human&cls={code}&proj=1")
                 .get_data(as_text=True))
    assert "1 of 2 finished" in board and "missed most: R (50 %)" in board
    opened = text(bar(teacher, code, "exercise", action="open", node="R"))
    assert "Node R: the first answers given" in opened
    per_q = list(csv.DictReader(io.StringIO(teacher.get(
        f"/class/{code}/exercise.csv?per=question").get_data(as_text=True).lstrip("\ufeff"))))
    root = next(r for r in per_q if r["node"] == "R" and r["asked"] == "value")
    assert (root["answered"], root["right_first_try"], root["most_common_wrong"]) == (
        "2", "1", "-1")
    per_s = list(csv.DictReader(io.StringIO(teacher.get(
        f"/class/{code}/exercise.csv?per=student").get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r["student"], r["nickname"], r["finished"]) for r in per_s] == [
        ("S01", "", "yes"), ("S02", "Zoé", "no")]
    # after the class: the CSV is still there for its teacher
    bar(teacher, code, "end")
    assert teacher.get(f"/class/{code}/exercise.csv?per=student").status_code == 200


def replay_questions(app, link):
    """Every step of the replay ``link`` shows, with the questions it can ask."""
    from urllib.parse import parse_qsl, urlsplit
    from werkzeug.datastructures import MultiDict
    from web.classroom.questions import questions_at
    from web.classroom.view import stored_game
    from web.tree_panel import tree_panel

    query = urlsplit(link).query
    with app.test_request_context(link):
        g = stored_game("nim", query)
        args = MultiDict(parse_qsl(query))
        panel = tree_panel(g, args)
        out = []
        for step in range(len(panel.result.tree.events) + 1):
            panel.go_to_step(step)
            out.append((step, questions_at(panel)))
        return panel.result.tree, out


def test_each_question_is_answered_by_the_step_it_plays(app):
    # Nim 6 (take 1 to 3), alpha-beta to depth 3: the course's game, a tree with cut-offs
    tree, steps = replay_questions(
        app, "/nim?n=6&k=3&mode=human-human&algo=alphabeta&depth=3&level=custom&tree=1&step=0")
    seen = {"window": 0, "value": 0, "move": 0, "yes": 0, "no": 0}
    for step, found in steps:
        for kind, q in found.items():
            if q is None or isinstance(q, int):
                assert q is None or q > step            # "step on to ...": a step ahead
                continue
            e = tree.events[q.then - 1]
            if kind == "window":
                assert e[0] in ("enter", "update")
                assert q.answer == number_text(e[2] if q.what == "alpha" else e[3])
            elif kind == "value":
                assert e[0] in ("leaf", "exit", "table") and q.answer == number_text(e[2])
            elif kind == "move":
                assert e[0] == "enter" and q.answer == str(tree.nodes[e[1]].move)
                assert q.answer in q.choices and len(q.choices) >= 2
            else:
                nxt = tree.events[q.then - 1] if q.answer == "yes" else tree.events[q.then]
                assert (nxt[0] == "cut") == (q.answer == "yes")
                seen[q.answer] += 1
                continue
            seen[kind] += 1
    assert all(seen.values()), seen          # every kind asked, cut-offs both ways


def number_text(v):
    from web.classroom.questions import number_text as nt
    return nt(v)


def test_a_lesson_plan_link_opens_a_class_whose_bar_runs_its_items(app):
    plan = ("vote /nim?n=5&k=3&mode=human-human\n"
            "ask-move /nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom"
            "&tree=1&step=1\n"
            "exercise /tree?ex=nim4&algo=minimax\n"
            "jump /nowhere\n")
    teacher = app.test_client()
    page = teacher.get("/class/plan", query_string={"plan": plan})
    assert page.status_code == 200
    shown = text(page.get_data(as_text=True))
    assert "3 items" in shown and "line 4" in shown            # the wrong line is named
    started = teacher.post("/class/plan/start", data={"plan": plan})
    assert started.status_code == 303
    code = re.search(r"cls=([A-Z0-9]{6})", started.headers["Location"]).group(1)
    board = text(teacher.get(started.headers["Location"]).get_data(as_text=True))
    assert "Lesson plan: item 1 of 3" in board
    go = teacher.post(f"/class/{code}/plan", data={"action": "go", "item": "0"}, headers=HX)
    assert go.status_code == 204 and f"cls={code}" in go.headers["HX-Redirect"]
    state = app.extensions["class_store"].get(code)
    assert state.vote_open and state.round == 1                # item 1: its vote is open
    teacher.post(f"/class/{code}/plan", data={"action": "go", "item": "1"}, headers=HX)
    phone = student(app, code).get(f"/c/{code}").get_data(as_text=True)
    assert "Which move does the search try next" in text(phone)  # item 2: its question
    shown = text(bar(teacher, code, "plan", action="go", item="2"))
    assert "Class exercise" in shown                             # item 3: the exercise
    added = text(bar(teacher, code, "plan", action="add", verb="vote"))
    assert "item 4 of 4" in added
    assert student(app, code).post(f"/class/{code}/plan", data={"action": "clear"},
                                   headers=HX).status_code == 403
