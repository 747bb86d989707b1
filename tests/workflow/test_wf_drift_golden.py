"""The drift gate (sizing, false alarms, detection) and golden traces, on the toy game."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from sim.core import stats
from sim.core.errors import UserError
from sim.workflow import drift, golden


@pytest.fixture
def baseline(toy, tmp_path):
    drift.update([toy], folder=tmp_path, family=4)
    return tmp_path


def test_game_counts_give_99_percent_power_for_a_1_point_move():
    """Two arms n_b, n_c with 1/n_c + 1/n_b = 2/n0 detect 0.50 → 0.51 at level 0.01/M with power ≥ 99 %."""
    m = 4
    n0 = drift.equal_arm_games(m)
    assert n0 == stats.games_needed(0.5, 0.01, 0.01 / m, 0.99)
    n_b = drift.BASELINE_FACTOR * n0
    n_c = drift.check_games(n0, n_b)
    se = math.sqrt(0.5 * 0.5 * (1 / n_b + 1 / n_c))
    z = sps.norm.ppf(1 - 0.01 / m / 2)
    power = sps.norm.sf(z - 0.01 / se)
    assert power >= 0.99 - 1e-3
    assert n_c < n0 < n_b
    with pytest.raises(UserError, match="too small"):
        drift.check_games(n0, n0 // 2)


def test_baseline_records_metric_value_n_seed_and_version(toy, baseline):
    data = json.loads((baseline / "toy-dice.json").read_text())
    assert {"seed", "n", "toolkit_version", "metrics"} <= set(data)
    first = data["metrics"][0]
    assert first["metric"] == "win_0" and first["n"] == data["n"]
    assert first["value"] == first["successes"] / first["n"]


def test_unchanged_code_passes_and_a_1_point_move_fails(toy, baseline):
    assert not drift.check([toy], folder=baseline).failed
    moved = drift.check([toy], folder=baseline, shifted={"toy-dice": {"win_1": 0.01}})
    assert moved.failed
    assert {r.metric for r in moved.rows if r.moved} == {"win_1"}  # at every player count


def test_a_real_rule_change_fails_the_gate(toy, baseline):
    """Giving seat 0 a 4.78 % chance of an extra pip moves its win rate by one point exactly."""
    from exact_toy import seat_win

    chance = 0.0478
    assert abs(seat_win(0, bonus_chance=chance) - seat_win(0) - 0.01) < 1e-4
    result = drift.check([toy], folder=baseline, sets=(f"bonus_chance={chance}",))
    assert result.failed and "win_0" in [r.metric for r in result.rows if r.moved]
    rates = drift.calibrate(toy, trials=2, rule_change=(f"bonus_chance={chance}",))
    assert rates.detections == 2


def test_a_metric_gone_from_the_game_asks_for_an_update(toy, baseline):
    data = json.loads((baseline / "toy-dice.json").read_text())
    data["metrics"][0]["metric"] = "win_99"
    (baseline / "toy-dice.json").write_text(json.dumps(data))
    with pytest.raises(UserError, match="no longer produced"):
        drift.check([toy], folder=baseline)


def test_a_missing_baseline_is_an_error_when_asked_for(toy, tmp_path):
    with pytest.raises(UserError, match="drift update"):
        drift.check([toy], folder=tmp_path)


def test_shift_moves_a_rate_by_the_asked_amount(toy):
    from sim.workflow.common import play_range, scenario_of

    rules = scenario_of(toy, "base").rules
    policy = toy.policy_array(rules)
    plain = play_range(toy, rules, policy, 8, 0, 100_000)
    moved = play_range(drift.shift_spec(toy, {"win_2": -0.01}), rules, policy, 8, 0, 100_000)
    change = (moved.sums["win_2"] - plain.sums["win_2"]) / 100_000
    assert abs(change + 0.01) < 0.002
    assert moved.sums["win_0"] == plain.sums["win_0"]


def test_calibration_counts_false_alarms_and_detections(toy):
    rates = drift.calibrate(toy, trials=3)
    assert rates.trials == 3 and rates.false_alarms <= 1 and rates.detections >= 2


def test_golden_traces_replay_exactly_and_show_changes(toy, tmp_path):
    written = golden.refresh([toy], tmp_path)
    assert len(written) == len(golden.CASES)
    assert golden.stale([toy], tmp_path) == []
    text = written[0].read_text()
    assert text.startswith("# sim trace toy-dice --scenario base --seed 0 --index 0")
    row = json.loads(text.splitlines()[-1].removeprefix("# row: "))
    batch = toy.play(toy.rules_model(first_bonus=0), np.ones(4, dtype=np.int64), 0, 0, 1)
    assert row["win_0"] == int(batch.games["win_0"][0])  # the trace is the batch's game 0
    written[1].write_text(written[1].read_text().replace("total", "tot", 1))
    assert golden.stale([toy], tmp_path) == [written[1]]
    assert golden.parse_case(written[2]) == ("toy-dice", "base", 1, 17)
