"""docs/wonderful-island-balance.md quotes the committed `sim wi-values` results, not figures typed by hand
(issue 23 item 13): each reports/wi-values/NAME.json has its generated block and the block matches. How the
blocks are found and rewritten is tested once for every doc in tests/core/test_docblocks.py."""

from __future__ import annotations

import json
import shutil

from sim.core import docblocks
from sim.games.wonderful_island.doc_tables import DOC, KIND, MIN_WHEN, RESULTS, render, sync


def test_every_committed_result_has_its_table_in_the_doc_and_it_matches():
    names = sorted(p.stem for p in RESULTS.glob("*.json"))
    assert names == ["venues"]
    docblocks.check(DOC, KIND, render, names, fix="scripts/wi_doc_tables.py")


def test_every_row_has_interval_n_and_unit():
    data = json.loads((RESULTS / "venues.json").read_text(encoding="utf-8"))
    table = render("venues")
    assert "pp [95 %]" in table and "% of n" in table and "n when chosen" in table
    rows = [line for line in table.splitlines() if line.startswith("| ")][2:]  # after the header and rule
    assert len(rows) == len(data["rows"]) == 18 and all(line.count(" | ") == 7 for line in rows)
    few = [r for r in data["rows"] if r["when_chosen_n"] < MIN_WHEN and not r["venue"].startswith("rally")]
    assert table.count("too few (n <") == len(few)


def test_a_changed_result_changes_the_table_and_sync_writes_it_into_the_doc(tmp_path):
    folder = tmp_path / "wi-values"
    shutil.copytree(RESULTS, folder)
    data = json.loads((folder / "venues.json").read_text(encoding="utf-8"))
    row = next(r for r in data["rows"] if r["venue"].startswith("legislature") and r["support_in_hand"] == "2-3")
    row.update(when_chosen_vs_rally=0.109, when_chosen_vs_rally_lo=0.05, when_chosen_vs_rally_hi=0.17)
    (folder / "venues.json").write_text(json.dumps(data), encoding="utf-8")
    assert "+10.9 [+5.0, +17.0]" in render("venues", folder)
    doc = shutil.copy(DOC, tmp_path / DOC.name)
    assert sync(doc, folder) == ["venues"]
    docblocks.check(doc, KIND, lambda name: render(name, folder), ["venues"])
