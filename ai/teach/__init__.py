"""The views of a search that the course teaches with: the tree as drawn (``tree_view``), the
transposition table (``table_view``), the comparison of algorithms (``compare``), the tree's
growth (``growth``) and the exercises (``exercise``, ``exercise_tree``)."""
