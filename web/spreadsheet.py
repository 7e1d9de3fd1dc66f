"""Every CSV file the app sends, written so that a spreadsheet can open it and run nothing.

A teacher opens the class's exports in LibreOffice or Excel, and the cells hold what students
typed (nicknames, answers). A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is read as a formula (OWASP "CSV injection": ``=HYPERLINK(...)``,
``@SUM(1+1)*cmd|' /C calc'!A0``), so such a cell gets a leading ``'``, which both spreadsheets
show as text. A real number stays a number: the app's own ``-3`` or ``+1`` (and a student's
answer ``-1``) is written as it is.

The separator follows the page's language: in a French locale LibreOffice's import dialog
proposes ``;`` and Excel opens a double-clicked file with the system's list separator, which is
``;`` there because ``,`` is the decimal sign; so a French page's export uses ``;`` and writes
decimals with a comma (2,5), an English one ``,`` and 2.5. ``?sep=comma`` or ``?sep=semicolon``
chooses either way. The file starts with a BOM so that Excel reads it as UTF-8.
"""
from __future__ import annotations

import csv
import io
import re
from typing import Iterable

from flask import Response, request

from .i18n import get_locale
from .params import BadRequest

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A plain number, as the app writes them and as a spreadsheet reads them as a number: no
# operator after the sign, so "+1" stays 1 while "+1+1" or "-2+3+cmd|..." is a formula.
NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")
SEPARATORS = {"comma": ",", "semicolon": ";"}


def cell(value, decimal: str = ".") -> str:
    """One cell as text: numbers as numbers (``decimal`` their decimal sign), any other text that
    a spreadsheet would run, even after leading blanks, made text by a leading ``'``."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        text = str(value)
        return text.replace(".", decimal) if isinstance(value, float) else text
    text = str(value)
    if NUMBER.fullmatch(text):
        return text
    if text[:1] in FORMULA_START or text.lstrip()[:1] in FORMULA_START:
        return "'" + text
    return text


def csv_text(rows: Iterable[Iterable], sep: str = ",") -> str:
    """The rows as CSV text with the separator ``sep`` (``;`` writes decimals with a comma)."""
    decimal = "," if sep == ";" else "."
    out = io.StringIO()
    w = csv.writer(out, delimiter=sep, lineterminator="\r\n")
    for row in rows:
        w.writerow([cell(v, decimal) for v in row])
    return out.getvalue()


def request_separator() -> str:
    """The separator for this request: ``?sep=``, or the page's language (``;`` in French)."""
    asked = request.args.get("sep")
    if asked is not None:
        if asked not in SEPARATORS:
            raise BadRequest("sep: comma or semicolon")
        return SEPARATORS[asked]
    return ";" if str(get_locale()).startswith("fr") else ","


def csv_response(rows: Iterable[Iterable], name: str) -> Response:
    """A CSV download of ``rows``, in the request's separator, never cached."""
    response = Response("\ufeff" + csv_text(rows, request_separator()), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response
