"""The README stays a README, and the manual's links lead somewhere: every relative link and
picture of README.md and docs/*.md names a file of the repository."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_fits_a_few_screens():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def test_every_relative_link_of_the_readme_and_the_manual_names_a_file():
    checked = 0
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue                                  # a web address, or a heading here
            path = (page.parent / target.split("#", 1)[0]).resolve()
            assert path.exists(), f"{page.relative_to(ROOT)} links to {target}: no such file"
            checked += 1
    assert checked >= 10, "found too few links to check"
