"""The class's split on the phones after a question's reveal (issue 36: "the class's vote split
is never shown on the phones after the reveal, what Kahoot and Wooclap users expect"): once
the teacher reveals the answer, each phone shows the share of each answer, the right one and
the student's own marked, in the page's language; never before the reveal."""
import re

import pytest

from test_class_answering import bar, text
from test_class_values import COURSE_LINK, ask_window, send


@pytest.fixture()
def app(make_app):
    return make_app()


def split(html: str) -> list[tuple[str, str, str]]:
    """The phone's split: (answer, share, marks) per row (the share as written, its narrow
    no-break space kept)."""
    rows = re.findall(r'<li class="split-row([^"]*)">(.*?)</li>', html, re.S)
    return [(text(re.search(r'class="split-label">(.*?)</span>', body, re.S).group(1)).strip(),
             re.search(r'class="split-share">(.*?)</span>', body, re.S).group(1).strip(),
             cls.strip()) for cls, body in rows]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_phone_shows_the_class_s_split_after_the_reveal_and_never_before(app, lang):
    teacher, code, phones, seq, page = ask_window(app, COURSE_LINK, lang)
    assert "split-row" not in page                               # asked: nothing yet
    send(phones[0], code, seq, lang, number="−M")
    send(phones[1], code, seq, lang, number="-M")
    send(phones[2], code, seq, lang, value="-M", number="")
    answered = phones[3].post(f"/c/{code}/answer?lang={lang}",
                              data={"seq": seq, "number": "0"},
                              headers={"HX-Request": "true"}).get_data(as_text=True)
    before = phones[3].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    for html in (answered, before):                              # answered, not revealed
        assert "split-row" not in html and "75" not in text(html)
    bar(teacher, code, f"ask?lang={lang}", action="reveal")
    nnbsp = "\u202f" if lang == "fr" else " "
    wrong = phones[3].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    assert split(wrong) == [("−M", f"75{nnbsp}%", "right"), ("0", f"25{nnbsp}%", "mine")]
    right = phones[1].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    assert split(right) == [("−M", f"75{nnbsp}%", "right mine"), ("0", f"25{nnbsp}%", "")]
    words = {"en": ("How the class answered (4 answers):", "right answer", "your answer"),
             "fr": (f"Comment la classe a répondu (4 réponses){nnbsp}:", "bonne réponse",
                    "votre réponse")}[lang]
    for w in words:
        assert w in re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", wrong))
    # a student who did not answer sees the split, nothing marked as theirs
    late = phones[0].__class__(app)
    assert "mine" not in "".join(c for *_, c in split(
        late.get(f"/c/{code}?lang={lang}").get_data(as_text=True)))


def test_after_the_reveal_space_plays_the_answer_s_step_then_steps_on(app):
    """The projector's Space presses the page's first [data-key=step]: after a reveal, the
    bar's "Play the step" (the answer's step); once the board is there, the tree's "forward"
    (it stayed on the answer's step, press after press, until the question was hidden)."""
    teacher, code, phones, seq, _ = ask_window(app, COURSE_LINK, "en")
    send(phones[0], code, seq, "en", number="-M")
    bar(teacher, code, "ask", action="reveal")

    def space(step):                # the link Space follows on the teacher's page at ``step``
        link = COURSE_LINK.replace("step=1", f"step={step}")
        assert teacher.post(f"/class/{code}/sync", data={"link": link},
                            headers={"HX-Request": "true"}).status_code == 204
        html = teacher.get(f"{link}&cls={code}").get_data(as_text=True)
        return re.search(r'<a [^>]*data-key="step"[^>]*>', html).group(0)

    first = space(1)
    assert "Play the step" not in first and "step=2" in first      # the answer's step
    assert "step=3" in space(2)                                      # then on, one by one
    assert "step=4" in space(3)
