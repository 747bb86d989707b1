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
