"""The workflow's commands, added to ``sim`` by ``register(app)``: compare, sweep, tune,
sensitivity, ladder, robust, skill, report, drift (check / update / calibrate) and golden."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from sim.cli import GameArg, PlayersOpt, PolicyOpt, ScenarioOpt, SeedOpt, SetOpt, parse_policies
from sim.core.display import example
from sim.core.errors import UserError

GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Games per arm (or per grid point / probe)")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Processes; -1 = every core")]
OutOpt = Annotated[Path, typer.Option("--out", help="Folder for tables, plots and PDFs")]
LevelOpt = Annotated[str | None, typer.Option("--level", help="Strength of every role: scripted (default), strong "
                                              "(the settled level of `sim skill`'s cached curve, or its strongest "
                                              "level if it did not settle; without a curve the search bot's "
                                              "default budget) or a bot, e.g. search:rollouts=64")]
GameList = Annotated[list[str] | None, typer.Argument(help="Games (default: every registered game)")]


def _jobs(jobs: int) -> int:
    """``--jobs``: -1 for every core, else 1 .. MAX_JOBS (0 and other negatives are refused)."""
    from sim.core.runner import resolve_jobs

    return resolve_jobs(jobs)


def _sizes(games: int | None = None, seed: int | None = None, option: str = "--games", least: int = 1) -> None:
    """Game counts and seeds checked at the command line, with the range in the message."""
    from sim.core.runner import MAX_GAMES, MAX_SEED, check_range

    if games is not None:
        check_range(option, games, least, MAX_GAMES)
    if seed is not None:
        check_range("--seed", seed, 0, MAX_SEED)


def compare_command(
    game: GameArg,
    base: Annotated[str, typer.Option("--base", help="Base scenario name or TOML path")] = "base",
    variant: Annotated[str | None, typer.Option("--variant", help="Variant scenario (default: the base)")] = None,
    set_: SetOpt = None,
    games: GamesOpt = 100_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    policy: PolicyOpt = None,
    variant_policy: Annotated[list[str] | None, typer.Option("--variant-policy",
                                                             help="Bots of the variant: ROLE=BOT")] = None,
    all_metrics: Annotated[bool, typer.Option("--all-metrics", help="Compare every metric, not only headline")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Also write <game>-compare.csv, .parquet and .json "
                                             "(what was compared) into this folder")] = None,
    level: LevelOpt = None,
) -> None:
    """Base against a variant (scenario, --set rules or bots) on common random numbers, Holm-corrected."""
    from sim.workflow.compare import compare, print_comparison, write_comparison

    if variant is None and not set_ and not variant_policy:
        raise UserError("compare: give --variant SCENARIO, --set key=value or --variant-policy ROLE=BOT")
    from sim.workflow.skill import level_policies

    _sizes(games, seed)
    if out is not None:
        _check_out_folder(out)
    chosen = level_policies(game, level, parse_policies(policy))
    result = compare(game, base, variant, tuple(set_ or ()), games, seed, _jobs(jobs), chosen,
                     {**chosen, **parse_policies(variant_policy)} if variant_policy else None, all_metrics)
    print_comparison(result)
    if out is not None:
        from sim.core.display import console

        for path in write_comparison(result, out, tuple(set_ or ())):
            console.print(f"wrote {path}")


def _check_out_folder(out: Path) -> None:
    """An --out folder for files: not a file, not below a file (checked before any game is played)."""
    for parent in [out, *out.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is a file" if parent == out else f"lies below the file {parent}"
            raise UserError(f"--out {out}: {where}; expected a folder")


def sweep_command(
    game: GameArg,
    param: Annotated[list[str], typer.Option("--param", help="Rule parameter (repeat for a 2-d grid)")],
    values: Annotated[list[str] | None, typer.Option("--values", help="a,b,c (one per --param, first ones)")] = None,
    range_: Annotated[list[str] | None, typer.Option("--range", help="lo:hi[:step] (one per remaining --param)")] = None,
    scenario: ScenarioOpt = "base",
    games: GamesOpt = 20_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    policy: PolicyOpt = None,
    out: OutOpt = Path("reports/runs/sweeps"),
    level: LevelOpt = None,
) -> None:
    """Headline metrics over a grid of rule values: CSV, Parquet and a plot with 95 % bands."""
    from sim.core.display import console
    from sim.workflow.common import resolve_game
    from sim.workflow.sweep import parse_grid, sweep, write_sweep

    _sizes(games, seed)
    _check_out_folder(out)
    spec = resolve_game(game)
    values, range_ = list(values or []), list(range_ or [])
    if len(values) + len(range_) != len(param) or len(param) > 2:
        raise UserError("sweep: give one --values or --range for each --param (one or two parameters), in order")
    grid = {}  # --values go to the first parameters, --range to the rest
    for p in param:
        grid[p] = (parse_grid(spec.rules_model, p, values.pop(0), None) if values
                   else parse_grid(spec.rules_model, p, None, range_.pop(0)))
    from sim.workflow.skill import level_policies

    frame = sweep(spec, scenario, grid, games, seed, _jobs(jobs), level_policies(spec, level, parse_policies(policy)))
    stem = f"{spec.name}-sweep-" + "-".join(param)
    paths = write_sweep(frame, list(grid), out, stem, f"{spec.title}: sweep of {' × '.join(param)}")
    from sim.core.display import print_frame

    print_frame(frame.drop("kind"), f"sweep ({games:,} games per point, seed {seed}, same streams at every point)")
    for path in paths:
        console.print(f"wrote {path}")


def tune_command(
    game: GameArg,
    param: Annotated[str, typer.Option("--param", help="Numeric rule parameter to tune")],
    target: Annotated[str, typer.Option("--target", help='metric=value, e.g. "win_0=0.5" or "win_0=50%"')],
    range_: Annotated[str | None, typer.Option("--range", help="lo:hi to search (default: the field's bounds)")] = None,
    scenario: ScenarioOpt = "base",
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    policy: PolicyOpt = None,
    start_games: Annotated[int, typer.Option(help="Games at a new probe")] = 4000,
    max_games: Annotated[int, typer.Option(help="Most games at one probe")] = 256_000,
    resolution: Annotated[float | None, typer.Option(help="Grid of the search (default: the field's step)")] = None,
    level: LevelOpt = None,
) -> None:
    """Find the rule value that brings a metric to a target, by a noisy bisection."""
    from sim.workflow.tune import print_tune, tune

    _sizes(seed=seed)
    _sizes(start_games, option="--start-games")
    _sizes(max_games, option="--max-games")
    lo = hi = None
    if range_:
        try:
            lo, hi = (float(v) for v in range_.split(":"))
        except ValueError:
            raise UserError(f"--range {range_}: expected lo:hi") from None
    from sim.workflow.skill import level_policies

    result = tune(game, scenario, param, target, lo, hi, seed, _jobs(jobs), level_policies(game, level,
                                                                                           parse_policies(policy)),
                  start_games, max_games, resolution)
    print_tune(result)


def sensitivity_command(
    game: GameArg,
    scenario: ScenarioOpt = "base",
    metric: Annotated[str | None, typer.Option(help="Metric (default: the first role's win rate)")] = None,
    games: GamesOpt = 20_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    policy: PolicyOpt = None,
    out: OutOpt = Path("reports"),
) -> None:
    """Move each numeric rule one step down and up; rank by effect (tornado chart)."""
    import matplotlib

    matplotlib.use("Agg")
    from sim.core.display import console
    from sim.workflow.sensitivity import print_tornado, sensitivity, tornado_figure

    _sizes(games, seed)
    _check_out_folder(out)
    result = sensitivity(game, scenario, metric, games, seed, _jobs(jobs), parse_policies(policy))
    print_tornado(result)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{result.spec.name}-tornado.png"
    tornado_figure(result).savefig(path, dpi=120)
    console.print(f"wrote {path}")


def ladder_command(
    game: GameArg,
    scenario: ScenarioOpt = "base",
    games: GamesOpt = 10_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    out: OutOpt = Path("reports"),
) -> None:
    """Every pairing of the game's bots (seats rotated): win-rate matrix, Elo ratings, skill versus luck."""
    import matplotlib

    matplotlib.use("Agg")
    from sim.core.display import console
    from sim.workflow.ladder import ladder, ladder_figures, print_ladder

    _sizes(games, seed)
    _check_out_folder(out)
    result = ladder(game, scenario, games, seed, _jobs(jobs))
    print_ladder(result)
    out.mkdir(parents=True, exist_ok=True)
    for i, fig in enumerate(ladder_figures(result)):
        path = out / f"{result.spec.name}-ladder-{i + 1}.png"
        fig.savefig(path, dpi=120)
        console.print(f"wrote {path}")


