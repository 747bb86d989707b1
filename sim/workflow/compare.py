"""``sim compare``: a base scenario against a variant on common random numbers.

Every headline metric is shown side by side (base, variant, difference, its 95 % paired interval,
p-value) and flagged "beyond noise" only if it survives Holm's correction for the number of metrics
compared. The output also says how much the pairing narrowed the intervals compared with two
independent runs of the same size.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.core import stats
from sim.core.game import GameSpec, Metric
from sim.core.paired import PairedSums, paired_runs
from sim.core.scenario import Scenario
from sim.workflow.common import headline_metrics, resolve_game, scenario_of


@dataclass
class MetricComparison:
    metric: Metric
    difference: stats.Difference | None  # None when both arms are constant (nothing to compare)
    narrowing: float  # paired interval width / independent interval width
    beyond_noise: bool


@dataclass
class Comparison:
    spec: GameSpec
    base: Scenario
    variant: Scenario
    base_bots: dict[str, str]
    variant_bots: dict[str, str]
    n_games: int
    seed: int
    elapsed_s: float
    rows: list[MetricComparison]

    def frame(self) -> pl.DataFrame:
        records = []
        for row in self.rows:
            d = row.difference
            records.append({
                "metric": row.metric.name, "label": row.metric.label, "kind": row.metric.kind,
                "base": d.base.value if d else math.nan, "variant": d.variant.value if d else math.nan,
                "diff": d.diff if d else 0.0, "lo": d.lo if d else 0.0, "hi": d.hi if d else 0.0,
                "p_value": d.p_value if d else 1.0, "beyond_noise": row.beyond_noise,
                "width_ratio": row.narrowing, "n": self.n_games})
        return pl.DataFrame(records)

    def narrowing_summary(self) -> str:
        """One sentence on how much pairing helped (median over the compared metrics)."""
        ratios = [r.narrowing for r in self.rows if r.difference is not None]
        if not ratios:
            return "no metric varied: nothing to compare"
        ratio = float(np.median(ratios))
        if ratio <= 0:
            return "the variant changed nothing in any game: the paired difference is exactly 0"
        return (f"pairing narrowed the intervals to {100 * ratio:.0f}% of the width of independent runs "
                f"(median over {len(ratios)} metrics), worth {1 / ratio ** 2:.1f}× as many independent games")


def judge(sums: PairedSums, metrics: list[Metric], alpha: float = 0.05) -> list[MetricComparison]:
    """Paired differences per metric, Holm-corrected over the metrics that vary."""
    diffs: list[tuple[stats.Difference | None, float]] = []
    for metric in metrics:
        diffs.append((None, 1.0) if sums.constant(metric.name) else sums.difference(metric))
    tested = [i for i, (d, _) in enumerate(diffs) if d is not None]
    flags = stats.holm([diffs[i][0].p_value for i in tested], alpha)
    beyond = dict(zip(tested, flags, strict=True))
    return [MetricComparison(m, d, ratio, beyond.get(i, False))
            for i, (m, (d, ratio)) in enumerate(zip(metrics, diffs, strict=True))]


def compare(game: str | GameSpec, base: str | Path | Scenario = "base", variant: str | Path | Scenario | None = None,
            sets: tuple[str, ...] | list[str] = (), n_games: int = 100_000, seed: int = 0, jobs: int = 1,
            policies: dict[str, str] | None = None, variant_policies: dict[str, str] | None = None,
            all_metrics: bool = False) -> Comparison:
    """Play base and variant on the same streams and judge every headline metric."""
    from sim.core.errors import UserError

    if n_games < 2:
        raise UserError(f"--games {n_games}: a paired comparison needs at least 2 games")
    spec = resolve_game(game)
    base_scen = scenario_of(spec, base)
    var_scen = scenario_of(spec, variant if variant is not None else base, sets)
    base_policy = spec.policy_array(base_scen.rules, policies)
    var_policy = spec.policy_array(var_scen.rules, variant_policies if variant_policies is not None else policies)
    chosen = spec.metrics(base_scen.rules) if all_metrics else headline_metrics(spec, base_scen.rules)
    began = time.perf_counter()
    (sums,) = paired_runs(spec, (base_scen.rules, base_policy), [(var_scen.rules, var_policy)], chosen,
                          n_games, seed, jobs)
    return Comparison(spec, base_scen, var_scen, spec.policy_names(base_policy), spec.policy_names(var_policy),
                      n_games, seed, time.perf_counter() - began, judge(sums, chosen))


def changed_rules(comparison: Comparison) -> dict[str, tuple[object, object]]:
    base = comparison.base.rules.model_dump()
    var = comparison.variant.rules.model_dump()
    return {k: (base[k], var[k]) for k in base if base[k] != var[k]}


def print_comparison(comparison: Comparison) -> None:
    from rich.table import Table

    from sim.core.display import console

    c = comparison
    console.print(f"[bold]{c.spec.title}[/bold] · base {c.base.name} vs variant {c.variant.name} · "
                  f"{c.n_games:,} paired games · seed {c.seed} · {2 * c.n_games / c.elapsed_s:,.0f} games/s")
    for key, (old, new) in changed_rules(c).items():
        console.print(f"  rule {key}: {old} → {new}")
    for role in c.base_bots:
        if c.base_bots[role] != c.variant_bots[role]:
            console.print(f"  bot of {role}: {c.base_bots[role]} → {c.variant_bots[role]}")
    table = Table(title="headline metrics: variant − base, 95 % paired interval, Holm over metrics",
                  title_justify="left")
    for col in ("metric", "base", "variant", "difference", "95% interval", "p", "beyond noise?"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for row in c.rows:
        d = row.difference
        if d is None:
            table.add_row(row.metric.label, "constant", "constant", "0", "–", "–", "no")
            continue
        scale, unit, fmt = (100, " pt", "{:.2f}%") if row.metric.kind == "rate" else (1, "", "{:.3f}")
        table.add_row(row.metric.label, fmt.format(scale * d.base.value), fmt.format(scale * d.variant.value),
                      f"{scale * d.diff:+.2f}{unit}", f"[{scale * d.lo:+.2f}, {scale * d.hi:+.2f}]",
                      f"{d.p_value:.2g}", "[bold red]YES[/bold red]" if row.beyond_noise else "no")
    console.print(table)
    console.print(c.narrowing_summary())
    line = fairness_line(c)
    if line:
        console.print(line)


def fairness_line(c: Comparison) -> str | None:
    """The one-line verdict: the gap between the base's best and worst seat (role) in both arms, and whether
    the variant moves it beyond noise. The gap's change is the difference of two paired changes; its
    interval adds their half-widths, which holds whatever their correlation (so it is conservative)."""
    from sim.workflow.common import win_metrics

    names = {m.name for m in win_metrics(c.spec, c.base.rules)}
    rows = [r for r in c.rows if r.metric.name in names and r.difference is not None]
    if len(rows) < 2:
        return None
    best = max(rows, key=lambda r: r.difference.base.value)
    worst = min(rows, key=lambda r: r.difference.base.value)
    b, w = best.difference, worst.difference
    base_gap, var_gap = b.base.value - w.base.value, b.variant.value - w.variant.value
    change = var_gap - base_gap
    half = (b.hi - b.lo) / 2 + (w.hi - w.lo) / 2
    beyond = abs(change) > half

    def who(row: MetricComparison) -> str:
        return row.metric.label.split(" win")[0]

    return (f"fairness: gap {who(best)} - {who(worst)} {100 * base_gap:.1f} pt in the base, "
            f"{100 * var_gap:.1f} pt in the variant: {100 * change:+.1f} pt "
            f"[{100 * (change - half):+.1f}, {100 * (change + half):+.1f}], "
            + ("beyond noise" if beyond else "within noise") + " (conservative interval)")


def write_comparison(comparison: Comparison, out: Path, sets: tuple[str, ...] = ()) -> list[Path]:
    """``<game>-compare.csv`` and ``.parquet`` (one row per metric) and ``.json`` (what was compared)."""
    import json

    from sim import __version__
    from sim.core.runfolder import compiled_sources_digest, now_text

    c = comparison
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{c.spec.name}-compare"
    frame = c.frame()
    record = {"game": c.spec.name, "base": c.base.name, "variant": c.variant.name, "sets": list(sets),
              "rules_changed": {k: {"base": b, "variant": v} for k, (b, v) in changed_rules(c).items()},
              "base_bots": c.base_bots, "variant_bots": c.variant_bots, "seed": c.seed, "games": c.n_games,
              "toolkit_version": __version__, "compiled_sources": compiled_sources_digest(), "written": now_text()}
    paths = [stem.with_suffix(".csv"), stem.with_suffix(".parquet"), stem.with_suffix(".json")]
    frame.write_csv(paths[0])
    frame.write_parquet(paths[1])
    paths[2].write_text(json.dumps(record, indent=2, ensure_ascii=False, default=str) + "\n")
    return paths
