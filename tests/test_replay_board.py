"""Issue 21, defect 7: the board beside a replay of the AI's search shows the position it
searched, not its move, until the replay's last step, on Connect-4 as on Nim.

    You (yellow) played column 4, the AI (red) answered column 4: moves=44, level easy.
    At step 0 of the search behind the AI's move the board holds your one disc; at the last
    step, both."""
import re

HX = {"HX-Request": "true"}
GAME = "/connect4?moves=44&mode=human-ai&tree=1&level=easy"


def discs(html: str) -> int:
    board = re.search(r'<table class="board.*?</table>', html, re.S).group(0)
    return len(re.findall(r'class="disc p[01]"', board))


def moves(html: str) -> list:
    listed = re.search(r'<ol class="move-list">.*?</ol>', html, re.S).group(0)
    return [re.sub(r"\s+", " ", m).strip() for m in re.findall(r">(\d+\. [^<]*)</a>", listed)]


def test_the_board_waits_for_the_end_of_the_replay_to_show_the_ai_s_disc(client):
    page = client.get(GAME + "&step=0").get_data(as_text=True)
    assert discs(page) == 1 and "is searching" in page
    assert re.search(r'<button[^>]*data-col="1"[^>]*disabled', page)     # no move during a replay
    last = int(re.search(r"step 0 of (\d+)", page).group(1))
    tree = GAME.replace("/connect4?", "/connect4/tree?")
    before = client.get(tree + f"&step={last - 1}", headers=HX).get_data(as_text=True)
    after = client.get(tree + f"&step={last}", headers=HX).get_data(as_text=True)
    assert discs(before) == 1 and discs(after) == 2
    # the move list too: your move, and the AI's only at the end (sent with the step, htmx)
    assert moves(page) == ["1. 4"] and moves(before) == ["1. 4"]
    assert moves(after) == ["1. 4", "2. 4"] and 'class="moves" id="moves" aria-labelledby="moves-title" hx-swap-oob="true"' in after
    assert "Your turn." in after and "is searching" not in after
    assert discs(client.get(GAME).get_data(as_text=True)) == 2        # no replay: the game as is


def test_the_search_the_ai_would_make_needs_no_waiting(client):
    # the AI played first (column 4): at step 0 of its search the board is empty
    page = client.get("/connect4?moves=4&mode=ai-human&tree=1&level=easy&step=0"
                      ).get_data(as_text=True)
    assert discs(page) == 0 and "is searching" in page
    # two people, one screen: the panel shows the search the AI would make next, nothing to hide
    page = client.get("/connect4?moves=44&mode=human-human&tree=1&level=easy&step=0"
                      ).get_data(as_text=True)
    assert discs(page) == 2 and "is searching" not in page            # the next search: as it is


def test_a_board_sent_with_a_tree_step_never_asks_for_a_move_by_itself(client):
    r = client.get("/connect4/tree?mode=ai-ai&moves=44&tree=1&level=easy", headers=HX)
    html = r.get_data(as_text=True)
    assert 'id="board-wrap" hx-swap-oob="true"' in html
    assert "ai-trigger" not in html and "AI, play now" in html
