"""Win rate by seat position and camp (issue 23 item 10): exact counts on a hand-built frame, and the table."""

import numpy as np
import polars as pl
import pytest

from sim.core import stats
from sim.games.wonderful_island.analysis import seat_camp_counts, seat_table

# four games at 3 players; camps 0 blue, 1 green, 2 politician
FRAME = pl.DataFrame({
    "seat0_camp": [0, 0, 2, 1], "seat0_won": [1, 0, 0, 1],
    "seat1_camp": [1, 2, 0, 0], "seat1_won": [0, 1, 1, 0],
    "seat2_camp": [2, 1, 1, 2], "seat2_won": [0, 0, 0, 0],
    "seat3_camp": [-1, -1, -1, -1], "seat3_won": [-1, -1, -1, -1],  # not seated: never read at 3 players
})


def test_counts_by_seat_and_camp_are_exact():
    n, w = seat_camp_counts(FRAME, 3)
    assert n[:3].tolist() == [[2, 1, 1], [2, 1, 1], [0, 2, 2]]
    assert w[:3].tolist() == [[1, 1, 0], [1, 0, 1], [0, 0, 0]]
    assert n[3:].sum() == 0 and n.sum() == 3 * FRAME.height  # one player-game per seat and game


def test_table_gives_rate_interval_and_n_per_seat_and_camp():
    table = seat_table(*seat_camp_counts(FRAME, 3), players=3)
    assert table.height == 9 and table.columns == ["seat", "camp", "value", "lo", "hi", "n"]
    row = table.filter((pl.col("seat") == 1) & (pl.col("camp") == "blue")).row(0, named=True)
    expected = stats.rate(1, 2)
    assert (row["value"], row["lo"], row["hi"], row["n"]) == (0.5, expected.lo, expected.hi, 2)
    empty = table.filter((pl.col("seat") == 2) & (pl.col("camp") == "blue")).row(0, named=True)
    assert empty["n"] == 0


@pytest.mark.parametrize("players", [3, 6])
def test_run_table_adds_up_to_the_camp_totals(players):
    """The seat tally of a played batch: per camp, the seats' player-games and wins add up to the camp tally."""
    from sim.core.runner import simulate
    from sim.games.wonderful_island import GAME
    from sim.games.wonderful_island.analysis import SEAT_RATES

    result = simulate(GAME, "base", 300, 3, 1, players=players, progress=False)
    t = result.summary.tallies
    n, w = t["seat_camp_n"].reshape(-1, 3), t["seat_camp_w"].reshape(-1, 3)
    assert n.sum(0).tolist() == t["camp_n"].tolist() and w.sum(0).tolist() == t["camp_w"].tolist()
    assert (n[:players].sum(1) == 300).all() and n[players:].sum() == 0
    seats = result.tables()[SEAT_RATES]
    assert seats.height == 3 * players and seats["n"].sum() == 300 * players
    assert np.allclose(seats["value"], (w[:players] / np.maximum(n[:players], 1)).ravel())
