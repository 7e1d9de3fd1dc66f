"""The exact solver in the app (``web/hints.py``): the hints under a 7x6 Connect-4 board, the
perfect level in the picker and in play, the exact row of the comparison page. Expected
outcomes come from Pascal Pons' empty-board scores and published sets."""
from __future__ import annotations

import re

import pytest

from ai.games.connect4.exact.analysis import outcome
from tests.test_solver import pons_set


def fresh_hints_app(tmp_path):
    """The app answering the best move first and nothing more in the first request, whatever
    the machine's speed (``web/connect4/hints.py``), on an empty table of solved positions."""
    from app import create_app
    return create_app({"TESTING": True, "CLASS_DB": str(tmp_path / "classes.sqlite3"),
                       "SOLVED_DB": str(tmp_path / "solved.sqlite3"),
                       "HINTS_THEN_SECONDS": 0, "HINTS_SECONDS": None})

HX = {"HX-Request": "true"}


def hint_words(html: str) -> list[str]:
    """Each column's words, as a reader sees them: "win in 20 moves", "draw", "full"..."""
    items = re.findall(r'<li class="hint hint-(\w+)[^"]*">(.*?)</li>', html, re.S)
    out = []
    for kind, body in items:
        text = re.sub(r"<[^>]+>", " ", body)
        text = re.sub(r"Column \d+:|★ best", "", text)
        out.append((kind, " ".join(text.split()).replace("▲ ", "").replace("▼ ", "")
                    .replace("= ", "").replace("· ", "")))
    return out


def test_hints_are_off_by_default_and_the_toggle_keeps_them_in_the_link(client):
    page = client.get("/connect4").get_data(as_text=True)
    assert 'id="hints"' not in page
    assert "hints=1" in page and "Show the exact outcomes" in page
    page = client.get("/connect4?moves=4&mode=human-human&hints=1").get_data(as_text=True)
    assert 'id="hints"' in page and "hints-loading" in page      # asked for once shown
    assert "Hide the exact outcomes" in page
    # every move link and form keeps them on
    assert 'name="hints" value="1"' in page
    r = client.get("/connect4/move?moves=4&mode=human-human&hints=1&col=4", headers=HX)
    assert "hints=1" in r.headers["HX-Push-Url"]
    assert 'id="hints"' in r.get_data(as_text=True)


def test_the_hints_of_the_empty_board_are_pons_scores_in_words(client):
    r = client.get("/connect4/hints?hints=1&mode=human-human", headers=HX)
    assert r.status_code == 200
    words = hint_words(r.get_data(as_text=True))
    # Pons: -2 -1 0 1 0 -1 -2. From the empty board a win by 1 is the 21st move of the first
    # player; a loss by 1 or 2, the second player's 21st or 20th.
    assert words == [("loss", "loss in 20 moves"), ("loss", "loss in 21 moves"),
                     ("draw", "draw"), ("win", "win in 21 moves"), ("draw", "draw"),
                     ("loss", "loss in 21 moves"), ("loss", "loss in 20 moves")]
    assert outcome(1, 0) == ("win", 21)
    assert 'class="hint hint-win best"' in r.get_data(as_text=True)


def test_the_hint_of_the_column_played_is_pons_score_of_the_position_it_makes(client):
    for moves, published in pons_set("L2_R1")[:60:20]:
        parent, col = moves[:-1], int(moves[-1])
        r = client.get(f"/connect4/hints?moves={parent}&mode=human-human&hints=1", headers=HX)
        kind, text = hint_words(r.get_data(as_text=True))[col - 1]
        expected_kind, k = outcome(-published, len(parent))
        assert kind == expected_kind
        if k:
            assert text == f"{expected_kind} in {k} move{'s' if k > 1 else ''}"


def test_a_full_column_says_full(client):
    r = client.get("/connect4/hints?moves=444444&mode=human-human&hints=1", headers=HX)
    assert hint_words(r.get_data(as_text=True))[3] == ("full", "full")


@pytest.mark.parametrize("query", ["moves=4x", "moves=44&w=8", "moves=1122334", "moves=44&hints=7"])
def test_hints_for_a_bad_or_unsupported_position_are_a_400_with_a_message(client, query):
    r = client.get(f"/connect4/hints?{query}&mode=human-human", headers=HX)
    assert r.status_code == 400
    assert 'role="alert"' in r.get_data(as_text=True)


