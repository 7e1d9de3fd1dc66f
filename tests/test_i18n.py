"""French and English: every visible string goes through the catalogue, and the French
catalogue has every entry. These tests fail on an unmarked template string or a missing
French translation."""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None,
            "GameError": None, "BadRequest": None, "N_": None}
# Words that read the same in both languages, or are names and symbols, not prose.
ALLOWED = {"minimax-lab", "minimax", "J0", "J1", "TT", "SVG", "W3/L3", "max", "min", "R",
           "maxScore", "α", "β", "xmlns"}


def extracted_messages():
    method_map = [("app.py", "python"), ("ai/**.py", "python"), ("templates/**.html", "jinja2"),
                  ("templates/**.svg", "jinja2")]
    found = set()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, keywords=KEYWORDS,
            options_map={"templates/**.html": {"trimmed": "true"}, "templates/**.svg": {"trimmed": "true"}}):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def french():
    with open(ROOT / "translations/fr/LC_MESSAGES/messages.po", "rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


def test_every_marked_string_has_a_french_translation():
    catalogue = french()
    missing = sorted(m for m in extracted_messages()
                     if m not in catalogue or not catalogue[m].string or catalogue[m].fuzzy)
    assert not missing, f"{len(missing)} strings without French: {missing[:10]}"


def test_french_translations_keep_every_placeholder():
    for msgid, m in french().items():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = sorted(set(re.findall(r"%\(\w+\)[sdr]", ids[0])))
        for s in filter(None, strings):     # a missing one is the other test's failure
            assert sorted(set(re.findall(r"%\(\w+\)[sdr]", s))) == want, msgid


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
