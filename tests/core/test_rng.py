"""Per-game random streams depend on (seed, index) alone and are uniform."""

import numpy as np
from scipy import stats as sps

from sim.core.rng import below, game_stream, next_u64, randbelow, shuffle, uniform


def draws(seed, index, k=8):
    state = game_stream(seed, index)
    return [int(next_u64(state)) for _ in range(k)]


def test_same_seed_and_index_give_the_same_stream():
    assert draws(7, 123) == draws(7, 123)


def test_neighbouring_games_and_seeds_differ():
    assert draws(7, 123) != draws(7, 124)
    assert draws(7, 123) != draws(8, 123)
    assert len({draws(0, i)[0] for i in range(2000)}) == 2000


def test_randbelow_is_uniform():
    state = game_stream(1, 0)
    counts = np.bincount([randbelow(state, 6) for _ in range(60_000)], minlength=6)
    assert counts.size == 6
    assert sps.chisquare(counts).pvalue > 1e-4


def test_below_is_uniform_for_small_and_large_bounds():
    state = game_stream(1, 1)
    counts = np.bincount([below(state, 7) for _ in range(70_000)], minlength=7)
    assert counts.size == 7
    assert sps.chisquare(counts).pvalue > 1e-4
    big = (1 << 31) + 12345  # a bound where about one draw in two is rejected
    values = np.array([below(state, big) for _ in range(20_000)])
    assert values.min() >= 0 and values.max() < big
    assert sps.kstest(values / big, "uniform").pvalue > 1e-4


def test_uniform_is_in_unit_interval_with_mean_one_half():
    state = game_stream(2, 5)
    values = np.array([uniform(state) for _ in range(20_000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.01


def test_shuffle_is_a_permutation_and_depends_on_the_stream():
    a = np.arange(11)
    b = np.arange(11)
    shuffle(game_stream(3, 1), a)
    shuffle(game_stream(3, 2), b)
    assert sorted(a) == list(range(11))
    assert not np.array_equal(a, b)
