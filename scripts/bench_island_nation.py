"""Island Nation speed: full 5-player games per second on one core, ghost against hunter, for the
batch engine and for the plain-Python reference measured in the same process, both on the core
scenario (the reference plays no cards); the engine's speed on the base scenario (cards and
abilities) is reported beside it. Times are CPU seconds of this process (``time.process_time``), so
other work on a shared machine does not count against the engine.

    python scripts/bench_island_nation.py
"""

from __future__ import annotations

import time

import numpy as np

ENGINE_GAMES = 400_000
REFERENCE_GAMES = 300


def bench() -> dict:
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME
    from sim.games.island_nation.board import board_for
    from sim.games.island_nation.reference import play_reference

    rules = load_scenario(GAME.name, GAME.rules_model, "core", ["players=5"]).rules
    base = load_scenario(GAME.name, GAME.rules_model, "base", ["players=5"]).rules
    policy = GAME.policy_array(rules, {"frogman": "ghost", "artillery": "hunter"})
    GAME.play(rules, policy, 0, 0, 2_000)  # compile (or load the cache) and warm up
    began = time.process_time()
    GAME.play(rules, policy, 1, 0, ENGINE_GAMES)
    engine_s = time.process_time() - began
    began = time.process_time()
    GAME.play(base, policy, 1, 0, ENGINE_GAMES // 2)
    base_rate = ENGINE_GAMES // 2 / (time.process_time() - began)

    board = board_for(rules)
    began = time.process_time()
    for i in range(REFERENCE_GAMES):
        play_reference(board, rules, "ghost", "hunter", i)
    reference_s = time.process_time() - began

    engine_rate = ENGINE_GAMES / engine_s
    reference_rate = REFERENCE_GAMES / reference_s
    return {"games_per_s_per_core": round(engine_rate, 1), "reference_games_per_s": round(reference_rate, 2),
            "ratio_vs_reference": round(engine_rate / reference_rate, 1), "engine_games": ENGINE_GAMES,
            "base_scenario_games_per_s_per_core": round(base_rate, 1), "scenario": "core",
            "reference_games": REFERENCE_GAMES, "players": 5, "bots": "frogman=ghost artillery=hunter",
            "seconds_for_1m_games_one_core": round(1e6 / engine_rate, 2), "numpy": np.__version__}


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key:>30}: {value}")
