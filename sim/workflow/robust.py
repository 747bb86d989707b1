"""``sim robust``: does a balance conclusion hold under stronger play?

The game's headline metrics are played again with the game's search bot (``GameSpec.search``) in
place of the scripted bot, first in one role at a time, then in every role at once. Every arm plays
the same game indices with the same seed, so game i of every arm starts from the stream (seed, i)
and each change against the baseline is a paired difference (``sim.core.stats.paired_difference``)
with its 95 % interval, Holm-corrected over the metrics of the arm like ``sim compare``.

A conclusion *flips* when

- a win rate is on the other side of the equal share under search (the baseline's win rates of the roles
  in play added up, divided by their number: 50 % for two sides, about a third for three camps, more where
  wins are shared); for more than two seats alike, a seat's win rate is on the other side of the average
  seat's in the same arm instead;
- two roles (three or more ranked: seats, camps) swap places: the within-arm paired difference of
  their win rates changes sign;
- two items of a ranking the game provides swap places (``spec.extras["robust_ranks"]``: a
  function ``(rules, RunSummary) -> {name: DataFrame}`` whose frames have columns ``item``,
  ``value``, ``lo``, ``hi``, ``n``; e.g. venue values).

A flip is *beyond noise* when the conclusion is settled both ways: the baseline's 95 % interval is
wholly on one side (of the line, or of zero for a paired difference of two roles; for a game's
ranking, the two items' intervals do not overlap) and the arm's wholly on the other. A flip that is
not settled both ways is reported as within noise.

Every arm's chunk is reduced at once to integer sums (its own run summary, the paired sums against
the baseline, the cross sums of the ranked win rates), so the result is identical for any chunking
and job count.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
from pydantic import BaseModel

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import GameSpec, Metric
from sim.core.pages import p_text
from sim.core.paired import PairedSums
from sim.core.runner import (
    RunSummary,
    _iter_parallel,
    chunk_plan,
    games_bar,
    resolve_scenario,
    summarize_chunk,
)
from sim.core.scenario import Scenario, row_in_play
from sim.workflow.common import DEFAULT_CHUNK, active_roles, headline_metrics, is_seated, resolve_game
from sim.workflow.compare import judge

DEFAULT_GAMES = 10_000  # per arm: Wilson half-width at p = 0.5 is 1.96 * sqrt(0.25 / 10000) = 0.98 points
BASELINE = "baseline"
ALL = "all"


@dataclass(frozen=True)
class Arm:
    """One way of playing: which roles the search bot plays, and the policy array that says so."""

    name: str
    searchers: tuple[str, ...]
    policy: np.ndarray = field(compare=False)


@dataclass
class ArmSums:
    """Integer totals of one arm: its run summary, paired sums against the baseline, the cross sums
    Σ x_a x_b of each pair of ranked win rates within the arm, and the search work done."""

    summary: RunSummary = field(default_factory=RunSummary)
    paired: PairedSums = field(default_factory=PairedSums)
    cross: dict[tuple[str, str], int] = field(default_factory=dict)
    decisions: int = 0
    cpu_s: float = 0.0

    def add(self, other: ArmSums) -> None:
        self.summary.add(other.summary)
        self.paired.add(other.paired)
        for key, value in other.cross.items():
            self.cross[key] = self.cross.get(key, 0) + value
        self.decisions += other.decisions
        self.cpu_s += other.cpu_s


@dataclass
class Change:
    """One headline metric in one arm: the baseline's and the arm's estimates and the paired change."""

    arm: str
    metric: str
    label: str
    kind: str
    base: stats.Estimate
    value: stats.Estimate
    diff: float
    lo: float
    hi: float
    p_value: float
    beyond_noise: bool  # Holm over the arm's metrics


@dataclass
class Flip:
    """A balance conclusion of the baseline that the arm reverses."""

    arm: str
    kind: str  # "50 % line", "average seat", "role rank" or the name of a game ranking
    text: str
    beyond_noise: bool


@dataclass
class Robustness:
    """What ``robust`` found, in plain values (written to and read back from JSON)."""

    game: str
    title: str
    scenario: str
    players: int | None
    n_games: int
    seed: int
    budget: dict[str, int]
    bots: dict[str, dict[str, str]]  # arm -> role -> bot
    arms: list[str]
    changes: list[Change]
    flips: list[Flip]
    elapsed_s: float
    search_games_per_cpu_s: float | None  # games of the arms with search, per CPU second
    decisions_per_cpu_s: float | None  # search decisions per CPU second (when the game reports them)
    sources: str  # digest of the compiled sources the result was played with
    date: str
    sums: dict[str, ArmSums] | None = field(default=None, repr=False)  # raw sums (not kept in JSON)
    favours: dict[str, list[str]] = field(default_factory=dict)  # metric -> roles it favours (Metric.favours)
    rules: str = ""  # digest of the rules the result was played with (``rules_digest``)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame([{"arm": c.arm, "metric": c.metric, "label": c.label, "kind": c.kind,
                              "baseline": c.base.value, "baseline_lo": c.base.lo, "baseline_hi": c.base.hi,
                              "value": c.value.value, "lo": c.value.lo, "hi": c.value.hi, "diff": c.diff,
                              "diff_lo": c.lo, "diff_hi": c.hi, "p_value": c.p_value,
                              "beyond_noise": c.beyond_noise, "n": c.value.n} for c in self.changes])

    def to_json(self) -> str:
        data = dataclasses.asdict(dataclasses.replace(self, sums=None))
        data.pop("sums")
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Robustness:
        data = json.loads(text)
        data["changes"] = [Change(**{**c, "base": stats.Estimate(**c["base"]), "value": stats.Estimate(**c["value"])})
                           for c in data["changes"]]
        data["flips"] = [Flip(**f) for f in data["flips"]]
        return cls(**data)


def sources_digest(game: str) -> str:
    """The digest naming the game's engine, bots and analyses (``sim.core.sources.results_digest``): a
    cached result is fresh while it matches."""
    import sim
    from sim.core.registry import package_of
    from sim.core.sources import results_digest

    return results_digest(Path(sim.__file__).resolve().parent, package_of(game))


def rules_digest(rules: BaseModel) -> str:
    """16 hex digits of SHA-256 over the rules a result was played with (the scenario file, ``--set`` and
    ``--players`` resolved): a cached result is fresh only while its scenario still reads the same, so a
    designer who edits a scenario file sees the old result marked stale, not passed off as the new rules'.
    A table by player count counts only by its entry in play: re-tuning the 4-player entry leaves a
    5-player result fresh."""
    in_play = {name: [getattr(rules, name)[row]] for name in type(rules).model_fields
               if (row := row_in_play(rules, name)) is not None}
    return hashlib.sha256(rules.model_copy(update=in_play).model_dump_json().encode()).hexdigest()[:16]


def played_today(sources: str, rules: str, spec: GameSpec, scenario: str, sets: tuple[str, ...] | list[str],
                 players: int | None) -> bool:
    """A cached result (``sim robust``, ``sim skill``) with these digests was played with today's compiled
    sources and with the rules its scenario, ``--set`` and players read today."""
    return sources == sources_digest(spec.name) and rules == rules_digest(
        resolve_scenario(spec, scenario, tuple(sets), players).rules)


# ------------------------------------------------------------------------------------------ arms
def budget_text(spec: GameSpec, budget: str | None) -> str:
    """``search`` or ``search:k=v,...`` from ``--budget "k=v,..."``, checked against the game's options."""
    if spec.search is None:
        raise UserError(_no_search(spec))
    text = spec.search.name + (f":{budget.strip()}" if budget and budget.strip() else "")
    try:
        spec.policy_array(None, {spec.roles[0]: text})
    except UserError as err:
        reason = str(err).split(": ", 1)[-1]
        raise UserError(f"--budget {budget!r}: {reason} (options of {spec.name}'s search bot: "
                        f"{spec.search.syntax()})") from None
    return text


