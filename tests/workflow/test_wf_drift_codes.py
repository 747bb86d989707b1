"""Issue 24 item 7 and issue 22 item 5: the drift gate's exit codes mean one thing each, baselines are
validated on load, a headline rate without a baseline is a warning, the check takes --seed and --games,
and baselines cover every player count with that count's default bots."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sim.core.errors import UserError
from sim.workflow import drift


@pytest.fixture
def gate(cli_app, registered, monkeypatch, tmp_path):
    """`sim drift ...` on the toy game with its baselines in tmp_path; returns (invoke, baseline file)."""
    monkeypatch.setattr(drift, "baseline_dir", lambda: tmp_path)
    drift.update([registered], folder=tmp_path, family=4)
    runner = CliRunner()
    return (lambda *args: runner.invoke(cli_app, ["drift", *map(str, args)])), tmp_path / "toy-dice.json"


def damage(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_an_unchanged_game_exits_0_with_the_seed_shown(gate):
    invoke, _ = gate
    result = invoke("check", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "seed 2" in result.output


@pytest.mark.parametrize("change,says", [
    (lambda d: d["metrics"][0].pop("successes"), "metrics.0.successes"),
    (lambda d: d["metrics"][0].update(n=0), "metrics.0.n"),
    (lambda d: d["metrics"][0].update(successes=d["metrics"][0]["n"] + 1), "successes"),
    (lambda d: d.update(metrics=[]), "metrics"),
    (lambda d: d["metrics"][0].update(successes=True), "metrics.0.successes"),
])
def test_a_damaged_baseline_exits_3_not_1(gate, change, says):
    invoke, path = gate
    damage(path, change)
    result = invoke("check", "--jobs", "1")
    assert result.exit_code == drift.EXIT_BASELINE == 3, result.output
    assert says in result.output and "Traceback" not in result.output
    with pytest.raises(drift.BaselineError, match=str(path)):
        drift.Baseline.load("toy-dice", path.parent)


def test_a_baseline_that_is_not_json_exits_3(gate):
    invoke, path = gate
    path.write_text("{not json")
    assert invoke("check", "--jobs", "1").exit_code == 3


def test_a_metric_gone_from_the_game_exits_3(gate):
    invoke, path = gate
    damage(path, lambda d: d["metrics"][0].update(metric="win_99"))
    result = invoke("check", "toy-dice", "--jobs", "1")
    assert result.exit_code == 3 and "no longer produced" in result.output


def test_a_moved_rate_exits_1(gate, monkeypatch):
    invoke, path = gate
    damage(path, lambda d: [m.update(successes=m["n"] // 10, value=(m["n"] // 10) / m["n"])
                            for m in d["metrics"] if m["metric"] == "win_0"])
    assert invoke("check", "--jobs", "1").exit_code == drift.EXIT_MOVED == 1


def test_a_headline_rate_without_a_baseline_is_a_warning(gate):
    invoke, path = gate
    damage(path, lambda d: d.update(metrics=[m for m in d["metrics"] if m["metric"] != "win_1"]))
    result = invoke("check", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "warning: toy-dice: win_1 at 3 players: a headline rate without a baseline" in result.output


def test_check_takes_seed_and_games(gate):
    invoke, _ = gate
    result = invoke("check", "--jobs", "1", "--seed", "7", "--games", "5000")
    assert result.exit_code == 0, result.output
    assert "seed 7" in result.output and "5,000 games per player count" in result.output
    report = drift.check(None, 1, seed=7, n_games=5000)
    assert report.n_check == {"toy-dice": 5000}


def test_check_refuses_the_baseline_seed_and_bad_sizes(gate):
    with pytest.raises(UserError, match="--seed 1: the baseline of toy-dice was played with this seed"):
        drift.check(None, 1, seed=1)
    invoke, _ = gate
    result = invoke("check", "--games", "0")  # sim's main() turns a UserError into exit 2 (tests/test_cli.py)
    assert isinstance(result.exception, UserError) and "--games 0" in str(result.exception)


def test_baselines_cover_every_player_count_with_its_default_bots(gate, registered):
    _, path = gate
    data = json.loads(path.read_text())
    counts = {m["players"] for m in data["metrics"]}
    assert counts == set(registered.player_counts)
    for m in data["metrics"]:
        assert m["bots"] == {r: registered.bots[r][-1] for r in registered.roles}
    at2 = {m["metric"] for m in data["metrics"] if m["players"] == 2}
    at4 = {m["metric"] for m in data["metrics"] if m["players"] == 4}
    assert at2 < at4 or at2 == at4
    rows = drift.check(None, 1).rows
    assert {r.players for r in rows} == counts


def test_update_rewrites_only_a_baseline_whose_content_changed(gate):
    """The README tour's `sim drift update` must leave the committed baselines alone when only the date would
    change (issue 25 item 8); a changed rate is rewritten."""
    invoke, path = gate
    assert invoke("update", "--jobs", 1).exit_code == 0  # the command's own family size
    data = json.loads(path.read_text())
    data["created"] = "2000-01-01T00:00Z"  # an old date alone is no reason to rewrite
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    kept = path.read_bytes()
    result = invoke("update", "--jobs", 1)
    assert result.exit_code == 0 and "toy-dice: unchanged (the same rates; not rewritten)" in result.output
    assert "wrote" not in result.output and path.read_bytes() == kept
    damage(path, lambda d: d["metrics"][0].update(successes=d["metrics"][0]["successes"] + 1))
    result = invoke("update", "--jobs", 1)
    assert result.exit_code == 0 and "wrote" in result.output
    assert json.loads(path.read_bytes())["metrics"] == data["metrics"]
