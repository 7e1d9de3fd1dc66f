"""French and English: every visible string goes through the catalogue, and the French
catalogue has every entry. These tests fail on an unmarked template string or a missing
French translation."""
import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from flask_babel import gettext

from web.games import GAMES
from web.i18n import catalogue_dirs

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None,
            "GameError": None, "BadRequest": None, "Busy": None, "N_": None}
# Words that read the same in both languages, or are names and symbols, not prose.
ALLOWED = {"minimax-lab", "minimax", "J0", "J1", "SVG", "max", "min", "R",
           "maxScore", "α", "β", "xmlns",
           "arbre", "grille"}     # identifiers of the course's own Python listings, quoted as they are


def extracted_messages():
    # web/ holds strings people read too: the lab's examples, every parameter error.
    method_map = [("app.py", "python"), ("web/**.py", "python"), ("ai/**.py", "python"),
                  ("templates/**.html", "jinja2"), ("templates/**.svg", "jinja2")]
    found = set()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, keywords=KEYWORDS,
            options_map={"templates/**.html": {"trimmed": "true"}, "templates/**.svg": {"trimmed": "true"}}):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def french():
    """Every French catalogue, the shared one and each game's (``web.i18n.catalogue_dirs``)."""
    found = {}
    for folder in catalogue_dirs():
        with open(folder / "fr/LC_MESSAGES/messages.po", "rb") as f:
            found.update({m.id: m for m in read_po(f) if m.id})
    return found


def translated(entry) -> bool:
    forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    return all(forms) and not entry.fuzzy


def test_every_marked_string_has_a_french_translation():
    # a plural is found by its singular, and needs every French form
    catalogue = {k[0] if isinstance(k, tuple) else k: m for k, m in french().items()}
    missing = sorted(m for m in extracted_messages()
                     if m not in catalogue or not translated(catalogue[m]))
    assert not missing, f"{len(missing)} strings without French: {missing[:10]}"


def placeholders(text: str) -> set:
    return set(re.findall(r"%\(\w+\)[sdr]", text))


def test_french_translations_keep_every_placeholder():
    """A plain message keeps the English placeholders; a plural's French forms use only the
    English ones, and its plural form keeps them all ("Take 1 match" needs no %(k)s)."""
    for msgid, m in french().items():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        english = set().union(*map(placeholders, ids))
        for s in filter(None, strings):     # a missing one is the other test's failure
            assert placeholders(s) <= english, msgid
        if strings[-1]:
            assert placeholders(strings[-1]) == placeholders(ids[-1]), msgid


class VisibleText(HTMLParser):
    """Text a person sees (or hears): text nodes and the attributes that are read out."""

    def __init__(self):
        super().__init__()
        self.found, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.found.append(data)


