"""Every command's --help shows an example to copy and says where the rule keys (`sim rules GAME`) and the
metric names (`sim games`) are listed; `sim games` lists each game's metric names (issue 25 item 8)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.fixture(scope="module")
def app():
    """`sim` with every command registered (the workflow and the games' own commands)."""
    import sim.cli
    from sim.core.registry import all_games

    names = {c.name for c in sim.cli.app.registered_commands}
    if "compare" not in names:
        from sim.workflow.cli import register

        register(sim.cli.app)
    for spec in all_games().values():
        hook = spec.extras.get("register_cli")
        if hook is not None and not names & {"map", "wi-values"}:
            hook(sim.cli.app)
    return sim.cli.app


def _commands(app) -> list[list[str]]:
    paths = [[c.name] for c in app.registered_commands]
    for group in app.registered_groups:
        paths += [[group.name, c.name] for c in group.typer_instance.registered_commands]
    return paths


def test_every_help_has_an_example_and_points_to_rules_and_games(app):
    runner = CliRunner()
    paths = _commands(app)
    assert {"run", "compare", "sweep", "sensitivity", "skill", "report", "map", "wi-values"} <= {p[0] for p in paths}
    assert ["drift", "update"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "250"}, terminal_width=250)
        text = " ".join(result.output.split())
        assert result.exit_code == 0, (path, result.output)
        assert f"Example: sim {' '.join(path)}" in text, path
        assert "`sim rules GAME`" in text and "Metric names" in text and "`sim games`" in text, path
    set_help = " ".join(runner.invoke(app, ["compare", "--help"], env={"COLUMNS": "250"}).output.split())
    assert "the keys and their values: `sim rules GAME`" in set_help


def test_games_lists_every_metric_name_with_the_headlines_marked(app):
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "400"}, terminal_width=400)
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines() if "metrics (* headline):" in line]
    assert len(lines) == 3
    assert any("win_frogman*, win_artillery*, escape_by_7*" in line for line in lines)
    assert any("win_0*, win_1*, win_2*, win_3*, hands," in line for line in lines)
