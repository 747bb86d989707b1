"""The board and the rules packed into two records the compiled engine reads.

``Tables`` and ``Params`` are numpy structured dtypes: one record (``state.record``) holds every
table as a field of fixed shape, sized for the largest map (``MAX_POINTS`` points, shot range 3),
so compiled code receives all of it as one pointer and still reads ``T.road_step[p, d]``. Rows and
columns past the map's ``n`` points are padding no decision reads (steps, lines and points -1,
distances ``DIST_CAP``, sets empty; ``numbered_dist`` past the numbered points -1, which the
hunter's placement scans as never farthest); the live counts are scalar fields (``n``, ``n_evac``,
``n_numbered``; ``n_cards``, ``deck_n``, ``n_abilities``).

``Tables`` holds what depends on the map (and the shot range): road steps, shot lines (-1 past the
shot range), road distances, the evac points, and the bitset tables of the public belief
(IN-BELIEF-1):

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
* ``numbered_dist[p, i]``: road distance from p to the i-th numbered point (-1 past the numbered
  points, so whole rows can be scanned for the farthest).
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

``Params`` holds the rule values of one run as plain integers and small arrays. Directions are 0..5 inside the
engine and announced as 1..6.
"""

from __future__ import annotations

import numpy as np

from sim.core.errors import ScenarioError
from sim.games.island_nation.rules import EFFECTS, LAST_ROUND, IslandNationRules
from sim.games.island_nation.state import MAX_ABILITIES, MAX_CARD_TYPES, MAX_DECK, MAX_POINTS, record

MAX_RADIUS = 3
DIST_CAP = 127  # road distances are kept as int8 (small tables stay in the L1 cache): at most 127 on 128 points

N = MAX_POINTS
Tables = np.dtype([  # 64-byte aligned from the start: trans, then hunter_view's 32-byte rows
    ("trans", np.uint64, (16, 256, 6, 2)), ("hunter_view", np.uint64, (N, 4)), ("linemask", np.uint64, (N, 6, 2)),
    ("starmask", np.uint64, (N, 2)), ("ballmask", np.uint64, (N, MAX_RADIUS + 1, 2)),
    ("zonemask", np.uint64, (N, MAX_RADIUS + 1, 2)), ("weighers", np.uint64, (N, 2)), ("roadmask", np.uint64, (N, 2)),
    ("evac_mask", np.uint64, (2,)), ("numbered_mask", np.uint64, (2,)), ("steps_out", np.uint64, (6, 2)),
    ("steps_into_evac", np.uint64, (6, 2)), ("log2_size", np.float64, (N + 1,)),
    ("n", np.int64), ("n_evac", np.int64), ("n_numbered", np.int64),
    ("evac_dist", np.int64, (N,)), ("ball_count", np.int64, (N, MAX_RADIUS + 1)),
    ("evac_points", np.int64, (N,)), ("numbered_points", np.int64, (N,)),
    ("road_step", np.int8, (N, 6)), ("line", np.int8, (N, 6, MAX_RADIUS)), ("road_dist", np.int8, (N, N)),
    ("is_evac", np.int8, (N,)), ("ball_points", np.int8, (N, N)), ("toward", np.int8, (N, N)),
    ("numbered_dist", np.int8, (N, N)), ("ball_rank", np.int8, (N, N)), ("road_from", np.int8, (N, 6)),
], align=True)

Params = np.dtype([
    ("n_art", np.int64), ("frogman_hp", np.int64), ("frogman_bullets", np.int64), ("artillery_hp", np.int64),
    ("artillery_bullets", np.int64), ("ap", np.int64), ("evac_from", np.int64), ("evac_to", np.int64),
    ("mines", np.int64), ("last_round", np.int64), ("n_cards", np.int64), ("deck_n", np.int64),
    ("n_abilities", np.int64), ("escape_standing", np.int64), ("shot_direction_told", np.int64),
    ("frogman_shoots_traitors", np.int64), ("frogman_may_stay", np.int64), ("bottle", np.int64, (LAST_ROUND + 1,)),
    ("card_kind", np.int64, (MAX_CARD_TYPES,)), ("card_effect", np.int64, (MAX_CARD_TYPES,)),
    ("card_amount", np.int64, (MAX_CARD_TYPES,)), ("deck", np.int64, (MAX_DECK,)),
    ("ab_effect", np.int64, (MAX_ABILITIES,)), ("ab_amount", np.int64, (MAX_ABILITIES,)),
    ("ab_uses", np.int64, (MAX_ABILITIES,)),
], align=True)


