"""Results that take a while to compute and depend on nothing but the code that computes them
(a game's course figures, counted on its whole tree): computed once per version of that code,
saved as JSON, read back by the next processes.

A result is saved under its name and a hash of the source files named for it: a change to any
of them computes it again (and removes the older files of that name). The directory is
``ai/__pycache__/saved``, or, when ``ai/`` is not writable, one of the system's temporary
directory private to this user; when neither can be written, the result is computed in every
process, as without this module.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

AI = Path(__file__).resolve().parent


def directory() -> Path | None:
    """Where results are saved (made if needed), or None."""
    candidates = [AI / "__pycache__" / "saved",
                  Path(tempfile.gettempdir()) / f"minimax-lab-saved-{os.getuid()}"]
    for path in candidates:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK | os.X_OK) and path.stat().st_uid == os.getuid():
            return path
    return None


def _key(sources: list[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(sources):
        h.update(str(path.relative_to(AI)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def saved(name: str, sources: list[Path], compute: Callable[[], dict]) -> dict:
    """``compute()``'s result (a dict that JSON keeps as it is), read from its file when one
    was saved for these ``sources`` (files under ``ai/``), else computed and saved."""
    folder = directory()
    if folder is None:
        return compute()
    path = folder / f"{name}-{_key(sources)}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    result = compute()
    try:
        for old in folder.glob(f"{name}-*.json"):
            old.unlink()
        with tempfile.NamedTemporaryFile("w", dir=folder, prefix=name, suffix=".tmp",
                                         delete=False) as f:
            json.dump(result, f)
        os.replace(f.name, path)          # whole or not at all, for a reader
    except OSError:
        pass
    return result
