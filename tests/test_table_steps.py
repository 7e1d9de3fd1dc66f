"""Issue 13: the transposition table in the step-by-step replay (seed 004's "AlphaBeta avec
mémoire et Zobrist"): each move's XOR into the key, each probe of a slot and what it found,
each store, each hit and the nodes it saved; and the table of places those steps show."""
import re

import pytest

from ai.games.connect4.rules import Connect4
from ai.games.connect4.fast_search import fast_alphabeta
from ai.course.game import play
from ai.heuristics import make_heuristic
from ai.games.nim.rules import Nim
from ai.course.search import COURSE_SLOTS, TranspositionTable, alphabeta, alphabeta_tt, minimax
from ai.course.scores import EXACT
from ai.games.connect4.zobrist import zobrist_step
from web.course import TABLE_STEPS

# -- the table of places ------------------------------------------------------------------------


def test_two_positions_of_one_slot_are_told_apart_by_their_keys():
    table = TranspositionTable(slots=4)
    table.store(5, 2, EXACT, 7, 1)                  # 5 mod 4 = slot 1
    assert table.slot(5) == 1 and table.get(5) == (2, EXACT, 7, 1)
    table.store(9, 3, EXACT, -1, 0)                 # 9 mod 4 = slot 1 too: replaces 5
    assert table.get(5) is None                     # not 9's entry taken for 5's
    assert table.get(9) == (3, EXACT, -1, 0)
    assert table.occupant(5) == 9 and table.occupant(6) is None
    assert len(table) == 1


@pytest.mark.parametrize("moves", ["", "44", "4453", "1122"])
def test_a_table_of_three_slots_still_gives_minimax_s_value(moves):
    # Three places for hundreds of positions: nearly every store replaces another position.
    # A probe that took another position's entry for its own would change the value.
    game = Connect4(5, 4)
    state = game.from_moves(moves)
    heuristic = make_heuristic(game, "cells")
    expected = minimax(game, state, 4, heuristic=heuristic).value
    crowded = alphabeta(game, state, 4, heuristic=heuristic, table=TranspositionTable(slots=3))
    assert crowded.value == expected


def test_the_course_s_table_has_places_and_the_fast_loop_keeps_its_own():
    game = Connect4()
    with pytest.raises(ValueError, match="slots"):
        fast_alphabeta(game, game.initial_state(), 2, table=TranspositionTable(slots=64))


# -- Zobrist, one move at a time -----------------------------------------------------------------


def test_a_move_xors_the_number_of_its_player_on_the_cell_where_the_stone_falls():
    game = Connect4()
    state = game.from_moves("4453")               # column 4 holds two stones
    step = zobrist_step(game, state, 3)             # yellow (4 stones played) in column 4
    assert (step.col, step.row, step.player) == (3, 2, 0)
    assert step.number == game.zobrist[0][3 * game.h1 + 2]
    assert step.before == state.key
    assert step.after == game.result(state, 3).key == step.before ^ step.number


# -- the events of a search with the table --------------------------------------------------------


def _search(n=8, depth=4):
    game = Nim(n, 3)
    return alphabeta_tt(game, None, depth, heuristic=make_heuristic(game, "course"),
                        record=True)


def _subtree(tree, node_id) -> int:
    """Nodes explored below ``node_id``, counted on the tree's shape."""
    below = [c for c in tree.nodes[node_id].children if not tree.nodes[c].pruned]
    return len(below) + sum(_subtree(tree, c) for c in below)


def test_each_probe_and_store_is_a_step_with_its_key_and_slot():
    r = _search()
    probes = [e for e in r.tree.events if e[0] == "probe"]
    stores = [e for e in r.tree.events if e[0] == "store"]
    assert len(probes) == r.stats.tt_probes
    assert sum(e[6] == "hit" for e in probes) == r.stats.tt_hits > 0
    game = Nim(8, 3)
    for e in probes + stores:
        assert e[3] == e[2] % COURSE_SLOTS
    # a node's store comes after its children, before its return
    for e in stores:
        i = r.tree.events.index(e)
        assert r.tree.events[i + 1] == ("exit", e[1], r.tree.nodes[e[1]].value)
    # the root's key is the position at the start: 8 matches, J0 to move
    assert probes[0][1] == 0 and probes[0][2] == game.key(game.initial_state())


def test_a_hit_saves_the_nodes_the_first_search_of_that_position_took():
    r = _search()
    tree = r.tree
    stored_at, hits = {}, 0
    for e in tree.events:
        if e[0] == "store":
            stored_at[e[2]] = e[1]
        if e[0] == "probe" and e[6] == "hit":
            first = stored_at[e[2]]
            assert e[7] == _subtree(tree, first)
            assert tree.nodes[e[1]].table == "hit" and not tree.nodes[e[1]].children
            hits += 1
    assert hits, "the example's search met no table hit: nothing was checked"


def test_a_min_node_s_entry_is_shown_from_the_maximiser_s_side():
    # Nim 8, depth 4: the node after taking 1 (7 left, J1 to move) stores its value; from the
    # root's side a min node's "at least" is the stored "at most" and its value the opposite.
    r = _search()
    for e in r.tree.events:
        if e[0] == "store" and not r.tree.nodes[e[1]].is_max:
            depth, bound, value, move = e[5]
            assert value == r.tree.nodes[e[1]].value     # what the node returns, root's side
            break
    else:
        pytest.fail("no min node stored an entry")


# -- the replay in the page --------------------------------------------------------------------


def _steps():
    game = Connect4(4, 4)
    state = play(game, [int(c) - 1 for c in TABLE_STEPS["moves"]])
    r = alphabeta_tt(game, state, TABLE_STEPS["depth"], heuristic=make_heuristic(game),
                     order="natural", record=True)
    return game, state, r


