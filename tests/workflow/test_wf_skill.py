"""``sim skill``: the skill curve on the toy duel whose search keeps the best of ``rollouts`` extra rolls.

With every seat searching, both seats roll a six more and more often as the budget doubles, so their win
rates (a shared top total is a win for each) climb to 100 % and the changes shrink: the curve must settle
where the changes fall inside the tolerance, and not before.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest
from toy_spec import GAME, SEARCHING

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import Metric
from sim.core.runner import simulate
from sim.workflow.skill import (
    SCRIPTED,
    SkillCurve,
    _chunks,
    fresh,
    load_curve,
    parse_ladder,
    settles,
    skill,
    skill_figure,
    steady_trend,
    verdicts,
    within,
    write_skill,
)

LADDER = [1, 2, 4, 8, 16, 32, 64, 128, 256]


@pytest.fixture(scope="module")
def curve(toy_scenarios_module):
    return skill(SEARCHING, "bonus", 3000, seed=5, ladder=LADDER, players=2, chunk_size=1000)


def _rows(policies, n=3000, seed=5):
    return simulate(SEARCHING, "bonus", n, seed, policies=policies, players=2, keep_rows=True, progress=False).rows


def test_each_level_is_every_seat_at_that_budget_on_the_same_games(curve):
    assert curve.levels[0] == SCRIPTED and curve.levels[1:3] == ["search:rollouts=1", "search:rollouts=2"]
    assert curve.bots[SCRIPTED] == {"0": "smart", "1": "smart"}
    assert curve.bots["search:rollouts=2"] == {"0": "search", "1": "search"}
    scripted, searched = _rows({}), _rows({"0": "search:rollouts=2", "1": "search:rollouts=2"})
    before = _rows({"0": "search:rollouts=1", "1": "search:rollouts=1"})
    point = next(p for p in curve.points if p.level == "search:rollouts=2" and p.metric == "win_1")
    x, y = before.games["win_1"], searched.games["win_1"]
    assert point.value == stats.rate(int(y.sum()), 3000)
    d, _ = stats.paired_difference(3000, x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum())
    assert point.change == (d.diff, d.lo, d.hi)
    first = next(p for p in curve.points if p.level == SCRIPTED and p.metric == "win_0")
    assert first.change is None and first.value == stats.rate(int(scripted.games["win_0"].sum()), 3000)
    assert {p.metric for p in curve.points} == {"win_0", "win_1"}  # seats 2, 3 are out of play


def test_the_curve_stops_where_every_headline_settles_and_not_before(curve):
    assert curve.stopped == "settled" and curve.levels[-1] != f"search:rollouts={LADDER[-1]}"
    last = [p for p in curve.points if p.level == curve.levels[-1]]
    assert all(settles(p, curve.tolerance) for p in last)
    earlier = [p for p in curve.points if p.level == curve.levels[-2] and p.metric in ("win_0", "win_1")]
    assert not all(settles(p, curve.tolerance) for p in earlier)  # it would have stopped a level sooner
    verdict = next(v for v in curve.verdicts if v.metric == "win_1")
    assert verdict.settled and verdict.level in curve.levels[-2:]
    assert verdict.text(curve.tolerance).startswith("seat 1 wins: settled at search:rollouts=")
    assert verdict.value.value < 0.01  # both roll a six: seat 0's extra pip wins alone
    assert next(v for v in curve.verdicts if v.metric == "win_0").value.value > 0.99


def test_the_whole_ladder_plays_on_past_the_settled_levels_on_the_same_games(curve):
    whole = skill(SEARCHING, "bonus", 3000, seed=5, ladder=LADDER, players=2, chunk_size=1000, gaps=False,
                  whole_ladder=True)
    assert whole.levels == [SCRIPTED, *(f"search:rollouts={b}" for b in LADDER)]
    assert whole.points[:len(curve.points)] == curve.points  # the levels the settled curve played, alike
    assert whole.stopped == "settled" and all(v.settled for v in whole.verdicts)
    assert all(settles(p, whole.tolerance) for p in whole.points if p.level == whole.levels[-1])


def test_a_tight_tolerance_leaves_it_unsettled_and_says_the_last_change():
    short = skill(SEARCHING, "bonus", 2000, seed=5, ladder=[1, 2], players=2, tolerance=0.001, gaps=False)
    assert short.stopped == "ladder end" and short.levels == [SCRIPTED, "search:rollouts=1", "search:rollouts=2"]
    verdict = next(v for v in short.verdicts if v.metric == "win_1")
    assert not verdict.settled and verdict.level == "search:rollouts=2"
    text = verdict.text(short.tolerance)
    assert text.startswith("seat 1 wins: not settled: last change -3.75 pt [") and "(tolerance ±0.1 pt)" in text
    assert short.gaps == []


def _point(value, lo, hi, change):
    from sim.workflow.skill import Point

    return Point("search:rollouts=2", "win_0", "seat 0 wins", stats.Estimate(value, lo, hi, 10_000), change)


def test_a_level_settles_when_its_change_is_within_noise_and_tolerance_and_it_is_measured_to_tolerance():
    tol = 0.01
    assert settles(_point(0.40, 0.391, 0.409, (-0.004, -0.012, 0.004)), tol)  # covers 0, |d| 0.4 pt, ±0.9 pt
    assert not within((-0.004, -0.012, 0.004), tol)  # the strict equivalence reading would not yet say so
    assert not settles(_point(0.40, 0.391, 0.409, (-0.008, -0.016, -0.001)), tol)  # beyond noise, may pass tol
    assert settles(_point(0.99, 0.988, 0.992, (0.003, 0.001, 0.005)), tol)  # a real change, but surely under tol
    assert not settles(_point(0.40, 0.391, 0.409, (-0.012, -0.030, 0.006)), tol)  # within noise, larger than tol
    assert not settles(_point(0.40, 0.380, 0.420, (0.0, -0.02, 0.02)), tol)  # the level is too vague to tell
    assert not settles(_point(0.40, 0.391, 0.409, None), tol)  # the first level has nothing to agree with


def _step(level, change):
    from sim.workflow.skill import Point

    return Point(level, "win_0", "seat 0 wins", stats.Estimate(0.40, 0.39, 0.41, 10_000), change)


DOWN = (-0.024, -0.037, -0.011)  # beyond noise
FIRST = [_step(SCRIPTED, None), _step("search:rollouts=1", (-0.17, -0.18, -0.16))]


def test_a_headline_moving_one_way_beyond_noise_at_each_step_up_the_ladder_has_a_steady_trend():
    assert steady_trend(FIRST + [_step("search:rollouts=2", DOWN), _step("search:rollouts=4", DOWN)]) == [-0.024] * 2
    assert steady_trend(FIRST + [_step("search:rollouts=2", DOWN)]) == []  # one step is not a trend
    assert steady_trend(FIRST) == []  # the step from the scripted bots is not one up the ladder
    up_then_down = [(0.02, 0.01, 0.03), DOWN, DOWN]
    assert steady_trend(FIRST + [_step(f"search:rollouts={2 << k}", c) for k, c in enumerate(up_then_down)]) == \
        [-0.024] * 2  # the last run one way only
    within_noise = (-0.01, -0.023, 0.003)
    assert steady_trend(FIRST + [_step("search:rollouts=2", DOWN), _step("search:rollouts=4", within_noise)]) == []


def test_an_unsettled_verdict_says_its_steady_trend_and_which_side_strong_play_lies():
    metric = Metric("win_0", "seat 0 wins")
    points = FIRST + [_step("search:rollouts=2", DOWN), _step("search:rollouts=4", DOWN)]
    verdict = verdicts(points, [metric], 0.01)[0]
    assert not verdict.settled and verdict.trend == [-0.024, -0.024]
    assert verdict.text(0.01).endswith(
        "(tolerance ±1.0 pt); it fell at each of the last 2 steps up the ladder (-2.40, -2.40 pt, each beyond "
        "noise): if stronger play keeps lowering it, its strong-play value is below this level's 40.0 % [39.0, 41.0]")
    settled = verdicts(points + [_step("search:rollouts=8", (0.0, -0.009, 0.009))], [metric], 0.01)[0]
    assert settled.settled and settled.trend == []


def test_the_gaps_can_be_played_on_the_first_games_only():
    part = skill(SEARCHING, "bonus", 2000, seed=4, ladder=[1, 2], players=2, gap_games=700, chunk_size=300)
    assert {g.n for g in part.gaps} == {700}
    level = _rows({"0": "search:rollouts=2", "1": "search:rollouts=2"}, n=700, seed=4)
    deviating = _rows({"0": "search:rollouts=8", "1": "search:rollouts=2"}, n=700, seed=4)
    x, y = level.games["win_0"], deviating.games["win_0"]
    d, _ = stats.paired_difference(700, x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum())
    gap = next(g for g in part.gaps if g.level == "search:rollouts=2" and g.role == "0")
    assert (gap.diff, gap.lo, gap.hi) == (d.diff, d.lo, d.hi)
    with pytest.raises(UserError, match="--gap-games 1"):
        skill(SEARCHING, "bonus", 100, seed=4, ladder=[1], players=2, gap_games=1)


def test_the_exploitability_gap_is_one_seat_at_four_times_the_budget_paired_against_the_level(curve):
    gap = next(g for g in curve.gaps if g.level == "search:rollouts=2" and g.role == "0")
    assert gap.deviator == "search:rollouts=8" and gap.n == 3000
    level = _rows({"0": "search:rollouts=2", "1": "search:rollouts=2"})
    deviating = _rows({"0": "search:rollouts=8", "1": "search:rollouts=2"})
    x, y = level.games["win_0"], deviating.games["win_0"]
    d, _ = stats.paired_difference(3000, x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum())
    assert (gap.diff, gap.lo, gap.hi) == (d.diff, d.lo, d.hi) and gap.lo > 0
    scripted = next(g for g in curve.gaps if g.level == SCRIPTED and g.role == "1")
    assert scripted.deviator == "search:rollouts=4"  # 4x the ladder's first budget
    gains = [next(g.diff for g in curve.gaps if g.level == lv and g.role == "1") for lv in curve.levels]
    assert gains[-1] < gains[1] and gains[-1] < 0.02  # the gap shrinks as the level rises


def test_results_do_not_depend_on_jobs_chunks_or_backend(monkeypatch):
    import dask.distributed

    started = []

    class Counted(dask.distributed.LocalCluster):
        def __init__(self, *args, **kwargs):
            started.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(dask.distributed, "LocalCluster", Counted)
    # 2,000 games: the gaps' first 400 in chunks of 100 on one job, 50 on two; the rest in 125s and 64s
    one = skill(SEARCHING, "bonus", 2000, seed=4, ladder=[1, 2], players=3, jobs=1, chunk_size=700, gap_games=400)
    two = skill(SEARCHING, "bonus", 2000, seed=4, ladder=[1, 2], players=3, jobs=2, chunk_size=2048, gap_games=400)
    dask = skill(SEARCHING, "bonus", 2000, seed=4, ladder=[1, 2], players=3, jobs=2, backend="dask", gap_games=400)
    assert len(started) == 1  # one local cluster for the three levels, not one each
    for other in (two, dask):
        assert other.points == one.points and other.gaps == one.gaps and other.verdicts == one.verdicts
        assert [c.decisions for c in other.costs] == [c.decisions for c in one.costs]


def test_the_games_the_deviators_replay_are_spread_over_the_jobs():
    """At the scripted level the gaps are nearly all the work: games 0..gap_games-1 come in 4 chunks a
    job, not in the first chunk alone; every game is in exactly one chunk."""
    plan = _chunks(10_000, 1250, 250, 2)
    assert [c for s, c in plan if s < 250] == [32] * 7 + [26]
    assert [g for s, c in plan for g in range(s, s + c)] == list(range(10_000))
    assert _chunks(10_000, 1250, 0, 2) == [(s, 1250) for s in range(0, 10_000, 1250)]  # no deviators
    assert _chunks(600, 150, 600, 2) == [(0, 150), (150, 150), (300, 150), (450, 150)]  # every game paired


def test_a_time_limit_stops_before_a_level_that_would_pass_it():
    cut = skill(SEARCHING, "bonus", 500, seed=1, ladder=[1, 2, 4], players=2, time_limit_s=0.0, gaps=False)
    assert cut.stopped == "time limit" and cut.levels == [SCRIPTED]


def test_the_curve_is_written_read_back_and_stale_after_a_code_change(curve, tmp_path, monkeypatch):
    paths = write_skill(curve, tmp_path)
    assert [p.name for p in paths] == ["toy-search-skill-bonus-2p.json", "toy-search-skill-bonus-2p.csv",
                                       "toy-search-skill-bonus-2p.png"]
    again = load_curve(SEARCHING, "bonus", 2, tmp_path)
    assert isinstance(again, SkillCurve) and again == curve
    assert load_curve(SEARCHING, "base", 2, tmp_path) is None and load_curve(SEARCHING, "bonus", 3,
                                                                                 tmp_path) is None
    from sim.workflow import robust as module  # where skill.fresh reads today's digest

    monkeypatch.setattr(module, "sources_digest", lambda game: "0" * 16)
    assert load_curve(SEARCHING, "bonus", 2, tmp_path) is None
    assert load_curve(SEARCHING, "bonus", 2, tmp_path, fresh_only=False) == curve


def test_curves_with_other_set_lists_get_other_files(curve, tmp_path):
    """A curve's file names carry a digest of its ``--set`` list: two settings' curves do not overwrite each other."""
    one = dataclasses.replace(curve, sets=["bonus=2"])
    other = dataclasses.replace(curve, sets=["bonus=3"])
    names = {write_skill(c, tmp_path)[0].name for c in (curve, one, other, dataclasses.replace(one))}
    assert len(names) == 3 and all(n.startswith("toy-search-skill-bonus") and n.endswith("-2p.json") for n in names)
    assert load_curve(SEARCHING, "bonus", 2, tmp_path, fresh_only=False) == curve  # a --set curve is not the plain one


def test_the_curve_is_stale_after_its_scenario_file_changes(curve, tmp_path, bump_bonus):
    write_skill(curve, tmp_path)
    assert fresh(curve, SEARCHING) and load_curve(SEARCHING, "bonus", 2, tmp_path) == curve
    bump_bonus()
    assert not fresh(curve, SEARCHING) and load_curve(SEARCHING, "bonus", 2, tmp_path) is None
    assert load_curve(SEARCHING, "bonus", 2, tmp_path, fresh_only=False) == curve


def test_the_figure_has_a_panel_per_headline_and_one_for_the_gaps(curve):
    import matplotlib

    matplotlib.use("Agg")
    fig = skill_figure(curve)
    titles = [ax.get_title() for ax in fig.axes if ax.axison]
    assert "seat 1 wins (settled)" in titles and any(t.startswith("exploitability gap") for t in titles)
    line = next(ax for ax in fig.axes if ax.get_title() == "seat 1 wins (settled)").lines[0]
    assert np.allclose(line.get_ydata(), [100 * p.value.value for p in curve.points if p.metric == "win_1"])


@pytest.mark.parametrize("text", ["4,4", "8,4", "0,2", "a,b", ""])
def test_a_bad_ladder_is_a_user_error(text):
    with pytest.raises(UserError, match=f"^--ladder '{text}': expected rising positive integers"):
        parse_ladder(text)


def test_a_game_without_a_search_bot_is_a_user_error():
    with pytest.raises(UserError, match="toy-dice has no search bot"):
        skill(GAME, "base", 100)


@pytest.mark.parametrize("args, says", [
    (("toy-dice",), "error: toy-dice has no search bot"),
    (("toy-search", "--ladder", "4,2"), "error: --ladder '4,2': expected rising positive integers"),
    (("toy-search", "--games", "1"), "error: --games 1: a paired comparison needs at least 2 games"),
    (("toy-search", "--backend", "spark"), "error: --backend spark: expected loky or dask"),
    (("toy-search", "--tolerance", "0"), "error: --tolerance 0: expected points between 0 and 100"),
    (("toy-search", "--chunk-games", "10"), "error: --chunk-games 10: expected 64 or more games"),
    (("toy-search", "--pause-after", "0"), "error: --pause-after 0: expected a number of seconds above 0"),
    (("toy-search", "--pause-after", "-60"), "error: --pause-after -60: expected a number of seconds above 0"),
    (("toy-search", "--pause-after", "inf"), "error: --pause-after inf: expected a number of seconds above 0"),
    (("toy-search", "--pause-after", "60", "--replay"), "error: --pause-after keeps the finished chunks in "
                                                         "OUT/levels, --replay keeps no level: not both"),
    (("toy-search", "--pause-after", "60", "--status"), "error: --status plays nothing, --pause-after pauses play"),
])
def test_cli_bad_input_exits_2_with_a_clear_message(sim_main, args, says):
    code, captured = sim_main("skill", *args)
    assert code == 2, captured
    assert captured.err.startswith(says) and "Traceback" not in captured.err


def test_cli_prints_the_curve_and_one_line_per_headline_and_writes_the_files(sim_main, tmp_path, monkeypatch):
    from sim.core.display import console

    monkeypatch.setattr(console, "width", 200)
    code, captured = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 1000,
                              "--jobs", 1, "--ladder", "1,2", "--out", tmp_path)
    assert code == 0, captured.err
    out = captured.out
    assert "skill curve" in out and "1,000 games per level" in out and "tolerance ±1.0 pt" in out
    assert "exploitability gap" in out and "search:rollouts=8" in out
    assert "seat 0 wins: not settled: last change" in out and "stopped: ladder end" in out
    assert (tmp_path / "toy-search-skill-bonus-2p.json").is_file()
    assert len(list((tmp_path / "levels").glob("toy-search-*.npz"))) == 3  # scripted, 1 and 2
    code, again = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 1000,
                           "--jobs", 1, "--ladder", "1,2", "--out", tmp_path)
    assert code == 0 and again.out.count("read from") == 3 and _verdicts(again.out) == _verdicts(out)
    code, replayed = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 1000,
                              "--jobs", 1, "--ladder", "1,2", "--out", tmp_path, "--replay")
    assert code == 0 and "read from" not in replayed.out and _verdicts(replayed.out) == _verdicts(out)


def test_cli_whole_ladder_plays_every_level_past_the_settled_ones(sim_main, tmp_path):
    ladder = "1,2,4,8,16,32,64,128,256"
    args = ("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 3000, "--seed", 5, "--jobs", 1,
            "--ladder", ladder, "--no-gaps", "--replay", "--out", tmp_path)
    code, stops = sim_main(*args)
    assert code == 0 and "stopped: settled" in stops.out and "search:rollouts=256" not in stops.out
    code, whole = sim_main(*args, "--whole-ladder")
    assert code == 0 and "stopped: settled" in whole.out and "search:rollouts=256" in whole.out


def test_a_level_stopped_half_way_goes_on_where_it_stopped(tmp_path, monkeypatch):
    """Nothing computed is lost: the chunks a stopped level finished are read, not played, when it goes
    on, and the curve is the one a run from nothing gives; once whole, the level's chunks are gone."""
    from sim.workflow import skill as module

    cache = tmp_path / "levels"
    whole = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1)
    played = []
    real = module._level_chunk

    def stops_after_five(*task):
        if len(played) == 5:
            raise KeyboardInterrupt
        played.append(task[6])
        return real(*task)

    monkeypatch.setattr(module, "_level_chunk", stops_after_five)
    with pytest.raises(KeyboardInterrupt):
        skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache)
    kept = sorted(cache.glob("toy-search-*/*.npz"))
    assert len(kept) == 5 and not list(cache.glob("toy-search-*.npz"))  # five chunks of the scripted level
    monkeypatch.setattr(module, "_level_chunk", lambda *task: played.append(task[6]) or real(*task))
    again = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache)
    assert again.points == whole.points and again.gaps == whole.gaps
    first_level = module._chunks(1200, 75, 300, 1)  # 1,200 games in chunks of 75, the 300 paired in 4
    assert played[5:5 + len(first_level) - 5] == [start for start, _ in first_level[5:]]
    assert len(list(cache.glob("toy-search-*.npz"))) == 3 and not list(cache.glob("toy-search-*/"))


