"""French as a French teacher writes it, and every number in the page's language (issue 9,
items 7, 16, 19, 20, 21).

Most tests here are general: they read the whole French catalogue, or render the main pages in
both languages and read what a person sees there (text nodes and the attributes read out:
aria-label, title, alt, placeholder, and the copy button's "copied" word). Moves strings
(``343455334``) are notation, not numbers: the pages mark them ``translate="no"``, and a tree
node's name in its tooltip ("max (after 3, 4): ...") is its moves from the root.
"""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from web.i18n import catalogue_dirs

ROOT = Path(__file__).resolve().parent.parent
NNBSP = "\u202f"     # narrow no-break space: French puts one before : ; ? ! and groups digits

SEED_003 = ("/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2&heur=course"
            "&window=course&order=reverse&moves=1&td=2")
# The main pages (issue 9's list), a 404, and a few states with more words and numbers.
PAGES = [
    "/", "/connect4?moves=4453&tree=1", "/nim?tree=1", "/nim/theory", "/tree",
    "/tree?mode=exercise", "/connect4/compare?moves=4453", "/nim/compare", "/no-such-page",
    SEED_003, SEED_003 + "&step=6",
    "/nim?n=20&tree=1&level=custom&algo=alphabeta&depth=3",
    "/tree?mode=exercise&check=1&v.R=3&v.1=3&v.2=5&p=1.2",
    "/connect4?moves=4453&mode=human-human",
    "/tree?t=" + "[1," * 1400 + "1" + "]" * 1400,                  # too long: a 400 page
]


def catalogue():
    """Every French catalogue's entries, the shared one's and each game's."""
    found = []
    for folder in catalogue_dirs():
        with open(folder / "fr/LC_MESSAGES/messages.po", "rb") as f:
            found += [m for m in read_po(f) if m.id]
    return found


