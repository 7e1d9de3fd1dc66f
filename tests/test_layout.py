"""The game is the unit (issue 23): what is shared names no game, and each game lives in its
own folder. The web side's check is ``tests/test_games_table.py``'s grep-proof."""
from __future__ import annotations

import pathlib
import re

import ai.games
from ai.course.game import Game

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAME_WORDS = re.compile(r"connect4|connect-4|puissance|\bnim\b|allumette|tictactoe|tic-tac-toe|"
                        r"morpion|\bmatches\b", re.IGNORECASE)


def shared_ai_files():
    """Every module of ai/ outside ai/games/, but the package's face (``ai/__init__.py``
    hands on ``Connect4`` and ``Nim`` for a reader's first line)."""
    files = [p for p in sorted((ROOT / "ai").rglob("*.py"))
             if "games" not in p.relative_to(ROOT / "ai").parts and p.name != "__init__.py"
             or p.parent.name in ("course", "teach") and p.name == "__init__.py"]
    assert len(files) >= 20, files            # the search below looked somewhere
    return files


def test_no_shared_module_of_ai_names_a_game():
    named = {str(p.relative_to(ROOT)): line.strip()
             for p in shared_ai_files()
             for line in p.read_text(encoding="utf-8").splitlines() if GAME_WORDS.search(line)}
    assert not named


def test_the_set_up_scripts_name_no_game():
    scripts = [ROOT / "scripts" / name for name in ("setup", "serve", "test", "check-serve")]
    scripts.append(ROOT / ".ci" / "run")
    named = {str(p.relative_to(ROOT)): line.strip() for p in scripts
             for line in p.read_text(encoding="utf-8").splitlines() if GAME_WORDS.search(line)}
    assert not named


def test_every_game_folder_holds_rules_of_the_protocol():
    names = ai.games.names()
    assert {"connect4", "nim", "tictactoe"} <= set(names)
    for name in names:
        rules = ai.games.load(name).Rules()
        assert isinstance(rules, Game), name
        assert rules.name == name               # the folder is the game's name everywhere


# Issue 34: shared code calls the game's methods, each defined once with its default on
# ai.course.game.Game; it never asks a game whether it has one (getattr/hasattr), which gave
# every call site a default of its own.
ASKS_A_GAME = re.compile(r"\b(getattr|hasattr)\(\s*[\w.]*\b(game|rules)\s*,")


def test_shared_code_never_asks_a_game_whether_it_has_a_method():
    own = set(ai.games.names())
    web = [p for p in sorted((ROOT / "web").rglob("*.py"))
           if p.relative_to(ROOT / "web").parts[0] not in own]
    asks = {f"{p.relative_to(ROOT)}:{i}": line.strip()
            for p in shared_ai_files() + web
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if ASKS_A_GAME.search(line)}
    assert len(web) >= 20 and not asks
