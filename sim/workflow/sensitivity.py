"""Sensitivity of a headline win rate to each numeric rule parameter and each list or table of numbers: a tornado.

Every int or float rule field is moved one step down and one step up from the base scenario (the
step is the field's json_schema_extra "step", 1 by default; a move past the field's pydantic bounds
is skipped). A list or table of numbers (an HP table by player count, dial ranges, camp cards: the
guessed values) is moved as a whole: every whole-number entry one down and one up, or every other
number scaled by 0.9 and 1.1; a move the rules reject is skipped. A list the rules let move only entry by
entry (Ocracoke's dial ranges start at 1 and rise) has one row per entry, moved one step alone; a table
row whose entries must keep their sum (The Wonderful Island's camp cards for the player count in play) has
one row per pair of entries, one moved up and the other down. All the moved variants are played on the
same game streams as the base in a single
paired run (common random numbers), so each bar is a paired difference with its 95 % interval.
The player count is not a rule step: the report shows player counts separately.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sim.core import stats
from sim.core.errors import UserError
from sim.core.game import GameSpec, Metric
from sim.core.paired import paired_runs
from sim.core.scenario import Scenario, row_in_play
from sim.workflow.common import (
    default_metric,
    find_metric,
    format_value,
    numeric_fields,
    resolve_game,
    scenario_of,
)

SKIPPED = ("players",)


@dataclass
class Move:
    value: float | list
    difference: stats.Difference
    label: str  # the moved value as shown: "8", or "every entry +1" for a list


def _shift(value, direction: int):
    """Every number of a (nested) list one step: whole numbers by 1, others by 10 %."""
    if isinstance(value, list):
        return [_shift(v, direction) for v in value]
    if isinstance(value, int):
        return value + direction
    return round(value * (1 + 0.1 * direction), 9)


def _numbers_only(value) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_numbers_only(v) for v in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


def _whole(value) -> bool:
    return all(_whole(v) for v in value) if isinstance(value, list) else isinstance(value, int)


@dataclass
class Sensitivity:
    param: str
    is_int: bool
    base_value: float
    down: Move | None
    up: Move | None
    what: str = ""  # how a part of a list moved, e.g. "camp_cards at 6 players [2, 2, 2]: blue vs politician"

    def describe(self) -> str:
        """The assumption and its base value, e.g. "frogman_hp = 7", or a list's name and how it moved."""
        if self.what:
            return self.what
        if isinstance(self.base_value, list):
            return f"{self.param} (every entry {'±1' if self.is_int else '±10 %'})"
        return f"{self.param} = {format_value(self.base_value, self.is_int)}"

    @property
    def swing(self) -> float:
        return max(abs(m.difference.diff) for m in (self.down, self.up) if m is not None)


@dataclass
class EntryMove:
    """One step of a part of a list: the row it belongs to, its direction, the whole new list, its label."""

    row: str
    what: str
    base: float | list
    direction: int
    value: list
    label: str


def _replaced(value: list, path: tuple[int, ...], new) -> list:
    out = list(value)
    out[path[0]] = new if len(path) == 1 else _replaced(value[path[0]], path[1:], new)
    return out


def _at(value, path: tuple[int, ...]):
    return value if not path else _at(value[path[0]], path[1:])


def _rows_in_play(name: str, value: list, rules) -> list[tuple[tuple[int, ...], str]]:
    """The parts of a list that are moved entry by entry: the row of the player count in play when the field
    is a table by player count (json_schema_extra "per_player_count"), else the list itself."""
    index = row_in_play(rules, name)
    if index is not None and isinstance(value[0], list):
        return [((index,), f"{name} at {rules.players} players")]
    return [((), name)]


