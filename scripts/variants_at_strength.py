"""Does a variant's effect hold under stronger play? One variant per game, compared with its base
(``sim compare``, paired on common random numbers) at the scripted level and with every role searching;
per headline, the two effects with their 95 % intervals, whether their signs agree where an effect is
beyond noise, and whether their sizes differ beyond noise (a z test on the difference of the two independent effects).

    python scripts/variants_at_strength.py [--out reports/variants] [--quick] [--game GAME]

``--game`` re-measures one game and keeps the other games' rows of the file (after a change to that
game's base scenario).

The same as, per game and level:
    sim compare GAME --variant V | --set K=V --level LEVEL --games N --seed 0
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from scipy.stats import norm

# game, players, what changes, scripted games per arm, strong level, strong games per arm
VARIANTS = [
    ("island-nation", 5, {"variant": "strict-evac"}, 20_000, "search:rollouts=64", 2_000),
    ("ocracoke", 4, {"sets": ("pay_declarer=0",)}, 50_000, "search:rollouts=32", 4_000),
    ("wonderful-island", 6, {"sets": ("hand_limit=3",)}, 20_000, "search:rollouts=8", 1_000),
]


def _se(d) -> float:
    return (d.hi - d.lo) / (2 * norm.ppf(0.975))


def signs(a, b) -> str:
    """How the two effects relate: their signs compared only where an effect is beyond noise."""
    a_real, b_real = a.lo > 0 or a.hi < 0, b.lo > 0 or b.hi < 0
    if a_real and b_real:
        return "same sign" if (a.diff > 0) == (b.diff > 0) else "sign flips"
    if a_real:
        return "beyond noise only when scripted"
    if b_real:
        return "beyond noise only under search"
    return "within noise at both levels"


def effects(game: str, players: int, change: dict, n_scripted: int, level: str, n_strong: int,
            jobs: int) -> list[dict]:
    """Each headline's effect of the change at both levels, and whether they agree."""
    from sim.core.runner import resolve_scenario
    from sim.workflow.common import resolve_game
    from sim.workflow.compare import compare
    from sim.workflow.skill import level_policies

    spec = resolve_game(game)
    base = resolve_scenario(spec, "base", (), players)
    variant = resolve_scenario(spec, change.get("variant", "base"), change.get("sets", ()), players)
    runs = {lv: compare(spec, base, variant, (), n, 0, jobs, level_policies(spec, None if lv == "scripted" else lv))
            for lv, n in (("scripted", n_scripted), (level, n_strong))}
    rows = []
    for scripted_row, strong_row in zip(runs["scripted"].rows, runs[level].rows, strict=True):
        a, b = scripted_row.difference, strong_row.difference
        if a is None or b is None:
            continue
        z = (b.diff - a.diff) / math.hypot(_se(a), _se(b))
        rows.append({
            "game": game, "players": players, "change": change.get("variant") or " ".join(change["sets"]),
            "metric": scripted_row.metric.name, "label": scripted_row.metric.label,
            "scripted": [a.diff, a.lo, a.hi], "scripted_games": n_scripted,
            "strong_level": level, "strong": [b.diff, b.lo, b.hi], "strong_games": n_strong,
            "signs": signs(a, b),
            "sizes_differ_p": 2 * norm.sf(abs(z)),
        })
    return rows


def _pt(triple) -> str:
    d, lo, hi = (100 * x for x in triple)
    return f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("reports/variants"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="a tenth of the games (a smoke run)")
    parser.add_argument("--game", choices=[v[0] for v in VARIANTS], help="only this game; the file keeps the others")
    args = parser.parse_args()
    path = args.out / "variants-at-strength.json"
    kept = [r for r in json.loads(path.read_text()) if r["game"] != args.game] if args.game and path.exists() else []
    rows = []
    for game, players, change, n_scripted, level, n_strong in VARIANTS:
        if args.game in (None, game):
            scale = 10 if args.quick else 1
            rows += effects(game, players, change, n_scripted // scale, level, n_strong // scale, args.jobs)
    args.out.mkdir(parents=True, exist_ok=True)
    order = [v[0] for v in VARIANTS]
    path.write_text(json.dumps(sorted(kept + rows, key=lambda r: order.index(r["game"])), indent=1) + "\n")
    for r in rows:
        verdict = r["signs"] + (
            f", sizes differ (p = {r['sizes_differ_p']:.2g})" if r["sizes_differ_p"] < 0.05 else ", sizes agree")
        print(f"{r['game']} {r['players']}p {r['change']}: {r['label']}: scripted {_pt(r['scripted'])} pt "
              f"(n={r['scripted_games']:,}), {r['strong_level']} {_pt(r['strong'])} pt (n={r['strong_games']:,}): "
              f"{verdict}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
