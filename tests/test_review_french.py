"""The reviews read in French (issue 36: "the review says 'J1 wins in 21 moves' in English"):
the review of each game with an erring move selected (its sentence why, its refutation), the
"learn from your mistakes" page, and a class's review on a phone, in French: no English word
left, a narrow no-break space before : ; ? ! (``test_french``'s reader: what a person reads,
notation such as ?! and ?? apart), the moves counted with a plural."""
import re

import pytest

from test_french import NNBSP, Reader, english_only_words, prose, unspaced, words

HX = {"HX-Request": "true"}
# Each game's review with a move that lost something selected (ply), and its learn page.
REVIEWS = [
    "/connect4/review?moves=1122334&mode=human-human&players=j&ply=1",
    "/connect4/review?moves=4455661&ply=5",
    "/nim/review?n=21&moves=111111111111111111111&players=j&ply=3",
    "/tictactoe/review?moves=1235&mode=human-human&ply=2",
    "/marienbad/review?moves=d7c1a1b1&mode=human-human&ply=2",
    "/connect4/review/learn?moves=1122334&mode=human-human&k=0&try=2",
    "/marienbad/review/learn?moves=d7c1a1b1&mode=human-human&k=0&try=a1",
]


def read(html: str) -> list[str]:
    reader = Reader()
    reader.feed(html)
    return prose(reader.chunks)


def left_in_english(text: list[str], english: set) -> list:
    return sorted({w for t in text for w in words(t) if w.lower() in english})


@pytest.mark.parametrize("url", REVIEWS)
def test_a_review_reads_in_french(client, url):
    r = client.get(url + "&lang=fr")
    assert r.status_code == 200
    text = read(r.get_data(as_text=True))
    assert left_in_english(text, english_only_words()) == []
    assert [f for t in text for f in unspaced(t)] == []


def test_the_sentence_why_counts_the_moves_in_french(client):
    """The sentence that says who wins, and in how many moves, in French with its plural;
    the selected move's title and the refutation's lines with a narrow no-break space."""
    page = " ".join(read(client.get(REVIEWS[0] + "&lang=fr").get_data(as_text=True)))
    assert "J1 gagne en 20 coups" in page and "wins in" not in page
    assert f"Coup 1{NNBSP}: J0, 1" in page
    one = " ".join(read(client.get(
        "/connect4/review?moves=4455661&ply=7&lang=fr").get_data(as_text=True)))
    assert "en 1 coup " in one or "en 1 coup." in one
    nim = " ".join(read(client.get(REVIEWS[2] + "&lang=fr").get_data(as_text=True)))
    assert f"J1{NNBSP}: prend 2 allumettes" in nim


def test_a_class_review_on_a_phone_reads_in_french(make_app):
    """The class's review on the phones, with a move selected by the projector, in French."""
    app = make_app()
    teacher = app.test_client()
    created = teacher.post("/class?lang=fr", data={
        "link": "/connect4?mode=human-human&players=j&moves=1122334", "lang": "fr"})
    code = re.search(r"cls=([A-Z0-9]{6})", created.headers["Location"]).group(1)
    phone = app.test_client()
    assert phone.get(f"/c/{code}?lang=fr").status_code == 200
    shown = teacher.post(f"/class/{code}/review?lang=fr", data={"action": "show"}, headers=HX)
    assert shown.status_code == 204
    assert teacher.get(shown.headers["HX-Redirect"] + "&ply=1").status_code == 200
    text = read(phone.get(f"/c/{code}?lang=fr").get_data(as_text=True))
    page = " ".join(text)
    assert "gagne en 20 coups" in page and "wins in" not in page
    assert left_in_english(text, english_only_words()) == []
    assert [f for t in text for f in unspaced(t)] == []
