"""An automated accessibility audit (axe-core, vendored) of every page, in English and in
French, light and dark: no serious or critical violation."""
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
AXE = next((Path(__file__).parent / "vendor").glob("axe-*.min.js"))

PAGES = [
    "/",
    "/connect4?moves=4453342",
    "/connect4?moves=1122334&mode=human-human",
    "/connect4?moves=4453&tree=1&level=medium",
    "/connect4?moves=4453&tree=1&level=medium&proj=1",
    "/nim?moves=32&n=15",
    "/nim?n=5&mode=ai-human&tree=1&level=custom&algo=alphabeta&depth=2&heur=course"
    "&window=course&order=reverse&moves=1&td=2&step=4",
    "/nim/theory?n=5",
    "/tree",
    "/tree?mode=exercise&check=1&v.R=3&v.2=4&p=2.2",
    "/connect4/compare?moves=4453",
    "/connect4?moves=48",          # an error shown in the page
    "/connect4/hints?moves=4453&mode=human-human&hints=1",   # the hints, in the page (issue 14)
]


def audit(browser, url, scheme="light"):
    context = browser.new_context(bypass_csp=True, color_scheme=scheme,
                                  viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    context.close()
    return [v for v in result if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_accessibility_violation(browser, live_server, path, lang):
    sep = "&" if "?" in path else "?"
    bad = audit(browser, f"{live_server}{path}{sep}lang={lang}")
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("path", ["/connect4?moves=4453&tree=1&level=medium", "/tree", "/nim?moves=32",
                                  "/connect4/hints?moves=4453&mode=human-human&hints=1"])
def test_no_serious_accessibility_violation_in_dark_mode(browser, live_server, path):
    bad = audit(browser, live_server + path, scheme="dark")
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)
