"""The ``sim`` command line: list games, show rules, run batches, trace one game.

Bad input (an unknown game, scenario key, bot or value) prints one message naming the file,
the key and what was expected, and exits with code 2 without a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from sim.core.display import console, example, print_frame, print_metrics
from sim.core.errors import UserError
from sim.core.registry import all_games, get_game
from sim.core.scenario import list_scenarios

app = typer.Typer(help="Balance lab for three island games: simulate, compare, report.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)

GameArg = Annotated[str, typer.Argument(help="ocracoke, island-nation or wonderful-island (see `sim games`)")]
ScenarioOpt = Annotated[str, typer.Option("--scenario", "-s", help="Scenario name or TOML path")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Override a rule: key=value (repeatable); the keys "
                                                 "and their values: `sim rules GAME`")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Shorthand for --set players=N")]
PolicyOpt = Annotated[list[str] | None,
                      typer.Option("--policy", help="Bot per role: ROLE=BOT, e.g. 0=counter or all=random; "
                                   "the search bot takes a budget: 0=search or 0=search:rollouts=64 "
                                   "(options per game: `sim games`)")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Run seed; game i uses the stream (seed, i)")]


def parse_policies(items: list[str] | None) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for item in items or []:
        role, sep, bot = item.partition("=")
        if not sep or not role or not bot:
            raise UserError(f"--policy {item}: expected ROLE=BOT, e.g. 0=counter")
        chosen[role.strip()] = bot.strip()
    return chosen


@app.command("games", epilog=example("sim games"))
def games_command() -> None:
    """List the games with their player counts, bots, scenarios and metric names (* headline)."""
    from sim.core.runner import resolve_scenario

    for spec in all_games().values():
        console.print(f"[bold]{spec.name}[/bold]  {spec.title}")
        console.print(f"  players: {', '.join(map(str, spec.player_counts))}")
        for role in spec.roles:
            console.print(f"  bots for {role}: {', '.join(spec.bots[role])}  (weakest → strongest)")
        if spec.search is not None:
            console.print(f"  search bot (any role): {spec.search.syntax()}")
        console.print(f"  scenarios: {', '.join(list_scenarios(spec.name)) or '(none)'}")
        metrics = spec.metrics(resolve_scenario(spec, "base", (), None).rules)
        console.print("  metrics (* headline): " + ", ".join(m.name + ("*" if m.headline else "") for m in metrics))


@app.command("rules", epilog=example("sim rules ocracoke", "sim rules island-nation --players 6"))
def rules_command(game: GameArg, scenario: ScenarioOpt = "base", set_: SetOpt = None,
                  players: PlayersOpt = None) -> None:
    """Print the effective rules, each value marked rule text, assumed or scenario."""
    from rich.table import Table

    from sim.core.runner import resolve_scenario

    spec = get_game(game)
    scen = resolve_scenario(spec, scenario, tuple(set_ or ()), players)
    table = Table(title=f"{spec.title} — scenario {scen.name}", title_justify="left")
    for col in ("rule", "value", "source", "note"):
        table.add_column(col, overflow="fold")
    values = scen.rules.model_dump()
    for key, value in values.items():
        src = scen.sources[key]
        origin = f"{src.kind} ({src.origin})" if src.origin else src.kind
        table.add_row(key, json.dumps(value, ensure_ascii=False), origin, src.note)
    console.print(table)
    readings = spec.extras.get("readings", ())
    if readings:
        fixed = Table(title="Readings of the rule text that no rule value switches (assumed)", title_justify="left")
        for col in ("clause", "reading"):
            fixed.add_column(col, overflow="fold")
        for clause, reading in readings:
            fixed.add_row(clause, reading)
        console.print(fixed)


@app.command("run", epilog=example("sim run ocracoke --games 100000",
                                    "sim run ocracoke --set navy_values=[1,2,3,5] --out out/oc"))
def run_command(
    game: GameArg,
    scenario: ScenarioOpt = "base",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games")] = 100_000,
    seed: SeedOpt = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes; -1 = every core")] = -1,
    policy: PolicyOpt = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    backend: Annotated[str, typer.Option(help="loky (local cores) or dask")] = "loky",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address (default: local cluster)")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the run here: per-game and per-event Parquet shards, "
                                             "metrics.csv and run.json (a new folder, or --overwrite a run)")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the run already in --out")] = False,
    chunk_size: Annotated[int | None, typer.Option(help="Games per chunk (results do not depend on it)")] = None,
) -> None:
    """Play a batch of games and print win rates and the game's tables, all with 95 % intervals.

    Ctrl-C stops early: the figures cover the games that finished, --out keeps exactly those (marked
    incomplete in run.json) and the exit code is 130."""
    from sim.core.runner import changed_rules, simulate
    from sim.workflow.common import win_metrics
    from sim.workflow.fairness import fairness

    result = simulate(game, scenario, games, seed, jobs, parse_policies(policy), backend,
                      sets=tuple(set_ or ()), players=players, chunk_size=chunk_size, out=out,
                      overwrite=overwrite, scheduler=scheduler)
    bots = ", ".join(f"{r}={b}" for r, b in result.policies.items())
    console.print(f"[bold]{result.game.title}[/bold] · scenario {result.scenario.name} · "
                  f"{result.n_games:,} games · seed {seed} · bots {bots} · "
                  f"{result.n_games / result.elapsed_s:,.0f} games/s")
    console.print(rules_line(changed_rules(result.game, result.scenario)))
    if result.interrupted:
        console.print(f"[yellow]{STOPPED_BY[result.signal_name]}: {result.n_games:,} of {games:,} games "
                      "finished; the figures below cover those[/yellow]")
    print_metrics(result.metrics(), "metrics")
    for name, frame in result.tables().items():
        print_frame(frame, name)
    if len(win_metrics(result.game, result.rules)) > 1:
        console.print(fairness(result).line())
    if out is not None:
        state = "incomplete run" if result.interrupted else "run"
        console.print(f"{state} in {out}: per-game rows {out}/games/*.parquet · metrics {out}/metrics.csv · "
                      f"record {out}/run.json")
    if result.interrupted:
        raise typer.Exit(EXIT_ON_SIGNAL[result.signal_name])


def rules_line(changed: dict) -> str:
    """The header line naming every rule that differs from the game's base scenario."""
    if not changed:
        return "rules: as the base scenario"
    text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in changed.items())
    return f"rules changed from base: {text}"


