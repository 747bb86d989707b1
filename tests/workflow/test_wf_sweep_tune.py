"""Sweep grids and the noisy root search, checked against the toy game's exact probabilities."""

from __future__ import annotations

import polars as pl
import pytest
from exact_toy import seat_win

from sim.core.errors import UserError
from sim.core.runner import simulate
from sim.workflow.sweep import parse_grid, sweep, sweep_figures, write_sweep
from sim.workflow.tune import parse_target, tune


def test_grid_values_and_ranges_take_the_field_type(toy):
    rules = toy.rules_model
    assert parse_grid(rules, "first_bonus", None, "0:3") == [0, 1, 2, 3]
    assert parse_grid(rules, "bonus_chance", None, "0:0.3") == [0.0, 0.1, 0.2, 0.3]  # the field's step
    assert parse_grid(rules, "bonus_chance", "0.5, 1", None) == [0.5, 1.0]
    with pytest.raises(UserError, match="exactly one"):
        parse_grid(rules, "first_bonus", "1", "0:2")
    with pytest.raises(UserError, match="int values"):
        parse_grid(rules, "first_bonus", "one,two", None)


def test_sweep_rows_are_the_runs_at_each_point(toy):
    frame = sweep(toy, "base", {"first_bonus": [0, 2]}, 3000, seed=4, jobs=2)
    assert frame.height == 2 * 4  # points × headline metrics
    alone = simulate(toy, "base", 3000, 4, sets=["first_bonus=2"], progress=False)
    got = frame.filter((pl.col("first_bonus") == 2) & (pl.col("metric") == "win_0"))["value"][0]
    assert got == alone.summary.sums["win_0"] / 3000


def test_sweep_rejects_a_value_out_of_bounds_before_playing(toy):
    with pytest.raises(UserError, match="first_bonus"):
        sweep(toy, "base", {"first_bonus": [0, 9]}, 100)


def test_sweep_writes_tables_and_plots(toy, tmp_path):
    frame = sweep(toy, "base", {"first_bonus": [0, 1], "bonus_chance": [0.0, 0.5]}, 2000, seed=1)
    paths = write_sweep(frame, ["first_bonus", "bonus_chance"], tmp_path, "grid", "toy grid")
    assert pl.read_parquet(tmp_path / "grid.parquet").equals(frame)
    assert pl.read_csv(tmp_path / "grid.csv").height == frame.height
    assert (tmp_path / "grid.pdf") in paths
    figs = sweep_figures(frame, ["first_bonus", "bonus_chance"], "toy grid")
    assert len(figs) == 3  # one heat map per headline metric that ever happens (seat 3 is empty)
    assert figs[0].axes[0].get_xlabel().startswith("first_bonus")


def test_targets_read_as_fractions_or_percentages():
    assert parse_target("win_0=0.5") == ("win_0", 0.5)
    assert parse_target("win_0=25%") == ("win_0", 0.25)
    with pytest.raises(UserError):
        parse_target("win_0")


def test_tune_finds_the_exact_root_within_its_interval(toy):
    """win_0 is linear in bonus_chance (a mixture), so the exact root is known."""
    f0, f1 = seat_win(0), seat_win(0, bonus_chance=1.0)
    root = (0.5 - f0) / (f1 - f0)
    result = tune(toy, "base", "bonus_chance", "win_0=0.5", seed=3, start_games=4000, max_games=64_000)
    assert result.lo <= root <= result.hi
    assert result.hi - result.lo < 0.08
    assert "WARNING" not in result.note
    assert result.games < 300_000
    # games were added where the decision was close: the probes nearest the root got the most
    nearest = min(result.probes, key=lambda p: abs(p.x - root))
    assert nearest.summary.n_games == max(p.summary.n_games for p in result.probes)


def test_tune_handles_an_integer_parameter(toy):
    """Seat 1 falls from 46 % to 32 % to 20 % as seat 0's head start grows 0, 1, 2: 30 % lies in (1, 2)."""
    assert seat_win(1, bonus=1) > 0.3 > seat_win(1, bonus=2)
    result = tune(toy, "base", "first_bonus", "win_1=30%", seed=1)
    assert 1 <= result.value <= 2
    assert result.best.x == 1
    assert all(float(p.x).is_integer() for p in result.probes)


def test_tune_says_when_the_target_is_out_of_reach(toy):
    with pytest.raises(UserError, match="not reached"):
        tune(toy, "base", "first_bonus", "win_0=0.1", start_games=2000)


def test_tune_warns_when_the_metric_is_not_monotone(toy):
    """Probes rising 10 % → 90 % then falling to 50 %: the last pair goes against the trend of the ends."""
    from sim.core.runner import RunSummary
    from sim.workflow.tune import Probe, _not_monotone

    metric = next(m for m in toy.metrics(toy.rules_model(first_bonus=0)) if m.name == "win_0")
    probes = [Probe(x, RunSummary(n, {"win_0": k}, {"win_0": k})) for x, k, n in
              ((0, 1000, 10000), (1, 9000, 10000), (2, 5000, 10000))]
    assert _not_monotone(probes, metric, True) == "1 → 2"
    assert _not_monotone(probes[:2], metric, True) == ""
