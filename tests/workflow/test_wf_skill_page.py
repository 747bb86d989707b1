"""The skill curve in the report (issue 21 item 1, issue 25 item 1): a page of the PDF with its figure, the
headline at every level, the exploitability gaps and the verdicts; page one and the overview state the
strong-play figure beside the scripted one; figures draw Chinese names instead of dropping them."""

from __future__ import annotations

import dataclasses
import io
import warnings

import pytest
from pypdf import PdfReader
from toy_spec import SEARCHING

from sim.core.pages import write_pdf
from sim.core.runner import simulate
from sim.workflow.report import _play_level, _skill_pages, curve_sentence, game_report, overview
from sim.workflow.skill import SCRIPTED, skill, skill_figure, write_skill


@pytest.fixture(scope="module")
def curve(toy_scenarios_module):
    return skill(SEARCHING, "base", 1000, seed=5, ladder=[1, 2], chunk_size=1000)


def _text(path) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(str(path)).pages).split())


def test_page_one_states_the_strong_play_figure_beside_the_scripted_one(curve, tmp_path):
    from sim.workflow.report import _strong_lines

    top = next(v for v in curve.verdicts if v.metric == "win_0")
    scripted = next(p for p in curve.points if p.level == SCRIPTED and p.metric == "win_0")
    assert top.level == "search:rollouts=2" and not top.settled  # two search levels cannot settle at ±1 point
    expected = (f"seat 0 wins {100 * top.value.value:.1f} % [{100 * top.value.lo:.1f}, {100 * top.value.hi:.1f}] "
                f"with every seat searching at rollouts=2 (n=1,000), against {100 * scripted.value.value:.1f} % ")
    lines = " ".join(_strong_lines(SEARCHING, curve))
    assert expected in lines and "scripted on the same games; the curve had not settled (last change" in lines
    brief = curve_sentence(SEARCHING, curve)
    assert brief.startswith("Strong play: with every seat searching at rollouts=2, seat 0 wins ")
    assert "(n=1,000 each; scripted " in brief and "the curve had not settled (largest last move: seat" in brief
    # three seats: page one says it in the one sentence, after where the curve came from
    headline = simulate(SEARCHING, "base", 500, 0, progress=False)
    page = _play_level(SEARCHING, headline, curve, tmp_path)
    assert page[1].startswith(f"Strong play: cached result of `sim skill toy-search --out {tmp_path}`")
    assert page[2] == brief and "scripted bots: smart in every seat" in page[0]
    two = _play_level(SEARCHING, headline, dataclasses.replace(curve, verdicts=[
        v for v in curve.verdicts if v.metric in ("win_0", "win_1")]), tmp_path)
    assert expected in " ".join(two)  # two sides: a line each


def test_page_one_says_a_steady_trend_and_which_side_of_the_last_level_strong_play_lies(curve):
    from sim.workflow.report import _strong_lines

    largest = max((v for v in curve.verdicts if v.metric.startswith("win_")), key=lambda v: abs(v.change[0]))
    trending = dataclasses.replace(curve, verdicts=[
        dataclasses.replace(v, trend=[-0.03, -0.02]) if v is largest else v for v in curve.verdicts])
    said = ("it fell at each of the last 2 steps up the ladder (-3.00, -2.00 pt, each beyond noise): if stronger "
            "play keeps lowering it, its strong-play value is below this level's")
    line = next(x for x in _strong_lines(SEARCHING, trending) if x.startswith(largest.label))
    assert line.endswith(said + ".")  # the line gave the value already
    assert curve_sentence(SEARCHING, trending).endswith(said + ").")  # the largest mover's trend
    assert "steps up the ladder" not in " ".join(_strong_lines(SEARCHING, curve)) + curve_sentence(SEARCHING, curve)


def test_without_a_curve_page_one_says_it_was_not_measured_and_gives_the_command(tmp_path):
    headline = simulate(SEARCHING, "base", 500, 0, progress=False)
    text = " ".join(_play_level(SEARCHING, headline, None, tmp_path / "skill"))
    assert "Strong play has not been measured for this scenario" in text
    assert f"`sim skill toy-search --out {tmp_path / 'skill'}`" in text


def test_a_scenario_without_a_curve_gets_the_command_with_its_scenario(tmp_path):
    """The skill page of a report on another scenario (``sim report --scenario bonus``) names it in the command."""
    path = write_pdf(tmp_path / "none.pdf", "t", "s", [("Skill curve", p) for p in _skill_pages(
        SEARCHING, None, tmp_path / "skill", scenario="bonus")])
    assert f"`sim skill toy-search --scenario bonus --out {tmp_path / 'skill'}`" in _text(path)


def test_the_skill_page_has_the_figure_the_table_the_gaps_and_the_verdicts(curve, tmp_path):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")
        pages = _skill_pages(SEARCHING, curve, tmp_path)
        path = write_pdf(tmp_path / "skill.pdf", "t", "s", [("Skill curve", p) for p in pages])
    text = _text(path)
    assert len(pages) == 2 and "skill curve" in text  # the figure, then the tables on one page
    for needle in ("Strong play: the skill curve (tables)", "search:rollouts=1", "1,000", "within ±1.0",
                   "seat 0 wins: not settled: last change", "Exploitability gaps", "seat 0 searches",
                   "deviator: search:rollouts=8"):
        assert needle in text, needle
    point = next(p for p in curve.points if p.level == "search:rollouts=1" and p.metric == "win_1")
    assert f"{100 * point.value.value:.1f} % [{100 * point.value.lo:.1f}, {100 * point.value.hi:.1f}]" in text


