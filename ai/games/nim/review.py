"""Nim's hooks for the review of a game (``ai.teach.review``): the course's theory (seed 003:
a multiple of k+1 matches loses for the player to move, in normal play; one more than a
multiple of k+1 in misère play) gives every position's score, +1 or -1 for the side to move,
with no search, and says why a move loses.
"""
from __future__ import annotations

from ai.messages import N_


def exact_score(game, state, *, time_limit=None, max_nodes=None):
    """``(score, best take, 0)``: +1 if the side to move wins with best play, -1 if it loses;
    the best take leaves the opponent a losing count (a losing side takes 1: it makes the
    game last longest)."""
    if state.remaining == 0:        # the game is over: the side to move lost (normal) or won
        return (1 if game.variant == "misere" else -1), None, 0
    if game.is_losing(state.remaining):
        return -1, 1, 0
    m = game.k + 1
    take = state.remaining % m if game.variant == "normal" else (state.remaining - 1) % m
    return 1, take, 0


def score_outcome(game, state, score):
    return ("win" if score > 0 else "loss"), None


def review_why(game, before, move, kept, line, before_words, after_words, cls):
    """Why a take loses: it leaves the opponent a count that is not a losing one, and the
    opponent's answer gives them back one (the multiple of k+1)."""
    m = game.k + 1
    left = before.remaining - move
    reply = line[0] if line else None
    v = {"move": move, "left": left, "m": m, "reply": reply,
         "target": None if reply is None else left - reply,
         "kept": kept, "kept_left": None if kept is None else before.remaining - kept,
         "player": game.to_move(before), "opponent": 1 - game.to_move(before)}
    if game.variant == "normal":
        parts = [(N_("After taking %(move)s, %(left)s are left, not a multiple of %(m)s: "
                     "%(opponent)s takes %(reply)s and leaves %(target)s, a multiple of "
                     "%(m)s, and wins."), v)]
        if kept is not None:
            parts.append((N_("Taking %(kept)s left %(kept_left)s, a multiple of %(m)s: the "
                             "win."), v))
    else:
        parts = [(N_("After taking %(move)s, %(left)s are left, not one more than a "
                     "multiple of %(m)s: %(opponent)s takes %(reply)s and leaves %(target)s, "
                     "and wins."), v)]
        if kept is not None:
            parts.append((N_("Taking %(kept)s left %(kept_left)s, one more than a multiple "
                             "of %(m)s: the win."), v))
    if reply is None:
        return None
    return parts


def review_drawing(game, before, move, line, max_line=None):
    """The takes from the erring one on: ``[(player, taken, left after), …]``, the erring
    take first (number 0), then the refutation's, numbered from 1."""
    steps = []
    left = before.remaining - move
    player = game.to_move(before)
    steps.append({"n": 0, "player": player, "take": move, "left": left,
                  "losing": game.is_losing(left)})
    for i, t in enumerate(line, 1):
        player = 1 - player
        left -= t
        steps.append({"n": i, "player": player, "take": t, "left": left,
                      "losing": game.is_losing(left)})
        if left == 0:
            break
    return {"steps": steps, "start": before.remaining, "m": game.k + 1}
