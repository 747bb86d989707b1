"""``sim robust``: search in place of the scripted bots, paired on the same games, and the flips it flags.

The toy's search bot rolls ``rollouts`` more times and keeps its best roll (toy_spec.SEARCHING), so a
seat it plays wins more: a conclusion of the baseline can be planted and then reversed.
"""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest
from toy_spec import GAME, SEARCHING

from sim.core import stats
from sim.core.errors import UserError
from sim.core.runner import simulate
from sim.workflow.robust import BASELINE, Robustness, cached, ranking_flips, robust, write_robust


def _flips(result: Robustness, arm: str, kind: str | None = None):
    return [f for f in result.flips if f.arm == arm and (kind is None or f.kind == kind)]


@pytest.fixture(scope="module")
def duel(toy_scenarios_module):
    """Two seats, seat 0 a pip ahead: seat 0 wins 76 %, seat 1 39 % (a tie is a win for both)."""
    return robust(SEARCHING, "bonus", 3000, seed=5, players=2, chunk_size=1000)


def test_arms_are_the_baseline_search_in_each_seat_and_in_all(duel):
    assert duel.arms == [BASELINE, "search as 0", "search as 1", "search as all"]
    assert duel.bots[BASELINE]["0"] == "smart" and duel.bots["search as 1"]["1"] == "search"
    assert duel.bots["search as 1"]["0"] == "smart" and duel.bots["search as all"]["0"] == "search"
    assert duel.budget == {"rollouts": 2}
    # the empty seats 2 and 3 never win in either arm: no row for them
    assert {c.metric for c in duel.changes} == {"win_0", "win_1"}


def test_every_arm_plays_the_same_games_as_a_run_with_the_same_seed(duel):
    """Game i of every arm is game i of the run (seed, i): the arm's own sums equal a plain run's, and the
    paired cross sums equal those of the two runs' rows matched game by game."""
    base = simulate(SEARCHING, "bonus", 3000, 5, players=2, keep_rows=True, progress=False)
    for arm in duel.arms[1:]:
        run = simulate(SEARCHING, "bonus", 3000, 5, policies=duel.bots[arm], players=2, keep_rows=True,
                       progress=False)
        sums = duel.sums[arm]
        assert sums.summary.sums == run.summary.sums
        for name in ("win_0", "win_1"):
            x, y = base.rows.games[name], run.rows.games[name]
            assert sums.paired.sx[name] == x.sum() and sums.paired.sy[name] == y.sum()
            assert sums.paired.sxy[name] == int((x * y).sum())
        assert sums.decisions == int(run.rows.games["search_decisions"].sum()) > 0
    shifted = simulate(SEARCHING, "bonus", 3000, 6, policies=duel.bots["search as 1"], players=2, progress=False)
    assert shifted.summary.sums != duel.sums["search as 1"].summary.sums  # a different seed is other games


def test_each_change_is_the_paired_difference_with_the_arms_own_rate(duel):
    change = next(c for c in duel.changes if c.arm == "search as 1" and c.metric == "win_1")
    sums = duel.sums["search as 1"].paired
    d, _ = stats.paired_difference(sums.n, sums.sx["win_1"], sums.sy["win_1"], sums.sxx["win_1"],
                                   sums.syy["win_1"], sums.sxy["win_1"])
    assert (change.diff, change.lo, change.hi) == (d.diff, d.lo, d.hi)
    assert change.value == stats.rate(sums.sy["win_1"], 3000) and change.base == stats.rate(sums.sx["win_1"], 3000)
    assert change.lo > 0.05 and change.beyond_noise


def test_a_planted_flip_across_the_equal_share_is_flagged_beyond_noise(duel):
    """Seat 1 wins 39 % with scripted play; with search it wins more than the equal share (the two seats' rates
    added up, a tie a win for each, halved): a flip, settled both ways."""
    strong = robust(SEARCHING, "bonus", 2000, seed=5, players=2, budget="rollouts=8")
    (flip,) = [f for f in _flips(strong, "search as 1", "equal share") if f.text.startswith("seat 1")]
    base = strong.sums["baseline"].summary
    share = (base.sums["win_0"] + base.sums["win_1"]) / base.n_games / 2
    assert share > 0.5 and f"seat 1 wins: below the equal share {100 * share:.1f} %" in flip.text
    assert flip.beyond_noise and "-> above (70.00%)" in flip.text
    assert _flips(duel, "search as 1", "equal share") == []  # at rollouts=2 seat 1 rises to 52 %: short of it
    # search in seat 0 only strengthens the seat already ahead: no conclusion flips
    assert _flips(duel, "search as 0") == []


