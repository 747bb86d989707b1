"""Helpers shared by the workflow tools: resolving games and scenarios, headline metrics, numeric
rule fields with their bounds and steps, and playing a range of game indices in parallel."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import annotated_types as at
import numpy as np
from pydantic import BaseModel

from sim.core.errors import UserError
from sim.core.game import GameSpec, Metric
from sim.core.paired import DEFAULT_CHUNK
from sim.core.registry import get_game
from sim.core.runner import RunSummary, _iter_parallel, chunk_plan, resolve_scenario
from sim.core.scenario import Scenario


def toolkit_version() -> str:
    """The toolkit's version, as ``sim.__version__`` reads it from the installed package metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("island-balance-lab")
    except PackageNotFoundError:
        return "0.0.0"


def resolve_game(game: str | GameSpec) -> GameSpec:
    return get_game(game) if isinstance(game, str) else game


def scenario_of(spec: GameSpec, scenario: str | Path | Scenario, sets: tuple[str, ...] | list[str] = ()) -> Scenario:
    return resolve_scenario(spec, scenario, tuple(sets), None)


def headline_metrics(spec: GameSpec, rules: BaseModel) -> list[Metric]:
    return [m for m in spec.metrics(rules) if m.headline]


def win_metrics(spec: GameSpec, rules: BaseModel) -> list[Metric]:
    """The per-role win rates ``win_<role>`` (headline rates by convention)."""
    return [m for m in headline_metrics(spec, rules) if m.kind == "rate" and m.name.startswith("win_")]


def find_metric(spec: GameSpec, rules: BaseModel, name: str) -> Metric:
    metrics = spec.metrics(rules)
    for metric in metrics:
        if metric.name == name:
            return metric
    raise UserError(f"metric {name!r}: expected one of {', '.join(m.name for m in metrics)}")


def default_metric(spec: GameSpec, rules: BaseModel) -> Metric:
    """The headline win rate the tornado and the tuner use unless told: the first role's."""
    wins = win_metrics(spec, rules) or headline_metrics(spec, rules)
    if not wins:
        raise UserError(f"{spec.name} declares no headline metric")
    return wins[0]


def active_roles(spec: GameSpec, rules: BaseModel) -> list[str]:
    """Roles in play: where roles are seats (every role has the same bots), the first ``players``."""
    if is_seated(spec) and hasattr(rules, "players"):
        return list(spec.roles[: int(rules.players)])
    return list(spec.roles)


def is_seated(spec: GameSpec) -> bool:
    """Roles are seats when every role offers the same bots (e.g. Ocracoke's seats 0..3)."""
    first = tuple(spec.bots[spec.roles[0]])
    return all(tuple(spec.bots[r]) == first for r in spec.roles)


@dataclass(frozen=True)
class NumericField:
    """A numeric rule parameter with its bounds and the step the sensitivity analysis moves it by."""

    name: str
    is_int: bool
    lo: float
    hi: float
    step: float


def numeric_field(model: type[BaseModel], name: str) -> NumericField:
    if name not in model.model_fields:
        raise UserError(f"parameter {name!r}: expected a rule parameter "
                        f"({', '.join(model.model_fields)})")
    info = model.model_fields[name]
    annotation = info.annotation
    if annotation not in (int, float):
        kind = getattr(annotation, "__name__", None) or str(annotation)
        raise UserError(f"parameter {name!r}: expected a numeric rule parameter (int or float); it is a {kind}")
    lo, hi = -math.inf, math.inf
    for meta in info.metadata:
        if isinstance(meta, at.Ge):
            lo = float(meta.ge)
        elif isinstance(meta, at.Gt):
            lo = float(meta.gt) + (1 if annotation is int else 0)
        elif isinstance(meta, at.Le):
            hi = float(meta.le)
        elif isinstance(meta, at.Lt):
            hi = float(meta.lt) - (1 if annotation is int else 0)
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    step = float(extra.get("step", 1))
    return NumericField(name, annotation is int, lo, hi, step)


def numeric_fields(model: type[BaseModel]) -> list[NumericField]:
    """Every int or float rule field (bools, lists, tables and text are not numeric parameters)."""
    return [numeric_field(model, name) for name, info in model.model_fields.items()
            if info.annotation in (int, float)]


def format_value(value: float, is_int: bool) -> str:
    return str(int(round(value))) if is_int else f"{value:g}"


def play_range(spec: GameSpec, rules: BaseModel, policy: np.ndarray, seed: int, start: int, count: int,
               jobs: int = 1, chunk_size: int = DEFAULT_CHUNK) -> RunSummary:
    """Integer summary of games ``start .. start+count-1`` of the run ``seed`` (same streams as simulate)."""
    tasks = [(spec, rules, policy, seed, start + s, c, False, None) for s, c in chunk_plan(count, chunk_size)]
    total = RunSummary()
    for _, summary, _ in _iter_parallel(tasks, max(1, jobs), "loky", None):
        total.add(summary)
    return total
