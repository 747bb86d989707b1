"""Island Nation speed: full 5-player games per second on one core, ghost against hunter, for the
batch engine and for the plain-Python reference measured in the same process, on the base scenario
(cards and abilities; the headline figures) and on the core scenario (``core_*``). The engine's
figure is the median of three passes, as for Ocracoke: a single pass of a few seconds moves by
+-10 % on a shared machine. Times are CPU
seconds of this process (``time.process_time``), so other work on a shared machine does not count.

    python scripts/bench_island_nation.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np

ENGINE_GAMES = 400_000
ENGINE_PASSES = 3
REFERENCE_GAMES = 300


def _rates(rules, policy, board) -> tuple[list[float], float]:
    """(engine passes, reference) games per CPU second for these rules."""
    from sim.games.island_nation import GAME
    from sim.games.island_nation.reference import play_reference

    GAME.play(rules, policy, 0, 0, 2_000)  # compile (or load the cache) and warm up
    passes = []
    for _ in range(ENGINE_PASSES):
        began = time.process_time()
        GAME.play(rules, policy, 1, 0, ENGINE_GAMES)
        passes.append(ENGINE_GAMES / (time.process_time() - began))
    began = time.process_time()
    for i in range(REFERENCE_GAMES):
        play_reference(board, rules, "ghost", "hunter", i)
    return passes, REFERENCE_GAMES / (time.process_time() - began)


def bench() -> dict:
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME
    from sim.games.island_nation.board import board_for

    figures: dict = {"players": 5, "bots": "frogman=ghost artillery=hunter", "engine_games": ENGINE_GAMES,
                     "engine_passes": ENGINE_PASSES, "reference_games": REFERENCE_GAMES, "numpy": np.__version__}
    for scenario in ("base", "core"):
        rules = load_scenario(GAME.name, GAME.rules_model, scenario, ["players=5"]).rules
        policy = GAME.policy_array(rules, {"frogman": "ghost", "artillery": "hunter"})
        passes, reference = _rates(rules, policy, board_for(rules))
        engine = statistics.median(passes)
        prefix = "" if scenario == "base" else "core_"
        figures[f"{prefix}pass_games_per_s"] = [round(rate) for rate in passes]
        figures[f"{prefix}games_per_s_per_core"] = round(engine, 1)
        figures[f"{prefix}reference_games_per_s"] = round(reference, 2)
        figures[f"{prefix}ratio_vs_reference"] = round(engine / reference, 1)
    figures["seconds_for_1m_games_one_core"] = round(1e6 / figures["games_per_s_per_core"], 2)
    return figures


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key:>30}: {value}")
