"""ai.games.connect4.bitboard: Pascal Pons' layout, the one copy the three Connect-4 engines share.

    . . . . . . .        bit of cell (col, row) = col * 7 + row on 7x6:
    . . . . . . .        column 1 holds bits 0-5, its spare bit is 6;
    . . . . . . .        column 2 starts at bit 7, and so on.
"""
from hypothesis import assume, given, settings

from ai.games.connect4.bitboard import alignment, four_cells, geometry, non_losing, winning_cells
from ai.games.connect4.rules import Connect4
from tests.strategies import connect4_games, reachable


def test_the_layout_of_a_7x6_board():
    g = geometry(7, 6)
    assert g.h1 == 7 and g.cells == 42
    assert g.column_bottom[1] == 1 << 7 and g.column_top[1] == 1 << 12
    assert g.colmask[0] == 0b111111
    assert g.board.bit_count() == 42 and not g.board & g.sentinels


def test_centre_first_is_pons_order_on_every_board():
    assert geometry(7, 6).order == (3, 2, 4, 1, 5, 0, 6)
    assert geometry(6, 6).order == (3, 2, 4, 1, 5, 0)      # Pons: the right-centre first
    assert geometry(4, 4).order == (2, 1, 3, 0)
    assert Connect4(6, 5).center_order == (3, 2, 4, 1, 5, 0)


def test_winning_cells_of_three_in_a_row_are_both_ends():
    game = Connect4()
    state = game.from_moves("2737")                     # X on columns 2 and 3, bottom row
    state = game.result(state, 3)                       # X on column 4: three in a row
    g = geometry(7, 6)
    x = game.stones(state, 0)
    assert winning_cells(x, state.mask, g) == (1 << 0) | (1 << 28)   # columns 1 and 5


@settings(max_examples=200, deadline=None)
@given(pos=reachable(connect4_games(), 42))
def test_winning_cells_are_the_empty_cells_that_complete_a_four(pos):
    game, state = pos
    assume(not game.is_terminal(state))
    g = geometry(game.width, game.height)
    for player in (0, 1):
        stones = game.stones(state, player)
        cells = winning_cells(stones, state.mask, g)
        for col in range(game.width):
            for row in range(game.height):
                bit = 1 << (col * game.h1 + row)
                if state.mask & bit:
                    assert not cells & bit
                    continue
                assert bool(cells & bit) == bool(alignment(stones | bit, game.h1))


def test_non_losing_moves_block_one_threat_and_give_up_against_two():
    g = geometry(7, 6)
    playable = g.bottom                                 # the empty board: every bottom cell
    one = 1 << 7                                        # a threat on column 2's bottom
    assert non_losing(playable, one) == one
    assert non_losing(playable, one | 1 << 14) == 0     # two playable threats
    above = 1 << 8                                      # a threat on column 2, row 2
    assert non_losing(playable, above) == playable & ~one   # never play under it


def test_four_cells_lists_the_cells_of_every_four():
    game = Connect4()
    state = game.from_moves("1212121")                  # X: column 1, rows 1-4
    assert four_cells(game.stones(state, 0), game.h1) == {(0, 0), (0, 1), (0, 2), (0, 3)}
