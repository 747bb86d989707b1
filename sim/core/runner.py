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
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
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
from sim.core.runfolder import RunFolder, compiled_sources_digest, now_text
from sim.core.scenario import Scenario, load_scenario
from sim.core.warm import ensure_compiled

DEFAULT_CHUNK = 1 << 16
MAX_GAMES = 10**12  # game indices stay far inside the 64-bit streams; a plan is never built up front
MAX_SEED = 2**63 - 1  # the engines take the seed as a signed 64-bit integer
MAX_CHUNK = 1 << 22  # games held in memory at once by one job
MAX_JOBS = 1024


def check_range(option: str, value: int, lo: int, hi: int, note: str = "") -> int:
    """``value`` if ``lo <= value <= hi``, else a UserError naming the option and the range."""
    if not lo <= value <= hi:
        raise UserError(f"{option} {value}: expected a whole number from {lo:,} to {hi:,}{note}")
    return value


def resolve_jobs(jobs: int) -> int:
    """``--jobs``: -1 for every core, else 1 .. MAX_JOBS processes (0 and other negatives are refused)."""
    if jobs == -1:
        return os.cpu_count() or 1
    return check_range("--jobs", jobs, 1, MAX_JOBS, " (or -1 for every core)")


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so a run stops its workers and keeps a consistent record."""


def signal_of(interrupt: KeyboardInterrupt) -> str:
    """The signal that stopped a run: SIGTERM (``Terminated``) or SIGINT (Ctrl-C)."""
    return "SIGTERM" if isinstance(interrupt, Terminated) else "SIGINT"


def _raise_terminated(signum, frame) -> None:
    raise Terminated()


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While the block runs (in the main thread), SIGTERM raises ``Terminated``, an interrupt like Ctrl-C, so
    a run stopped either way keeps what it finished and says so."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@dataclass
class RunSummary:
    """Integer totals of a run, merged by addition (exact, order-free)."""

    n_games: int = 0
    sums: dict[str, int] = field(default_factory=dict)
    sumsq: dict[str, int] = field(default_factory=dict)
    tallies: dict[str, np.ndarray] = field(default_factory=dict)
    run_tables: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)  # only for --out (see _run_chunk)
    run_table_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def add(self, other: RunSummary) -> None:
        self.n_games += other.n_games
        for name, columns in other.run_tables.items():
            mine = self.run_tables.get(name)
            self.run_tables[name] = {k: v.copy() for k, v in columns.items()} if mine is None else \
                _sum_table(mine, columns, other.run_table_keys[name])
        for key, value in other.sums.items():
            self.sums[key] = self.sums.get(key, 0) + value
            self.sumsq[key] = self.sumsq.get(key, 0) + other.sumsq[key]
        for key, value in other.tallies.items():
            self.tallies[key] = self.tallies[key] + value if key in self.tallies else value.copy()
        self.run_table_keys.update(other.run_table_keys)


def _sum_table(a: dict[str, np.ndarray], b: dict[str, np.ndarray], keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Two chunks' totals of a per-run table (same key rows in the same order): key columns kept, the rest added."""
    for key in keys:
        if not np.array_equal(a[key], b[key]):
            raise ValueError(f"per-run table rows differ between chunks in {key!r}")
    return {k: (v if k in keys else v + b[k]) for k, v in a.items()}


def run_tables(game: GameSpec) -> dict[str, tuple[str, ...]]:
    """Event tables that hold totals per chunk rather than rows per event, with their key columns
    (``extras["run_tables"]``): written once per run, summed over chunks, so their rows do not depend
    on the chunking."""
    return dict(game.extras.get("run_tables", {}))


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
        totals = run_tables(game)
        summary.run_tables = {name: chunk.events[name] for name in totals if name in chunk.events}
        summary.run_table_keys = {name: totals[name] for name in summary.run_tables}
        write_shards(Path(out), start, Chunk(chunk.games, {k: v for k, v in chunk.events.items() if k not in totals}),
                     game)
    return start, summary, (chunk if keep_rows else None)


def write_shards(out: Path, start: int, chunk: Chunk, game: GameSpec) -> None:
    """One Parquet file per table and chunk: ``out/games/part-<start>.parquet`` and so on (written under a
    temporary name and renamed, so a shard on disk is always whole); bots by name (``GameSpec.named_rows``)."""
    tables = {"games": game.named_rows(chunk.games), **chunk.events}
    for name, columns in tables.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".part-{start:012d}.parquet.{os.getpid()}"
        pl.DataFrame(columns).write_parquet(partial)
        partial.replace(folder / f"part-{start:012d}.parquet")


