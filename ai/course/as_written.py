"""The course's algorithms as the course writes them, in code that runs.

- ``minmax``: seed 000, Listing VIII.2, the MIN-MAX value to the end of the game;
- ``minmax_h``: seed 000, Listing VIII.3, the same to a depth ``prof``, the heuristic ``h``
  scoring the nodes at that depth ("minmax avec fonction heuristique");
- ``alphabeta``, ``valeur_max``, ``valeur_min``: seed 003's "évaluation MIN-MAX avec
  élagage α-β", a node of the maximiser and a node of the minimiser, α = max(α, s_i),
  β = min(β, s_i), the cut when α ≥ β (with a depth limit and ``h`` too: "les deux
  techniques peuvent naturellement être combinées").

The comments are the course's own words. They run over the game protocol
(``ai.course.game``: ``to_move``, ``actions``, ``result``, ``is_terminal``, ``utility``), so
every game of the app and every exercise tree can be searched by them.

This is the twin a student reads beside the course. The app runs ``ai.course.search``: one
negamax loop with the transposition table, the window, the best line, the budgets and the
recorded tree. ``tests/test_as_written.py`` holds the two together: the same value at the
root, and for alpha-beta the same nodes explored when the children are tried in the same
order ("Seuls 9 sommets sur 28 sont explorés"), on every course tree of the app and on
random trees. The algorithm text shown beside a replay (``web.algorithm_text``) points at
the lines of this module that it describes.

Values are the maximiser's, J0's, as the course draws them: seed 000's "max" nodes are
J0's, and "le joueur maximiseur étant fixé" (seed 003), a final position scores +maxScore
when J0 wins, −maxScore when J1 wins and 0 for a draw (the course's flat scores; the engine
gives the same with ``quick_wins=False``); an exercise tree's leaves are its values as
written. ``h(sommet)`` is J0's score too ("plus celui-ci est élevé, plus la situation du
joueur J0 est favorable"): with an app heuristic ``heuristic(state, player)``, pass
``lambda sommet: heuristic(sommet, J0)``.

Every function enters a node by asking ``jeu.is_terminal(sommet)``, once per node: a game
that counts those questions counts the nodes explored (the tests do).
"""
from __future__ import annotations

from math import inf

from .scores import MAX_SCORE, terminal_score

J0, J1 = 0, 1      # J0 le maximiseur (il commence), J1 le minimiseur


def score(jeu, sommet):
    """The score of a final position for the maximiser J0 (seed 003, "score d'un état
    final"): +maxScore won, −maxScore lost, 0 a draw; an exercise tree's leaf as written."""
    return terminal_score(jeu, sommet, J0, 0, quick_wins=False)


def fils_de(jeu, sommet):
    """The children of a node: "les situations accessibles en un coup à partir de la
    situation décrite par le nœud père" (seed 003), in the game's order of moves. Seed 001
    plays each move, searches, and undoes it ("Jouer", "Defaire"): ``result`` gives a new
    state and leaves ``sommet`` as it was, so there is nothing to undo."""
    return [jeu.result(sommet, coup) for coup in jeu.actions(sommet)]


# -- Seed 000, Listing VIII.2: minmax to the end of the game --------------------------------

def minmax(jeu, sommet):
    """The MIN-MAX value of ``sommet``, the whole tree below it explored.

    Seed 000: ``print(minmax('max_4-0', arbre))`` gives 1 on its game of 4 tokens; here, on
    the same game from the games table, it gives +maxScore (tests/test_as_written.py)."""
    if jeu.is_terminal(sommet):
        return score(jeu, sommet)    # +maxScore si J0 remporte la partie, −maxScore si c'est J1
    else:                            # sinon on lance la récursion minmax
        if jeu.to_move(sommet) == J0:    # si c'est un sommet contrôlé par J0
            return max([minmax(jeu, fils) for fils in fils_de(jeu, sommet)])  # fils d'étiquette maxi.
        else:                            # sinon c'est un sommet contrôlé par J1
            return min([minmax(jeu, fils) for fils in fils_de(jeu, sommet)])  # fils d'étiquette mini.


