"""The class tournament rehearsed in Chromium against the README's gunicorn: a projector
(1920x1080, French) and six phones (390x844), as the issue's rehearsal. The teacher sends "build your heuristic";
each phone sends one (one sends again: the latest counts); the teacher adds two bosses and
starts; the projector's standings move by themselves to the end (its live stream, no
reload); a phone sees its bot's games and opens the review at the move that lost one; the
teacher plays the finale move by move; the link reopens the standings. Screenshots:
test-artifacts/tournament-live-*.png."""
import re

import pytest
from playwright.sync_api import expect

from test_browser_class import PHONE, PROJECTOR, contexts, start_class  # noqa: F401

pytestmark = pytest.mark.browser

SENT = [("Zoé", "cells=1"), ("Max", "center=1"), ("Inès", "cells=1,open3=8"),
        ("Léo", "open2=3,center=2"), ("Jade", "cells=1,threats=2"), ("Sami", "open1=1,open3=4")]

# For 2 s of the featured game's play-out, frame by frame: the part of each disc one sees (its
# box cut by any ancestor that clips) lies in the featured board if it is one of its stones,
# else in the game's heading (the colours' keys); a disc once drew over the standings' header.
# And a red stone, once dropped, is still red's diamond (the drop's end once made it a square).
DISCS_AT_HOME = """async () => {
  const box = r => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  const seen = el => {
    let v = box(el.getBoundingClientRect());
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflow === 'visible') continue;
      const c = a.getBoundingClientRect();
      v = {left: Math.max(v.left, c.left), top: Math.max(v.top, c.top),
           right: Math.min(v.right, c.right), bottom: Math.min(v.bottom, c.bottom)};
    }
    return v;
  };
  const within = (v, b) => v.left >= b.left - 1 && v.right <= b.right + 1
                           && v.top >= b.top - 1 && v.bottom <= b.bottom + 1;
  const out = {astray: [], dropping: 0, keys: 0, dropped: 0, squares: 0};
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) {
    await new Promise(r => requestAnimationFrame(r));
    const game = document.querySelector('.tl-featured');
    const board = game.querySelector('.tl-board').getBoundingClientRect();
    const heading = game.querySelector('h2').getBoundingClientRect();
    out.keys = game.querySelectorAll('h2 .disc').length;
    for (const d of document.querySelectorAll('.tl-right .disc')) {
      if (Number(getComputedStyle(d).opacity) === 0) continue;
      const v = seen(d);
      if (v.right <= v.left || v.bottom <= v.top) continue;      // wholly clipped
      if (d.getAnimations().some(a => a.playState === 'running')) out.dropping++;
      if (d.matches('.tl-drop.p1') && d.getAnimations().every(a => a.playState === 'finished')) {
        out.dropped++;                        // a red stone dropped keeps red's diamond shape
        const t = getComputedStyle(d).transform;    // a diamond: a turned square
        if (t === 'none' || Math.abs(new DOMMatrix(t).b) < 1e-6) out.squares++;
      }
      const home = d.closest('.tl-board') ? board : heading;
      if (!within(v, home) && out.astray.length < 5) out.astray.push([d.className, v, box(home)]);
    }
  }
  return out;
}"""


def test_the_class_tournament_from_the_phones_to_the_finale(contexts, live_server, artifacts):
    teacher = contexts(PROJECTOR, locale="fr-FR")
    code = start_class(teacher, live_server + "/connect4?mode=human-human&lang=fr")
    teacher.locator("summary", has_text="atelier").click()
    teacher.select_option("form[action*='/heuristic'] select[name=depth]", "2")
    teacher.locator("form[action*='/heuristic'] button[value=start]").click()
    phones = []
    for name, h in SENT:
        ph = contexts(PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
        ph.goto(f"{live_server}/c/{code}?lang=fr")
        ph.fill("#nickname-field", name)
        ph.press("#nickname-field", "Enter")
        expect(ph.locator("#class-h")).to_be_visible()
        ph.fill("#class-h", "open2=1" if name == "Zoé" else h)   # Zoé sends twice
        ph.locator("form.heuristic-form button[type=submit]").click()
        expect(ph.locator(".phone-workshop .voted")).to_be_visible()
        phones.append(ph)
    phones[0].fill("#class-h", SENT[0][1])
    phones[0].locator("form.heuristic-form button[type=submit]").click()
    expect(phones[0].locator(".phone-workshop .voted")).to_contain_text("cells=1")
    expect(teacher.locator(".class-heuristics")).to_contain_text("Inès")
    teacher.locator("#class-tournament").first.click()
    expect(teacher.locator("#tl-start")).to_be_visible()
    for name, h in SENT:
        expect(teacher.locator(".tl-entries")).to_contain_text(f"{name} {h}")
    teacher.check("input[name=boss][value=beginner]")
    teacher.check("input[name=boss][value=medium]")
    teacher.select_option("#tl-openings", "1")
    teacher.screenshot(path=artifacts / "tournament-live-setup.png")
    teacher.locator("#tl-start").click()
    # 8 entrants, 1 opening: 56 games; the page moves to the end by itself, rated
    expect(teacher.locator(".tl-count")).to_contain_text("Terminé\u202f: 56 parties.")
    expect(teacher.locator(".tn-standings tbody tr")).to_have_count(8)
    expect(teacher.locator(".tn-standings tbody tr .tn-err")).to_have_count(8)
    expect(teacher.locator(".tl-featured")).to_contain_text("Partie 56")
    teacher.screenshot(path=artifacts / "tournament-live-projector.png")
    teacher.reload()                          # the featured game played out again from its start
    seen = teacher.evaluate(DISCS_AT_HOME)
    assert seen["dropping"] and seen["keys"] == 2, seen     # it saw the play-out, and both keys
    assert not seen["astray"], seen["astray"]
    assert seen["dropped"] and not seen["squares"], seen

    # a phone that lost a game opens it at the move that lost it
    loser = None
    for ph in phones:
        ph.goto(f"{live_server}/connect4/tournament/live/{code}?lang=fr")
        if ph.locator("text=Pourquoi mon bot a-t-il perdu").count():
            loser = ph
            break
    assert loser is not None, "no student's bot lost a game"
    expect(loser.locator(".tl-mine")).to_contain_text("Votre bot")
    loser.locator("text=Pourquoi mon bot a-t-il perdu").first.click()
    expect(loser.locator("#review-detail")).to_contain_text("Coup")
    assert "ply=" in loser.url
    loser.screenshot(path=artifacts / "tournament-live-why.png")

    # the finale, move by move
    teacher.locator("button[value=start]").click()
    for _ in range(5):
        teacher.locator("#tl-next").click()
        expect(teacher.locator("#tl-next")).to_be_visible()
    moves = teacher.locator(".tl-fmoves a")
    expect(moves).to_have_count(5)
    assert "tree=1" in moves.first.get_attribute("href")
    teacher.screenshot(path=artifacts / "tournament-live-finale.png")
    link = teacher.locator("#tl-standings-link").get_attribute("href")
    teacher.goto(live_server + link)
    expect(teacher.locator(".tn-standings tbody tr")).to_have_count(8)
