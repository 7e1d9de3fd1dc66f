"""A tournament's games on a Redis queue, for workers on other machines: RQ
(python-rq.org), an existing job queue, not one of ours.

With ``REDIS_URL`` set and at least one worker listening on the queue ``tournament``
(``python -m ai tournament-worker``: an RQ ``SimpleWorker`` that loads the games' compiled
code once and keeps its players between jobs), ``runner`` hands ``ai.teach.tournament.run``
a ``QueueRunner``: the games go on the queue in batches of ``BATCH`` (``play_batch``, by the
function's name, its arguments and results JSON: RQ's ``JSONSerializer``, so neither side
unpickles what the other wrote), and their outcomes come back in the jobs' order. A game
depends only on its job (the game's rules, the two entrants, the depth, the node budget, the
opening), so the JSON is the one the same tournament gives in one process, but its timing.
Without ``REDIS_URL``, or with no worker listening, the games are played in this process
(``match.local``) and neither Redis nor RQ is imported.

A batch a worker failed on stops the tournament with the worker's error; one no worker
finished within ``WAIT`` seconds (a worker killed mid-batch) stops it too, rather than
waiting forever. The queue is anyone's who can write to that Redis: keep it private, as
the class store's.
"""
from __future__ import annotations

import os
import socket
import time
from collections import Counter
from dataclasses import astuple

from . import match

QUEUE = "tournament"
BATCH = 8                       # games a job: few enough that every worker gets some
WAIT = 600                      # seconds a batch may take before the tournament stops
RESULT_TTL = 3600
KEPT_PLAYERS = 100              # a worker's players kept between batches: a class and more


def url() -> str | None:
    """The Redis of the queue: ``REDIS_URL``, or None (blank: None)."""
    return os.environ.get("REDIS_URL") or None


def runner():
    """Where ``tournament.run`` plays its games (see the module's text)."""
    where = url()
    if not where:
        return match.local
    queued = QueueRunner(where)
    return queued if queued.workers() else match.local


def _serializer():
    from rq.serializers import JSONSerializer
    return JSONSerializer


def queue(where: str):
    """The RQ queue ``QUEUE`` on the Redis at ``where``."""
    from redis import Redis
    from rq import Queue
    return Queue(QUEUE, connection=Redis.from_url(where), serializer=_serializer())


class QueueRunner:
    """Plays a tournament's jobs on the queue (``tournament.run``'s ``runner``); ``played_by``
    counts the games each worker played (its host and process)."""

    def __init__(self, where: str, batch: int = BATCH, wait: float = WAIT):
        self.where, self.batch, self.wait = where, batch, wait
        self.played_by: Counter = Counter()

    def workers(self) -> int:
        """The workers listening on the queue now."""
        from rq import Worker
        q = queue(self.where)
        try:
            return Worker.count(connection=q.connection, queue=q)
        finally:
            q.connection.close()

    def __call__(self, settings: match.Settings, jobs: list[match.Job]):
        from rq import Queue
        q = queue(self.where)
        entrants = [e.as_dict() for e in settings.entrants]
        batches = [jobs[i:i + self.batch] for i in range(0, len(jobs), self.batch)]
        enqueued = q.enqueue_many([Queue.prepare_data(
            "ai.teach.queue.play_batch",
            args=(settings.game.name, entrants, settings.depth, settings.max_nodes,
                  [[j.opening, j.first, j.second] for j in batch]),
            timeout=self.wait, result_ttl=RESULT_TTL, failure_ttl=RESULT_TTL)
            for batch in batches])
        left = list(enqueued)
        try:
            for job, batch in zip(enqueued, batches):
                outcomes = self._wait(job, batch)
                left.remove(job)
                job.delete()
                yield from outcomes
        finally:
            if left:                    # stopped early (an error, a closed run): the rest go
                self._cancel(left)
            q.connection.close()

    def _wait(self, job, batch) -> list[match.Outcome]:
        from rq.results import Result
        deadline = time.monotonic() + self.wait
        while (result := job.latest_result(timeout=1)) is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no worker finished a batch of the tournament's games "
                                   f"within {self.wait:g} s (queue {QUEUE!r} on {self.where})")
        if result.type != Result.Type.SUCCESSFUL:
            why = (result.exc_string or "").strip().splitlines()
            raise RuntimeError("a worker failed on the tournament's games: "
                               + (why[-1] if why else result.Type(result.type).name))
        done = result.return_value
        self.played_by[done["worker"]] += len(batch)
        return [match.Outcome(*out) for out in done["outcomes"]]

    @staticmethod
    def _cancel(jobs) -> None:
        for job in jobs:
            try:
                job.cancel()
            except Exception:           # already taken, finished or gone: nothing to cancel
                pass
            job.delete()


_PLAYERS: dict = {}


def play_batch(game: str, entrants: list[dict], depth: int, max_nodes: int | None,
               jobs: list[list]) -> dict:
    """A worker's job: ``jobs`` (each opening, first, second) between ``entrants`` of the
    game ``game`` (its default rules), their outcomes as lists, and which worker played."""
    from ai import games
    key = (game, depth, max_nodes)
    if key not in _PLAYERS:
        _PLAYERS.clear()                # one tournament's settings at a time
        _PLAYERS[key] = (games.load(game).Rules(), {})
    rules, players = _PLAYERS[key]
    if len(players) > KEPT_PLAYERS:     # each keeps its replies (match.remembered)
        players.clear()

    def player(i):
        e = match.Entrant.from_dict(entrants[i])
        if e not in players:
            players[e] = match.player(rules, e, depth, max_nodes)
        return players[e]

    outcomes = [list(astuple(match.play_game(rules, player(a), player(b), opening)))
                for opening, a, b in jobs]
    return {"worker": f"{socket.gethostname()}:{os.getpid()}", "outcomes": outcomes}


def work(where: str, name: str | None = None, burst: bool = False) -> None:
    """Take the queue's batches until stopped (``burst``: until it is empty): an RQ
    ``SimpleWorker`` (no fork a job, so the players and compiled code stay loaded)."""
    from rq import SimpleWorker
    q = queue(where)
    SimpleWorker([q], connection=q.connection, name=name,
                 serializer=_serializer()).work(burst=burst, logging_level="WARNING")
