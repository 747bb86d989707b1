"""Compiled code is cached per version of the sources it may use, so an edit never runs stale code."""

import os
import subprocess
import sys
from pathlib import Path

import sim


def cache_dir_of_a_fresh_process(env_extra=None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | (env_extra or {})
    code = "import sim, numba, os; print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def test_numba_cache_folder_is_named_by_the_sources():
    env_dir, numba_dir = cache_dir_of_a_fresh_process()
    assert env_dir == numba_dir
    assert Path(env_dir).name == f"numba-{sim._sources_digest(Path(sim.__file__).parent)[:16]}"


def test_an_edit_to_any_game_source_changes_the_folder(tmp_path):
    package = tmp_path / "sim"
    (package / "core").mkdir(parents=True)
    (package / "games" / "somegame").mkdir(parents=True)
    for name in sim.COMPILED_CORE:
        (package / "core" / name).write_text("x = 1\n")
    policies = package / "games" / "somegame" / "policies.py"
    policies.write_text("def bot():\n    return 1\n")
    before = sim._sources_digest(package)
    (package / "core" / "display.py").write_text("# not compiled code\n")
    assert sim._sources_digest(package) == before
    policies.write_text("def bot():\n    return 2\n")
    assert sim._sources_digest(package) != before
    edited = sim._sources_digest(package)
    (package / "core" / "bits.py").write_text("x = 2\n")
    assert sim._sources_digest(package) != edited, "an edit to compiled core code changes it too"


def test_an_explicit_cache_dir_is_respected(tmp_path):
    env_dir, numba_dir = cache_dir_of_a_fresh_process({"NUMBA_CACHE_DIR": str(tmp_path)})
    assert env_dir == numba_dir == str(tmp_path)