def robust_command(
    game: GameArg,
    scenario: ScenarioOpt = "base",
    set_: SetOpt = None,
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per arm (default 10,000: headline rates "
                                       "to about ±1 point)")] = 10_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    policy: Annotated[list[str] | None, typer.Option("--policy", help="Scripted bots of the baseline: ROLE=BOT "
                                                     "(default: the strongest)")] = None,
    budget: Annotated[str | None, typer.Option("--budget", help='Search options, e.g. "rollouts=64,worlds=8" '
                                               "(default: the game's; see `sim games`)")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Also write <game>-robust.json/.csv/.png here "
                                             "(reports/robust is what `sim report` reads)")] = None,
) -> None:
    """Does it hold under stronger play? Search in place of the scripted bot, role by role and in all roles,
    on the same games: each headline metric's change with its 95 % interval, and every conclusion that flips."""
    from sim.core.display import console
    from sim.workflow.robust import print_robust, robust, write_robust

    _sizes(games, seed)
    if out is not None:
        _check_out_folder(out)
    result = robust(game, scenario, games, seed, _jobs(jobs), parse_policies(policy), budget, players,
                    tuple(set_ or ()), progress=None)
    print_robust(result)
    if out is not None:
        for path in write_robust(result, out):
            console.print(f"wrote {path}")