def test_the_gaps_say_on_how_many_games_they_were_played(curve, tmp_path):
    """``--gap-games 250`` on a 10,000-game level: the gaps' sentence gives 250, not the level's count."""
    few = dataclasses.replace(curve, gaps=[dataclasses.replace(g, n=250) for g in curve.gaps])
    path = write_pdf(tmp_path / "gaps.pdf", "t", "s", [("Skill curve", p) for p in _skill_pages(SEARCHING, few, tmp_path)])
    assert "the level itself (on the level's first 250 games)" in _text(path)


def test_the_report_reads_the_cached_curves_from_its_skill_folder(curve, tmp_path, monkeypatch):
    """The scenario's curve on page one and its pages; a variant's (``sim skill GAME --scenario bonus``) on
    pages of its own after those, titled by the variant, its note giving the command with ``--scenario``."""
    write_skill(curve, tmp_path / "skill")
    write_skill(skill(SEARCHING, "bonus", 400, seed=5, ladder=[1], chunk_size=400, gaps=False), tmp_path / "skill")
    rep = game_report(SEARCHING, tmp_path, n_games=600, analysis_games=0, ladder_games=0, robust_games=0)
    assert rep.curve == curve and rep.pages[-4:] == ["Skill curve"] * 2 + ["Skill curve: bonus"] * 2
    assert any("with every seat searching at rollouts=2" in line for line in rep.verdict)
    text = _text(rep.path)
    assert "Strong play: the skill curve, scenario variant bonus (tables)" in text
    assert f"`sim skill toy-search --scenario bonus --out {tmp_path / 'skill'}`" in text
    text = _text(overview([rep], tmp_path, 1.0))
    assert "Strong play: with every seat searching at rollouts=2" in text and "Strong play: cached" not in text


def test_the_report_says_the_next_level_is_partly_played_with_its_win_rates_so_far(curve, tmp_path):
    """A run of the level after the curve's last has kept some games: the note says which level, how many
    games, each win rate on them with its paired change; page one's single sentence says it is partly played."""
    from sim.workflow.report import _curve_note
    from sim.workflow.skill import InPlay, Point

    win = next(p for p in curve.points if p.metric == "win_0" and p.level == "search:rollouts=2")
    going = InPlay("search:rollouts=4", 300, 1000, [dataclasses.replace(win, level="search:rollouts=4",
                                                                        change=(0.01, -0.02, 0.04)),
                                                    Point("search:rollouts=4", "rounds", "rounds", win.value, None)],
                   str(tmp_path / "levels" / "toy-search-0123"))
    with_it = dataclasses.replace(curve, in_play=going)
    note = _curve_note(SEARCHING, with_it, tmp_path)
    assert note.startswith(_curve_note(SEARCHING, curve, tmp_path))
    assert note.endswith(
        f" The next level, rollouts=4, is partly played: 300 of 1,000 games so far (kept in {going.folder}), on which "
        f"seat 0 wins {100 * win.value.value:.1f} % [{100 * win.value.lo:.1f}, {100 * win.value.hi:.1f}], change "
        "from rollouts=2 on the same games +1.0 points [-2.0, +4.0]. Until it is whole, the curve's verdicts stand.")
    headline = simulate(SEARCHING, "base", 500, 0, progress=False)
    brief = _play_level(SEARCHING, headline, with_it, tmp_path, brief=True)
    assert brief[-1].endswith("The next level, rollouts=4, is partly played (300 of 1,000 games so far).")
    full = _play_level(SEARCHING, headline, with_it, tmp_path)
    assert " ".join(full).count("is partly played") == 1  # the note says it; the sentence after it does not


def test_page_one_gives_strong_play_at_each_player_count_measured_with_players(toy_scenarios_module, tmp_path):
    """``sim skill GAME -p P`` cached in the skill folder: page one (and the overview's block) says strong play
    at that count in a sentence of its own; a curve played on other rules than today's is not shown."""
    three = skill(SEARCHING, "base", 400, seed=5, ladder=[1], chunk_size=400, gaps=False, players=3)
    four = skill(SEARCHING, "base", 400, seed=5, ladder=[1], chunk_size=400, gaps=False, players=4)
    write_skill(three, tmp_path)
    write_skill(dataclasses.replace(four, rules="0" * 16), tmp_path)  # stale: another table at 4 players
    headline = simulate(SEARCHING, "base", 500, 0, progress=False)
    sentence = curve_sentence(SEARCHING, three, alone=False).removeprefix("Strong play: ")
    assert sentence.startswith("with every seat searching at rollouts=1, seat 0 wins ")
    for brief in (False, True):
        lines = _play_level(SEARCHING, headline, None, tmp_path, brief=brief)
        assert lines[-1] == f"At 3 players (`sim skill toy-search -p 3 --out {tmp_path}`): " + sentence
        assert not any(line.startswith("At 4 players") for line in lines)


@pytest.mark.parametrize("make", ["skill", "sweep"])
def test_figures_draw_chinese_names_without_a_missing_glyph(curve, make):
    import matplotlib.pyplot as plt
    import polars as pl

    from sim.workflow.sweep import sweep_figures

    if make == "skill":
        fig = skill_figure(dataclasses.replace(curve, title="Ocracoke 迷霧島"))
    else:
        frame = pl.DataFrame({"first_bonus": [0, 1], "metric": ["win_0"] * 2, "label": ["seat 0 wins"] * 2,
                              "kind": ["rate"] * 2, "value": [0.5, 0.6], "lo": [0.4, 0.5], "hi": [0.6, 0.7]})
        fig = sweep_figures(frame, ["first_bonus"], "Ocracoke 迷霧島: sweep of first_bonus")[0]
    assert "迷霧島" in (fig._suptitle.get_text() if fig._suptitle else fig.axes[0].get_title())
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")
        fig.savefig(io.BytesIO(), format="png", dpi=30)
    plt.close(fig)