def test_a_level_goes_on_from_the_chunks_another_chunking_kept(tmp_path, monkeypatch):
    """Stopped after five chunks of its second level (75 games each), the level goes on in chunks of 64 games
    (``--chunk-games``): the kept games are read, only the others are played, each once, and the curve is the
    one a run from nothing gives."""
    from sim.workflow import skill as module

    cache = tmp_path / "levels"
    whole = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1)
    real = _stop_in_level(module, monkeypatch, 1, 5)
    with pytest.raises(KeyboardInterrupt):
        skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache)
    [partial] = [folder for folder in cache.glob("toy-search-*") if folder.is_dir()]
    kept = [(start, count) for start, count, _ in module._kept_chunks(partial)]
    assert sum(count for _, count in kept) == 375
    tasks = []
    monkeypatch.setattr(module, "_level_chunk", lambda *task: tasks.append((task[2].tobytes(), task[6], task[7]))
                        or real(*task))
    again = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
                  chunk_size=64)
    assert again.points == whole.points and again.gaps == whole.gaps
    played = [(start, count) for policy, start, count in tasks if policy == tasks[0][0]]
    assert max(count for _, count in played) == 64
    games = sorted(g for start, count in kept + played for g in range(start, start + count))
    assert games == list(range(1200))  # every game once: none of the kept played again