def _panel_text(client, step, lang="en"):
    query = "&".join(f"{k}={v}" for k, v in TABLE_STEPS.items())
    response = client.get(f"/connect4/tree?{query}&step={step}&lang={lang}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)), html


def _hex(key):
    digits = f"{key:016x}"
    return " ".join(digits[i:i + 4] for i in range(0, 16, 4))


def test_the_course_s_table_example_is_small_enough_to_step_and_has_hits():
    _, _, r = _steps()
    assert r.stats.nodes <= 60 and r.stats.tt_hits >= 2


def test_a_hit_step_names_the_slot_the_entry_and_the_nodes_saved(client):
    game, state, r = _steps()
    i, e = next((i, e) for i, e in enumerate(r.tree.events) if e[0] == "probe" and e[6] == "hit")
    text, _ = _panel_text(client, i + 1)
    assert f"slot {e[3]:,}" in text
    assert _hex(e[2]) in text
    depth, bound, value, move = e[5]
    words = {"exact": "exactly", "lower": "at least", "upper": "at most"}[bound]
    assert f"{words} {value:g}".replace("-", "−") in text.replace("-", "−")
    assert re.search(rf"It saves the {e[7]} nodes? its first search took", text)
    assert 'class="table now"' in _panel_text(client, i + 1)[1]    # the algorithm's line


def test_entering_a_node_shows_the_key_before_the_number_and_the_key_after(client):
    game, state, r = _steps()
    i, e = next((i, e) for i, e in enumerate(r.tree.events)
                if e[0] == "enter" and r.tree.nodes[e[1]].ply == 2)
    node = r.tree.nodes[e[1]]
    first, second = r.tree.nodes[node.parent].move, node.move
    after_first = game.result(state, first)
    expected = after_first.key ^ game.zobrist[game.to_move(after_first)][
        second * game.h1 + ((after_first.mask >> (second * game.h1)) & ((1 << game.h1) - 1)).bit_count()]
    text, _ = _panel_text(client, i + 1)
    assert re.search(rf"key before {_hex(after_first.key)} XOR number of (Yellow|Red) in "
                     rf"column {second + 1}, row \d {_hex(expected ^ after_first.key)} "
                     rf"key after {_hex(expected)}", text)
    assert expected == game.result(after_first, second).key
    # in French, in seed 004's word for it ("réaliser un Ou-Exclusif")
    text, _ = _panel_text(client, i + 1, lang="fr")
    assert re.search(rf"clé avant {_hex(after_first.key)} Ou-Exclusif avec le nombre de "
                     rf"(Jaune|Rouge), colonne {second + 1}, ligne \d {_hex(expected ^ after_first.key)}",
                     text)


def test_a_store_step_and_the_caption_at_the_end(client):
    game, state, r = _steps()
    i, e = next((i, e) for i, e in enumerate(r.tree.events) if e[0] == "store")
    text, html = _panel_text(client, i + 1)
    assert f"in slot {e[3]:,}" in text and 'class="store now"' in html
    saved = sum(p[7] for p in r.tree.events if p[0] == "probe" and p[6] == "hit")
    end, _ = _panel_text(client, len(r.tree.events))
    assert f"saving the {saved} node" in end


def test_the_replay_in_french(client):
    game, state, r = _steps()
    i = next(i for i, e in enumerate(r.tree.events) if e[0] == "probe" and e[6] == "hit")
    text, _ = _panel_text(client, i + 1, "fr")
    assert "emplacement" in text and "clé" in text and "économise" in text


def test_the_stepper_jumps_to_the_next_table_hit_and_the_next_cut(client):
    # A class should not press "forward" 95 times to see the table answer: the stepper links
    # to the step of the next hit, and of the next cut-off, from wherever it is.
    game, state, r = _steps()
    events = r.tree.events
    hits = [i + 1 for i, e in enumerate(events) if e[0] == "probe" and e[6] == "hit"]
    cuts = [i + 1 for i, e in enumerate(events) if e[0] == "cut"]
    _, html = _panel_text(client, 0)
    assert re.search(rf'href="[^"]*step={hits[0]}[^"]*"[^>]*data-next="hit"', html)
    assert re.search(rf'href="[^"]*step={cuts[0]}[^"]*"[^>]*data-next="cut"', html)
    _, html = _panel_text(client, hits[0])        # at the first hit: the next one is the second
    assert re.search(rf'href="[^"]*step={hits[1]}[^"]*"[^>]*data-next="hit"', html)
    _, html = _panel_text(client, hits[-1])       # after the last hit: no such link
    assert 'data-next="hit"' not in html


def test_iterative_deepening_s_table_has_the_same_places():
    # custom iterative deepening runs the course's loop: its probes show a slot, not the key
    game = Connect4(4, 4)
    state = play(game, [0, 0, 0, 0, 1, 1, 1])
    from ai.course.search import iterative_deepening
    r = iterative_deepening(game, state, 3, heuristic=make_heuristic(game), record=True,
                            time_limit=None)
    probes = [e for e in r.tree.events if e[0] == "probe"]
    assert probes and all(e[3] == e[2] % COURSE_SLOTS for e in probes)


def test_a_game_whose_keys_are_its_states_gets_places_by_their_hash():
    # the protocol asks for int keys, but a game of the table whose key is its (hashable)
    # state still runs with the course's table (tests/test_games_table.py's race game did not)
    table = TranspositionTable(slots=8)
    table.store(("a", 3), 1, EXACT, 5, None)
    assert table.get(("a", 3)) == (1, EXACT, 5, None)
    assert table.slot(("a", 3)) == hash(("a", 3)) % 8
    assert table.get(("b", 3)) is None                # never stored: not another's entry