def _no_search(spec: GameSpec) -> str:
    from sim.core.registry import all_games

    having = [name for name, g in all_games().items() if g.search is not None]
    return (f"{spec.name} has no search bot (GameSpec.search): `sim robust` replaces the scripted bots by "
            "search; games with one: " + (", ".join(having) or "none yet"))


def arms_of(spec: GameSpec, rules: BaseModel, policies: dict[str, str], search: str) -> list[Arm]:
    """The baseline (scripted bots), search in each role in play, then search in every role in play."""
    if spec.search is None:
        raise UserError(_no_search(spec))
    for role, text in policies.items():
        if text.partition(":")[0] == spec.search.name:
            raise UserError(f"--policy {role}={text}: the baseline is scripted play; `sim robust` puts the "
                            "search bot in each role itself (set its options with --budget)")
    roles = active_roles(spec, rules)
    arms = [Arm(BASELINE, (), spec.policy_array(rules, policies))]
    for role in roles:
        arms.append(Arm(f"search as {role}", (role,), spec.policy_array(rules, {**policies, role: search})))
    if len(roles) > 1:
        arms.append(Arm(f"search as {ALL}", tuple(roles),
                        spec.policy_array(rules, {**policies, **{r: search for r in roles}})))
    return arms


def search_budget(spec: GameSpec, arm: Arm) -> dict[str, int]:
    """The search options an arm plays with (those of its first searching role)."""
    assert spec.search is not None
    options = spec.search_options(arm.policy)[spec.roles.index(arm.searchers[0])]
    return {name: int(v) for name, v in zip(spec.search.defaults, options, strict=True)}


