"""A node's name in the plies' notation, where the game counts something at each node (Nim:
the matches left): one pair of brackets, the count after the moves, the same words in the
tree's tooltips, its narration, its breadcrumb and a class's questions; and the breadcrumb's
last item, the node in focus, named as the items before it, never the bare move; its other
items' values, the tree's at the same step, from the panel's one replay."""
import re

import pytest

from test_class_answering import bar, text
from test_class_notation import step_events
from test_classroom import start_class, student

HX = {"HX-Request": "true"}
# seed 003's worked example: 5 matches, the AI (max) first, alpha-beta at depth 2, the course's
# estimate at the depth limit; in the app's default notation (plies), the search of the AI's
# first move (it took 3)
SEED_003 = ("/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2&heur=course"
            "&window=course&order=reverse&moves=1&td=2")
ROOT = {"en": "max (root; 5 matches left)", "fr": "max (racine\u202f; 5 allumettes restantes)"}
# after taking 3, two matches left; then 2, none
AFTER_3 = {"en": "min (after 3; 2 matches left)",
           "fr": "min (après 3\u202f; 2 allumettes restantes)"}
AFTER_3_2 = {"en": "max (after 3, 2; 0 matches left)",
             "fr": "max (après 3, 2\u202f; 0 allumette restante)"}
# a node's name with a second pair of brackets right after the first: "max (root) (5 ...)"
TWO_BRACKETS = re.compile(r"\b(?:max|min) \([^()]*\) \((?:\d|[^)]*(?:left|restant))")


def flat(name):
    """A name as ``text`` leaves it: every space, the narrow no-break one included, plain."""
    return re.sub(r"\s+", " ", name)


def titles(html):
    return re.findall(r"<title>([^<]*)</title>", html)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_seed_003_s_nodes_are_named_with_one_pair_of_brackets(client, lang):
    html = client.get(f"{SEED_003}&lang={lang}", headers=HX).get_data(as_text=True)
    named = [t for t in titles(html) if re.match(r"(?:Open )?(?:max|min)\b", t)]
    assert named and not [t for t in named if TWO_BRACKETS.search(t)], named
    # the tooltips: the root, the node after 3 (the course's best move), its child after 2
    for name in (ROOT[lang], AFTER_3[lang], AFTER_3_2[lang]):
        assert any(t.startswith(name) or t.startswith(f"Open {name}")
                   or t.startswith(f"Ouvrir {name}") for t in named), (name, named)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_first_step_enters_the_root_named_as_its_tooltip(client, lang):
    html = client.get(f"{SEED_003}&step=1&lang={lang}").get_data(as_text=True)
    said = step_events(html)
    enter = "Enter" if lang == "en" else "Entrée dans le sommet"
    assert said and said[0].startswith(f"{enter} {flat(ROOT[lang])} ")
    assert not TWO_BRACKETS.search(said[0]), said


def crumbs(html):
    nav = re.search(r'<nav class="crumbs".*?</nav>', html, re.S).group(0)
    links = [text(a).strip() for a in re.findall(r"<a [^>]*>(.*?)</a>", nav, re.S)]
    here = text(re.search(r'<strong aria-current="location">(.*?)</strong>', nav).group(1))
    return links, here.strip()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_breadcrumb_names_every_node_down_to_the_one_in_focus(client, lang):
    """Opened at the node after 3, 2 (the course's line: the AI takes 3, the person 2): the
    breadcrumb reads root › after 3 › after 3, 2, each by its name, the ancestors with their
    values; the last, the focus, by its name too, not "2"."""
    html = client.get(f"{SEED_003}&path=32&lang={lang}", headers=HX).get_data(as_text=True)
    links, here = crumbs(html)
    assert [re.sub(r" \([^()]*\)$", "", a) for a in links] == [flat(ROOT[lang]),
                                                                  flat(AFTER_3[lang])]
    assert here == flat(AFTER_3_2[lang])


def test_the_breadcrumb_writes_a_value_as_the_picture_does_at_that_step(client):
    """Seed 003's replay, opened at the node after 3, 2: at step 1 the search has only
    entered the root, so the breadcrumb gives no value (the root's would give the answer
    away); at the end, the node after 3, cut off at L2, reads "≤ L2" as in its circle."""
    url = f"{SEED_003}&path=32"
    early, _ = crumbs(client.get(f"{url}&step=1", headers=HX).get_data(as_text=True))
    assert early == [flat(ROOT["en"]), flat(AFTER_3["en"])]
    html = client.get(url, headers=HX).get_data(as_text=True)
    done, _ = crumbs(html)
    assert done[1] == f"{flat(AFTER_3['en'])} (≤ L2)"
    assert done[0].startswith(flat(ROOT["en"]) + " (") and done[0] != flat(ROOT["en"])


