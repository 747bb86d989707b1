"""Fixtures for the workflow tests: a tiny dice game (toy_spec) with its own scenario folder,
registered under the name ``toy-dice`` for the command-line tests."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import toy_spec
from sim_cli import run_sim

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture(autouse=True)
def toy_scenarios(monkeypatch):
    """Scenarios of the toy game live beside these tests."""
    monkeypatch.setenv("SIM_SCENARIOS", str(SCENARIOS))


@pytest.fixture(scope="module")
def toy_scenarios_module():
    """The same for a module-scoped fixture, which runs before the per-test one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIM_SCENARIOS", str(SCENARIOS))
        yield


@pytest.fixture
def toy():
    return toy_spec.GAME


@pytest.fixture
def bump_bonus(tmp_path, monkeypatch):
    """The toy scenarios copied to a folder of this test's own; calling the result edits the copy of
    toy-search's `bonus` scenario file (first_bonus 1 -> 2), as a designer would."""
    import shutil

    shutil.copytree(SCENARIOS, tmp_path / "scenarios")
    monkeypatch.setenv("SIM_SCENARIOS", str(tmp_path / "scenarios"))
    bonus = tmp_path / "scenarios" / "toy-search" / "bonus.toml"
    return lambda: bonus.write_text(bonus.read_text().replace("first_bonus = 1", "first_bonus = 2"))


@pytest.fixture
def registered(monkeypatch):
    """The toy game registered alone, as the CLI and the `all games` defaults see it."""
    from sim.core import registry

    monkeypatch.setattr(registry, "all_games", lambda: {"toy-dice": toy_spec.GAME})
    return toy_spec.GAME


@pytest.fixture(scope="session")
def cli_app():
    """The `sim` app with the workflow commands registered once."""
    import sim.cli
    from sim.workflow.cli import register

    if not any(getattr(c, "name", None) == "compare" for c in sim.cli.app.registered_commands):
        register(sim.cli.app)
    return sim.cli.app


@pytest.fixture
def sim_main(cli_app, monkeypatch):
    """``sim ARGS`` through the real entry point (exit codes, stderr; ``run_sim``), with the toy games
    registered."""
    import sim.cli
    from sim.core import registry

    games = {"toy-dice": toy_spec.GAME, "toy-search": toy_spec.SEARCHING}
    monkeypatch.setattr(registry, "all_games", lambda: games)
    monkeypatch.setattr(sim.cli, "get_game", lambda name: games[name])
    monkeypatch.setattr(sim.cli, "_register_plugins", lambda: None)

    def run(*args):
        proc = run_sim(*args)
        return proc.returncode, SimpleNamespace(out=proc.stdout, err=proc.stderr)  # as capsys.readouterr() gives

    return run
