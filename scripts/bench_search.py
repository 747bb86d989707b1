"""Search bot speed: for every registered game with a search bot, games per second per core with the
search bot in one role (one seat where the roles are seats alike, e.g. Ocracoke's seat 0; else each
role in turn, e.g. Island Nation's frogman, then its artillery) at its default budget, the scripted
bots elsewhere, and the search decisions per second (from the chunk's ``search_decisions`` column).

One process, CPU seconds of this process (``time.process_time``), so other work on a shared machine
does not count. After a warm-up chunk (compile or load the numba cache), chunks double in size until
one takes about a second, then repeat until ``--seconds`` of CPU time per role are spent.

    python scripts/bench_search.py [GAME ...] [--seconds S] [--json]

``bench_search()`` returns the figures as a dict keyed by game name (for reports/bench.json).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

SEED = 1
WARM_UP_GAMES = 4
CHUNK_SECONDS = 1.0  # grow chunks until one takes about this long
DEFAULT_SECONDS = 10.0  # CPU seconds of measured play per role


def search_roles(spec, rules) -> list[str]:
    """The roles to time: one seat where the roles are seats alike, else every role in play."""
    from sim.workflow.common import active_roles, is_seated

    roles = active_roles(spec, rules)
    return roles[:1] if is_seated(spec) else roles


def time_policy(spec, rules, policy: np.ndarray, seconds: float) -> dict:
    """Games and search decisions per CPU second of ``spec.play`` with this policy."""
    spec.play(rules, policy, SEED, 0, WARM_UP_GAMES)  # compile or load the cache
    games = decisions = 0
    spent = 0.0
    size = WARM_UP_GAMES
    while spent < seconds:
        began = time.process_time()
        chunk = spec.play(rules, policy, SEED, WARM_UP_GAMES + games, size)
        took = time.process_time() - began
        spent += took
        games += size
        decisions += int(np.asarray(chunk.games.get("search_decisions", np.zeros(1, np.int64))).sum())
        if took < CHUNK_SECONDS:
            size *= 2
    return {"games_per_s_per_core": round(games / spent, 2),
            "search_decisions_per_s": round(decisions / spent, 1) if decisions else None,
            "search_decisions_per_game": round(decisions / games, 3) if decisions else None,
            "games": games, "cpu_s": round(spent, 2)}


def bench_game(spec, seconds: float = DEFAULT_SECONDS, scenario: str = "base") -> dict:
    """One game's figures: per timed role, its speed with the search bot there at the default budget."""
    from sim.core.runner import resolve_scenario

    rules = resolve_scenario(spec, scenario, (), None).rules
    by_role = {}
    for role in search_roles(spec, rules):
        policy = spec.policy_array(rules, {role: spec.search.name})
        by_role[role] = {"bots": spec.policy_names(policy), **time_policy(spec, rules, policy, seconds)}
    return {"scenario": scenario, "players": getattr(rules, "players", None), "search_budget": spec.search.defaults,
            "by_role": by_role}


def bench_search(games: list[str] | None = None, seconds: float = DEFAULT_SECONDS, specs=None) -> dict:
    """Every (or each named) registered game with a search bot; games without one are left out."""
    from sim.core.registry import all_games, get_game

    chosen = specs if specs is not None else ([get_game(g) for g in games] if games else all_games().values())
    return {spec.name: bench_game(spec, seconds) for spec in chosen if spec.search is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game names (default: every game with a search bot)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="CPU seconds of play per role")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = parser.parse_args()
    results = bench_search(args.games, args.seconds)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    if not results:
        print("no registered game has a search bot (GameSpec.search)")
    for name, figures in results.items():
        budget = ", ".join(f"{k}={v}" for k, v in figures["search_budget"].items())
        print(f"== {name} (scenario {figures['scenario']}, {figures['players']} players, search budget {budget})")
        for role, row in figures["by_role"].items():
            decisions = (f"{row['search_decisions_per_s']:,.1f} search decisions/s "
                         f"({row['search_decisions_per_game']} per game)" if row["search_decisions_per_s"]
                         else "no search_decisions column")
            print(f"  search as {role}: {row['games_per_s_per_core']:,.2f} games/s/core, {decisions}; "
                  f"{row['games']:,} games in {row['cpu_s']} CPU-s")


if __name__ == "__main__":
    main()