def _pause_in_level(module, monkeypatch, level: int, chunks: int):
    """Make the pause time come, as ``sim skill``'s chunk worker sees it, once the ``level``-th level (0:
    scripted) has begun ``chunks`` chunks. Returns the real worker."""
    real, policies, begun = module._level_chunk, [], []

    def worker(*task):
        if not any(np.array_equal(task[2], seen) for seen in policies):
            policies.append(task[2])
        if len(policies) > level:
            begun.append(task[6])
        come = len(policies) > level and len(begun) > chunks
        return real(*task[:9], 0.0 if come else task[9])  # 0.0: the epoch's start, long past

    monkeypatch.setattr(module, "_level_chunk", worker)
    return real


def test_a_paused_level_keeps_its_finished_chunks_and_goes_on_from_them(tmp_path, monkeypatch):
    """--pause-after: once the pause time has come no chunk begins (here after five chunks of the second
    level); the run returns the levels whole so far, says "paused" and what it kept, and the same command
    then plays only the other games, each once: the curve a run from nothing gives."""
    from sim.workflow import skill as module

    cache, said = tmp_path / "levels", []
    whole = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1)
    real = _pause_in_level(module, monkeypatch, 1, 5)
    paused = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
                   say=said.append, pause_after_s=3600)
    assert paused.stopped == "paused" and paused.levels == [SCRIPTED]
    [partial] = [folder for folder in cache.glob("toy-search-*") if folder.is_dir()]
    assert sum(count for _, count, _ in module._kept_chunks(partial)) == 375
    assert f"search:rollouts=1: paused; 375 of 1,200 games are kept in {partial} (run the same command to go on " \
           "from them)" in said
    tasks = []
    monkeypatch.setattr(module, "_level_chunk", lambda *task: tasks.append((task[2].tobytes(), task[6], task[7]))
                        or real(*task))
    again = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache)
    assert again.points == whole.points and again.gaps == whole.gaps and again.stopped == whole.stopped
    played = sorted(g for policy, start, count in tasks if policy == tasks[0][0] for g in range(start, start + count))
    assert played == list(range(375, 1200))  # the paused level: its other games, each once


