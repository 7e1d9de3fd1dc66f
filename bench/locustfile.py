"""Load test: simulated players, each playing whole Connect-4 and Nim games at the default
level, clicking like a person (an htmx request per move, about 3 s of thought between).

Run by ``bench/load.sh`` (which starts the README's gunicorn and stops it afterwards)."""
import random
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from locust import HttpUser, between, task

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ai.connect4 import Connect4  # noqa: E402
from ai.nim import Nim  # noqa: E402

HX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
OVER = re.compile(r"wins!|You win!|Draw\.")


class Player(HttpUser):
    wait_time = between(2.5, 3.5)

    def moves_after(self, response):
        pushed = response.headers.get("HX-Push-Url", "")
        return parse_qs(urlparse(pushed).query).get("moves", [""])[0]

    def play_game(self, game, page, move_url):
        """Open ``page``, then click random legal moves (``move_url(moves, move)``) until the
        game ends, thinking about 3 s between clicks."""
        self.client.get(page, name=page.split("?")[0] + " (page)")
        moves = ""
        for _ in range(25):
            state = game.initial_state()
            for m in game.parse_moves(moves):
                state = game.result(state, m)
            if game.is_terminal(state):
                return
            move = game.format_move(random.choice(game.actions(state)))
            url = move_url(moves, move)
            with self.client.get(url, headers=HX, name=url.split("?")[0],
                                 catch_response=True) as r:
                if r.status_code != 200:
                    r.failure(f"status {r.status_code}")
                    return
                moves = self.moves_after(r)
                if OVER.search(r.text):
                    return
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
