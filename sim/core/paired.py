"""Common random numbers: play a base scenario and its variants on the very same game streams.

Game ``i`` of every arm draws from the stream ``(seed, i)``, so only the rule differs between the
arms and most of the luck cancels in the per-game difference. Each chunk plays the base once and
every variant on the same indices, and is reduced at once to integer paired sums
(n, Σx, Σy, Σx², Σy², Σxy) per metric; memory stays bounded and the result does not depend on the
chunking or the number of jobs.

In sim.core (not sim.workflow) because game analyses use it too (sim.games.ocracoke.analysis).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel

from sim.core import stats
from sim.core.game import GameSpec, Metric
from sim.core.runner import _iter_parallel, chunk_plan

DEFAULT_CHUNK = 1 << 15  # games per chunk of a paired or workflow run


@dataclass
class PairedSums:
    """Integer sums over n paired games: x is the base, y the variant, per metric name."""

    n: int = 0
    sx: dict[str, int] = field(default_factory=dict)
    sy: dict[str, int] = field(default_factory=dict)
    sxx: dict[str, int] = field(default_factory=dict)
    syy: dict[str, int] = field(default_factory=dict)
    sxy: dict[str, int] = field(default_factory=dict)

    def add(self, other: PairedSums) -> None:
        self.n += other.n
        for name in other.sx:
            for mine, theirs in ((self.sx, other.sx), (self.sy, other.sy), (self.sxx, other.sxx),
                                 (self.syy, other.syy), (self.sxy, other.sxy)):
                mine[name] = mine.get(name, 0) + theirs[name]

    @classmethod
    def of(cls, base: dict[str, np.ndarray], variant: dict[str, np.ndarray], names: list[str]) -> PairedSums:
        sums = cls(n=int(next(iter(base.values())).shape[0]))
        for name in names:
            x = np.asarray(base[name], dtype=np.int64)
            y = np.asarray(variant[name], dtype=np.int64)
            sums.sx[name], sums.sy[name] = int(x.sum()), int(y.sum())
            sums.sxx[name], sums.syy[name] = int((x * x).sum()), int((y * y).sum())
            sums.sxy[name] = int((x * y).sum())
        return sums

    def constant(self, name: str) -> bool:
        """Both arms take one value in every game (e.g. an empty seat): nothing to test."""
        return self.sxx[name] * self.n == self.sx[name] ** 2 and self.syy[name] * self.n == self.sy[name] ** 2

    def difference(self, metric: Metric) -> tuple[stats.Difference, float]:
        """Variant minus base with its paired interval, and the width ratio paired / independent."""
        name = metric.name
        return stats.paired_difference(self.n, self.sx[name], self.sy[name], self.sxx[name],
                                       self.syy[name], self.sxy[name], metric.kind)


def _paired_chunk(spec: GameSpec, base: tuple[BaseModel, np.ndarray], variants: list[tuple[BaseModel, np.ndarray]],
                  names: list[str], seed: int, start: int, count: int) -> tuple[int, list[PairedSums]]:
    rules, policy = base
    x = spec.per_game(rules, spec.play(rules, policy, seed, start, count))
    out = []
    for v_rules, v_policy in variants:
        y = spec.per_game(v_rules, spec.play(v_rules, v_policy, seed, start, count))
        out.append(PairedSums.of(x, y, names))
    return start, out


def paired_runs(spec: GameSpec, base: tuple[BaseModel, np.ndarray], variants: list[tuple[BaseModel, np.ndarray]],
                metrics: list[Metric], n_games: int, seed: int, jobs: int = 1,
                chunk_size: int = DEFAULT_CHUNK) -> list[PairedSums]:
    """Paired sums of each variant (rules, policy) against the base over games 0..n_games-1."""
    names = [m.name for m in metrics]
    tasks = [(spec, base, variants, names, seed, start, count) for start, count in chunk_plan(n_games, chunk_size)]
    totals = [PairedSums() for _ in variants]
    for _, sums in _iter_parallel(tasks, max(1, jobs), "loky", None, work=_paired_chunk):
        for total, part in zip(totals, sums, strict=True):
            total.add(part)
    return totals
