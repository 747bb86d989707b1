"""``sim sweep``: headline metrics over a grid of rule values, with interval bands.

Every grid point plays the same game indices with the same seed (common random numbers across
the grid, so neighbouring points differ mostly by the rule). Grid points run in parallel with
joblib; the table is written as CSV and Parquet, with a line plot (one parameter) or a heat map
per metric (two parameters).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.errors import UserError
from sim.core.game import GameSpec
from sim.core.runner import simulate
from sim.core.scenario import Scenario
from sim.workflow.common import numeric_field, resolve_game, scenario_of


def parse_grid(model, param: str, values: str | None, range_: str | None) -> list:
    """Values of one parameter from ``a,b,c`` or ``lo:hi:step`` (hi included), checked against its type."""
    if (values is None) == (range_ is None):
        raise UserError(f"--param {param}: give exactly one of --values a,b,c or --range lo:hi[:step]")
    field = numeric_field(model, param) if model.model_fields.get(param) is not None and \
        model.model_fields[param].annotation in (int, float) else None
    cast = (int if field.is_int else float) if field else _toml_value
    if values is not None:
        try:
            return [cast(v.strip()) for v in values.split(",") if v.strip()]
        except ValueError:
            raise UserError(f"--values {values}: expected {cast.__name__} values separated by commas") from None
    if field is None:
        raise UserError(f"--range for {param}: only numeric parameters take a range")
    parts = range_.split(":")
    try:
        lo, hi = float(parts[0]), float(parts[1])
        step = float(parts[2]) if len(parts) > 2 else field.step
    except (ValueError, IndexError):
        raise UserError(f"--range {range_}: expected lo:hi or lo:hi:step") from None
    if step <= 0 or hi < lo:
        raise UserError(f"--range {range_}: expected lo <= hi and a positive step")
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    return [cast(round(lo + k * step, 10)) for k in range(count)]


def _toml_value(text: str):
    """A non-numeric grid value read as --set reads it: ``true`` is a boolean, ``strict`` is text."""
    from sim.core.scenario import parse_set

    return parse_set(f"v={text}")[1]


def _setting(key: str, value) -> str:
    """``key=value`` for --set, the value written as TOML (``true``, ``"text"``, ``3``)."""
    return f"{key}={json.dumps(value)}" if isinstance(value, bool | str) else f"{key}={value}"


def _point(spec: GameSpec, scenario: Scenario, point: dict, n_games: int, seed: int,
           policies: dict[str, str] | None) -> list[dict]:
    sets = [_setting(k, v) for k, v in point.items()]
    result = simulate(spec, scenario, n_games, seed, 1, policies, sets=sets, progress=False)
    frame = result.metrics(headline_only=True)
    return [{**point, **row} for row in frame.iter_rows(named=True)]


def sweep(game: str | GameSpec, scenario: str | Path | Scenario, grid: dict[str, list], n_games: int,
          seed: int = 0, jobs: int = 1, policies: dict[str, str] | None = None) -> pl.DataFrame:
    """One row per grid point and headline metric: parameter values, value, lo, hi, n."""
    spec = resolve_game(game)
    scen = scenario_of(spec, scenario)
    points = [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())]
    for point in points:  # validate every point here, so a bad value fails before any game is played
        scenario_of(spec, scen, [_setting(k, v) for k, v in point.items()])
    if jobs == 1 or len(points) == 1:
        rows = [r for p in points for r in _point(spec, scen, p, n_games, seed, policies)]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=jobs)(delayed(_point)(spec, scen, p, n_games, seed, policies) for p in points)
        rows = [r for part in parts for r in part]
    return pl.DataFrame(rows)


def sweep_figures(frame: pl.DataFrame, params: list[str], title: str):
    """A line per headline metric with its 95 % band (one parameter) or a heat map per metric (two)."""
    import matplotlib.pyplot as plt

    from sim.core.pages import use_fonts

    use_fonts()  # the games' Chinese names in the title

    never = frame.group_by("metric").agg(pl.col("value").max() == 0).filter(pl.col("value"))["metric"].to_list()
    metrics = [m for m in dict.fromkeys(frame["metric"].to_list()) if m not in never]  # e.g. an empty seat
    if len(params) == 1:
        fig, ax = plt.subplots(figsize=(8, 5))
        param = params[0]
        for name in metrics:
            rows = frame.filter(pl.col("metric") == name).sort(param)
            x = rows[param].to_numpy()
            scale = 100 if rows["kind"][0] == "rate" else 1
            ax.plot(x, scale * rows["value"].to_numpy(), marker="o", label=rows["label"][0])
            ax.fill_between(x, scale * rows["lo"].to_numpy(), scale * rows["hi"].to_numpy(), alpha=0.25)
        grid_values = sorted(set(frame[param].to_list()))
        if len(grid_values) <= 15:
            ax.set_xticks(grid_values)
        ax.set_xlabel(f"{param} (rule value)")
        ax.set_ylabel("rate (%) with 95 % band" if frame["kind"][0] == "rate" else "value with 95 % band")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        return [fig]
    if len(params) != 2:
        raise UserError("a sweep plots one or two parameters")
    px, py = params
    figs = []
    for name in metrics:
        rows = frame.filter(pl.col("metric") == name)
        xs = sorted(set(rows[px].to_list()))
        ys = sorted(set(rows[py].to_list()))
        grid = np.full((len(ys), len(xs)), np.nan)
        half = np.full_like(grid, np.nan)
        scale = 100 if rows["kind"][0] == "rate" else 1
        for r in rows.iter_rows(named=True):
            i, j = ys.index(r[py]), xs.index(r[px])
            grid[i, j] = scale * r["value"]
            half[i, j] = scale * (r["hi"] - r["lo"]) / 2
        fig, ax = plt.subplots(figsize=(8, 6))
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        for i in range(len(ys)):
            for j in range(len(xs)):
                ax.text(j, i, f"{grid[i, j]:.1f}\n±{half[i, j]:.1f}", ha="center", va="center", fontsize=7,
                        color="white")
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(f"{px} (rule value)")
        ax.set_ylabel(f"{py} (rule value)")
        ax.set_title(f"{title}: {rows['label'][0]} (cell: value ± 95 % half-width)")
        fig.colorbar(image, ax=ax, label=("rate (%)" if scale == 100 else "value") + f" — {rows['label'][0]}")
        figs.append(fig)
    return figs


def write_sweep(frame: pl.DataFrame, params: list[str], out: Path, stem: str, title: str) -> list[Path]:
    """CSV, Parquet and a PDF of the plots; returns the paths written."""
    from matplotlib.backends.backend_pdf import PdfPages

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.csv", out / f"{stem}.parquet", out / f"{stem}.pdf"]
    frame.write_csv(paths[0])
    frame.write_parquet(paths[1])
    with PdfPages(paths[2]) as pdf:
        for fig in sweep_figures(frame, params, title):
            pdf.savefig(fig)
            fig.clf()
    if len(params) == 1:
        import matplotlib.pyplot as plt

        fig = sweep_figures(frame, params, title)[0]
        fig.savefig(out / f"{stem}.png", dpi=120)
        plt.close(fig)
        paths.append(out / f"{stem}.png")
    return paths

