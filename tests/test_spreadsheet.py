"""The class's CSV exports cannot run in a spreadsheet (OWASP "CSV injection"): nicknames and
answers that start with = + - @ (or a tab, a carriage return) are written as text, while the
numbers the app writes (-1, +1, 3) stay numbers; French pages get ``;`` and decimal commas."""
import csv
import io
import re

import pytest

from test_classroom import start_class, student
from web.spreadsheet import cell, csv_text

HX = {"HX-Request": "true"}
FORMULAS = ['=HYPERLINK("//x.io";"a")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1",
            "-2+3+cmd|' /C calc'!A0", "=1+1", "\t=1+1", "\r=1+1", " =1+1"]


def runs(value: str) -> bool:
    """Whether a spreadsheet would read the cell as a formula: it starts with one of the
    characters LibreOffice and Excel take as the start of one, and is not a plain number."""
    return (value.lstrip()[:1] in ("=", "+", "-", "@") or value[:1] in ("\t", "\r")) \
        and not re.fullmatch(r"[+-]?\d+(?:[.,]\d+)?", value)


@pytest.mark.parametrize("value", FORMULAS)
def test_a_cell_that_would_run_is_written_as_text(value):
    assert cell(value) == "'" + value and not runs(cell(value))


@pytest.mark.parametrize("value,written", [(-3, "-3"), (3, "3"), (2.5, "2.5"), ("-1", "-1"),
                                           ("+1", "+1"), ("42", "42"), ("Zoé", "Zoé"),
                                           (None, ""), ("a=b", "a=b")])
def test_numbers_stay_numbers_and_plain_text_stays_as_typed(value, written):
    assert cell(value) == written


def test_the_semicolon_variant_writes_decimal_commas():
    assert csv_text([["a", 2.5, -3, "x;y"]], ";") == 'a;2,5;-3;"x;y"\r\n'
    assert csv_text([["a", 2.5, -3, "x,y"]]) == 'a,2.5,-3,"x,y"\r\n'


@pytest.fixture()
def app(make_app):
    return make_app()


def rows_of(response, sep=","):
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    body = response.get_data(as_text=True)
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:]), delimiter=sep))


def test_nicknames_and_answers_that_are_formulas_are_not_executable_in_any_export(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    teacher.post(f"/class/{code}/exercise", headers=HX,
                 data={"action": "start", "source": "ex:nim4", "algo": "minimax"})
    nicknames = ['=HYPERLINK("//x.io";"a")', "@SUM(1+1)", "+1+1", "-2+3", "=1+1"]
    typed = []
    for nickname in nicknames:
        s = student(app, code)
        s.post(f"/c/{code}/name", data={"name": nickname}, headers=HX)
        phone = s.get(f"/c/{code}").get_data(as_text=True)
        seq = re.search(r'name="seq" value="(\d+)"', phone).group(1)
        fields = re.findall(r'name="(v\.[^"]+)"', phone)
        answer = {k: v for k, v in zip(fields, FORMULAS + ["-1"] * len(fields))}
        typed += list(answer.values())
        assert s.post(f"/c/{code}/exercise", data={"seq": seq, **answer},
                      headers=HX).status_code in (200, 400)
    per_s = rows_of(teacher.get(f"/class/{code}/exercise.csv?per=student"))
    per_q = rows_of(teacher.get(f"/class/{code}/exercise.csv?per=question"))
    summary = rows_of(teacher.get(f"/class/{code}/summary.csv"))
    cells = [c for rows in (per_s, per_q, summary) for row in rows for c in row]
    assert not [c for c in cells if runs(c)]
    names = [row[1] for row in per_s[1:]]
    assert names == ["'" + n for n in nicknames]            # kept, readable, as text
    assert {"'" + f for f in FORMULAS[:5]} <= set(per_s[1])  # the answers as typed, as text
    assert "-1" in cells                                     # a real answer stays a number
    # the French page's export: ; and the same cells
    french = rows_of(teacher.get(f"/class/{code}/exercise.csv?per=student&lang=fr"), ";")
    assert french == per_s
    assert rows_of(teacher.get(f"/class/{code}/exercise.csv?per=student&lang=fr&sep=comma")) \
        == per_s
    bad = teacher.get(f"/class/{code}/exercise.csv?per=student&sep=tab")
    assert bad.status_code == 400
