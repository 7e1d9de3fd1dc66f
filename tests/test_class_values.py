"""A class's value questions answered as the projector and the course write values: typed
"−M", typed "-M", the −M button, "−∞" where the window is [−∞, +∞], a French comma; every way
counted right, the reveal in the projector's notation (never -9998), in English and French."""
import re

import pytest

from test_class_answering import HX, bar, text
from test_classroom import start_class, student

# the 5-matches lesson (seed 003) in the course's notation: alpha-beta to depth 2 with the
# course's window [−M, +M]; at step 1 the search is about to enter the node after 1, whose
# α on entry is a loss, −M on the projector
COURSE_LINK = ("/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=2&level=custom&tree=1"
               "&notation=course&window=course&step=1")
# the same game searched to the end with the window [−∞, +∞]: the root's α is −∞
INFINITE_LINK = ("/nim?n=5&k=3&mode=human-human&algo=alphabeta&depth=5&level=custom&tree=1"
                 "&notation=course&step=0")
WORDS = {"en": ("Right answer: %s", "%s %% of the class right", "You were right."),
         "fr": ("Bonne réponse : %s", "%s %% de la classe a juste", "Vous aviez raison.")}


@pytest.fixture()
def app(make_app):
    return make_app()


def ask_window(app, link, lang):
    teacher, code, _ = start_class(app, link)
    asked = bar(teacher, code, f"ask?lang={lang}", kind="window")
    assert "α" in text(asked)
    phones = [student(app, code) for _ in range(4)]
    page = phones[0].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    return teacher, code, phones, seq, page


def hint(page):
    """The value pad's hint on a phone's page."""
    return text(re.search(r'id="value-hint">(.*?)</p>', page, re.S).group(1))


def send(phone, code, seq, lang, **answer):
    r = phone.post(f"/c/{code}/answer?lang={lang}", data={"seq": seq, **answer}, headers=HX)
    assert r.status_code == 200, r.get_data(as_text=True)[:400]
    return text(r.get_data(as_text=True))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_minus_m_typed_either_way_or_tapped_is_right_and_revealed_as_minus_m(app, lang):
    teacher, code, phones, seq, page = ask_window(app, COURSE_LINK, lang)
    # the phone offers the projector's values as buttons, and a field with a pad
    assert re.findall(r'name="value" value="([^"]+)"[^>]*>([^<]+)<', page) == [
        ("-M", "−M"), ("M", "+M"), ("-inf", "−∞"), ("inf", "+∞")]
    assert 'name="number"' in page and 'data-pad="0"' in page
    # the pad types every character of the projector's values, the course's estimate too
    pad = set(re.findall(r'data-pad="([^"]+)"', page))
    assert pad >= set("0123456789M∞−/")
    mark, other = (",", ".") if lang == "fr" else (".", ",")     # the page's decimal mark
    assert mark in pad and other not in pad
    # the hint names the course's estimate only where the tree writes one (this one has none)
    assert "−M, +M, −∞, +∞" in hint(page) and "M − 1/5" not in hint(page)
    send(phones[0], code, seq, lang, number="−M")           # typed, the course's minus sign
    send(phones[1], code, seq, lang, number="-M")           # typed, a hyphen
    send(phones[2], code, seq, lang, value="-M", number="")  # the −M button
    send(phones[3], code, seq, lang, number="0")            # wrong
    shown = bar(teacher, code, f"ask?lang={lang}", action="reveal")
    right, share, _ = WORDS[lang]
    assert right % "−M" in text(shown) and share % "75" in text(shown)
    assert "9998" not in shown and "9999" not in shown
    labels = re.findall(r'class="label"[^>]*>([^<]*)<', shown)
    counts = re.findall(r'class="n"[^>]*>(\d+)<', shown)
    assert dict(zip(labels, counts)) == {"−M": "3", "0": "1"}     # −M written three ways: one bar
    phone = text(phones[2].get(f"/c/{code}?lang={lang}").get_data(as_text=True))
    assert (right % "−M") in phone and WORDS[lang][2] in phone
    # the lesson's summary and its CSV write it as the projector did
    summary = text(teacher.get(f"/class/{code}/summary?lang={lang}").get_data(as_text=True))
    assert right % "−M" in summary and "9998" not in summary
    sheet = teacher.get(f"/class/{code}/summary.csv?lang={lang}").get_data(as_text=True)
    row = next(r for r in sheet.splitlines() if r.startswith("question"))
    assert "−M" in row and "9998" not in row


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_minus_infinity_typed_or_tapped_is_right_where_the_window_is_infinite(app, lang):
    teacher, code, phones, seq, _ = ask_window(app, INFINITE_LINK, lang)
    send(phones[0], code, seq, lang, number="−∞")
    send(phones[1], code, seq, lang, number="-inf")
    send(phones[2], code, seq, lang, value="-inf")
    send(phones[3], code, seq, lang, number="-M")            # a loss, not −∞: wrong
    shown = text(bar(teacher, code, f"ask?lang={lang}", action="reveal"))
    right, share, _ = WORDS[lang]
    assert right % "−∞" in shown and share % "75" in shown