def test_the_next_level_in_play_is_found_from_the_curve_with_each_headline_on_its_kept_games(tmp_path, monkeypatch):
    """A curve played to rollouts=1, then the same run with rollouts=2 added, paused after five of its
    chunks: ``level_in_play`` finds that level's kept games from the curve alone (the ladder's next budget,
    its seed, games and gap games) and each headline on them, paired with rollouts=1 on the same games (the
    values of a curve of exactly games 0-374); the curve written with it reads back the same. A settled
    curve, or one whose next level kept nothing, has none."""
    import dataclasses

    from sim.workflow import skill as module

    cache = tmp_path / "levels"
    curve = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1], players=2, gap_games=300, jobs=1, cache=cache)
    assert module.level_in_play(SEARCHING, curve, cache) is None  # nothing of rollouts=2 kept yet
    real = _pause_in_level(module, monkeypatch, 0, 5)  # the first level played: the two before are read
    paused = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
                   pause_after_s=3600)
    monkeypatch.setattr(module, "_level_chunk", real)
    assert paused.stopped == "paused" and paused.levels == [SCRIPTED, "search:rollouts=1"]
    going = module.level_in_play(SEARCHING, curve, cache)
    short = skill(SEARCHING, "bonus", 375, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1)
    [partial] = [folder for folder in cache.glob("toy-search-*") if folder.is_dir()]
    assert going == paused.in_play == module.InPlay(
        "search:rollouts=2", 375, 1200, [p for p in short.points if p.level == "search:rollouts=2"], str(partial))
    assert all(p.change is not None for p in going.points)
    with_it = dataclasses.replace(curve, in_play=going)
    assert SkillCurve.from_json(with_it.to_json()) == with_it
    assert module.level_in_play(SEARCHING, dataclasses.replace(curve, stopped="settled"), cache) is None
    assert module.level_in_play(SEARCHING, dataclasses.replace(curve, gaps=[]), cache) is None  # no gaps: other levels


