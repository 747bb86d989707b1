"""``sim skill``: the skill curve, the headline metrics as every role plays stronger.

Levels: the scripted bots (the default, strongest scripted bot of every role), then the game's search
bot in every role at budget B, 2B, 4B, ... (``--ladder``; the budget option is the search's first,
``rollouts`` in every game). Every level plays the same game indices with the same seed, so game i of
every level starts from the stream (seed, i) and the change from one level to the next is a paired
difference (``sim.core.stats.paired_difference``) with its 95 % interval.

A headline has *settled* at a level when its paired change from the level before is no larger than
the tolerance: either the change's whole 95 % interval lies inside ± the tolerance (equivalence), or
the change is within noise (its interval covers 0), at most ± the tolerance itself, and the level's own
95 % interval is at most ± the tolerance wide (so a small sample cannot settle by being vague). The
curve has settled when every headline has at the same level. The ladder stops there, at its last
budget, or when the next level would pass the time limit (a level's cost is predicted from the last
one's, doubled with the budget). Whether the strict equivalence holds is printed beside it.

Exploitability gap (per level and role): that role alone searches at 4x the level's budget (at the
scripted level: 4x the ladder's first budget, the deviator of the first search level) while the others
stay at the level; the gap is the paired gain of the role's win rate against the level itself. Strong
play has small gaps; a gap that does not shrink as the level rises says the level is still exploitable.
The deviators play the level's first ``gap_games`` games only (all by default): at 4x a large budget
they cost more than the level itself.

Each chunk is reduced to per-game values (to pair with the next level) and integer sums, so the
result is the same for any chunking, job count and backend (loky or Dask).

Levels are cached (``levels/`` beside the curve, one file a level): a level's per-game values, its
gaps' sums and its cost, named by everything that fixes them (game, sources and rules digests, seed,
games, the level's and the deviators' bots, gap games). A later run that meets the same level reads
it instead of playing it, so extending a ladder by one budget plays that budget alone, paired with
the cached level before it. While a level plays, its finished chunks are kept beside it
(``levels/<game>-<key>/``), so a level stopped half way goes on where it stopped. A level longer than a
working session can be paused (``--pause-after``): no chunk begins after the pause time, the chunks in
play finish and are kept, and the same command goes on from them later.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
import math
import re
import shutil
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import GameSpec, Metric
from sim.core.paired import PairedSums
from sim.core.runner import _iter_parallel, chunk_plan, games_bar, resolve_scenario, stop_workers
from sim.workflow.common import DEFAULT_CHUNK, active_roles, headline_metrics, resolve_game
from sim.workflow.robust import _no_search, played_today, read_result, rules_digest, sources_digest

SCRIPTED = "scripted"
DEVIATOR = 4  # the gap's searching role plays at this multiple of the level's budget
DEFAULT_GAMES = 10_000  # a ±1 pt interval on a rate near 50 % needs about 9,600
DEFAULT_TOLERANCE = 0.01  # ±1 point
DEFAULT_OUT = Path("reports/skill")
RUNGS = 6  # levels of search in the default ladder: B .. 32B
CHUNKS_A_JOB = 16  # a level's chunks per job (at most): what a stopped level loses is at most one a job
MIN_CHUNK = 64  # games a chunk of a level (at least), whatever ``chunk_size`` asks


class Paused(Exception):
    """A chunk of a level had not begun when the pause time came; the chunks that finished are kept."""


@dataclass
class Point:
    """One headline at one level: its estimate, and the paired change from the level before."""

    level: str
    metric: str
    label: str
    value: stats.Estimate
    change: tuple[float, float, float] | None  # (diff, lo, hi) against the previous level; None at the first


@dataclass
class Gap:
    """One role searching at 4x the level's budget, the others at the level: its paired win-rate gain."""

    level: str
    role: str
    deviator: str
    diff: float
    lo: float
    hi: float
    n: int


@dataclass
class Verdict:
    """One headline: settled at a level (its value there) or not (its last change)."""

    metric: str
    label: str
    settled: bool
    level: str
    value: stats.Estimate
    change: tuple[float, float, float] | None
    trend: list[float] = dataclasses.field(default_factory=list)  # not settled: ``steady_trend``'s changes

    def text(self, tolerance: float) -> str:
        if self.settled:
            return (f"{self.label}: settled at {self.level}: {100 * self.value.value:.2f}% "
                    f"[{100 * self.value.lo:.2f}, {100 * self.value.hi:.2f}]")
        if self.change is None:
            return f"{self.label}: not settled: one level only ({self.level})"
        d, lo, hi = (100 * x for x in self.change)
        return (f"{self.label}: not settled: last change {d:+.2f} pt [{lo:+.2f}, {hi:+.2f}] at {self.level} "
                f"(tolerance ±{100 * tolerance:.1f} pt)" + (f"; {self.trend_text()}" if self.trend else ""))

    def trend_text(self, value: bool = True) -> str:
        """The steady trend in words and where it points if stronger play keeps it: "it fell at each of the
        last 3 steps up the ladder (...): if stronger play keeps lowering it, its strong-play value is below
        this level's 42.0 % [41.0, 42.9]" (``value=False``: "... below this level's", for a sentence that
        gives the value already)."""
        rising = self.trend[0] > 0
        steps = ", ".join(f"{100 * d:+.2f}" for d in self.trend)
        figure = f" {100 * self.value.value:.1f} % [{100 * self.value.lo:.1f}, {100 * self.value.hi:.1f}]"
        return (f"it {'rose' if rising else 'fell'} at each of the last {len(self.trend)} steps up the ladder "
                f"({steps} pt, each beyond noise): if stronger play keeps {'raising' if rising else 'lowering'} "
                f"it, its strong-play value is {'above' if rising else 'below'} this level's" + figure * value)


