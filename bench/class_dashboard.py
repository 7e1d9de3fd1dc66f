"""The class exercise's pages with a big class, timed in-process (issue 37).

    python bench/class_dashboard.py                 # 100 students, a tree of 400 nodes
    python bench/class_dashboard.py --students 500 --draws 3

A class on a fresh SQLite store (a temporary folder) sends a tree of the lab's largest size
(1 + 7 + 49 + 343 = 400 nodes, alpha-beta: 181 questions) to every phone; ``--students``
students each answer twice (a first try, then a latest). Then, each ``--draws`` times: the
teacher's page (its dashboard), on the projector too, the lesson's summary, both CSV files of
the exercise, and one phone's page (the tree as a form). The first draw of each marks every
answer once in this process (``web.classroom.exercise.marked``); the next ones find them
marked. Prints each page's times in ms; no goal, a figure to compare before and after.
"""
import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402
from attack import big_tree  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--students", type=int, default=100)
    p.add_argument("--draws", type=int, default=2)
    args = p.parse_args(argv)
    app = create_app({"TESTING": True,
                      "CLASS_DB": os.path.join(tempfile.mkdtemp(), "classes.sqlite3")})
    from web.classroom import views
    from web.classroom.answers import answers_of
    from ai.teach.exercise import questions
    from web.classroom.exercise import solved
    lab = urlencode({"t": big_tree(), "algo": "alphabeta"})
    rnd = random.Random(1)
    with app.test_request_context("/"):
        state, secret = views.store().create("nim", "")
        code = state.code
        a = answers_of(views.store())
        seq = a.start(code, "exercise", {"lab": lab}).seq
        asked = questions(solved(lab)["solved"])
        for i in range(args.students):
            pairs = [("p", q.name) if q.what == "pruned" else (q.key, str(rnd.randint(-9, 9)))
                     for q in asked if q.what != "pruned" or rnd.random() < .3]
            a.answer(code, seq, f"s{i:04d}", urlencode(pairs), again=True)
            a.answer(code, seq, f"s{i:04d}", urlencode(pairs[1:]), again=True)
    teacher, phone = app.test_client(), app.test_client()
    teacher.set_cookie(views.TEACHER_COOKIE, f"{code}:{secret}")
    phone.get(f"/c/{code}")
    pages = [(teacher, f"/nim?cls={code}"), (teacher, f"/nim?cls={code}&proj=1"),
             (teacher, f"/class/{code}/summary"),
             (teacher, f"/class/{code}/exercise.csv?per=question"),
             (teacher, f"/class/{code}/exercise.csv?per=student"), (phone, f"/c/{code}")]
    print(f"{args.students} students, {len(asked)} questions; load "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for client, path in pages:
        times = []
        for _ in range(args.draws):
            start = time.perf_counter()
            r = client.get(path)
            times.append((time.perf_counter() - start) * 1000)
            assert r.status_code == 200, (path, r.status_code)
        print(f"{path.replace(code, '<code>'):42} {len(r.data):8} bytes  "
              + "  ".join(f"{t:7.0f}" for t in times) + " ms")


if __name__ == "__main__":
    main()