# the course's figure 2-2 (the 5 matches after the AI took 1, alpha-beta to depth 2 with the
# course's window and estimate): at step 14 the search scores the node after 1, 3, whose
# value the projector writes M − 1/5
ESTIMATE_LINK = ("/nim?n=5&mode=ai-human&level=custom&heur=course&order=reverse&moves=1&tree=1"
                 "&algo=alphabeta&depth=2&window=course&td=2&step=14&notation=course")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_courses_estimate_typed_on_the_pad_is_right(app, lang):
    teacher, code, _ = start_class(app, ESTIMATE_LINK)
    assert "1, 3)" in text(bar(teacher, code, f"ask?lang={lang}", kind="value"))   # max 1
    phones = [student(app, code) for _ in range(3)]
    page = phones[0].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    assert "M − 1/5" in hint(page)                      # the tree writes it: the hint says so
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    send(phones[0], code, seq, lang, number="M−1/5")        # the pad's keys: M − 1 / 5
    send(phones[1], code, seq, lang, number="M - 1/5")      # typed
    send(phones[2], code, seq, lang, number="M")            # a win, not the estimate: wrong
    shown = text(bar(teacher, code, f"ask?lang={lang}", action="reveal"))
    right, share, _ = WORDS[lang]
    assert right % "M − 1/5" in shown and share % "67" in shown


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_courses_estimate_as_a_decimal_after_m_is_right_when_it_is_exactly_that(app, lang):
    """M − 1/5 is M − 0,2 or M - 0.2 too (read as the fraction the decimal writes); M − 0,3
    is another value, counted wrong, not refused."""
    teacher, code, _ = start_class(app, ESTIMATE_LINK)
    bar(teacher, code, f"ask?lang={lang}", kind="value")
    phones = [student(app, code) for _ in range(5)]
    page = phones[0].get(f"/c/{code}?lang={lang}").get_data(as_text=True)
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    for phone, typed in zip(phones, ("M − 0,2", "M - 0.2", "m-0,20", "M − 0,3", "M − 0,19")):
        send(phone, code, seq, lang, number=typed)
    shown = text(bar(teacher, code, f"ask?lang={lang}", action="reveal"))
    right, share, _ = WORDS[lang]
    assert right % "M − 1/5" in shown and share % "60" in shown


def test_a_decimal_after_m_reads_exactly_the_fraction_it_writes():
    from web.notation import read_number, read_value
    assert read_value("M − 0,2") == read_value("M - 0.2") == read_value("M − 1/5") == "999.8"
    assert read_value("−M + 0,6") == read_value("-M+3/5") == "-999.4"
    assert read_value("M − 1") == "999"                     # the evaluation's ceiling, M − 1
    assert read_value("M − 0,3333") != read_value("M − 1/3")   # not the same number
    assert read_number("M − 0,5", 10) == read_number("M − 1/2", 10) == 9.5
    for raw in ("M-1/0", "M − 0,2/5", "M − 1e5", "M − ,2", "M − 0,", "M + 0,2",
                "M − " + "9" * 10, "M − 1/" + "9" * 5000, "W" + "9" * 5000):
        assert read_value(raw) is None, raw