@dataclass
class InPlay:
    """A level partly played (stopped or paused half way): the games its kept chunks hold and each headline
    on them, with its change from the level before paired on those same games."""

    level: str
    kept: int
    n_games: int
    points: list[Point]
    folder: str  # where the chunks are kept (``levels/<game>-<key>/``)


@dataclass
class LevelCost:
    level: str
    cpu_s: float
    decisions: int
    games: int

    @property
    def decisions_per_cpu_s(self) -> float | None:
        return self.decisions / self.cpu_s if self.decisions and self.cpu_s > 0 else None


@dataclass
class SkillCurve:
    """What ``skill`` found, in plain values (written to and read back from JSON)."""

    game: str
    title: str
    scenario: str
    sets: list[str]
    players: int | None
    players_asked: int | None  # --players as given (names the cached file)
    n_games: int
    seed: int
    tolerance: float
    option: str  # the budget option the ladder raises
    ladder: list[int]
    levels: list[str]  # levels played, scripted first
    bots: dict[str, dict[str, str]]  # level -> role -> bot
    points: list[Point]
    gaps: list[Gap]
    verdicts: list[Verdict]
    costs: list[LevelCost]
    stopped: str  # "settled", "ladder end", "time limit", "paused" (``--pause-after``; the levels whole so far) or
    # "status" (``--status``: played nothing)
    elapsed_s: float
    sources: str
    date: str
    rules: str = ""  # digest of the rules the curve was played with (``robust.rules_digest``)
    in_play: InPlay | None = None  # the first level not whole, if chunks of it are kept (``level_in_play``)

    @property
    def settled(self) -> bool:
        return self.stopped == "settled"

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> SkillCurve:
        data = json.loads(text)

        def change(c):
            return tuple(c) if c is not None else None

        def point(p):
            return Point(**{**p, "value": stats.Estimate(**p["value"]), "change": change(p["change"])})

        data["points"] = [point(p) for p in data["points"]]
        data["gaps"] = [Gap(**g) for g in data["gaps"]]
        data["verdicts"] = [Verdict(**{**v, "value": stats.Estimate(**v["value"]), "change": change(v["change"])})
                            for v in data["verdicts"]]
        data["costs"] = [LevelCost(**c) for c in data["costs"]]
        if data.get("in_play"):
            data["in_play"] = InPlay(**{**data["in_play"], "points": [point(p) for p in data["in_play"]["points"]]})
        return cls(**data)


# ------------------------------------------------------------------------------------------ levels
def default_ladder(spec: GameSpec) -> list[int]:
    """B, 2B, ... 32B with B a quarter of the search's default budget (at least 1)."""
    assert spec.search is not None
    first = max(1, spec.search.options[0][1] // 4)
    return [first << k for k in range(RUNGS)]


def parse_ladder(text: str) -> list[int]:
    """``--ladder 4,8,16``: rising positive budgets."""
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"--ladder {text!r}: expected rising positive integers, e.g. 4,8,16,32") from None
    if not values or any(v < 1 for v in values) or any(b <= a for a, b in zip(values, values[1:], strict=False)):
        raise UserError(f"--ladder {text!r}: expected rising positive integers, e.g. 4,8,16,32")
    return values


def level_name(spec: GameSpec, budget: int | None) -> str:
    assert spec.search is not None
    return SCRIPTED if budget is None else f"{spec.search.name}:{spec.search.options[0][0]}={budget}"


def level_policy(spec: GameSpec, rules: BaseModel, roles: list[str], budget: int | None,
                 deviator: tuple[str, int] | None = None) -> np.ndarray:
    """Every role in play at the level (scripted: the defaults); ``deviator`` = (role, budget) searches apart."""
    chosen = {} if budget is None else {r: level_name(spec, budget) for r in roles}
    if deviator is not None:
        chosen[deviator[0]] = level_name(spec, deviator[1])
    return spec.policy_array(rules, chosen)


def level_policies(game: str | GameSpec, level: str | None, policies: dict[str, str] | None = None,
                   folder: Path = DEFAULT_OUT) -> dict[str, str]:
    """``--level`` of compare, sweep and tune as ``--policy all=BOT`` (``--policy`` choices on top):
    ``scripted`` (the default bots), ``strong`` (the level at which the cached base-scenario skill curve
    settled; if it did not settle, its strongest level; without a curve, the search bot at its default
    budget), or a bot in the policy syntax (``search:rollouts=64``)."""
    chosen = dict(policies or {})
    if level is None or level == SCRIPTED:
        return chosen
    spec = resolve_game(game)
    if level == "strong":
        if spec.search is None:
            raise UserError(f"--level strong: {spec.name} has no search bot")
        curve = load_curve(spec, folder=folder)
        level = curve.levels[-1] if curve is not None and curve.levels[-1] != SCRIPTED else spec.search.name
    try:
        spec.policy_array(None, {spec.roles[0]: level})
    except UserError as err:
        raise UserError(f"--level {level}: expected scripted, strong or a bot ({str(err).split(': ', 1)[-1]})") from None
    return {"all": level, **chosen}


