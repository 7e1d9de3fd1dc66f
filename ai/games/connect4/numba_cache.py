"""Where numba keeps the machine code it compiles (``@njit(cache=True)``), decided before numba is
imported.

Numba caches next to the source, in ``ai/games/connect4/__pycache__``, and otherwise in the user's cache
directory. A server may run the app from a read-only directory as a user with no writable
home: then caching would fail and every worker would compile again at each start (or raise).
So when ``NUMBA_CACHE_DIR`` is not set and ``ai/`` is not writable, it is set to a directory of
the system's temporary directory, private to this user. Import this module before numba.
"""
from __future__ import annotations

import os
import sys
import tempfile

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def cache_dir() -> str | None:
    """The directory numba will use: ``NUMBA_CACHE_DIR``, or None for its own choice
    (``ai/games/connect4/__pycache__``)."""
    return os.environ.get("NUMBA_CACHE_DIR") or None


def _writable(path: str) -> bool:
    pycache = os.path.join(path, "__pycache__")
    target = pycache if os.path.isdir(pycache) else path
    return os.access(target, os.W_OK | os.X_OK)


def configure() -> str | None:
    """Set ``NUMBA_CACHE_DIR`` when numba could not write next to the source; returns the
    directory in use (None: numba's default beside the source)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    if _writable(PACKAGE_DIR):
        return None
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    path = os.path.join(tempfile.gettempdir(), f"minimax-lab-numba-{uid}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = path
    if "numba" in sys.modules:          # imported already: its config was read at import
        sys.modules["numba"].config.CACHE_DIR = path
    return path


configure()
