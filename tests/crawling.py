"""The crawl: every page a person can reach, as a teacher rehearsing a lesson reaches them.

From ``/`` and ``/course`` in French and English, normal and projector mode, it follows every
same-site link (``href``), every htmx URL (``hx-get``, ``hx-post``: sent with ``HX-Request``
as htmx sends them) and every form, submitted with each value of each of its settings in turn
(each option of a select, each radio, a checkbox on and off, each named submit button, a number
field at its ``min`` and its ``max``), the other fields as the page fills them. A page is
fetched when it checks something no page fetched before did: a page not yet seen (as a page
or an htmx fragment, in that language and mode), or a setting's value not yet tried on it. Which
position, node or step a link shows (``moves``, ``step``, a node's ``path``...) does not make it
new, so that the bound goes to pages and settings rather than to ever-deeper games.

Shared by ``tests/test_crawl.py`` (a few hundred pages, fails on any 5xx) and
``bench/crawl.py`` (the same crawl on a served copy, the slowest pages, fails over 2 s).
Only the standard library: the fetch function is the caller's (an HTTP client with cookies).
"""
from __future__ import annotations

import collections
import http.cookiejar
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

STARTS = [f"{path}?{urlencode(q)}" for path in ("/", "/course")
          for q in ({"lang": "fr"}, {"lang": "fr", "proj": 1}, {"lang": "en"},
                    {"lang": "en", "proj": 1})]
# Parameters that say which position, node or step is shown, not how the page is set up:
# links that differ only in them are one shape.
POSITION = {"moves", "at", "step", "path", "col", "take", "td", "board", "link", "t", "root",
            "seed", "check", "rest", "side", "v", "ballot", "name", "card"}


@dataclass
class Request:
    method: str          # GET or POST
    url: str             # path and query (GET), or path (POST)
    data: tuple = ()     # POST: the form's fields
    htmx: bool = False   # sent as htmx sends it (HX-Request: true)
    came_from: str = ""  # the page that offered it


@dataclass
class Answer:
    request: Request
    status: int
    seconds: float
    content_type: str = ""


@dataclass
class _Form:
    method: str
    action: str | None
    hx: list = field(default_factory=list)        # (method, url) of hx-get/hx-post on the form
    fields: list = field(default_factory=list)    # [name, kind, value, options]
    buttons: list = field(default_factory=list)   # (name, value) of named submit buttons
    select: list | None = None                    # the <select> being read