# ------------------------------------------------------------------------------------------ play
def _level_chunk(spec: GameSpec, rules: BaseModel, policy: np.ndarray, deviators: list[np.ndarray],
                 names: list[str], seed: int, start: int, count: int, gap_games: int, pause_at: float | None = None):
    """Games start..start+count-1 at the level (per-game values, CPU time, search decisions) and, for
    those below ``gap_games``, with each deviator (paired sums against the level). A chunk whose turn
    comes at or after ``pause_at`` (seconds since the epoch, as ``time.time``) is not begun: its values
    are None."""
    if pause_at is not None and time.time() >= pause_at:
        return start, None, [], 0.0, 0
    began = time.process_time()
    chunk = spec.play(rules, policy, seed, start, count)
    cpu = time.process_time() - began
    decisions = int(chunk.games["search_decisions"].sum()) if "search_decisions" in chunk.games else 0
    values = {k: np.asarray(v, np.int64) for k, v in spec.per_game(rules, chunk).items() if k in names}
    paired = max(0, min(count, gap_games - start))
    gaps = [PairedSums() for _ in deviators]
    if paired:
        mine = {k: v[:paired] for k, v in values.items()}
        gaps = [PairedSums.of(mine, spec.per_game(rules, spec.play(rules, dev, seed, start, paired)), names)
                for dev in deviators]
    return start, values, gaps, cpu, decisions


@contextmanager
def one_cluster(backend: str, scheduler: str | None, jobs: int) -> Iterator[str | None]:
    """The scheduler every level uses: with ``--backend dask`` and no ``--scheduler``, one local cluster for
    the whole ladder (its address), rather than a new one per level (each takes seconds to start)."""
    if backend != "dask" or scheduler:
        yield scheduler
        return
    from sim.core.cluster import dask_client

    with dask_client(None, max(1, jobs)) as client:
        yield client.scheduler.address


