"""Every clause ID of docs/rules/wonderful-island.md is named by a test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_rule_id_has_a_test():
    doc = (ROOT / "docs" / "rules" / "wonderful-island.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(WI-[A-Z0-9-]+)\*\*", doc))
    tests = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")
                    if p.name != Path(__file__).name)
    missing = sorted(i for i in ids if not re.search(re.escape(i) + r"(?![0-9])", tests))
    assert len(ids) > 60 and not missing, missing


def test_every_rule_id_is_cited_literally_where_it_is_enforced():
    """Every clause ID appears literally in the game's code (the reference aside: the engine and bots must cite it),
    and no citation is a shorthand that defeats a search (WI-V-POACH-1..4, WI-V-RALLY-1/2)."""
    doc = (ROOT / "docs" / "rules" / "wonderful-island.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(WI-[A-Z0-9-]+)\*\*", doc))
    files = [p for p in (ROOT / "sim" / "games" / "wonderful_island").glob("*.py")]
    code = "".join(p.read_text(encoding="utf-8") for p in files if p.name != "reference.py")
    missing = sorted(i for i in ids if not re.search(re.escape(i) + r"(?![0-9])", code))
    assert len(ids) > 60 and not missing, missing
    shorthand = [m.group(0) for p in files
                 for m in re.finditer(r"WI-[A-Z]+(?:-[A-Z]+)*-\d+(?:\.\.\d+|/\d+)", p.read_text(encoding="utf-8"))]
    assert not shorthand, shorthand
