"""Pages that draw a search tree on the loop take the trees' lane (issue 37): while its slots
are taken, a tree page is refused at once with a 503 and Retry-After (its drawing never runs),
and a page without a tree is not held back. Counted in drawings, never timed."""
import pytest

import web.admission as admission
import web.play


@pytest.fixture()
def drawings(monkeypatch):
    calls = []
    original = web.play.tree_panel

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(web.play, "tree_panel", counting)
    monkeypatch.setattr(admission, "LIGHT_WAIT", 0.01)
    return calls


@pytest.mark.parametrize("url", ["/tictactoe/tree?moves=5&mode=human-human",
                                 "/tictactoe/tree.svg?moves=5&mode=human-human",
                                 "/tictactoe?moves=51&tree=1", "/connect4/tree?moves=44",
                                 "/nim/tree?n=7"])
def test_a_tree_page_waits_for_the_pages_lane_and_is_refused_when_it_is_full(client, drawings,
                                                                               url):
    free = client.get(url)
    assert free.status_code == 200
    drawn = len(drawings)
    assert drawn == 1
    slots = [admission._trees.acquire(blocking=False) for _ in range(admission.TREE_SLOTS)]
    try:
        assert all(slots)
        busy = client.get(url)
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert "busy" in busy.get_data(as_text=True)
        assert len(drawings) == drawn                 # refused before any drawing
        assert client.get("/tictactoe?moves=5").status_code == 200    # no tree: not held
        assert client.get("/").status_code == 200
        assert client.get("/tree").status_code == 200                 # the lab's own lane
    finally:
        for _ in slots:
            admission._trees.release()
    assert client.get(url).status_code == free.status_code
