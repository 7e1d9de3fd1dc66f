"""The README's pictures, made from the running app (so that they can be remade after a change).

Starts the app as ``scripts/serve`` does (gunicorn, gunicorn.conf.py) on a free loopback port,
with a class store of its own, drives Debian's Chromium through Playwright, and writes
``docs/img/*.png``:

- ``game-tree.png``: a Connect-4 game at the medium level with the tree the AI searched (laptop);
- ``course.png``: the course's figures as a gallery (laptop);
- ``projector.png``: the course's alpha-beta example (9 of 28), step by step, in French, in
  projector mode (1920x1080);
- ``class-phone.png``: class mode: a student's phone following the teacher's board, voting.

Run it with ``scripts/screenshots`` (which sets up the test tools first).
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the app under gunicorn and Chromium as the browser tests start them
from tests.conftest import (CHROMIUM, CHROMIUM_ARGS, _free_port, class_env,  # noqa: E402
                            start_gunicorn, stop_gunicorn)

OUT = ROOT / "docs" / "img"
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def shoot(browser, base: str) -> None:
    def page(viewport, **options):
        p = browser.new_context(viewport=viewport, **options).new_page()
        p.set_default_timeout(20_000)
        return p

    # a game with its tree: the home page's "search tree of a Connect-4 move"
    game = page(LAPTOP)
    game.goto(base + "/connect4?moves=4453&tree=1&level=medium&lang=en")
    expect(game.locator("#tree-panel svg").first).to_be_visible()
    game.screenshot(path=str(OUT / "game-tree.png"), full_page=True)

    course = page(LAPTOP)
    course.goto(base + "/course?lang=en")
    course.wait_for_load_state("networkidle")       # the thumbnails load lazily
    course.wait_for_timeout(800)
    course.screenshot(path=str(OUT / "course.png"))

    # the course's alpha-beta card on a projector, in French, a few steps in
    proj = page(PROJECTOR)
    proj.goto(base + "/course?lang=fr&proj=1")
    card = proj.locator("article", has_text="Alpha-bêta, de la même façon").first
    card.locator("a.button").first.click()
    expect(proj.locator("#tree-panel svg").first).to_be_visible()
    for _ in range(5):
        proj.keyboard.press("Space")
        proj.wait_for_timeout(300)
    proj.screenshot(path=str(OUT / "projector.png"))

    # class mode: the teacher's board on a laptop, a student's phone voting
    teacher = page(LAPTOP)
    teacher.goto(base + "/connect4?mode=human-human&lang=en")
    teacher.locator('[data-key="class"]').click()
    code = teacher.locator(".class-bar .class-code").inner_text().strip()
    teacher.locator('#game button[data-col="4"]').click()
    student = page(PHONE, is_mobile=True, has_touch=True)
    student.goto(f"{base}/c/{code}?lang=en")
    expect(student.locator("#class-live[data-live='on']")).to_have_count(1)
    expect(student.locator("#class-board .disc")).to_have_count(1)
    teacher.keyboard.press("v")
    student.locator('#class-vote button[value="4"]').click()
    expect(student.locator("#class-vote")).to_contain_text("Your vote")
    student.screenshot(path=str(OUT / "class-phone.png"))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    state_dir = tempfile.mkdtemp(prefix="minimax-lab-shots-")
    port = _free_port()
    proc = start_gunicorn(port, class_env(state_dir), log_name="screenshots.log")
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                args=CHROMIUM_ARGS)
            shoot(browser, base)
            browser.close()
    finally:
        stop_gunicorn(proc)
        shutil.rmtree(state_dir, ignore_errors=True)
    for png in sorted(OUT.glob("*.png")):
        print(f"screenshots: {png.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