def _chunks(n_games: int, size: int, spread: int, jobs: int) -> list[tuple[int, int]]:
    """The level's chunks: games 0..spread-1, which the deviators play again at 4x the budget, in 4 chunks a
    job, so that work spreads over the jobs rather than fall to one (at the scripted level it is nearly all
    the level's work); the rest in chunks of ``size``. Chunking never changes a game (its own stream)."""
    if spread == 0 or spread >= n_games:
        return list(chunk_plan(n_games, size))
    small = max(1, -(-spread // (4 * jobs)))
    return [*chunk_plan(spread, small), *chunk_plan(n_games - spread, size, spread)]


def _around(plan: list[tuple[int, int]], kept: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The chunks (start, count) of ``plan`` with the games of the ``kept`` chunks (not overlapping) cut
    out, and the kept chunks themselves, by start: every game in one chunk, whatever chunking (``--jobs``,
    ``--chunk-games``) the run that kept them used."""
    chunks = list(kept)
    for start, count in plan:
        pieces = [(start, start + count)]
        for first, n in kept:
            pieces = [(a, b) for lo, hi in pieces for a, b in ((lo, min(hi, first)), (max(lo, first + n), hi)) if a < b]
        chunks.extend((a, b - a) for a, b in pieces)
    return sorted(chunks)


CHUNK = re.compile(r"(\d+)-(\d+)\.npz")  # games start..start+count-1 of a level stopped half way: "start-count.npz"


def chunk_file(partial: Path, start: int, count: int) -> Path:
    """The file in which a level stopped half way keeps its chunk of ``count`` games from ``start`` (``CHUNK``)."""
    return partial / f"{start}-{count}.npz"


def _paired(n_games: int, gap_games: int | None) -> int:
    """How many of a level's games the deviators play again (games 0..gap_games-1; default: all)."""
    return n_games if gap_games is None else min(gap_games, n_games)


def _games(values: dict[str, np.ndarray]) -> int:
    """How many games a chunk's per-game values hold."""
    return len(next(iter(values.values())))


def _until(tasks: list[tuple], pause_at: float | None) -> Iterator[tuple]:
    """``tasks`` in order, none handed out at or after ``pause_at`` (joblib takes tasks ahead of their turn,
    so ``_level_chunk`` checks the time again when one begins)."""
    for task in tasks:
        if pause_at is not None and time.time() >= pause_at:
            return
        yield task


def play_level(spec: GameSpec, rules: BaseModel, policy: np.ndarray, deviators: list[np.ndarray],
               names: list[str], n_games: int, seed: int, jobs: int, backend: str, scheduler: str | None,
               chunk_size: int, gap_games: int | None = None, partial: Path | None = None,
               pause_at: float | None = None) -> tuple[dict[str, np.ndarray], list[PairedSums], float, int]:
    """One level on games 0..n_games-1: per-game values in game order, each deviator's paired sums (on
    games 0..gap_games-1), CPU seconds and search decisions (summed over the chunks, wherever they ran).
    With a folder ``partial`` each chunk is stored there as it finishes and a chunk found there is read,
    not played: a level stopped half way (interrupted, or the machine lost) goes on where it stopped. No
    chunk begins at or after ``pause_at`` (``time.time`` seconds); if any did not begin, ``Paused`` is
    raised once those in play have finished (and been stored). On a terminal, a progress bar of the level's games
    (those read from ``partial`` count as done)."""
    size = max(MIN_CHUNK, min(chunk_size, -(-n_games // (CHUNKS_A_JOB * max(1, jobs)))))
    paired = _paired(n_games, gap_games)
    kept = [(start, count) for start, count, _ in _kept_chunks(partial) if start + count <= n_games]
    plan = _around(_chunks(n_games, size, paired if deviators else 0, max(1, jobs)), kept)
    done, todo = [], []
    for start, count in plan:
        found = None if (start, count) not in kept else cached_level(chunk_file(partial, start, count))
        if found is None:
            todo.append((spec, rules, policy, deviators, names, seed, start, count, paired, pause_at))
        else:
            done.append((start, *found[:4]))
    with games_bar(n_games, None, done=sum(_games(d[1]) for d in done)) as advance:
        for start, part, chunk_gaps, chunk_cpu, chunk_decisions in _iter_parallel(
                _until(todo, pause_at), max(1, jobs), backend, scheduler, work=_level_chunk):
            if part is None:  # its turn came after the pause time
                continue
            if partial is not None:
                store_level(chunk_file(partial, start, _games(part)), part, chunk_gaps, chunk_cpu, chunk_decisions,
                            0.0)
            done.append((start, part, chunk_gaps, chunk_cpu, chunk_decisions))
            advance(_games(part))
    if sum(_games(d[1]) for d in done) < n_games:
        raise Paused
    values = {name: np.zeros(n_games, np.int64) for name in names}
    gaps = [PairedSums() for _ in deviators]
    for start, part, chunk_gaps, _, _ in done:
        for name in names:
            values[name][start:start + len(part[name])] = part[name]
        for total, g in zip(gaps, chunk_gaps, strict=True):
            total.add(g)
    return values, gaps, sum(c[3] for c in done), sum(c[4] for c in done)


def _kept_chunks(partial: Path | None) -> list[tuple[int, int, Path]]:
    """The chunks a level stopped half way keeps in the folder ``partial``, as (start, count, file) by start;
    a chunk overlapping one before it (kept by a run with other ``--jobs``) is left out."""
    found = [] if partial is None or not partial.is_dir() else sorted(
        (int(name[1]), int(name[2]), chunk) for chunk in partial.iterdir() if (name := CHUNK.fullmatch(chunk.name)))
    kept: list[tuple[int, int, Path]] = []
    for start, count, chunk in found:
        if not kept or start >= kept[-1][0] + kept[-1][1]:
            kept.append((start, count, chunk))
    return kept


def kept_so_far(partial: Path | None, metrics: list[Metric], before: dict[str, np.ndarray] | None,
                level: str, deviators: int = 0) -> tuple[int, list[Point], list[PairedSums]]:
    """The games of a level stopped half way that its kept chunks (``_kept_chunks``) hold, each headline on
    them (its value and, paired on those same games, its change from the level before), and each of the
    ``deviators``' paired sums on the kept games it played."""
    games, parts, gaps = [], [], [PairedSums() for _ in range(deviators)]
    for start, count, chunk in _kept_chunks(partial):
        values, chunk_gaps, *_ = cached_level(chunk)
        games.append(np.arange(start, start + count))
        parts.append(values)
        for total, part in zip(gaps, chunk_gaps, strict=False):
            total.add(part)
    if not parts:
        return 0, [], gaps
    kept = np.concatenate(games)
    points = [_point(level, m, np.concatenate([v[m.name] for v in parts]),
                     None if before is None else before[m.name][kept]) for m in metrics]
    return kept.size, points, gaps


def cpu_left(partial: Path | None, n_games: int, paired: int) -> float | None:
    """CPU seconds the games a level has not kept yet would take at its kept chunks' pace: the first
    ``paired`` games (which the deviators play again) and the rest each at the CPU a kept game of their own
    kind took; None while a kind with games left has no game kept."""
    kept = {True: [0, 0.0], False: [0, 0.0]}  # gap games or not: games kept, their CPU seconds
    for start, count, chunk in _kept_chunks(partial):
        kept[start < paired][0] += count
        kept[start < paired][1] += cached_level(chunk)[2]
    left = 0.0
    for gap, total in ((True, paired), (False, n_games - paired)):
        games, cpu = kept[gap]
        if games < total:
            if games == 0:
                return None
            left += (total - games) * cpu / games
    return left


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


KEPT = {"going on": "{level}: going on from the {kept} of {n} games played in {folder}",
        "stopped": "{level}: stopped; {kept} of {n} games are kept in {folder} (run the same command to go on from them)",
        "status": "{level}: {kept} of {n} games played so far, kept in {folder}",
        "paused": "{level}: paused; {kept} of {n} games are kept in {folder} (run the same command to go on from them)"}


def _say_kept(say, level: str, partial: Path | None, metrics: list[Metric], before: dict[str, np.ndarray] | None,
              n_games: int, how: str, deviated: list[tuple[str, Metric]], deviator: str, *, paired: int,
              jobs: int) -> InPlay | None:
    """Say how many of ``level``'s games its kept chunks hold (``how``: the run is going on from them, has
    stopped or paused, or only looks: ``KEPT``) and what the rest would cost on ``jobs`` jobs (``cpu_left``; the
    first ``paired`` games are played again by the deviators), each headline on them so far and the gap of
    each ``deviated`` role (with its win rate; played by ``deviator``) on the kept games it played
    (``kept_so_far``); nothing when none are kept. Returns what it said of the headlines (None: none kept)."""
    kept, points, gaps = kept_so_far(partial, metrics, before, level, len(deviated))
    if kept:
        say(KEPT[how].format(level=level, kept=f"{kept:,}", n=f"{n_games:,}", folder=partial))
    if kept and (left := cpu_left(partial, n_games, paired)) is not None:
        say(f"  at the kept chunks' pace the other {n_games - kept:,} games take about {_hours(left)} of CPU "
            f"({_hours(left / jobs)} on {jobs} job{'s' if jobs > 1 else ''})")
    for p in points:
        say(f"  so far, on those games: {p.label} {_pct(p.value)}"
            + ("" if p.change is None else f", change from the level before {_change(p.change)} pt"))
    for (role, metric), sums in zip(deviated, gaps, strict=True):
        if sums.n >= 2:
            d = sums.difference(metric)[0]
            say(f"  so far, exploitability gap: {role} at {deviator} {_change((d.diff, d.lo, d.hi))} pt "
                f"on {sums.n:,} games")
    return InPlay(level, kept, n_games, points, str(partial)) if kept else None


def level_key(spec: GameSpec, rules: BaseModel, policy: np.ndarray, deviators: list[np.ndarray], names: list[str],
              n_games: int, seed: int, gap_games: int | None) -> str:
    """16 hex digits naming a level's games: whatever fixes its per-game values and gaps."""
    paired = n_games if gap_games is None else min(gap_games, n_games)
    fixed = {"game": spec.name, "sources": sources_digest(spec.name), "rules": rules_digest(rules), "seed": seed,
             "games": n_games, "policy": policy.tolist(), "deviators": [d.tolist() for d in deviators],
             "gap_games": paired if deviators else 0, "metrics": names}
    return hashlib.sha256(json.dumps(fixed, sort_keys=True).encode()).hexdigest()[:16]


def store_level(path: Path, values: dict[str, np.ndarray], gaps: list[PairedSums], cpu: float, decisions: int,
                wall: float) -> None:
    """Write a played level (``levels/<game>-<key>.npz``): per-game values, the gaps' sums, its cost."""
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"gaps": [dataclasses.asdict(g) for g in gaps], "cpu": cpu, "decisions": decisions, "wall": wall}
    partial = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(partial, meta=np.array(json.dumps(meta)), **{f"value:{k}": v for k, v in values.items()})
    partial.replace(path)  # whole or not at all: an interrupted run leaves no half level


def cached_level(path: Path) -> tuple[dict[str, np.ndarray], list[PairedSums], float, int, float] | None:
    """A level stored by ``store_level``, or None when there is none."""
    if not path.is_file():
        return None
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        values = {k.removeprefix("value:"): data[k] for k in data.files if k.startswith("value:")}
    return values, [PairedSums(**g) for g in meta["gaps"]], meta["cpu"], meta["decisions"], meta["wall"]


def _point(level: str, metric: Metric, values: np.ndarray, before: np.ndarray | None) -> Point:
    est = stats.rate(int(values.sum()), values.size) if metric.kind == "rate" else stats.mean(values)
    change = None
    if before is not None:
        sums = PairedSums.of({metric.name: before}, {metric.name: values}, [metric.name])
        d = sums.difference(metric)[0]
        change = (d.diff, d.lo, d.hi)
    return Point(level, metric.name, metric.label, est, change)


def within(change: tuple[float, float, float] | None, tolerance: float) -> bool:
    """The change's 95 % interval lies inside ± tolerance (the strict, equivalence reading)."""
    return change is not None and -tolerance <= change[1] and change[2] <= tolerance


def settles(point: Point, tolerance: float) -> bool:
    """The headline agrees with the level before: its change's interval lies inside ± tolerance, or the
    change is within noise (the paired 95 % interval covers 0) and at most ± tolerance while the level's
    own 95 % interval is at most ± tolerance wide."""
    if point.change is None:
        return False
    d, lo, hi = point.change
    half_width = max(point.value.value - point.value.lo, point.value.hi - point.value.value)
    return within(point.change, tolerance) or (lo <= 0.0 <= hi and abs(d) <= tolerance and half_width <= tolerance)


def verdicts(points: list[Point], metrics: list[Metric], tolerance: float) -> list[Verdict]:
    """Per headline: settled at the first level that agrees with the level before (its change within
    tolerance) as every later level does with its own; its value there."""
    out = []
    for metric in metrics:
        mine = [p for p in points if p.metric == metric.name]
        if not mine:  # no level played (``status`` before any is whole)
            continue
        settled_at = next((p for i, p in enumerate(mine) if all(settles(q, tolerance) for q in mine[i:])), None)
        if settled_at is not None:
            out.append(Verdict(metric.name, metric.label, True, settled_at.level, settled_at.value,
                               settled_at.change))
        else:
            last = mine[-1]
            out.append(Verdict(metric.name, metric.label, False, last.level, last.value, last.change,
                               steady_trend(mine)))
    return out


def steady_trend(mine: list[Point]) -> list[float]:
    """A headline's last changes from one search budget to the next, oldest first, when each is beyond noise
    (its 95 % interval excludes 0) and all go one way; [] when fewer than two do. A curve that has not settled
    but moves steadily one way says which side of its last value strong play lies, if the trend holds."""
    run: list[float] = []
    for p in reversed(mine[2:]):  # mine[1]'s change is from the scripted bots, not from a smaller budget
        d, lo, hi = p.change
        if lo <= 0.0 <= hi or (run and (d > 0) != (run[0] > 0)):  # within noise (as ``settles``), or a turn
            break
        run.insert(0, d)
    return run if len(run) >= 2 else []


def skill(game: str | GameSpec, scenario: str | Path = "base", n_games: int = DEFAULT_GAMES, seed: int = 0,
          ladder: list[int] | None = None, tolerance: float = DEFAULT_TOLERANCE, time_limit_s: float | None = None,
          jobs: int = 1, backend: str = "loky", scheduler: str | None = None, players: int | None = None,
          sets: tuple[str, ...] | list[str] = (), gaps: bool = True, chunk_size: int = DEFAULT_CHUNK,
          gap_games: int | None = None, say=None, cache: Path | None = None, status: bool = False,
          pause_after_s: float | None = None, whole_ladder: bool = False) -> SkillCurve:
    """Play the levels in turn on the same games until the headlines settle, the ladder ends or time is up
    (with ``whole_ladder``, on past a settled pair of levels: whether the headlines stay settled);
    a level found in the folder ``cache`` is read rather than played, and one played is stored there. With
    ``status``, play nothing: the curve of the levels ``cache`` holds whole, up to the first it does not,
    of which it says the games kept so far and each headline on them (or that it is not played yet). With
    ``pause_after_s``, no chunk begins after that many seconds: a level not finished by then keeps its
    finished chunks in ``cache`` and the curve returned, of the levels finished, says "paused". Either way
    the curve's ``in_play`` holds what that first level not whole has kept (None when nothing)."""
    spec = resolve_game(game)
    if spec.search is None:
        raise UserError(_no_search(spec).replace("`sim robust`", "`sim skill`"))
    if n_games < 2:
        raise UserError(f"--games {n_games}: a paired comparison needs at least 2 games per level")
    if seed < 0:
        raise UserError(f"--seed {seed}: expected a non-negative integer")
    if gap_games is not None and gap_games < 2:
        raise UserError(f"--gap-games {gap_games}: a paired comparison needs at least 2 games")
    if not 0 < tolerance < 1:
        raise UserError(f"--tolerance {100 * tolerance:g}: expected points between 0 and 100 (e.g. 1 for ±1 point)")
    if pause_after_s is not None and not 0 < pause_after_s < math.inf:
        raise UserError(f"--pause-after {pause_after_s:g}: expected a number of seconds above 0")
    if pause_after_s is not None and cache is None:
        raise UserError("--pause-after keeps the finished chunks in OUT/levels, --replay keeps no level: not both")
    pause_at = None if pause_after_s is None else time.time() + pause_after_s
    ladder = list(ladder or default_ladder(spec))
    scen = resolve_scenario(spec, scenario, tuple(sets), players)
    rules = scen.rules
    roles = active_roles(spec, rules)
    empty = {f"win_{r}" for r in spec.roles if r not in roles}  # seats out of play never win
    metrics = [m for m in headline_metrics(spec, rules) if m.name not in empty]
    names = [m.name for m in metrics]
    wins = {r: f"win_{r}" for r in roles if f"win_{r}" in names}
    say = say or (lambda text: None)
    began = time.perf_counter()
    points: list[Point] = []
    found: list[Gap] = []
    costs: list[LevelCost] = []
    bots: dict[str, dict[str, str]] = {}
    levels: list[str] = []
    in_play = None
    before = None
    stopped = "ladder end"
    last_wall = 0.0
    # every level on the same Dask cluster (none for status, which plays nothing)
    with one_cluster("loky" if status else backend, scheduler, jobs) as scheduler:
        for k, budget in enumerate([None, *ladder]):
            name = level_name(spec, budget)
            if k >= 1 and time_limit_s is not None:
                predicted = 2.0 * last_wall if k >= 2 else 0.0  # a level costs about twice the one before
                if time.perf_counter() - began + predicted > time_limit_s:
                    stopped = "time limit"
                    say(f"stop before {name}: predicted {predicted:.0f} s would pass the time limit of {time_limit_s:.0f} s")
                    break
            level_began = time.perf_counter()
            policy = level_policy(spec, rules, roles, budget)
            strong = DEVIATOR * (budget if budget is not None else ladder[0])
            dev_roles = list(wins) if gaps else []
            deviators = [level_policy(spec, rules, roles, budget, (r, strong)) for r in dev_roles]
            deviated = [(r, next(m for m in metrics if m.name == wins[r])) for r in dev_roles]
            strong_name = level_name(spec, strong)
            key = level_key(spec, rules, policy, deviators, names, n_games, seed, gap_games)
            stored = None if cache is None else cache / f"{spec.name}-{key}.npz"
            found_level = None if stored is None else cached_level(stored)
            if found_level is None:
                partial = None if stored is None else stored.with_suffix("")
                tell = functools.partial(_say_kept, say, name, partial, metrics, before, n_games,
                                         deviated=deviated, deviator=strong_name, jobs=max(1, jobs),
                                         paired=_paired(n_games, gap_games) if deviators else 0)
                if status:
                    if not (in_play := tell("status")):
                        say(f"{name}: not played yet")
                    stopped = "status"
                    break
                tell("going on")
                try:
                    values, gap_sums, cpu, decisions = play_level(spec, rules, policy, deviators, names, n_games,
                                                                  seed, jobs, backend, scheduler, chunk_size,
                                                                  gap_games, partial, pause_at)
                except KeyboardInterrupt:  # Ctrl-C, or SIGTERM under ``sim skill``: no worker plays on
                    stop_workers(backend)
                    tell("stopped")
                    raise
                except Paused:
                    if not (in_play := tell("paused")):
                        say(f"{name}: paused before any of its chunks began; none of its games are kept")
                    stopped = "paused"
                    break
                wall = time.perf_counter() - level_began
                if stored is not None:
                    store_level(stored, values, gap_sums, cpu, decisions, wall)
                    shutil.rmtree(partial, ignore_errors=True)
            else:
                values, gap_sums, cpu, decisions, wall = found_level
                say(f"{name}: read from {stored} (played before, on these sources and rules)")
            levels.append(name)
            bots[name] = {r: b for r, b in spec.policy_names(policy).items() if r in roles}
            costs.append(LevelCost(name, cpu, decisions, n_games))
            points += [_point(name, m, values[m.name], None if before is None else before[m.name]) for m in metrics]
            for (role, metric), sums in zip(deviated, gap_sums, strict=True):
                d = sums.difference(metric)[0]
                found.append(Gap(name, role, strong_name, d.diff, d.lo, d.hi, sums.n))
            last_wall = wall
            say(f"{name}: {n_games:,} games, {last_wall:.0f} s wall, {cpu:.0f} CPU-s"
                + (f", {decisions / cpu:,.0f} decisions per CPU-s" if decisions and cpu > 0 else ""))
            before = values
            settled = len(levels) >= 3 and all(settles(p, tolerance) for p in points[-len(metrics):])
            stopped = "settled" if settled else "ladder end"
            if settled and not whole_ladder:
                break
    return SkillCurve(spec.name, spec.title, scen.name, list(sets), getattr(rules, "players", None), players, n_games, seed,
                      tolerance, spec.search.options[0][0], ladder, levels, bots, points, found,
                      verdicts(points, metrics, tolerance), costs, stopped,
                      time.perf_counter() - began, sources_digest(spec.name),
                      dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), rules_digest(rules), in_play)


# ------------------------------------------------------------------------------------------ output
def _pct(est: stats.Estimate) -> str:
    return f"{100 * est.value:.2f}% [{100 * est.lo:.2f}, {100 * est.hi:.2f}]"


def _change(change: tuple[float, float, float] | None) -> str:
    if change is None:
        return "—"
    d, lo, hi = (100 * x for x in change)
    return f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def print_skill(c: SkillCurve) -> None:
    from rich.table import Table

    from sim.core.display import console

    console.print(f"[bold]{c.title}[/bold] · skill curve · scenario {c.scenario}"
                  + (f" ({', '.join(c.sets)})" if c.sets else "") + (f" · {c.players} players" if c.players else "")
                  + f" · seed {c.seed} · {c.n_games:,} games per level (the same games at every level) · "
                  f"settles: the change's interval within ±{100 * c.tolerance:.1f} pt, or the change within noise and "
                  f"±{100 * c.tolerance:.1f} pt with the level's interval ±{100 * c.tolerance:.1f} pt or narrower")
    table = Table(title="headline at each level [95 %]; change from the level before, paired [95 %]",
                  title_justify="left")
    tol = f"±{100 * c.tolerance:.1f}"
    for col in ("level", "headline", "value [95 %]", "change (pt) [95 %]", "settles", f"interval within {tol}"):
        table.add_column(col, justify="left" if col in ("level", "headline") else "right")
    for level in c.levels:
        for p in (p for p in c.points if p.level == level):
            table.add_row(level, p.label, _pct(p.value), _change(p.change),
                          *(("—", "—") if p.change is None else
                            (_yes(settles(p, c.tolerance)), _yes(within(p.change, c.tolerance)))))
    console.print(table)
    if c.gaps:
        gap = Table(title=f"exploitability gap: one role at {DEVIATOR}x the level's budget, the others at the level; "
                    "its win-rate gain, paired [95 %] (pt)", title_justify="left")
        gap.add_column("level", justify="left")
        roles = list(dict.fromkeys(g.role for g in c.gaps))
        for role in roles:
            gap.add_column(role, justify="right")
        for level in c.levels:
            row = {g.role: g for g in c.gaps if g.level == level}
            gap.add_row(level, *[_change((row[r].diff, row[r].lo, row[r].hi)) + f"\n({row[r].deviator})"
                                 if r in row else "—" for r in roles])
        console.print(gap)
    for cost in c.costs:
        rate = cost.decisions_per_cpu_s
        console.print(f"  {cost.level}: {cost.cpu_s:.0f} CPU-s for the level's {cost.games:,} games"
                      + (f", {rate:,.0f} search decisions per CPU-s" if rate else ""))
    console.print(f"stopped: {c.stopped} after {c.elapsed_s:.0f} s")
    for v in c.verdicts:
        console.print(("  [green]" if v.settled else "  [yellow]") + v.text(c.tolerance)
                      + ("[/green]" if v.settled else "[/yellow]"))


def skill_figure(c: SkillCurve):
    """One panel per headline (value at each level with its 95 % interval; settled level marked), and a
    panel of the exploitability gaps per role. Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(p.label for p in c.points))
    panels = len(labels) + (1 if c.gaps else 0)
    cols = 2 if panels > 1 else 1
    rows = -(-panels // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(8.27, 1.2 + 2.4 * rows), squeeze=False)
    from sim.core.pages import use_fonts

    use_fonts()
    ticks = [lv.split("=")[-1] if lv != SCRIPTED else SCRIPTED for lv in c.levels]
    settled = {v.label: v for v in c.verdicts}
    wins = [p.value.value for p in c.points if p.level == SCRIPTED and p.metric.startswith("win_")]
    share = 100 * sum(wins) / len(wins) if wins else 50.0  # the scripted level's equal share, shared wins counted
    flat = list(axes.flat)
    for ax, label in zip(flat, labels, strict=False):
        mine = [p for p in c.points if p.label == label]
        xs = np.arange(len(mine))
        ys = np.array([100 * p.value.value for p in mine])
        err = np.clip([[100 * (p.value.value - p.value.lo) for p in mine],
                       [100 * (p.value.hi - p.value.value) for p in mine]], 0, None)
        ax.errorbar(xs, ys, yerr=err, fmt="o-", color="tab:blue", capsize=3, linewidth=1)
        v = settled[label]
        if v.settled:
            i = c.levels.index(v.level)
            ax.plot([i], [ys[i]], "s", color="tab:green", markersize=9, fillstyle="none")
        if mine[0].metric.startswith("win_"):
            ax.axhline(share, color="grey", linestyle="--", linewidth=0.8, label=f"equal share {share:.1f} %")
            ax.legend(fontsize=6, loc="best")
        ax.set_xticks(xs, ticks, fontsize=7)
        ax.set_title(textwrap.fill(label + (" (settled)" if v.settled else " (not settled)"), 60), fontsize=9)
        ax.set_ylabel("%", fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    if c.gaps:
        ax = flat[len(labels)]
        roles = list(dict.fromkeys(g.role for g in c.gaps))
        for j, role in enumerate(roles):
            mine = [g for g in c.gaps if g.role == role]
            xs = np.array([c.levels.index(g.level) for g in mine]) + (j - (len(roles) - 1) / 2) * 0.08
            ys = np.array([100 * g.diff for g in mine])
            err = np.clip([[100 * (g.diff - g.lo) for g in mine], [100 * (g.hi - g.diff) for g in mine]], 0, None)
            ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, linewidth=1, label=role)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(c.levels)), ticks, fontsize=7)
        ax.set_title(f"exploitability gap (one role at {DEVIATOR}x budget)", fontsize=9)
        ax.set_ylabel("win-rate gain, pt", fontsize=8)
        ax.legend(fontsize=7)
        ax.grid(axis="y", alpha=0.3)
    for ax in flat[panels:]:
        ax.axis("off")
    which = (f", scenario {c.scenario}" if c.scenario != "base" else "") + (
        f", {c.players_asked} players" if c.players_asked else "")
    fig.suptitle(f"{c.title}{which}: skill curve ({c.option} per level; stopped: {c.stopped})\n({c.n_games:,} games per "
                 "level, the same games at every level; 95 % intervals)", fontsize=9)
    fig.tight_layout()
    return fig


def stem(game: str, scenario: str = "base", players: int | None = None, sets: tuple[str, ...] | list[str] = ()) -> str:
    """``<game>-skill[-scenario][-set-<digest of the --set list>][-Np]``: curves with other ``--set`` lists get
    other files."""
    digest = hashlib.sha256("\n".join(sets).encode()).hexdigest()[:8]
    tag = f"-set-{digest}" if sets else ""
    return f"{game}-skill" + ("" if scenario == "base" else f"-{Path(scenario).stem}") + tag + (
        f"-{players}p" if players else "")


def write_skill(c: SkillCurve, out: Path = DEFAULT_OUT) -> list[Path]:
    """``stem(...)`` + ``.json`` (read back by ``load_curve``), ``.csv`` and ``.png``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    base = out / stem(c.game, c.scenario, c.players_asked, c.sets)
    paths = [base.with_suffix(".json"), base.with_suffix(".csv"), base.with_suffix(".png")]
    paths[0].write_text(c.to_json() + "\n")
    pl.DataFrame([{"level": p.level, "metric": p.metric, "label": p.label, "value": p.value.value,
                   "lo": p.value.lo, "hi": p.value.hi, "n": p.value.n,
                   "change": p.change[0] if p.change else None, "change_lo": p.change[1] if p.change else None,
                   "change_hi": p.change[2] if p.change else None} for p in c.points]).write_csv(paths[1])
    fig = skill_figure(c)
    fig.savefig(paths[2], dpi=120)
    plt.close(fig)
    return paths


def load_curve(game: str | GameSpec, scenario: str = "base", players: int | None = None,
               folder: Path = DEFAULT_OUT, fresh_only: bool = True) -> SkillCurve | None:
    """The curve ``sim skill`` cached for this game, scenario and ``--players`` (None: the scenario's own; no
    ``--set``); None when there is none or (``fresh_only``) it is not ``fresh``."""
    spec = resolve_game(game)
    curve = read_result(folder / f"{stem(spec.name, scenario, players)}.json", SkillCurve.from_json)
    if curve is None or (fresh_only and not fresh(curve, spec)):
        return None
    return curve


def level_in_play(spec: GameSpec, curve: SkillCurve, cache: Path) -> InPlay | None:
    """The level after ``curve``'s last (its ladder's next budget; twice its last once the ladder is played
    out), if a run with that budget added kept chunks of it in ``cache`` (stopped or ``--pause-after``):
    each headline on the games kept so far, as ``--status`` says it. None when the curve settled, is not
    ``fresh`` or ended before its first search level, or nothing of that level is kept."""
    played = len(curve.levels) - 1  # search levels whole
    if curve.settled or played < 1 or not fresh(curve, spec):
        return None
    budgets = curve.ladder[:played]
    following = curve.ladder[played] if played < len(curve.ladder) else 2 * budgets[-1]
    paired = max((g.n for g in curve.gaps), default=None)  # the deviators' games: the run's --gap-games
    looked = skill(spec, curve.scenario, curve.n_games, curve.seed, [*budgets, following], curve.tolerance,
                   players=curve.players_asked, sets=curve.sets, gaps=bool(curve.gaps), gap_games=paired,
                   cache=cache, status=True)
    return looked.in_play


def fresh(curve: SkillCurve, spec: GameSpec) -> bool:
    """The curve was played with today's compiled sources and with the rules its scenario (with its ``--set``
    and players) reads today."""
    return played_today(curve.sources, curve.rules, spec, curve.scenario, curve.sets, curve.players)