def ranked_wins(spec: GameSpec, rules: BaseModel, metrics: list[Metric]) -> list[Metric]:
    """The win rates of the roles in play, ranked against one another when there are three or more
    (with two, their order is the 50 % line's conclusion)."""
    roles = set(active_roles(spec, rules))
    wins = [m for m in metrics if m.kind == "rate" and m.name.startswith("win_") and m.name[4:] in roles]
    return wins if len(wins) >= 3 else []


# ------------------------------------------------------------------------------------------ play
def _robust_chunk(spec: GameSpec, rules: BaseModel, policies: list[np.ndarray], names: list[str],
                  ranked: list[str], seed: int, start: int, count: int) -> tuple[int, list[ArmSums]]:
    """Games start..start+count-1 in every arm, reduced to each arm's integer sums."""
    out = []
    base = None
    for policy in policies:
        began = time.process_time()
        chunk = spec.play(rules, policy, seed, start, count)
        sums = ArmSums(summary=summarize_chunk(spec, rules, chunk), cpu_s=time.process_time() - began)
        values = spec.per_game(rules, chunk)
        base = values if base is None else base
        sums.paired = PairedSums.of(base, values, names)
        for a, b in itertools.combinations(ranked, 2):
            sums.cross[(a, b)] = int((np.asarray(values[a], np.int64) * np.asarray(values[b], np.int64)).sum())
        if "search_decisions" in chunk.games:
            sums.decisions = int(chunk.games["search_decisions"].sum())
        out.append(sums)
    return start, out


