"""The batch runner: one entry point, ``simulate``, for the CLI and for Python callers.

A run of ``n_games`` with seed ``s`` is cut into chunks of consecutive game indices. Each chunk
is played by the game's compiled engine, reduced at once to an integer summary (per-metric sum
and sum of squares, plus the game's additive tallies) and merged into the running total as it
arrives, so memory stays bounded however many games are played. Per-game rows are kept only on
request: in memory (``keep_rows``) or as Parquet shards (``out``).

Game ``i`` depends on ``(s, i)`` alone and every summary is integer, so the result is
bit-identical for any chunk size, job count and backend.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from pydantic import BaseModel

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import Chunk, GameSpec, Metric
from sim.core.registry import get_game
from sim.core.scenario import Scenario, load_scenario
from sim.core.warm import ensure_compiled

DEFAULT_CHUNK = 1 << 16


@dataclass
class RunSummary:
    """Integer totals of a run, merged by addition (exact, order-free)."""

    n_games: int = 0
    sums: dict[str, int] = field(default_factory=dict)
    sumsq: dict[str, int] = field(default_factory=dict)
    tallies: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, other: RunSummary) -> None:
        self.n_games += other.n_games
        for key, value in other.sums.items():
            self.sums[key] = self.sums.get(key, 0) + value
            self.sumsq[key] = self.sumsq.get(key, 0) + other.sumsq[key]
        for key, value in other.tallies.items():
            self.tallies[key] = self.tallies[key] + value if key in self.tallies else value.copy()


def summarize_chunk(game: GameSpec, rules: BaseModel, chunk: Chunk) -> RunSummary:
    """Reduce one chunk to integer totals."""
    summary = RunSummary(n_games=len(chunk))
    for name, values in game.per_game(rules, chunk).items():
        v = np.asarray(values, dtype=np.int64)
        summary.sums[name] = int(v.sum())
        summary.sumsq[name] = int((v * v).sum())
    summary.tallies = {k: np.asarray(v, dtype=np.int64) for k, v in game.tally(rules, chunk).items()}
    return summary


def _run_chunk(game: GameSpec, rules: BaseModel, policy: np.ndarray, seed: int, start: int, count: int,
               keep_rows: bool, out: str | None) -> tuple[int, RunSummary, Chunk | None]:
    chunk = game.play(rules, policy, seed, start, count)
    summary = summarize_chunk(game, rules, chunk)
    if out is not None:
        write_shards(Path(out), start, chunk)
    return start, summary, (chunk if keep_rows else None)


def write_shards(out: Path, start: int, chunk: Chunk) -> None:
    """One Parquet file per table and chunk: ``out/games/part-<start>.parquet`` and so on."""
    tables = {"games": chunk.games, **chunk.events}
    for name, columns in tables.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        pl.DataFrame(columns).write_parquet(folder / f"part-{start:012d}.parquet")


def chunk_plan(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(s, min(chunk_size, n_games - s)) for s in range(0, n_games, chunk_size)]


@dataclass
class SimResult:
    """What a run found: metrics with intervals, the game's own tables, and rows if asked for."""

    game: GameSpec
    scenario: Scenario
    policy: np.ndarray
    seed: int
    n_requested: int
    summary: RunSummary
    elapsed_s: float
    interrupted: bool = False
    rows: Chunk | None = None

    @property
    def rules(self) -> BaseModel:
        return self.scenario.rules

    @property
    def n_games(self) -> int:
        return self.summary.n_games

    @property
    def policies(self) -> dict[str, str]:
        return self.game.policy_names(self.policy)

    def estimate(self, metric: Metric) -> stats.Estimate:
        n = self.summary.n_games
        total = self.summary.sums.get(metric.name, 0)
        if metric.kind == "rate":
            return stats.rate(total, n)
        return stats.mean_from_sums(float(total), float(self.summary.sumsq.get(metric.name, 0)), n)

    def metrics(self, headline_only: bool = False) -> pl.DataFrame:
        """One row per metric: value, 95 % interval, n."""
        rows = []
        for metric in self.game.metrics(self.rules):
            if headline_only and not metric.headline:
                continue
            est = self.estimate(metric)
            rows.append({"metric": metric.name, "label": metric.label, "kind": metric.kind,
                         "value": est.value, "lo": est.lo, "hi": est.hi, "n": est.n})
        return pl.DataFrame(rows)

    def tables(self) -> dict[str, Any]:
        return self.game.tables(self.rules, self.summary)

    def games_frame(self) -> pl.DataFrame:
        if self.rows is None:
            raise UserError("per-game rows were not kept: pass keep_rows=True (or --out DIR)")
        return pl.DataFrame(self.rows.games)

    def events_frame(self, name: str) -> pl.DataFrame:
        if self.rows is None:
            raise UserError("per-event rows were not kept: pass keep_rows=True (or --out DIR)")
        return pl.DataFrame(self.rows.events[name])


def _concat_chunks(parts: list[tuple[int, Chunk]]) -> Chunk:
    parts = sorted(parts, key=lambda p: p[0])
    chunks = [c for _, c in parts]
    games = {k: np.concatenate([c.games[k] for c in chunks]) for k in chunks[0].games}
    events = {name: {k: np.concatenate([c.events[name][k] for c in chunks]) for k in chunks[0].events[name]}
              for name in chunks[0].events}
    return Chunk(games, events)