def forms(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


class Reader(HTMLParser):
    """What a person reads on a page: text nodes and the attributes read out, each with
    whether it is notation (inside an element marked translate="no")."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.chunks, self.stack = [], []      # stack: (tag, notation, hidden)

    def _state(self):
        return (any(n for _, n, _ in self.stack), any(h for _, _, h in self.stack))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        notation, hidden = self._state()
        notation = notation or attrs.get("translate") == "no"   # its own attributes too (HTML)
        for name in ("aria-label", "title", "placeholder", "alt", "data-copied"):
            if attrs.get(name):
                self.chunks.append((attrs[name], notation))
        if tag not in self.VOID:
            self.stack.append((tag, attrs.get("translate") == "no",
                               tag in ("script", "style")))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        notation, hidden = self._state()
        if data.strip() and not hidden:
            self.chunks.append((data, notation))


def read(client, url, lang):
    r = client.get(url + ("&" if "?" in url else "?") + "lang=" + lang)
    assert r.status_code in (200, 400, 404), (url, r.status_code)
    reader = Reader()
    reader.feed(r.get_data(as_text=True))
    return reader.chunks


def prose(chunks):
    """The chunks that are words and numbers, not notation; node names dropped."""
    return [re.sub(r"\b(max|min) [\d.]+", r"\1", text)
            for text, notation in chunks if not notation]


@pytest.fixture(scope="module")
def pages():
    """Every page of PAGES in both languages: {(lang, url): [chunk, ...]}."""
    from app import create_app
    client = create_app({"TESTING": True}).test_client()
    return {(lang, url): read(client, url, lang) for lang in ("fr", "en") for url in PAGES}


# -- item 7: "Copy link" says "copied" in the page's language ----------------------------------

def test_the_copy_button_carries_its_copied_word_in_the_page_language(client):
    """Issue 9, item 7: static/app.js shows the button's data-copied word; the page gives it
    translated, and the script has no English word of its own to fall back on."""
    for lang, word in (("fr", "Lien copié"), ("en", "Link copied")):
        html = client.get(f"/connect4?moves=44&lang={lang}").get_data(as_text=True)
        button = re.search(r"<button[^>]*class=\"button copy-link\"[^>]*>", html).group(0)
        assert f'data-copied="{word}"' in button
    assert '"Copied"' not in (ROOT / "static/app.js").read_text()


@pytest.mark.browser
def test_clicking_copy_link_in_french_says_lien_copie(page, live_server):
    """Issue 9, item 7: in Chromium, the French button turns into "Lien copié"."""
    from playwright.sync_api import expect
    page.goto(live_server + "/connect4?moves=44&lang=fr")
    button = page.locator("button.copy-link")
    expect(button).to_have_text("Copier le lien")
    button.click()
    expect(button).to_have_text("Lien copié")
    expect(button).to_have_text("Copier le lien")          # and back after a moment


# -- item 16: every number through the locale ----------------------------------------------------

def test_no_number_of_four_digits_or_more_is_left_ungrouped(pages):
    """Issue 9, item 16: "12990 pruned subtrees" beside "10,392 nodes" (and "12527" beside
    "14 962" in French): on every page, in both languages, a number of 4 digits or more is
    grouped (1,234 in English, 1 234 with a narrow no-break space in French)."""
    bad = {}
    for (lang, url), chunks in pages.items():
        found = [m for text in prose(chunks) for m in re.findall(r"\d{4,}", text)]
        if found:
            bad[lang, url] = found[:5]
    assert not bad


def test_french_groups_with_a_narrow_no_break_space_and_english_with_a_comma(client):
    """Issue 9, item 16: the Nim tree of 20 matches has 266,079 nodes (the course: "plus de
    250'000 sommets"); the caption counts against it in the page's language."""
    url = "/nim?n=20&tree=1&level=custom&algo=alphabeta&depth=3"
    fr = client.get(url + "&lang=fr").get_data(as_text=True)
    en = client.get(url + "&lang=en").get_data(as_text=True)
    assert f"sommets sur 266{NNBSP}079" in fr
    assert "of 266,079 nodes" in en


def test_values_bounds_and_error_numbers_follow_the_locale(app):
    """Issue 9, item 16: a search value (+2,5), a bound (7 654), a proven win (V3 in French:
    victoire) and the numbers inside an error message go through the locale."""
    from ai.messages import GameError
    from ai.course.search import MAX_SCORE
    from web.i18n import tr
    from web.notation import format_bound, format_value

    too_long = GameError("the tree is too long (%(n)s characters, at most %(most)s)",
                         n=5000, most=4000)
    with app.test_request_context("/?lang=fr"):
        assert format_value(2.5) == "+2,5" and format_value(-0.25) == "-0,25"
        assert format_value(3) == "+3"
        assert format_bound(7654) == f"7{NNBSP}654" and format_bound(-1.5) == "-1,5"
        assert format_bound(MAX_SCORE - 3) == "V3" and format_bound(3 - MAX_SCORE) == "D3"
        assert format_bound(7654, group=False) == "7654"      # a form field reads it back
        assert tr(too_long) == f"l’arbre est trop long (5{NNBSP}000 caractères, 4{NNBSP}000 au maximum)"
    with app.test_request_context("/?lang=en"):
        assert format_value(2.5) == "+2.5" and format_bound(7654) == "7,654"
        assert format_bound(MAX_SCORE - 3) == "W3" and format_bound(3 - MAX_SCORE) == "L3"
        assert tr(too_long) == "the tree is too long (5,000 characters, at most 4,000)"


# -- item 19: nothing left in English ------------------------------------------------------------

# Common English words that may come from outside the catalogue (Werkzeug's error pages, a label
# left in code); the catalogue's own English-only words are added to these.
ENGLISH = {"the", "of", "and", "with", "not", "was", "found", "requested", "server", "please",
           "your", "this", "that", "is", "are", "at", "by", "from", "to", "in", "it", "nodes",
           "node", "move", "moves", "seed", "deeper", "four", "levels", "copied", "hit", "hits",
           "win", "loss", "wins", "left", "turn", "search", "tree", "game", "link"}
SHARED = {"minimax", "lab", "max", "min", "maxScore", "TT", "SVG", "Tab", "AIMA", "MIN", "MAX",
          "ms"}    # "lab": the app's name, minimax-lab


def words(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W\d_]+", text) if len(w) > 1]


def english_only_words() -> set[str]:
    """Words of the English messages that no French translation uses."""
    english, french = set(), set()
    for m in catalogue():
        english.update(w.lower() for s in forms(m.id) for w in words(re.sub(r"%\(\w+\)\w", " ", s)))
        french.update(w.lower() for s in forms(m.string) for w in words(re.sub(r"%\(\w+\)\w", " ", s)))
    return (english - french | ENGLISH) - {w.lower() for w in SHARED}


def test_no_english_is_left_in_the_french_pages(pages):
    """Issue 9, item 19: the lab's examples ("Deeper, with cut-offs at two levels"), the 404
    page, "W3/L3" and every other string read in French; no English-only word remains."""
    english = english_only_words()
    assert {"deeper", "beta", "found"} <= english          # the check can see English
    left = {}
    for (lang, url), chunks in pages.items():
        if lang != "fr":
            continue
        text = " ".join(prose(chunks))
        found = sorted({w for w in words(text) if w.lower() in english})
        found += re.findall(r"\b[WL]\d+\b", text)          # W3 / L3: V3 / D3 in French
        if found:
            left[url] = found[:8]
    assert not left


def test_the_lab_examples_and_the_404_page_are_french(client):
    """Issue 9, item 19: the lab's examples (strings of web/, which the catalogue missed) and
    the 404 page (Werkzeug's English "Not Found") read in French."""
    lab = client.get("/tree?lang=fr").get_data(as_text=True)
    assert "Plus profond, avec des coupures à deux niveaux" in lab
    assert "Quatre niveaux (la figure alpha-bêta de Wikipédia)" in lab
    assert "Deeper" not in lab
    missing = client.get("/no-such-page?lang=fr")
    assert missing.status_code == 404
    assert "Page introuvable" in missing.get_data(as_text=True)
    assert "Not Found" not in missing.get_data(as_text=True)
    assert "Page not found" in client.get("/no-such-page?lang=en").get_data(as_text=True)


def test_the_tree_legend_is_french(client):
    """Issue 9, item 19: "W3/L3" and "TT" were left as they are; in French a win in 3 is V3
    (victoire) and a loss D3 (défaite), and TT is explained as the transposition table."""
    tree = client.get("/connect4?moves=4453&tree=1&level=medium&lang=fr").get_data(as_text=True)
    assert "V3/D3 = victoire/défaite en 3 demi-coups" in tree and "W3/L3" not in tree
    assert '<abbr title="table de transposition">TT</abbr> trouvé dans la table' in tree


# -- item 20: the course, not our file names -----------------------------------------------------

def test_no_message_says_seed_in_either_language():
    """Issue 9, item 20: "seed 000", "(étiquetage du seed 000)", "(seed 003)" are our file
    names; people know the course ("cours, chapitre minmax") and its figures' titles."""
    said = [s for m in catalogue() for s in forms(m.id) + forms(m.string)
            if re.search(r"seed", s, re.I)]
    assert not said


def test_no_page_says_seed_in_either_language(pages):
    """Issue 9, item 20: nor does any rendered page (the heuristics' labels on the game pages,
    the legend of /nim/theory), in French or in English."""
    said = {key: [t for t in prose(chunks) if re.search(r"seed", t, re.I)]
            for key, chunks in pages.items()}
    assert not {k: v for k, v in said.items() if v}


def test_the_course_is_named_as_the_course(client):
    """Issue 9, item 20: the heuristic and the labels cite the course by its chapter."""
    fr = client.get("/connect4?lang=fr").get_data(as_text=True)
    assert "valeurs des cases (cours, chapitre minmax)" in fr
    theory = client.get("/nim/theory?lang=fr").get_data(as_text=True)
    assert "(étiquetage du cours, chapitre minmax)" in theory


# -- item 21: grammar and typography --------------------------------------------------------------

def unspaced(text: str) -> list[str]:
    """The : ; ? ! in ``text`` with no narrow no-break space before them (a sign alone is a
    key name, as in the help's "?")."""
    if text.strip() in (":", ";", "?", "!"):
        return []
    return [text[max(0, m.start() - 12):m.end() + 1]
            for m in re.finditer(r"[:;?!]", text) if text[m.start() - 1:m.start()] != NNBSP]


def test_every_french_message_has_a_narrow_no_break_space_before_double_punctuation():
    """Issue 9, item 21: in French, a narrow no-break space (U+202F) before : ; ? ! in every
    message, never a plain space, a no-break space (U+00A0) or nothing."""
    bad = {m.id: found for m in catalogue() for s in forms(m.string) if (found := unspaced(s))}
    assert not bad


def test_every_french_message_elides_with_the_typographic_apostrophe():
    """"l’arbre", "l’IA", "n’a" with U+2019, as most of the catalogue already wrote them:
    the projector showed "Masquer l'arbre" beside "l’issue exacte" on one screen."""
    straight = re.compile(r"[^\W\d_]'[^\W\d_]")
    bad = {m.id: s for m in catalogue() for s in forms(m.string) if straight.search(s)}
    assert not bad


def test_french_pages_have_a_narrow_no_break_space_before_double_punctuation(pages):
    """Issue 9, item 21: the same on the rendered pages, where templates join messages
    ("max (racine) : valeur 9" in a node's tooltip, "343455334; valeur 9")."""
    bad = {url: found for (lang, url), chunks in pages.items() if lang == "fr"
           for found in [[f for t in prose(chunks) for f in unspaced(t)]] if found}
    assert not bad


COUNT_NOUNS = (r"nodes?|matches?|children|child|subtrees?|cut-offs?|table hits?|characters?"
               r"|levels?|leaves|leaf|answers?|columns?|rows?|steps?")
# Counts that are never 1, and why.
NEVER_ONE = {
    # a board has 4 to 9 columns and rows (checked below)
    "Board, %(w)s columns by %(h)s rows; row 1 is the bottom",
    "the board has %(w)s columns, not %(n)s",
    # the table page's demonstration is always the game of 8 matches (ai.teach.table_view)
    "The game of %(n)s matches (take 1 to %(k)s), the course's evaluation, depth %(d)s: the value at the root",
    # taking 1 match is legal whenever a match is left (and with none left, the game is over)
    "cannot take %(move)s matches: take 1 to %(most)s (%(left)s left)",
}


def test_every_message_counting_things_is_a_plural():
    """Issue 9, item 21: "1 fils élagués", "1 allumettes": a message with a number followed
    by what it counts is an ngettext plural. A limit (%(most)s, a constant over 1) and a
    count reported as over that limit in the same message are always plural."""
    from web.games import CONNECT4
    assert CONNECT4.param("width").lo == CONNECT4.param("height").lo == 4
    singular_only = []
    for m in catalogue():
        if (isinstance(m.id, tuple) or m.id in NEVER_ONE
                or "at most %(most)s" in m.id or "up to %(most)s" in m.id):
            continue
        for name in re.findall(r"%\((\w+)\)s (?:" + COUNT_NOUNS + r")\b", m.id):
            if name != "most":
                singular_only.append(m.id)
    assert not singular_only


# Plural words that a French singular form (n = 0 or 1) must not use.
FRENCH_PLURALS = {"sommets", "allumettes", "élagués", "sous-arbres", "coupures", "restantes",
                  "repliés", "réponses", "caractères", "niveaux"}


def test_french_singular_forms_are_singular():
    """Issue 9, item 21: every plural message has a French singular ("1 fils élagué",
    "1 allumette restante") that is really singular."""
    plurals = [m for m in catalogue() if isinstance(m.id, tuple)]
    assert len(plurals) >= 12
    bad = []
    for m in plurals:     # the two words after the count (a placeholder, or 1)
        for after in re.findall(r"(?:%\(\w+\)s|\b1) ([\w-]+)(?: ([\w-]+))?", m.string[0]):
            if set(after) & FRENCH_PLURALS:
                bad.append(m.string[0])
    assert not bad


def test_counts_of_one_read_in_the_singular(client):
    """Issue 9, item 21: the known ones, rendered with a count of 1."""
    nim = client.get("/nim?n=4&k=1&moves=111&mode=human-human&lang=fr").get_data(as_text=True)
    assert "1 allumette restante" in nim and "Prenez 1 allumette." in nim
    assert "1 allumettes" not in nim
    # [[3, 5], [2, 9]]: alpha-beta cuts the 9 after the 2 (one child pruned)
    steps = [client.get(f"/tree?t=[[3,5],[2,9]]&step={i}&lang=fr").get_data(as_text=True)
             for i in range(20)]
    cut = [html for html in steps if "Coupure au sommet" in html]
    assert cut and f"Coupure au sommet min 2{NNBSP}: 1 fils élagué." in cut[0]
    lab = client.get("/tree?algo=minimax&mode=exercise&check=1&v.R=3&v.1=3&v.2=4&v.3=2&lang=fr")
    assert f"1 erreur, marquée ✗ ci-dessous{NNBSP}:" in lab.get_data(as_text=True)


ELISION = re.compile(r"(?<![\w-])(que|de|le|la|ne|se|ce|je|me|te) (?=[aeiouàâäéèêëîïôöûü])", re.I)
# placeholders filled with words, which may begin with a vowel ("alpha-bêta", "IA Jaune")
WORD_PLACEHOLDER = re.compile(r"(?<![\w-])(que|de|le|la|ne|se|ce|je) %\((who|algo|field|err|note|"
                              r"verdict|label)\)s", re.I)


def test_french_elides_before_a_vowel():
    """Issue 9, item 21: "que alpha-bêta" is "qu'alpha-bêta" (or another turn of phrase); no
    message writes que/de/le/la... before a vowel, or before a word that may start with one."""
    bad = [s for m in catalogue() for s in forms(m.string)
           if s and (ELISION.search(s) or WORD_PLACEHOLDER.search(s))]
    assert not bad


def test_french_pages_elide_before_a_vowel(pages):
    """Issue 9, item 21: nor does any French page once the values are filled in."""
    bad = {url: ELISION.findall(" ".join(prose(chunks)))
           for (lang, url), chunks in pages.items() if lang == "fr"}
    assert not {k: v for k, v in bad.items() if v}


def test_french_uses_the_course_words():
    """Issue 9, item 21: the course says "pions" (Puissance 4), "a exploré 9 sommets sur 28";
    not "jetons", "explorés N sommets", "succès dans la table" or "l'appli"."""
    banned = re.compile(r"jeton|: explorés|explorés \d|succès|\bappli\b", re.I)
    bad = [s for m in catalogue() for s in forms(m.string) if s and banned.search(s)]
    assert not bad


def test_the_course_figure_reads_as_the_course_says(client):
    """Issue 9, item 21: the course's figure, "Seuls 9 sommets sur 28 sont explorés", reads
    "alpha-bêta a exploré 9 sommets sur 28" in the app."""
    html = client.get(SEED_003 + "&lang=fr").get_data(as_text=True)
    assert "alpha-bêta a exploré 9 sommets sur 28" in html
    assert "Lâchez des pions, alignez-en quatre." in client.get("/?lang=fr").get_data(as_text=True)


def test_item_16_the_lab_corrections_write_decimals_the_french_way(client):
    """A correction's numbers go through the locale too: a decimal leaf is 2,5 in French."""
    # the second wrong try at node 1 shows its value (the first only hints)
    html = client.get("/tree?lang=fr&mode=exercise&t=[[2.5,3],[1]]&check=1&v.R=7&v.1=7&w=v.1"
                      ).get_data(as_text=True)
    marks = " ".join(re.findall(r'<li class="mark[^>]*>(.*?)</li>', html, re.S))
    assert "c’est 2,5, pas 7" in marks and "2.5" not in marks, marks
    # typed the French way, it is read back the French way
    html = client.get("/tree?lang=fr&mode=exercise&t=[[2.5,3],[1]]&check=1&v.1=2,5"
                      ).get_data(as_text=True)
    assert 'name="v.1" value="2,5"' in html


def test_the_whole_tree_is_the_course_s_arbre_des_etats(client):
    """Seed 003 calls the whole game tree "l'arbre des états" (266 079 sommets for 20 matches)."""
    html = client.get("/nim/compare?n=20&lang=fr").get_data(as_text=True)
    assert "L’arbre des états à partir d’ici, jusqu’à la fin de la partie\u202f: 266\u202f079 sommets." in html
    assert "l’arbre des états complet" in client.get("/nim/theory?lang=fr").get_data(as_text=True)


def test_the_class_tournament_pages_have_a_narrow_no_break_space_before_double_punctuation(
        tmp_path, monkeypatch):
    """The same on a class tournament's pages, which PAGES cannot reach (they need a class and
    its tournament): the set-up, the live page while it runs (a phone's too) and once done,
    the finale, the link's standings, and the page that says why there is no link."""
    from app import create_app
    from web.classroom.kept_links import SqliteKeptLinks
    from web.classroom.store import StoreError
    from web.tournament import results as TR
    from web.tournament.live import runner
    from test_classroom import start_class, student

    def short_link(app, teacher, live):
        html = teacher.get(live).get_data(as_text=True)
        found = re.search(r'href="([^"]*\?k=[^"]*)" id="tl-standings-link"', html)
        return found.group(1)

    app = create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "c.sqlite3"), "REDIS_URL": "",
                      "TOURNAMENT_RUNNER": "manual"})
    try:
        teacher, code, _ = start_class(app)
        live = f"/connect4/tournament/live/{code}"
        chunks = read(teacher, live, "fr")                                      # the set-up
        teacher.post(live + "/start", data={"lines": "Ada:cells=1,open3=8\nBob:open2=4",
                                            "boss": ["beginner"], "depth": "2", "openings": "2"})
        with app.app_context():
            runner().advance(code, 3)
        chunks += read(teacher, live, "fr") + read(student(app, code), live, "fr")  # running
        with app.app_context():
            runner().advance(code)
        page = teacher.get(live).get_data(as_text=True)
        link = re.search(r'href="([^"]*)" id="tl-standings-link"', page).group(1)
        teacher.post(live + "/finale", data={"action": "start"})
        for _ in range(3):
            teacher.post(live + "/finale", data={"action": "next"})
        chunks += read(teacher, live, "fr") + read(teacher, link.replace("&amp;", "&"), "fr")
        monkeypatch.setattr(TR, "MAX_LINK", 40)          # past it: a short link, kept
        chunks += read(teacher, short_link(app, teacher, live), "fr")
        chunks += read(teacher, "/connect4/tournament/results?k=" + "A" * 22, "fr")  # not kept

        def away(self, text):
            raise StoreError("away")
        monkeypatch.setattr(SqliteKeptLinks, "keep", away)
        TR._kept.clear()
        chunks += read(teacher, live, "fr")                   # no link: the store cannot keep it
        text = " ".join(t for t, _ in chunks)
        assert "Partie 12\u202f:" in text and "Tableau croisé" in text and "pas de lien" in text
        assert "n’est pas conservé" in text
        assert not [f for t in prose(chunks) for f in unspaced(t)]
    finally:
        app.extensions["class_hub"].stop()
        app.extensions["class_store"].close()
