"""Load test: simulated players, each playing whole Connect-4 and Nim games at the default
level, clicking like a person (an htmx request per move, then the AI's reply that the page
asks for, about 3 s of thought between), with the tree panel on in one game in five.

Run by ``bench/load.sh`` (which starts the README's gunicorn and stops it afterwards)."""
import random
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

from locust import HttpUser, between, task

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ai.games.connect4.rules import Connect4  # noqa: E402
from ai.games.nim.rules import Nim  # noqa: E402

HX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
OVER = re.compile(r"wins!|You win!|Draw\.")


class Player(HttpUser):
    wait_time = between(2.5, 3.5)

    def moves_after(self, response):
        pushed = response.headers.get("HX-Push-Url", "")
        return parse_qs(urlparse(pushed).query).get("moves", [""])[0]

    def ask(self, url, name):
        """An htmx request as the page sends it; (moves after it, its text) or None."""
        with self.client.get(url, headers=HX, name=name, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"status {r.status_code}")
                return None
            return self.moves_after(r), r.text

    def play_game(self, game, page, move_url):
        """Open ``page``, then click random legal moves (``move_url(moves, move)``) until the
        game ends, thinking about 3 s between clicks; the AI's reply is asked for as the page
        does (``/<game>/ai``)."""
        tree = "&tree=1" if random.random() < 0.2 else ""
        self.client.get(page + ("&" if "?" in page else "?") + tree.lstrip("&") if tree else page,
                        name=page.split("?")[0] + " (page)")
        moves = ""
        for _ in range(25):
            state = game.initial_state()
            for m in game.parse_moves(moves):
                state = game.result(state, m)
            if game.is_terminal(state):
                return
            move = game.format_move(random.choice(game.actions(state)))
            url = move_url(moves, move) + tree
            answer = self.ask(url, url.split("?")[0])
            if answer is None or OVER.search(answer[1]):
                return
            moves, text = answer
            if 'class="ai-trigger"' in text:
                path = urlparse(url).path.replace("/move", "/ai")
                query = {k: v[0] for k, v in parse_qs(urlparse(url).query).items()
                         if k not in ("col", "take")}
                query["moves"] = moves
                answer = self.ask(f"{path}?{urlencode(query)}", path + (" (tree)" if tree else ""))
                if answer is None or OVER.search(answer[1]):
                    return
                moves = answer[0]
            self.wait()

    @task(3)
    def connect4_game(self):
        self.play_game(Connect4(), "/connect4",
                       lambda moves, col: f"/connect4/move?moves={moves}&col={col}")

    @task(1)
    def nim_game(self):
        variant = random.choice(["normal", "misere"])
        self.play_game(Nim(21, 3, variant), f"/nim?variant={variant}",
                       lambda moves, take: f"/nim/move?variant={variant}&moves={moves}&take={take}")
