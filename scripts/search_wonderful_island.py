"""The Wonderful Island search bot: strength against the default scripted bots, and the politician
camp's win rate by player count with search (the odd/even question). Paired on the same seeds
(sim.core.paired): game i of every arm draws from the stream (seed, i).

    python scripts/search_wonderful_island.py strength [--games 10000] [--players 6] [--jobs 2] [--no-everyone]
    python scripts/search_wonderful_island.py oddeven [--games 4000] [--jobs 2]
    python scripts/search_wonderful_island.py perpolitician [--games 2000] [--jobs 2]

``strength``: per camp, its win rate with the camp's role playing ``search`` (default budget) and
with the default scripted bot, the paired difference with its 95 % interval, p and Holm's adjusted p
over the three camps; then everyone searching (left out with ``--no-everyone``). ``oddeven``: the
politician camp's win rate at 3-8 players with the scripted bots, with politician=search and with blue
and green searching.
``perpolitician``: each politician's own win rate (player-games) at 3-8 players, scripted (10 x the
games) and with politician=search.
"""

from __future__ import annotations

import argparse
import time

from statsmodels.stats.multitest import multipletests

from sim.core import stats
from sim.core.paired import paired_runs
from sim.core.runner import simulate
from sim.core.scenario import load_scenario
from sim.games.wonderful_island import GAME

CAMPS = ("blue", "green", "politician")


def _arms(rules, policies):
    return [(rules, GAME.policy_array(rules, chosen)) for chosen in policies]


def strength(games: int, players: int, jobs: int, chunk: int, budget: str, everyone: bool = True) -> list[str]:
    rules = load_scenario(GAME.name, GAME.rules_model, "base", [f"players={players}"]).rules
    metric = {m.name: m for m in GAME.metrics(rules)}
    search = "search" + (f":{budget}" if budget else "")
    policies = [{camp: search} for camp in CAMPS] + ([{"all": search}] if everyone else [])
    began = time.time()
    sums = paired_runs(GAME, (rules, GAME.policy_array(rules)), _arms(rules, policies),
                       [metric[f"win_{c}"] for c in CAMPS], games, seed=14, jobs=jobs, chunk_size=chunk)
    wall = time.time() - began
    rows = []
    for camp, s in zip(CAMPS, sums, strict=False):
        diff, _ = s.difference(metric[f"win_{camp}"])
        rows.append((camp, s.n, diff))
    adjusted = multipletests([d.p_value for _, _, d in rows], method="holm")[1]
    out = [f"{players} players, {games} games per arm, seed 14, {search} vs the default scripted bot, "
           f"{wall:.0f} s wall on {jobs} jobs ({len(policies) + 1} arms)", "",
           "| camp searching | n | win rate with search | with scripted | difference (95 % CI) | p | Holm p |",
           "|---|---|---|---|---|---|---|"]
    for (camp, n, d), p_holm in zip(rows, adjusted, strict=True):
        out.append(f"| {camp} | {n} | {_rate(d.variant)} | {_rate(d.base)} | {100 * d.diff:+.2f} pp "
                   f"[{100 * d.lo:+.2f}, {100 * d.hi:+.2f}] | {d.p_value:.2g} | {p_holm:.2g} |")
    if not everyone:
        return out
    out += ["", "everyone searching (same seeds):", "", "| camp | with search | with scripted | difference (95 % CI) |",
            "|---|---|---|---|"]
    for camp in CAMPS:
        d, _ = sums[3].difference(metric[f"win_{camp}"])
        out.append(f"| {camp} | {_rate(d.variant)} | {_rate(d.base)} | {100 * d.diff:+.2f} pp "
                   f"[{100 * d.lo:+.2f}, {100 * d.hi:+.2f}] |")
    return out


def oddeven(games: int, jobs: int, chunk: int, budget: str) -> list[str]:
    search = "search" + (f":{budget}" if budget else "")
    out = [f"politician camp win rate (a politician wins), {games} games per arm, seed 14, paired", "",
           "| players | politicians | scripted | politician=search | blue, green=search |", "|---|---|---|---|---|"]
    for players in GAME.player_counts:
        rules = load_scenario(GAME.name, GAME.rules_model, "base", [f"players={players}"]).rules
        metric = next(m for m in GAME.metrics(rules) if m.name == "win_politician")
        sums = paired_runs(GAME, (rules, GAME.policy_array(rules)),
                           _arms(rules, [{"politician": search}, {"blue": search, "green": search}]),
                           [metric], games, seed=14, jobs=jobs, chunk_size=chunk)
        base = sums[0].difference(metric)[0].base
        cells = [_rate(base)]
        for s in sums:
            d, _ = s.difference(metric)
            cells.append(f"{_rate(d.variant)} ({100 * d.diff:+.1f} pp [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}])")
        out.append(f"| {players} | {rules.camps()[2]} | " + " | ".join(cells) + " |")
    return out


def perpolitician(games: int, jobs: int, chunk: int, budget: str) -> list[str]:
    search = "search" + (f":{budget}" if budget else "")
    out = ["win rate of each politician (player-games), seed 14", "",
           "| players | politicians | scripted | politician=search |", "|---|---|---|---|"]
    for players in GAME.player_counts:
        cells = []
        for chosen, n in (({}, 10 * games), ({"politician": search}, games)):
            tallies = simulate(GAME, "base", n, 14, jobs, chosen, players=players, chunk_size=chunk,
                               progress=False).summary.tallies
            cells.append(_rate(stats.rate(int(tallies["camp_w"][2]), int(tallies["camp_n"][2]))))
        rules = load_scenario(GAME.name, GAME.rules_model, "base", [f"players={players}"]).rules
        out.append(f"| {players} | {rules.camps()[2]} | " + " | ".join(cells) + " |")
    return out


def _rate(e) -> str:
    return f"{100 * e.value:.1f} % [{100 * e.lo:.1f}, {100 * e.hi:.1f}] (n={e.n})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("strength", "oddeven", "perpolitician"))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--budget", default="", help="search options, e.g. rollouts=16 (default: the defaults)")
    parser.add_argument("--no-everyone", action="store_true", help="strength: leave out the everyone-searching arm")
    args = parser.parse_args()
    if args.what == "strength":
        lines = strength(args.games, args.players, args.jobs, args.chunk, args.budget, not args.no_everyone)
    elif args.what == "oddeven":
        lines = oddeven(args.games, args.jobs, args.chunk, args.budget)
    else:
        lines = perpolitician(args.games, args.jobs, args.chunk, args.budget)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
