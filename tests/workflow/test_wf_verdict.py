"""The verdict's parts (issue 25 items 1, 2, 4): fairness figures with the equal share the scoring implies,
the one-line verdicts of `sim run` / `sim compare`, and stronger-play changes told apart from the expected
effect of giving one role the stronger bot."""

from __future__ import annotations

from sim.core import stats
from sim.workflow.robust import Change, Robustness, changed_conclusions, is_expected, robust_summary


def test_a_tie_win_for_every_tied_seat_raises_the_equal_share_and_the_spread_is_paired(toy):
    from sim.core.runner import simulate
    from sim.workflow.fairness import fairness

    result = simulate(toy, "base", 4000, 1, 1, keep_rows=True, progress=False)
    f = fairness(result)
    total = sum(r.value for r in f.rates)
    assert f.equal_share == total / len(f.rates)
    assert f.paired and f.ties is not None and f.nobody is not None
    assert f.spread == f.rates[f.best].value - f.rates[f.worst].value
    assert f.spread_lo < f.spread < f.spread_hi
    # from totals alone the interval is the conservative bound: never narrower than the paired one
    unpaired = fairness(simulate(toy, "base", 4000, 1, 1, progress=False))
    assert not unpaired.paired and unpaired.spread_hi - unpaired.spread_lo >= f.spread_hi - f.spread_lo - 1e-4
    assert "equal share is" in f.sentence() and "%" in f.line()


def _change(arm: str, metric: str, base: float, value: float, beyond: bool = True) -> Change:
    est = stats.Estimate
    d = value - base
    return Change(arm, metric, metric.replace("win_", "") + " wins", "rate", est(base, base - .01, base + .01, 9000),
                  est(value, value - .01, value + .01, 9000), d, d - .01, d + .01, 1e-9 if beyond else .5, beyond)


def _result(changes: list[Change]) -> Robustness:
    return Robustness("g", "G", "base", 6, 9000, 0, {}, {}, ["baseline", "search as politician", "search as all"],
                      changes, [], 1.0, None, None, "x", "today")


def test_the_stronger_bot_winning_more_is_expected_and_a_drop_with_search_everywhere_counts():
    mine = _change("search as politician", "win_politician", .498, .53)
    others = _change("search as politician", "win_blue", .25, .23)
    everywhere = _change("search as all", "win_politician", .498, .431)  # issue 25: must count
    noise = _change("search as all", "win_blue", .25, .251, beyond=False)
    r = _result([mine, others, everywhere, noise])
    assert is_expected(mine) and is_expected(others) and not is_expected(everywhere)
    assert changed_conclusions(r) == [everywhere]
    text = robust_summary(r)
    assert "1 headline figure(s) change beyond noise" in text and "49.8 % -> 43.1 %" in text
    assert "with search in every role" in text and "2 change(s) are the expected effect" in text


def test_what_goes_with_the_searching_roles_win_is_the_expected_effect_as_the_game_declares_it(monkeypatch):
    """Island Nation: escaping by round N is the frogman's win (IN-WIN-F1), so it rises when the frogman searches
    and falls when the artillery does; with search everywhere it still counts (issue 25 item 4)."""
    from sim.core.registry import get_game
    from sim.workflow.common import headline_metrics, scenario_of
    from sim.workflow.robust import metric_favours

    monkeypatch.delenv("SIM_SCENARIOS")  # the game's own scenarios
    spec = get_game("island-nation")
    favours = metric_favours(headline_metrics(spec, scenario_of(spec, "base").rules))
    assert favours["win_frogman"] == ["frogman"] and favours["win_artillery"] == ["artillery"]
    assert {k: v for k, v in favours.items() if k.startswith("escape_by_")} == {
        f"escape_by_{r}": ["frogman"] for r in (7, 8, 9, 10)}
    rises = _change("search as frogman", "escape_by_8", .30, .75)
    falls = _change("search as artillery", "escape_by_8", .30, .10)
    odd = _change("search as artillery", "escape_by_9", .40, .45)  # the artillery's search helping the frogman
    everywhere = _change("search as all", "escape_by_8", .30, .36)
    r = _result([rises, falls, odd, everywhere])
    r.favours = favours
    assert is_expected(rises, favours) and is_expected(falls, favours)
    assert not is_expected(odd, favours) and not is_expected(everywhere, favours)
    assert changed_conclusions(r) == [everywhere, odd]
    assert not is_expected(rises)  # without the game's declaration only win rates are known
    assert "2 headline figure(s) change beyond noise" in robust_summary(r)


def test_a_result_keeps_what_its_metrics_favour_through_json():
    r = _result([_change("search as politician", "win_politician", .498, .53)])
    r.favours = {"escape_by_7": ["frogman"]}
    assert Robustness.from_json(r.to_json()).favours == {"escape_by_7": ["frogman"]}
    import json

    old = json.loads(r.to_json())
    del old["favours"]
    assert Robustness.from_json(json.dumps(old)).favours == {}  # a result written before favours were kept
