"""Island Nation: does the search bot beat the strongest scripted bot in the same role?

Four arms on the very same game streams (seed, i), base scenario, 5 players: scripted (frogman ghost
against artillery hunter), the frogman searching, the artillery searching, both searching (default
budget). Per role: the role's win rate with search and with its scripted bot, the paired difference
with its 95 % interval and p (``sim.core.paired``), Holm-adjusted over the two roles. Prints a
Markdown table (docs/search.md) and the time taken.

    python scripts/search_strength_island_nation.py [GAMES] [JOBS]
"""

from __future__ import annotations

import sys
import time

from statsmodels.stats.multitest import multipletests

GAMES = 10_000
SEED = 2026


def main(n_games: int = GAMES, jobs: int = 2) -> None:
    from sim.core.paired import paired_runs
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME

    rules = load_scenario(GAME.name, GAME.rules_model, "base", ["players=5"]).rules
    arms = {"frogman": {"frogman": "search"}, "artillery": {"artillery": "search"},
            "both": {"frogman": "search", "artillery": "search"}}
    base = (rules, GAME.policy_array(rules))
    variants = [(rules, GAME.policy_array(rules, chosen)) for chosen in arms.values()]
    wins = {m.name: m for m in GAME.metrics(rules) if m.name in ("win_frogman", "win_artillery")}
    began = time.time()
    sums = dict(zip(arms, paired_runs(GAME, base, variants, list(wins.values()), n_games, SEED, jobs=jobs,
                                      chunk_size=250), strict=True))
    elapsed = time.time() - began
    rows = []
    for role, opponent in (("frogman", "hunter"), ("artillery", "ghost")):
        diff, _ = sums[role].difference(wins[f"win_{role}"])
        rows.append((role, opponent, diff))
    adjusted = multipletests([d.p_value for *_, d in rows], method="holm")[1]
    print(f"seed {SEED}, {n_games} games per arm, 4 arms, {jobs} jobs: {elapsed:.0f} s wall\n")
    print("| role | against | n | win rate, search | win rate, scripted | difference [95 % CI] | p | Holm p |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (role, opponent, d), holm_p in zip(rows, adjusted, strict=True):
        scripted = "ghost" if role == "frogman" else "hunter"
        print(f"| {role} | {opponent} | {d.variant.n:,} | {_pct(d.variant)} | {_pct(d.base)} ({scripted}) | "
              f"{100 * d.diff:+.1f} pp [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}] | {_p(d.p_value)} | {_p(holm_p)} |")
    both, _ = sums["both"].difference(wins["win_frogman"])
    print(f"\nboth searching: frogman wins {_pct(both.variant)} (scripted {_pct(both.base)}), "
          f"difference {100 * both.diff:+.1f} pp [{100 * both.lo:+.1f}, {100 * both.hi:+.1f}]")


def _p(p: float) -> str:
    """A p-value; below double precision's smallest normal number it reads as a bound."""
    return f"{p:.1e}" if p >= 1e-300 else "< 1e-300"


def _pct(estimate) -> str:
    return f"{100 * estimate.value:.1f} % [{100 * estimate.lo:.1f}, {100 * estimate.hi:.1f}]"


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
