"""A class's tournament played beside the lesson (``web.tournament.runner`` on the
class store's ``web.classroom.tournaments``), on both backends: games written as they end,
a restart (a new store, a new runner, nothing in memory) plays only the missing games, and
the games are the command line's."""
import pytest

from ai.games.connect4 import tournament as T
from web.classroom.store import open_store
from web.classroom.tournaments import tournaments_of
from web.tournament import runner as R

from test_class_store import clock, store  # noqa: F401  (fixtures)

ENTRANTS = [T.entrant("Ada:cells=1,open3=8"), T.entrant("Bob:open2=4,open3=16"),
            T.boss("beginner")]


def started(store, entrants=ENTRANTS, depth=2, openings=1):
    code = store.create("connect4", "")[0].code
    spec = R.new_spec("connect4", entrants, depth, openings)
    assert tournaments_of(store).start(code, spec)
    return code, spec


def test_a_restart_plays_only_the_missing_games(class_config, clock):
    first = open_store(class_config, clock=clock)
    code, spec = started(first)
    runner = R.Runner(first)
    assert runner.advance(code, 2) == 2
    first.close()                                   # the worker dies, its memory with it

    second = open_store(class_config, clock=clock)  # a restarted server
    t = tournaments_of(second).get(code)
    assert sorted(t.games) == [0, 1] and t.spec["state"] == "running"
    again = R.Runner(second)
    assert again.advance(code) == 0                 # the dead runner's lease still holds
    clock.now += R.LEASE + 1
    assert tournaments_of(second).running() == [code]
    assert again.advance(code) == 4 and again.played == 4
    t = tournaments_of(second).get(code)
    assert sorted(t.games) == list(range(6)) and t.spec["state"] == "done"
    assert tournaments_of(second).running() == []
    # the same games as the command line's tournament, in another order
    cli = T.run(ENTRANTS, depth=2, n_openings=1)["games"]
    key = lambda g: (g["first"], g["second"], g["opening"], g["moves"], g["result"])  # noqa
    assert sorted(map(key, t.games.values())) == sorted(map(key, cli))
    # the final standings, rated, as the command line's (which adds each one's node count)
    cli_rows = [{k: v for k, v in r.items() if k != "nodes"}
                for r in T.run(ENTRANTS, depth=2, n_openings=1)["standings"]]
    assert t.spec["final"]["standings"] == cli_rows
    assert all(r["rating"] is not None for r in cli_rows)
    second.close()


def test_a_game_is_counted_once_and_only_in_its_own_tournament(store):
    code, spec = started(store)
    ts = tournaments_of(store)
    game = R.play(spec, {}, 0)
    assert ts.add_game(code, 0, game, spec["id"])
    assert not ts.add_game(code, 0, game, spec["id"])         # played twice: kept once
    ts.start(code, R.new_spec("connect4", ENTRANTS, 2, 1))                # a new tournament
    assert not ts.add_game(code, 1, game, spec["id"])         # the old one's game: dropped
    assert ts.get(code).games == {}


def test_two_runners_never_hold_one_tournament_at_once(store, clock):
    code, _ = started(store)
    a, b = R.Runner(store), R.Runner(store)
    assert a.advance(code, 1) == 1
    assert b.advance(code, 1) == 0
    clock.now += R.LEASE + 1
    assert b.advance(code, 1) == 1 and a.advance(code, 1) == 0


def test_an_ended_class_stops_its_tournament(store):
    code, _ = started(store)
    store.end(code)
    assert tournaments_of(store).running() == []
    assert R.Runner(store).advance(code) == 0


def test_the_double_round_robin_meets_every_pair_both_ways_from_every_opening():
    spec = R.new_spec("connect4", [T.entrant(f"P{i}:cells={i + 1}") for i in range(7)], 2, 2)
    games = R.plan(spec, {})
    assert len(games) == R.total_games(spec) == 7 * 6 * 2
    assert len({(o, a, b) for _, o, a, b in games}) == len(games)
    # a round holds each entrant at most once per opening
    for r in {g[0] for g in games}:
        for o in range(2):
            seated = [x for _, oo, a, b in games if _ == r and oo == o for x in (a, b)]
            assert len(seated) == len(set(seated))


def test_beyond_a_class_the_schedule_is_a_swiss_paired_round_by_round(monkeypatch):
    monkeypatch.setattr(R, "SWISS_ABOVE", 4)
    entrants = [T.entrant(f"P{i}:cells={i + 1},open3={i}") for i in range(7)]
    spec = R.new_spec("connect4", entrants, 1, 1)
    assert spec["schedule"] == "swiss" and spec["rounds"] == 5
    first = R.plan(spec, {})
    assert len(first) == 6 and {g[0] for g in first} == {0}    # round 1 only, both colours
    games = {}
    while len(games) < R.total_games(spec):
        todo = R.missing(spec, games)
        assert todo, "a Swiss that stops before its last round"
        for i in todo:
            games[i] = R.play(spec, games, i)
    # the command line's Swiss: the same games, the same standings (byes included)
    cli = T.run(entrants, depth=1, n_openings=1, schedule="swiss")
    key = lambda g: (g["first"], g["second"], g["opening"], g["moves"], g["result"])  # noqa
    assert sorted(map(key, games.values())) == sorted(map(key, cli["games"]))
    rows = R.results(spec, games, rate=True)[0]
    assert rows == [{k: v for k, v in r.items() if k != "nodes"} for r in cli["standings"]]


def manual(runner):
    """``runner`` whose loop is started by hand (``kick``: a thread, in a server): the kicks
    counted, the loop's steps played below, to the end."""
    runner.kicks = 0

    def kick():
        runner.kicks += 1
    runner.kick = kick
    return runner


def drain(runner):
    while runner.step():
        pass


def test_a_restarted_server_resumes_by_itself_with_no_page_open(class_config, clock):
    first = open_store(class_config, clock=clock)
    code, _ = started(first)
    assert R.Runner(first).advance(code, 2) == 2
    first.close()                                   # the worker dies mid-tournament

    second = open_store(class_config, clock=clock)  # a restarted server: no page is opened
    runner = manual(R.Runner(second))
    assert runner.resume() == [] and runner.kicks == 0   # the dead worker's lease holds
    drain(runner)
    assert runner.played == 0 and sorted(tournaments_of(second).get(code).games) == [0, 1]
    clock.now += R.LEASE + 1                        # its lease runs out
    other = manual(R.Runner(second))                # another worker of the restarted server
    assert runner.resume() == [code] and runner.kicks == 1
    assert other.resume() == [] and other.kicks == 0     # the lease keeps it to one worker
    drain(runner)
    drain(other)
    assert runner.played == 4 and other.played == 0      # exactly the missing games
    t = tournaments_of(second).get(code)
    assert sorted(t.games) == list(range(6)) and t.spec["state"] == "done"
    assert runner.resume() == [] and runner.kicks == 1   # finished: nothing to resume
    second.close()


def test_with_no_tournament_resuming_starts_nothing(store):
    runner = manual(R.Runner(store))
    assert runner.resume() == [] and runner.kicks == 0
    store.create("connect4", "")
    assert runner.resume() == [] and runner.kicks == 0
