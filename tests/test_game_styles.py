"""Each game's styles in its own stylesheet (``GameSpec.stylesheet``, under ``static/games/``),
linked by every page, since a game's board shows on many (its page, the home card, a class's
pages, the peek, the review, the course); the shared ``static/app.css`` styles no game's own
markup."""
import re
from pathlib import Path

import pytest

from web.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["/", "/connect4?moves=4453", "/nim?moves=2", "/tictactoe?moves=5", "/course",
         "/connect4/review?moves=4453", "/nim/review?moves=2131", "/nim/theory", "/tree",
         "/connect4/edit?moves=4453", "/no-such-page"]


def classes(text: str) -> tuple[set, set]:
    """The class names a template writes, and the prefixes of those it computes
    (``cols-{{ n }}``: ``cols-``)."""
    names, prefixes = set(), set()
    for attr in re.findall(r'class="([^"]*)"', text):
        prefixes |= set(re.findall(r"([a-zA-Z][\w-]*-)\{\{", attr))
        attr = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", attr)
        names |= {t for t in attr.split() if re.fullmatch(r"[a-zA-Z][\w-]*", t)}
    return names, prefixes


def styled(css: str) -> set:
    """The class names a stylesheet's selectors name."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return set(re.findall(r"\.([a-zA-Z][\w-]*)(?=[^{}]*\{)", css))


def test_every_game_has_its_stylesheet():
    for spec in GAMES.values():
        assert spec.stylesheet.startswith("games/"), spec.name
        assert (ROOT / "static" / spec.stylesheet).is_file(), spec.stylesheet


@pytest.mark.parametrize("url", PAGES)
def test_every_page_links_every_game_s_stylesheet_once(client, url):
    html = client.get(url).get_data(as_text=True)
    for sheet in {spec.stylesheet for spec in GAMES.values()}:
        assert len(re.findall(rf'<link rel="stylesheet" href="/static/{sheet}[?"]', html)) == 1, \
            (url, sheet)


def test_the_shared_stylesheet_styles_no_game_s_own_markup():
    """A class only one game's templates write (none of the shared templates, scripts or web
    modules, no other game) is styled in that game's stylesheet, not in static/app.css."""
    games = {}
    for folder in (ROOT / "templates/games").iterdir():
        games[folder.name] = set().union(*(classes(f.read_text())[0] for f in folder.glob("*")))
    shared_files = [*(ROOT / "templates").glob("*.html"), *(ROOT / "templates").glob("*.svg"),
                    ROOT / "static/app.js", *(ROOT / "web").rglob("*.py")]
    shared, prefixes, words = set(), set(), set()
    for f in shared_files:
        text = f.read_text()
        names, pre = classes(text)
        shared |= names
        prefixes |= pre
        words |= set(re.findall(r"[a-zA-Z][\w-]*", text))   # a class shared code writes
    app_css = styled((ROOT / "static/app.css").read_text())
    assert {"drop-row", "heap", "mini-board"} & set().union(*games.values())   # found at all
    for name, found in games.items():
        others = set().union(*(v for k, v in games.items() if k != name))
        own = {c for c in found - shared - others - words
               if not any(c.startswith(p) for p in prefixes)}
        assert not own & app_css, (name, sorted(own & app_css))