# -- Seed 000, Listing VIII.3: minmax to a depth, with a heuristic h --------------------------

def minmax_h(jeu, sommet, prof, h):
    """The MIN-MAX value of ``sommet`` explored ``prof`` plies deep, ``h`` scoring the nodes
    at that depth: "si l'on tombe sur un sommet terminal avant d'avoir atteint la profondeur
    maximale, alors on attribue +1 ou −1 [...]; si l'on a atteint la profondeur maximale, on
    renvoie la valeur donnée par la fonction heuristique sur ce sommet"."""
    if jeu.is_terminal(sommet):
        return score(jeu, sommet)    # un sommet terminal: la partie est jouée
    elif prof == 0:
        return h(sommet)             # la profondeur maximale: la fonction heuristique
    elif jeu.to_move(sommet) == J0:  # si c'est un sommet contrôlé par J0
        return max([minmax_h(jeu, fils, prof - 1, h) for fils in fils_de(jeu, sommet)])  # fils d'étiqu. maximale
    else:                            # sinon c'est un sommet contrôlé par J1
        return min([minmax_h(jeu, fils, prof - 1, h) for fils in fils_de(jeu, sommet)])  # fils d'étiqu. minimale


# -- Seed 003: MIN-MAX with alpha-beta pruning ------------------------------------------------

def alphabeta(jeu, sommet, prof=inf, h=None, alpha=-MAX_SCORE, beta=MAX_SCORE):
    """The MIN-MAX value of ``sommet`` with pruning: the value of ``minmax_h`` at the same
    depth (of ``minmax`` with no depth), fewer nodes explored. ``prof``: plies to explore
    (default: to the end of the game, where ``h`` is never asked). "Le processus d'évaluation
    peut être initialisé avec les valeurs −maxScore, +maxScore pour alpha, respectivement
    beta": the default window; an exercise tree's maxScore is its largest leaf.

    Returns the node's value when it lies inside (alpha, beta); else a bound, which is all
    the parent needs: at most alpha (the parent, a maximiser, already has alpha), at least
    beta (the parent, a minimiser, already has beta)."""
    if jeu.to_move(sommet) == J0:
        return valeur_max(jeu, sommet, prof, h, alpha, beta)
    else:
        return valeur_min(jeu, sommet, prof, h, alpha, beta)


def valeur_max(jeu, sommet, prof, h, alpha, beta):
    """A node of the maximiser: "lors de l'exploration des situations dérivées d'un sommet
    associé au joueur maximiseur"."""
    if jeu.is_terminal(sommet):
        return score(jeu, sommet)
    if prof == 0:
        return h(sommet)
    for coup in jeu.actions(sommet):
        s = alphabeta(jeu, jeu.result(sommet, coup), prof - 1, h, alpha, beta)
        alpha = max(alpha, s)        # chacun des scores s_i obtenus met à jour alpha: α = max(α, s_i)
        if alpha >= beta:            # si l'on trouve α = β, le score du sommet maximiseur est [β, β]:
            break                    # on peut arrêter l'exploration des sommets fils (élagage)
    return alpha


def valeur_min(jeu, sommet, prof, h, alpha, beta):
    """A node of the minimiser: "lors de l'exploration des situations dérivées d'un sommet
    associé au joueur minimiseur"."""
    if jeu.is_terminal(sommet):
        return score(jeu, sommet)
    if prof == 0:
        return h(sommet)
    for coup in jeu.actions(sommet):
        s = alphabeta(jeu, jeu.result(sommet, coup), prof - 1, h, alpha, beta)
        beta = min(beta, s)          # chacun des scores s_i obtenus met à jour bêta: β = min(β, s_i)
        if alpha >= beta:            # si l'on trouve β = α, le score du sommet est [α, α]:
            break                    # on peut arrêter l'exploration des sommets fils (élagage)
    return beta