def entry_moves(model, name: str, value: list, rules, valid) -> list[EntryMove]:
    """Each entry of the list (or of the row in play) one step alone; where no single entry can move
    (``valid`` rejects every one, e.g. a row that must keep its sum), each pair of entries, one up, one down."""
    extra = model.model_fields[name].json_schema_extra
    names = extra.get("entries") if isinstance(extra, dict) else None
    moves: list[EntryMove] = []
    for path, where in _rows_in_play(name, value, rules):
        row = _at(value, path)
        single = []
        for i, entry in enumerate(row):
            if isinstance(entry, list):
                continue
            for direction in (-1, 1):
                new = _replaced(value, (*path, i), _shift(entry, direction))
                if valid(new):
                    single.append(EntryMove(f"{where}[{i}]", f"{where}[{i}] = {entry}", entry, direction, new,
                                            format_value(_shift(entry, direction), isinstance(entry, int))))
        if single or not all(isinstance(e, int) for e in row):
            moves += single
            continue
        label = (lambda i: names[i]) if names and len(names) == len(row) else (lambda i: f"[{i}]")
        for i in range(len(row)):
            for j in range(i + 1, len(row)):
                for direction in (-1, 1):
                    moved = list(row)
                    moved[i] += direction
                    moved[j] -= direction
                    new = _replaced(value, path, moved) if path else moved
                    if valid(new):
                        moves.append(EntryMove(f"{where}: {label(i)} vs {label(j)}",
                                               f"{where}: {label(i)} vs {label(j)} (now {row})", row, direction, new,
                                               f"{label(i)} {direction:+d}, {label(j)} {-direction:+d}"))
    return moves


@dataclass
class Tornado:
    spec: GameSpec
    scenario: Scenario
    metric: Metric
    n_games: int
    seed: int
    rows: list[Sensitivity]  # largest swing first
    skipped: list[str]  # parameters that could not move (at both bounds, or a combination the rules reject)


def sensitivity(game: str | GameSpec, scenario: str | Path | Scenario = "base", metric: str | None = None,
                n_games: int = 20_000, seed: int = 0, jobs: int = 1,
                policies: dict[str, str] | None = None) -> Tornado:
    spec = resolve_game(game)
    scen = scenario_of(spec, scenario)
    target = find_metric(spec, scen.rules, metric) if metric else default_metric(spec, scen.rules)
    base_values = scen.rules.model_dump()
    moves: list[tuple[str, int, float]] = []  # (param, direction, value)
    arms = []
    skipped: list[str] = []
    fields = [f for f in numeric_fields(spec.rules_model) if f.name not in SKIPPED]
    for fld in fields:
        moved = False
        for direction in (-1, 1):
            value = base_values[fld.name] + direction * fld.step
            if not fld.lo - 1e-12 <= value <= fld.hi + 1e-12:
                continue
            try:
                rules = scenario_of(spec, scen, [f"{fld.name}={format_value(value, fld.is_int)}"]).rules
            except UserError:
                continue
            moves.append((fld.name, direction, value))
            arms.append((rules, spec.policy_array(rules, policies)))
            moved = True
        if not moved:
            skipped.append(fld.name)
    numeric = {f.name for f in fields} | set(SKIPPED)
    lists = [name for name, value in base_values.items() if name not in numeric and _numbers_only(value)]
    labels: dict[tuple[str, int], str] = {}
    parts: dict[str, EntryMove] = {}  # a part of a list moved alone: its row's name -> how

    def rules_with(name: str, value):
        try:
            return scenario_of(spec, scen, [f"{name}={json.dumps(value)}"]).rules
        except UserError:
            return None

    for name in lists:
        moved = False
        for direction in (-1, 1):
            value = _shift(base_values[name], direction)
            rules = rules_with(name, value)
            if rules is None:
                continue
            moves.append((name, direction, value))
            arms.append((rules, spec.policy_array(rules, policies)))
            labels[name, direction] = (f"every entry {direction:+d}" if _whole(base_values[name])
                                       else f"every entry x{1 + 0.1 * direction:g}")
            moved = True
        if moved or not isinstance(base_values[name], list):
            if not moved:
                skipped.append(name)
            continue
        for move in entry_moves(spec.rules_model, name, base_values[name], scen.rules,
                                lambda v, n=name: rules_with(n, v) is not None):
            rules = rules_with(name, move.value)
            moves.append((move.row, move.direction, move.value))
            arms.append((rules, spec.policy_array(rules, policies)))
            labels[move.row, move.direction] = move.label
            parts[move.row] = move
            moved = True
        if not moved:
            skipped.append(name)
    results = paired_runs(spec, (scen.rules, spec.policy_array(scen.rules, policies)), arms, [target],
                          n_games, seed, jobs) if arms else []
    rows: dict[str, Sensitivity] = {}
    is_int = {f.name: f.is_int for f in fields} | {name: _whole(base_values[name]) for name in lists}
    for (param, direction, value), sums in zip(moves, results, strict=True):
        if param in parts:
            part = parts[param]
            row = rows.setdefault(param, Sensitivity(param, _whole(part.base), part.base, None, None, part.what))
        else:
            row = rows.setdefault(param, Sensitivity(param, is_int[param], base_values[param], None, None))
        label = labels.get((param, direction)) or format_value(value, is_int[param])
        move = Move(value, sums.difference(target)[0], label)
        if direction < 0:
            row.down = move
        else:
            row.up = move
    ordered = sorted(rows.values(), key=lambda r: r.swing, reverse=True)
    return Tornado(spec, scen, target, n_games, seed, ordered, skipped)