def drawn_values(html):
    """The value each node drawn in the tree writes in it, by its path ("" the root, "3" the
    node after 3): "?" while not known, "≤ L2" for a bound; None for a node drawn without
    one (pruned); a node not drawn at this step is not in the result."""
    out = {}
    for m in re.finditer(r'<g class="tnode[^"]*"\s+data-path="([^"]*)".*?</g>', html, re.S):
        values = re.findall(r'<text(?: class="bound")? x="[^"]*"[^>]*>([^<]*)</text>',
                            m.group(0))
        out[m.group(1)] = values[0] if values else None
    return out


def test_the_breadcrumb_s_values_are_the_tree_s_at_the_same_step(client):
    """At every step of seed 003's replay, opened at the node after 3, 2, the breadcrumb's
    root and node after 3 carry the values the tree opened at the root draws in them at that
    same step (nothing while it draws none or "?"): values from any other step (the finished
    search's, or a step before or after) differ from the picture's at some step."""
    url = f"{SEED_003}&path=32"
    html = client.get(f"{url}&step=0", headers=HX).get_data(as_text=True)
    n = int(re.search(r"step 0 of (\d+)", html).group(1))
    seen = set()
    for step in range(n + 1):
        links, _ = crumbs(client.get(f"{url}&step={step}", headers=HX).get_data(as_text=True))
        drawn = drawn_values(client.get(f"{SEED_003}&step={step}", headers=HX)
                             .get_data(as_text=True))
        said = []
        for name, path in ((ROOT["en"], ""), (AFTER_3["en"], "3")):
            value = drawn.get(path)
            said.append(flat(name) if value in (None, "?") else f"{flat(name)} ({value})")
        assert links == said, (step, drawn)
        seen.add(tuple(links))
    # the values change along the replay (a breadcrumb a step behind or ahead would differ)
    assert len(seen) >= 3, seen
    # at step 1 the search has only entered the root: it must not show its final value
    final = crumbs(client.get(url, headers=HX).get_data(as_text=True))[0][0]
    assert final != flat(ROOT["en"])
    first = crumbs(client.get(f"{url}&step=1", headers=HX).get_data(as_text=True))[0][0]
    assert first == flat(ROOT["en"])


@pytest.fixture
def replays(monkeypatch):
    """The steps ``ai.teach.tree_view.replay`` is called for, under every name a loaded
    module binds it to."""
    import sys
    from ai.teach import tree_view
    original, calls = tree_view.replay, []

    def counting(tree, step):
        calls.append(step)
        return original(tree, step)
    for module in list(sys.modules.values()):
        for name, value in list(vars(module).items()) if module else ():
            if value is original:
                monkeypatch.setattr(module, name, counting)
    return calls


def test_a_step_replays_the_search_once(client, replays):
    """A step of a replay, opened below the root (the breadcrumb has values): its picture,
    its caption's counts and its breadcrumb read one replay of the search
    (``ai.teach.tree_view.replay``), not one each."""
    calls = replays
    client.get(f"{SEED_003}&path=32", headers=HX)       # the search made, kept as recent
    for step in (1, 9, 25):
        calls.clear()
        html = client.get(f"{SEED_003}&path=32&step={step}", headers=HX).get_data(as_text=True)
        assert f"step {step} of 25" in html and crumbs(html)[0]
        assert calls == [step]


def test_a_lab_step_replays_the_search_once(client, replays):
    """The exercise lab's step (the course's tree of dimension 5, alpha-beta): its picture
    and its count of the nodes explored so far read one replay."""
    for step in (1, 9):
        replays.clear()
        html = client.get(f"/tree?step={step}").get_data(as_text=True)
        assert f"step {step} of" in html
        assert replays == [step]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_connect4_s_breadcrumb_ends_on_the_focus_s_name(client, lang):
    html = client.get(f"/connect4/tree?moves=44&tree=1&path=43&lang={lang}",
                      headers=HX).get_data(as_text=True)
    links, here = crumbs(html)
    after = "after" if lang == "en" else "après"
    assert [re.sub(r" \([^()]*\)$", "", a) for a in links] == [
        f"max ({'root' if lang == 'en' else 'racine'})", f"min ({after} 4)"]
    assert here == f"max ({after} 4, 3)"