def test_hints_wait_for_the_ais_move(client):
    page = client.get("/connect4?moves=4&hints=1").get_data(as_text=True)   # the AI to move
    assert "come after the AI" in page and "hints-loading" not in page


def test_without_javascript_the_hints_link_answers_the_whole_page(client):
    r = client.get("/connect4/hints?moves=44&mode=human-human&hints=1")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and page.count("<h1") == 1 and "hint-win" in page


def test_hints_in_french_use_ngettext_and_words(client):
    r = client.get("/connect4/hints?hints=1&mode=human-human&lang=fr", headers=HX)
    page = r.get_data(as_text=True)
    assert "victoire en 21 coups" in page and "nulle" in page


# -- the perfect level and the comparison page ----------------------------------------------------

def test_the_level_picker_offers_the_perfect_level(client):
    page = client.get("/connect4").get_data(as_text=True)
    assert '<option value="perfect"' in page and "exact solver" in page


def test_the_perfect_level_plays_the_centre_first(client):
    r = client.get("/connect4/ai?level=perfect&mode=ai-human", headers=HX)
    assert r.status_code == 200
    assert "moves=4" in r.headers["HX-Push-Url"]
    page = r.get_data(as_text=True)
    assert "exact solver" in page


def test_the_perfect_level_with_the_tree_panel_on_answers(client):
    r = client.get("/connect4?level=perfect&tree=1&moves=4")
    assert r.status_code == 200


def test_the_comparison_page_has_the_exact_solvers_row(client):
    page = client.get("/connect4/compare?moves=4453").get_data(as_text=True)
    row = page[page.index('class="exact-row"'):]
    row = row[:row.index("</tr>")]
    # 4453 (the first player to move): column 6 only loses slowest, in 18 moves (analysis:
    # -2 is the best score, in columns 3, 6 and 7; the solver names 6)
    assert "exact solver" in row and "loss in 18 moves" in row
    assert "exact solver" not in client.get("/nim/compare").get_data(as_text=True)


# -- the truth in the tree panel -------------------------------------------------------------------

def truth_text(html: str) -> str:
    i = html.index('class="truth"')
    part = html[i:html.index("</div>", i)]
    return " ".join(re.sub(r"<[^>]+>", " ", part).split())


def test_the_tree_panel_marks_a_choice_the_exact_solver_shows_is_worse(client):
    # "445": the first player threatens both ends of 4-5; blocking at 3 or 6 is forced. The
    # beginner level (depth 1) plays 4: the exact solver says the opponent then wins at once.
    html = client.get("/connect4?moves=445&tree=1&level=beginner&mode=human-human&hints=1").get_data(as_text=True)
    text = truth_text(html)
    assert "The search chose column 4" in text and "loss in 2 moves" in text
    assert "Misjudged: columns 3, 6 do better." in text


def test_the_tree_panel_agrees_when_the_search_chose_a_best_move(client):
    html = client.get("/connect4?moves=445&tree=1&level=medium&mode=human-human&hints=1").get_data(as_text=True)
    assert "No column does better." in truth_text(html)


def test_the_truth_is_asked_for_with_the_hints_setting(client):
    """An exact analysis can take a second: a tree panel offers it, the hints setting shows it."""
    html = client.get("/connect4?moves=445&tree=1&level=medium&mode=human-human").get_data(as_text=True)
    assert 'class="truth"' not in html
    offer = re.search(r'<p class="truth-offer"><a href="([^"]*)"', html).group(1)
    assert "hints=1" in offer
    assert 'class="truth"' in client.get(offer.replace("&amp;", "&")).get_data(as_text=True)


def test_no_truth_too_deep_below_the_root_nor_for_other_boards_or_nim(client):
    # medium searches 445 to depth 5: its node 3434 (4 plies down) is drawn but too deep
    html = client.get("/connect4/tree?moves=445&tree=1&level=medium&mode=human-human"
                      "&path=3434&hints=1").get_data(as_text=True)
    assert 'class="truth"' not in html and "truth-offer" not in html
    assert 'class="truth"' not in client.get(
        "/connect4?moves=445&tree=1&level=medium&mode=human-human&w=8").get_data(as_text=True)
    assert 'class="truth"' not in client.get("/nim?tree=1").get_data(as_text=True)


# -- the truth below the root -----------------------------------------------------------------------

