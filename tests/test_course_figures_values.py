"""Issue 36: no raw "-999" anywhere a class looks. ±999 is the evaluation function's ceiling
(Nim's and Marienbad's exact evaluation: the theory says won or lost, without counting the
plies): the course's notation writes it as its estimates, "M − 1" and "−M + 1", the plies'
notation as a win or a loss without plies, "W" and "L" ("V" and "D" in French); and the
course's small-game tree leaves room for its values beside the nodes."""
import re

import pytest

from ai.heuristics import LIMIT
from ai.teach.tree_view import text_width
from app import create_app

RAW = re.compile(r"(?<![\w.,])[-−+]?999(?![\d\w])")

PAGES = ["/nim?card=fig-5-1&variant=misere&tree=1&notation=course&lang=fr&proj=1",
         "/nim?card=fig-5-1&variant=misere&tree=1&lang=fr&proj=1",
         "/nim?variant=misere&tree=1&lang=en",
         "/nim/compare?lang=fr", "/nim/compare?lang=fr&notation=course",
         "/marienbad/compare?lang=fr", "/marienbad/compare?lang=en"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("classes") / "classes.sqlite3"
    return create_app({"TESTING": True, "CLASS_DB": str(db)}).test_client()


@pytest.mark.parametrize("url", PAGES)
def test_no_page_writes_the_evaluations_ceiling_as_999(client, url):
    page = client.get(url)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert not RAW.findall(text), url


def test_the_ceiling_is_written_in_each_notation(client):
    from web.notation import format_bound, format_long
    app = client.application
    for lang, notation, won, lost in (("en", "plies", "W", "L"), ("fr", "plies", "V", "D"),
                                      ("fr", "course", "M − 1", "−M + 1")):
        with app.test_request_context(f"/?lang={lang}&notation={notation}"):
            assert (format_bound(LIMIT), format_bound(-LIMIT)) == (won, lost)
            assert "999" not in format_long(-LIMIT) and "999" not in format_long(LIMIT)
            assert format_bound(LIMIT, group=False) == "999"    # a form field reads it back


def test_the_misere_cards_values_and_sizes_do_not_overlap(client):
    """The misère card (fig-5-1, the course's notation, projector): 7 of its 12 line nodes
    wrote their value over "N nodes"; each value beside a node now ends before its size
    starts, and before the next node's scissors in its row."""
    page = client.get(PAGES[0]).get_data(as_text=True)
    svg = page[page.index('<svg class="tree-svg'):]
    svg = svg[:svg.index("</svg>")]
    groups = svg.split('<g class="tnode')[1:]
    checked = 0
    for g in groups:
        side = re.search(r'<text class="val side[^"]*" x="([\d.]+)" y="([\d.]+)">([^<]*)<', g)
        size = re.search(r'<text class="size side" x="([\d.]+)" y="([\d.]+)">', g)
        if side and size:
            end = float(side[1]) + 1.1 * text_width(side[3], 22)
            assert float(size[1]) >= end + 8, (side[3], side[1], size[1])
            checked += 1
    assert checked >= 7
    # each row's value beside a node ends before the next node's scissors or shape
    spots = [(float(m[1]), float(m[2]), m[3]) for m in re.finditer(
        r'<text class="val side[^"]*" x="([\d.]+)" y="([\d.]+)">([^<]*)<', svg)]
    cuts = [(float(m[1]), float(m[2])) for m in re.finditer(
        r'<text class="cut" x="([\d.]+)" y="([\d.]+)"', svg)]
    for x, y, label in spots:
        end = x + 1.1 * text_width(label, 22)
        for cx, cy in cuts:
            if abs(cy - y) < 10 and cx > x:
                assert cx >= end + 4, (label, x, cx)
