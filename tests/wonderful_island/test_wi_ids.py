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
