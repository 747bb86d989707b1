"""The generated blocks of the Markdown docs (sim.core.docblocks): found, rewritten and checked the same way in
every doc that quotes committed results (docs/search.md, docs/wonderful-island-balance.md), and a broken
marker is a one-line error naming the file, the block and the line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from sim.core.docblocks import BlockError, check, find, sync

DOCS = Path(__file__).resolve().parents[2] / "docs"


# ids name no game: tests/conftest.py would compile the games named in a test's id
@pytest.mark.parametrize("doc, kind, n", [
    pytest.param("search.md", "robust-table", 3, id="search-robust-tables"),
    pytest.param("search.md", "action-values-table", 1, id="search-move-values"),
    pytest.param("wonderful-island-balance.md", "wi-values-table", 1, id="balance-values-table"),
])
def test_sync_rewrites_the_changed_block_only_and_check_tells_a_stale_one(tmp_path, doc, kind, n):
    path = tmp_path / doc
    shutil.copy(DOCS / doc, path)
    original = path.read_bytes()
    bodies = find(original.decode("utf-8"), kind, doc)
    assert len(bodies) == n and all(body.startswith("`") and "\n| --- |" in body for body in bodies.values())
    assert sync(path, kind, bodies.__getitem__) == [] and path.read_bytes() == original
    check(path, kind, bodies.__getitem__, bodies)  # in sync: no error

    name = list(bodies)[-1]
    new = {**bodies, name: "a new table\n"}
    assert sync(path, kind, new.__getitem__) == [name]
    text = path.read_text(encoding="utf-8")
    assert find(text, kind) == new
    assert sync(path, kind, bodies.__getitem__) == [name] and path.read_bytes() == original  # nothing else moved
    assert sync(path, kind, new.__getitem__) == [name]
    assert sync(path, kind, new.__getitem__) == []
    with pytest.raises(BlockError, match=rf"^{re.escape(str(path))}: block {kind} {name} is stale \(run its sync script\)$"):
        check(path, kind, bodies.__getitem__, bodies)
    with pytest.raises(BlockError, match=rf"^{re.escape(str(path))}: no block {kind} extra \(run"):
        check(path, kind, new.__getitem__, [*new, "extra"])


@pytest.mark.parametrize("text, error", [
    ("intro\n<!-- t a -->\n| x |\n", r":2: block t a has no end marker <!-- /t -->"),
    ("| x |\n<!-- /t -->\n", r":2: end marker <!-- /t --> ends no block"),
    ("<!-- t a -->\n<!-- t b -->\n<!-- /t -->\n", r":2: block t b begins inside block t a \(line 1\)"),
    ("<!-- t a -->\n<!-- /t -->\n<!-- t a -->\n<!-- /t -->\n", r":3: block t a stands twice"),
    ("<!-- t -->\n<!-- /t -->\n", r":1: <!-- t --> names no block"),
    ("<!-- t a --> | x |\n<!-- /t -->\n", r":1: block t a: expected its begin marker on a line of its own"),
    ("<!-- t a -->\n<!-- /t a -->\n", r":2: end marker <!-- /t a -->; expected <!-- /t -->"),
    ("<!-- t b -->\n<!-- /t -->\n", r": no block t a; block t b has no result"),
])
def test_a_broken_or_missing_block_is_an_error_naming_the_file_and_the_block(tmp_path, text, error):
    path = tmp_path / "doc.md"
    path.write_text(text + "<!-- tt a -->\n", encoding="utf-8")  # another kind's marker is not this kind's
    with pytest.raises(BlockError, match=rf"^{re.escape(str(path))}{error}"):
        check(path, "t", lambda name: "", ["a"])
