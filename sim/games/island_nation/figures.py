"""The report's figures for Island Nation: escape odds by round per player count, the public set's
size by round, and heat maps on the map (where the frogman spends rounds, is caught, escapes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from sim.core import stats
from sim.games.island_nation.analysis import ESCAPE_ROUNDS, ROUNDS
from sim.games.island_nation.rules import PLAYER_COUNTS


def _runs(scenario, n_games: int, seed: int, jobs: int) -> dict:
    from sim.core.runner import simulate

    return {p: simulate("island-nation", scenario, n_games, seed, jobs, players=p, progress=False)
            for p in PLAYER_COUNTS}


def escape_figure(runs: dict) -> Figure:
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.add_subplot()
    width = 0.25
    for i, (players, result) in enumerate(runs.items()):
        n = result.n_games
        est = [stats.rate(result.summary.sums.get(f"escape_by_{r}", 0), n) for r in ESCAPE_ROUNDS]
        x = np.arange(len(ESCAPE_ROUNDS)) + (i - 1) * width
        values = np.array([e.value for e in est]) * 100
        err = np.array([[e.value - e.lo for e in est], [e.hi - e.value for e in est]]) * 100
        ax.bar(x, values, width, yerr=err, capsize=3, label=f"{players} players (n={n:,})")
    ax.set_xticks(np.arange(len(ESCAPE_ROUNDS)), [f"by round {r}" for r in ESCAPE_ROUNDS])
    ax.set_ylabel("frogman escaped (% of games, cumulative)")
    bots = ", ".join(f"{k}={v}" for k, v in next(iter(runs.values())).policies.items())
    ax.set_title(f"Island Nation: escape odds by round\n{bots}; 95% Wilson intervals")
    ax.legend()
    return fig


def public_set_figure(runs: dict) -> Figure:
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.add_subplot()
    for players, result in runs.items():
        t = result.summary.tallies
        rounds, means, lo, hi = [], [], [], []
        for r in ROUNDS:
            m = int(t["set_games"][r - 1])
            if m < 2:
                continue
            est = stats.mean_from_sums(float(t["set_sum"][r - 1]), float(t["set_sumsq"][r - 1]), m)
            rounds.append(r)
            means.append(est.value)
            lo.append(est.lo)
            hi.append(est.hi)
        ax.plot(rounds, means, marker="o", label=f"{players} players")
        ax.fill_between(rounds, lo, hi, alpha=0.25)
    ax.set_xlabel("round")
    ax.set_ylabel("points the frogman may be on (mean, games still running)")
    ax.set_yscale("log")
    ax.set_title("Island Nation: size of the public set at the end of each round\n(mean with 95% interval)")
    ax.legend()
    return fig


def heat_maps(result) -> list[Figure]:
    from sim.games.island_nation.board import board_for
    from sim.games.island_nation.mapview import draw_board

    board = board_for(result.rules)
    t = result.summary.tallies
    n = result.n_games
    density = t["density"] / max(1, t["density"].sum()) * 100
    captures = t["captures"] / n * 100
    escapes = t["escapes"] / n * 100
    p = result.rules.players
    # colour scales from 0: a point or exit never used must look unused, not merely the least used
    return [draw_board(board, values=density, colorbar_label="% of frogman round-ends on the point", vmin=0,
                       title=f"Where the frogman ends its rounds ({p} players, n={n:,} games)"),
            draw_board(board, values=np.where(captures > 0, captures, np.nan),
                       colorbar_label="% of games: frogman caught or shot dead here", vmin=0,
                       title=f"Where the frogman is caught or shot ({p} players, n={n:,} games)"),
            draw_board(board, values=np.where(escapes > 0, escapes, np.nan), cmap="Greens",
                       colorbar_label="% of games: frogman escapes here", vmin=0,
                       title=f"Where the frogman escapes ({p} players, n={n:,} games)")]


def report_figures(scenario, n_games: int, seed: int, jobs: int) -> list[Figure]:
    """Escape odds by round and public-set size per player count; heat maps for 5 players."""
    runs = _runs(scenario, n_games, seed, jobs)
    return [escape_figure(runs), public_set_figure(runs), *heat_maps(runs[5])]


def trace_frames(rules, policy: np.ndarray, seed: int, index: int, out: Path) -> list[Path]:
    """One picture per round of game ``index`` of run ``seed``: the public set at the end of the
    round shaded on the map, the artillery (A1..A5) and the true frogman point (F) marked."""
    from sim.games.island_nation import engine as E
    from sim.games.island_nation.batch import play_rows
    from sim.games.island_nation.board import board_for
    from sim.games.island_nation.mapview import draw_board

    board = board_for(rules)
    _, _, log = play_rows(rules, board, policy, seed, index, 1, 4096)
    n = len(board.labels)
    out.mkdir(parents=True, exist_ok=True)
    artillery: dict[int, int] = {}
    dead: set[int] = set()
    frames: dict[int, tuple] = {}
    for event, rnd, actor, a, b, c in log.tolist():
        if event == E.EV_PLACE or event == E.EV_AMOVE:
            artillery[actor] = a if event == E.EV_PLACE else b
        elif event == E.EV_DEATH:
            dead.add(actor)
        elif event == E.EV_TURN_END:
            frames[rnd] = (a, b & (2**64 - 1), c & (2**64 - 1), dict(artillery), set(dead))
        elif event == E.EV_END:
            break
    paths = []
    for rnd, (frog, w0, w1, arts, gone) in sorted(frames.items()):
        public = np.array([float((w0, w1)[p >> 6] >> (p & 63) & 1) for p in range(n)])
        marks = {}
        for k, p in sorted(arts.items()):
            if k not in gone:
                marks[p] = (marks[p] + " " if p in marks else "") + f"A{k}"
        marks[frog] = (marks[frog] + " " if frog in marks else "") + "F"
        fig = draw_board(board, values=np.where(public > 0, 1.0, np.nan), cmap="Blues", vmin=0, vmax=1.2,
                         colorbar_label="the frogman may be here", marks=marks,
                         title=f"Game {index} of seed {seed}, round {rnd}: public set of {int(public.sum())} "
                               f"points (F = true frogman point)")
        path = out / f"round-{rnd:02d}.png"
        fig.savefig(path, dpi=90)
        paths.append(path)
    return paths
