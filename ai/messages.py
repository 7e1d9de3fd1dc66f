"""Errors people read, written so a user interface can translate them.

``GameError("column %(col)s is full", col=4)`` is a ``ValueError`` whose message reads in
English as usual, and which also keeps its template and values: the web app looks the
template up in its French catalogue (``pybabel extract -k GameError`` finds the templates
here) and fills in the values. Nothing here imports Flask or Babel.
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
