"""The Wonderful Island speed: full 6-player games per second on one core with the default bots
(`partisan` for blue and green, `politician` for politicians), for the batch engine (runner-sized
chunks, after a warm-up call; the median of three passes, as for Ocracoke: a single pass of a few
seconds moves by +-10 % on a shared machine) and for the plain-Python reference with the same bots, measured in
the same process. Times are CPU seconds of this process (``time.process_time``), so other work on
a shared machine does not count.

    python scripts/bench_wonderful_island.py
"""

from __future__ import annotations

import statistics
import time

ENGINE_GAMES = 200_000
ENGINE_PASSES = 3
CHUNK = 1 << 16  # the runner's default chunk
REFERENCE_GAMES = 1_500


def bench() -> dict:
    from sim.core.scenario import load_scenario
    from sim.games.wonderful_island import GAME
    from sim.games.wonderful_island.reference import play_many

    rules = load_scenario(GAME.name, GAME.rules_model, "base", ["players=6"]).rules
    policy = GAME.policy_array(rules)  # partisan, partisan, politician
    GAME.play(rules, policy, 0, 0, 1_000)  # compile (or load the cache)
    passes = []
    for _ in range(ENGINE_PASSES):
        began = time.process_time()
        rounds = 0
        for start in range(0, ENGINE_GAMES, CHUNK):
            rounds += int(GAME.play(rules, policy, 1, start, min(CHUNK, ENGINE_GAMES - start)).games["rounds"].sum())
        passes.append(time.process_time() - began)
    engine_s = statistics.median(passes)

    bots = GAME.policy_names(policy)
    play_many(rules, bots, 0, 50)  # warm the catalogue cache
    began = time.process_time()
    play_many(rules, bots, 1, REFERENCE_GAMES)
    reference_s = time.process_time() - began

    engine_rate = ENGINE_GAMES / engine_s
    reference_rate = REFERENCE_GAMES / reference_s
    return {"games_per_s_per_core": round(engine_rate, 1), "reference_games_per_s": round(reference_rate, 1),
            "ratio_vs_reference": round(engine_rate / reference_rate, 1), "engine_games": ENGINE_GAMES,
            "engine_passes": ENGINE_PASSES, "pass_games_per_s": [round(ENGINE_GAMES / s) for s in passes],
            "reference_games": REFERENCE_GAMES, "players": rules.players,
            "bots": ", ".join(f"{k}={v}" for k, v in bots.items()),
            "rounds_per_game": round(rounds / ENGINE_GAMES, 3)}


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key:>30}: {value}")