def test_three_camps_are_read_against_a_third_not_half():
    """A camp of three at 30 % that rises to 40 % crosses the equal share (a third), not 50 % (issue 25)."""
    from sim.core.game import Metric
    from sim.core.runner import RunSummary
    from sim.workflow.robust import equal_share, line_flips

    camps = [Metric(f"win_{c}", f"{c} wins", "rate", True) for c in ("blue", "green", "politician")]
    summary = RunSummary(n_games=1000, sums={"win_blue": 350, "win_green": 350, "win_politician": 300})
    share = equal_share(summary, camps)
    assert share == 1 / 3
    before, after = stats.rate(300, 1000), stats.rate(400, 1000)
    (flip,) = line_flips("search as politician", before, after, camps[2], share)
    assert flip.beyond_noise and flip.text.startswith("politician wins: below the equal share 33.3 % (30.00%)")
    assert line_flips("search as politician", before, after, camps[2]) == []  # 50 %: never crossed


def test_a_large_lead_survives_search_and_no_flip_is_flagged():
    """Three pips ahead, seat 0 stays above 50 % and seat 1 below, whoever searches."""
    result = robust(SEARCHING, "base", 3000, seed=2, players=2, sets=["first_bonus=3"])
    assert result.flips == []
    assert all(c.value.value > 0.5 for c in result.changes if c.metric == "win_0")


def test_a_rank_flip_between_seats_is_flagged_and_an_unsettled_one_is_within_noise():
    """Three seats; seat 2 naive in the baseline is settled behind seat 1. Search in seat 2 puts it settled
    ahead: a rank flip beyond noise. Search in seat 1 keeps their order: no flip between them."""
    result = robust(SEARCHING, "base", 4000, seed=3, players=3, policies={"2": "naive"})
    (flip,) = [f for f in _flips(result, "search as 2", "role rank") if "seat 1" in f.text and "seat 2" in f.text]
    assert flip.beyond_noise and flip.text.startswith("seat 1 wins ahead of seat 2 wins")
    assert not [f for f in _flips(result, "search as 1", "role rank") if "seat 2" in f.text]
    # seats 0 and 1 play alike (smart) in the baseline: their order is noise, so a reversal is within noise
    unsettled = [f for f in result.flips if f.kind == "role rank" and "seat 0" in f.text and "seat 1" in f.text]
    assert unsettled and not any(f.beyond_noise for f in unsettled)
    assert all("baseline not settled" in f.text for f in unsettled)


def test_with_three_seats_a_seat_is_read_against_the_average_seat():
    """Seat 2 naive is settled below the average seat; searching, it is settled above: a flip beyond noise.
    The excess over the average seat is the mean of the per-game contrast x_2 - (x_0 + x_1 + x_2) / 3."""
    from sim.workflow.robust import _excess

    result = robust(SEARCHING, "base", 4000, seed=3, players=3, policies={"2": "naive"})
    assert not [f for f in result.flips if f.kind == "equal share"]  # three seats alike: the average seat instead
    (flip,) = [f for f in _flips(result, "search as 2", "average seat") if f.text.startswith("seat 2 wins")]
    assert flip.beyond_noise and flip.text.startswith("seat 2 wins: below the average seat")
    assert not [f for f in _flips(result, "search as 1", "average seat") if f.text.startswith("seat 2 wins")]
    run = simulate(SEARCHING, "base", 4000, 3, policies=result.bots["search as 2"], players=3, keep_rows=True,
                   progress=False)
    rows = run.rows.games
    contrast = rows["win_2"] - (rows["win_0"] + rows["win_1"] + rows["win_2"]) / 3
    expected = stats.mean(contrast)
    got = _excess(result.sums["search as 2"], "win_2", ["win_0", "win_1", "win_2"])
    assert got.n == expected.n and got.value == pytest.approx(expected.value, abs=1e-12)
    assert (got.lo, got.hi) == pytest.approx((expected.lo, expected.hi), abs=1e-9)
    assert got.lo > 0


def _ranks(rows):
    return pl.DataFrame(rows, schema=["item", "value", "lo", "hi", "n"], orient="row")


