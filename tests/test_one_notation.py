"""One notation for the projector, the phone, the lab and the CSV (issue 36: "one module that
writes them for the projector, the phone, the lab, the review and the CSV"): the same value
is the same string on each, read and written by ``web.notation`` (``read_value``,
``read_number``; ``value_text``, ``number_value``, ``value_message``): −∞ where the window is [−∞, +∞]
(the lab's mark, its tree, the class's reveal, the lesson's CSV and the exercise's CSV), and
−M/+M where the course's window is [−maxScore, +maxScore] in the course's notation. The
lesson's and the exercise's CSV cells still go through ``web.spreadsheet``."""
import csv
import io
import re

import pytest

from test_class_answering import bar
from test_class_values import COURSE_LINK, INFINITE_LINK, ask_window, send

HX = {"HX-Request": "true"}
AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"        # the lab's first example: α at its root is −∞
NN = "\u202f"


@pytest.fixture()
def app(make_app):
    return make_app()


def text(html: str) -> str:
    """What a page says, its narrow no-break spaces kept."""
    import html as entities
    return re.sub(r"[ \t\r\n]+", " ", entities.unescape(re.sub(r"<[^>]+>", " ", html)))


def rows(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    body = response.get_data(as_text=True).lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(body), delimiter=";" if ";" in body[:200] else ","))


def exercise_csvs(app, teacher, code, source: dict, answer: dict):
    """A class exercise of ``source`` answered by one phone with ``answer``: its two CSVs, in
    French, (the row of the root's α per question, the phone's row per student)."""
    bar(teacher, code, "exercise?lang=fr", action="start", **source)
    from test_classroom import student
    phone = student(app, code)
    seq = re.search(r'name="seq" value="(\d+)"',
                    phone.get(f"/c/{code}?lang=fr").get_data(as_text=True)).group(1)
    assert phone.post(f"/c/{code}/exercise?lang=fr", data={"seq": seq, **answer},
                      headers=HX).status_code == 200
    per_q = rows(teacher.get(f"/class/{code}/exercise.csv?per=question&lang=fr"))
    per_s = rows(teacher.get(f"/class/{code}/exercise.csv?per=student&lang=fr"))
    return next(r for r in per_q if r["node"] == "R" and r["asked"] == "alpha"), per_s[0]


def test_minus_infinity_is_one_string_on_the_projector_the_phone_the_lab_and_the_csv(app):
    teacher, code, phones, seq, _ = ask_window(app, INFINITE_LINK, "fr")
    send(phones[0], code, seq, "fr", number="-inf")
    send(phones[1], code, seq, "fr", number="−∞")
    send(phones[2], code, seq, "fr", value="-inf")
    projector = text(bar(teacher, code, "ask?lang=fr", action="reveal"))
    phone = text(phones[0].get(f"/c/{code}?lang=fr").get_data(as_text=True))
    assert f"Bonne réponse{NN}: −∞" in projector and f"Bonne réponse{NN}: −∞." in phone
    lesson = rows(teacher.get(f"/class/{code}/summary.csv?lang=fr"))
    assert any("−∞" in row.values() for row in lesson)
    # the lab: its tree, and its mark at a second wrong try, write −∞ as the projector does
    lab = text(app.test_client().get(f"/tree?t={AIMA}&lang=fr").get_data(as_text=True))
    assert "α −∞" in lab and "-∞" not in lab
    marked = text(app.test_client().get(
        f"/tree?t={AIMA}&mode=exercise&check=1&a.R=3&w=a.R&lang=fr").get_data(as_text=True))
    assert f"α{NN}: c’est −∞, pas 3" in marked and "-∞" not in marked
    # the class exercise's CSV: the answer and the phone's typed "-inf" written −∞
    root, student_row = exercise_csvs(app, teacher, code, {"source": "link",
                                      "link": f"/tree?t={AIMA}"}, {"a.R": "-inf"})
    assert root["answer"] == "−∞" and root["right_first_try"] == "1"
    assert student_row["a.R"] == "−∞"


def test_minus_m_is_one_string_on_the_projector_the_phone_the_lab_and_the_csv(app):
    teacher, code, phones, seq, _ = ask_window(app, COURSE_LINK, "fr")
    send(phones[0], code, seq, "fr", number="−M")
    projector = text(bar(teacher, code, "ask?lang=fr", action="reveal"))
    phone = text(phones[0].get(f"/c/{code}?lang=fr").get_data(as_text=True))
    assert f"Bonne réponse{NN}: −M" in projector and f"Bonne réponse{NN}: −M." in phone
    lesson = rows(teacher.get(f"/class/{code}/summary.csv?lang=fr"))
    assert any("−M" in row.values() for row in lesson)
    # the lab's 5-matches tree with the course's window, in the course's notation: the
    # root's window α = −M, β = +M as on the projector (maxScore = 1 there, its largest leaf)
    lab = text(app.test_client().get(
        "/tree?ex=nim5&notation=course&lang=fr").get_data(as_text=True))
    assert "fenêtre à l’entrée α −M, β +M" in lab and "maxScore = 1 ici" in lab
    plain = text(app.test_client().get("/tree?ex=nim5&lang=fr").get_data(as_text=True))
    assert "α -1, β 1" in plain                     # in the plies' notation, the numbers
    # the class exercise (the class's board in the course's notation): −M typed, −M written
    root, student_row = exercise_csvs(app, teacher, code, {"source": "ex:nim5"},
                                      {"a.R": "-M"})
    assert root["answer"] == "−M" and root["right_first_try"] == "1"
    assert student_row["a.R"] == "−M"


