"""The tree picture's geometry is computed in Python (``ai.teach.tree_layout``) and drawn by
one template: every node inside the picture, no two nodes of a row touching, each edge from
below its parent's labels to above its child's move, and the handout's parts one under the
other. Seed 003's tree: alpha-beta on 5 matches at depth 2 (9 nodes explored)."""
from ai.course.search import alphabeta
from ai.games.connect4.rules import Connect4
from ai.games.nim.rules import Nim
from ai.levels import LEVELS
from ai.teach.tree_layout import handout_geometry, tree_geometry
from ai.teach.tree_view import finished_search, spine, subtree_sizes, text_width, unfold, walk


def course_tree(**options):
    tree = alphabeta(Nim(5), None, 2, record=True).tree
    view = unfold(tree, (), levels=99)
    shown = finished_search(view, True, subtree_sizes(tree))
    return view, shown, tree_geometry(view, shown, value_label=lambda s: str(s.value),
                                      **options)


def test_every_node_of_the_course_tree_is_inside_the_picture_and_apart_from_its_row():
    for options in ({}, {"projector": True}, {"hide": True}, {"names": True}):
        view, shown, geo = course_tree(**options)
        spots = [geo.nodes[v.node.id] for v in walk(view)]
        assert len(spots) == len(list(walk(view))) > 9, options
        for p in spots:
            assert p.r <= p.x <= geo.width - p.r and p.r <= p.y <= geo.height - p.r, options
        for row in {p.y for p in spots}:
            xs = sorted(p.x for p in spots if p.y == row)
            assert all(b - a > 2 * geo.nodes[view.node.id].r for a, b in zip(xs, xs[1:]))


def test_each_edge_leaves_below_its_parents_labels_and_ends_above_its_childs_move():
    view, shown, geo = course_tree()
    edges = 0
    for v in walk(view):
        parent = geo.nodes[v.node.id]
        for c in v.children:
            edge, child = geo.edges[c.node.id], geo.nodes[c.node.id]
            edges += 1
            assert (edge.x1, edge.x2) == (parent.x, child.x)
            # under the parent: its alpha and beta lines, then the edge
            below = geo.ab_y(parent, 2) if parent.window else parent.y + parent.r
            assert edge.y1 > below
            if edge.x1 == edge.x2:      # a vertical edge: the move's number to its left
                assert edge.label_x < edge.x1 and edge.y1 < edge.label_y < edge.y2
            else:                       # above the child: the move's number, then the child
                assert edge.label_y < child.y - child.r and edge.y2 < edge.label_y
            assert edge.y2 <= child.y - child.r
    assert edges == len(list(walk(view))) - 1


def test_a_large_search_row_is_wide_enough_for_its_sizes():
    game = Connect4()
    result = LEVELS["hard"].play(game, game.from_moves("4453"), record=True)
    sizes = subtree_sizes(result.tree)
    view = spine(result.tree, (), sizes)
    shown = finished_search(view, True, sizes)
    label = "{:,} nodes".format
    geo = tree_geometry(view, shown, spine=True, value_label=lambda s: str(s.value),
                        size_label=label)
    row = sorted(geo.nodes[c.node.id].x for c in view.children)
    assert len(row) == 7
    widest = max(text_width(label(shown[c.node.id].searched), 13) for c in view.children)
    assert min(b - a for a, b in zip(row, row[1:])) > widest * 0.9


def test_the_handout_puts_caption_board_tree_and_legend_one_under_the_other():
    view, shown, geo = course_tree()
    page = handout_geometry(geo, 3, ["a legend part " * 12, "another"], 150)
    assert page.caption_y[-1] < page.board_y and page.board_y + 150 <= page.tree_y
    assert page.tree_y + geo.height < page.legend_lines[0][0]
    assert len(page.legend_lines) >= 3 and page.legend_lines[-1][0] < page.height
    assert page.width >= geo.width