def test_a_game_ranking_flip_needs_intervals_apart_in_both_runs():
    base = _ranks([("street", 3.0, 2.8, 3.2, 100), ("rally", 2.0, 1.8, 2.2, 100), ("tv", 1.0, 0.5, 1.5, 50)])
    moved = _ranks([("street", 1.0, 0.8, 1.2, 100), ("rally", 2.0, 1.8, 2.2, 100), ("tv", 1.2, 0.1, 2.3, 50)])
    flips = ranking_flips("search as all", "venue values", base, moved)
    assert len(flips) == 2  # rally stays above tv: no flip between them
    rally, tv = sorted(flips, key=lambda f: "tv" in f.text)
    assert rally.text == "street (3) above rally (2) -> below (1 vs 2)" and rally.beyond_noise
    # tv's interval overlaps street's after the move: that reversal is within noise, and says why
    assert rally.kind == "venue values" and tv.text.startswith("street (3) above tv (1) -> below")
    assert not tv.beyond_noise and tv.text.endswith("(arm not settled)")
    # an item never seen (n = 0) is left out rather than ranked; an unchanged order is no flip
    unseen = _ranks([("street", float("nan"), 0.0, 1.0, 0), ("rally", 2.0, 1.8, 2.2, 100)])
    assert ranking_flips("a", "venue values", unseen, moved.head(2)) == []
    assert ranking_flips("a", "venue values", base, base) == []


def test_the_games_ranking_hook_is_judged_in_every_arm():
    """``extras["robust_ranks"]`` (here: seats by win rate, from the run summary) flags a planted flip."""

    def seats_by_wins(rules, summary):
        ests = [stats.rate(summary.sums[f"win_{s}"], summary.n_games) for s in range(rules.players)]
        return {"seats by wins": _ranks([(f"seat {s}", e.value, e.lo, e.hi, e.n) for s, e in enumerate(ests)])}

    spec = dataclasses.replace(SEARCHING, extras={**SEARCHING.extras, "robust_ranks": seats_by_wins})
    result = robust(spec, "base", 4000, seed=3, players=3, policies={"2": "naive"})
    flips = _flips(result, "search as 2", "seats by wins")
    assert [f.beyond_noise for f in flips if f.text.startswith("seat 1 (")] == [True]
    assert all("seat 2" not in f.text for f in _flips(result, "search as 1", "seats by wins"))


def test_results_do_not_depend_on_jobs_or_chunks():
    one = robust(SEARCHING, "bonus", 5000, seed=4, players=3, jobs=1, chunk_size=700)
    two = robust(SEARCHING, "bonus", 5000, seed=4, players=3, jobs=2, chunk_size=2048)
    assert one.frame().equals(two.frame())
    assert one.flips == two.flips
    for arm in one.arms:
        a, b = one.sums[arm], two.sums[arm]
        assert a.summary.sums == b.summary.sums and a.paired.sxy == b.paired.sxy and a.cross == b.cross


def test_written_result_reads_back_and_is_stale_after_a_code_change(duel, tmp_path, monkeypatch):
    paths = write_robust(duel, tmp_path)
    assert [p.name for p in paths] == ["toy-search-robust.json", "toy-search-robust.csv", "toy-search-robust.png"]
    again = cached(tmp_path, SEARCHING, "bonus", 2)
    assert again is not None and again.frame().equals(duel.frame()) and again.flips == duel.flips
    assert cached(tmp_path, SEARCHING, "base", 2) is None and cached(tmp_path, SEARCHING, "bonus", 3) is None
    from sim.workflow import robust as module

    monkeypatch.setattr(module, "sources_digest", lambda game: "0" * 16)
    assert cached(tmp_path, SEARCHING, "bonus", 2) is None


def test_written_result_is_stale_after_its_scenario_file_changes(duel, tmp_path, bump_bonus):
    write_robust(duel, tmp_path)
    assert cached(tmp_path, SEARCHING, "bonus", 2) is not None
    bump_bonus()
    assert cached(tmp_path, SEARCHING, "bonus", 2) is None


