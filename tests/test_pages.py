"""Issue 9: what every page owes a teacher and a student before anything else: forms that
send each field once (item 6), an icon (item 8), projector mode on every page (item 11), and
a home page that shows what the app does for a lesson and for a game (item 18)."""
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest


class Forms(HTMLParser):
    """The forms of a page, each as the list of the names of the fields it sends."""

    def __init__(self):
        super().__init__()
        self.forms, self.links, self.icons, self.images, self.body_class = [], [], [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append([] if a.get("method") != "dialog" else None)
        elif tag in ("input", "select", "textarea", "button") and self.forms and a.get("name") \
                and self.forms[-1] is not None:
            if tag == "button" or a.get("type") in ("radio", "checkbox"):
                return                  # sent only when chosen: one of several is fine
            self.forms[-1].append(a["name"])
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "link" and "icon" in (a.get("rel") or "").split():
            self.icons.append(a)
        elif tag == "img":
            self.images.append(a)
        elif tag == "body":
            self.body_class = (a.get("class") or "").split()


def parsed(html: str) -> Forms:
    p = Forms()
    p.feed(html)
    return p


FORM_PAGES = [
    "/connect4?lang=fr&moves=44",
    "/connect4?lang=fr&moves=4&mode=human-ai",     # the AI to move: its "AI, play now" form
    "/connect4?lang=fr&mode=ai-ai&play=0",
    "/nim?lang=fr&mode=ai-human",
    "/tree?lang=fr", "/tree?lang=fr&mode=exercise", "/nim/theory?lang=fr",
    "/connect4/compare?lang=fr&moves=4453",
]


@pytest.mark.parametrize("url", FORM_PAGES)
def test_item_6_every_form_sends_each_field_once(client, url):
    """Issue 9, item 6: a form submit gave ``lang=fr&lang=fr`` (the field was rendered twice)."""
    response = client.get(url)
    assert response.status_code == 200
    forms = parsed(response.get_data(as_text=True)).forms
    assert forms, "no form on the page"
    for names in filter(None, forms):       # not the help dialog's "Close"
        repeated = sorted({n for n in names if names.count(n) > 1})
        assert not repeated, f"{url}: a form sends {repeated} more than once"
        assert names.count("lang") == 1, f"{url}: a form loses the page's language"


def test_item_8_every_page_names_an_icon_that_exists(client):
    """Issue 9, item 8: no favicon meant a 404 and a console error on every first load."""
    icons = parsed(client.get("/").get_data(as_text=True)).icons
    assert icons, "no <link rel=icon>"
    for icon in icons:
        with client.get(icon["href"]) as response:
            assert response.status_code == 200
            assert response.mimetype.startswith("image/")
    # browsers and feed readers that ignore the link still ask for /favicon.ico
    response = client.get("/favicon.ico")
    assert response.status_code in (200, 301, 302, 308)


PROJECTOR_PAGES = ["/", "/tree", "/tree?mode=exercise", "/nim/theory", "/connect4", "/nim",
                   "/connect4/compare?moves=4453", "/nim/compare", "/nowhere"]


@pytest.mark.parametrize("url", PROJECTOR_PAGES)
def test_item_11_every_page_honours_projector_mode(client, url):
    """Issue 9, item 11: ``proj=1`` was ignored on /tree, /nim/theory and /, the pages a
    teacher projects most."""
    sep = "&" if "?" in url else "?"
    page = parsed(client.get(url + sep + "proj=1&lang=fr").get_data(as_text=True))
    assert "projector" in page.body_class
    plain = parsed(client.get(url + sep + "lang=fr").get_data(as_text=True))
    assert "projector" not in plain.body_class


@pytest.mark.parametrize("url", ["/", "/tree", "/nim/theory"])
def test_item_11_projector_mode_is_kept_in_links_and_can_be_left(client, url):
    """The teacher who starts in projector mode stays in it from page to page, and every page
    has a way out of it."""
    sep = "&" if "?" in url else "?"
    page = parsed(client.get(url + sep + "proj=1").get_data(as_text=True))
    inside = [h for h in page.links if h.startswith("/") and not h.startswith("/static")]
    kept = [h for h in inside if parse_qs(urlsplit(h).query).get("proj") == ["1"]]
    left = [h for h in inside if parse_qs(urlsplit(h).query).get("proj") == ["0"]]
    assert len(kept) >= 3, inside
    assert left, "no way to leave projector mode"
    plain = parsed(client.get(url).get_data(as_text=True))
    assert any(parse_qs(urlsplit(h).query).get("proj") == ["1"] for h in plain.links), \
        "no way into projector mode"


@pytest.mark.parametrize("lang, words", [
    ("en", ["search tree", "step by step", "exercise", "alpha-beta", "9", "28"]),
    ("fr", ["arbre de recherche", "pas à pas", "exercice", "alpha-bêta", "9", "28"]),
])
def test_item_18_the_home_page_shows_what_the_app_does_for_a_lesson(client, lang, words):
    """Issue 9, item 18: the home page was two cards that never mentioned the tree panel, the
    lab, the theory page or the comparison."""
    html = client.get(f"/?lang={lang}").get_data(as_text=True)
    page = parsed(html)
    text = html[html.index("<main>"):html.index("</main>")].lower()   # not the header or help
    for word in words:
        assert word in text, word
    paths = {urlsplit(h).path for h in page.links}
    for path in ("/connect4", "/nim", "/tree", "/nim/theory", "/connect4/compare"):
        assert path in paths, f"the home page does not lead to {path}"
    # the course's alpha-beta example (seed 003: 9 of 28) opens in one click, step by step
    course = [h for h in page.links if "step=" in h and "window=course" in h]
    assert course, "no link to the course's step-by-step example"
    # a picture of a real search tree, drawn by the app itself
    trees = [img for img in page.images if "tree.svg" in img.get("src", "")]
    assert trees and all(img.get("alt") for img in trees)
    assert client.get(trees[0]["src"]).status_code == 200


@pytest.mark.parametrize("url", ["/tree?mode=exercise&proj=1&lang=fr", "/nim/theory?proj=1&lang=fr",
                                 "/connect4/compare?moves=4453&proj=1&lang=fr",
                                 "/connect4?moves=44&proj=1&lang=fr"])
def test_item_11_forms_keep_projector_mode_once(client, url):
    """A form sent in projector mode stays in it, and sends ``proj`` once."""
    opening = [names for names in filter(None, parsed(client.get(url).get_data(as_text=True)).forms)
               if "moves" in names or "t" in names or "n" in names]   # the forms that open a page
    assert opening, f"{url} offers no form that opens a page: nothing to check"
    for names in opening:
        assert names.count("proj") == 1, (url, names)


def test_the_level_menu_says_what_expert_does_on_each_game(client):
    """Hard and expert ask the exact solver first on Connect-4 (ai.levels); on Nim they only
    search."""
    import re
    c4 = client.get("/connect4?lang=en").get_data(as_text=True)
    nim = client.get("/nim?lang=en").get_data(as_text=True)
    option = r'<option value="expert"[^>]*>([^<]*)'
    assert re.search(option, c4).group(1) == "expert — exact solver first (7,000 nodes), else iterative deepening, depth 9"
    assert re.search(option, nim).group(1) == "expert — iterative deepening, depth 9"
    hard = r'<option value="hard"[^>]*>([^<]*)'
    assert re.search(hard, c4).group(1) == "hard — exact solver first (300 nodes), else iterative deepening, depth 9"
    assert re.search(hard, nim).group(1) == "hard — iterative deepening, depth 9"
