"""Compiled code is cached per version of the sources it may use, so an edit never runs stale code."""

import os
import subprocess
import sys
from pathlib import Path

import sim
from sim.core import sources


def cache_dir_of_a_fresh_process(env_extra=None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | (env_extra or {})
    code = "import sim, numba, os; print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def test_numba_cache_folder_is_named_by_the_sources():
    env_dir, numba_dir = cache_dir_of_a_fresh_process()
    assert env_dir == numba_dir
    package = Path(sim.__file__).parent
    assert Path(env_dir).name == f"numba-{sources._hash(package, sources.compiled_sources(package))}"


def test_the_engines_sources_are_keyed_and_analysis_modules_are_not():
    package = Path(sim.__file__).parent
    keyed = {path.relative_to(package).as_posix() for path in sources.compiled_sources(package)}
    for game in ("ocracoke", "island_nation", "wonderful_island"):
        assert {f"games/{game}/engine.py", f"games/{game}/policies.py"} <= keyed
    assert {"core/rng.py", "core/bits.py", "core/jit.py", "games/island_nation/state.py",
            "games/wonderful_island/catalogue.py"} <= keyed
    assert not {"games/island_nation/analysis.py", "games/island_nation/figures.py",
                "games/ocracoke/reference.py", "games/wonderful_island/reference.py", "core/runner.py"} & keyed


def write_package(root: Path) -> Path:
    """A small ``sim``: numba decorators in core/jit.py and games/g/state.py, an engine decorated with the
    latter using constants of tables.py, and an analysis module no compiled module imports."""
    package = root / "sim"
    files = {
        "core/jit.py": "from numba import njit\n",
        "core/rng.py": "from sim.core.jit import njit\n\n\n@njit\ndef draw():\n    return 4\n",
        "games/g/__init__.py": "",
        "games/g/state.py": "from numba import njit\n\ncompiled = njit(cache=True)\n",
        "games/g/tables.py": "from .dice import FACES\n\nSIDES = FACES\n",
        "games/g/dice.py": "FACES = 6\n",
        "games/g/engine.py": ("from sim.core.rng import draw\nfrom sim.games.g.state import compiled\n"
                              "from sim.games.g.tables import SIDES\n\n\n@compiled\ndef play():\n"
                              "    return draw() % SIDES\n"),
        "games/g/analysis.py": "from sim.games.g import engine\n\nLABEL = 'wins'\n",
    }
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    return package


def test_an_edit_to_compiled_sources_changes_the_folder_and_analysis_edits_do_not(tmp_path):
    package = write_package(tmp_path)
    before = sources.compiled_digest(package, tmp_path / "memo")
    assert sources.compiled_digest(package, tmp_path / "memo") == before, "same sources, same folder"
    (package / "games" / "g" / "analysis.py").write_text("LABEL = 'share of wins'\n")
    assert sources.compiled_digest(package, tmp_path / "memo") == before
    for name in ("games/g/engine.py", "games/g/tables.py", "games/g/dice.py", "games/g/state.py", "core/rng.py",
                 "core/jit.py"):
        edited = sources.compiled_digest(package, tmp_path / "memo")
        with (package / name).open("a") as file:
            file.write("# edited\n")
        assert sources.compiled_digest(package, tmp_path / "memo") != edited, name


def test_an_explicit_cache_dir_is_respected(tmp_path):
    env_dir, numba_dir = cache_dir_of_a_fresh_process({"NUMBA_CACHE_DIR": str(tmp_path)})
    assert env_dir == numba_dir == str(tmp_path)


def test_a_run_records_the_sources_digest_whatever_the_cache_folder_is_called(monkeypatch):
    """run.json's ``compiled_sources`` is the sources' digest, also under a NUMBA_CACHE_DIR the user named
    (even one that starts with ``numba-``), not a piece of the folder's name."""
    from sim.core.runfolder import compiled_sources_digest

    package = Path(sim.__file__).parent
    digest = sources._hash(package, sources.compiled_sources(package))
    for folder in ("/tmp/numba-cold-ab12cd", "/tmp/my-cache", f"/tmp/numba-{digest}"):
        monkeypatch.setenv("NUMBA_CACHE_DIR", folder)
        assert compiled_sources_digest() == digest