def test_a_table_by_player_count_stales_only_the_results_of_its_entry_in_play(monkeypatch):
    """Island Nation's HP table is one list per player count: re-tuning the 4-player entry leaves a
    5-player result fresh, the 5-player entry does not."""
    monkeypatch.delenv("SIM_SCENARIOS")  # the project's own scenarios, not the toy game's
    from sim.core.runner import resolve_scenario
    from sim.workflow.common import resolve_game
    from sim.workflow.robust import rules_digest

    def digest(players, *sets):
        return rules_digest(resolve_scenario(resolve_game("island-nation"), "base", sets, players).rules)

    base = digest(5)
    hp = resolve_scenario(resolve_game("island-nation"), "base", (), 5).rules.frogman_hp
    assert digest(5, f"frogman_hp=[{hp[0] + 1}, {hp[1]}, {hp[2]}]") == base
    assert digest(5, f"frogman_hp=[{hp[0]}, {hp[1] + 1}, {hp[2]}]") != base
    assert digest(4, f"frogman_hp=[{hp[0] + 1}, {hp[1]}, {hp[2]}]") != digest(4)
    assert digest(4) != base  # another player count is other rules


def test_editing_one_game_leaves_the_other_games_results_fresh(tmp_path):
    """The results digest covers the compiled core and the game's own folder: an edit in one game's bots
    stales that game's cached results only; an edit in the compiled core stales every game's."""
    from sim.core.sources import COMPILED_CORE, results_digest

    for name in COMPILED_CORE:
        (tmp_path / "core").mkdir(exist_ok=True)
        (tmp_path / "core" / name).write_text(f"# {name}\n")
    for game in ("island_nation", "ocracoke"):
        (tmp_path / "games" / game).mkdir(parents=True)
        (tmp_path / "games" / game / "policies.py").write_text("BOTS = 1\n")
    before = {g: results_digest(tmp_path, g) for g in ("island_nation", "ocracoke")}
    (tmp_path / "games" / "ocracoke" / "policies.py").write_text("BOTS = 2\n")
    after = {g: results_digest(tmp_path, g) for g in ("island_nation", "ocracoke")}
    assert after["island_nation"] == before["island_nation"] and after["ocracoke"] != before["ocracoke"]
    assert results_digest(tmp_path, "toy_search") == results_digest(tmp_path)  # no folder of its own: every game's
    (tmp_path / "core" / "rng.py").write_text("# another stream\n")
    assert all(results_digest(tmp_path, g) != after[g] for g in after)


@pytest.mark.parametrize("kwargs, says", [
    ({"n_games": 1}, "--games 1: a paired comparison needs at least 2 games"),
    ({"budget": "depth=3"}, "--budget 'depth=3': 'depth=3': expected OPTION=N with OPTION one of rollouts"),
    ({"budget": "rollouts=0"}, "--budget 'rollouts=0': rollouts: expected a whole number from 1 to 65,536"),
    ({"policies": {"1": "search"}}, "--policy 1=search: the baseline is scripted play"),
    ({"policies": {"1": "clever"}}, "--policy 1=clever: expected one of naive, smart, search"),
    ({"seed": -1}, "--seed -1: expected a non-negative integer"),
])
def test_bad_input_is_a_user_error_naming_the_option(kwargs, says):
    with pytest.raises(UserError, match=f"^{says}".replace("[", r"\[").replace("(", r"\(")):
        robust(SEARCHING, "base", **{"n_games": 100, **kwargs})


def test_a_game_without_a_search_bot_is_a_user_error():
    with pytest.raises(UserError, match="toy-dice has no search bot"):
        robust(GAME, "base", 100)


@pytest.mark.parametrize("args, says", [
    (("toy-dice",), "error: toy-dice has no search bot (GameSpec.search)"),
    (("toy-search", "--budget", "depth=3"), "error: --budget 'depth=3'"),
    (("toy-search", "--games", "1"), "error: --games 1: a paired comparison needs at least 2 games"),
    (("toy-search", "--policy", "0=search"), "error: --policy 0=search: the baseline is scripted play"),
    (("toy-search", "--scenario", "nowhere"), "error: "),
])
def test_cli_bad_input_exits_2_with_a_clear_message(sim_main, args, says):
    code, captured = sim_main("robust", *args)
    assert code == 2, captured
    assert captured.err.startswith(says) and "Traceback" not in captured.err


