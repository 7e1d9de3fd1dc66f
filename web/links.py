"""This page's own link, with some parameters changed: the language, projector mode and the
notation switch links all start from it; and a view's links built quickly, many to a page."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote_plus, urlencode

from flask import current_app, g, has_request_context, request, url_for
from werkzeug.datastructures import iter_multi_items


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


# werkzeug's safe characters in a query (url.spec.whatwg.org's query percent-encode set)
QUERY_SAFE = "!$'()*,/:;?@"


def endpoint_url(endpoint: str, path_values: dict, query: dict) -> str:
    """``url_for(endpoint, **path_values, **query)``, the same text, for a page that draws
    dozens of links to one view (a game's page: a link per move, undo, redo, the history...):
    the path and what the app adds to every link (``url_defaults``: the language, projector
    mode, the notation, the course's figure) are worked out once per request and view (the
    path by ``url_for`` once per worker: ``_path``), the query encoded here as werkzeug does. (Through ``url_for`` each link took
    ~20 µs, a game's page ~50 of them: a fifth of its rendering.) ``url_defaults`` here add
    a parameter unless the link gives one of that name, whatever its value, which is what
    this relies on (``tests/test_links.py`` compares the two ways)."""
    bases = g.get("_endpoint_bases") if has_request_context() else None
    if bases is None:
        if not has_request_context() or current_app.url_map.sort_parameters:
            return url_for(endpoint, **path_values, **query)
        bases = g._endpoint_bases = {}
    key = (endpoint, tuple(path_values.items()))
    base = bases.get(key)
    if base is None:
        values = dict(path_values)
        current_app.inject_url_defaults(endpoint, values)
        added = {k: v for k, v in values.items() if k not in path_values}
        base = bases[key] = (_path(endpoint, key[1], tuple(added)), _items(added))
    path, added = base
    items = _items(query)
    items += [(k, v) for k, v in added if k not in query]
    return f"{path}?{encoded(items)}" if items else path


def _items(query) -> list:
    """``query``'s (key, value) pairs as werkzeug's ``iter_multi_items`` gives them (a list,
    tuple or set value one pair per element), those whose value is None left out: a dict's
    here, without the generator (twenty-five links a page)."""
    if type(query) is not dict:
        return [(k, v) for k, v in iter_multi_items(query) if v is not None]
    items = []
    for k, v in query.items():
        if isinstance(v, (list, tuple, set)):
            items += [(k, x) for x in v if x is not None]
        elif v is not None:
            items.append((k, v))
    return items


_paths: dict = {}


def _path(endpoint: str, path_items: tuple, added: tuple) -> str:
    """``url_for``'s path for the view (its query's values all None, so none written), once
    per worker for each view, path values and mount point (a page asked it again for each of
    the eight views it links to, ~15 µs each)."""
    key = (endpoint, path_items, added, request.script_root)
    path = _paths.get(key)
    if path is None:
        if len(_paths) >= 1024:
            _paths.clear()
        path = _paths[key] = url_for(endpoint, **dict(path_items), **dict.fromkeys(added))
    return path


def link(endpoint: str, **values) -> str:
    """``url_for(endpoint, **values)``, the same text, through ``endpoint_url``: for a
    template's links to views with one rule each (a game's page draws a dozen beside its game
    links: a new game, the review, the move and AI forms...). The rule's own arguments are
    its path, the rest the query."""
    rules = _rules()
    arguments = rules.get(endpoint)
    if arguments is None:
        return url_for(endpoint, **values)
    path = {k: values.pop(k) for k in arguments if k in values}
    return endpoint_url(endpoint, path, values)


def _rules() -> dict:
    """The path arguments of each endpoint with a single rule (once per app)."""
    app = current_app._get_current_object()
    rules = app.extensions.get("link_rules")
    if rules is None:
        by_endpoint: dict = {}
        for rule in app.url_map.iter_rules():
            by_endpoint.setdefault(rule.endpoint, []).append(rule)
        rules = app.extensions["link_rules"] = {
            e: tuple(sorted(r[0].arguments)) for e, r in by_endpoint.items()
            if len(r) == 1 and not r[0].defaults}
    return rules


def encoded(items: list) -> str:
    """``urlencode(items, safe=QUERY_SAFE)``, the same text, each ``key=value`` encoded once
    per worker: a game's page draws some fifty links that repeat the same moves and
    settings (a value that cannot be a key of the memo is encoded by ``urlencode``)."""
    try:
        return "&".join([_pair(k, v) for k, v in items])
    except TypeError:
        return urlencode(items, safe=QUERY_SAFE)


@lru_cache(maxsize=4096, typed=True)     # typed: 1, 1.0 and True are three texts
def _pair(key, value) -> str:
    # as urlencode writes one pair (quote_plus, its default quote_via, on str() of a non-bytes)
    key = key if isinstance(key, bytes) else str(key)
    value = value if isinstance(value, bytes) else str(value)
    return f"{quote_plus(key, QUERY_SAFE)}={quote_plus(value, QUERY_SAFE)}"
