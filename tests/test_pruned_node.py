"""A pruned node opened in the tree panel (a link typed, shared or kept from another search:
no node the panel draws links to one): the panel says, where the picture would be, that the
search never explored it and why, the cut-off at its parent with the window then, as seed 003
writes it ("β = min(β, s_i)", "élagage"), and leads to that parent; never an empty dashed
box. A replay says nothing of the cut before it happens."""
import re

import pytest

from test_class_answering import bar, text
from test_class_notation import step_events
from test_classroom import start_class, student

HX = {"HX-Request": "true"}
# seed 003's worked example in its own notation: 5 matches, the AI (max) first, alpha-beta at
# depth 2 in the window ±maxScore, moves tried 3, 2, 1; the search of its first move (it took 3)
SEED_003 = ("/nim/tree?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2&heur=course"
            "&window=course&order=reverse&moves=1&td=2&notation=course")
# the course's tree: after the AI takes 3 (min, 2 matches left) the person's first try, 2,
# takes the last matches: −M for max, β = min(+M, −M) = −M = α, so "take 1" is pruned
SAID = {
    "en": ("max 1 (after 3, 1): pruned, never explored. At its parent, min 2 (after 3), move 2 "
           "returned −M: β = min(β, −M) = −M ≤ α = −M, a cut-off (α ≥ β): the search pruned "
           "the moves left there (1). Open min 2 (after 3), where the cut-off happened"),
    "fr": ("max 1 (après 3, 1)\u202f: élagué, jamais exploré. Au sommet parent, min 2 (après 3), "
           "le coup 2 a renvoyé −M\u202f: β = min(β, −M) = −M ≤ α = −M, une coupure (α ≥ β)\u202f: "
           "la recherche a élagué les coups restants (1). Ouvrir le sommet min 2 (après 3), "
           "où la coupure a eu lieu"),
}


def flat(said):
    """As ``text`` leaves it: every space, the narrow no-break one included, plain."""
    return re.sub(r"\s+", " ", said)


def panel_text(html):
    return text(re.search(r'<section id="tree-panel".*?</section>', html, re.S).group(0))


def pruned_note(html):
    found = re.search(r'<div class="pruned-focus".*?</div>', html, re.S)
    return found and text(found.group(0)).strip()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_seed_003_s_pruned_node_says_why_where_its_box_was(client, lang):
    html = client.get(f"{SEED_003}&path=31&lang={lang}", headers=HX).get_data(as_text=True)
    assert pruned_note(html) == flat(SAID[lang])
    if lang == "fr":          # French: a narrow no-break space before ":"
        assert "max 1 (après 3, 1)\u202f: élagué" in html
    assert 'class="tnode pruned"' not in html and "tree-svg" not in html    # no empty box
    # the way on: the parent, where the cut happened, by the same link as its breadcrumb's
    parent = re.search(r'<div class="pruned-focus".*?hx-get="([^"]*)"', html, re.S).group(1)
    assert "&amp;path=3&" in parent + "&" and html.count(f'hx-get="{parent}"') == 2
    assert "root-moves" not in html and "Download SVG" not in html


def test_connect4_s_pruned_node_gives_the_values_at_the_cut_as_its_parent_shows_them(client):
    # the case reported: alpha-beta at depth 4 after 4, 4; "1, 1" was pruned at "min (after
    # 1)", whose tooltip gives α −9 on entry and whose column 4 returned at most −15
    url = "/connect4/tree?moves=44&tree=1&level=custom&algo=alphabeta&depth=4"
    parent = client.get(f"{url}&path=1", headers=HX).get_data(as_text=True)
    assert "min (after 1): at most -15" in parent and "window on entry α -9, β +∞" in parent
    assert 'tnode pruned"\n     data-path="11"' in parent and 'href="/connect4?' in parent
    assert "path=11" not in parent          # no node drawn links to a pruned one
    html = client.get(f"{url}&path=11", headers=HX).get_data(as_text=True)
    assert pruned_note(html).startswith(
        "max (after 1, 1): pruned, never explored. At its parent, min (after 1), move 4 "
        "returned -15: β = min(β, -15) = -15 ≤ α = -9, a cut-off (α ≥ β): the search pruned "
        "the moves left there (3, 5, 2, 6, 1, 7).")
    # the position it stands for, at once: there is no node to point at
    assert re.search(r'id="peek"[^>]*hx-get="/connect4/peek\?moves=411', html)


