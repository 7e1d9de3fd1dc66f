"""gunicorn settings for ``scripts/serve`` (read by ``gunicorn --config gunicorn.conf.py``).

The app keeps no state between requests (the whole game is in the URL), so any worker, in
any instance, can answer any request: to serve more players, start more instances behind a
proxy (see the README).
"""
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# Searches are CPU-bound and bounded (about 2 s at the very most, 40 ms p95 at the default
# level). One process per core, plus one, keeps the cores busy; a few threads per process
# mean that a slow search (a teacher's depth-12 custom search) shares its process with the
# other requests instead of making them queue behind it.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("THREADS", 4))
# No request may take longer than this: searches stop at 2 s; the timeout only catches a
# worker that is stuck for another reason, and gunicorn then replaces it.
timeout = 30
graceful_timeout = 10
keepalive = 5
# Recycle workers now and then, so no slow leak can build up.
max_requests = 5000
max_requests_jitter = 500
# Requests are a URL and a few headers: refuse anything bigger early.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
