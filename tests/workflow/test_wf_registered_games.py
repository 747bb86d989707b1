"""The workflow on every registered game (tiny game counts): the report renders with the game's
own plots, and a paired comparison of the base with itself changes nothing."""

from __future__ import annotations

import os
import warnings

import pytest
from pypdf import PdfReader

from sim.core.pages import page_sizes_pt
from sim.core.registry import all_games
from sim.workflow.compare import compare
from sim.workflow.report import game_report

GAMES = sorted(all_games())


@pytest.fixture(autouse=True)
def real_scenarios(monkeypatch):
    """These tests use the repository's scenarios, not the toy game's."""
    monkeypatch.delenv("SIM_SCENARIOS", raising=False)
    assert "SIM_SCENARIOS" not in os.environ


@pytest.mark.parametrize("name", GAMES)
def test_report_renders_for_every_registered_game(name, tmp_path):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")  # a name drawn as boxes fails
        rep = game_report(name, tmp_path, n_games=1000, analysis_games=300, ladder_games=100, seed=1, jobs=1,
                          robust_games=40)
    pages = PdfReader(str(rep.path)).pages
    assert len(pages) == len(rep.pages)
    assert page_sizes_pt(rep.path) == [(595, 841)] * len(pages)  # A4 portrait, every page
    assert rep.pages[0] == "Verdict" and "Is it balanced?" in pages[0].extract_text()
    rest = [p for p in rep.pages if p != "Verdict"]
    assert rest[:3] == ["Cover", "Assumed values", "Metrics"] or rest[:2] == ["Cover", "Assumed values"]
    assert "Sensitivity tornado" in rep.pages and "Skill ladder" in rep.pages and "Stronger play" in rep.pages
    assert rep.pages[-1] == "Skill curve"  # the cached curve, or how to measure it
    assert (rep.robust is None) == (all_games()[name].search is None)  # played when the game has a search bot
    if "report_figures" in all_games()[name].extras:
        assert any(p.startswith("Game plot") for p in rep.pages)
    cover = pages[rep.pages.index("Cover")].extract_text()
    assert "balance report" in cover and "Seed: 1" in cover


@pytest.mark.parametrize("name", GAMES)
def test_base_against_itself_changes_nothing(name):
    result = compare(name, "base", "base", n_games=300, seed=2)
    assert all(not r.beyond_noise for r in result.rows)
    assert all(r.difference is None or r.difference.diff == 0 for r in result.rows)
