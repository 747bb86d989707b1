"""Metrics, tables and report figures of Island Nation (run through the generic runner)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.runner import simulate
from sim.games.island_nation import GAME


@pytest.fixture(scope="module")
def run():
    return simulate("island-nation", "base", 4000, seed=3, jobs=1, keep_rows=True, progress=False)


def test_escape_metrics_are_cumulative_and_add_up_to_the_escape_ending(run):
    """IN-WIN-F1: escaped by round r is non-decreasing in r; by round 10 equals the escape ending."""
    s = run.summary.sums
    by = [s[f"escape_by_{r}"] for r in (7, 8, 9, 10)]
    assert by == sorted(by)
    assert by[-1] == s["end_escape"]
    assert sum(s[f"escape_in_{r}"] for r in (7, 8, 9, 10)) == by[-1]
    assert s["win_frogman"] + s["win_artillery"] == run.n_games
    assert s["win_frogman"] == s["end_escape"] + s["end_all_dead"]


def test_rows_hold_what_the_brief_asks(run):
    rows = run.games_frame()
    for col in ("winner", "end_reason", "end_round", "escape_round", "escape_exit", "frogman_hp",
                "artillery_alive", *[f"set_r{r}" for r in range(1, 11)]):
        assert col in rows.columns
    escaped = rows.filter(rows["end_reason"] == 0)
    assert escaped.height > 0 and escaped["escape_exit"].min() >= 0 and escaped["escape_exit"].max() <= 5
    timed_out = rows.filter(rows["end_reason"] == 4)
    assert timed_out.height > 0 and (timed_out["set_r10"] >= 1).all()
    caught_early = rows.filter(rows["end_round"] < 10)
    assert (caught_early["set_r10"] == -1).all()


def test_tables_and_figures(run):
    tables = run.tables()
    assert {"how the game ends", "exit usage"} <= set(tables)
    exits = tables["exit usage"]
    assert abs(exits["value"].sum() - run.summary.sums["end_escape"] / run.n_games) < 1e-9
    figs = GAME.extras["report_figures"]("base", 300, 1, 1)
    assert len(figs) == 5
    for fig in figs:
        ax = fig.axes[0]
        assert ax.get_title()
    assert figs[0].axes[0].get_ylabel() and figs[1].axes[0].get_xlabel() == "round"
    assert np.isfinite(run.summary.tallies["density"]).all()


def test_map_frames_draw_one_picture_per_round_played(tmp_path):
    """`sim trace --map-frames`: one PNG per round the game reached."""
    from sim.core.scenario import load_scenario
    from sim.games.island_nation.figures import trace_frames

    rules = load_scenario("island-nation", GAME.rules_model, "base").rules
    policy = GAME.policy_array(rules)
    row = GAME.play(rules, policy, 3, 2, 1).games
    paths = trace_frames(rules, policy, 3, 2, tmp_path)
    assert len(paths) == row["end_round"][0] and all(p.stat().st_size > 0 for p in paths)