def skill_command(
    game: GameArg,
    scenario: ScenarioOpt = "base",
    set_: SetOpt = None,
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per level (the same games at every "
                                       "level); a rate near 50 % needs about 9,600 for a ±1 pt interval")] = 10_000,
    ladder: Annotated[str | None, typer.Option("--ladder", help="Search budgets of the levels after the scripted "
                                               "one, rising, e.g. 4,8,16,32 (default: a quarter of the game's "
                                               "default budget, doubled 6 times)")] = None,
    tolerance: Annotated[float, typer.Option("--tolerance", help="Settled when every headline's change from the "
                                             "level before is at most ± this (pt): its 95 % interval inside it, "
                                             "or within noise with the level's interval ± this or narrower")] = 1.0,
    time_limit: Annotated[float | None, typer.Option("--time-limit", help="Seconds; no level is begun that "
                                                     "would end after it")] = None,
    gaps: Annotated[bool, typer.Option("--gaps/--no-gaps", help="Exploitability gaps: per level and role, "
                                       "that role at 4x the budget")] = True,
    gap_games: Annotated[int | None, typer.Option("--gap-games", help="Play the exploitability gaps on the "
                                                  "first N games of each level only (default: all)")] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    chunk_games: Annotated[int | None, typer.Option("--chunk-games", help="Games per chunk of a level (default: "
                                                    "its games / (16 x jobs); at least 64). A stopped level keeps "
                                                    "its finished chunks, whatever chunking played them, and loses "
                                                    "those in play: small chunks lose less at a costly level")] = None,
    backend: Annotated[str, typer.Option("--backend", help="loky or dask (a local cluster, or --scheduler)")] = "loky",
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address")] = None,
    out: Annotated[Path, typer.Option("--out", help="Write <game>-skill.json/.csv/.png here (what `sim report` "
                                      "reads)")] = Path("reports/skill"),
    replay: Annotated[bool, typer.Option("--replay", help="Play every level again, rather than read the levels "
                                         "cached in OUT/levels (played before on the same sources, rules, seed, "
                                         "games and bots)")] = False,
    status: Annotated[bool, typer.Option("--status", help="Play nothing: print the curve of the levels already "
                                         "played whole and, of the next, how many games are kept so far (a "
                                         "run going on, or stopped) and each headline on them; writes nothing")] = False,
    pause_after: Annotated[float | None, typer.Option("--pause-after", help="Seconds: begin no chunk after this "
                                                      "long; the chunks in play finish and are kept in OUT/levels, "
                                                      "the curve files are not written, and the same command goes "
                                                      "on from the kept chunks (a level longer than a sitting)")] = None,
    whole_ladder: Annotated[bool, typer.Option("--whole-ladder", help="Play every level of the ladder, also after "
                                               "the headlines settle: whether they stay settled (a headline "
                                               "settles at the first level from which every change is "
                                               "within tolerance)")] = False,
) -> None:
    """The skill curve: headline metrics with every role at rising strength (scripted, then search at
    budget B, 2B, 4B, ...) on the same games, until two successive levels agree within the tolerance."""
    from sim.cli import EXIT_ON_SIGNAL, STOPPED_BY
    from sim.core.display import console
    from sim.core.runner import signal_of, sigterm_interrupts
    from sim.workflow.common import DEFAULT_CHUNK
    from sim.workflow.skill import MIN_CHUNK, parse_ladder, print_skill, skill, write_skill

    if backend not in ("loky", "dask"):
        raise UserError(f"--backend {backend}: expected loky or dask")
    if status and replay:
        raise UserError("--status reads the levels kept in OUT/levels, --replay plays them again: not both")
    if status and pause_after is not None:
        raise UserError("--status plays nothing, --pause-after pauses play: not both")
    if chunk_games is not None and chunk_games < MIN_CHUNK:
        raise UserError(f"--chunk-games {chunk_games}: expected {MIN_CHUNK} or more games")
    cache = None if replay else out / "levels"
    try:
        with sigterm_interrupts():
            result = skill(game, scenario, games, seed, parse_ladder(ladder) if ladder else None, tolerance / 100,
                           time_limit, _jobs(jobs), backend, scheduler, players, tuple(set_ or ()), gaps,
                           chunk_size=chunk_games or DEFAULT_CHUNK, gap_games=gap_games,
                           say=lambda text: console.print(f"  {text}"), cache=cache, status=status,
                           pause_after_s=pause_after, whole_ladder=whole_ladder)
    except KeyboardInterrupt as exc:  # the levels and chunks finished so far are on disk: say so, not "nothing written"
        stopped_by = signal_of(exc)
        how = STOPPED_BY[stopped_by]
        print(f"{how}: nothing written (--replay keeps no level)" if cache is None else
              f"{how}: the levels and chunks finished so far are kept in {cache}; the same command goes on "
              "from them", file=sys.stderr)
        raise typer.Exit(EXIT_ON_SIGNAL[stopped_by]) from None
    if result.levels:
        print_skill(result)
    if result.stopped == "paused":
        console.print(f"paused (no chunk begun after {pause_after:g} s): the chunks finished are kept in {cache}; the same command "
                      "goes on from them (nothing else written)")
    elif not status:
        for path in write_skill(result, out):
            console.print(f"wrote {path}")


