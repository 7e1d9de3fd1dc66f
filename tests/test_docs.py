"""The README stays a README, and the manual's links lead somewhere: every relative link and
picture of README.md and docs/*.md names a file of the repository."""
import re
import subprocess
import sys
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


def test_the_architecture_index_lists_every_module_as_the_tree_has_it():
    """docs/architecture.md's module index is made from the tree: a module added, moved or
    removed without `scripts/module-index` (and a look at the map) fails here."""
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "module-index"), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_every_module_the_architecture_map_names_exists():
    """The hand-drawn map names modules by their file names: each one must still be a file of
    ai/, web/ or the top (a renamed or removed module fails here until the map follows)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    drawn = text.split("```", 2)[1]                       # the map: the page's first code block
    names = set(re.findall(r"[\w/]*\w\.py\b", drawn))
    files = {p.relative_to(ROOT).as_posix() for top in ("ai", "web")
             for p in (ROOT / top).rglob("*.py")} | {"app.py"}
    assert len(names) >= 30, "found too few module names in the map to check"
    missing = sorted(n for n in names
                     if not any(f == n or f.endswith("/" + n.lstrip("/")) for f in files))
    assert not missing, f"docs/architecture.md's map names modules that do not exist: {missing}"