@pytest.mark.parametrize("typed", ["M-1/0", "M − 1/0", "x" * 5000, "9" * 39, "1e308", "-1e300",
                                   "M − " + "9" * 5000, "M − 0,2" * 30, "\x00", "M − ∞/2"])
def test_hostile_values_are_refused_in_words_never_a_500(app, typed):
    _, code, phones, seq, _ = ask_window(app, COURSE_LINK, "fr")
    r = phones[0].post(f"/c/{code}/answer?lang=fr", data={"seq": seq, "number": typed},
                       headers=HX)
    assert r.status_code == 400, (typed[:30], r.status_code)
    assert "n’est pas une valeur" in text(r.get_data(as_text=True))
    # the phone may answer after that, its first answer still to give
    assert send(phones[0], code, seq, "fr", number="−M")


def test_a_connect4_tree_s_hint_names_no_estimate_of_the_course(app):
    """Connect-4's values in the course's notation are ±M and the heuristic's numbers: no
    M − 1/5 anywhere in its tree, so the pad's hint does not name that form."""
    link = ("/connect4?moves=4453&mode=human-human&algo=alphabeta&depth=2&level=custom"
            "&tree=1&notation=course&step=3")
    teacher, code, _ = start_class(app, link)
    assert "value" in text(bar(teacher, code, "ask", kind="value")).lower()
    page = student(app, code).get(f"/c/{code}").get_data(as_text=True)
    assert "−M, +M, −∞, +∞" in hint(page) and "M − 1/5" not in hint(page)


def test_every_way_of_writing_a_value_is_read():
    from web.notation import read_value, same_value
    for raw in ("−M", "-M", "- M", "−maxScore", "–M"):
        assert read_value(raw) == "-M", raw
    for raw in ("M", "+M", "maxScore", "+maxScore"):
        assert read_value(raw) == "M", raw
    for raw, kept in (("−∞", "-inf"), ("-inf", "-inf"), ("∞", "inf"), ("+∞", "inf"),
                      ("inf", "inf"), ("2,5", "2.5"), ("-2,5", "-2.5"), ("3", "3"),
                      ("+3", "3"), ("D2", "-9998"), ("L2", "-9998"), ("V3", "9997"),
                      ("W3", "9997"), ("M − 3/5", "999.4"), ("−M + 3/5", "-999.4")):
        assert read_value(raw) == kept, raw
    for raw in ("lots", "", "--3", "M − 3/0", "1e999", "nan"):
        assert read_value(raw) is None, raw
    # −M is every loss in the course's notation; in the plies' notation when written M
    assert same_value("-M", "-9998", "course") and same_value("-M", "-9998", "plies")
    assert same_value("-9997", "-9998", "course") and not same_value("-9997", "-9998", "plies")
    assert not same_value("M", "-9998", "course") and not same_value("-M", "-inf", "course")
    assert same_value("2.5", "2.5") and not same_value("3", "2.5", "plies")


def test_a_value_that_is_none_is_refused_saying_how_to_write_one(app):
    _, code, phones, seq, _ = ask_window(app, COURSE_LINK, "fr")
    r = phones[0].post(f"/c/{code}/answer?lang=fr", data={"seq": seq, "number": "lots"},
                       headers=HX)
    assert r.status_code == 400 and "−M" in text(r.get_data(as_text=True))


@pytest.mark.parametrize("lang,example", [("en", "such as 2.5."), ("fr", "comme 2,5.")])
def test_the_pad_s_hint_writes_its_example_number_as_the_phone_writes_numbers(app, lang, example):
    """The hint under the value pad: an English phone was told "a number such as 2,5" while it
    writes every number of the question with a point (its answer "5.2", the right one "-0.6":
    seen on the English phone of a rehearsal); the example in the page's language."""
    *_, page = ask_window(app, COURSE_LINK, lang)
    assert hint(page).endswith(example), hint(page)
