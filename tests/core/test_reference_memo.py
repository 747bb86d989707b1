"""The references' kept results (tests/reference_memo.py): read back only for the same sources and arguments."""

import hashlib
from pathlib import Path

import numpy as np
import pytest
import reference_memo
from reference_memo import digest, fingerprint, kept_reference

import sim
from sim.core.sources import imported_sources

PACKAGE = Path(sim.__file__).resolve().parent
ROOT = PACKAGE.parent
IN_REFERENCE = PACKAGE / "games" / "island_nation" / "reference.py"


class FakeCache(dict):
    """pytest's ``config.cache`` as far as kept_reference uses it."""

    def set(self, key, value):
        self[key] = value


def test_a_reference_is_keyed_on_its_own_file_and_what_it_imports_from_sim():
    files = imported_sources(IN_REFERENCE)
    assert IN_REFERENCE in files and PACKAGE / "games" / "island_nation" / "board.py" in files
    assert PACKAGE / "games" / "island_nation" / "engine.py" not in files  # the engine is not the reference's


def test_fingerprint_follows_contents_not_identity():
    a, b = np.arange(6), np.arange(6)
    assert fingerprint({"x": a, "y": (1, "z")}) == fingerprint({"y": (1, "z"), "x": b})
    b[5] = 0
    assert fingerprint(a) != fingerprint(b)
    assert digest(IN_REFERENCE, Path(__file__), a) != digest(IN_REFERENCE, Path(__file__), b)


def test_a_path_inside_the_checkout_counts_by_its_place_in_it_so_every_checkout_reads_the_committed_results():
    catalogue = ROOT / "scenarios" / "wonderful-island" / "catalogue" / "base.toml"
    assert fingerprint({"file": catalogue}) == "{'file': Path(scenarios/wonderful-island/catalogue/base.toml)}"
    assert fingerprint(Path("/elsewhere/base.toml")) == repr(Path("/elsewhere/base.toml"))


def test_kept_result_is_played_once_and_again_when_the_arguments_change():
    cache, played = FakeCache(), []

    def play(n):
        played.append(n)
        return [n, n + 1]

    for n in (3, 3, 4, 4, 3):
        assert kept_reference(cache, "t::one", IN_REFERENCE, (n,), lambda n=n: play(n)) == [n, n + 1]
    assert played == [3, 4, 3]  # one entry a test: 3 was replaced by 4, so 3 plays again
    assert kept_reference(cache, "t::two", IN_REFERENCE, (3,), lambda: play(3)) == [3, 4] and played[-1] == 3
    assert len(cache) == 2


@pytest.mark.parametrize("edited", [IN_REFERENCE, Path(__file__).resolve()])
def test_kept_result_is_played_again_when_the_reference_or_the_calling_test_changes(monkeypatch, edited):
    cache, played = FakeCache(), []
    kept_reference(cache, "t", IN_REFERENCE, (1,), lambda: played.append(1) or 1)
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: original(self) + (b"# edited" if self == edited else b""))
    monkeypatch.setattr(reference_memo, "_sources_digest", reference_memo._sources_digest.__wrapped__)
    kept_reference(cache, "t", IN_REFERENCE, (1,), lambda: played.append(2) or 2)
    assert played == [1, 2]


def test_a_committed_result_is_read_only_under_its_digest_and_then_kept_in_the_cache():
    first, played = FakeCache(), []
    kept_reference(first, "t", IN_REFERENCE, (5,), lambda: played.append(5) or [5], committed={})
    (key, entry), = first.items()

    fresh = FakeCache()  # a clean checkout: an empty pytest cache, the committed file
    assert kept_reference(fresh, "t", IN_REFERENCE, (5,), lambda: played.append(6) or [6], committed=first) == [5]
    assert played == [5] and fresh == first

    stale = {key: entry | {"digest": "0" * 64}}  # written for other sources: played again
    assert kept_reference(FakeCache(), "t", IN_REFERENCE, (5,), lambda: played.append(7) or [7], committed=stale) == [7]
    assert played == [5, 7]


def test_every_committed_entry_belongs_to_a_cross_check_test_under_its_own_key():
    entries = reference_memo.committed_entries()
    assert entries, "tests/reference_results.json: scripts/keep_reference_results.py writes it"
    for key, entry in entries.items():
        file, _, name = entry["test"].partition("::")
        assert key == f"reference/{hashlib.sha256(entry['test'].encode()).hexdigest()[:20]}"
        assert file.endswith("_reference.py") and (ROOT / file).exists() and name
        assert len(entry["digest"]) == 64 and entry["result"] is not None
