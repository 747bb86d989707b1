"""docs/search.md quotes the committed `sim robust` results and Ocracoke's move values, not figures typed by hand
(issue 23 item 15). How the blocks are found and rewritten is tested once for every doc in
tests/core/test_docblocks.py."""

from __future__ import annotations

import json
import shutil

from sim.core import docblocks
from sim.workflow.robust_doc import (
    ACTION_KIND,
    ACTION_VALUES,
    DOC,
    KIND,
    PROBES_KIND,
    RESULTS,
    render,
    render_action_values,
    render_probes,
    sync,
)

PROBES = sorted(p.stem for p in ACTION_VALUES.parent.glob("island-nation-probes*.json"))


def test_every_committed_robust_result_has_its_table_in_the_search_doc_and_it_matches():
    """Each reports/robust/GAME-robust.json has a generated block in docs/search.md equal to its
    rendering (re-run scripts/search_doc_tables.py after `sim robust`)."""
    games = sorted(p.name.removesuffix("-robust.json") for p in RESULTS.glob("*-robust.json"))
    assert len(games) == 3
    docblocks.check(DOC, KIND, render, games, fix="scripts/search_doc_tables.py")


def test_a_changed_robust_result_changes_its_table_and_sync_writes_only_that_one(tmp_path):
    """The table follows the file, and sync puts it in the doc (the move values stay: no search/ beside it)."""
    folder = tmp_path / "robust"
    shutil.copytree(RESULTS, folder)
    path = folder / "wonderful-island-robust.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["changes"][0]["diff"] = 0.0160
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "+1.60 [" in render("wonderful-island", folder)
    doc = shutil.copy(DOC, tmp_path / DOC.name)
    assert sync(doc, folder) == ["wonderful-island"]
    docblocks.check(doc, KIND, lambda game: render(game, folder), docblocks.find(doc.read_text(encoding="utf-8"), KIND))


def test_the_ocracoke_move_values_table_is_the_committed_result_and_follows_it(tmp_path):
    """docs/search.md's "What each move is worth" table (current counter) is rendered from
    reports/search/ocracoke-action-values.json (scripts/oc_action_values.py); a changed file changes it and sync
    rewrites it."""
    docblocks.check(DOC, ACTION_KIND, lambda _ocracoke: render_action_values(), ["ocracoke"],
                    fix="scripts/search_doc_tables.py")
    rows = [line for line in render_action_values().splitlines() if line.startswith("| ")][2:]
    data = json.loads(ACTION_VALUES.read_text(encoding="utf-8"))
    assert len(rows) == len(data["rows"]) == 5 and all(" [" in line and " pp " in line for line in rows)
    shutil.copytree(RESULTS, tmp_path / "robust")
    shutil.copytree(ACTION_VALUES.parent, tmp_path / "search")
    path = tmp_path / "search" / ACTION_VALUES.name
    data["rows"][0]["win difference"] = 0.0095
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "+0.95 pp [" in render_action_values(path)
    doc = shutil.copy(DOC, tmp_path / DOC.name)
    assert sync(doc, tmp_path / "robust") == ["ocracoke move values"]
    docblocks.check(doc, ACTION_KIND, lambda _ocracoke: render_action_values(path), ["ocracoke"])


def test_the_island_nation_probe_tables_are_the_committed_results_and_follow_them(tmp_path):
    """docs/search.md's per-round probe tables are rendered from reports/search/island-nation-probes*.json
    (scripts/in_search_probes.py), a row per round probed and the game's sum; a changed file changes its table
    and sync rewrites only that one."""
    assert PROBES == ["island-nation-probes", "island-nation-probes-round1"]
    docblocks.check(DOC, PROBES_KIND, render_probes, PROBES, fix="scripts/search_doc_tables.py")
    data = json.loads((ACTION_VALUES.parent / "island-nation-probes.json").read_text(encoding="utf-8"))
    rows = [line for line in render_probes(PROBES[0]).splitlines() if line.startswith("| ")][2:]
    assert len(rows) == len(data["rounds"]) + 1 and rows[-1].startswith("| Σ over these rounds")
    shutil.copytree(RESULTS, tmp_path / "robust")
    shutil.copytree(ACTION_VALUES.parent, tmp_path / "search")
    data["game_step_pp"][-1] = 9.876
    (tmp_path / "search" / "island-nation-probes.json").write_text(json.dumps(data), encoding="utf-8")
    assert render_probes(PROBES[0], tmp_path / "search").splitlines()[-1].endswith("+9.88 |")
    doc = shutil.copy(DOC, tmp_path / DOC.name)
    assert sync(doc, tmp_path / "robust") == ["island-nation-probes"]
