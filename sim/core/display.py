"""Printing results: every rate with its interval and n, in rich tables on a terminal."""

from __future__ import annotations

import math

import polars as pl
from rich.console import Console
from rich.table import Table

console = Console(highlight=False)


def _cell(value: object) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:,.4f}" if abs(value) < 1000 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def estimate_text(kind: str, value: float, lo: float, hi: float) -> str:
    if kind == "rate":
        return f"{100 * value:6.2f}%  [{100 * lo:6.2f}, {100 * hi:6.2f}]"
    return f"{value:8.3f}  [{lo:8.3f}, {hi:8.3f}]"


def print_metrics(frame: pl.DataFrame, title: str) -> None:
    """Metric rows (label, kind, value, lo, hi, n) as 'value [95 % interval] n'."""
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    table.add_column("estimate  [95% interval]", justify="right")
    table.add_column("n", justify="right")
    for row in frame.iter_rows(named=True):
        table.add_row(row["label"], estimate_text(row["kind"], row["value"], row["lo"], row["hi"]),
                      f"{row['n']:,}")
    console.print(table)


def print_frame(frame: pl.DataFrame, title: str) -> None:
    """Any table; columns named value/lo/hi are shown together as an estimate with its interval."""
    table = Table(title=title, title_justify="left")
    columns = list(frame.columns)
    merged = {"value", "lo", "hi"} <= set(columns)
    shown = [c for c in columns if not (merged and c in ("lo", "hi"))]
    for col in shown:
        table.add_column("estimate  [95% interval]" if merged and col == "value" else col,
                         justify="left" if frame.schema[col] == pl.String else "right")
    is_rate = merged and frame.height > 0 and frame["hi"].max() <= 1.0 and frame["lo"].min() >= 0.0
    for row in frame.iter_rows(named=True):
        cells = []
        for col in shown:
            if merged and col == "value":
                cells.append(estimate_text("rate" if is_rate else "mean", row["value"], row["lo"], row["hi"]))
            else:
                cells.append(_cell(row[col]))
        table.add_row(*cells)
    console.print(table)


def example(*commands: str) -> str:
    """A command's --help epilog: examples to copy, and where the rule keys and metric names are listed
    (here, below the games and the workflow, so a game's own commands can use it too)."""
    lines = [f"Example: {c}" for c in commands]
    return "\n\n".join([*lines, "Rule keys for --set, with their values and sources: `sim rules GAME`. Metric names "
                          "(for --metric, --target; win_<role> is each role's win rate): `sim games`."])
