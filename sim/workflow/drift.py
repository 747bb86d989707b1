"""The drift gate: has a code change moved any headline win rate beyond noise?

``reports/baselines/<game>.json`` holds each headline rate of the base scenario measured on
``n_baseline`` games with ``seed``. ``sim drift check`` plays ``n_check`` games with a different
fixed seed (so check and baseline are independent samples) and tests every headline rate of every
game checked, at every player count the game supports with that count's default bots, with a
two-sample score test, Holm-corrected over all of them at a family-wise false-alarm rate of 1 %.

Exit codes of ``sim drift check`` (one meaning each): 0 no headline rate moved; 1 a rate moved
beyond noise (a table says which); 2 bad input (an unknown game, a bad option); 3 a baseline is
missing for a game asked for, damaged, or no longer matches the game's metrics (run
``sim drift update GAME``). A headline rate the game produces but its baseline lacks is a warning.

Game counts (docs/workflow.md gives the arithmetic): with M headline rates in the family, each
rate must be caught at level 0.01 / M (Holm's first step, the strictest) with 99 % power when it
moves by 1 percentage point. ``sim.core.stats.games_needed(p, 0.01, 0.01 / M, 0.99)`` gives n0,
the games per arm when both arms are equal. The baseline is played once, on purpose, with
``BASELINE_FACTOR`` × n0 games; the check then needs n_c with 1/n_c + 1/n_b = 2/n0.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sim.core import registry, stats
from sim.core.errors import UserError
from sim.core.game import Chunk, GameSpec, Metric
from sim.workflow.common import headline_metrics, play_range, resolve_game, scenario_of, toolkit_version

FAMILY_ALPHA = 0.01
POWER = 0.99
SHIFT = 0.01  # a 1-percentage-point move in a headline rate
BASELINE_FACTOR = 4
BASELINE_SEED = 1
CHECK_SEED = 2
SCENARIO = "base"


EXIT_MOVED = 1
EXIT_BASELINE = 3


class BaselineError(UserError):
    """A baseline that is missing, damaged or out of step with the game: ``sim drift check`` exits 3."""


class BaselineRate(BaseModel):
    """One headline rate of a baseline: successes out of n games at a player count with its default bots."""

    model_config = ConfigDict(extra="forbid", strict=True)
    metric: str = Field(min_length=1)
    label: str
    value: float = Field(ge=0, le=1)
    successes: int = Field(ge=0)
    n: int = Field(ge=1)
    players: int | None = None  # None: the base scenario's count (baselines written before counts were added)
    bots: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _successes_within_n(self) -> BaselineRate:
        if self.successes > self.n:
            raise ValueError(f"successes {self.successes} > n {self.n}")
        if abs(self.value - self.successes / self.n) > 1e-9:
            raise ValueError(f"value {self.value} is not successes / n = {self.successes / self.n}")
        return self


class BaselineFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    scenario: str
    seed: int = Field(ge=0)
    n: int = Field(ge=1)
    toolkit_version: str
    created: str
    n_metrics_designed: int = Field(ge=1)
    metrics: list[BaselineRate] = Field(min_length=1)


def baseline_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "reports" / "baselines"


def rate_metrics(spec: GameSpec, rules) -> list[Metric]:
    return [m for m in headline_metrics(spec, rules) if m.kind == "rate"]


@cache
def equal_arm_games(n_metrics: int, p: float = 0.5) -> int:
    """n0: games per arm for 99 % power against a 1-point move at level 0.01 / M, equal arms."""
    return stats.games_needed(p, SHIFT, FAMILY_ALPHA / max(1, n_metrics), POWER)


def check_games(n0: int, n_baseline: int) -> int:
    """Check games n_c so that 1/n_c + 1/n_b = 2/n0 (same power as two arms of n0)."""
    room = 2 / n0 - 1 / n_baseline
    if room <= 0:
        raise UserError(f"the baseline of {n_baseline:,} games is too small for the drift check "
                        f"(needs more than {n0 // 2:,}): run `sim drift update`")
    return math.ceil(1 / room)


@dataclass
class Baseline:
    game: str
    scenario: str
    seed: int
    n: int
    toolkit_version: str
    created: str
    n_metrics_designed: int  # M used to size the baseline
    metrics: list[dict]  # metric, label, value, successes, n, players, bots

    def path(self, folder: Path | None = None) -> Path:
        return (folder or baseline_dir()) / f"{self.game}.json"

    def save(self, folder: Path | None = None) -> Path:
        path = self.path(folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.__dict__, indent=2, ensure_ascii=False) + "\n")
        return path

    def same_as_saved(self, folder: Path | None = None) -> bool:
        """The file on disk says the same apart from its date (``created``): rewriting it would change nothing
        but a timestamp."""
        try:
            saved = json.loads(self.path(folder).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return False
        mine = json.loads(json.dumps(self.__dict__, ensure_ascii=False))
        return {k: v for k, v in saved.items() if k != "created"} == {k: v for k, v in mine.items() if k != "created"}

    @classmethod
    def load(cls, game: str, folder: Path | None = None) -> Baseline | None:
        """The baseline of ``game``, validated (a damaged file is a BaselineError naming the field)."""
        path = (folder or baseline_dir()) / f"{game}.json"
        if not path.is_file():
            return None
        fix = f"; rewrite it with `sim drift update {game}`"
        try:
            data = BaselineFile.model_validate(json.loads(path.read_text()))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BaselineError(f"{path}: expected a drift baseline written by `sim drift update` "
                                f"({type(exc).__name__}: {exc}){fix}") from None
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err.get("loc", ())) or "(file)"
            raise BaselineError(f"{path}: {where}: {err.get('msg')}{fix}") from None
        if data.game != game:
            raise BaselineError(f"{path}: game: expected {game!r}, found {data.game!r}{fix}")
        return cls(**{**data.model_dump(), "metrics": [m.model_dump() for m in data.metrics]})


def player_counts(spec: GameSpec) -> list[int | None]:
    """The player counts a baseline covers: every count the game supports (the base scenario's first),
    or None for a game without a ``players`` rule."""
    rules = scenario_of(spec, SCENARIO).rules
    if not hasattr(rules, "players"):
        return [None]
    default = int(rules.players)
    return [default] + [p for p in spec.player_counts if p != default]


def _rules_at(spec: GameSpec, players: int | None, sets: tuple[str, ...] = ()):
    from sim.core.runner import resolve_scenario

    return resolve_scenario(spec, SCENARIO, sets, players).rules


def _family_size(specs: list[GameSpec]) -> int:
    return sum(len(rate_metrics(s, _rules_at(s, p))) for s in specs for p in player_counts(s))


def update(games: list[str | GameSpec], jobs: int = 1, folder: Path | None = None,
           family: int | None = None) -> list[Path]:
    """Rewrite the baselines on purpose: BASELINE_FACTOR × n0 games of each base scenario at every player
    count, each with that count's default bots, recording every headline rate ``sim run`` reports. A baseline
    whose content would not change (only its date) is left as it is; returns the files written."""
    specs = [resolve_game(g) for g in games]
    m = family or _family_size(list(registry.all_games().values()) or specs)
    n_b = BASELINE_FACTOR * equal_arm_games(m)
    paths = []
    for spec in specs:
        metrics = []
        for players in player_counts(spec):
            rules = _rules_at(spec, players)
            policy = spec.policy_array(rules)
            bots = spec.policy_names(policy)
            summary = play_range(spec, rules, policy, BASELINE_SEED, 0, n_b, jobs)
            metrics += [{"metric": mt.name, "label": mt.label, "value": summary.sums[mt.name] / n_b,
                         "successes": int(summary.sums[mt.name]), "n": n_b, "players": players, "bots": bots}
                        for mt in rate_metrics(spec, rules)]
        base = Baseline(spec.name, SCENARIO, BASELINE_SEED, n_b, toolkit_version(),
                        dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%MZ"), m, metrics)
        if not base.same_as_saved(folder):
            paths.append(base.save(folder))
    return paths


@dataclass
class DriftRow:
    game: str
    players: int | None
    metric: str
    label: str
    baseline: stats.Estimate
    now: stats.Estimate
    p_value: float
    moved: bool


@dataclass
class DriftReport:
    rows: list[DriftRow]
    missing: list[str]  # registered games without a baseline
    n_check: dict[str, int]
    elapsed_s: float
    unbaselined: list[str] = field(default_factory=list)  # "game: metric at N players" the baselines lack
    seed: int = CHECK_SEED

    @property
    def failed(self) -> bool:
        return any(r.moved for r in self.rows)


def check(games: list[str | GameSpec] | None = None, jobs: int = 1, folder: Path | None = None,
          seed: int = CHECK_SEED, shifted: dict[str, dict[str, float]] | None = None,
          sets: tuple[str, ...] = (), n_games: int | None = None) -> DriftReport:
    """Replay every base scenario at each player count of its baseline with the check seed and test it.

    ``n_games`` replaces the designed check size (e.g. to estimate the false-alarm rate over seeds).
    For measuring the detection rate only: ``shifted`` maps game → metric → a deliberate move added
    to the check's outcomes (see :func:`shift_spec`); ``sets`` changes rules of the checked run.
    """
    specs = [resolve_game(g) for g in games] if games else list(registry.all_games().values())
    began = time.perf_counter()
    loaded = [(s, Baseline.load(s.name, folder)) for s in specs]
    missing = [s.name for s, b in loaded if b is None]
    if games and missing:
        raise BaselineError(f"no drift baseline for {', '.join(missing)}: run `sim drift update {' '.join(missing)}`")
    present = [(s, b) for s, b in loaded if b is not None]
    for _, base in present:
        if seed == base.seed:
            raise UserError(f"--seed {seed}: the baseline of {base.game} was played with this seed; the check "
                            "needs an independent sample (another seed)")
    m = sum(len(b.metrics) for _, b in present)
    rows: list[DriftRow] = []
    p_values: list[float] = []
    n_check: dict[str, int] = {}
    unbaselined: list[str] = []
    for spec, base in present:
        n_c = n_games or check_games(equal_arm_games(m), base.n)  # sized at p = 0.5, the widest case
        n_check[spec.name] = n_c
        played = shift_spec(spec, shifted[spec.name]) if shifted and spec.name in shifted else spec
        by_count: dict[int | None, list[dict]] = {}
        for rec in base.metrics:
            by_count.setdefault(rec.get("players"), []).append(rec)
        for players, records in by_count.items():
            rules = _rules_at(spec, players, sets)
            summary = play_range(played, rules, spec.policy_array(rules), seed, 0, n_c, jobs)
            at = f" at {players} players" if players is not None else ""
            known = {rec["metric"] for rec in records}
            unbaselined += [f"{spec.name}: {mt.name}{at}" for mt in rate_metrics(spec, rules) if mt.name not in known]
            for rec in records:
                if rec["metric"] not in summary.sums:
                    raise BaselineError(f"{base.path(folder)}: metric {rec['metric']!r}{at} is no longer produced by "
                                        f"{spec.name}; if that is intended, run `sim drift update {spec.name}`")
                k_now = int(summary.sums[rec["metric"]])
                before, now = stats.rate(rec["successes"], rec["n"]), stats.rate(k_now, n_c)
                if before.value == now.value and now.value in (0.0, 1.0):  # e.g. an empty seat: nothing to test
                    p = 1.0
                else:
                    p = stats.rate_difference(rec["successes"], rec["n"], k_now, n_c).p_value
                rows.append(DriftRow(spec.name, players, rec["metric"], rec["label"], before, now, p, False))
                p_values.append(p)
    for row, moved in zip(rows, stats.holm(p_values, FAMILY_ALPHA), strict=True):
        row.moved = moved
    return DriftReport(rows, missing, n_check, time.perf_counter() - began, unbaselined, seed)


def shift_spec(spec: GameSpec, moves: dict[str, float]) -> GameSpec:
    """The same game with rate metrics moved on purpose by ``moves`` (e.g. win_0: +0.01).

    A move +δ turns a loss into a win in a random share δ / (1 - p) of the lost games (−δ: the
    reverse), drawn from a generator keyed by (seed, start) of each chunk: a stand-in for a rule
    change that moves exactly that rate, used to measure the gate's detection rate.
    """
    from dataclasses import replace

    def play(rules, policy, seed, start, count) -> Chunk:
        chunk = spec.play(rules, policy, seed, start, count)
        chunk.games["_drift_u"] = np.random.default_rng([seed, start, 7]).random(count)
        return chunk

    def per_game(rules, chunk: Chunk):
        values = dict(spec.per_game(rules, chunk))
        u = chunk.games["_drift_u"]
        for name, delta in moves.items():
            v = np.asarray(values[name], dtype=np.int64).copy()
            p = v.mean() if v.size else 0.0
            if delta > 0:
                flip = (v == 0) & (u < delta / max(1 - p, 1e-9))
                v[flip] = 1
            else:
                flip = (v == 1) & (u < -delta / max(p, 1e-9))
                v[flip] = 0
            values[name] = v
        return values

    return replace(spec, play=play, per_game=per_game)


def print_drift(report: DriftReport) -> None:
    from rich.table import Table

    from sim.core.display import console, estimate_text

    games = ", ".join(f"{g} ({n:,} games per player count)" for g, n in report.n_check.items()) or "no game"
    console.print(f"drift check · seed {report.seed} · {games} · {len(report.rows)} headline rates · family-wise "
                  f"false-alarm rate {100 * FAMILY_ALPHA:.0f}% (Holm) · {report.elapsed_s:.1f} s")
    for name in report.missing:
        console.print(f"[yellow]warning: {name}: no baseline yet (run `sim drift update {name}`); not checked[/yellow]")
    for what in report.unbaselined:
        console.print(f"[yellow]warning: {what}: a headline rate without a baseline, not checked "
                      f"(run `sim drift update {what.split(':')[0]}`)[/yellow]")
    if not report.rows:
        console.print("no baselines: nothing checked")
        return
    shown = [r for r in report.rows if r.moved] if report.failed else report.rows
    table = Table(title="moved beyond noise" if report.failed else "all headline rates within noise",
                  title_justify="left")
    for col in ("game", "players", "metric", "baseline", "now", "p", "moved?"):
        table.add_column(col, justify="left" if col in ("game", "metric") else "right")
    for r in shown:
        table.add_row(r.game, "" if r.players is None else str(r.players), r.label, estimate_text("rate", r.baseline.value, r.baseline.lo, r.baseline.hi),
                      estimate_text("rate", r.now.value, r.now.lo, r.now.hi), f"{r.p_value:.2g}",
                      "[bold red]YES[/bold red]" if r.moved else "no")
    console.print(table)


@dataclass
class GateRates:
    trials: int
    false_alarms: int
    detections: int
    shift: dict[str, float]

    def summary(self) -> tuple[stats.Estimate, stats.Estimate]:
        return stats.rate(self.false_alarms, self.trials), stats.rate(self.detections, self.trials)


def calibrate(game: str | GameSpec, trials: int, metric: str | None = None, jobs: int = 1,
              first_seed: int = 1000, checks_per_baseline: int = 1, rule_change: tuple[str, ...] = ()) -> GateRates:
    """Measure the gate on one game (family = its own headline rates): ``trials`` checks, each against a
    baseline played with a fresh seed (a baseline is shared by ``checks_per_baseline`` checks, each
    with its own seed), once as they are (false alarms) and once with a deliberate change
    (detections): a 1-point move in one headline rate, or the rule change ``rule_change`` if given."""
    import tempfile

    spec = resolve_game(game)
    rules = scenario_of(spec, SCENARIO).rules
    target = metric or rate_metrics(spec, rules)[0].name
    m = len(rate_metrics(spec, rules))  # the base scenario's player count: one baseline per trial
    n_b = BASELINE_FACTOR * equal_arm_games(m)
    false_alarms = detections = 0
    with tempfile.TemporaryDirectory() as tmp:
        for t in range(trials):
            seed = first_seed + t
            if t % checks_per_baseline == 0:
                base_seed = 10_000_000 + seed
                summary = play_range(spec, rules, spec.policy_array(rules), base_seed, 0, n_b, jobs)
                metrics = [{"metric": mt.name, "label": mt.label, "value": summary.sums[mt.name] / n_b,
                            "successes": int(summary.sums[mt.name]), "n": n_b} for mt in rate_metrics(spec, rules)]
                Baseline(spec.name, SCENARIO, base_seed, n_b, toolkit_version(), "", m, metrics).save(Path(tmp))
                direction = 1.0 if summary.sums[target] / n_b < 0.5 else -1.0
            false_alarms += check([spec], jobs, Path(tmp), seed).failed
            moved = None if rule_change else {spec.name: {target: direction * SHIFT}}
            detections += check([spec], jobs, Path(tmp), seed, moved, rule_change).failed
    return GateRates(trials, false_alarms, detections, {", ".join(rule_change): 0.0} if rule_change else {target: SHIFT})