def test_a_pause_before_the_first_chunk_plays_nothing_and_says_so(tmp_path):
    said = []
    curve = skill(SEARCHING, "bonus", 400, seed=3, ladder=[1], players=2, jobs=1, cache=tmp_path / "levels",
                  say=said.append, pause_after_s=1e-9)
    assert curve.stopped == "paused" and curve.levels == [] and not list(tmp_path.rglob("*.npz"))
    assert "scripted: paused before any of its chunks began; none of its games are kept" in said


def test_a_chunk_whose_turn_comes_after_the_pause_is_not_begun():
    """joblib takes chunks ahead of their turn: each checks the pause time again when it begins."""
    import dataclasses

    from sim.workflow import skill as module

    rules = module.resolve_scenario(SEARCHING, "bonus", (), 2).rules
    policy = module.level_policy(SEARCHING, rules, ["0", "1"], None)
    unplayable = dataclasses.replace(SEARCHING, play=None)  # a chunk begun would call it
    assert module._level_chunk(unplayable, rules, policy, [], ["win_0"], 3, 64, 64, 0, 0.0) == (64, None, [], 0.0, 0)
    assert list(module._until([(1,), (2,)], 0.0)) == [] and list(module._until([(1,), (2,)], None)) == [(1,), (2,)]


def test_kept_chunks_are_cut_out_of_the_plan():
    from sim.workflow.skill import _around

    assert _around([(0, 100), (100, 100), (200, 100)], [(50, 100)]) == [(0, 50), (50, 100), (150, 50), (200, 100)]
    assert _around([(0, 64), (64, 64)], []) == [(0, 64), (64, 64)]
    assert _around([(0, 64), (64, 64)], [(0, 64), (64, 64)]) == [(0, 64), (64, 64)]
    assert _around([(0, 300)], [(10, 10), (100, 50)]) == [(0, 10), (10, 10), (20, 80), (100, 50), (150, 150)]


