"""The balance PDF (pages and text read back with pypdf) and the workflow's commands."""

from __future__ import annotations

import warnings

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from sim.core.errors import UserError
from sim.core.pages import page_sizes_pt
from sim.workflow.report import report


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, toy_scenarios_module):
    from toy_spec import GAME

    out = tmp_path_factory.mktemp("reports")
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")  # a box instead of a name fails
        reports, overview, _ = report([GAME], out, n_games=4000, analysis_games=2000, ladder_games=1000, seed=3)
    return reports[0], overview


def _text(path, page):
    """A page's text with its line breaks as spaces (text is wrapped to the page)."""
    return " ".join(PdfReader(str(path)).pages[page].extract_text().split())


def test_report_has_the_expected_pages(rendered):
    rep, _ = rendered
    assert rep.pages == ["Verdict", "Cover", "Assumed values", "Metrics", "Game plot: Winning total", "Scenario variants",
                         "Sensitivity tornado", "Skill ladder", "Skill ladder", "Stronger play", "Skill curve"]
    reader = PdfReader(str(rep.path))
    assert len(reader.pages) == len(rep.pages)
    assert page_sizes_pt(rep.path) == [(595, 841)] * len(rep.pages)  # A4 portrait, every page
    assert reader.metadata.title == "Toy dice duel balance report"
    assert [o.title for o in reader.outline] == list(dict.fromkeys(rep.pages))  # a bookmark per section
    assert f"page {len(rep.pages)} of {len(rep.pages)}" in reader.pages[-1].extract_text()


def test_page_one_is_the_verdict_in_sentences(rendered):
    rep, _ = rendered
    page = _text(rep.path, 0)
    for needle in ("Toy dice duel: the verdict", "Is it balanced?", "At 2 players the seats are", "an equal share is",
                   "The gap between the best and the worst seat is", "Player counts covered: 2, 3, 4",
                   "Play level", "scripted bots", "strong play cannot be measured", "Calibrated, not found",
                   "The answer depends most on", "1. first_bonus = 0: moves seat 0 wins by up to"):
        assert needle in page, needle
    assert rep.verdict and "%" in page and "[" in page


def test_cover_names_scenario_players_bots_counts_seed_version_and_date(rendered):
    rep, _ = rendered
    cover = _text(rep.path, 1)
    for needle in ("Toy dice duel: balance report", "Scenario: base", "Player counts of the game: 2, 3, 4",
                   "naive, smart", "4,000 games", "2,000 paired games", "1,000 games per matchup", "Seed: 3",
                   "Toolkit version:", "Date: 20"):
        assert needle in cover, needle


def test_assumptions_and_metrics_pages_list_values_with_intervals(rendered):
    rep, _ = rendered
    assumed = _text(rep.path, 2)
    assert "Assumed values in force (1)" in assumed and "first_bonus" in assumed and "no head start" in assumed
    metrics = _text(rep.path, 3)
    assert "* seat 0 wins" in metrics and "winning total" in metrics and "4,000" in metrics
    assert "%" in metrics and "[" in metrics


def test_analysis_pages_show_variants_tornado_and_ladder(rendered):
    rep, _ = rendered
    variants = _text(rep.path, 5)
    assert "Scenario variants against the base (2,000 paired games each)" in variants
    assert "first_bonus: 0 -> 1" in variants and "seat 0 wins" in variants and "yes" in variants
    assert "sensitivity of seat 0 wins" in _text(rep.path, 6)
    assert "skill versus luck" in _text(rep.path, 7) and "Elo" in _text(rep.path, 7)
    assert "equal share" in _text(rep.path, 8)


def test_a_game_without_a_search_bot_gets_a_note_on_the_stronger_play_page(rendered):
    rep, _ = rendered
    page = _text(rep.path, 9)
    assert "Does it hold under stronger play?" in page and "has no search bot yet" in page
    assert rep.robust is None
    assert "Strong play: the skill curve" in _text(rep.path, 10) and "has no search bot yet" in _text(rep.path, 10)


def test_overview_page_lists_each_game(rendered):
    rep, overview = rendered
    reader = PdfReader(str(overview))
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Balance overview" in text and "Toy dice duel" in text and "seat 0 wins" in text
    assert "an equal share is" in text and "the best bot" in text and "luck alone" in text
    assert "Elo" not in text and "Is it balanced?" not in text  # plain words


@pytest.fixture
def run(cli_app, registered, monkeypatch, tmp_path):
    from sim.workflow import drift

    monkeypatch.setattr(drift, "baseline_dir", lambda: tmp_path / "baselines")
    runner = CliRunner()
    return lambda *args: runner.invoke(cli_app, [str(a) for a in args])


def test_cli_compare_prints_the_table_and_the_narrowing(run):
    result = run("compare", "toy-dice", "--variant", "bonus", "--games", 3000, "--jobs", 1)
    assert result.exit_code == 0, result.output
    assert "Holm over metrics" in result.output and "YES" in result.output
    assert "pairing narrowed the intervals" in result.output


def test_cli_compare_without_a_variant_is_a_user_error(run):
    result = run("compare", "toy-dice")
    assert isinstance(result.exception, UserError)


def test_cli_sweep_tune_sensitivity_ladder(run, tmp_path):
    out = tmp_path / "out"
    sweep = run("sweep", "toy-dice", "--param", "first_bonus", "--range", "0:2", "--games", 2000, "--jobs", 1,
                "--out", out)
    assert sweep.exit_code == 0, sweep.output
    assert (out / "toy-dice-sweep-first_bonus.csv").is_file() and (out / "toy-dice-sweep-first_bonus.png").is_file()
    tune = run("tune", "toy-dice", "--param", "first_bonus", "--target", "win_1=30%", "--jobs", 1)
    assert tune.exit_code == 0 and "95 % interval" in tune.output
    assert "first_bonus is a whole number: use" in tune.output
    sens = run("sensitivity", "toy-dice", "--games", 2000, "--jobs", 1, "--out", out)
    assert sens.exit_code == 0 and (out / "toy-dice-tornado.png").is_file()
    lad = run("ladder", "toy-dice", "--games", 1000, "--jobs", 1, "--out", out)
    assert lad.exit_code == 0 and "Elo" in lad.output


def test_cli_drift_update_then_check(run):
    assert run("drift", "update", "--jobs", 1).exit_code == 0
    check = run("drift", "check", "--jobs", 1)
    assert check.exit_code == 0, check.output
    assert "within noise" in check.output
