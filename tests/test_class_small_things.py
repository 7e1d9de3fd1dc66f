"""The small things a class sees (issue 36): a reveal where every move loses frames none as
"best", the counts stay inside their frames, the dashboard's "missed most" gives the share
that missed, and the phones see the class's split once the AI's choice is revealed."""
import re

import pytest

from test_class_answering import HX, bar, text
from test_classroom import start_class, student


@pytest.fixture()
def app(make_app):
    return make_app()


def peer_round(app, link, first, second):
    """A vote, a discussion, a re-vote and the reveal on ``link``: the reveal's bar."""
    teacher, code, _ = start_class(app, link)
    bar(teacher, code, "vote", action="open")
    students = [student(app, code) for _ in first]
    for s, take in zip(students, first):
        assert s.post(f"/c/{code}/vote", data={"round": "1", "choice": take},
                      headers=HX).status_code == 200
    bar(teacher, code, "vote", action="close")
    bar(teacher, code, "peer", action="discuss", seconds="0")
    bar(teacher, code, "peer", action="revote")
    for s, take in zip(students, second):
        assert s.post(f"/c/{code}/vote", data={"round": "2", "choice": take},
                      headers=HX).status_code == 200
    bar(teacher, code, "vote", action="close")
    return teacher, code, students, bar(teacher, code, "peer", action="reveal")


def count_tops(html):
    """The top of each count's digits (24px, baseline y) in the charts."""
    return [float(y) - 24 for y in re.findall(r'<text class="n[^"]*" x="[^"]+" y="([^"]+)"', html)]


def test_when_every_move_loses_no_bar_is_framed_as_best(app):
    # 5 matches, 1 taken: 4 left, a multiple of 4: every move loses
    _, _, _, shown = peer_round(app, "/nim?n=5&k=3&mode=human-human&moves=1", "123", "112")
    assert "1 match: loss" in text(shown) and "3 matches: loss" in text(shown)
    assert "right-mark" not in shown and 'class="outcome loss best"' not in shown
    # where a move wins, it is framed in both charts, and only it
    _, _, _, shown = peer_round(app, "/nim?n=5&k=3&mode=human-human", "123", "112")
    assert shown.count('class="right-mark"') == 2 and 'class="outcome win best"' in shown


def test_every_count_stays_inside_its_frame(app):
    _, _, _, shown = peer_round(app, "/nim?n=5&k=3&mode=human-human", "111", "111")
    tops = count_tops(shown)
    assert tops and min(tops) >= 4.5          # below the frame's top line (y 2, 5 wide)


def test_the_dashboard_s_most_missed_gives_the_share_that_missed(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    bar(teacher, code, "exercise", action="start", source="ex:nim4", algo="minimax")
    from ai.teach.exercise import questions
    from web.classroom.exercise import solved
    right = {q.key: str(int(q.answer)) for q in questions(solved("ex=nim4&algo=minimax")["solved"])}
    for answer in (right, right, {k: ("-1" if k == "v.R" else v) for k, v in right.items()}):
        s = student(app, code)
        seq = re.search(r'name="seq" value="(\d+)"', s.get(f"/c/{code}").get_data(as_text=True))
        assert s.post(f"/c/{code}/exercise", data={"seq": seq.group(1), **answer},
                      headers=HX).status_code == 200
    board = text(teacher.get(f"/nim?n=5&k=3&mode=human-human&cls={code}&proj=1")
                 .get_data(as_text=True))
    # 2 of 3 right at R: one in three missed it
    assert "missed most: R (33 %) of first tries wrong" in board


def test_the_phones_see_the_class_s_split_once_revealed(app):
    teacher, code, _ = start_class(app, "/nim?n=5&k=3&mode=human-human")
    bar(teacher, code, "vote", action="open")
    phones = [student(app, code) for _ in range(3)]
    for s, take in zip(phones, "112"):
        s.post(f"/c/{code}/vote", data={"round": "1", "choice": take}, headers=HX)
    bar(teacher, code, "vote", action="close")
    before = phones[0].get(f"/c/{code}").get_data(as_text=True)
    assert "How the class voted" not in before
    bar(teacher, code, "vote", action="reveal")
    after = phones[0].get(f"/c/{code}").get_data(as_text=True)
    assert "How the class voted (3 votes)" in text(after)
    split = after[after.index('class="phone-split"'):]
    assert re.findall(r'class="n[^"]*"[^>]*>(\d+)<', split)[:3] == ["2", "1", "0"]