def _set_words(points) -> np.ndarray:
    words = np.zeros(2, dtype=np.uint64)
    for p in points:
        words[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return words


def pack_board(board, shot_range: int = 3) -> np.record:
    """The ``Tables`` record of one board; the board must have at most 128 points."""
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
    T = record(Tables)
    T.n, T.n_evac, T.n_numbered = n, evac_points.size, numbered.size
    for name, pad in (("road_step", -1), ("line", -1), ("road_dist", DIST_CAP), ("ball_points", -1),
                      ("toward", -1), ("numbered_dist", -1), ("ball_rank", -1), ("road_from", -1),
                      ("evac_points", -1), ("numbered_points", -1)):
        getattr(T, name)[...] = pad
    T.road_step[:n] = road_step
    T.line[:n, :, :shot_range] = line
    T.road_dist[:n, :n] = road_dist
    T.evac_dist[:n] = board.evac_dist
    T.is_evac[:n] = is_evac
    T.evac_points[:evac_points.size] = evac_points
    T.numbered_points[:numbered.size] = numbered
    T.trans[...] = trans
    T.linemask[:n] = linemask
    T.starmask[:n] = starmask
    T.ballmask[:n] = ballmask
    T.zonemask[:n] = _zones(ballmask, starmask, ball_points, ball_count, is_evac)
    T.ball_points[:n, :n] = ball_points
    T.ball_count[:n] = ball_count
    T.evac_mask[:] = _set_words(evac_points)
    T.numbered_mask[:] = _set_words(numbered)
    T.log2_size[:] = np.log2(np.maximum(1, np.arange(MAX_POINTS + 1)))
    T.toward[:n, :n] = _toward(road_step, road_dist)
    T.numbered_dist[:n, :numbered.size] = road_dist[:, numbered]
    T.ball_rank[:n, :n] = np.argsort(ball_points, axis=1, kind="stable")
    T.weighers[:n] = starmask | ballmask[:, 1] | (ballmask[:, 3] & _set_words(evac_points))
    T.roadmask[:n] = [_set_words([q for q in road_step[p] if q >= 0]) for p in range(n)]
    T.hunter_view[:n] = np.concatenate([ballmask[:, 1], starmask], axis=1)
    T.road_from[:n] = road_from
    T.steps_out[:] = [_set_words(np.flatnonzero(road_step[:, d] >= 0)) for d in range(6)]
    T.steps_into_evac[:] = [_set_words(np.flatnonzero((road_step[:, d] >= 0) & (is_evac[road_step[:, d]] == 1)))
                            for d in range(6)]
    return T


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


_PACKED: dict[tuple[int, int], tuple[object, np.record]] = {}


def tables_for(board, shot_range: int) -> np.record:
    """``pack_board`` once per board object and shot range."""
    key = (id(board), shot_range)
    if key not in _PACKED or _PACKED[key][0] is not board:
        _PACKED[key] = (board, pack_board(board, shot_range))
    return _PACKED[key][1]


def params_for(rules: IslandNationRules) -> np.record:
    """The ``Params`` record of these rules."""
    P = record(Params)
    P.frogman_hp, P.frogman_bullets, P.artillery_hp, P.artillery_bullets = rules.loadout()
    P.n_art, P.ap, P.evac_from, P.evac_to = rules.n_artillery, rules.action_points, rules.evac_from, rules.evac_to
    P.mines, P.last_round = rules.mines, LAST_ROUND
    P.escape_standing = rules.evac_escape == "standing"
    P.shot_direction_told = rules.frogman_shot_direction == "announced"
    P.frogman_shoots_traitors = rules.frogman_shoots_traitors
    P.frogman_may_stay = rules.frogman_may_stay_on_artillery
    P.bottle[rules.bottle_rounds] = 1
    cards = rules.deck
    P.n_cards = len(cards)
    for i, c in enumerate(cards):
        P.card_kind[i] = 0 if c.kind == "item" else 1
        P.card_effect[i] = EFFECTS.index(c.effect)
        P.card_amount[i] = c.amount
    deck = [i for i, c in enumerate(cards) for _ in range(c.count)]
    P.deck_n = len(deck)
    P.deck[:len(deck)] = deck
    P.n_abilities = len(rules.abilities)
    for i, a in enumerate(rules.abilities):
        P.ab_effect[i], P.ab_amount[i], P.ab_uses[i] = EFFECTS.index(a.effect), a.amount, a.uses
    return P