def tornado_figure(tornado: Tornado):
    """Bars of the change in the metric for one step down and one step up, with 95 % error bars."""
    import matplotlib.pyplot as plt

    from sim.core.pages import use_fonts, wrap

    use_fonts()

    rows = tornado.rows
    scale, unit = (100, "percentage points") if tornado.metric.kind == "rate" else (1, "units")
    fig, ax = plt.subplots(figsize=(8.5, max(3.0, 0.38 * len(rows) + 1.8)))
    ys = range(len(rows))[::-1]
    labelled: set[str] = set()
    for y, row in zip(ys, rows, strict=True):
        # the two moves of a rule side by side (down below, up above), each labelled past its error bar
        for move, colour, label, dy in ((row.down, "tab:blue", "one step down", -0.2),
                                        (row.up, "tab:orange", "one step up", 0.2)):
            if move is None:
                continue
            d = move.difference
            ax.barh(y + dy, scale * d.diff, height=0.4, color=colour, alpha=0.8,
                    label=None if label in labelled else label)
            labelled.add(label)
            ax.errorbar(scale * d.diff, y + dy, xerr=[[scale * (d.diff - d.lo)], [scale * (d.hi - d.diff)]],
                        fmt="none", ecolor="black", capsize=2, linewidth=0.8)
            end = scale * (d.hi if d.diff >= 0 else d.lo)
            ax.annotate(move.label.replace("every entry ", "each "), (end, y + dy), fontsize=6, va="center",
                        xytext=(3 if d.diff >= 0 else -3, 0), textcoords="offset points",
                        ha="left" if d.diff >= 0 else "right")
    ax.set_yticks(list(ys), ["\n".join(wrap(r.describe(), 34)) for r in rows], fontsize=7)
    ax.margins(x=0.22)  # room for the labels past the longest bars
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"change in {tornado.metric.label} ({unit}), 95 % paired interval")
    ax.set_title(f"{tornado.spec.title}: sensitivity of {tornado.metric.label} to one rule step\n"
                 f"({tornado.n_games:,} paired games per move, seed {tornado.seed}; labels: moved value)")
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles, labels, fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def print_tornado(tornado: Tornado) -> None:
    from sim.core.display import console

    t = tornado
    scale, unit = (100, " pt") if t.metric.kind == "rate" else (1, "")
    console.print(f"[bold]{t.spec.title}[/bold] · sensitivity of {t.metric.label} · {t.n_games:,} paired games "
                  f"per move · seed {t.seed}")
    for row in t.rows:
        parts = []
        for move in (row.down, row.up):
            if move is not None:
                d = move.difference
                parts.append(f"{move.label}: {scale * d.diff:+.2f}{unit} "
                             f"[{scale * d.lo:+.2f}, {scale * d.hi:+.2f}]")
        console.print(f"  {row.describe()}  →  " + " · ".join(parts))
    if t.skipped:
        console.print(f"  not moved (no valid step): {', '.join(t.skipped)}")
