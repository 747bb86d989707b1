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


def _log(*rows):
    return np.array(rows, dtype=np.int64).reshape(-1, 6)


def test_on_exit_as_window_opens_reads_the_last_turn_before_the_window():
    """IN-WIN-F1: the frogman's point at the end of the last turn before round evac_from decides; a game over
    before the window is -1 (hand-built logs: event, round, actor, a, b, c)."""
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import engine as E
    from sim.games.island_nation.analysis import on_exit_as_window_opens
    from sim.games.island_nation.board import board_for
    from sim.games.island_nation.rules import IslandNationRules

    board = board_for(load_scenario("island-nation", IslandNationRules, "base").rules)
    exit_a, inland = board.index["A"], board.index["1"]
    standing = _log((E.EV_TURN_END, 6, 0, inland, 0, 0), (E.EV_TURN_END, 6, 2, exit_a, 0, 0),
                    (E.EV_STEP, 7, 0, 1, inland, 5), (E.EV_END, 7, 0, 0, 0, 0))
    assert on_exit_as_window_opens(board, standing, 7) == 1
    assert on_exit_as_window_opens(board, standing, 8) == -1  # that game never reached round 8
    moved_off = _log((E.EV_TURN_END, 6, 0, exit_a, 0, 0), (E.EV_TURN_END, 6, 1, inland, 0, 0),
                     (E.EV_TURN_END, 7, 0, inland, 0, 0))
    assert on_exit_as_window_opens(board, moved_off, 7) == 0
    over_early = _log((E.EV_TURN_END, 5, 0, exit_a, 0, 0), (E.EV_END, 6, 1, 0, 0, 0))
    assert on_exit_as_window_opens(board, over_early, 7) == -1


def test_exit_standing_wins_every_time_under_the_standing_reading():
    """IN-WIN-F1, reading "standing": a frogman on an exit as its first window turn opens escapes at once, so every
    such game is a frogman win; under "entering" it must step off and back on and wins less often."""
    from sim.core.scenario import load_scenario
    from sim.games.island_nation.analysis import exit_standing

    out = {}
    for scenario in ("base", "escape-standing"):
        # 4 players: there the scripted hunters catch often enough that stepping off and on costs wins in 300 games
        rules = load_scenario("island-nation", GAME.rules_model, scenario, ["players=4"]).rules
        out[scenario] = exit_standing(rules, GAME.policy_array(rules), 2026, 300)
    base, standing = out["base"], out["escape-standing"]
    assert standing["standing"].n == 300 and standing["standing"].value > 0
    assert standing["wins_when_standing"].value == 1.0
    assert base["standing"].value == standing["standing"].value  # play is the same until the window opens
    assert base["wins_when_standing"].value < 1.0
