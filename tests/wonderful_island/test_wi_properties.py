"""Invariants over whole games: conservation, no negative votes, subpoenas and jail, every game ends in time."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from wi_helpers import PARTISAN, RANDOM, rules

from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island.analysis import rows_to_chunk

RULES = {p: rules(f"players={p}") for p in range(3, 9)}


def _check(r, rows):
    chunk = rows_to_chunk(rows, np.zeros((6, 3, 3), dtype=np.int64), 0).games
    n = r.players
    votes = np.stack([chunk[f"seat{p}_votes"] for p in range(n)])
    iron = np.stack([chunk[f"seat{p}_iron"] for p in range(n)])
    subp = np.stack([chunk[f"seat{p}_subpoenas"] for p in range(n)])
    jailed = np.stack([chunk[f"seat{p}_jailed"] for p in range(n)])
    won = np.stack([chunk[f"seat{p}_won"] for p in range(n)])
    camp = np.stack([chunk[f"seat{p}_camp"] for p in range(n)])
    # vote tokens in the pool + held + out of the game are conserved (WI-SETTLE-3, WI-IRON-1, WI-JAIL-1)
    assert (chunk["pool_left"] + votes.sum(0) + chunk["votes_removed"] == r.pool()).all()
    # iron tokens: left in the box + held + gone with a jailed player = all of them, exactly (WI-COMP-1,
    # WI-IRON-1, WI-JAIL-1); every token taken removed one plain vote from the game
    assert (chunk["iron_left"] + iron.sum(0) + chunk["iron_removed"] == r.iron_tokens).all()
    assert (chunk["iron_left"] >= 0).all() and (chunk["iron_left"] < r.iron_tokens).any()
    assert (r.iron_tokens - chunk["iron_left"] <= chunk["votes_removed"]).all()
    # no negative votes (WI-SETTLE-5); subpoenas at most 3 and jail exactly at 3 (WI-SUBP-2); jailed hold nothing
    assert (votes >= 0).all() and (iron >= 0).all() and (chunk["pool_left"] >= 0).all()
    assert (subp <= r.jail_subpoenas).all() and ((subp == r.jail_subpoenas) == (jailed == 1)).all()
    assert (votes[jailed == 1] == 0).all() and (chunk["jails"] == jailed.sum(0)).all()
    # every game ends, by the last round (WI-ROUND-1, WI-END-4)
    assert (chunk["end_reason"] >= 1).all() and (chunk["rounds"] >= 1).all() and (chunk["rounds"] <= r.rounds()).all()
    assert (won.sum(0) >= 1).all()
    # a camp win takes the whole camp; a politician's win is its own
    for c, col in ((0, "win_blue"), (1, "win_green"), (2, "win_politician")):
        assert (chunk[col] == ((won == 1) & (camp == c)).any(0)).all()
    for c in (0, 1):
        member = camp == c
        camp_won = ((won == 1) & member).any(0)
        assert (won[:, camp_won][member[:, camp_won]] == 1).all()
    elected = chunk["end_reason"] == 1
    assert (chunk["win_politician"][elected] == 0).all()
    assert (chunk["win_blue"][elected] + chunk["win_green"][elected] == 1).all()


def test_invariants_over_shared_batches(batches):
    """WI-SETTLE-3, WI-SETTLE-5, WI-SUBP-2, WI-JAIL-1, WI-ROUND-1: the invariants on 3, 6 and 8 players, both bot sets."""
    for (_, _), (r, rows) in batches.items():
        _check(r, rows)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**40), bots=st.sampled_from(["random", "partisan", "mixed"]))
def test_invariants_hold_for_any_seed(players, seed, bots):
    """WI-SETTLE-5, WI-SUBP-2, WI-END-4: property test over seeds, player counts and bot mixes."""
    policy = {"random": RANDOM, "partisan": PARTISAN, "mixed": GAME.bot_numbers({"blue": "random"})}[bots]
    r = RULES[players]
    rows, _, _ = engine.run_batch(r, policy, seed, seed % 1000, 60)
    _check(r, rows)


def test_iron_conserved_when_the_tokens_run_out():
    """WI-COMP-1, WI-IRON-1: with 4 iron tokens the box runs dry in most games; the count stays exact and no seat
    holds more than the box had."""
    r = rules("players=6", "iron_tokens=4")
    rows, _, _ = engine.run_batch(r, PARTISAN, 5, 0, 400)
    chunk = rows_to_chunk(rows, np.zeros((6, 3, 3), dtype=np.int64), 0).games
    iron = np.stack([chunk[f"seat{p}_iron"] for p in range(6)])
    assert (chunk["iron_left"] == 0).mean() > 0.5
    assert (chunk["iron_left"] + iron.sum(0) + chunk["iron_removed"] == 4).all()
    _check(r, rows)


def test_games_are_reproducible_and_independent_of_batching():
    """Game i depends on (seed, i) alone."""
    r = RULES[6]
    whole = engine.run_batch(r, PARTISAN, 4, 10, 40)[0]
    parts = np.vstack([engine.run_batch(r, PARTISAN, 4, 10 + k, 1)[0] for k in range(40)])
    assert np.array_equal(whole, parts)