@app.command("trace", epilog=example("sim trace ocracoke --seed 7 --index 42"))
def trace_command(
    game: GameArg,
    seed: SeedOpt = 0,
    index: Annotated[int, typer.Option("--index", "-i", help="Which game of the run to replay")] = 0,
    scenario: ScenarioOpt = "base",
    policy: PolicyOpt = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    map_frames: Annotated[Path | None, typer.Option(
        "--map-frames", help="Also draw the game on the map, one PNG per round (at its last turn end), in this folder")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON document instead: the run, the per-game row, the log lines and, "
                       "where the game gives them, its events as records (Island Nation: full point sets)")] = False,
) -> None:
    """Replay game INDEX of the run with seed SEED as a readable log (or JSON with --json)."""
    from sim.core.runner import MAX_GAMES, MAX_SEED, check_policy_roles, check_range, resolve_scenario
    from sim.core.warm import ensure_compiled

    check_range("--seed", seed, 0, MAX_SEED)
    check_range("--index", index, 0, MAX_GAMES - 1)
    spec = get_game(game)
    scen = resolve_scenario(spec, scenario, tuple(set_ or ()), players)
    chosen = parse_policies(policy)
    check_policy_roles(spec, scen.rules, chosen)
    policy_ids = spec.policy_array(scen.rules, chosen)
    draw_frames = spec.extras.get("trace_frames")
    if map_frames is not None and draw_frames is None:
        raise UserError(f"--map-frames: {spec.name} is not played on a map")
    ensure_compiled(spec, scen.rules)
    trace = spec.trace(scen.rules, policy_ids, seed, index)
    if as_json:
        typer.echo(json.dumps(_trace_document(spec, scen, policy_ids, seed, index, trace), ensure_ascii=False))
    else:
        for line in trace.lines:
            typer.echo(line)
    if map_frames is not None:
        paths = draw_frames(scen.rules, policy_ids, seed, index, map_frames)
        typer.echo(f"wrote {len(paths)} map frames to {map_frames}", err=as_json)


EXIT_BAD_INPUT = 2
EXIT_ON_SIGNAL = {"SIGINT": 130, "SIGTERM": 143}  # 128 + the signal's number, the shell's convention
STOPPED_BY = {"SIGINT": "interrupted", "SIGTERM": "terminated (SIGTERM)"}  # what an interrupted run says


def _trace_document(spec, scen, policy_ids, seed: int, index: int, trace) -> dict:
    """``sim trace --json``: the run that was replayed, the game's per-game row, the readable lines, and
    the game's events as records when its trace carries them (``events``), else null."""
    row = {name: column[0].item() for name, column in trace.chunk.games.items()}
    return {"game": spec.name, "scenario": scen.name, "players": scen.rules.players, "seed": seed, "index": index,
            "bots": spec.policy_names(policy_ids), "row": row, "lines": trace.lines,
            "events": getattr(trace, "events", None)}


@functools.cache
def _register_plugins() -> None:
    """Commands that live beside their subject (balance workflow, game-specific tools), registered once a
    process (``main`` may run many times in one, as the tests run it)."""
    import importlib

    for module in ("sim.workflow.cli",):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if not module.startswith(exc.name or "?"):
                raise
            continue
        mod.register(app)
    for spec in all_games().values():
        register = spec.extras.get("register_cli")
        if register is not None:
            register(app)


CORE_COMMANDS = {"games", "rules", "run", "trace"}


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def main() -> None:
    """Run ``sim``: bad input of any kind is one line on stderr and exit 2 (usage mistakes included), an
    interrupt exits 130 (143 after SIGTERM)."""
    from typer._click import exceptions as click  # typer's own copy of click raises these

    from sim.core.runner import signal_of

    try:
        if not (len(sys.argv) > 1 and sys.argv[1] in CORE_COMMANDS):
            _register_plugins()  # imports every game and the workflow: not needed by the core commands
        code = app(standalone_mode=False)
    except UserError as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except click.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else "", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as exc:
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
        print(f"error: {_one_line(exc.format_message())}{hint}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except click.ClickException as exc:
        print(f"error: {_one_line(exc.format_message())}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except typer.Abort:
        print("interrupted", file=sys.stderr)
        sys.exit(EXIT_ON_SIGNAL["SIGINT"])
    except KeyboardInterrupt as exc:
        stopped_by = signal_of(exc)
        print(f"{STOPPED_BY[stopped_by]} before any game finished: nothing written", file=sys.stderr)
        sys.exit(EXIT_ON_SIGNAL[stopped_by])
    sys.exit(code if isinstance(code, int) else 0)
