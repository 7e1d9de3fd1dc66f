"""One parser for the heuristics students type as weights of a game's named terms.

Every game that has such terms reads its text here (its rules' ``weighted_heuristic`` and
``weights_text``: the workshop, the tournaments, a game's ``heur`` link, the command line).

The text form: ``name=number`` pairs separated by commas (``open2=4, open3=16,center=2``),
spaces around them allowed, each name at most once; a name is one of the game's terms or one
of its extra keys (parameters beside the weights, e.g. a coefficient a term uses); the terms
not named weigh 0. A number is an integer or a decimal, finite, from ``-MAX_WEIGHT`` to
``MAX_WEIGHT``; the text is at most ``MAX_TEXT`` characters.

Each game says what its text holds (``Terms``: its terms' names in its weights' order, an
example and its extra keys) and makes its own weights from what ``Terms.read`` found. Anything
else is refused by a ``GameError`` that says what is wrong, in words of the shared catalogue
(the interface translates it: ``ai.messages``), the game's names and example as values.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ai.messages import GameError

MAX_WEIGHT = 1e6        # a weight's size at most (a larger one only ever saturates the bound)
MAX_TEXT = 500          # far more than every term named with a long decimal


@dataclass(frozen=True)
class Terms:
    """What a game's weights text may hold."""

    names: tuple[str, ...]          # the terms, in the order of the game's weights
    example: str                    # a heuristic of the game's, for the messages
    extras: tuple[str, ...] = ()    # keys that are not terms (a parameter of one)

    def read(self, text: str) -> dict[str, int | float]:
        """The pairs of ``text`` (see the module's text): name -> number, for the names given.

        Raises:
            GameError: no text, a text too long, a pair without ``=`` or without a name, a
                name given twice, an unknown name, a number that is not one or too large.
        """
        if not isinstance(text, str) or not text.strip():
            raise GameError("a heuristic is written as name=weight pairs separated by commas, "
                            "e.g. %(example)s (terms: %(terms)s)", example=self.example,
                            terms=", ".join(self.names))
        if len(text) > MAX_TEXT:
            raise GameError("a heuristic is at most %(most)s characters long, not %(n)s",
                            most=MAX_TEXT, n=len(text))
        given: dict[str, int | float] = {}
        for part in text.split(","):
            name, eq, value = part.strip().partition("=")
            name = name.strip()
            if not eq or not name:
                raise GameError("%(part)s is not name=weight (e.g. %(example)s)",
                                part=repr(part.strip()), example=self.example)
            if name in given:
                raise GameError("%(name)s is given twice", name=repr(name))
            if name not in self.names and name not in self.extras:
                raise self.unknown(name)
            given[name] = number(name, value.strip())
        return given

    def weights(self, given: dict) -> tuple:
        """One weight per term, in ``names``' order, 0 for a term not in ``given``."""
        return tuple(given.get(n, 0) for n in self.names)

    def check(self, values) -> None:
        """``values``, one weight per term, each a number ``read`` would take.

        Raises:
            GameError: too few or too many values, one that is not a number or too large.
        """
        if len(values) != len(self.names):
            raise GameError("%(n)s weights (%(terms)s), not %(given)s", n=len(self.names),
                            terms=", ".join(self.names), given=len(values))
        for name, w in zip(self.names, values):
            check_weight(name, w)

    def unknown(self, name: str) -> GameError:
        """The error for a name that is neither a term nor an extra key."""
        if self.extras:
            return GameError("unknown term %(name)s: the terms are %(terms)s (and %(extras)s)",
                             name=repr(name), terms=", ".join(self.names),
                             extras=", ".join(self.extras))
        return GameError("unknown term %(name)s: the terms are %(terms)s", name=repr(name),
                         terms=", ".join(self.names))


def number(name: str, text: str) -> int | float:
    """``text``, the weight of ``name``, as an int when it is written as one, else a float.

    Raises:
        GameError: not a number, not finite, larger than ``MAX_WEIGHT``.
    """
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise GameError("%(name)s=%(text)s: the weight must be a number", name=name,
                            text=repr(text)) from None
    check_weight(name, value)
    return value


def check_weight(name: str, w) -> None:
    """``w`` is a number (not a bool), finite, from ``-MAX_WEIGHT`` to ``MAX_WEIGHT``.

    Raises:
        GameError: it is not.
    """
    if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) \
            or abs(w) > MAX_WEIGHT:
        raise GameError("the weight of %(name)s is a number from -%(most)s to %(most)s, not "
                        "%(w)s", name=name, most=f"{MAX_WEIGHT:g}", w=repr(w))
