"""Issue 13 in Chromium: the position editor built by clicks and played from, the
algorithm's line of a cut-off step highlighted beside the tree, and the heuristic opened up
from a leaf of the tree and from the editor (screenshots in test-artifacts/)."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_editor_builds_a_position_by_clicks_and_plays_from_it(page, live_server, artifacts):
    page.goto(live_server + "/connect4/edit?lang=fr")
    for placed, (col, colour) in enumerate(((4, "jaune"), (4, "rouge"), (3, "jaune"), (5, "rouge")), 1):
        page.get_by_role("link", name=f"Ajouter un pion {colour} dans la colonne {col}").click()
        expect(page.locator("#editor .board .disc")).to_have_count(placed)   # swapped in
    expect(page.locator("#editor .status")).to_contain_text("Aux jaunes de jouer.")
    assert "board=--1-12-2--" in page.url                # the position is in the link
    page.screenshot(path=str(artifacts / "editor-by-clicks.png"), full_page=True)
    page.get_by_role("link", name="Commencer une partie d’ici").click()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#game .board .disc")).to_have_count(4)
    # play on from it: a yellow stone in column 1
    page.locator('#game button[data-col="1"]').click()
    expect(page.locator("#game .board .disc")).to_have_count(5)


def test_the_algorithm_panel_highlights_the_line_of_a_cut(browser, live_server, artifacts):
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    base = (live_server + "/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2"
            "&heur=course&window=course&order=reverse&moves=1&td=2&proj=1&lang=fr")
    for step in range(1, 30):
        pg.goto(base + f"&step={step}")
        now = pg.locator(".algo-lines li.now")
        if "cut" in (now.get_attribute("class") or ""):
            break
    expect(now).to_have_text("si α ≥ β\u202f: on élague les fils restants")
    assert now.evaluate("e => getComputedStyle(e).fontWeight") in ("700", "bold")
    expect(pg.locator(".step-event")).to_contain_text("Coupure")
    pg.screenshot(path=str(artifacts / "algorithm-panel-cut-projector.png"))
    pg.close()


def test_the_table_step_by_step_from_the_course_card(browser, live_server, artifacts):
    """The course's card opens the small position step by step; a teacher jumps to the step
    where the table answers a node (a probe that hits): its line is marked, the key, the slot
    and the entry are on the projector, the nodes it saves in the narration."""
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    pg.goto(live_server + "/course?lang=fr&proj=1")
    pg.get_by_role("link", name="La table pas à pas\u202f: clés, emplacements, consultations, "
                   "réponses de la table").click()
    pg.wait_for_load_state("networkidle")
    expect(pg.locator(".step-count")).to_contain_text("étape 0 sur")
    # no need to press "forward" 96 times: the stepper jumps to the table's next answer
    pg.get_by_role("link", name="réponse suivante de la table ⇥").click()
    expect(pg.locator(".step-count")).to_contain_text("étape 96 sur")
    now = pg.locator(".algo-lines li.now")
    expect(now).to_contain_text("si la table connaît ce sommet à cette profondeur")
    vars_ = pg.locator(".algo-vars")
    expect(vars_).to_contain_text("clé")
    expect(vars_).to_contain_text("emplacement")
    expect(vars_).to_contain_text("au moins")
    expect(pg.locator(".step-event")).to_contain_text("Elle économise")
    for what in (".algo-vars dd", ".algo-vars dt", ".algo-lines li"):   # read from the back
        size = pg.locator(what).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 18, what
    pg.screenshot(path=str(artifacts / "table-step-hit-projector.png"))
    pg.close()


def test_a_leaf_of_the_tree_opens_the_heuristic_up_on_a_projector(browser, live_server, artifacts):
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    # minimax to depth 2 with the course's cell values: every leaf is scored by them
    pg.goto(live_server + "/connect4?moves=4453&mode=human-human&level=custom&algo=minimax"
            "&depth=2&heur=cells&tree=1&proj=1&lang=fr")
    leaf = pg.locator('#tree-panel a.inspect[href*="board=--2-1212-1--"]')   # after 4 4
    shown = leaf.locator("text").first.text_content()
    leaf.click()
    pg.wait_for_load_state("networkidle")
    assert "/connect4/heuristic?" in pg.url and "proj=1" in pg.url and "lang=fr" in pg.url
    expect(pg.locator("h1")).to_have_text("La fonction d’évaluation (heuristique) en détail")
    formula = pg.locator(".inspect-formula")
    expect(formula).to_be_visible()
    expect(formula.locator("strong")).to_have_text(shown.replace("-", "−"))
    assert formula.evaluate("e => e.getBoundingClientRect().bottom") <= 1080   # no scrolling
    assert float(formula.evaluate("e => getComputedStyle(e).fontSize")[:-2]) >= 18
    pg.screenshot(path=str(artifacts / "heuristic-from-a-leaf-projector.png"))
    pg.close()


def test_the_editor_opens_the_course_s_example_in_the_inspector(browser, live_server, artifacts):
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    pg.goto(live_server + "/connect4/edit?board=2-11-1222-121-211-2-&proj=1&lang=fr")
    pg.get_by_role("link", name="Détailler chaque heuristique sur cette position").click()
    pg.wait_for_load_state("networkidle")
    formula = pg.locator(".inspect-formula")
    expect(formula).to_have_text("h(grille) = [4+5+7+6+8+13+11] − [3+5+4+8+10+11+11] = 2")
    expect(formula).to_be_in_viewport()
    # the adjusted heuristic with another α, typed as French writes it
    pg.get_by_role("link", name="valeurs des cases ajustées").click()
    pg.get_by_label("α (le rapport prend 0,2)").fill("0.5")
    pg.get_by_role("button", name="Appliquer").click()
    expect(pg.locator(".adjusted-table caption")).to_contain_text("α = 0,5")
    assert "alpha=0.5" in pg.url and "heur=adjusted" in pg.url
    expect(pg.locator("strong.total")).to_be_visible()
    assert pg.locator("h1").count() == 1              # swapped in place, not a page in a page
    pg.screenshot(path=str(artifacts / "heuristic-adjusted-projector.png"), full_page=True)
    pg.close()


def test_the_minmax_card_s_depth_3_tree_leads_to_its_step_by_step_in_class(browser, live_server,
                                                                           artifacts):
    """The course's "minmax with a heuristic" card (fig-1-3) on a projector: its depth-3 tree,
    400 nodes drawn folded, says why it has no step by step and links the same search at
    depth 2, drawn whole; there the stepper steps, and in class mode the teacher's bar offers
    the questions on the next step (a rehearsal found none on this card)."""
    pg = browser.new_page(viewport={"width": 1920, "height": 1080})
    pg.goto(live_server + "/course?lang=fr&proj=1")
    pg.locator("#fig-1-3 h3 a").click()
    pg.wait_for_load_state("networkidle")
    why = pg.locator(".stepper-why")
    expect(why).to_contain_text("et celui-ci en a 400.")
    expect(pg.locator(".step-count")).to_have_count(0)
    pg.screenshot(path=str(artifacts / "course-minmax-depth-3-why-projector.png"))
    why.get_by_role("link", name="Pas à pas, profondeur 2").click()
    expect(pg.locator(".step-count")).to_contain_text("étape 0 sur 114")
    assert "depth=2" in pg.url and "step=0" in pg.url and "card=fig-1-3" in pg.url
    pg.locator('#tree-panel a[data-key="step"]').click()
    expect(pg.locator(".step-count")).to_contain_text("étape 1 sur 114")
    expect(pg.locator(".step-event")).to_contain_text("Entrée dans le sommet max (racine)")
    pg.get_by_role("button", name="Mode classe").click()
    pg.wait_for_load_state("networkidle")
    assert "cls=" in pg.url and "step=1" in pg.url
    pg.locator("#class-lobby").get_by_role("button", name="Commencer").click()
    menu = pg.locator(".ask-menu")
    expect(menu).to_contain_text("Interroger la classe sur la prochaine étape")
    menu.get_by_role("button", name="Quel coup la recherche essaie-t-elle ensuite").click()
    expect(pg.locator(".class-bar")).to_contain_text("Quel coup la recherche essaie-t-elle "
                                                     "ensuite au sommet max (racine)")
    pg.screenshot(path=str(artifacts / "course-minmax-depth-2-class-question-projector.png"))
    pg.close()
