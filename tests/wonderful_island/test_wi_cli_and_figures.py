"""The command line and the report figures for The Wonderful Island."""

import matplotlib

matplotlib.use("Agg")

from sim_cli import run_sim  # noqa: E402

from sim.core.scenario import load_scenario  # noqa: E402
from sim.games.wonderful_island import GAME  # noqa: E402


def test_sim_run_prints_camp_win_rates_endings_and_tables():
    """WI-COMP-2: `sim run wonderful-island --players N` with a bot per camp."""
    proc = run_sim("run", "wonderful-island", "--players", "3", "--games", "400", "--jobs", "1",
                   "--policy", "blue=random", "--policy", "politician=partisan")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for text in ("blue camp wins", "green camp wins", "a politician wins", "ends by the forced count",
                 "rounds played", "someone goes to jail", "venue gains", "politician win rate per seat",
                 "win rate by seat position and camp",
                 "blue=random", "politician=partisan"):
        assert text in out, text


def test_sim_trace_tells_one_game():
    proc = run_sim("trace", "wonderful-island", "--seed", "3", "--index", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "seat 0: camp" in out and "campaign turn 1" in out and "== game ends" in out and "WINNER" in out


def test_report_figures_have_titles_and_labelled_axes():
    scenario = load_scenario(GAME.name, GAME.rules_model, "base")
    figures = GAME.extras["report_figures"](scenario, 300, 1, 1)
    seat_pages = [f for f in figures if any(t.get_text().startswith("Win rate by seat position") for t in f.texts)]
    assert seat_pages and len(figures) == 7 + len(seat_pages)
    seat_cells = [t.get_text() for f in seat_pages for t in f.texts if (t.get_gid() or "").startswith("cell ")]
    assert sum(" (n " in c for c in seat_cells) == 3 * sum(range(3, 9))  # every count, seat and camp
    for fig in figures:
        if not fig.axes:  # a table page (sim.core.pages): its cells, no raw column names
            cells = [t.get_text() for t in fig.texts if (t.get_gid() or "").startswith("cell ")]
            assert cells and not {"lo", "hi", "nan", "decides_games", "vs_rally"} & set(cells)
            continue
        ax = fig.axes[0]
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel() != "" or ax.get_yticklabels()
    card_axis = next(f.axes[0] for f in figures if f.axes and f.axes[0].get_title().startswith("Card values"))
    assert all(t.get_text()[:2].isdigit() and len(t.get_text()) > 3 for t in card_axis.get_yticklabels())


def test_sim_wi_values_prints_paired_tables_and_rejects_bad_input():
    """`sim wi-values` prints the venue and jail/hospital tables, each estimate with its interval and unit (issue 23
    item 13), with seed 0 as every command; an unknown table is a UserError (exit 2)."""
    proc = run_sim("wi-values", "venues", "decisive", "--players", "4", "--games", "300")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "street_sweep" in out and "legislature" in out and "first jail spared" in out
    assert "seed 0" in out and "when_chosen_vs_rally [95 %] (pp)" in out and "support_in_hand" in out
    assert "decisive [95 %] (%)" in out and "bot_chooses (%)" in out and "shape:" not in out  # no raw polars frame
    bad = run_sim("wi-values", "colours")
    assert bad.returncode == 2 and "expected one of venues" in bad.stderr


def test_venue_ranks_for_sim_robust_leave_out_the_iron_vote_venue():
    """sim robust's venue rankings: per support-card bucket, the venues whose gain is in ordinary votes."""
    from sim.core.runner import simulate
    from sim.games.wonderful_island.analysis import SUPPORT_BUCKETS, VENUE_NAMES, venue_ranks

    result = simulate("wonderful-island", "base", 300, seed=5, jobs=1)
    ranks = venue_ranks(result.scenario.rules, result.summary)
    assert len(ranks) == len(SUPPORT_BUCKETS)
    for frame in ranks.values():
        assert frame.columns == ["item", "value", "lo", "hi", "n"]
        assert frame.height == 5 and not any(VENUE_NAMES[1] in item for item in frame["item"])
