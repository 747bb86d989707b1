"""Shared builders for the Island Nation engine tests: the default board, rules, and a hand-set
state on which one rule function is applied."""

from __future__ import annotations

import numpy as np

from sim.games.island_nation.batch import play_rows
from sim.games.island_nation.board import default_board
from sim.games.island_nation.rules import IslandNationRules
from sim.games.island_nation.state import (
    CAN_AT,
    FBUL,
    FHP,
    FPOS,
    MINE_AT,
    MINES_LEFT,
    ROUND,
    State,
    new_state,
)
from sim.games.island_nation.tables import params_for, tables_for

BASE = dict(map="kaoteng", frogman_hp=[3, 3, 3], frogman_bullets=[2, 2, 2], artillery_hp=[2, 2, 2],
            artillery_bullets=[2, 2, 2], deck=[], abilities=[], evac_from=7, evac_to=10, mines=1, evac_escape="entering",
            frogman_shot_direction="secret", frogman_shoots_traitors=False, frogman_may_stay_on_artillery=True)


def rules(**over) -> IslandNationRules:
    return IslandNationRules(**{**BASE, **over})


def setup_tables(r: IslandNationRules | None = None):
    r = r or rules()
    board = default_board()
    return board, tables_for(board, r.shot_range), params_for(r)


def words(points) -> tuple[np.uint64, np.uint64]:
    w = [0, 0]
    for p in points:
        w[p >> 6] |= 1 << (p & 63)
    return np.uint64(w[0]), np.uint64(w[1])


def members(s0, s1, n) -> set[int]:
    w = (int(s0), int(s1))
    return {p for p in range(n) if (w[p >> 6] >> (p & 63)) & 1}


def make_state(board, P, frog: str, artillery: list[str], belief: list[str] | None = None, rnd: int = 3,
               hp: int | None = None, bullets: int | None = None, art_hp: int | None = None) -> State:
    """A state with the frogman on ``frog`` and artillery on ``artillery`` (labels)."""
    st = new_state()
    ix = board.index
    st.g[ROUND] = rnd
    st.g[FPOS] = ix[frog]
    st.g[FHP] = P.frogman_hp if hp is None else hp
    st.g[FBUL] = P.frogman_bullets if bullets is None else bullets
    st.g[MINES_LEFT] = P.mines
    st.g[MINE_AT] = -1
    for k, label in enumerate(artillery):
        st.apos[k] = ix[label]
        st.ahp[k] = P.artillery_hp if art_hp is None else art_hp
        st.abul[k] = P.artillery_bullets
    st.sizes[:] = -1
    st.g[CAN_AT] = -1
    pts = [ix[b] for b in (belief if belief is not None else [frog])]
    st.bel[0], st.bel[1] = words(pts)
    return st


def trace_log(r: IslandNationRules, policy, seed: int, index: int, rows: int = 4096):
    """One game's per-game row and its event log."""
    games, _, log = play_rows(r, default_board(), np.asarray(policy), seed, index, 1, rows)
    return games, log


def frogman_seats(bot: int) -> np.ndarray:
    """The seats ``engine.frogman_turn`` takes (a bot per role) for a frogman playing ``bot``."""
    return np.array([bot, 0], dtype=np.int64)
