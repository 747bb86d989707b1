"""docs/search.md quotes the committed `sim robust` results, not figures typed by hand (issue 23 item 15)."""

from __future__ import annotations

import json
import shutil

from sim.workflow.robust_doc import DOC, RESULTS, blocks, render, sync


def test_every_committed_robust_result_has_its_table_in_the_search_doc_and_it_matches():
    """Each reports/robust/GAME-robust.json has a generated block in docs/search.md equal to its
    rendering (re-run scripts/search_doc_tables.py after `sim robust`)."""
    games = sorted(p.name.removesuffix("-robust.json") for p in RESULTS.glob("*-robust.json"))
    found = blocks(DOC.read_text(encoding="utf-8"))
    assert sorted(found) == games
    for game in games:
        assert found[game] == render(game), f"docs/search.md: the {game} robust table is stale"


def test_a_changed_result_file_changes_the_rendered_table_and_sync_rewrites_it(tmp_path):
    """The table follows the file: a changed difference shows up, and sync puts it in the doc."""
    folder = tmp_path / "robust"
    shutil.copytree(RESULTS, folder)
    doc = tmp_path / "search.md"
    doc.write_text(DOC.read_text(encoding="utf-8"), encoding="utf-8")
    path = folder / "wonderful-island-robust.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["changes"][0]["diff"] = 0.0160
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "+1.60 [" in render("wonderful-island", folder)
    assert sync(doc, folder) == ["wonderful-island"]
    assert blocks(doc.read_text(encoding="utf-8"))["wonderful-island"] == render("wonderful-island", folder)
