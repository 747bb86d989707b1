"""Every clause ID of docs/rules/island-nation.md is named by at least one Island Nation test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def expand(text: str) -> set[str]:
    """IDs named in ``text``, with ranges such as IN-BELIEF-1..6 or IN-CATCH-1/2 spelled out."""
    found = set(re.findall(r"IN-[A-Z]+(?:-[A-Z]+)?-\d+", text))
    for stem, first, last in re.findall(r"(IN-[A-Z]+(?:-[A-Z]+)?-)(\d+)\.\.(\d+)", text):
        found |= {f"{stem}{i}" for i in range(int(first), int(last) + 1)}
    for stem, nums in re.findall(r"(IN-[A-Z]+(?:-[A-Z]+)?-)(\d+(?:/\d+)+)", text):
        found |= {f"{stem}{n}" for n in nums.split("/")}
    return found


def test_every_rule_id_is_tested():
    doc = (ROOT / "docs" / "rules" / "island-nation.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^\| (IN-[A-Z]+(?:-[A-Z]+)?-\d+) \|", doc, flags=re.M))
    assert len(ids) >= 40
    tested = set()
    for path in (ROOT / "tests" / "island_nation").glob("test_*.py"):
        tested |= expand(path.read_text(encoding="utf-8"))
    missing = sorted(i for i in ids if i not in tested)
    assert not missing, f"rule IDs with no test: {missing}"
