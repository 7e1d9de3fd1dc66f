"""This page's own link, with some parameters changed: the language, projector mode and the
notation switch links all start from it."""
from __future__ import annotations

from flask import request, url_for


def this_page(**changes) -> str:
    """This page's link with some parameters changed (the language, projector mode)."""
    # url_for's own arguments (endpoint, _method, _external, _scheme, _anchor) are not the
    # page's: a link with ?endpoint= or ?_method= made every page a 500, ?_scheme= a
    # javascript: link
    args = {k: v for k, v in request.args.to_dict().items()
            if k != "endpoint" and not k.startswith("_")}
    args.update(changes)
    # the path's own values win over a query parameter of the same name (/<game>?game=x,
    # /c/K7PQMX?code=x), which otherwise made every such page a 500
    values = {**args, **(request.view_args or {})}
    return url_for(request.endpoint or "pages.home", **values)
