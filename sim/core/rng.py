"""Per-game random streams for compiled engines.

Game ``i`` of a run with seed ``s`` draws from its own xoshiro256** generator whose
256-bit state is derived from ``(s, i)`` alone by SplitMix64 hashing. Nothing depends on
the chunk a game falls in, the number of jobs or the backend, so a run is bit-identical
however it is split, and any single game can be replayed on its own.

All arithmetic is on ``np.uint64`` so numba keeps it in wrapping 64-bit integers (mixing
in a Python ``int`` would silently promote to float64).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(inline="always", cache=True)
def _mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of one 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(inline="always", cache=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_stream(state, seed, index):
    """Fill ``state`` (uint64[4]) with the stream of game ``index`` in the run ``seed``."""
    key = _mix64(np.uint64(seed) + _GOLDEN)
    z = _mix64(key ^ (np.uint64(index) * _STREAM_SALT + _GOLDEN))
    for k in range(4):
        z = z + _GOLDEN
        state[k] = _mix64(z)


@njit(cache=True)
def game_stream(seed, index):
    """A fresh xoshiro256** state for game ``index`` of the run ``seed``."""
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, seed, index)
    return state


@njit(inline="always", cache=True)
def next_u64(state):
    """Next 64 random bits (xoshiro256**)."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(inline="always", cache=True)
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always", cache=True)
def randbelow(state, n):
    """An unbiased integer in [0, n) for n >= 1 (rejection of the short last block)."""
    un = np.uint64(n)
    threshold = (np.uint64(0) - un) % un
    while True:
        r = next_u64(state)
        if r >= threshold:
            return np.int64(r % un)


@njit(inline="always", cache=True)
def below(state, n):
    """An unbiased integer in [0, n) for 1 <= n < 2**32, cheaper than ``randbelow`` (other draws):
    Lemire's multiply-shift on the top 32 bits of one draw, with a division only in the rare case
    that the draw may have to be rejected."""
    un = np.uint64(n)
    m = (next_u64(state) >> np.uint64(32)) * un
    if m & _LOW32 < un:
        floor = (np.uint64(1 << 32) - un) % un
        while m & _LOW32 < floor:
            m = (next_u64(state) >> np.uint64(32)) * un
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def shuffle(state, arr):
    """Fisher-Yates shuffle of a 1-d array in place."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = randbelow(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
