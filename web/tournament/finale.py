"""A class tournament's finale, the teacher's show at its end: best of 3 between the top two
of the standings, played move by move on the projector (``step``, one move a click, each
move the search of its mover in a search lane), then the champion against the perfect player
(the game's exact play). For any game with tournaments; the teacher's route and the page's
drawing are ``live``'s (its ``Live``: the spec, the standings, the game's part)."""
from __future__ import annotations

from ai.levels import LEVELS

from ..admission import admitted
from . import runner as R

FINALE_GAMES = 3
PERFECT = "perfect"


def player(live, name: str):
    """The move chooser of ``name``: an entrant's (the tournament's search), or the perfect
    player's."""
    if name == PERFECT:
        level = LEVELS[PERFECT]
        return lambda s: level.play(live.tg.rules, s).move
    i = [e["name"] for e in live.spec["entrants"]].index(name)
    p = R._player(live.spec, i)
    return lambda s: p(s).move


def move(live, g: dict) -> dict:
    """``g`` with its next move played (a search of the mover, in the light lane)."""
    rules = live.tg.rules
    played, opening = rules.parse_moves(g["moves"]), rules.parse_moves(g["opening"])
    state = position(rules, played)
    if rules.is_terminal(state):
        return g
    ply = len(played) - len(opening)
    mover = g["first"] if ply % 2 == 0 else g["second"]
    chosen = admitted(lambda: player(live, mover)(state), heavy=mover == PERFECT)
    after = rules.result(state, chosen)
    result = None
    if rules.is_terminal(after):
        u = rules.utility(after, rules.to_move(position(rules, opening)))
        result = "1-0" if u > 0 else "0-1" if u < 0 else "½-½"
    return {**g, "moves": rules.format_moves(played + [chosen]), "result": result}


def position(rules, moves: list):
    state = rules.initial_state()
    for m in moves:
        state = rules.result(state, m)
    return state


def games(a: str, b: str, openings: list[dict]) -> list[dict]:
    """Best of 3: the first of the standings starts the first game, colours alternate, each
    game from the next of the solver's balanced openings (three of them: a third game from
    the first one's opening and colours would replay it move for move)."""
    out = []
    for i in range(FINALE_GAMES):
        o = openings[i % len(openings)]["moves"]
        first, second = (a, b) if i % 2 == 0 else (b, a)
        out.append({"first": first, "second": second, "opening": o, "moves": o,
                    "result": None})
    return out


def score(played: list[dict], name: str) -> float:
    pts = 0.0
    for g in played:
        if g["result"]:
            s = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
            pts += s if g["first"] == name else 1 - s
    return pts


def step(live, action: str) -> dict | None:
    """The finale after the teacher's ``action`` (``start``, ``next``, ``perfect``)."""
    spec, f = live.spec, live.finale
    if action == "start":
        if len(live.rows) < 2:
            return f
        a, b = live.rows[0]["name"], live.rows[1]["name"]
        return {"a": a, "b": b,
                "games": games(a, b, live.tg.rules.tournament_openings(FINALE_GAMES)),
                "perfect": None, "champion": None}
    if not f:
        return f
    if action == "next":
        if f.get("perfect"):
            if not f["perfect"]["result"]:
                f = {**f, "perfect": move(live, f["perfect"])}
            return f
        played = list(f["games"])
        for i, g in enumerate(played):
            if not g["result"]:
                played[i] = move(live, g)
                break
        f = {**f, "games": played}
        a, b = f["a"], f["b"]
        sa, sb = score(played, a), score(played, b)
        left = sum(1 for g in played if not g["result"])
        if sa > sb + left or sb > sa + left or not left:
            # decided: the games left are not played; level after three, the standings' first
            f = {**f, "champion": a if sa >= sb else b,
                 "games": [g for g in played if g["result"] or g["moves"] != g["opening"]]}
        return f
    if action == PERFECT and f.get("champion") and not f.get("perfect"):
        o = spec["openings"][0]["moves"]
        return {**f, "perfect": {"first": f["champion"], "second": PERFECT, "opening": o,
                                 "moves": o, "result": None}}
    return f
