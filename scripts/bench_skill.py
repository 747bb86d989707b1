"""Time to a settled strong-play answer: for every game with a search bot, the wall time on this
machine from a fresh process to the skill curve's verdict (``sim.workflow.skill``) on the base scenario,
with the curve's own settling rule (every headline's change within noise and within ±1 pt, each
level's 95 % interval ±1 pt or narrower), under a time limit; and the search's decisions per CPU second
at each budget of the ladder. Gaps are not played (they answer a different question, at 4x the budget).
Where the time limit stops a curve short, ``committed`` records what the settled answer did cost: the
CPU seconds of every level of the curve committed in ``reports/skill/`` (read, not played).

    python scripts/bench_skill.py [GAME ...] [--time-limit S] [--games N] [--jobs J] [--json]

``bench_skill()`` returns the figures as a dict keyed by game name (for reports/bench.json).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

TIME_LIMIT_S = 600.0  # the target: a settled answer within 10 minutes per game
GAMES = 10_000  # a ±1 pt interval on a rate near 50 % needs about 9,600
LADDERS = {"ocracoke": [16, 32, 64, 128], "island-nation": [16, 32, 64, 128, 256, 512],
           "wonderful-island": [4, 8, 16, 32]}
COMMITTED = Path(__file__).resolve().parents[1] / "reports" / "skill"


def time_to_settle(game: str, time_limit_s: float = TIME_LIMIT_S, games: int = GAMES, jobs: int = 2) -> dict:
    """One game's curve under the time limit: wall time, where (or whether) it settled, and the cost
    of each level."""
    from sim.workflow.skill import skill

    began = time.perf_counter()
    curve = skill(game, "base", games, seed=0, ladder=LADDERS.get(game), time_limit_s=time_limit_s, jobs=jobs,
                  gaps=False)
    wall = time.perf_counter() - began
    return {
        "games_per_level": games, "jobs": jobs, "time_limit_s": time_limit_s, "players": curve.players,
        "wall_s": round(wall, 1), "stopped": curve.stopped, "settled": curve.settled,
        "levels": curve.levels,
        "verdicts": {v.metric: {"settled": v.settled, "level": v.level, "value": round(v.value.value, 4),
                                "lo": round(v.value.lo, 4), "hi": round(v.value.hi, 4),
                                "change": None if v.change is None else [round(x, 4) for x in v.change]}
                     for v in curve.verdicts},
        "decisions_per_cpu_s": {c.level: None if c.decisions_per_cpu_s is None else round(c.decisions_per_cpu_s, 1)
                                for c in curve.costs},
        "cpu_s": {c.level: round(c.cpu_s, 1) for c in curve.costs},
    }


def committed_cost(game: str, folder: Path = COMMITTED) -> dict | None:
    """What the curve committed for this game's base scenario (``sim skill``, cached) cost to its verdict:
    None when there is none or it is stale (played on other sources or rules)."""
    from sim.workflow.skill import load_curve

    curve = load_curve(game, folder=folder)
    if curve is None:
        return None
    cpu = sum(c.cpu_s for c in curve.costs)
    return {"games_per_level": curve.n_games, "seed": curve.seed, "players": curve.players,
            "levels": curve.levels, "settled": curve.settled, "stopped": curve.stopped,
            "cpu_s": round(cpu, 1), "hours_on_2_cores": round(cpu / 2 / 3600, 2)}


def bench_skill(games: list[str] | None = None, time_limit_s: float = TIME_LIMIT_S, n_games: int = GAMES,
                jobs: int = 2) -> dict[str, dict]:
    from sim.core.registry import all_games

    specs = [s for s in all_games().values() if s.search is not None and (not games or s.name in games)]
    figures = {s.name: time_to_settle(s.name, time_limit_s, n_games, jobs) for s in specs}
    for name, f in figures.items():
        if not f["settled"]:
            f["committed"] = committed_cost(name)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT_S)
    parser.add_argument("--games", dest="n_games", type=int, default=GAMES)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = bench_skill(args.games, args.time_limit, args.n_games, args.jobs)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for game, r in result.items():
        where = f"settled at {r['levels'][-1]}" if r["settled"] else f"not settled ({r['stopped']})"
        print(f"{game}: {where} after {r['wall_s']:.0f} s wall ({r['games_per_level']:,} games per level, "
              f"{r['jobs']} jobs)")
        for level, rate in r["decisions_per_cpu_s"].items():
            print(f"  {level}: {r['cpu_s'][level]:.0f} CPU-s" + (f", {rate:,.0f} decisions per CPU-s" if rate else ""))
        if c := r.get("committed"):
            where = f"settled at {c['levels'][-1]}" if c["settled"] else f"not settled ({c['stopped']})"
            print(f"  the committed curve ({c['games_per_level']:,} games per level, seed {c['seed']}): {where}, "
                  f"{c['cpu_s']:,.0f} CPU-s, {c['hours_on_2_cores']} h of 2 cores")


if __name__ == "__main__":
    main()
