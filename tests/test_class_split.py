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
