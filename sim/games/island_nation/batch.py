"""Island Nation's Python entry point: play a batch with the scripted engine (engine.play_batch), or with
the search bots' kernel (search.play_searched_batch) when a role plays search.

Kept apart from engine.py so that the engine never imports the search module (which is built from the
engine's turn parts): the imports run one way, batch -> search -> engine. (Not named play.py: importing a submodule
binds its name on the package, and a module `play` would replace the GameSpec function `play` that
worker processes look up by that name.)
"""

from __future__ import annotations

import numpy as np

from sim.games.island_nation.engine import LOG_WIDTH, play_batch
from sim.games.island_nation.policies import ARTILLERY_BOTS, FROGMAN_BOTS
from sim.games.island_nation.state import new_state
from sim.games.island_nation.tables import params_for, tables_for


def play_rows(rules, board, policy: np.ndarray, seed: int, start: int, count: int, log_rows: int = 0):
    """Play games ``start .. start+count-1`` and return (games columns, points columns, log)."""
    T = tables_for(board, rules.shot_range)
    P = params_for(rules)
    out = np.empty((8, count), dtype=np.int64)  # every entry written by play_batch
    sizes = np.empty((10, count), dtype=np.int64)
    density = np.zeros(T.n, dtype=np.int64)
    captures = np.zeros(T.n, dtype=np.int64)
    escapes = np.zeros(T.n, dtype=np.int64)
    log = np.zeros((log_rows, LOG_WIDTH), dtype=np.int64)
    policy = np.asarray(policy, dtype=np.int64)
    decisions = None
    if policy[0] == len(FROGMAN_BOTS) or policy[1] == len(ARTILLERY_BOTS):  # a search bot plays: its own entry point
        from sim.games.island_nation.search import play_searched_batch

        decisions = play_searched_batch(T, P, policy, seed, start, out, sizes, density, captures, escapes, log)
    else:
        play_batch(T, P, new_state(), policy, np.int64(seed), np.int64(start), out, sizes, density, captures,
                   escapes, log)
    exit_of = np.full(T.n, -1, dtype=np.int64)
    exit_of[T.evac_points[:T.n_evac]] = np.arange(T.n_evac)
    escape_point = out[4]
    games = {
        "game": np.arange(start, start + count, dtype=np.int64),
        "winner": out[0],  # 0 frogman, 1 artillery
        "end_reason": out[1],  # index into state.REASONS
        "end_round": out[2],
        "escape_round": out[3],  # 0 if the frogman did not escape
        "escape_exit": np.where(escape_point >= 0, exit_of[np.maximum(escape_point, 0)], -1),  # 0..5 = A..F
        "frogman_hp": out[5],
        "artillery_alive": out[6],
        "final_set": out[7],
    }
    for r in range(10):
        games[f"set_r{r + 1}"] = sizes[r]  # public-set size at the end of round r+1, -1 if not reached
    if decisions is not None:
        games["search_decisions"] = decisions  # decisions taken by search bots in the game
    points = {"point": np.arange(T.n, dtype=np.int64), "density": density, "captures": captures,
              "escapes": escapes}
    return games, points, log
