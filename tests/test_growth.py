"""Issue 13: O(b^m) made visible on uniform trees (/tree/growth): minimax visits every node,
1 + b + ... + b^m, and alpha-beta with the best child first scores exactly Knuth and Moore's
b^ceil(m/2) + b^floor(m/2) - 1 leaves (1975: the known answer from outside)."""
import re

import pytest

from ai.teach.growth import growth


@pytest.mark.parametrize("b, m", [(2, 8), (3, 6), (4, 5), (5, 4)])
def test_the_counts_are_the_formulas(b, m):
    for row in growth(b, m):
        assert row.minimax == row.formula == sum(b ** i for i in range(row.depth + 1))
        assert row.best_leaves == b ** ((row.depth + 1) // 2) + b ** (row.depth // 2) - 1
        assert row.best <= row.alphabeta <= row.minimax


def test_the_page_and_its_bounds(client):
    html = client.get("/tree/growth?b=3&m=6&lang=fr").get_data(as_text=True)
    rows = re.findall(r'<tr><th scope="row">(\d)</th>((?:<td class="num">[^<]*</td>)+)</tr>', html)
    assert [int(d) for d, _ in rows] == [1, 2, 3, 4, 5, 6]
    last = re.findall(r'<td class="num">([^<]*)</td>', rows[-1][1])
    assert last[0] == last[1] == "1\u202f093" and last[4] == last[5] == "53"
    r = client.get("/tree/growth?b=6&m=8")
    assert r.status_code == 400 and "20,000 leaves" in r.get_data(as_text=True)
    assert client.get("/tree/growth?b=x").status_code == 400
