"""Paired runs and `compare`: common random numbers, exact integer sums, Holm over metrics."""

from __future__ import annotations

import pytest
from exact_toy import seat_win

from sim.core.paired import paired_runs
from sim.core.runner import simulate
from sim.workflow.common import headline_metrics, scenario_of
from sim.workflow.compare import compare


def _arms(toy, *sets):
    base = scenario_of(toy, "base")
    variant = scenario_of(toy, "base", list(sets))
    return base, variant, (base.rules, toy.policy_array(base.rules)), (variant.rules, toy.policy_array(variant.rules))


def test_paired_sums_equal_the_two_single_runs(toy):
    """Σx and Σy of a paired run are exactly the totals of the base and variant runs on the same seed."""
    base, variant, arm_b, arm_v = _arms(toy, "first_bonus=1")
    metrics = headline_metrics(toy, base.rules)
    (sums,) = paired_runs(toy, arm_b, [arm_v], metrics, 5000, seed=3)
    alone_b = simulate(toy, base, 5000, 3, progress=False).summary
    alone_v = simulate(toy, variant, 5000, 3, progress=False).summary
    for m in metrics:
        assert sums.sx[m.name] == alone_b.sums[m.name]
        assert sums.sy[m.name] == alone_v.sums[m.name]
        assert sums.sxx[m.name] == alone_b.sumsq[m.name]


def test_paired_sums_do_not_depend_on_chunking_or_jobs(toy):
    _, _, arm_b, arm_v = _arms(toy, "bonus_chance=0.3")
    metrics = headline_metrics(toy, arm_b[0])
    one = paired_runs(toy, arm_b, [arm_v], metrics, 6000, 9, jobs=1, chunk_size=1000)[0]
    two = paired_runs(toy, arm_b, [arm_v], metrics, 6000, 9, jobs=2, chunk_size=4096)[0]
    assert one == two


def test_identical_arms_differ_by_exactly_nothing(toy):
    result = compare(toy, "base", "base", ["sides=6"], n_games=4000, seed=1)
    for row in result.rows:
        assert not row.beyond_noise
        if row.difference is not None:
            assert row.difference.diff == 0 and row.difference.lo == 0 and row.difference.hi == 0


def test_compare_finds_the_head_start_and_its_true_size(toy):
    """A one-pip head start for seat 0: the paired interval covers the exact change and is flagged."""
    result = compare(toy, "base", "bonus", n_games=20000, seed=2)
    seat0 = next(r for r in result.rows if r.metric.name == "win_0")
    truth = seat_win(0, bonus=1) - seat_win(0)
    assert seat0.beyond_noise
    assert seat0.difference.lo <= truth <= seat0.difference.hi
    assert seat0.narrowing < 1  # pairing narrowed the interval
    empty_seat = next(r for r in result.rows if r.metric.name == "win_3")
    assert empty_seat.difference is None and not empty_seat.beyond_noise
    assert "narrowed the intervals" in result.narrowing_summary()


def test_compare_can_change_a_bot_instead_of_a_rule(toy):
    result = compare(toy, "base", None, (), 20000, 4, variant_policies={"0": "naive"})
    seat0 = next(r for r in result.rows if r.metric.name == "win_0")
    truth = seat_win(0, smart=(False, True, True, True)) - seat_win(0)
    assert seat0.difference.lo <= truth <= seat0.difference.hi
    assert result.variant_bots["0"] == "naive" and result.base_bots["0"] == "smart"


def test_beyond_noise_is_holm_over_the_metrics_that_vary(toy):
    """The flags are Holm's decisions over the varying metrics only (an empty seat is not in the family)."""
    from sim.core import stats

    result = compare(toy, "base", None, ["bonus_chance=0.05"], n_games=3000, seed=5)
    varying = [r for r in result.rows if r.difference is not None]
    assert len(varying) == 3  # seats 0-2; seat 3 is empty with 3 players
    assert [r.beyond_noise for r in varying] == stats.holm([r.difference.p_value for r in varying])
    frame = result.frame()
    assert frame.height == 4 and set(frame.columns) >= {"base", "variant", "diff", "lo", "hi", "p_value"}


@pytest.mark.parametrize("n", [1])
def test_compare_refuses_too_few_games(toy, n):
    from sim.core.errors import UserError

    with pytest.raises(UserError, match="at least 2 games"):
        compare(toy, "base", "bonus", n_games=n)
