"""The contract every game fulfils, so the runner, CLI and balance workflow treat games alike.

A game is a folder ``sim/games/<name>/`` with the same files in each:

``rules.py``      the pydantic model of every tunable parameter (default from the rule text, with
                  the rule ID; assumed values have no default and come from ``scenarios/``)
``engine.py``     the batch simulator: numba-compiled per-game rules looped over a batch
``policies.py``   the bots, compiled functions from what a seat may see to its choice
``analysis.py``   per-game rows to metrics, tallies, tables and plots
``reference.py``  one game at a time in plain Python: the cross-check and the speed baseline
``__init__.py``   exposes ``GAME = GameSpec(...)``; the registry finds it there

Everything a chunk returns is integer-valued, so merging chunk summaries is exact addition and
a run is bit-identical for any chunking, job count and backend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel

Columns = dict[str, np.ndarray]


@dataclass(frozen=True)
class Metric:
    """A per-game quantity the runner aggregates with an interval.

    ``kind="rate"``: a 0/1 indicator per game (reported as a proportion with a Wilson interval).
    ``kind="mean"``: an integer per game (reported as a mean with a t interval).
    ``headline`` metrics are the ones compare, drift and the report put first.
    """

    name: str
    label: str
    kind: str = "rate"
    headline: bool = False


@dataclass
class Chunk:
    """What one batch call returns: one row per game, plus named event tables (e.g. declarations)."""

    games: Columns
    events: dict[str, Columns] = field(default_factory=dict)

    def __len__(self) -> int:
        first = next(iter(self.games.values()), np.empty(0))
        return int(first.shape[0])


@dataclass
class Trace:
    """One game told as readable lines, plus its per-game row (to check it matches the batch)."""

    lines: list[str]
    chunk: Chunk


@dataclass(frozen=True)
class GameSpec:
    """A registered game: what it is, its rules model, its bots, and its engine entry points.

    ``play(rules, policy, seed, start, count) -> Chunk`` plays games ``start .. start+count-1``
    of the run ``seed``; game ``i`` uses ``sim.core.rng.game_stream(seed, i)`` and nothing else.
    ``policy`` is an int array indexed like ``roles``: the bot of each role, as an index into
    ``bots[role]``.
    """

    name: str
    title: str
    rules_model: type[BaseModel]
    player_counts: tuple[int, ...]
    roles: tuple[str, ...]
    bots: Mapping[str, tuple[str, ...]]  # per role, weakest to strongest
    play: Callable[[BaseModel, np.ndarray, int, int, int], Chunk]
    metrics: Callable[[BaseModel], list[Metric]]
    per_game: Callable[[BaseModel, Chunk], Columns]  # metric name -> int64 per game
    tally: Callable[[BaseModel, Chunk], Columns]  # additive counts, merged by +
    tables: Callable[[BaseModel, Any], dict[str, Any]]  # (rules, RunSummary) -> named DataFrames
    trace: Callable[[BaseModel, np.ndarray, int, int], Trace]
    description: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)  # game-specific hooks (plots, maps)

    def policy_array(self, rules: BaseModel, chosen: Mapping[str, str] | None = None) -> np.ndarray:
        """Bot index per role. Unnamed roles get the strongest bot; ``all=BOT`` sets every role."""
        from sim.core.errors import UserError

        chosen = dict(chosen or {})
        everyone = chosen.pop("all", None)
        for role in chosen:
            if role not in self.roles:
                raise UserError(f"--policy {role}=...: {self.name} has no role {role!r}; roles are "
                                + ", ".join(self.roles) + " (or all)")
        policy = np.empty(len(self.roles), dtype=np.int64)
        for i, role in enumerate(self.roles):
            bots = self.bots[role]
            name = chosen.get(role, everyone or bots[-1])
            if name not in bots:
                raise UserError(f"--policy {role}={name}: expected one of {', '.join(bots)}")
            policy[i] = bots.index(name)
        return policy

    def policy_names(self, policy: np.ndarray) -> dict[str, str]:
        return {role: self.bots[role][int(policy[i])] for i, role in enumerate(self.roles)}
