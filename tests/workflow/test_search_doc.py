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


def test_the_ocracoke_move_values_table_is_the_committed_result_and_follows_it(tmp_path):
    """docs/search.md's "What each move is worth" table (current counter) is rendered from
    reports/search/ocracoke-action-values.json (scripts/oc_action_values.py); a changed file changes it and sync
    rewrites it."""
    from sim.workflow.robust_doc import ACTION_BLOCK, ACTION_VALUES, render_action_values

    block = ACTION_BLOCK.search(DOC.read_text(encoding="utf-8"))
    assert block and block["body"] == render_action_values(), "docs/search.md: the move values table is stale"
    rows = [line for line in block["body"].splitlines() if line.startswith("| ")][2:]
    data = json.loads(ACTION_VALUES.read_text(encoding="utf-8"))
    assert len(rows) == len(data["rows"]) == 5 and all(" [" in line and " pp " in line for line in rows)
    shutil.copytree(RESULTS, tmp_path / "robust")
    shutil.copytree(ACTION_VALUES.parent, tmp_path / "search")
    doc = tmp_path / "search.md"
    doc.write_text(DOC.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "search" / ACTION_VALUES.name
    data["rows"][0]["win difference"] = 0.0095
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "+0.95 pp [" in render_action_values(path)
    assert sync(doc, tmp_path / "robust") == ["ocracoke move values"]
    assert ACTION_BLOCK.search(doc.read_text(encoding="utf-8"))["body"] == render_action_values(path)