def play_arms(spec: GameSpec, rules: BaseModel, arms: list[Arm], metrics: list[Metric], ranked: list[Metric],
              n_games: int, seed: int, jobs: int = 1, chunk_size: int = DEFAULT_CHUNK,
              progress: bool | None = None) -> list[ArmSums]:
    """Every arm on games 0..n_games-1 of the run ``seed``, chunk by chunk (same streams in every arm);
    a progress bar of game indices done (every arm) on a terminal."""
    names, ranked_names = [m.name for m in metrics], [m.name for m in ranked]
    policies = [arm.policy for arm in arms]
    size = max(256, min(chunk_size, -(-n_games // (4 * max(1, jobs)))))
    tasks = [(spec, rules, policies, names, ranked_names, seed, start, count)
             for start, count in chunk_plan(n_games, size)]
    totals = [ArmSums() for _ in arms]
    with games_bar(n_games, progress) as advance:
        for _, parts in _iter_parallel(tasks, max(1, jobs), "loky", None, work=_robust_chunk):
            for total, part in zip(totals, parts, strict=True):
                total.add(part)
            advance(parts[0].summary.n_games)
    return totals


# ------------------------------------------------------------------------------------------ flips
def _estimate(summary: RunSummary, metric: Metric) -> stats.Estimate:
    total = summary.sums.get(metric.name, 0)
    if metric.kind == "rate":
        return stats.rate(total, summary.n_games)
    return stats.mean_from_sums(float(total), float(summary.sumsq.get(metric.name, 0)), summary.n_games)


def _side(est: stats.Estimate, line: float) -> tuple[int, bool]:
    """Which side of ``line`` the estimate is on (+1 above, -1 below, 0 on it) and whether its interval is too."""
    side = int(np.sign(est.value - line))
    return side, (est.lo > line if side > 0 else est.hi < line)


def _unsettled(before: bool, after: bool) -> str:
    """Why a flip is within noise: which of the two conclusions its interval does not settle."""
    if before and after:
        return ""
    return " (" + " and ".join(w for w, sure in (("baseline", before), ("arm", after)) if not sure) + " not settled)"


def line_flips(arm: str, base: stats.Estimate, value: stats.Estimate, metric: Metric, share: float = 0.5
               ) -> list[Flip]:
    """A win rate that crosses the equal share ``share`` between the baseline and the arm."""
    (was, was_sure), (now, now_sure) = _side(base, share), _side(value, share)
    if not (was and now and was != now):
        return []
    where = {1: "above", -1: "below"}
    return [Flip(arm, EQUAL_SHARE, f"{metric.label}: {where[was]} the equal share {100 * share:.1f} % "
                 f"({100 * base.value:.2f}%) -> {where[now]} ({100 * value.value:.2f}%)"
                 + _unsettled(was_sure, now_sure), was_sure and now_sure)]


def equal_share(summary: RunSummary, wins: list[Metric]) -> float:
    """The win rate every role in play would have if the game were even: their rates added up (shared wins
    counted) divided by their number (``sim.workflow.fairness``)."""
    rates = [summary.sums.get(m.name, 0) / summary.n_games for m in wins]
    return sum(rates) / len(rates) if rates else 0.5


def _cross(sums: ArmSums, a: str, b: str) -> int:
    """Σ x_a x_b over the run's games (Σ x_a² when a is b)."""
    if a == b:
        return sums.summary.sumsq[a]
    return sums.cross[(a, b)] if (a, b) in sums.cross else sums.cross[(b, a)]


def _excess(sums: ArmSums, seat: str, seats: list[str]) -> stats.Estimate:
    """A seat's win rate minus the average seat's, a mean over the run's games of the per-game contrast
    x_seat - mean_j x_j, with its t interval (from the sums, squares and cross sums)."""
    weights = {m: (1.0 if m == seat else 0.0) - 1.0 / len(seats) for m in seats}
    total = sum(w * sums.summary.sums[m] for m, w in weights.items())
    square = sum(wa * wb * _cross(sums, a, b) for (a, wa), (b, wb) in itertools.product(weights.items(), repeat=2))
    return stats.mean_from_sums(total, square, sums.summary.n_games)


def seat_flips(arm: str, base: ArmSums, sums: ArmSums, seats: list[Metric]) -> list[Flip]:
    """A seat that wins more than the average seat in the baseline and less in the arm (or the reverse)."""
    names = [m.name for m in seats]
    flips = []
    for metric in seats:
        before, after = _excess(base, metric.name, names), _excess(sums, metric.name, names)
        (was, was_sure), (now, now_sure) = _side(before, 0.0), _side(after, 0.0)
        if was and now and was != now:
            where = {1: "above", -1: "below"}
            rate_b = base.summary.sums[metric.name] / base.summary.n_games
            rate_a = sums.summary.sums[metric.name] / sums.summary.n_games
            flips.append(Flip(arm, "average seat", f"{metric.label}: {where[was]} the average seat "
                              f"({100 * rate_b:.2f}% vs {100 * (rate_b - before.value):.2f}%) -> {where[now]} "
                              f"({100 * rate_a:.2f}% vs {100 * (rate_a - after.value):.2f}%)"
                              + _unsettled(was_sure, now_sure), was_sure and now_sure))
    return flips


def _ordered(summary: RunSummary, cross: dict[tuple[str, str], int], a: str, b: str) -> stats.Difference:
    """Win rate of b minus a within one run, a paired difference over its games."""
    s, ss = summary.sums, summary.sumsq
    return stats.paired_difference(summary.n_games, s[a], s[b], ss[a], ss[b], cross[(a, b)])[0]


def rank_flips(arm: str, base: ArmSums, sums: ArmSums, ranked: list[Metric]) -> list[Flip]:
    """Two roles whose order of win rates reverses."""
    flips = []
    for ma, mb in itertools.combinations(ranked, 2):
        before = _ordered(base.summary, base.cross, ma.name, mb.name)
        after = _ordered(sums.summary, sums.cross, ma.name, mb.name)
        if before.diff * after.diff < 0:
            first, second = (mb, ma) if before.diff > 0 else (ma, mb)
            was_sure, now_sure = not before.lo <= 0 <= before.hi, not after.lo <= 0 <= after.hi
            flips.append(Flip(arm, "role rank", f"{first.label} ahead of {second.label} "
                              f"({100 * abs(before.diff):.2f} pt) -> behind ({100 * abs(after.diff):.2f} pt)"
                              + _unsettled(was_sure, now_sure), was_sure and now_sure))
    return flips


def ranking_flips(arm: str, name: str, base: pl.DataFrame, now: pl.DataFrame) -> list[Flip]:
    """Two items of a game ranking (e.g. venues) whose order reverses; beyond noise when their intervals
    are apart in both runs."""
    before = {r["item"]: r for r in base.iter_rows(named=True) if _known(r)}
    after = {r["item"]: r for r in now.iter_rows(named=True) if _known(r)}
    items = [i for i in before if i in after]
    flips = []
    for a, b in itertools.combinations(items, 2):
        d_before, d_after = before[a]["value"] - before[b]["value"], after[a]["value"] - after[b]["value"]
        if d_before * d_after < 0:
            hi, lo = (a, b) if d_before > 0 else (b, a)
            was_sure, now_sure = before[hi]["lo"] > before[lo]["hi"], after[lo]["lo"] > after[hi]["hi"]
            flips.append(Flip(arm, name, f"{hi} ({before[hi]['value']:.3g}) above {lo} ({before[lo]['value']:.3g}) "
                              f"-> below ({after[hi]['value']:.3g} vs {after[lo]['value']:.3g})"
                              + _unsettled(was_sure, now_sure), was_sure and now_sure))
    return flips


def table_ranks(tables, table: str, item: str, by: str | None = None):
    """A ``robust_ranks`` hook from one of the game's tables: its rows ranked by ``value`` (with ``lo``,
    ``hi``, ``n``), named by the ``item`` column, one ranking per value of ``by`` if given. E.g. venues
    within each support-card bucket: ``table_ranks(analysis.tables, "venue values ...", "venue",
    by="support_cards")``; ``tables`` is the game's ``(rules, RunSummary) -> {name: DataFrame}``."""

    def ranks(rules: BaseModel, summary: RunSummary) -> dict[str, pl.DataFrame]:
        frame = tables(rules, summary)[table]
        groups = frame.partition_by(by, maintain_order=True, as_dict=True) if by else {(): frame}
        return {(f"{table}, {by} {key[0]}" if by else table):
                part.select(pl.col(item).cast(pl.String).alias("item"), "value", "lo", "hi", "n")
                for key, part in groups.items()}

    return ranks


def _known(row: dict) -> bool:
    return row["n"] > 0 and all(math.isfinite(row[k]) for k in ("value", "lo", "hi"))


# ------------------------------------------------------------------------------------------ robust
def robust(game: str | GameSpec, scenario: str | Path | Scenario = "base", n_games: int = DEFAULT_GAMES,
           seed: int = 0, jobs: int = 1, policies: dict[str, str] | None = None, budget: str | None = None,
           players: int | None = None, sets: tuple[str, ...] | list[str] = (),
           chunk_size: int = DEFAULT_CHUNK, progress: bool | None = False) -> Robustness:
    """Play the baseline and every search arm on the same games and judge what changed."""
    spec = resolve_game(game)
    if spec.search is None:
        raise UserError(_no_search(spec))
    if n_games < 2:
        raise UserError(f"--games {n_games}: a paired comparison needs at least 2 games per arm")
    if seed < 0:
        raise UserError(f"--seed {seed}: expected a non-negative integer")
    scen = resolve_scenario(spec, scenario, tuple(sets), players)
    rules = scen.rules
    search = budget_text(spec, budget)
    arms = arms_of(spec, rules, dict(policies or {}), search)
    metrics = headline_metrics(spec, rules)
    if not metrics:
        raise UserError(f"{spec.name} declares no headline metric")
    ranked = ranked_wins(spec, rules, metrics)
    began = time.perf_counter()
    totals = play_arms(spec, rules, arms, metrics, ranked, n_games, seed, jobs, chunk_size, progress)
    elapsed = time.perf_counter() - began
    base = totals[0]
    seats_alike = is_seated(spec) and len(ranked) >= 3  # read against the average seat, not 50 %
    roles = active_roles(spec, rules)
    wins = [m for m in metrics if m.kind == "rate" and m.name.startswith("win_") and m.name[4:] in roles]
    share = equal_share(base.summary, wins)
    ranks = spec.extras.get("robust_ranks")
    base_ranks = ranks(rules, base.summary) if ranks else {}
    changes: list[Change] = []
    flips: list[Flip] = []
    for arm, sums in zip(arms[1:], totals[1:], strict=True):
        for row in judge(sums.paired, metrics):
            d = row.difference
            if d is None:  # one value in every game of both arms (e.g. an empty seat): nothing to show
                continue
            b, v = _estimate(base.summary, row.metric), _estimate(sums.summary, row.metric)
            changes.append(Change(arm.name, row.metric.name, row.metric.label, row.metric.kind, b, v,
                                  d.diff, d.lo, d.hi, d.p_value, row.beyond_noise))
            if row.metric.kind == "rate" and row.metric.name.startswith("win_") and not seats_alike:
                flips += line_flips(arm.name, b, v, row.metric, share)
        flips += seat_flips(arm.name, base, sums, ranked) if seats_alike else []
        flips += rank_flips(arm.name, base, sums, ranked)
        for name, frame in (ranks(rules, sums.summary) if ranks else {}).items():
            flips += ranking_flips(arm.name, name, base_ranks[name], frame)
    searching = totals[1:]
    cpu = sum(t.cpu_s for t in searching)
    decisions = sum(t.decisions for t in searching)
    return Robustness(
        spec.name, spec.title, scen.name, getattr(rules, "players", None), n_games, seed,
        search_budget(spec, arms[1]),
        {arm.name: _in_play(spec.policy_names(arm.policy), roles) for arm in arms}, [a.name for a in arms], changes,
        flips,
        elapsed, len(searching) * n_games / cpu if cpu > 0 else None,
        decisions / cpu if cpu > 0 and decisions else None, sources_digest(spec.name),
        dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), dict(zip([a.name for a in arms], totals, strict=True)),
        metric_favours(metrics), rules_digest(rules))


def metric_favours(metrics: list[Metric]) -> dict[str, list[str]]:
    """Each metric's roles for whom more is better: those it declares (``Metric.favours``), else for a win
    rate ``win_<role>`` its role."""
    out = {}
    for m in metrics:
        roles = list(m.favours) or ([m.name[4:]] if m.kind == "rate" and m.name.startswith("win_") else [])
        if roles:
            out[m.name] = roles
    return out


def _in_play(bots: dict[str, str], roles: list[str]) -> dict[str, str]:
    return {role: bot for role, bot in bots.items() if role in roles}


# ------------------------------------------------------------------------------------------ output
def _pct(kind: str, est: stats.Estimate) -> str:
    if kind == "rate":
        return f"{100 * est.value:.2f}% [{100 * est.lo:.2f}, {100 * est.hi:.2f}]"
    return f"{est.value:.3f} [{est.lo:.3f}, {est.hi:.3f}]"


def change_text(c: Change) -> str:
    scale, unit = (100, " pt") if c.kind == "rate" else (1, "")
    return f"{scale * c.diff:+.2f}{unit} [{scale * c.lo:+.2f}, {scale * c.hi:+.2f}]"


def table_rows(r: Robustness) -> list[list[str]]:
    """One row per arm and headline metric: baseline, arm, change with its interval, p, beyond noise, n."""
    return [[c.arm, c.label, _pct(c.kind, c.base), _pct(c.kind, c.value), change_text(c), p_text(c.p_value),
             "YES" if c.beyond_noise else "no", f"{c.value.n:,}"] for c in r.changes]


TABLE_HEADER = ["arm", "metric", "baseline [95 %]", "arm [95 %]", "change [95 % paired]", "p", "beyond noise",
                "n"]


EQUAL_SHARE = "equal share"
SEAT_FLIPS = (EQUAL_SHARE, "50 % line", "average seat", "role rank")  # flips of a role's own win rate ("50 % line":
# a result written before the line was the equal share)


def searcher(arm: str) -> str | None:
    """The one role an arm gives the search bot ("search as frogman" -> "frogman"); None for every role."""
    role = arm.removeprefix("search as ")
    return None if role == ALL else role


def is_expected(c: Change, favours: dict[str, list[str]] | None = None) -> bool:
    """The expected effect of the stronger bot in one role: what favours that role rises (its win rate, and the
    metrics the game declares on its side, ``Metric.favours``), what favours another role falls. ``favours``:
    metric -> roles (``Robustness.favours``); a result without it knows only the win rates ``win_<role>``."""
    role = searcher(c.arm)
    roles = (favours or {}).get(c.metric) or ([c.metric[4:]] if c.metric.startswith("win_") else [])
    if role is None or not roles:
        return False
    return (c.diff > 0) == (role in roles)


def changed_conclusions(r: Robustness) -> list[Change]:
    """Headline changes beyond noise besides the expected effect, largest first."""
    return sorted((c for c in r.changes if c.beyond_noise and not is_expected(c, r.favours)),
                  key=lambda c: -abs(c.diff))


def arm_words(arm: str) -> str:
    role = searcher(arm)
    return "with search in every role" if role is None else f"with search as {role} (the others scripted)"


def change_sentence(c: Change) -> str:
    """A change as a sentence that can be checked: "with search in every role, a politician wins: 49.8 % ->
    43.1 % (-6.7 pt [-7.9, -5.5])"."""
    if c.kind == "rate":
        values = f"{100 * c.base.value:.1f} % -> {100 * c.value.value:.1f} %"
    else:
        values = f"{c.base.value:.2f} -> {c.value.value:.2f}"
    return f"{arm_words(c.arm)}, {c.label}: {values} ({change_text(c)})"


def robust_summary(r: Robustness) -> str:
    """The stronger-play finding in plain words: what changes beyond noise besides the expected effect."""
    changed = changed_conclusions(r)
    expected = [c for c in r.changes if c.beyond_noise and is_expected(c, r.favours)]
    head = (f"Under stronger play (search in place of the scripted bots, {r.n_games:,} games per arm), "
            f"{len(changed)} headline figure(s) change beyond noise besides the expected effect")
    tail = (f" ({len(expected)} change(s) are the expected effect: a role given the stronger bot wins more and "
            "the others less, and what goes with each side's win moves with it).")
    if not changed:
        return head + tail
    shown = "; ".join(change_sentence(c) for c in changed[:3])
    return f"{head}: {shown}{'; ...' if len(changed) > 3 else ''}{tail}"


def flip_lines(r: Robustness) -> list[str]:
    """The flips: a line crossed or a ranking reversed; in an arm where one role searches, its own win
    rate crossing a line is the expected effect and said so. 'settled': the baseline's interval and the
    arm's both lie clear of the line (or the ranking's gap); else the baseline is too close to call."""
    if not r.flips:
        return ["No balance conclusion flips: no win rate crosses the equal share and no ranking reverses."]

    def expected(f: Flip) -> bool:
        return searcher(f.arm) is not None and f.kind in SEAT_FLIPS

    ordered = sorted(r.flips, key=lambda f: (expected(f), not f.beyond_noise))
    return [f"{'expected effect' if expected(f) else 'changed'} · "
            f"{'settled' if f.beyond_noise else 'baseline too close to call'} · {arm_words(f.arm)} · {f.kind}: "
            f"{f.text}" for f in ordered]


def speed_line(r: Robustness) -> str:
    parts = [f"{r.n_games:,} games per arm, {len(r.arms)} arms, {r.elapsed_s:.0f} s"]
    if r.search_games_per_cpu_s:
        parts.append(f"arms with search {r.search_games_per_cpu_s:,.0f} games per CPU-s")
    if r.decisions_per_cpu_s:
        parts.append(f"{r.decisions_per_cpu_s:,.0f} search decisions per CPU-s")
    return " · ".join(parts)


def print_robust(r: Robustness) -> None:
    from rich.table import Table

    from sim.core.display import console

    budget = ", ".join(f"{k}={v}" for k, v in r.budget.items()) or "none"
    console.print(f"[bold]{r.title}[/bold] · does it hold under stronger play? · scenario {r.scenario}"
                  + (f" · {r.players} players" if r.players else "") + f" · seed {r.seed} · search budget {budget}")
    console.print("baseline bots: " + ", ".join(f"{k}={v}" for k, v in r.bots[BASELINE].items()))
    console.print(speed_line(r))
    table = Table(title=f"headline metrics: arm − baseline on the same {r.n_games:,} games (n per arm), "
                  "95 % paired interval, Holm over the arm's metrics", title_justify="left")
    for col in TABLE_HEADER[:-1]:
        table.add_column(col, justify="left" if col in ("arm", "metric") else "right")
    for row in table_rows(r):
        row[6] = "[bold red]YES[/bold red]" if row[6] == "YES" else row[6]
        table.add_row(*row[:-1])
    console.print(table)
    console.print(robust_summary(r))
    for c in changed_conclusions(r):
        console.print(f"  [bold red]{change_sentence(c)}[/bold red]")
    console.print("[bold]flips[/bold] (a line crossed or a ranking reversed under search):")
    for line in flip_lines(r):
        console.print(("  [bold red]" if line.startswith("changed · settled") else "  ") + line
                      + ("[/bold red]" if line.startswith("changed · settled") else ""))


def robust_figure(r: Robustness):
    """One panel per headline metric: the baseline and each arm with its 95 % interval."""
    import matplotlib.pyplot as plt

    from sim.core.pages import use_fonts

    use_fonts()

    labels = [c.label for c in r.changes if c.arm == r.arms[1]]
    cols = 2 if len(labels) > 1 else 1
    rows = -(-len(labels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(8.27, 1.2 + 2.3 * rows), squeeze=False)
    names = [BASELINE] + r.arms[1:]
    wins = [c.base.value for c in r.changes if c.arm == r.arms[1] and c.kind == "rate" and c.metric.startswith("win_")]
    share = sum(wins) / len(wins) if wins else 0.5  # the baseline's equal share, shared wins counted
    for ax, label in zip(axes.flat, labels, strict=False):
        per_arm = [c for c in r.changes if c.label == label]
        kind = per_arm[0].kind
        scale = 100 if kind == "rate" else 1
        points = [per_arm[0].base] + [c.value for c in per_arm]
        for x, est in enumerate(points):
            colour = "black" if x == 0 else ("tab:red" if per_arm[x - 1].beyond_noise else "tab:blue")
            ax.errorbar(x, scale * est.value, yerr=[[scale * (est.value - est.lo)], [scale * (est.hi - est.value)]],
                        fmt="o", color=colour, capsize=3)
        if kind == "rate" and per_arm[0].metric.startswith("win_"):
            ax.axhline(100 * share, color="grey", linestyle="--", linewidth=0.8,
                       label=f"equal share {100 * share:.1f} %")
            ax.legend(fontsize=6, loc="best")
        ax.set_xticks(range(len(names)), [n.replace("search as ", "search: ") for n in names], fontsize=7,
                      rotation=20)
        ax.set_title(label, fontsize=9)
        ax.set_ylabel("%" if kind == "rate" else "mean", fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(labels):]:
        ax.axis("off")
    fig.suptitle(f"{r.title}: headline metrics under search\n({r.n_games:,} games per arm, the same "
                       "games in every arm; 95 % intervals; red: change beyond noise)", fontsize=9)
    fig.tight_layout()
    return fig


def write_robust(r: Robustness, out: Path) -> list[Path]:
    """``<game>-robust.json`` (read back by the report), ``.csv`` (the table) and ``.png`` (the plot)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{r.game}-robust"
    paths = [stem.with_suffix(".json"), stem.with_suffix(".csv"), stem.with_suffix(".png")]
    paths[0].write_text(r.to_json() + "\n")
    r.frame().write_csv(paths[1])
    fig = robust_figure(r)
    fig.savefig(paths[2], dpi=120)
    plt.close(fig)
    return paths


def read_result(path: Path, parse):
    """A result file a command wrote (``parse``: its ``from_json``), or None when it is missing or unreadable."""
    if not path.is_file():
        return None
    try:
        return parse(path.read_text())
    except (ValueError, TypeError, KeyError):
        return None


def cached(out: Path, spec: GameSpec, scenario: str, players: int | None) -> Robustness | None:
    """A result ``sim robust --out`` wrote for this game and scenario, if the compiled code and the scenario's
    rules are unchanged."""
    result = read_result(out / f"{spec.name}-robust.json", Robustness.from_json)
    if result is None or result.scenario != scenario or result.players != players:
        return None
    return result if played_today(result.sources, result.rules, spec, scenario, (), players) else None
