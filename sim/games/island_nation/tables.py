"""The board and the rules packed into the few arrays the compiled engine reads.

``Tables`` holds what depends on the map (and the shot range): road steps, shot lines, road
distances, the evac points, and the bitset tables of the public belief (IN-BELIEF-1):

* ``trans[k, v, d]``: the two 64-bit words of the set of points reached by one road step in
  direction ``d`` from the points of byte ``k`` of a set whose byte ``k`` equals ``v`` (the six
  directions side by side: the bots take the image of one set in several directions in a row). The image
  of a whole set is the OR of 16 look-ups, so a move updates the belief in constant time.
* ``linemask[p, d]``: the points a shot from ``p`` in direction ``d`` covers (roads ignored);
  ``starmask[p]``: the points of all six lines.
* ``ballmask[p, r]``: the points within ``r`` road steps of ``p`` (r = 0..3).
* ``toward[p, q]``: the first road direction from p that shortens the road distance to q (-1
  if p == q or q is out of reach).
* ``zonemask[p, r]``: every point a hunter within ``r`` road steps of ``p`` weighs: the lines and
  neighbours of each such point, and the points within 3 steps of each such evac point.
* ``numbered_dist[p, i]``: road distance from p to the i-th numbered point.
* ``roadmask[p]``: the points one road step from p.
* ``ball_rank[p, q]``: the place of q in ``ball_points[p]`` (points by road distance from p).
* ``weighers[s]``: the points whose hunter score weighs point s: s is on one of their shot lines or
  next to them, or they are an evac point within 3 road steps of s (lines and roads run both ways).
* ``log2_size[s]``: log2 of a set size s (of 1 for the empty set), for the ghost frogman.
* ``hunter_view[p]``: the points one road step from p (two words) and the points on its shot lines
  (two words) side by side in one 32-byte row, what the hunter weighs a goal candidate by.
* ``road_from[q, d]``: the point whose road step in direction d leads to q (-1 if none): a road
  step in one direction never leads two points to the same one.
* ``steps_out[d]``: the points with a road step in direction d; ``steps_into_evac[d]``: the
  points whose road step in direction d leads to an evac point.

``Params`` holds the rule values of one run as plain integers. Directions are 0..5 inside the
engine and announced as 1..6.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sim.core.errors import ScenarioError
from sim.games.island_nation.rules import EFFECTS, LAST_ROUND, IslandNationRules
from sim.games.island_nation.state import MAX_POINTS

MAX_RADIUS = 3
DIST_CAP = 127  # road distances are kept as int8 (small tables stay in the L1 cache): at most 127 on 128 points

Tables = namedtuple("Tables", [
    "n", "road_step", "line", "road_dist", "evac_dist", "is_evac", "evac_points", "numbered_points",
    "trans", "linemask", "starmask", "ballmask", "zonemask", "ball_points", "ball_count", "evac_mask", "numbered_mask",
    "log2_size", "toward", "numbered_dist", "ball_rank", "weighers", "roadmask", "hunter_view",
    "road_from", "steps_out", "steps_into_evac",
])

Params = namedtuple("Params", [
    "n_art", "frogman_hp", "frogman_bullets", "artillery_hp", "artillery_bullets", "ap",
    "evac_from", "evac_to", "bottle", "mines", "last_round",
    "card_kind", "card_effect", "card_amount", "deck", "ab_effect", "ab_amount", "ab_uses",
])


def _set_words(points) -> np.ndarray:
    words = np.zeros(2, dtype=np.uint64)
    for p in points:
        words[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return words


def pack_board(board, shot_range: int = 3) -> Tables:
    """Arrays of one board for the engine; the board must have at most 128 points."""
    n = len(board.labels)
    if n > MAX_POINTS:
        raise ScenarioError(board.name, "points", f"at most {MAX_POINTS} points (two 64-bit words of belief)", n)
    road_step = np.ascontiguousarray(board.road_step, dtype=np.int8)
    line = np.ascontiguousarray(board.line[:, :, :shot_range], dtype=np.int8)
    road_dist = np.ascontiguousarray(np.minimum(board.road_dist, DIST_CAP), dtype=np.int8)
    is_evac = np.asarray(board.is_evac, dtype=np.int8)
    evac_points = np.flatnonzero(is_evac).astype(np.int64)
    numbered = np.flatnonzero(is_evac == 0).astype(np.int64)

    trans = np.zeros((16, 256, 6, 2), dtype=np.uint64)
    for d in range(6):
        for p in range(n):
            q = road_step[p, d]
            if q < 0:
                continue
            k, b = divmod(p, 8)
            values = np.arange(256)
            hit = (values >> b) & 1 == 1
            trans[k, hit, d, q >> 6] |= np.uint64(1) << np.uint64(q & 63)

    linemask = np.zeros((n, 6, 2), dtype=np.uint64)
    for p in range(n):
        for d in range(6):
            linemask[p, d] = _set_words([c for c in line[p, d] if c >= 0])

    ballmask = np.zeros((n, MAX_RADIUS + 1, 2), dtype=np.uint64)
    ball_points = np.full((n, n), -1, dtype=np.int8)
    ball_count = np.zeros((n, MAX_RADIUS + 1), dtype=np.int64)
    for p in range(n):
        order = np.argsort(road_dist[p], kind="stable")
        ball_points[p, :] = order
        for r in range(MAX_RADIUS + 1):
            inside = np.flatnonzero(road_dist[p] <= r)
            ballmask[p, r] = _set_words(inside)
            ball_count[p, r] = inside.size
    starmask = np.bitwise_or.reduce(linemask, axis=1)
    road_from = np.full((n, 6), -1, dtype=np.int8)
    for d in range(6):
        for p in np.flatnonzero(road_step[:, d] >= 0):
            road_from[road_step[p, d], d] = p
    return Tables(n, road_step, line, road_dist, np.asarray(board.evac_dist, dtype=np.int64), is_evac,
                  evac_points, numbered, trans, linemask, starmask, ballmask,
                  _zones(ballmask, starmask, ball_points, ball_count, is_evac), ball_points, ball_count,
                  _set_words(evac_points), _set_words(numbered),
                  np.log2(np.maximum(1, np.arange(MAX_POINTS + 1))).astype(np.float64),
                  _toward(road_step, road_dist),
                  np.ascontiguousarray(road_dist[:, numbered]),
                  np.argsort(ball_points, axis=1, kind="stable").astype(np.int8),
                  starmask | ballmask[:, 1] | (ballmask[:, 3] & _set_words(evac_points)),
                  np.array([_set_words([q for q in road_step[p] if q >= 0]) for p in range(n)]).reshape(n, 2),
                  _aligned(np.concatenate([ballmask[:, 1], starmask], axis=1)),
                  road_from,
                  np.array([_set_words(np.flatnonzero(road_step[:, d] >= 0)) for d in range(6)]),
                  np.array([_set_words(np.flatnonzero((road_step[:, d] >= 0) & (is_evac[road_step[:, d]] == 1)))
                            for d in range(6)]))


def _aligned(rows: np.ndarray, align: int = 32) -> np.ndarray:
    """A copy of ``rows`` starting on an ``align``-byte boundary, so that no row of ``align``
    bytes straddles two cache lines."""
    raw = np.zeros(rows.nbytes + align, dtype=np.uint8)
    start = -raw.ctypes.data % align
    out = raw[start:start + rows.nbytes].view(rows.dtype).reshape(rows.shape)
    out[...] = rows
    return out


def _zones(ballmask, starmask, ball_points, ball_count, is_evac) -> np.ndarray:
    n = ballmask.shape[0]
    weighed = starmask | ballmask[:, 1]
    weighed[is_evac == 1] |= ballmask[is_evac == 1, 3]
    zones = np.zeros((n, MAX_RADIUS + 1, 2), dtype=np.uint64)
    for p in range(n):
        for r in range(MAX_RADIUS + 1):
            zones[p, r] = np.bitwise_or.reduce(weighed[ball_points[p, :ball_count[p, r]]], axis=0)
    return zones


def _toward(road_step: np.ndarray, road_dist: np.ndarray) -> np.ndarray:
    n = road_step.shape[0]
    toward = np.full((n, n), -1, dtype=np.int8)
    for p in range(n):
        for d in range(5, -1, -1):  # the first direction wins
            q = road_step[p, d]
            if q >= 0:
                closer = road_dist[q] < road_dist[p]
                toward[p, closer] = d
    return toward


_PACKED: dict[tuple[int, int], tuple[object, Tables]] = {}


def tables_for(board, shot_range: int) -> Tables:
    """``pack_board`` once per board object and shot range."""
    key = (id(board), shot_range)
    if key not in _PACKED or _PACKED[key][0] is not board:
        _PACKED[key] = (board, pack_board(board, shot_range))
    return _PACKED[key][1]


def params_for(rules: IslandNationRules) -> Params:
    frogman_hp, frogman_bullets, artillery_hp, artillery_bullets = rules.loadout()
    bottle = np.zeros(LAST_ROUND + 1, dtype=np.int64)
    bottle[rules.bottle_rounds] = 1
    cards = rules.deck
    deck = np.array([i for i, c in enumerate(cards) for _ in range(c.count)], dtype=np.int64)
    return Params(rules.n_artillery, frogman_hp, frogman_bullets, artillery_hp, artillery_bullets,
                  rules.action_points, rules.evac_from, rules.evac_to, bottle, rules.mines, LAST_ROUND,
                  np.array([0 if c.kind == "item" else 1 for c in cards], dtype=np.int64),
                  np.array([EFFECTS.index(c.effect) for c in cards], dtype=np.int64),
                  np.array([c.amount for c in cards], dtype=np.int64), deck,
                  np.array([EFFECTS.index(a.effect) for a in rules.abilities], dtype=np.int64),
                  np.array([a.amount for a in rules.abilities], dtype=np.int64),
                  np.array([a.uses for a in rules.abilities], dtype=np.int64))