def _progress_enabled(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return sys.stderr.isatty() and os.environ.get("CI") is None


def _iter_parallel(tasks: list[tuple], jobs: int, backend: str, scheduler: str | None,
                   work: Callable[..., Any] | None = None) -> Iterator:
    """Yield ``work(*task)`` (default: play and summarise a chunk) as each finishes.

    In-process for one job, else via joblib. The balance workflow passes its own ``work``
    (e.g. playing base and variant of the same chunk) to reuse this machinery.
    """
    work = work or _run_chunk
    if jobs == 1 and backend == "loky":
        for task in tasks:
            yield work(*task)
        return
    from joblib import Parallel, delayed, parallel_config

    folder = os.environ.get("SIM_SCENARIOS")
    calls = (delayed(_in_scenarios)(folder, work, task) for task in tasks)
    if backend == "dask":
        from sim.core.cluster import dask_client

        with dask_client(scheduler, jobs) as _client, parallel_config(backend="dask"):
            yield from Parallel(return_as="generator_unordered")(calls)
        return
    if backend not in ("loky", "threading", "multiprocessing"):
        raise UserError(f"--backend {backend}: expected loky, dask, threading or multiprocessing")
    with parallel_config(backend=backend, n_jobs=jobs):
        yield from Parallel(return_as="generator_unordered")(calls)


def _in_scenarios(folder: str | None, work: Callable[..., Any], task: tuple) -> Any:
    """``work(*task)`` in a worker reading scenarios (and Island Nation's maps) from the caller's
    ``SIM_SCENARIOS``: joblib reuses its workers, which keep the environment they started with."""
    if folder is None:
        os.environ.pop("SIM_SCENARIOS", None)
    else:
        os.environ["SIM_SCENARIOS"] = folder
    return work(*task)


def resolve_scenario(game: GameSpec, scenario: str | Path | Scenario, sets: tuple[str, ...] | list[str],
                     players: int | None) -> Scenario:
    """The scenario of a run: a name, a path or a loaded Scenario, with ``--set`` and ``--players`` on top
    (a loaded Scenario given more settings is re-read from its own file)."""
    if isinstance(scenario, Scenario):
        if not sets and players is None:
            return scenario
        scenario = scenario.files[-1]
    return load_scenario(game.name, game.rules_model, scenario, list(sets), players)


def simulate(
    game: str | GameSpec,
    scenario: str | Path | Scenario = "base",
    n_games: int = 100_000,
    seed: int = 0,
    jobs: int = 1,
    policies: Mapping[str, str] | None = None,
    backend: str = "loky",
    *,
    sets: tuple[str, ...] | list[str] = (),
    players: int | None = None,
    chunk_size: int | None = None,
    keep_rows: bool = False,
    out: str | Path | None = None,
    progress: bool | None = None,
    scheduler: str | None = None,
) -> SimResult:
    """Play ``n_games`` games of ``game`` under ``scenario`` and return their summary.

    ``jobs=-1`` uses every core. ``backend="dask"`` runs the same chunks on a Dask cluster at
    ``scheduler`` (or a local one on 127.0.0.1). Ctrl-C stops early and returns the chunks that
    finished (``interrupted=True``).
    """
    spec = get_game(game) if isinstance(game, str) else game
    scen = resolve_scenario(spec, scenario, sets, players)
    policy = spec.policy_array(scen.rules, policies)
    if n_games < 1:
        raise UserError(f"--games {n_games}: expected a positive number of games")
    if seed < 0:
        raise UserError(f"--seed {seed}: expected a non-negative integer")
    jobs = (os.cpu_count() or 1) if jobs == -1 else max(1, jobs)
    size = chunk_size or max(1024, min(DEFAULT_CHUNK, -(-n_games // (4 * jobs))))
    out_str = str(out) if out is not None else None
    tasks = [(spec, scen.rules, policy, seed, start, count, keep_rows, out_str)
             for start, count in chunk_plan(n_games, size)]
    ensure_compiled(spec, scen.rules)  # a cold cache: announced, compiled here once, not in every worker

    total = RunSummary()
    kept: list[tuple[int, Chunk]] = []
    interrupted = False
    began = time.perf_counter()
    bar = _make_progress(n_games) if _progress_enabled(progress) else None
    try:
        if bar is not None:
            bar[0].start()
        for start, summary, rows in _iter_parallel(tasks, jobs, backend, scheduler):
            total.add(summary)
            if rows is not None:
                kept.append((start, rows))
            if bar is not None:
                bar[0].update(bar[1], advance=summary.n_games)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar[0].stop()
    elapsed = time.perf_counter() - began
    if total.n_games == 0:
        raise UserError("interrupted before any chunk finished: nothing to report")
    return SimResult(spec, scen, policy, seed, n_games, total, elapsed, interrupted,
                     _concat_chunks(kept) if kept else None)


def _make_progress(n_games: int):
    """A rich progress bar on stderr: games done, games/s, elapsed and ETA."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task) -> Text:
            return Text(f"{task.speed or 0:,.0f} games/s")

    progress = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                        console=Console(stderr=True), transient=True)
    return progress, progress.add_task("games", total=n_games)