def report_command(
    games_: GameList = None,
    games: GamesOpt = 50_000,
    analysis_games: Annotated[int, typer.Option(help="Paired games per sensitivity move (0: skip)")] = 20_000,
    ladder_games: Annotated[int, typer.Option(help="Games per ladder matchup (0: skip)")] = 5_000,
    robust_games: Annotated[int, typer.Option(help="Games per arm of the stronger-play check when no "
                                              "`sim robust --out OUT/robust` result is cached (0: skip)")] = 1_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = -1,
    out: OutOpt = Path("reports"),
) -> None:
    """One balance PDF per game and a one-page overview."""
    from sim.core.display import console
    from sim.workflow.report import report

    def done(rep) -> None:
        widest = rep.widest_rate_half_width()
        flag = "" if widest < 0.005 else "  [yellow](wider than ±0.5 points: raise --games)[/yellow]"
        console.print(f"{rep.spec.name}: {rep.path} · {len(rep.pages)} pages · {rep.elapsed_s:.0f} s · widest "
                      f"headline interval ±{100 * widest:.2f} points{flag}")

    def step(text: str) -> None:
        print(f"{time.perf_counter() - began:5.0f} s  {text}", file=sys.stderr, flush=True)

    _sizes(games, seed)
    for option, value in (("--analysis-games", analysis_games), ("--ladder-games", ladder_games),
                          ("--robust-games", robust_games)):
        _sizes(value, option=option, least=0)
    _check_out_folder(out)
    began = time.perf_counter()
    _, overview, total = report(games_, out, games, analysis_games, ladder_games, seed, _jobs(jobs), done, step,
                                robust_games)
    console.print(f"overview: {overview} · total {total / 60:.1f} min")


def golden_command(
    games_: GameList = None,
    check: Annotated[bool, typer.Option("--check", help="Only report traces that changed")] = False,
) -> None:
    """Re-record the golden traces under tests/golden (or --check them)."""
    from sim.core.display import console
    from sim.workflow.golden import refresh, stale

    if check:
        changed = stale(games_)
        for path in changed:
            console.print(f"changed: {path}")
        console.print("golden traces: " + (f"{len(changed)} changed" if changed else "all match"))
        raise typer.Exit(1 if changed else 0)
    for path in refresh(games_):
        console.print(f"wrote {path}")


drift_app = typer.Typer(help="The CI drift gate: headline rates against committed baselines.",
                        no_args_is_help=True)


