"""Issue 36: /course opens with its contents, each chapter one click from the top of the page
(the "9 sommets sur 28" card sat 3,000 px down a 4,300 px page), and each chapter links back
to the contents."""
import re

import pytest

from app import create_app
from web.course import CHAPTERS


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    db = tmp_path_factory.mktemp("classes") / "classes.sqlite3"
    client = create_app({"TESTING": True, "CLASS_DB": str(db)}).test_client()
    return client.get("/course?lang=fr").get_data(as_text=True)


def test_the_contents_come_first_and_link_every_chapter(page):
    contents = re.search(r'<nav class="course-toc" id="contents".*?</nav>', page, re.S)
    assert contents and page.index(contents.group(0)) < page.index('<section class="chapter"')
    links = re.findall(r'href="#([\w-]+)"', contents.group(0))
    assert links == [f"chapter-{i}" for i in range(1, len(CHAPTERS) + 1)]
    assert all(f'<h2 id="{target}">' in page for target in links)
    # the "9 sommets sur 28" card is in the chapter the contents link to, after its heading
    nine = page.index("9 sommets sur 28</a></h3>")
    chapter = max(i for i in range(1, len(CHAPTERS) + 1)
                  if page.index(f'<h2 id="chapter-{i}">') < nine)
    assert f'href="#chapter-{chapter}"' in contents.group(0)


def test_each_chapter_leads_back_to_the_contents(page):
    headings = re.findall(r'<div class="chapter-head"><h2 id="chapter-\d+">.*?</div>', page, re.S)
    assert len(headings) == len(CHAPTERS)
    assert all('href="#contents"' in h for h in headings)
