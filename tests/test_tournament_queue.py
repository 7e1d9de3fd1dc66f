"""A tournament's games on a Redis queue (ai.teach.queue, RQ) with a real ``redis-server``
(conftest's ``redis_url``) and two worker processes (``python -m ai tournament-worker``): the
games are spread over both, and the JSON is the one the same tournament gives in one process,
but its timing; a worker's error stops the tournament with it; with ``REDIS_URL`` set but no
worker listening the games are played here; without ``REDIS_URL``, RQ is not even imported.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["tournament", "tictactoe", "--entrant", "Ada:lines=1,open2=4",
           "--entrant", "Bob:center=2,corners=1", "--entrant", "Cy:open1=-1",
           "--entrant", "Di:cells=1", "--level", "beginner", "--level", "easy",
           "--depth", "3", "--openings", "3", "--json"]
C4 = ["tournament", "connect4", "--entrant", "Ada:cells=1,open3=8",
      "--entrant", "Bob:open1=1,open2=4,open3=16,center=2", "--level", "beginner",
      "--depth", "3", "--openings", "1", "--json"]


def cli(args, redis=None):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis:
        env["REDIS_URL"] = redis
    p = subprocess.run([sys.executable, "-m", "ai", *args], capture_output=True, text=True,
                       timeout=300, cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    data.pop("timing")
    return data


@pytest.fixture()
def empty_redis(redis_url):
    import redis
    with redis.Redis.from_url(redis_url) as r:
        r.flushdb()
    return redis_url


@pytest.fixture()
def two_workers(empty_redis):
    from ai.teach import queue
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    procs = [subprocess.Popen([sys.executable, "-m", "ai", "tournament-worker", "--url",
                               empty_redis, "--name", f"worker-{i}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in (1, 2)]
    runner = queue.QueueRunner(empty_redis)
    deadline = time.monotonic() + 120
    while runner.workers() < 2:
        assert all(p.poll() is None for p in procs), [p.stderr.read() for p in procs]
        assert time.monotonic() < deadline, "the workers did not register"
        time.sleep(0.1)
    yield empty_redis
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        p.stderr.close()


def test_two_workers_share_the_games_and_the_json_is_the_same(two_workers):
    from rq import Worker

    from ai.teach import queue
    here = cli(COMMAND)
    queued = cli(COMMAND, redis=two_workers)
    assert queued == here
    q = queue.queue(two_workers)
    done = {w.name: w.successful_job_count for w in Worker.all(queue=q)}
    assert set(done) == {"worker-1", "worker-2"}
    assert all(n > 0 for n in done.values()), done           # both took batches
    n_games = len(here["games"])
    assert n_games == 6 * 5 * 3
    assert sum(done.values()) == -(-n_games // queue.BATCH)   # every batch once
    assert q.count == 0                                       # nothing left behind
    # Connect-4's compiled players on the workers: the same games too
    assert cli(C4, redis=two_workers) == cli(C4)


def test_in_process_the_runner_says_who_played(two_workers):
    from ai.games.tictactoe.rules import TicTacToe
    from ai.teach import queue
    from ai.teach import tournament as T
    game = TicTacToe()
    entrants = [T.entrant(game, "A:lines=1"), T.entrant(game, "B:center=1"), T.boss("easy")]
    runner = queue.QueueRunner(two_workers, batch=2)
    data = T.run(game, entrants, 2, 5, runner=runner)
    here = T.run(game, entrants, 2, 5, runner=T.local)
    data.pop("timing"), here.pop("timing")
    assert data == here
    assert sum(runner.played_by.values()) == len(here["games"]) == 30
    assert len(runner.played_by) == 2                         # both processes played


def test_a_workers_error_stops_the_tournament(two_workers):
    from ai.games.tictactoe.rules import TicTacToe
    from ai.teach import queue
    from ai.teach import tournament as T
    game = TicTacToe()
    # an entrant the workers cannot build (a heuristic the game refuses), sent past the checks
    entrants = [T.entrant(game, "A:lines=1"), T.Entrant("B", "nonsense=1")]
    with pytest.raises(RuntimeError, match="a worker failed"):
        T.run(game, entrants, 2, 1, runner=queue.QueueRunner(two_workers, wait=60))


def test_no_worker_listening_plays_here(empty_redis):
    assert cli(COMMAND, redis=empty_redis) == cli(COMMAND)


def test_without_redis_url_rq_is_not_imported():
    code = ("import sys; from ai.cli import main; "
            "main(['tournament', 'tictactoe', '--entrant', 'A:lines=1', '--level', 'easy', "
            "'--depth', '1', '--openings', '1', '--json']); "
            "print(sorted(m for m in ('rq', 'redis') if m in sys.modules), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip().splitlines()[-1] == "[]"