def _ctrl_c() -> None:
    raise KeyboardInterrupt


def _stop_in_level(module, monkeypatch, level: int, chunks: int, stop=_ctrl_c):
    """Make ``sim skill``'s chunk worker ``stop`` (default: raise KeyboardInterrupt, as Ctrl-C does) once
    the ``level``-th level (0: scripted) has played ``chunks`` chunks. Returns the real worker."""
    real, policies, played = module._level_chunk, [], []

    def stops(*task):
        if not any(np.array_equal(task[2], seen) for seen in policies):
            policies.append(task[2])
        if len(policies) > level and len(played) == chunks:
            stop()
        if len(policies) > level:
            played.append(task[6])
        return real(*task)

    monkeypatch.setattr(module, "_level_chunk", stops)
    return real


def test_a_stopped_level_says_what_it_kept_and_each_headline_so_far_on_those_games(tmp_path, monkeypatch):
    """Stopped in its second level after five chunks (games 0-374, the gaps played on 0-299), the run says
    how many games it kept, each headline on them with its change from the level before, paired on those
    games, and each role's gap so far: the values a curve of exactly games 0-374 gives. --status says the
    same without playing; going on, the run says it goes on from them."""
    from sim.workflow import skill as module

    cache, said = tmp_path / "levels", []
    real = _stop_in_level(module, monkeypatch, 1, 5)
    with pytest.raises(KeyboardInterrupt):
        skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
              say=said.append)
    monkeypatch.setattr(module, "_level_chunk", real)
    short = skill(SEARCHING, "bonus", 375, seed=3, ladder=[1], players=2, gap_games=300, jobs=1)
    level = "search:rollouts=1"
    [partial] = [folder for folder in cache.glob("toy-search-*") if folder.is_dir()]
    so_far = [f"  so far, on those games: {p.label} {module._pct(p.value)}, change from the level before "
              f"{module._change(p.change)} pt" for p in short.points if p.level == level]
    so_far += [f"  so far, exploitability gap: {g.role} at search:rollouts=4 {module._change((g.diff, g.lo, g.hi))} "
               "pt on 300 games" for g in short.gaps if g.level == level]
    pace = "  at the kept chunks' pace the other 825 games take about "
    assert len(so_far) == 4 and said[-6] == (
        f"{level}: stopped; 375 of 1,200 games are kept in {partial} (run the same command to go on from them)")
    assert said[-5].startswith(pace) and said[-5].endswith("on 1 job)") and said[-4:] == so_far
    said.clear()
    first, second = (module.cached_level(partial / name) for name in ("0-75.npz", "75-75.npz"))
    module.store_level(partial / "0-150.npz", {k: np.concatenate([first[0][k], second[0][k]]) for k in first[0]},
                       [], 0.0, 0, 0.0)  # games 0-149 again, as a run with other --jobs would chunk them: not twice
    monkeypatch.setattr(module, "_level_chunk", None)  # --status plays nothing
    looked = skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
                   say=said.append, status=True)
    assert looked.levels == [SCRIPTED] and looked.stopped == "status"
    assert [p.value.n for p in looked.points] == [1200, 1200]  # the scripted level, read whole
    assert said[-6] == f"{level}: 375 of 1,200 games played so far, kept in {partial}"
    assert said[-5].startswith(pace) and said[-4:] == so_far
    monkeypatch.setattr(module, "_level_chunk", real)
    said.clear()
    skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=cache,
          say=said.append)
    going_on = said.index(f"{level}: going on from the 375 of 1,200 games played in {partial}")
    assert said[going_on + 1].startswith(pace) and said[going_on + 2:going_on + 6] == so_far


def test_the_cost_left_is_each_kind_of_games_left_at_its_kept_pace(tmp_path):
    """A level of 1,000 games whose first 300 the deviators play again: with 75 of those kept at 0.4
    CPU-s a game and 313 others at 0.1, the rest takes 225 x 0.4 + 387 x 0.1 CPU-s (a chunk overlapping one
    kept is not counted); unknown until each kind with games left has one kept."""
    from sim.workflow.skill import chunk_file, cpu_left, store_level

    def keep(start, count, cpu):
        store_level(chunk_file(tmp_path, start, count), {"wins": np.zeros(count, np.int64)}, [], cpu, 0, 0.0)

    keep(0, 75, 30.0)
    assert cpu_left(tmp_path, 1000, 300) is None and cpu_left(tmp_path, 300, 300) == pytest.approx(225 * 0.4)
    keep(300, 313, 31.3)
    keep(400, 100, 99.0)  # games 400-499 again, as a run with other --jobs would chunk them
    assert cpu_left(tmp_path, 1000, 300) == pytest.approx(225 * 0.4 + 387 * 0.1)
    assert cpu_left(tmp_path, 1000, 0) == pytest.approx(612 * (30.0 + 31.3) / 388)  # no gap games: one pace


