"""Bytes over the wire: the first load of each page (its HTML and every script and
stylesheet it links) and one click's fragment, gzip-compressed as the app sends them to a
browser that accepts gzip. Goals: <= 60 KB first load, <= 8 KB a click without the tree.

    python bench/page_weight.py [--json]
"""
import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402

PAGES = {"home": "/", "connect4": "/connect4", "nim": "/nim", "lab": "/tree",
         "nim theory": "/nim/theory", "connect4 with tree": "/connect4?moves=4453&tree=1"}
CLICKS = {"connect4 click": "/connect4/move?moves=4453&col=4",
          "nim click": "/nim/move?moves=1&take=3",
          "connect4 click, tree shown": "/connect4/move?moves=4453&col=4&tree=1"}
GZIP = {"Accept-Encoding": "gzip"}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    client = create_app().test_client()
    rows = []
    for name, url in PAGES.items():
        r = client.get(url, headers=GZIP)
        total, parts = len(r.data), [("html", len(r.data))]
        html = client.get(url).get_data(as_text=True)
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
            a = client.get(asset.replace("&amp;", "&"), headers=GZIP)
            parts.append((asset.split("/")[-1].split("?")[0], len(a.data)))
            total += len(a.data)
            a.close()
        rows.append({"what": name, "kind": "first load", "bytes": total, "parts": parts,
                     "goal": 60_000})
    for name, url in CLICKS.items():
        r = client.get(url, headers={**GZIP, "HX-Request": "true"})
        rows.append({"what": name, "kind": "click", "bytes": len(r.data), "parts": [],
                     "goal": None if "tree" in name else 8_000})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'page or click':<28}{'kind':<12}{'bytes (gzip)':>13}  {'goal':>8}  result")
    failed = False
    for row in rows:
        ok = row["goal"] is None or row["bytes"] <= row["goal"]
        failed |= not ok
        goal = f"{row['goal']:,}" if row["goal"] else "-"
        print(f"{row['what']:<28}{row['kind']:<12}{row['bytes']:>13,}  {goal:>8}  {'ok' if ok else 'OVER'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
