"""Sensitivity tornado and skill ladder on the toy game, whose effects are known exactly."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from exact_toy import seat_win

from sim.workflow.common import numeric_field, scenario_of
from sim.workflow.compare import compare
from sim.workflow.ladder import ELO, expected_score, fit_luce, ladder, ladder_figures, plan
from sim.workflow.sensitivity import sensitivity, tornado_figure


def test_numeric_fields_carry_bounds_and_steps(toy):
    assert numeric_field(toy.rules_model, "bonus_chance").step == 0.1
    sides = numeric_field(toy.rules_model, "sides")
    assert (sides.lo, sides.hi, sides.step, sides.is_int) == (2, 12, 1, True)


def test_tornado_moves_every_numeric_rule_one_step_within_bounds(toy):
    t = sensitivity(toy, "base", n_games=6000, seed=2)
    params = [r.param for r in t.rows]
    assert set(params) == {"first_bonus", "sides", "bonus_chance"}  # not players, not the text field
    assert params[0] == "first_bonus"  # the largest swing first
    assert [r.swing for r in t.rows] == sorted((r.swing for r in t.rows), reverse=True)
    by = {r.param: r for r in t.rows}
    assert by["first_bonus"].down is None and by["first_bonus"].up.value == 1  # 0 is its lower bound
    assert by["bonus_chance"].down is None and math.isclose(by["bonus_chance"].up.value, 0.1)
    assert by["sides"].down.value == 5 and by["sides"].up.value == 7
    truth = seat_win(0, sides=7) - seat_win(0)
    assert by["sides"].up.difference.lo <= truth <= by["sides"].up.difference.hi


def test_tornado_bars_are_the_paired_differences_of_compare(toy):
    t = sensitivity(toy, "base", n_games=3000, seed=5)
    move = next(r for r in t.rows if r.param == "sides").up.difference
    direct = compare(toy, "base", None, ["sides=7"], 3000, 5)
    assert move.diff == next(r for r in direct.rows if r.metric.name == "win_0").difference.diff


def test_tornado_figure_is_labelled(toy):
    fig = tornado_figure(sensitivity(toy, "base", n_games=2000, seed=1))
    ax = fig.axes[0]
    assert "percentage points" in ax.get_xlabel() and "sensitivity" in ax.get_title()
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"one step down", "one step up"}


def test_ladder_plans_rotate_the_lone_bot_through_every_seat(toy):
    three = plan(toy, ["0", "1", "2"])
    assert len(three) == 2 * 3  # ordered pairs × seats
    assert sum(1 for p in three if p == {"0": "smart", "1": "naive", "2": "naive"}) == 1
    assert len(plan(toy, ["0", "1"])) == 2  # heads-up: each bot in each seat once
    asymmetric = replace(toy, bots={"0": ("naive", "smart"), "1": ("naive",), "2": ("smart",), "3": ("smart",)},
                         default_bots={"0": "smart", "1": "naive", "2": "smart", "3": "smart"})
    assert len(plan(asymmetric, ["0", "1", "2"])) == 2  # every combination of one bot per role


def test_asymmetric_ladder_rates_bots_within_their_role(toy):
    """Where roles differ, the spread is measured among the bots of one role."""
    asymmetric = replace(toy, bots={"0": ("naive", "smart"), "1": ("naive",), "2": ("naive",), "3": ("naive",)},
                         default_bots={"0": "smart", "1": "naive", "2": "naive", "3": "naive"})
    four = scenario_of(asymmetric, "base", ["players=4"])
    lad = ladder(asymmetric, four, n_games=2000, seed=2, bootstrap=20)
    assert set(lad.groups) == {"0", "1", "2", "3"}
    top, low, gap = lad.spreads()["0"]
    assert (top, low) == ("0:smart", "0:naive") and gap > lad.chance_spreads["0"]
    assert lad.spreads()["1"][2] == 0  # one bot: no spread
    assert lad.skill_text()[0].startswith("0: smart - naive = ")
    assert "against the same opponent" in lad.skill_text()[0]


def test_luce_fit_recovers_known_strengths():
    """Exact expected win counts of a 3-player table with strengths (1, 2) give back log 2."""
    tables = [[(0, 0), (1, 1), (1, 2)], [(1, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (1, 2)]]
    counts = []
    for table in tables:
        s = np.array([[1.0, 2.0][b] for b, _ in table])
        counts.append(1e6 * s / s.sum())
    theta = fit_luce(tables, counts, 2, 3)
    assert math.isclose(theta[1] - theta[0], math.log(2), rel_tol=1e-3)


def test_ladder_rates_the_smart_bot_above_the_naive_one(toy):
    lad = ladder(toy, "base", n_games=3000, seed=1, bootstrap=50)
    smart, naive = lad.labels.index("smart"), lad.labels.index("naive")
    assert lad.elo_lo[smart] > lad.elo_hi[naive]
    (top, low, gap), = lad.spreads().values()
    assert (top, low) == ("smart", "naive")
    assert gap > lad.chance_spreads["bots"]  # skill shows above luck at these counts
    assert 0.5 < expected_score(gap) < 1
    assert "smart - naive" in lad.skill_text()[0]
    matrix = lad.matrix()
    row = matrix.filter((matrix["bot"] == "smart") & (matrix["against"] == "naive"))
    assert row["n"][0] == 3 * 3000  # one smart seat rotated through 3 seats
    exact = np.mean([seat_win(s, smart=tuple(i == s for i in range(4))) for s in range(3)])
    assert abs(row["rate"][0] - exact) < 4 * math.sqrt(exact * (1 - exact) / row["n"][0])
    assert abs(lad.elo.sum()) < 1e-6 * ELO
    figs = ladder_figures(lad)
    assert len(figs) == 2 and "skill versus luck" in figs[0].axes[0].get_title()


def test_lists_of_guessed_numbers_are_moved_as_a_whole(monkeypatch):
    """Island Nation's HP and bullet tables by player count are assumed lists: each is moved every entry
    one down and one up (a move the rules reject is skipped and named)."""
    from sim.workflow.sensitivity import _shift, sensitivity

    assert _shift([[1, 2], [3]], 1) == [[2, 3], [4]] and _shift([0.5, 1.0], -1) == [0.45, 0.9]
    monkeypatch.delenv("SIM_SCENARIOS", raising=False)
    tornado = sensitivity("island-nation", n_games=200, seed=1)
    rows = {row.param: row for row in tornado.rows}
    hp = rows["frogman_hp"]
    assert hp.describe() == "frogman_hp (every entry ±1)"
    assert hp.down.label == "every entry -1" and hp.up.label == "every entry +1"
    assert hp.up.value == [v + 1 for v in hp.base_value]
    assert "artillery_bullets" in rows  # one direction only: fewer than 1 bullet is rejected


def test_lists_that_move_only_entry_by_entry_or_in_pairs_get_a_row_per_entry_or_pair(monkeypatch):
    """Ocracoke's dial ranges start at 1 and rise, so the whole list cannot shift: each later entry moves one
    step alone. The Wonderful Island's camp cards must add up to the player count: in the row in play (6
    players: 2 blue, 2 green, 2 politician) one camp gains a card and another loses one (at most 2
    politician cards in the box). Both are ranked with the other assumptions (issue 25 item 3)."""
    from sim.core.registry import get_game
    from sim.workflow.sensitivity import entry_moves, sensitivity

    monkeypatch.delenv("SIM_SCENARIOS", raising=False)

    def moves(game, name):
        spec = get_game(game)
        scen = scenario_of(spec, "base")

        def valid(value):
            try:
                scenario_of(spec, scen, [f"{name}={value}"])
                return True
            except Exception:
                return False

        return entry_moves(spec.rules_model, name, scen.rules.model_dump()[name], scen.rules, valid)

    dials = moves("ocracoke", "dial_ranges")
    assert [(m.row, m.value, m.label) for m in dials] == [
        ("dial_ranges[1]", [1, 2, 5], "2"), ("dial_ranges[1]", [1, 4, 5], "4"),
        ("dial_ranges[2]", [1, 3, 4], "4"), ("dial_ranges[2]", [1, 3, 6], "6")]
    camps = moves("wonderful-island", "camp_cards")
    assert [(m.row, m.value[3], m.label) for m in camps] == [
        ("camp_cards at 6 players: blue vs green", [1, 3, 2], "blue -1, green +1"),
        ("camp_cards at 6 players: blue vs green", [3, 1, 2], "blue +1, green -1"),
        ("camp_cards at 6 players: blue vs politician", [3, 2, 1], "blue +1, politician -1"),
        ("camp_cards at 6 players: green vs politician", [2, 3, 1], "green +1, politician -1")]
    assert all(m.value[:3] + m.value[4:] == [[1, 1, 1], [1, 1, 2], [2, 2, 1], [3, 3, 1], [3, 3, 2]] for m in camps)

    tornado = sensitivity("ocracoke", n_games=300, seed=1)
    rows = {row.param: row for row in tornado.rows}
    assert rows["dial_ranges[1]"].describe() == "dial_ranges[1] = 3"
    assert (rows["dial_ranges[1]"].down.value, rows["dial_ranges[1]"].up.label) == ([1, 2, 5], "4")
    assert "dial_ranges" not in tornado.skipped and "navy_cards" in tornado.skipped
    assert [r.swing for r in tornado.rows] == sorted((r.swing for r in tornado.rows), reverse=True)


def test_page_one_names_each_assumption_once_at_its_largest_move(toy):
    """The Wonderful Island's three camp_cards pairs would fill page one's top three: an assumption counts once."""
    from sim.core import stats
    from sim.workflow.report import _depends_on
    from sim.workflow.sensitivity import Move, Sensitivity, Tornado

    def row(param, swing, what=""):
        est = stats.rate(50, 100)
        d = stats.Difference(est, est, swing, swing - .01, swing + .01, 1e-9)
        return Sensitivity(param, True, 2, None, Move(3, d, "3"), what)

    rows = [row("camp_cards at 6 players: blue vs politician", .37, "camp_cards at 6 players: blue vs politician"),
            row("camp_cards at 6 players: blue vs green", .35), row("hand_limit", .07),
            row("dial_ranges[1]", .05), row("dial_ranges[2]", .04), row("jail_subpoenas", .03)]
    tornado = Tornado(toy, None, toy.metrics(None)[0], 100, 0, rows, [])
    lines = _depends_on(tornado)
    assert [line.split(":")[0] for line in lines] == ["1. camp_cards at 6 players", "2. hand_limit = 2",
                                                     "3. dial_ranges[1] = 2"]