def test_on_a_terminal_each_level_shows_a_progress_bar_of_its_games_counting_those_kept(tmp_path, monkeypatch):
    """A level's bar runs to its games: from 0 when played from nothing, from the kept games when it goes on
    from a stopped run (kept games start the bar, not advance it, so they do not count in the games/s:
    ``test_kept_games_start_the_bar_and_do_not_count_in_its_speed``)."""
    from sim.core import runner
    from sim.workflow import skill as module

    bars = []

    class Bar:
        def __init__(self, total, kept):
            self.total, self.done, self.kept, self.running = total, kept, kept, False
            bars.append(self)

        def start(self):
            self.running = True

        def stop(self):
            self.running = False

        def update(self, task, advance):
            self.done += advance

    monkeypatch.setattr(runner, "_progress_enabled", lambda progress: True)
    monkeypatch.setattr(runner, "_make_progress", lambda n, done: (Bar(n, done), 0))
    real = _stop_in_level(module, monkeypatch, 1, 5)
    with pytest.raises(KeyboardInterrupt):
        skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1,
              cache=tmp_path / "levels")
    monkeypatch.setattr(module, "_level_chunk", real)
    skill(SEARCHING, "bonus", 1200, seed=3, ladder=[1, 2], players=2, gap_games=300, jobs=1, cache=tmp_path / "levels")
    assert [(b.total, b.kept, b.done, b.running) for b in bars] == [
        (1200, 0, 1200, False), (1200, 0, 375, False),  # the scripted level; the second, stopped at 375
        (1200, 375, 1200, False), (1200, 0, 1200, False)]  # (the scripted level read whole: no bar)


def test_kept_games_start_the_bar_and_do_not_count_in_its_speed():
    """``games_bar``'s bar starts at the games played before (a level going on) with no speed; only games
    advanced while it runs make its games/s."""
    from sim.core.runner import _make_progress

    bar, task = _make_progress(1200, 375)
    assert (bar.tasks[task].completed, bar.tasks[task].speed) == (375, None)
    bar.update(task, advance=100)
    time.sleep(0.01)
    bar.update(task, advance=100)
    assert bar.tasks[task].completed == 575 and bar.tasks[task].speed is not None


def test_cli_interrupted_says_the_levels_and_chunks_are_kept_and_exits_130(sim_main, tmp_path, monkeypatch):
    """Ctrl-C in the second level: exit 130, no traceback, and not "nothing written": the scripted level and
    the second level's finished chunks are on disk, and the run says how many games those hold."""
    import re

    from sim.workflow import skill as module

    _stop_in_level(module, monkeypatch, 1, 2)
    code, captured = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 1000,
                              "--jobs", 1, "--ladder", "1,2", "--out", tmp_path)
    assert code == 130 and "Traceback" not in captured.err and "nothing written" not in captured.err
    assert f"interrupted: the levels and chunks finished so far are kept in {tmp_path / 'levels'}" in captured.err
    kept = re.search(r"search:rollouts=1: stopped; ([\d,]+) of 1,000 games are kept", " ".join(captured.out.split()))
    chunks = [f for f in (tmp_path / "levels").glob("toy-search-*/*.npz")]
    assert kept and len(chunks) == 2 and int(kept[1].replace(",", "")) == sum(
        int(f.stem.split("-")[1]) for f in chunks)
    assert len(list((tmp_path / "levels").glob("toy-search-*.npz"))) == 1  # the scripted level, whole


def test_cli_sigterm_keeps_the_chunks_says_so_and_exits_143(sim_main, tmp_path, monkeypatch):
    """SIGTERM in the second level (its handler called from the chunk worker, as the signal would be): exit
    143, no traceback, and the same kept-chunks message as Ctrl-C; the handler before the run is back after."""
    import signal

    from sim.workflow import skill as module

    before = signal.getsignal(signal.SIGTERM)
    _stop_in_level(module, monkeypatch, 1, 2, stop=lambda: signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None))
    code, captured = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 1000,
                              "--jobs", 1, "--ladder", "1,2", "--out", tmp_path)
    assert code == 143 and "Traceback" not in captured.err
    assert f"terminated (SIGTERM): the levels and chunks finished so far are kept in {tmp_path / 'levels'}" in captured.err
    assert "stopped;" in captured.out and signal.getsignal(signal.SIGTERM) is before


def test_cli_status_plays_and_writes_nothing(sim_main, tmp_path, monkeypatch):
    """--status after a finished run prints its curve from the cache, plays no chunk and writes no file;
    with --replay (nothing read) it is a usage error."""
    from sim.workflow import skill as module

    args = ("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 400, "--jobs", 1,
            "--ladder", "1,2", "--out", tmp_path)
    assert sim_main(*args)[0] == 0
    written = {f: f.stat().st_mtime_ns for f in tmp_path.rglob("*") if f.is_file()}
    monkeypatch.setattr(module, "_level_chunk", None)
    code, captured = sim_main(*args, "--status")
    assert code == 0 and captured.out.count("read from") == 3 and "stopped: ladder end" in captured.out
    assert "wrote" not in captured.out and {f: f.stat().st_mtime_ns for f in tmp_path.rglob("*") if f.is_file()} == written
    code, captured = sim_main(*args, "--status", "--replay")
    assert code == 2 and captured.err.startswith("error: --status reads the levels kept in OUT/levels")


