"""scripts/in_search_probes.py's offline rule: a budget's choice is the search's (most wins on a block of worlds,
the hunter's own choice unless another wins strictly more) and is judged on the other worlds only."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

PATH = Path(__file__).resolve().parents[2] / "scripts" / "in_search_probes.py"


@pytest.fixture(scope="module")
def probes():
    spec = importlib.util.spec_from_file_location("in_search_probes", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_budgets_go_up_to_half_the_worlds(probes):
    assert probes.budgets_of(8192) == (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
    assert probes.budgets_of(64) == (16, 32)


def test_a_candidate_winning_every_world_is_worth_a_hundred_points_at_every_budget(probes):
    outcome = np.zeros((3, 64), dtype=np.int64)
    outcome[1] = 1
    assert probes.budget_values(outcome, 0, (16, 32)).tolist() == [100.0, 100.0]


def test_ties_keep_the_hunters_choice(probes):
    outcome = np.ones((3, 64), dtype=np.int64)
    outcome[:, ::3] = 0
    assert probes.budget_values(outcome, 2, (16, 32)).tolist() == [0.0, 0.0]


def test_a_choice_is_judged_on_the_worlds_it_was_not_made_on(probes):
    """At 16 of 64 worlds the blocks are worlds j = b mod 4. Candidate 2 wins block 0 alone and is chosen there,
    then judged on blocks 1-3, where the hunter's choice (0) wins block 1 and it wins none: -100 * 16/48 points in
    one block of four; the hunter's choice is kept in the other three (worth 0)."""
    outcome = np.zeros((3, 64), dtype=np.int64)
    outcome[2, 0::4] = 1
    outcome[0, 1::4] = 1
    value = probes.budget_values(outcome, 0, (16,))[0]
    assert value == pytest.approx(100 * (0 - 16 / 48) / 4)


def test_the_choosing_half_is_spread_over_the_worlds_and_judged_on_the_other(probes):
    outcome = np.zeros((2, 16), dtype=np.int64)
    outcome[1, 1::2] = 1  # candidate 1 wins only the odd worlds
    (x0, judge0), (x1, judge1) = probes._spread_halves(outcome)
    assert x0.sum() == 0 and judge0.tolist() == [0.0, 1.0]  # even worlds choose, odd ones judge
    assert x1[1].tolist() == [1] * 8 and judge1.tolist() == [0.0, 0.0]
    spread = probes._spread_halves(np.arange(32)[None, :])[0][0][0]
    assert spread[:4].tolist() == [0, 16, 8, 24]  # any first B of the half lie spread over it


def test_halving_keeps_the_best_and_spends_flats_rollouts(probes):
    x = np.zeros((5, 64), dtype=np.int64)
    x[3, ::2] = 1  # candidate 3 wins half the worlds, the others none
    assert probes.flat(x, 0, 8) == (3, 40)
    choice, spent = probes.halving(x, 0, 8)
    assert choice == 3 and spent <= 40
    assert probes.halving(np.zeros((5, 64), dtype=np.int64), 2, 8)[0] == 2  # ties keep the hunter's choice


def test_adaptive_stops_once_the_leader_is_clear_and_at_the_cap(probes):
    x = np.zeros((3, 64), dtype=np.int64)
    x[1] = 1
    assert probes.adaptive(x, 0, 4, 64, 1.5) == (1, 12)  # clear at the start
    noisy = np.zeros((3, 64), dtype=np.int64)
    noisy[1, ::4] = 1
    noisy[2, 1::4] = 1  # two candidates equally good: doubles to the cap
    assert probes.adaptive(noisy, 0, 4, 64, 1.5) == (1, 3 * 64)
