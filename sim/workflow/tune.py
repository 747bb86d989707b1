"""``sim tune``: the rule value that brings a metric to a target, by a noisy bisection.

The metric is assumed monotone in the parameter over the range. Each probe plays games in
doubling batches (the same seed and game indices at every probe: common random numbers) until
its 99 % interval lies wholly above or below the target, or until ``max_games``; so games are
added exactly where the decision is close. The bracket halves after each decided probe, on the
parameter's grid (integers step by 1, floats by their declared "step" unless given). A probe that
stays undecided at ``max_games`` is within noise of the target and ends the search.

The reported value is where the straight line through the two final bracket ends crosses the
target, both ends replayed on the same games (common random numbers); its 95 % interval comes from
the delta method on (level at one end, paired difference between the ends) with their covariance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import stats as sps

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import GameSpec, Metric
from sim.core.paired import paired_runs
from sim.core.runner import RunSummary
from sim.core.scenario import Scenario
from sim.workflow.common import (
    find_metric,
    format_value,
    numeric_field,
    play_range,
    resolve_game,
    scenario_of,
)

DECISION_CONFIDENCE = 0.99


@dataclass
class Probe:
    x: float
    summary: RunSummary = field(default_factory=RunSummary)

    def estimate(self, metric: Metric, confidence: float = stats.CONFIDENCE) -> stats.Estimate:
        n, total = self.summary.n_games, self.summary.sums.get(metric.name, 0)
        if metric.kind == "rate":
            return stats.rate(total, n, confidence)
        return stats.mean_from_sums(float(total), float(self.summary.sumsq[metric.name]), n, confidence)


@dataclass
class TuneResult:
    param: str
    is_int: bool
    metric: Metric
    target: float
    value: float  # interpolated root
    lo: float  # 95 % interval of the root (range edge when the band does not cross)
    hi: float
    best: Probe  # the probed value whose estimate is nearest the target
    probes: list[Probe]
    note: str

    @property
    def games(self) -> int:
        return sum(p.summary.n_games for p in self.probes)


def parse_target(text: str) -> tuple[str, float]:
    """``metric=value``; the value may be a fraction (0.5) or a percentage (50%)."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise UserError(f"--target {text}: expected metric=value, e.g. win_frogman=0.5 or win_frogman=50%")
    raw = raw.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise UserError(f"--target {text}: expected a number after '='") from None
    return name.strip(), value


def _crossing(xs: np.ndarray, ys: np.ndarray, target: float, near: float) -> float:
    """Where the piecewise-linear curve through (xs, ys) crosses target; the crossing nearest ``near``."""
    found = []
    for i in range(len(xs) - 1):
        y0, y1 = ys[i] - target, ys[i + 1] - target
        if y0 == 0:
            found.append(xs[i])
        if y0 * y1 < 0:
            found.append(xs[i] + (xs[i + 1] - xs[i]) * y0 / (y0 - y1))
    if ys[-1] == target:
        found.append(xs[-1])
    return min(found, key=lambda x: abs(x - near)) if found else math.nan


def tune(game: str | GameSpec, scenario: str | Path | Scenario, param: str, target: str,
         lo: float | None = None, hi: float | None = None, seed: int = 0, jobs: int = 1,
         policies: dict[str, str] | None = None, start_games: int = 4000, max_games: int = 256_000,
         resolution: float | None = None) -> TuneResult:
    spec = resolve_game(game)
    scen = scenario_of(spec, scenario)
    fld = numeric_field(spec.rules_model, param)
    metric = find_metric(spec, scen.rules, parse_target(target)[0])
    goal = parse_target(target)[1]
    lo = fld.lo if lo is None else lo
    hi = fld.hi if hi is None else hi
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        raise UserError(f"--range for {param}: expected finite lo < hi (the field's bounds are {fld.lo}..{fld.hi})")
    step = max(1.0, round(resolution or fld.step)) if fld.is_int else (resolution or fld.step)
    probes: dict[float, Probe] = {}

    def probe(x: float) -> int:
        """Play at x until its 99 % interval is clear of the target: +1 above, -1 below, 0 undecided."""
        p = probes.setdefault(x, Probe(x))
        rules = scenario_of(spec, scen, [f"{param}={format_value(x, fld.is_int)}"]).rules
        policy = spec.policy_array(rules, policies)
        while True:
            n = p.summary.n_games
            want = start_games if n == 0 else min(n, max_games - n)
            if want > 0 and (n == 0 or n < max_games):
                est = p.estimate(metric, DECISION_CONFIDENCE) if n else None
                if est is None or est.lo <= goal <= est.hi:
                    p.summary.add(play_range(spec, rules, policy, seed, n, want, jobs))
                    continue
            est = p.estimate(metric, DECISION_CONFIDENCE)
            return 1 if est.lo > goal else -1 if est.hi < goal else 0

    def snap(x: float) -> float:
        return lo + round((x - lo) / step) * step

    side_a, side_b = probe(lo), probe(hi)
    if side_a == side_b != 0:
        ea, eb = probes[lo].estimate(metric), probes[hi].estimate(metric)
        raise UserError(f"--target {target}: not reached between {param}={format_value(lo, fld.is_int)} "
                        f"({ea.value:.4f}) and {format_value(hi, fld.is_int)} ({eb.value:.4f})")
    a, b = lo, hi
    side, mid = None, None
    note = "bracket narrowed to one step"
    while side_a != 0 and side_b != 0 and b - a > step * (1 + 1e-9):
        mid = snap((a + b) / 2)
        if not a < mid < b:
            break
        side = probe(mid)
        if side == 0:
            note = f"{param}={format_value(mid, fld.is_int)} is within noise of the target at {max_games:,} games"
            break
        if side == side_a:
            a = mid
        else:
            b, side_b = mid, side
    ordered = [probes[x] for x in sorted(probes)]
    if side_a == 0 or side_b == 0:  # a range edge is itself within noise of the target
        edge = probes[lo] if side_a == 0 else probes[hi]
        return TuneResult(param, fld.is_int, metric, goal, edge.x, edge.x, edge.x, edge, ordered,
                          f"{param}={format_value(edge.x, fld.is_int)} (a range edge) is within noise of the target")
    if side == 0:  # undecided probe: pair it with the bracket end on the far side of the target
        mid_value = probes[mid].estimate(metric).value
        a, b = (mid, b) if (mid_value - goal) * side_a > 0 else (a, mid)
    n = min(max_games, max(probes[a].summary.n_games, probes[b].summary.n_games))
    value, half = _paired_root(spec, scen, param, fld.is_int, metric, goal, a, b, n, seed, jobs, policies)
    best = min(ordered, key=lambda p: abs(p.estimate(metric).value - goal))
    note += f"; final line through {format_value(a, fld.is_int)} and {format_value(b, fld.is_int)} on {n:,} paired games"
    bump = _not_monotone(ordered, metric, fld.is_int)
    return TuneResult(param, fld.is_int, metric, goal, value, max(lo, value - half), min(hi, value + half),
                      best, ordered, note + (f"; WARNING: not monotone ({bump}), the root may not be unique" if bump else ""))