def test_cli_paused_says_what_it_kept_and_writes_no_curve(sim_main, tmp_path):
    code, captured = sim_main("skill", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 400,
                              "--jobs", 1, "--ladder", "1", "--out", tmp_path, "--pause-after", "0.000001")
    assert code == 0, captured.err
    assert "paused (no chunk begun after 1e-06 s): the chunks finished are kept in" in " ".join(captured.out.split())
    assert not list(tmp_path.glob("*.json")) and "wrote" not in captured.out


def _verdicts(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "settled" in line and "wins:" in line]


def test_a_longer_ladder_plays_only_its_new_level_paired_with_the_cached_ones(tmp_path, monkeypatch):
    """Cached levels are read, not played: extending the ladder by one budget plays that budget alone,
    and the curve is the one a run from nothing gives (the same games, paired with the level before)."""
    from sim.workflow import skill as module

    cache = tmp_path / "levels"
    whole = skill(SEARCHING, "bonus", 600, seed=4, ladder=[1, 2, 4], players=3, gap_games=200)
    short = skill(SEARCHING, "bonus", 600, seed=4, ladder=[1, 2], players=3, gap_games=200, cache=cache)
    assert len(list(cache.glob("toy-search-*.npz"))) == 3
    played = []
    real = module.play_level
    monkeypatch.setattr(module, "play_level", lambda *args, **kw: played.append(args[2].tolist()) or real(*args, **kw))
    longer = skill(SEARCHING, "bonus", 600, seed=4, ladder=[1, 2, 4], players=3, gap_games=200, cache=cache)
    searching = {bot for bot in SEARCHING.policy_names(np.array(played[0])).values() if bot.startswith("search")}
    assert len(played) == 1 and searching == {"search:rollouts=4"}
    assert longer.points == whole.points and longer.gaps == whole.gaps and longer.verdicts == whole.verdicts
    assert longer.costs[:3] == short.costs
    skill(SEARCHING, "bonus", 600, seed=5, ladder=[1], players=3, gap_games=200, cache=cache)
    assert len(played) == 3  # another seed: other games, played (scripted and budget 1)
    monkeypatch.setattr(module, "sources_digest", lambda game: "0" * 16)
    skill(SEARCHING, "bonus", 600, seed=4, ladder=[1], players=3, gap_games=200, cache=cache)
    assert len(played) == 5  # other sources: the cached levels are not these sources' games


@pytest.mark.parametrize("game", ["island-nation", "ocracoke", "wonderful-island"])
def test_every_shipped_game_has_a_curve(game, monkeypatch):
    monkeypatch.delenv("SIM_SCENARIOS")
    tiny = skill(game, "base", 6, seed=2, ladder=[1], jobs=1)
    assert tiny.levels == [SCRIPTED, "search:rollouts=1"] and tiny.stopped in ("ladder end", "settled")
    assert len(tiny.gaps) == len(tiny.bots[SCRIPTED]) * 2 and tiny.costs[1].decisions > 0


def test_a_level_is_every_role_at_that_bot_and_strong_is_the_settled_level(curve, tmp_path):
    from sim.workflow.skill import level_policies

    assert level_policies(SEARCHING, None) == {} and level_policies(SEARCHING, "scripted", {"0": "naive"}) == {
        "0": "naive"}
    assert level_policies(SEARCHING, "search:rollouts=8", {"1": "naive"}) == {"all": "search:rollouts=8", "1": "naive"}
    assert level_policies(SEARCHING, "strong", folder=tmp_path) == {"all": "search"}  # no curve: the default budget
    curve_base = skill(SEARCHING, "base", 1000, seed=5, ladder=LADDER, gaps=False)
    assert curve_base.settled
    write_skill(curve_base, tmp_path)
    assert level_policies(SEARCHING, "strong", folder=tmp_path) == {"all": curve_base.levels[-1]}
    unsettled = skill(SEARCHING, "base", 300, seed=5, ladder=[1, 2], tolerance=0.001, gaps=False)
    assert not unsettled.settled
    write_skill(unsettled, tmp_path)
    assert level_policies(SEARCHING, "strong", folder=tmp_path) == {"all": "search:rollouts=2"}  # its strongest level
    with pytest.raises(UserError, match="^--level clever: expected scripted, strong or a bot"):
        level_policies(SEARCHING, "clever")
    with pytest.raises(UserError, match="^--level strong: toy-dice has no search bot"):
        level_policies(GAME, "strong")


def test_cli_compare_at_a_level_plays_every_role_at_it(sim_main, monkeypatch):
    from sim.core.display import console
    from sim.workflow import compare as module

    played = []
    real = module.compare
    monkeypatch.setattr(module, "compare", lambda *a, **k: played.append(real(*a, **k)) or played[-1])
    monkeypatch.setattr(console, "width", 200)
    code, captured = sim_main("compare", "toy-search", "--variant", "bonus", "--games", 500, "--jobs", 1,
                              "--level", "search:rollouts=3")
    assert code == 0, captured.err
    (result,) = played
    assert set(result.base_bots.values()) == set(result.variant_bots.values()) == {"search:rollouts=3"}
    code, captured = sim_main("sweep", "toy-search", "--param", "sides", "--values", "4,6", "--games", 200,
                              "--jobs", 1, "--level", "nothing")
    assert code == 2 and captured.err.startswith("error: --level nothing: expected scripted, strong or a bot")
