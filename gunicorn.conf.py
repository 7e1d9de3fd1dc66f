"""gunicorn settings for ``scripts/serve`` (read by ``gunicorn --config gunicorn.conf.py``).

The app keeps no state between requests in a worker (the whole game is in the URL; a class's
state is in SQLite or Redis, ``web.classroom.store``), so any worker, in any instance, can answer
any request: to serve more players, start more instances behind a proxy (see the README).

Workers are gevent's: one event loop per process holds hundreds of open connections, slow or
idle ones included (a client that never finishes its headers costs a greenlet, not a worker),
and class mode's live streams are such connections: each student's page keeps one open for
the whole lesson, waiting, and costs a greenlet (a few KB), not a thread or a process. Searches
are CPU work: ``web.admission`` runs them in native threads of gevent's pool, in bounded lanes,
so the loop keeps serving pages and streams.
"""
import atexit
import gc
import importlib
import logging
import multiprocessing
import os
import sys
import time

from web import network, server_errors

bind = os.environ.get("BIND", "127.0.0.1:8000")
# One process per core, plus one: searches keep the cores busy, the event loops stay free.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# gevent's worker, with a time limit per request (headers and body), a bound on the
# connections of one client address, and a quick stop that ends the live streams: web/worker.py
worker_class = "web.worker.GuardedWorker"
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", 1000))
# No request may take longer than this: searches stop at about 1 s; the timeout only catches
# a worker that is stuck for another reason, and gunicorn then replaces it.
timeout = 30
graceful_timeout = 10      # rarely waited for: a stopping worker ends its streams (web/worker.py)
keepalive = 5
# Recycle workers now and then, so no slow leak can build up (a recycled worker's live streams
# reconnect by themselves to another worker).
max_requests = 5000
max_requests_jitter = 500
# Requests are a URL and a few headers: refuse anything bigger early, with a plain answer.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
server_errors.install()
accesslog = "-"
errorlog = "-"
# No control socket (gunicorn 25.1's ``gunicornc``, unused here): its default path is one per
# user ($HOME/.gunicorn/gunicorn.ctl), shared by every instance that user starts, and the
# master stops and restarts its thread around every fork of a worker.
control_socket_disable = True
# One copy for all workers: the master loads the games' compiled code (numba's kernels, read
# from their cache: the exact solver's, the levels' search), the exact solver's opening book
# (its table, ~28 MB) and the web libraries before it starts the workers, which inherit them
# copy-on-write (``on_starting``). Not the app itself (no ``preload_app``): class mode's live
# streams keep a thread and a store connection per worker, and the search lanes are
# semaphores that must be made after gevent has patched threading in the worker; so the app
# and the project's web/ modules are made in each worker, after the fork. PRELOAD_SOLVER=0
# loads everything in every worker instead (bench/serve_boot.py compares the two).
preload_solver = os.environ.get("PRELOAD_SOLVER", "1") != "0"
# imported by the master too: libraries with no per-process state made at import (gunicorn
# itself has imported ssl, socket and threading there already)
SHARED_LIBRARIES = ("flask", "flask_babel", "jinja2", "jinja2_fragments", "babel", "segno")


def on_starting(server):
    """In the master, once, before the first worker: the games' compiled code, the exact
    solver's book and the web libraries, shared by every worker (a restart or a reload then
    starts workers that have nothing to load); then the objects made so far are moved out of
    the garbage collector's reach (``gc.freeze``), so that a worker's collections do not
    write to the pages it shares with the master."""
    if not preload_solver:
        return
    start = time.perf_counter()
    import ai.games
    for name in ai.games.names():      # each game's compiled code (scripts/setup's prepare)
        rules = ai.games.load(name).Rules
        if rules.preparing:
            rules.prepare()
    from ai.games.connect4 import exact
    book = exact.shared_book()         # the exact solver's book, else read at its first use
    for name in SHARED_LIBRARIES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    server.log.info("compiled search and exact solver loaded once for all workers in %.2f s "
                    "(book %s)",
                    time.perf_counter() - start,
                    f"{len(book):,} positions" if book is not None else "not installed")


def when_ready(server):
    """Say where the app listens, once the sockets are bound; on a loopback address, how the
    phones of a classroom can reach it (they cannot open 127.0.0.1: that is their own phone)."""
    for listener in server.LISTENERS:
        try:
            host, port = listener.sock.getsockname()[:2]
        except (OSError, ValueError):
            continue                                   # a Unix socket: nothing to show
        if network.is_wildcard(host):
            urls = [f"http://{network.url_host(a, port)}/" for a in network.network_addresses()]
            print(f"minimax-lab listens on every address, port {port}: open "
                  f"http://127.0.0.1:{port}/ here"
                  + (f", {' or '.join(urls)} from the classroom network" if urls else ""),
                  flush=True)
        else:
            print(f"minimax-lab listens at http://{network.url_host(host, port)}/", flush=True)
        if network.is_loopback(network.url_host(host, port)):
            print("  Only this computer can open it. To serve the classroom network (students' "
                  f"phones): {network.SERVE_ON_NETWORK}", flush=True)


def post_worker_init(worker):
    """In each worker, its app made: every template loaded (read from Jinja's cache of
    compiled templates, ``web.template_cache``), so that no first page waits for one to
    compile; then the app's background tasks that must not wait for a
    request (``app.extensions["after_boot"]``: a class tournament a restart left unfinished
    resumes with no page open, ``web.tournament.live.after_boot``). Each starts a
    thread (a greenlet: gevent has patched threading) that runs once the worker serves."""
    from web import template_cache
    app = worker.wsgi
    template_cache.load_all(app)
    for start in getattr(app, "extensions", {}).get("after_boot", []):
        start(app)


def worker_exit(server, worker):
    """In a worker that stops: a worker that ends normally (a stop, a reload, a recycle)
    leaves at once, once its exit functions have run (logging's last lines written out),
    without the interpreter's teardown: freeing every module and the objects inherited from
    the master (the compiled code, numba's and LLVM's state) took 1-4 s of a loaded machine,
    and a stop or a restart waited for its slowest worker (bench/serve_boot.py). A worker that
    ends on an error keeps its exit status (the master reads it) and the ordinary exit; there,
    the objects frozen in the master (``on_starting``) are collected first, while gevent is
    still whole (at the interpreter's end, logging's handlers would be finalized after
    gevent's modules and print errors)."""
    error = sys.exc_info()[1]
    if isinstance(error, SystemExit) and error.code in (None, 0):
        getattr(atexit, "_run_exitfuncs", logging.shutdown)()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(0)
    if preload_solver:
        gc.unfreeze()
        gc.collect()
