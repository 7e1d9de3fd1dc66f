"""The templates compiled once, not by every worker at its first pages: Jinja's compiled code
kept on disk (a bytecode cache), and every template loaded when a server's worker starts.

Compiling a template (parsing it, writing Python, compiling that) cost a worker 0.2-0.35 s of
CPU at its first page and again at its first AI reply (bench/serve_boot.py): three workers
at once, on a loaded laptop, made the first player wait. Jinja's ``FileSystemBytecodeCache``
keeps the code it compiled in files that a later process reads (a ``marshal`` load): a
template is compiled once for all workers and all starts, and again only when its source
changes (Jinja checks a hash of the source). Its directory is Jinja's own, private to the
user, in the system's temporary directory; if there is none to be had, templates are
compiled as before, in memory.

The compiled code also depends on the environment's settings (its extensions, as Babel's
``{% trans %}``, the i18n policy, the delimiters, autoescape): a hash of them is part of each
file's key, so an app configured otherwise never reads code compiled for another.
``load_all`` is called by gunicorn's ``post_worker_init`` (``gunicorn.conf.py``): a worker
has every template ready before its first request.
"""
from __future__ import annotations

import hashlib

import jinja2
from flask import Flask
from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

# what of an environment decides the code a template compiles to
_SETTINGS = ("block_start_string", "block_end_string", "variable_start_string",
             "variable_end_string", "comment_start_string", "comment_end_string",
             "line_statement_prefix", "line_comment_prefix", "trim_blocks", "lstrip_blocks",
             "newline_sequence", "keep_trailing_newline", "optimized", "is_async")


class SettingsBytecodeCache(FileSystemBytecodeCache):
    """Jinja's file cache, a template's key made of its name and file and of the settings of
    the environment that compiles it; a file that cannot be written is skipped."""

    def __init__(self, env: jinja2.Environment, directory: str | None = None):
        super().__init__(directory)
        self.env = env
        self._settings: str | None = None

    def settings(self) -> str:
        """A hash of the environment's settings, taken at the first template (the app is
        configured by then: ``create_app`` loads no template)."""
        if self._settings is None:
            env = self.env
            h = hashlib.sha256(jinja2.__version__.encode())
            for name in _SETTINGS:
                h.update(f"{name}={getattr(env, name)!r};".encode())
            h.update(repr(sorted(env.extensions)).encode())
            h.update(repr(sorted((k, v) for k, v in env.policies.items()
                                 if isinstance(v, (str, int, float, bool, type(None))))).encode())
            finalize = env.finalize
            h.update(repr(getattr(finalize, "__qualname__", finalize)).encode())
            self._settings = h.hexdigest()[:16]
        return self._settings

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        escape = self.env.autoescape(name) if callable(self.env.autoescape) else self.env.autoescape
        return hashlib.sha1(f"{self.settings()}|{escape}|{super().get_cache_key(name, filename)}"
                            .encode()).hexdigest()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass                      # a full or read-only disk: compiled again next time


def init_app(app: Flask) -> None:
    """The app's templates compiled through the cache (none when no private directory can be
    had: Jinja refuses a temporary directory that another user could write)."""
    try:
        app.jinja_env.bytecode_cache = SettingsBytecodeCache(app.jinja_env)
    except (OSError, RuntimeError):
        pass


def load_all(app: Flask) -> int:
    """Load every template of the app (compiled or read from the cache) into its
    environment's memory; returns how many."""
    env = app.jinja_env
    names = env.list_templates(extensions=("html", "svg"))
    for name in names:
        env.get_template(name)
    return len(names)