def test_the_lab_reads_answers_as_the_class_does():
    """``web.notation.read_number``: the class's reader, maxScore being the tree's largest
    leaf (the course's estimate M − 3/5 too)."""
    from web.notation import read_number
    assert [read_number(raw, 1) for raw in ("−M", "-M", "+M", "M − 3/5", "−M + 3/5", "2,5",
                                            "−∞", "-inf", "∞")] == \
        [-1, -1, 1, 0.4, -0.4, 2.5, float("-inf"), float("-inf"), float("inf")]
    assert read_number("lots", 1) == "lots"


def test_the_join_link_is_the_class_s_code_alone(app):
    """The projector's join link (and its QR code) names the class only: a phone writes in
    the class's notation whatever its link says (the link wrapped on the projector,
    "…/c/J8KTQU?notat-ion=course")."""
    from test_classroom import start_class
    teacher, code, _ = start_class(app, COURSE_LINK)
    html = teacher.get(f"{COURSE_LINK}&cls={code}&proj=1&lang=fr").get_data(as_text=True)
    links = set(re.findall(r"https?://[^\s\"<]*/c/" + code + r"[^\s\"<]*", html))
    assert links and all(link.endswith("/c/" + code) for link in links), links


def test_a_lab_page_that_answers_400_writes_m_as_the_page_does(app):
    """A wrong setting in the link is a 400 that keeps the tree it names, with that tree's
    own settings: the course's 5-matches tree in its window, α = −M, β = +M in the course's
    notation (it showed AIMA's tree, α −∞); a wrong step keeps the whole link, −M too."""
    client = app.test_client()
    for link in ("/tree?ex=nim5&notation=course&lang=fr&order=x",
                 "/tree?ex=nim5&notation=course&lang=fr&step=999"):
        response = client.get(link)
        page = text(response.get_data(as_text=True))
        assert response.status_code == 400
        assert "fenêtre à l’entrée α −M, β +M" in page and "α -1" not in page
        assert "α −∞" not in page
    exercise = client.get("/tree?ex=nim5&mode=exercise&order=x&lang=fr")
    assert exercise.status_code == 400 and "fenêtre à l’entrée" not in \
        text(exercise.get_data(as_text=True))          # still the exercise, no solution shown


def test_the_course_s_depth_2_tree_writes_its_estimates_as_the_course_does(app):
    """Seed 003's depth-2 tree scores its leaves +maxScore − remaining/5 (maxScore = 1): in
    the course's notation the lab writes them as the course and the game's tree on the
    projector do, M − 3/5 where the plies' notation writes 0,4; its marks too."""
    client = app.test_client()
    course = text(client.get("/tree?ex=nim5d2&notation=course&lang=fr").get_data(as_text=True))
    assert "valeur M − 3/5, fenêtre à l’entrée α −M, β +M" in course
    assert "M − 1/5" in course and "0,4" not in course and "0,8" not in course
    plies = text(client.get("/tree?ex=nim5d2&lang=fr").get_data(as_text=True))
    assert "valeur 0,4" in plies and "M − 3/5" not in plies
    # under the window [−∞, +∞] its 1 is not +M, nor its 0,4 M − 3/5
    infinite = text(client.get("/tree?ex=nim5d2&window=infinite&notation=course&lang=fr")
                    .get_data(as_text=True))
    assert "valeur 0,4" in infinite and "M − 3/5" not in infinite
    # a second wrong try at min 1's value: the mark gives the answer as the tree writes it
    marked = text(client.get("/tree?ex=nim5d2&notation=course&lang=fr&mode=exercise&check=1"
                             "&v.1=0,6&w=v.1").get_data(as_text=True))
    assert f"valeur{NN}: c’est M − 3/5, pas M − 2/5" in marked
    read = text(client.get("/tree?ex=nim5d2&notation=course&lang=fr&mode=exercise&check=1"
                           "&v.1=M − 3/5").get_data(as_text=True))
    assert "1 réponse juste sur" in read            # typed as the tree writes it, and right


def test_the_lab_s_count_of_right_answers_is_pluralised_in_french(app):
    """French takes the singular for 0 and 1: "0 réponse juste sur 14", "2 réponses justes"."""
    client = app.test_client()
    none = text(client.get(f"/tree?t={AIMA}&mode=exercise&check=1&v.R=1&lang=fr")
                .get_data(as_text=True))
    assert "0 réponse juste sur" in none and "0 réponses" not in none
    two = text(client.get(f"/tree?t={AIMA}&mode=exercise&check=1&v.R=3&v.1=3&lang=fr")
               .get_data(as_text=True))
    assert "2 réponses justes sur" in two
    english = text(client.get(f"/tree?t={AIMA}&mode=exercise&check=1&v.R=1")
                   .get_data(as_text=True))
    assert "0 of " in english and " right so far." in english