class _Page(HTMLParser):
    """The links, htmx URLs and forms of one page or fragment."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str, bool]] = []   # (method, url, htmx)
        self.forms: list[_Form] = []
        self._form: _Form | None = None
        self._option: list | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            hx = [(m.upper(), a[f"hx-{m}"]) for m in ("get", "post") if f"hx-{m}" in a]
            self._form = _Form((a.get("method") or "get").upper(), a.get("action"), hx)
            self.forms.append(self._form)
            return
        for m in ("get", "post"):
            if f"hx-{m}" in a and (tag != "form"):
                if self._form is not None and tag in ("button", "input") and m == "get":
                    continue            # a submit button's own hx-get sends the form: below
                self.links.append((m.upper(), a[f"hx-{m}"], True))
        if tag in ("a", "area") and a.get("href") and "download" not in a:
            self.links.append(("GET", a["href"], False))
        form = self._form
        if form is None or "disabled" in a or a.get("aria-disabled") == "true":
            return                   # a disabled control is neither sent nor clickable
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image"):
                form.buttons.append((name, a.get("value", "")))
            elif kind == "radio":
                known = next((f for f in form.fields if f[0] == name and f[1] == "radio"), None)
                if known is None:
                    known = [name, "radio", None, []]
                    form.fields.append(known)
                known[3].append(a.get("value", "on"))
                if "checked" in a:
                    known[2] = a.get("value", "on")
            elif kind == "checkbox":
                form.fields.append([name, "checkbox", a.get("value", "on") if "checked" in a
                                    else None, [a.get("value", "on")]])
            elif kind == "number" or kind == "range":
                ends = [v for v in (a.get("min"), a.get("max")) if v not in (None, "")]
                form.fields.append([name, "number", a.get("value", ""), ends])
            else:
                form.fields.append([name, kind, a.get("value", ""), []])
        elif tag == "button" and name and (a.get("type") or "submit").lower() == "submit":
            form.buttons.append((name, a.get("value", "")))
        elif tag == "select" and name:
            form.select = [name, "select", None, []]
            form.fields.append(form.select)
        elif tag == "option" and form.select is not None:
            value = a.get("value")
            self._option = [value, "selected" in a, ""]
            form.select[3].append(self._option)
        elif tag == "textarea" and name:
            form.fields.append([name, "textarea", "", []])

    def handle_data(self, data):
        if self._option is not None and self._option[0] is None:
            self._option[2] += data

    def handle_endtag(self, tag):
        if tag == "option":
            self._option = None
        elif tag == "select" and self._form is not None and self._form.select is not None:
            select = self._form.select
            options = [(v if v is not None else text.strip()) for v, _, text in select[3]]
            chosen = [v if v is not None else text.strip() for v, on, text in select[3] if on]
            select[3] = options
            select[2] = chosen[0] if chosen else (options[0] if options else "")
            self._form.select = None
        elif tag == "form":
            self._form = None


def _values(fields) -> list[tuple[str, str]]:
    return [(name, value) for name, kind, value, _ in fields if value is not None]


def submissions(form: _Form) -> list[tuple]:
    """The form sent as the page fills it, then with each value of each setting in turn."""
    base = [list(f) for f in form.fields]
    buttons = form.buttons or [None]
    out = []

    def add(fields, button):
        pairs = _values(fields) + ([button] if button else [])
        if pairs not in out:
            out.append(pairs)

    for button in buttons:                       # each named submit button (a column, a take)
        add(base, button)
    for i, (name, kind, value, options) in enumerate(base):
        for other in options:
            if other == value:
                continue
            changed = [list(f) for f in base]
            changed[i][2] = other
            add(changed, buttons[0])
        if kind == "checkbox" and value is not None:
            changed = [list(f) for f in base]
            changed[i][2] = None
            add(changed, buttons[0])
    return out


def offered(base_url: str, here: str, html: str) -> list[Request]:
    """Every request a page offers: links, htmx URLs, each form with each of its values."""
    page = _Page()
    page.feed(html)
    out = []

    def same_site(url):
        full = urljoin(base_url + here, url)
        parts, base = urlsplit(full), urlsplit(base_url)
        if parts.scheme not in ("http", "https") or parts.netloc != base.netloc:
            return None
        return parts.path + ("?" + parts.query if parts.query else "")

    for method, url, htmx in page.links:
        target = same_site(url)
        if target:
            out.append(Request(method, target, htmx=htmx, came_from=here))
    for form in page.forms:
        targets = [(form.method, form.action if form.action is not None else here, False)]
        targets += [(m, u, True) for m, u in form.hx]
        if form.method not in ("GET", "POST"):
            continue                 # a <form method="dialog"> closes a dialog, sends nothing
        for pairs in submissions(form):
            for method, action, htmx in targets:
                target = same_site(action)
                if not target:
                    continue
                if method == "GET":
                    path = target.split("?")[0]
                    out.append(Request("GET", path + ("?" + urlencode(pairs) if pairs else ""),
                                       htmx=htmx, came_from=here))
                else:
                    out.append(Request("POST", target, tuple(pairs), htmx, here))
    return out


def features(request: Request) -> set:
    """What fetching ``request`` would check: its page (as a full page or an htmx fragment)
    in its language and mode, and each setting's value on that page. Which position, node
    or step it shows (``POSITION``) counts only as being there or not."""
    parts = urlsplit(request.url)
    path = "/".join("*" if len(p) == 6 and p.isupper() else p for p in parts.path.split("/"))
    params = parse_qsl(parts.query, keep_blank_values=True) + list(request.data)
    given = dict(params)
    page = (request.method, path, request.htmx)
    out = {("page", *page), ("page", *page, given.get("lang"), given.get("proj"))}
    for name, value in params:
        if name in POSITION or name.startswith("v."):
            out.add(("shown", *page, name))
        elif name not in ("lang", "proj"):
            out.add(("setting", *page, name, value))
    return out


def crawl(fetch, *, limit: int = 400, starts=STARTS, base_url: str = ""):
    """Breadth first from ``starts``, fetching each request that checks something no earlier
    one did (``features``); ``fetch(request) -> (status, content_type, text, url)`` (``url``:
    the path and query of the page answered, after any redirect). Returns every ``Answer``, in
    the order fetched, at most ``limit``."""
    # two queues: requests that open a page not seen yet (in its language and mode) go first,
    # so that every page is reached within the bound; then the other values of the settings
    pages, settings = collections.deque(Request("GET", s) for s in starts), collections.deque()
    seen, checked, answers = set(), set(), []
    while (pages or settings) and len(answers) < limit:
        request = pages.popleft() if pages else settings.popleft()
        key = (request.method, request.url, request.data, request.htmx)
        if key in seen or "/static/" in request.url:
            continue
        seen.add(key)
        new = features(request) - checked
        if not new:
            continue
        checked |= new
        start = time.perf_counter()
        status, content_type, text, here = fetch(request)
        answers.append(Answer(request, status, time.perf_counter() - start, content_type))
        if content_type.startswith("text/html") and text:
            for offer in offered(base_url or "http://crawl.invalid", here, text):
                page = {f for f in features(offer) if f[0] == "page"}
                (settings if page <= checked else pages).append(offer)
    return answers


def http_fetcher(base: str, hang: float = 60):
    """``crawl``'s fetch over HTTP, with cookies like a browser (class mode knows its teacher
    by one) and htmx's header on htmx requests; at most ``hang`` seconds each (a guard
    against a hung server, not a speed test)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def fetch(request):
        headers = {"HX-Request": "true"} if request.htmx else {}
        data = urlencode(request.data).encode() if request.method == "POST" else None
        req = urllib.request.Request(base + request.url, data=data, headers=headers,
                                     method=request.method)
        try:
            with opener.open(req, timeout=hang) as r:
                status, headers, body, url = r.status, r.headers, r.read(), r.geturl()
        except urllib.error.HTTPError as err:       # a 4xx or 5xx: its page is still read
            status, headers, body, url = err.code, err.headers, err.read(), err.geturl()
        kind = headers.get("Content-Type", "")
        parts = urlsplit(url)
        here = parts.path + ("?" + parts.query if parts.query else "")
        text = body.decode("utf-8", "replace") if kind.startswith("text/html") else ""
        return status, kind, text, here

    return fetch