def row_words(html: str) -> dict:
    """The truth row: column -> (outcome words, the searched value or None, its mark)."""
    part = html[html.index('class="hints-row truth-row'):]
    part = part[:part.index("</ol>")]
    out = {}
    for body in re.findall(r"<li[^>]*>(.*?)</li>", part, re.S):
        col = int(re.search(r'class="hint-col">col\. (\d+)', body).group(1))
        word = re.search(r'class="hint-word">(.*?)</span>', body, re.S).group(1).strip()
        searched = re.search(r'class="hint-searched">searched: (.*?)</span>', body)
        mark = re.search(r'class="hint-best">(.*?)</span>', body)
        out[col] = (word, searched and searched.group(1), mark and mark.group(1))
    return out


def test_a_node_below_the_root_gets_its_moves_exact_outcomes_beside_the_searched_values(client):
    # medium on 445 (depth 5): the node 3 is the position 4453, the first player to move.
    # Its exact outcomes for that player (the comparison page's row above: -2, "loss in 18
    # moves", is the best, in columns 3, 6 and 7; every other column loses sooner).
    html = client.get("/connect4/tree?moves=445&tree=1&level=medium&mode=human-human&path=3"
                      "&hints=1").get_data(as_text=True)
    text = truth_text(html)
    # one side for the row, stated: the player to move there, for the outcomes and the
    # searched values alike (issue 21, defect 10)
    assert "> At min (after 3), 1 ply below the root (outcomes and values for the player to move there):" in text
    row = row_words(html)
    # one unit beside the tree's: the distance in moves, and in the tree's plies (L36)
    assert [c for c, (w, _, _) in row.items() if w == "loss in 18 moves (L36)"] == [3, 6, 7]
    assert all(w.startswith("loss in ") for w, _, _ in row.values())
    # every move the search looked at has its searched value beside the exact one
    assert all(v is not None for _, v, _ in row.values())
    # the node is on the principal variation (medium plays 3 at the root): its choice is judged
    chosen = [c for c, (_, _, m) in row.items() if m and "chosen" in m]
    assert len(chosen) == 1
    assert ("No column does better." in text) == (chosen[0] in (3, 6, 7))


def test_a_misjudged_move_below_the_root_is_marked(client):
    # easy on 445 plays 4 (depth 2); at that node the opponent's search expected its column 4,
    # but column 3 (or 6) wins at once for it: "win in 2 moves" (its second move)
    html = client.get("/connect4/tree?moves=445&tree=1&level=easy&mode=human-human&path=4"
                      "&hints=1").get_data(as_text=True)
    text = truth_text(html)
    assert "the search expected column 4 here" in text
    assert "Misjudged: columns 3, 6 do better." in text
    row = row_words(html)
    assert row[3][0] == row[6][0] == "win in 2 moves (W3)" and "better" in row[3][2]


def test_off_the_principal_variation_a_cut_off_is_not_called_a_choice(client):
    # easy on 445: the node 1 is refuted by its first reply (a cut-off); no move is judged
    html = client.get("/connect4/tree?moves=445&tree=1&level=easy&mode=human-human&path=1"
                      "&hints=1").get_data(as_text=True)
    text = truth_text(html)
    assert "off the principal variation" in text and "a bound" in text
    assert "Misjudged" not in text and "No column does better" not in text


def test_below_the_root_the_truth_is_offered_without_the_hints_setting(client):
    html = client.get("/connect4/tree?moves=445&tree=1&level=medium&mode=human-human&path=34")\
        .get_data(as_text=True)
    assert 'class="truth"' not in html
    offer = re.search(r'<p class="truth-offer"><a href="([^"]*)"', html).group(1)
    assert "hints=1" in offer and "path=34" in offer
    assert "At max (after 3, 4), 2 plies below the root" in truth_text(
        client.get(offer.replace("&amp;", "&")).get_data(as_text=True))


