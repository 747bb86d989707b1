"""The references' kept results (tests/reference_memo.py): read back only for the same sources and arguments."""

from pathlib import Path

import numpy as np
import pytest
import reference_memo
from reference_memo import digest, fingerprint, kept_reference

import sim
from sim.core.sources import imported_sources

PACKAGE = Path(sim.__file__).resolve().parent
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
