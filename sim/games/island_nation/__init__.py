"""Island Nation (同島一命): one hidden frogman against 3–5 artillery on Kaoteng Island.

The frogman announces only the directions of its road steps; everyone tracks the exact set of
points it may be on (the public belief, a bitset per game). Rules: docs/rules/island-nation.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.core.game import Chunk, GameSpec, Trace
from sim.games.island_nation import analysis
from sim.games.island_nation.policies import ARTILLERY_BOTS, FROGMAN_BOTS, SEARCH
from sim.games.island_nation.rules import PLAYER_COUNTS, READINGS, IslandNationRules

LOG_ROWS = 4096


def _board(rules):
    from sim.games.island_nation.board import board_for

    return board_for(rules)


def play(rules: IslandNationRules, policy: np.ndarray, seed: int, start: int, count: int) -> Chunk:
    from sim.games.island_nation.batch import play_rows

    games, points, _ = play_rows(rules, _board(rules), policy, seed, start, count)
    return Chunk(games, {"points": points})


@dataclass
class EventTrace(Trace):
    """A trace with its events as records (``sim trace --json``): every public set in full."""

    events: list[dict] = field(default_factory=list)


def trace(rules: IslandNationRules, policy: np.ndarray, seed: int, index: int) -> EventTrace:
    from sim.games.island_nation.batch import play_rows

    board = _board(rules)
    games, points, log = play_rows(rules, board, policy, seed, index, 1, LOG_ROWS)
    used = log[: _used_rows(log)]
    bots = GAME.policy_names(np.asarray(policy))
    lines = [f"Island Nation · {rules.players} players · game {index} of seed {seed} · "
             f"frogman={bots['frogman']} artillery={bots['artillery']}"]
    lines += analysis.describe_log(board, used, rules)
    return EventTrace(lines, Chunk(games, {"points": points}), analysis.log_events(board, used, rules))


def _used_rows(log: np.ndarray) -> int:
    """Rows the engine wrote: every game's log ends with its game-over event."""
    from sim.games.island_nation.engine import EV_END

    ends = np.flatnonzero(log[:, 0] == EV_END)
    return int(ends[0]) + 1 if ends.size else log.shape[0]


def _report_figures(scenario, n_games: int, seed: int, jobs: int):
    from sim.games.island_nation.figures import report_figures

    return report_figures(scenario, n_games, seed, jobs)


def _trace_frames(rules, policy, seed, index, out):
    """``sim trace island-nation --map-frames DIR``: one game's public set on the map, round by round."""
    from sim.games.island_nation.figures import trace_frames

    return trace_frames(rules, policy, seed, index, out)


def _register_cli(app) -> None:
    """``sim map``: draw the map."""
    from sim.games.island_nation.mapview import register_cli

    register_cli(app)


def _warm_analyses(rules) -> None:
    """Compile the analyses' own entry point (counterfactual.play_values: the paired values of items and
    mine timing), one game."""
    from sim.games.island_nation.counterfactual import play_values

    play_values(rules, 0, 0, 1)


GAME = GameSpec(
    name="island-nation",
    title="Island Nation (同島一命)",
    rules_model=IslandNationRules,
    player_counts=PLAYER_COUNTS,
    roles=("frogman", "artillery"),
    bots={"frogman": FROGMAN_BOTS, "artillery": ARTILLERY_BOTS},
    default_bots={"frogman": "ghost", "artillery": "hunter"},
    play=play,
    metrics=analysis.metrics,
    per_game=analysis.per_game,
    tally=analysis.tally,
    tables=analysis.tables,
    trace=trace,
    description="Hidden movement: will the frogman escape Kaoteng Island in rounds 7–10, and when?",
    search=SEARCH,
    extras={"register_cli": _register_cli, "report_figures": _report_figures, "trace_frames": _trace_frames,
            "warm_analyses": _warm_analyses, "readings": READINGS,
            "run_tables": {"points": ("point",)}},  # per-point totals: one table per run, not per chunk
)