@drift_app.command("check", epilog=example("sim drift check ocracoke", "sim drift check --seed 3"))
def drift_check(
    games_: GameList = None,
    jobs: JobsOpt = -1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the check (not the baselines' seed, 1); "
                                      "run several seeds to estimate the gate's false-alarm rate")] = 2,
    games: Annotated[int | None, typer.Option("--games", "-n", help="Games per player count "
                                              "(default: the designed size, 99 % power at 1 point)")] = None,
) -> None:
    """Replay each base scenario at every player count and compare its headline rates with the baselines.

    Exit codes: 0 no rate moved; 1 a headline rate moved beyond noise; 2 bad input; 3 a baseline is
    missing (for a game asked for), damaged or out of step with the game (run `sim drift update GAME`).
    A headline rate without a baseline is a warning."""
    from sim.workflow.drift import EXIT_BASELINE, EXIT_MOVED, BaselineError, check, print_drift

    _sizes(games, seed)
    try:
        result = check(games_, _jobs(jobs), seed=seed, n_games=games)
    except BaselineError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        raise typer.Exit(EXIT_BASELINE) from None
    print_drift(result)
    raise typer.Exit(EXIT_MOVED if result.failed else 0)


@drift_app.command("update", epilog=example("sim drift update ocracoke"))
def drift_update(games_: GameList = None, jobs: JobsOpt = -1) -> None:
    """Rewrite the baselines on purpose (after a deliberate change to the rules or bots)."""
    from sim.core.display import console
    from sim.workflow.drift import update

    names = games_ or _all_names()
    written = update(names, _jobs(jobs))
    for path in written:
        console.print(f"wrote {path}")
    for name in sorted(set(names) - {p.stem for p in written}):
        console.print(f"{name}: unchanged (the same rates; not rewritten)")


@drift_app.command("calibrate", epilog=example("sim drift calibrate ocracoke --trials 20"))
def drift_calibrate(
    game: GameArg,
    trials: Annotated[int, typer.Option(help="Fresh baseline + check pairs")] = 100,
    metric: Annotated[str | None, typer.Option(help="Rate moved by 1 point (default: the first)")] = None,
    checks_per_baseline: Annotated[int, typer.Option(help="Checks sharing one fresh baseline")] = 1,
    set_: SetOpt = None,
    jobs: JobsOpt = -1,
) -> None:
    """Measure the gate: false alarms (same code, new seeds) and detections (a 1-point move, or --set a rule)."""
    from sim.core.display import console
    from sim.workflow.drift import calibrate

    rates = calibrate(game, trials, metric, _jobs(jobs), checks_per_baseline=checks_per_baseline,
                      rule_change=tuple(set_ or ()))
    false_alarm, detection = rates.summary()
    change = f"the rule change {', '.join(set_)}" if set_ else f"a 1-point move in {', '.join(rates.shift)}"
    console.print(f"{game}: false alarms {false_alarm.pct()} · detections of {change}: {detection.pct()}")


def _all_names() -> list[str]:
    from sim.core.registry import all_games

    return list(all_games())


EXAMPLES = {  # each runs in minutes and writes under out/ (ignored by git)
    "compare": ("sim compare ocracoke --set pay_declarer=2 --games 100000",
                "sim compare island-nation --variant strict-evac --games 20000 --out out/compare"),
    "sweep": ("sim sweep ocracoke --param players --values 2,3,4 --games 20000 --out out/sweeps",),
    "tune": ('sim tune island-nation --param evac_from --target "win_frogman=0.5" --range 6:10',),
    "sensitivity": ("sim sensitivity ocracoke --games 5000 --out out",),
    "ladder": ("sim ladder ocracoke --games 2000 --out out",),
    "robust": ("sim robust ocracoke --games 2000 --out out/robust",),
    "skill": ("sim skill ocracoke --games 1000 --ladder 8,16 --out out/skill",),
    "report": ("sim report ocracoke --games 20000",),
    "golden": ("sim golden --check",),
}


def register(app: typer.Typer) -> None:
    commands = {"compare": compare_command, "sweep": sweep_command, "tune": tune_command,
                "sensitivity": sensitivity_command, "ladder": ladder_command, "robust": robust_command,
                "skill": skill_command, "report": report_command, "golden": golden_command}
    for name, command in commands.items():
        app.command(name, epilog=example(*EXAMPLES[name]))(command)
    app.add_typer(drift_app, name="drift")
