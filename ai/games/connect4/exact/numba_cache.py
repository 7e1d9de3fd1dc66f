"""Where numba keeps the machine code it compiles (``@njit(cache=True)``), decided before numba is
imported.

**One directory per version of the kernels.** Numba checks a cached function against its own
source file only, not against the functions it calls in other files: the analysis's loop
(``analysis_kernel``) calls the search (``solver_kernel``), and after a change to the search
alone numba would load the analysis with the old search compiled in. So the cache lives in a
directory named after a hash of every kernel source (``KERNELS``, and ``SHARED``: the
package's ``bits_kernel``, which they all inline): a change to any of them starts a fresh one,
and the previous versions' directories are removed.

Where: ``ai/games/connect4/exact/__pycache__/numba-<hash>``, or, when ``ai/`` is not writable (a
server running the app from a read-only directory as a user with no writable home), a
directory of the system's temporary directory private to this user. A ``NUMBA_CACHE_DIR`` set
before the app starts is used as it is (empty it when the kernels change). Import this module
before numba.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
#: The compiled modules, which call one another: any change to one recompiles them all.
#: (``book_layout``'s constants are compiled into the search as it reads them.)
KERNELS = ("solver_kernel.py", "analysis_kernel.py", "book_layout.py")
#: And the one outside this folder they all inline (as the levels' ``search_kernel`` does).
SHARED = (os.path.join(os.path.dirname(PACKAGE_DIR), "bits_kernel.py"),)
PREFIX = "numba-"
_OURS = "_MINIMAX_NUMBA_CACHE"          # set with NUMBA_CACHE_DIR when this module chose it


def stamp() -> str:
    """A hash of the kernels' sources."""
    h = hashlib.sha256()
    for path in [os.path.join(PACKAGE_DIR, name) for name in KERNELS] + list(SHARED):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


def cache_dir() -> str | None:
    """The directory numba uses (``NUMBA_CACHE_DIR``)."""
    return os.environ.get("NUMBA_CACHE_DIR") or None


def _writable(path: str) -> bool:
    pycache = os.path.join(path, "__pycache__")
    target = pycache if os.path.isdir(pycache) else path
    return os.access(target, os.W_OK | os.X_OK)


def configure() -> str:
    """Set ``NUMBA_CACHE_DIR`` (unless set by someone else) to this version's directory;
    returns the directory in use."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and os.environ.get(_OURS) != chosen:
        return chosen                   # the host's choice
    if _writable(PACKAGE_DIR):
        parent = os.path.join(PACKAGE_DIR, "__pycache__")
    else:
        uid = os.getuid() if hasattr(os, "getuid") else "user"
        parent = os.path.join(tempfile.gettempdir(), f"minimax-lab-numba-{uid}")
    path = os.path.join(parent, PREFIX + stamp())
    os.makedirs(path, mode=0o700, exist_ok=True)
    for old in os.listdir(parent):      # the previous versions' machine code
        if old.startswith(PREFIX) and old != os.path.basename(path):
            shutil.rmtree(os.path.join(parent, old), ignore_errors=True)
        elif old.endswith((".nbi", ".nbc")):    # numba's own place, before this module
            try:
                os.remove(os.path.join(parent, old))
            except OSError:
                pass
    os.environ["NUMBA_CACHE_DIR"] = os.environ[_OURS] = path
    if "numba" in sys.modules:          # imported already: its config was read at import
        sys.modules["numba"].config.CACHE_DIR = path
    return path


configure()
