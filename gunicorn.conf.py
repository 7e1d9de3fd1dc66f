"""gunicorn settings for ``scripts/serve`` (read by ``gunicorn --config gunicorn.conf.py``)."""
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# Searches are CPU-bound, so one synchronous worker per core (plus one) keeps every core
# busy without letting a single search slow the others down through thread contention.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
worker_class = "sync"
# The longest search the app allows is bounded well under this (see app.py); the timeout
# only catches a worker that is stuck for another reason.
timeout = 30
graceful_timeout = 10
# Requests are small (a URL and a few fields); refuse anything bigger early.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-"