def test_cli_prints_the_table_and_the_flips_and_writes_the_files(sim_main, tmp_path, monkeypatch):
    from sim.core.display import console

    monkeypatch.setattr(console, "width", 200)  # one table row per line
    code, captured = sim_main("robust", "toy-search", "--scenario", "bonus", "--players", 2, "--games", 2000,
                              "--jobs", 1, "--budget", "rollouts=8", "--out", tmp_path)
    assert code == 0, captured.err
    out = captured.out
    assert "does it hold under stronger play?" in out and "search budget rollouts=8" in out
    assert "95 % paired interval" in out and "search as 1" in out and "expected effect · settled" in out
    assert "equal share: seat 1 wins: below the equal share" in out
    assert (tmp_path / "toy-search-robust.json").is_file() and (tmp_path / "toy-search-robust.png").is_file()
    frame = pl.read_csv(tmp_path / "toy-search-robust.csv")
    assert set(frame["arm"]) == {"search as 0", "search as 1", "search as all"} and (frame["n"] == 2000).all()
    assert ((frame["lo"] <= frame["value"]) & (frame["value"] <= frame["hi"])).all()


def _pdf_text(path, pages):
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    return "\n".join(reader.pages[i].extract_text() for i in pages)


def test_report_page_plays_a_small_check_or_uses_a_fresh_cached_one(tmp_path):
    from sim.workflow.report import report

    def stronger_play(n_report):
        (rep,), _, _ = report([SEARCHING], tmp_path, n_games=2000, analysis_games=0, ladder_games=0, seed=3,
                              robust_games=n_report)
        first = rep.pages.index("Stronger play")
        return rep, _pdf_text(rep.path, range(first, first + rep.pages.count("Stronger play")))

    rep, text = stronger_play(1000)
    assert rep.pages[-4:] == ["Stronger play"] * 3 + ["Skill curve"]  # summary, table, plot; then the skill curve
    assert "Does it hold under stronger play?" in text and "Played for this report: 1,000 games per arm" in text
    assert "search: 1" in text and "seat 1 wins" in text and "[" in text and "YES" in text
    assert "headline metrics under search" in text and "Conclusions that flip" in text
    assert rep.robust is not None and rep.robust.n_games == 1000

    write_robust(robust(SEARCHING, "base", 2000, seed=3), tmp_path / "robust")
    rep, text = stronger_play(1000)
    assert "Cached result of `sim robust toy-search --scenario base" in text and "2,000 games per arm" in text
    assert rep.robust.n_games == 2000

    rep, text = stronger_play(0)  # the cached result is still used when the report plays none itself
    assert rep.robust.n_games == 2000


def test_bench_search_times_one_search_seat_and_counts_its_decisions():
    """scripts/bench_search.py on the toy: one seat searches (the seats are alike), one decision per game."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "bench_search.py"
    spec = importlib.util.spec_from_file_location("bench_search", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.bench_search(seconds=0.05, specs=[GAME, SEARCHING])
    assert list(figures) == ["toy-search"]  # the game without a search bot is left out
    toy = figures["toy-search"]
    assert toy["search_budget"] == {"rollouts": 2} and list(toy["by_role"]) == ["0"]
    row = toy["by_role"]["0"]
    assert row["bots"]["0"] == "search" and row["bots"]["1"] == "smart"
    assert row["search_decisions_per_game"] == 1.0 and row["games"] > 0 and row["games_per_s_per_core"] > 0


def test_a_ranking_hook_can_come_from_one_of_the_games_tables():
    """table_ranks: the rows of a game table ranked within each group, as robust_ranks wants them."""
    from sim.core.runner import RunSummary
    from sim.workflow.robust import table_ranks

    def tables(rules, summary):
        return {"venue values": pl.DataFrame({
            "venue": ["street", "rally", "street", "rally"], "support_cards": ["0-1", "0-1", "2-3", "2-3"],
            "value": [1.0, 2.0, 3.0, 0.5], "lo": [0.9, 1.9, 2.9, 0.4], "hi": [1.1, 2.1, 3.1, 0.6],
            "n": [10, 10, 10, 10], "unit": ["votes"] * 4})}

    hook = table_ranks(tables, "venue values", "venue", by="support_cards")
    ranks = hook(None, RunSummary())
    assert list(ranks) == ["venue values, support_cards 0-1", "venue values, support_cards 2-3"]
    assert ranks["venue values, support_cards 2-3"].columns == ["item", "value", "lo", "hi", "n"]
    assert ranks["venue values, support_cards 2-3"]["item"].to_list() == ["street", "rally"]
    flips = ranking_flips("search as all", "venues", ranks["venue values, support_cards 0-1"],
                          ranks["venue values, support_cards 2-3"])
    assert [f.beyond_noise for f in flips] == [True]
    assert list(table_ranks(tables, "venue values", "venue")(None, RunSummary())) == ["venue values"]