def test_the_row_s_table_names_its_node_as_the_breadcrumb_does(client):
    """The table of a large search's row (read on a phone) named its node by its bare moves,
    "The moves searched from 14", which reads as fourteen; it names it as the tree does."""
    html = client.get("/connect4/tree?moves=44&tree=1&level=custom&algo=alphabeta&depth=4"
                      "&path=14", headers=HX).get_data(as_text=True)
    caption = text(re.search(r'<table class="root-moves">\s*<caption>(.*?)</caption>', html,
                             re.S).group(1)).strip()
    assert caption == "The moves searched from max (after 1, 4)"


@pytest.fixture()
def app(make_app):
    return make_app()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_s_question_names_a_nim_node_with_its_matches_left_as_the_projector(app, lang):
    """The 5-matches lesson in the plies' notation: the person took 1, the AI searches from 4
    matches. The question asked at a step names its node with the matches left, as the
    projector's narration does when it enters that node."""
    link = ("/nim?n=5&k=3&mode=human-ai&moves=12&algo=alphabeta&depth=2&level=custom"
            "&tree=1&window=course&step={step}")
    teacher, code, _ = start_class(app, link.format(step=1))
    asked = text(bar(teacher, code, f"ask?lang={lang}", kind="window"))
    prompt = re.search(r"(What is α at [^?]+\?|Que vaut α [^?]+\?)", asked).group(1)
    name = flat({"en": "min (after 1; 3 matches left)",
                 "fr": "min (après 1\u202f; 3 allumettes restantes)"}[lang])
    assert name in prompt, prompt
    phone = student(app, code)
    assert prompt in text(phone.get(f"/c/{code}?lang={lang}").get_data(as_text=True))
    assert teacher.post(f"/class/{code}/sync", data={"link": link.format(step=2)},
                        headers=HX).status_code == 204
    projector = teacher.get(f"{link.format(step=2)}&cls={code}&proj=1&lang={lang}")
    said = step_events(projector.get_data(as_text=True))
    assert said and name in said[0], said
    assert step_events(phone.get(f"/c/{code}?lang={lang}").get_data(as_text=True)) == said


@pytest.mark.parametrize("tree", [
    SEED_003 + "&lang=fr", SEED_003 + "&notation=course", SEED_003 + "&path=32&lang=fr",
    "/connect4/tree?moves=44&tree=1&path=43", "/tictactoe/tree?moves=5&tree=1&lang=fr"])
def test_the_small_board_on_hover_is_titled_with_the_node_s_name(client, tree):
    """Pointing at a node shows its position small, titled as the node is named (its
    tooltip), not with the game's moves run together ("After 411" for max (after 1, 1))."""
    from html import unescape
    html = client.get(tree, headers=HX).get_data(as_text=True)
    nodes = re.findall(r'<g class="tnode[^"]*"\s+data-path="[^"]*" hx-get="([^"]+)"[^>]*>'
                       r'.*?<title>(.*?)</title>', html, re.S)
    assert any("after" in t or "après" in t for _, t in nodes), nodes     # not the root alone
    for url, tooltip in nodes:
        peek = client.get(unescape(url)).get_data(as_text=True)
        title = unescape(re.search(r'<p class="peek-title">(.*?)</p>', peek, re.S).group(1))
        name = title.split(" · ")[0]
        assert unescape(tooltip).startswith(name + (":" if "lang=fr" not in tree else "\u202f:")) \
            or unescape(tooltip) == name, (name, tooltip)


def peeks_players(client, tree):
    """Who is to move, as the small board of every node of ``tree`` says (Nim's peek)."""
    from html import unescape
    html = client.get(tree, headers=HX).get_data(as_text=True)
    urls = re.findall(r'<g class="tnode[^"]*"\s+data-path="[^"]*" hx-get="([^"]+)"', html)
    assert len(urls) > 1, urls
    said = set()
    for url in urls:
        peek = client.get(unescape(url)).get_data(as_text=True)
        said.update(re.findall(r"(J[01]|Player [12]|Joueur [12]) (?:to move|joue)", peek))
    return said


def test_the_small_board_names_the_player_to_move_as_the_page_does(app):
    """The small board shown on pointing at a node said "J1 to move" (J0/J1, Nim's own naming)
    where the page names the players "Player 1"/"Player 2": on a class's projector (its
    naming, the phones'), where "J1" read as Player 1 for the second player (seen rehearsing
    Nim's minimax card), and on a course card that asks for that naming (players=numbers)."""
    client = app.test_client()
    assert peeks_players(client, SEED_003) == {"J0", "J1"}          # the game's own naming
    assert peeks_players(client, SEED_003 + "&players=numbers") == {"Player 1", "Player 2"}
    teacher, code, _ = start_class(app, SEED_003)
    assert peeks_players(teacher, SEED_003 + f"&cls={code}&lang=fr") == {"Joueur 1", "Joueur 2"}
