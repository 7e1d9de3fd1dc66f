"""What the page tests read in a response: its text, and the links it holds."""
import re
from html import unescape


def text_of(resp) -> str:
    """The response's HTML, entities read and runs of white space made one space."""
    return re.sub(r"\s+", " ", unescape(resp.get_data(as_text=True)))


def hrefs(resp, pattern: str) -> list[str]:
    """Every link in the response whose address holds ``pattern``, entities read."""
    return [unescape(h) for h in re.findall(r'href="([^"]*' + re.escape(pattern) + r'[^"]*)"',
                                            resp.get_data(as_text=True))]
