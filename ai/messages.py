"""Errors people read, written so a user interface can translate them.

``GameError("column %(col)s is full", col=4)`` is a ``ValueError`` whose message reads in
English as usual, and which also keeps its template and values: the web app looks the
template up in its French catalogue (``pybabel extract -k GameError`` finds the templates
here) and fills in the values. ``Plural``: a phrase that depends on a number, inside such
values (``in_moves``: "in 3 moves", the review's and the hints' words, which the games' own
review hooks use too). Nothing here imports Flask or Babel.
"""
from __future__ import annotations


class GameError(ValueError):
    def __init__(self, template: str, **values):
        self.template, self.values = template, values
        super().__init__(template % values if values else template)


def translate(err: Exception, gettext) -> str:
    """``err``'s message through ``gettext(template, **values)``; nested GameErrors among the
    values are translated first. Any other exception keeps its own message."""
    if not isinstance(err, GameError):
        return str(err)
    values = {k: translate(v, gettext) if isinstance(v, GameError) else v
              for k, v in err.values.items()}
    return gettext(err.template, **values)


def N_(text: str) -> str:
    """Mark a label for translation where it is defined (``label = N_("cell values")``);
    the interface translates it where it shows it."""
    return text


class Plural:
    """A phrase that depends on a number (``ngettext``'s three arguments), inside a
    sentence's values: ``Plural("in %(num)s move", "in %(num)s moves", k)``."""

    def __init__(self, singular: str, plural: str, n: int):
        self.singular, self.plural, self.n = singular, plural, n

    def text(self, ngettext=None) -> str:
        if ngettext is not None:
            return ngettext(self.singular, self.plural, self.n)
        return (self.singular if self.n == 1 else self.plural) % {"num": self.n}


def in_moves(k: int | None):
    """"in 3 moves" (the catalogue's words of the hints), or "" for an unknown distance."""
    return "" if k is None else Plural(N_("in %(num)s move"), N_("in %(num)s moves"), k)
