"""Marienbad's hook for the review of a game (``ai.teach.review``): the exact scores are the
generic memoized solve's (the tree below any position of 9-match heaps is small); this says
why a move loses in the theory's words, the nim-sum it leaves (a "position paire", nim-sum 0,
loses for the player to move)."""
from __future__ import annotations

from ai.messages import N_

from .grundy import endgame, nim_sum


def review_why(game, before, move, kept, line, before_words, after_words, cls):
    """Why a move threw the win away: it left a nim-sum other than 0 (misère, with every heap
    at most 1: an even number of single matches), and the opponent's reply gives one back.
    None (the generic sentence) for an inaccuracy, a slower win or a quicker loss."""
    if cls == "inaccuracy" or not line:
        return None
    after = game.result(before, move)
    reply = game.result(after, line[0])
    v = {"move": game.format_move(move), "reply": game.format_move(line[0]),
         "sum": nim_sum(after.heaps), "sum_reply": nim_sum(reply.heaps),
         "kept": "" if kept is None else game.format_move(kept),
         "player": game.to_move(before), "opponent": 1 - game.to_move(before)}
    if game.variant == "misere" and endgame(reply.heaps):
        parts = [(N_("After %(move)s, %(opponent)s plays %(reply)s: every heap has at most "
                     "one match, an odd number of them; %(player)s will take the last one."), v)]
    else:
        parts = [(N_("After %(move)s, the nim-sum is %(sum)s, not 0: %(opponent)s plays "
                     "%(reply)s and leaves a nim-sum of 0, a losing position for the player "
                     "to move."), v)]
    if kept:
        parts.append((N_("%(kept)s left the opponent a losing position."), v))
    return parts