def _not_monotone(ordered: list[Probe], metric: Metric, is_int: bool) -> str:
    """A pair of probes that clearly (99 % intervals apart) goes against the trend of the range ends."""
    ests = [p.estimate(metric, DECISION_CONFIDENCE) for p in ordered]
    rising = ests[-1].value > ests[0].value
    for i in range(len(ordered)):
        for j in range(i + 1, len(ordered)):
            if (ests[i].lo > ests[j].hi) if rising else (ests[i].hi < ests[j].lo):
                return f"{format_value(ordered[i].x, is_int)} → {format_value(ordered[j].x, is_int)}"
    return ""


def _paired_root(spec: GameSpec, scen: Scenario, param: str, is_int: bool, metric: Metric, goal: float,
                 a: float, b: float, n: int, seed: int, jobs: int, policies: dict[str, str] | None
                 ) -> tuple[float, float]:
    """Root of the line through f(a) and f(b), both played on the same n games, and its 95 % half-width.

    With common random numbers the level f(a) carries the shared luck of the sample while the
    paired difference f(b) - f(a) is precise; the delta method combines both, with their covariance.
    """
    arms = []
    for x in (a, b):
        rules = scenario_of(spec, scen, [f"{param}={format_value(x, is_int)}"]).rules
        arms.append((rules, spec.policy_array(rules, policies)))
    (s,) = paired_runs(spec, arms[0], [arms[1]], [metric], n, seed, jobs)
    name = metric.name
    mx, my = s.sx[name] / n, s.sy[name] / n
    var_x = (s.sxx[name] - n * mx * mx) / (n - 1)
    var_y = (s.syy[name] - n * my * my) / (n - 1)
    cov_xy = (s.sxy[name] - n * mx * my) / (n - 1)
    d = my - mx
    if d == 0:
        return (a + b) / 2, (b - a) / 2
    u = (goal - mx) / d
    var_u = (var_x + u * u * (var_x + var_y - 2 * cov_xy) + 2 * u * (cov_xy - var_x)) / n / (d * d)
    z = sps.norm.ppf(0.5 + stats.CONFIDENCE / 2)
    return a + (b - a) * u, float(z * (b - a) * math.sqrt(max(var_u, 0.0)))


def print_tune(result: TuneResult) -> None:
    from sim.core.display import console

    r = result
    fmt = (lambda v: f"{v:.2f}") if r.is_int else (lambda v: f"{v:.4g}")
    console.print(f"[bold]{r.param}[/bold] bringing {r.metric.label} to {r.target:g}: "
                  f"{fmt(r.value)} [95 % interval {fmt(r.lo)}, {fmt(r.hi)}] · {r.games:,} games · {r.note}")
    if r.is_int:
        whole = sorted({math.floor(r.lo), round(r.value), math.ceil(r.hi)})
        console.print(f"{r.param} is a whole number: use {round(r.value)} (the fitted {fmt(r.value)} rounded; "
                      f"the interval spans {', '.join(map(str, whole))})")
    best = r.best.estimate(r.metric)
    console.print(f"nearest probed value: {r.param}={format_value(r.best.x, r.is_int)} gives "
                  f"{r.metric.label} = {best}")
    for p in r.probes:
        console.print(f"  {r.param}={format_value(p.x, r.is_int):>8}  {p.estimate(r.metric)}")