def _keep_only_merged(out: Path, merged: set[int]) -> None:
    """Delete shards of chunks whose totals never reached the run (in flight when it was interrupted),
    so the rows on disk are exactly the games the figures count."""
    for path in out.glob("*/*part-*"):
        stem = path.name.lstrip(".").split(".", 1)[0]
        if path.name.startswith(".") or int(stem.removeprefix("part-")) not in merged:
            path.unlink(missing_ok=True)


def chunk_plan(n_games: int, chunk_size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    """(start, count) of each chunk of games ``first .. first+n_games-1``, produced as needed (never a list:
    a plan for 10^12 games takes no memory)."""
    for s in range(first, first + n_games, chunk_size):
        yield s, min(chunk_size, first + n_games - s)


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
    signal_name: str | None = None  # what stopped an interrupted run: SIGINT (Ctrl-C) or SIGTERM

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


def _concat_chunks(parts: list[tuple[int, Chunk]], totals: Mapping[str, tuple[str, ...]]) -> Chunk:
    """The kept rows in game order; a per-run table (``totals``) summed over the chunks."""
    parts = sorted(parts, key=lambda p: p[0])
    chunks = [c for _, c in parts]
    games = {k: np.concatenate([c.games[k] for c in chunks]) for k in chunks[0].games}
    events = {}
    for name in chunks[0].events:
        if name in totals:
            table = chunks[0].events[name]
            for c in chunks[1:]:
                table = _sum_table(table, c.events[name], totals[name])
            events[name] = table
        else:
            events[name] = {k: np.concatenate([c.events[name][k] for c in chunks]) for k in chunks[0].events[name]}
    return Chunk(games, events)


def _progress_enabled(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return sys.stderr.isatty() and os.environ.get("CI") is None


def _iter_parallel(tasks: Iterable[tuple], jobs: int, backend: str, scheduler: str | None,
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
    overwrite: bool = False,
    progress: bool | None = None,
    scheduler: str | None = None,
) -> SimResult:
    """Play ``n_games`` games of ``game`` under ``scenario`` and return their summary.

    ``jobs=-1`` uses every core. ``backend="dask"`` runs the same chunks on a Dask cluster at
    ``scheduler`` (or a local one on 127.0.0.1). Ctrl-C (or SIGTERM) stops the workers and returns the
    chunks that finished (``interrupted=True``). ``out`` receives the run as a whole
    (``sim.core.runfolder``): Parquet shards, ``metrics.csv`` and the record ``run.json``.
    """
    spec = get_game(game) if isinstance(game, str) else game
    check_range("--games", n_games, 1, MAX_GAMES)
    check_range("--seed", seed, 0, MAX_SEED)
    if chunk_size is not None:
        check_range("--chunk-size", chunk_size, 1, MAX_CHUNK)
    if backend not in ("loky", "dask", "threading", "multiprocessing"):
        raise UserError(f"--backend {backend}: expected loky, dask, threading or multiprocessing")
    if scheduler is not None and backend != "dask":
        raise UserError(f"--scheduler {scheduler}: only the dask backend uses a scheduler (add --backend dask)")
    jobs = resolve_jobs(jobs)
    scen = resolve_scenario(spec, scenario, sets, players)
    check_policy_roles(spec, scen.rules, policies)
    policy = spec.policy_array(scen.rules, policies)
    size = chunk_size or max(1024, min(DEFAULT_CHUNK, -(-n_games // (4 * jobs))))
    folder = RunFolder(out, overwrite) if out is not None else None  # checked before any work starts
    out_str = str(folder.staging) if folder is not None else None
    tasks = ((spec, scen.rules, policy, seed, start, count, keep_rows, out_str)
             for start, count in chunk_plan(n_games, size))
    started = now_text()
    total = RunSummary()
    kept: list[tuple[int, Chunk]] = []
    merged: set[int] = set()
    interrupted: KeyboardInterrupt | None = None
    began = time.perf_counter()
    with sigterm_interrupts():
        try:
            ensure_compiled(spec, scen.rules)  # a cold cache: announced, compiled here once, not in every worker
            began = time.perf_counter()
            with games_bar(n_games, progress) as advance:
                results = _iter_parallel(tasks, jobs, backend, scheduler)
                try:
                    for start, summary, rows in results:
                        total.add(summary)
                        merged.add(start)
                        if rows is not None:
                            kept.append((start, rows))
                        advance(summary.n_games)
                finally:
                    results.close()  # an interrupt: joblib stops its workers here, before the shards are counted
        except KeyboardInterrupt as exc:
            interrupted = exc
            stop_workers(backend)
        except BaseException:
            if folder is not None:
                folder.abort()
            raise
    elapsed = time.perf_counter() - began
    if total.n_games == 0:  # only an interrupt ends a run without a chunk
        if folder is not None:
            folder.abort()
        raise interrupted or UserError("no chunk finished: nothing to report")
    result = SimResult(spec, scen, policy, seed, n_games, total, elapsed, interrupted is not None,
                       _concat_chunks(kept, run_tables(spec)) if kept else None,
                       signal_name=signal_of(interrupted) if interrupted is not None else None)
    if folder is not None:
        _finish_folder(folder, result, merged, dict(sets=list(sets), players=players, started=started,
                                                    chunk_size=size, jobs=jobs, backend=backend))
    return result


def stop_workers(backend: str) -> None:
    """After an interrupt: no loky worker keeps playing (or writing shards) once the run has returned."""
    if backend != "loky":
        return
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True, kill_workers=True)


def check_policy_roles(spec: GameSpec, rules: BaseModel, chosen: Mapping[str, str] | None) -> None:
    """A bot for a seat the game does not have at this player count is refused (roles are seats when
    every role offers the same bots, and only the first ``players`` seats play)."""
    first = tuple(spec.bots[spec.roles[0]])
    if not chosen or not hasattr(rules, "players") or any(tuple(spec.bots[r]) != first for r in spec.roles):
        return
    seated = spec.roles[: int(rules.players)]
    for role in chosen:
        if role in spec.roles and role not in seated:
            raise UserError(f"--policy {role}={chosen[role]}: with {rules.players} players the seats are "
                            + ", ".join(seated) + f"; seat {role} does not play")


def _finish_folder(folder: RunFolder, result: SimResult, merged: set[int], how: dict[str, Any]) -> None:
    """Drop shards of chunks that never counted, write the per-run tables, metrics.csv and run.json; swap in."""
    staging = folder.staging
    _keep_only_merged(staging, merged)
    for name, columns in result.summary.run_tables.items():
        (staging / name).mkdir(exist_ok=True)
        pl.DataFrame(columns).write_parquet(staging / name / "totals.parquet")
    result.metrics().write_csv(staging / "metrics.csv")
    folder.commit(run_record(result, **how))


def run_record(result: SimResult, *, sets: list[str], players: int | None, started: str, chunk_size: int,
               jobs: int, backend: str) -> dict[str, Any]:
    """What ``run.json`` says: enough to tell two run folders apart and to replay the run."""
    from sim import __version__

    spec, policy = result.game, result.policy
    bots = {}
    options = spec.search_options(policy) if spec.search else None
    for i, role in enumerate(spec.roles):
        name = spec.choices(role)[int(policy[i])]
        bots[role] = {"bot": name}
        if spec.search is not None and name == spec.search.name:
            bots[role]["options"] = {key: int(v) for (key, _, _), v in zip(spec.search.options, options[i],
                                                                            strict=True)}
    return {
        "complete": not result.interrupted,
        "stopped_by": result.signal_name,
        "game": spec.name,
        "scenario": result.scenario.name,
        "scenario_files": [str(f) for f in result.scenario.files],
        "sets": list(sets),
        "players": players,
        "rules_changed": changed_rules(spec, result.scenario),
        "rules": result.rules.model_dump(mode="json"),
        "bots": bots,
        "seed": result.seed,
        "games_requested": result.n_requested,
        "games": result.n_games,
        "chunk_size": chunk_size,
        "jobs": jobs,
        "backend": backend,
        "per_run_tables": {name: list(keys) for name, keys in run_tables(spec).items()},
        "toolkit_version": __version__,
        "compiled_sources": compiled_sources_digest(),
        "started": started,
        "elapsed_s": round(result.elapsed_s, 3),
        "command": ["sim", *sys.argv[1:]] if sys.argv and sys.argv[0].endswith("sim") else None,
    }


def changed_rules(spec: GameSpec, scenario: Scenario) -> dict[str, Any]:
    """The rules whose values differ from the game's base scenario (a variant file, --set, --players)."""
    try:
        base = load_scenario(spec.name, spec.rules_model, "base").rules.model_dump(mode="json")
    except UserError:
        return {}
    now = scenario.rules.model_dump(mode="json")
    return {k: v for k, v in now.items() if base.get(k) != v}


@contextmanager
def games_bar(n_games: int, progress: bool | None, done: int = 0) -> Iterator[Callable[[int], None]]:
    """While the block runs, a progress bar of ``n_games`` games on stderr if ``progress`` (None: on a
    terminal, not in CI), ``done`` of them played before (counted as done, not in the speed); yields
    ``advance(count)``, which moves it on (and does nothing without a bar)."""
    if not _progress_enabled(progress):
        yield lambda count: None
        return
    bar, task = _make_progress(n_games, done)
    bar.start()
    try:
        yield lambda count: bar.update(task, advance=count)
    finally:
        bar.stop()


def _make_progress(n_games: int, done: int = 0):
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
    return progress, progress.add_task("games", total=n_games, completed=done)
