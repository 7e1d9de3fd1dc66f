"""The message catalogues: the shared one (``translations/``) and each game's own
(``translations/`` in its web package, ``GameSpec.catalogue``), found from the games table.

    scripts/translations extract   write each catalogue's template (messages.pot)
    scripts/translations update    extract, then merge into every language's messages.po
                                   (new entries to translate, gone ones dropped)
    scripts/translations compile   compile every messages.po into the messages.mo the app reads

Which strings ``babel.cfg`` says (its files, their extraction methods); whose they are, the games
table says: a string found in a game's folders (its rules' package in ``ai/games/``, its web
package, its templates' folder ``templates/games/<folder>/``) or in its entry of the games table
(``GameSpec(...)`` in ``web/games.py``) is the game's, unless shared code uses it too: then it is
shared, and only there. Games that share a web package share its catalogue.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import CommandLineInterface, parse_mapping_cfg
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from web import games  # noqa: E402
from web.i18n import LANGUAGES  # noqa: E402

SHARED = ROOT / "translations"
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "_l": None, "GameError": None,
            "BadRequest": None, "Busy": None}


def _folder(module: str) -> Path:
    """A module's package folder, or its file when it is a lone module."""
    import importlib.util

    found = importlib.util.find_spec(module)
    if found.submodule_search_locations:
        return Path(found.submodule_search_locations[0])
    return Path(found.origin)


def game_paths(spec) -> list[Path]:
    """The files and folders whose strings are the game's: its rules' package (the top
    package below ``ai.games``, else the rules' own module), its web package, its templates'
    folders (``templates/games/<folder>/`` of its page, boards and tree notes)."""
    module = spec.rules.__module__
    parts = module.split(".")
    paths = [_folder(".".join(parts[:3]) if parts[:2] == ["ai", "games"] else module)]
    if spec.catalogue is not None:
        paths.append(spec.catalogue.parent)
    for template in (spec.template, spec.boards, spec.tree_notes):
        parts = Path(template).parts
        if len(parts) > 2 and parts[0] == "games":
            paths.append(ROOT / "templates" / parts[0] / parts[1])
    return [p.resolve() for p in paths]


def table_entries() -> dict[range, Path]:
    """The lines of each game's entry in the games table (``NAME = GameSpec("name", ...)``),
    with the game's catalogue."""
    source = Path(games.__file__)
    entries = {}
    for node in ast.parse(source.read_text()).body:
        call = getattr(node, "value", None)
        if (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "GameSpec"
                and call.args and isinstance(call.args[0], ast.Constant)):
            spec = games.GAMES.get(call.args[0].value)
            if spec is not None and spec.catalogue is not None:
                entries[range(call.lineno, call.end_lineno + 1)] = spec.catalogue
    return entries


def catalogue_of(path: Path, lineno: int, owners: list, entries: dict) -> set[Path]:
    """The catalogues a string found at ``path:lineno`` belongs to; empty: the shared one."""
    if path == Path(games.__file__).resolve():
        return {c for lines, c in entries.items() if lineno in lines}
    return {c for folder, c in owners if path == folder or folder in path.parents}


def extract() -> dict[Path, Catalog]:
    """Every catalogue's template: the shared one's strings, and each game's own."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    owners = [(p, spec.catalogue) for spec in games.GAMES.values()
              if spec.catalogue is not None for p in game_paths(spec)]
    entries = table_entries()
    found = defaultdict(list)      # catalogue -> (message, location, comments, context)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS):
        where = catalogue_of((ROOT / filename).resolve(), lineno, owners, entries)
        for catalogue in where or {SHARED}:
            found[catalogue].append((message, (filename, lineno), comments, context))
    shared = {_msgid(m) for m, *_ in found[SHARED]}
    catalogues = {}
    for catalogue in [SHARED] + [c for _, c in owners]:
        catalogues.setdefault(catalogue, Catalog(project="minimax-lab", charset="utf-8"))
    for catalogue, occurrences in found.items():
        for message, location, comments, context in occurrences:
            # a word shared code uses is the shared catalogue's, with all its uses (a game's
            # plural of it too: Catalog.add keeps the plural form)
            home = SHARED if _msgid(message) in shared else catalogue
            catalogues[home].add(message, None, [location], auto_comments=comments,
                                 context=context)
    return catalogues


def _msgid(message) -> str:
    return message[0] if isinstance(message, tuple) else message


def pybabel(*args: str) -> None:
    """Babel's own command (``pybabel``), stopping the script when it fails."""
    if CommandLineInterface().run(["pybabel", "--quiet", *args]):
        sys.exit(f"pybabel {' '.join(args)} failed")


def write_templates() -> dict[Path, Catalog]:
    catalogues = extract()
    for folder, catalog in catalogues.items():
        folder.mkdir(exist_ok=True)
        with open(folder / "messages.pot", "wb") as f:
            write_po(f, catalog, width=100, sort_output=True)
    return catalogues


def update() -> None:
    for folder in write_templates():
        for lang in LANGUAGES:
            if lang == "en":        # the msgids are English
                continue
            po = folder / lang / "LC_MESSAGES" / "messages.po"
            action = "update" if po.exists() else "init"
            pybabel(action, "-i", str(folder / "messages.pot"), "-d", str(folder), "-l", lang,
                    "-w", "100",
                    *(("--no-fuzzy-matching", "--ignore-obsolete") if action == "update" else ()))


def compile_all() -> None:
    from web.i18n import catalogue_dirs

    for folder in catalogue_dirs():
        if any(folder.glob("*/LC_MESSAGES/messages.po")):
            pybabel("compile", "-d", str(folder))


def main(argv: list[str]) -> int:
    commands = {"extract": write_templates, "update": update, "compile": compile_all}
    if argv in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