@pytest.mark.parametrize("game, url, path", [
    ("connect4", "/connect4/tree?moves=44&tree=1&level=custom&algo=alphabeta&depth=4&hints=1", "11"),
    ("tictactoe", "/tictactoe/tree?moves=5&tree=1&level=custom&algo=alphabeta&depth=3&hints=1", "37"),
])
def test_the_exact_outcomes_at_a_pruned_node_blame_the_cut_not_the_depth(client, game, url,
                                                                          path):
    html = client.get(f"{url}&path={path}", headers=HX).get_data(as_text=True)
    summary = text(re.search(r'<p class="truth-summary">.*?</p>', html, re.S).group(0))
    assert "a cut-off at its parent pruned this node" in summary, summary
    assert "depth limit" not in summary


@pytest.mark.parametrize("url, path, parent", [
    ("/tictactoe/tree?moves=5&tree=1&level=custom&algo=alphabeta&depth=3", "37",
     "min (after 3), move 1 returned"),
    ("/marienbad/tree?tree=1&level=custom&algo=alphabeta&depth=3", "b3d2",
     "min (after b3), move d3 returned"),
])
def test_every_game_s_pruned_node_says_so(client, url, path, parent):
    html = client.get(f"{url}&path={path}", headers=HX).get_data(as_text=True)
    note = pruned_note(html)
    assert note and "pruned, never explored" in note and parent in note, note


def test_a_replay_says_nothing_of_the_cut_before_it_happens(client):
    """Opened at the pruned node, step by step: until the cut at min 2 (after 3) nothing is
    drawn or said of it (the class may be asked whether that cut comes); from the cut on, the
    panel says it was pruned and why."""
    url = f"{SEED_003}&path=31"
    said = []
    for step in range(40):
        html = client.get(f"{url}&step={step}", headers=HX).get_data(as_text=True)
        said.append((step_events(html), pruned_note(html), panel_text(html)))
        if f">step {step} of {step}</span>" in html:        # the search's last step
            break
    cut = next(i for i, (events, _, _) in enumerate(said)
               if events and events[0].startswith("Cut-off at min 2 (after 3)"))
    for events, note, whole in said[:cut]:
        assert note is None and "pruned" not in whole.replace("pruned subtrees", "")
        assert "Nothing at max 1 (after 3, 1) yet at this step: press forward." in whole
    assert all(note == flat(SAID["en"]) for _, note, _ in said[cut:])


@pytest.fixture()
def app(make_app):
    return make_app()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_phone_asks_of_the_cut_at_the_node_the_projector_names_after_it(app, lang):
    """The class replays seed 003: one step before the cut, a phone is asked whether there
    is a cut-off at the node the projector, opened at the pruned node after the cut, names
    as its parent."""
    link = SEED_003.replace("/nim/tree?", "/nim?") + "&step={step}"
    teacher, code, _ = start_class(app, link.format(step=0))
    steps = [step_events(teacher.get(f"{link.format(step=s)}&cls={code}").get_data(
        as_text=True)) for s in range(12)]
    cut = next(s for s, e in enumerate(steps) if e and e[0].startswith("Cut-off at min 2"))
    assert teacher.post(f"/class/{code}/sync", data={"link": link.format(step=cut - 1)},
                        headers=HX).status_code == 204
    asked = text(bar(teacher, code, f"ask?lang={lang}", kind="cut"))
    parent = {"en": "min 2 (after 3)", "fr": "min 2 (après 3)"}[lang]
    prompt = {"en": f"Is there a cut-off at {parent} now?",
              "fr": f"Y a-t-il une coupure au sommet {parent} maintenant\u202f?"}[lang]
    assert flat(prompt) in asked, asked
    assert flat(prompt) in text(student(app, code).get(f"/c/{code}?lang={lang}").get_data(
        as_text=True))
    projector = teacher.get(f"{link.format(step=cut)}&path=31&cls={code}&proj=1&lang={lang}")
    note = pruned_note(projector.get_data(as_text=True))
    assert note == flat(SAID[lang]) and f", {parent}, " in note