def test_a_move_the_exact_solver_chose_says_so_in_the_tree_panel(client):
    """Hard and expert play the exact solver's move where the solver proves it within their
    budget (issue 24's ladder), the perfect level always: the tree panel says the solver chose
    it, and the handout is refused with a message, not a 500. After 4, 4, 5, 3, 1 expert's
    7,000 nodes prove its move (3), hard's 300 do not: hard's panel shows its search."""
    for level, moves in (("expert", "445313"), ("perfect", "445313"), ("hard", "4674451415")):
        html = client.get(f"/connect4?moves={moves}&tree=1&level={level}&mode=human-ai")\
            .get_data(as_text=True)
        caption = re.search(r'id="tree-caption">(.*?)</p>', html, re.S).group(1)
        assert caption.startswith("The exact solver chose this move: it searched "), caption
        r = client.get(f"/connect4/tree.svg?moves={moves}&tree=1&level={level}&mode=human-ai")
        assert r.status_code == 400 and "exact solver" in r.get_data(as_text=True)
    html = client.get("/connect4?moves=445313&tree=1&level=hard&mode=human-ai")\
        .get_data(as_text=True)
    caption = re.search(r'id="tree-caption">(.*?)</p>', html, re.S).group(1)
    assert "iterative deepening explored" in caption and "exact solver" not in caption


# -- the best move first ----------------------------------------------------------------------------

def test_the_best_move_is_named_first_and_read_out_first(client):
    # 4453, the first player to move: -2 is the best score, in columns 3, 6 and 7 (loss in
    # 18 moves), the others lose sooner (tests above: the comparison page's row)
    html = client.get("/connect4/hints?moves=4453&mode=human-human&hints=1", headers=HX)\
        .get_data(as_text=True)
    best = re.search(r'id="hints-best">(.*?)</p>', html, re.S).group(1)
    assert " ".join(best.split()) == "★ Best: columns 3, 6, 7, loss in 18 moves."
    announce = re.search(r'data-announce="([^"]*)"', html).group(1)
    assert announce.startswith("Best: columns 3, 6, 7, loss in 18 moves. column 1: loss in ")
    assert "column 3:" not in announce          # the best columns are not read out twice


def test_a_slow_analysis_answers_the_best_move_first_and_the_rest_in_a_second_request(tmp_path):
    # No time for the other columns after the best (as when the analysis is slow): the first
    # answer has the best move, "computing…" for the others and asks for them itself; the
    # second (rest=1) has them all, the best still first. The best move has no time limit
    # (found however loaded the machine) and what follows it none at all (it stops at its
    # first node, whatever the speed); a table of solved positions of its own (the session's
    # may hold this position's columns, solved by another test).
    client = fresh_hints_app(tmp_path).test_client()
    moves = "2164422266"          # 10 stones, not in the table of solved positions yet
    first = client.get(f"/connect4/hints?moves={moves}&mode=human-human&hints=1", headers=HX)
    html = first.get_data(as_text=True)
    assert first.status_code == 200
    kinds = [k for k, _ in hint_words(html)]
    assert kinds.count("unknown") >= 3 and "★ best" in html
    assert "computing…" in html and "not found in time" not in html
    rest = re.search(r'hx-get="([^"]*rest=1[^"]*)" hx-trigger="load"', html).group(1)
    second = client.get(rest.replace("&amp;", "&"), headers=HX).get_data(as_text=True)
    assert "unknown" not in [k for k, _ in hint_words(second)]
    assert 'hx-trigger="load"' not in second
    def best(page):
        return re.search(r"Best: columns? ([\d, ]+),", page).group(1).split(", ")
    assert set(best(html)) <= set(best(second))      # the first answer's best stays best


def test_a_bad_rest_parameter_is_a_400_with_a_message(client):
    r = client.get("/connect4/hints?moves=44&mode=human-human&hints=1&rest=2", headers=HX)
    assert r.status_code == 400 and 'role="alert"' in r.get_data(as_text=True)


def test_an_unproven_column_says_what_its_interval_proves_and_nothing_more():
    # No time after the best move: the other columns are only bounded by it. After 4 the
    # second player's best loses (-1) and after 3 it draws (0):
    # every other column is then a loss, or at most a draw, which the full analysis confirms.
    from ai.games.connect4.exact.analysis import analyse
    from web.connect4.hints import hints_of
    holds = {"win": lambda s: s > 0, "loss": lambda s: s < 0, "at-least-draw": lambda s: s >= 0,
             "at-most-draw": lambda s: s <= 0}
    for moves, expected in (("4", "loss"), ("3", "at-most-draw")):
        quick = hints_of(analyse(moves, store=None, time_limit=None, then_time_limit=0))
        full = analyse(moves, store=None, time_limit=None)
        unknown = [c for c in quick.columns if c.kind == "unknown"]
        assert unknown, moves
        for c in unknown:
            assert c.proven == expected, (moves, c)
            assert c.lower <= full.scores[c.column - 1] <= c.upper
            assert holds[c.proven](full.scores[c.column - 1])