def unmarked(template: str):
    # Drop Jinja comments, statements and expressions: what is left is the template's own text.
    text = re.sub(r"\{#.*?#\}", " ", template, flags=re.S)
    text = re.sub(r"\{%.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
    parser = VisibleText()
    parser.feed(text)
    words = []
    for chunk in parser.found:
        for word in re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9/'\-]*", chunk):
            if word not in ALLOWED and len(word) > 1:   # a lone letter is a key: u, t
                words.append(word)
    return words


@pytest.mark.parametrize("path", sorted((ROOT / "templates").glob("*.html")), ids=lambda p: p.name)
def test_templates_have_no_unmarked_text(path):
    assert unmarked(path.read_text()) == []


def test_the_unmarked_text_check_catches_a_bare_string():
    assert unmarked('<p>{{ _("Your turn.") }}</p><button aria-label="Drop here">1</button>') == ["Drop", "here"]
    assert unmarked("<p>{% if x %}Draw.{% endif %}</p>") == ["Draw"]


# -- the language in pages and links (test client) --------------------------------------------

def test_the_browser_language_chooses_french(client):
    html = client.get("/connect4", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="fr">' in html and "Puissance 4" in html and "À vous de jouer." in html
    html = client.get("/connect4", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="en">' in html and "Your turn." in html


def test_lang_in_the_url_wins_and_stays_in_every_link(client):
    r = client.get("/connect4/move?col=4&lang=fr", headers={"HX-Request": "true",
                                                              "Accept-Language": "en"})
    assert "lang=fr" in r.headers["HX-Push-Url"]
    html = r.get_data(as_text=True)
    assert "IA" in html and 'name="lang" value="fr"' in html      # forms keep it too
    links = re.findall(r'href="(/(?:connect4|nim|tree)[^"]*)"', html)
    assert links and all("lang=fr" in link for link in links)


def test_errors_are_translated(client):
    html = client.get("/connect4?moves=44448&lang=fr").get_data(as_text=True)
    assert "la colonne 8 n" in html.lower() or "colonne 8" in html
    assert "does not exist" not in html
    assert client.get("/connect4?lang=de").status_code == 400


def test_numbers_follow_the_locale(client):
    en = client.get("/connect4/compare?moves=4453&lang=en").get_data(as_text=True)
    fr = client.get("/connect4/compare?moves=4453&lang=fr").get_data(as_text=True)
    big_en = re.search(r'class="num">(\d{1,3}(?:,\d{3})+)<', en)
    assert big_en, "a count of 1,000 nodes or more"
    assert "\u202f" in fr or "\xa0" in fr.split("<tbody>")[1]    # French thousands separator


# -- a game's own words (its catalogue, GameSpec.catalogue) ----------------------------------

def translations_script():
    spec = importlib.util.spec_from_file_location("translations_script",
                                                  ROOT / "scripts/translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_catalogue(folder):
    with open(folder / "fr/LC_MESSAGES/messages.po", "rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


def test_every_game_of_the_table_has_its_own_catalogue():
    games = [spec for spec in GAMES.values() if spec.web]
    assert games and all((spec.catalogue / "fr/LC_MESSAGES/messages.po").exists()
                         for spec in games)
    assert catalogue_dirs()[0] == ROOT / "translations"
    assert {spec.catalogue for spec in games} <= set(catalogue_dirs())


def test_a_word_only_in_a_game_s_catalogue_is_french_on_its_page(app, client):
    shared = read_catalogue(ROOT / "translations")
    nim = read_catalogue(GAMES["nim"].catalogue)
    assert "Nim: the matches game" in nim and "Nim: the matches game" not in shared
    html = client.get("/nim?lang=fr").get_data(as_text=True)
    assert nim["Nim: the matches game"].string in html and "Nim: the matches game" not in html
    # and every plain entry of every game's catalogue, in a French request
    with app.test_request_context("/?lang=fr"):
        for spec in GAMES.values():
            for msgid, m in read_catalogue(spec.catalogue).items():
                if isinstance(msgid, str) and not m.context:
                    assert gettext(msgid) == m.string, (spec.name, msgid)


def test_the_shared_catalogue_holds_no_game_s_words():
    """A word only games use is in their catalogues, not in the shared one; a word shared
    code uses is only in the shared one (scripts/translations decides, from the games table)."""
    script = translations_script()
    extracted = {folder: {script._msgid(m.id) for m in cat if m.id}
                 for folder, cat in script.extract().items()}
    shared = {script._msgid(i) for i in read_catalogue(script.SHARED)}
    assert len(extracted) == len(catalogue_dirs())
    for folder, words in extracted.items():
        if folder != script.SHARED:
            assert words, folder                 # every game has words of its own
            assert not words & extracted[script.SHARED]
            assert not words & shared, (folder, sorted(words & shared)[:5])
            own = {script._msgid(i) for i in read_catalogue(folder)}
            assert not own & shared, (folder, sorted(own & shared)[:5])


def test_the_translations_script_says_how_to_call_it(capsys):
    assert translations_script().main(["bogus"]) == 2
    assert "scripts/translations update" in capsys.readouterr().err
    assert translations_script().main(["--help"]) == 0
    assert "the games table" in capsys.readouterr().out
