"""``python -m ai``: start-up (imports, the game's ``load``: the opening book, the compiled
code) is reported apart (``startup_ms``) and no budget counts it; an incomplete result says
which budget stopped it. On a simulated clock: each reading advances it a microsecond, and
the game's loading takes 100 simulated seconds, ten times the review's budget."""
import json
import time

import pytest

import ai.cli as cli
import ai.games.connect4.cli as connect4_cli
import ai.teach.review as review


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        self.now += 1e-6
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(time, "perf_counter", c)
    return c


def run(capsys, *argv, started=None):
    assert cli.main(list(argv), started=started) == 0
    return json.loads(capsys.readouterr().out)


def test_the_review_s_budget_starts_after_the_game_has_loaded(clock, monkeypatch, capsys):
    events = []
    real_load, real_budget = connect4_cli.load, review.Budget.__init__

    def slow_load():
        events.append("load")
        real_load()
        clock.now += 100.0              # a machine so loaded that loading takes 100 s

    def budget(self, *a, **k):
        events.append("budget")
        real_budget(self, *a, **k)
    monkeypatch.setattr(connect4_cli, "load", slow_load)
    monkeypatch.setattr(review.Budget, "__init__", budget)
    started = clock()
    data = run(capsys, "review", "connect4", "4453", "--json", started=started)
    assert events[:2] == ["load", "budget"]
    assert data["complete"] is True and "stopped_by" not in data
    assert data["startup_ms"] >= 100_000 > cli.DEFAULT_TIME_LIMIT * 1000 > data["elapsed_ms"]


def test_a_search_reports_its_start_up_apart_and_what_stopped_it(clock, capsys):
    data = run(capsys, "search", "connect4", "--moves", "4453", "--depth", "12", "--fast",
               "--max-nodes", "500", "--json")
    assert data["complete"] is False and data["stopped_by"] == "node budget"
    assert data["startup_ms"] >= 0 and data["elapsed_ms"] >= 0
    done = run(capsys, "search", "connect4", "--moves", "4453", "--level", "hard", "--json")
    assert done["complete"] is True and "stopped_by" not in done and "startup_ms" in done


def test_commands_without_a_time_report_no_start_up(capsys):
    data = run(capsys, "count", "tree", "--tree", "[[1,2],[3]]", "--json")
    assert data == {"game": "tree", "nodes": 6, "leaves": 3}
