"""Is the game fair? The figures a designer asks for first, from one run.

- Each seat's (or role's, or camp's) win rate with its 95 % interval.
- The *equal share*: the win rate every seat would have if the game were even, as the scoring implies
  it. It is the seats' rates added up, divided by their number: where a tie is a win for every tied
  seat (Ocracoke, OC-END-2) the rates add up to more than 100 % and the equal share is above 1/k.
- The *spread*: the best seat's rate less the worst's, with its 95 % interval. With the run's rows the
  two seats' results are paired game by game (``stats.paired_difference``); from totals alone the
  interval assumes the two never win together, which can only widen it (their covariance is at
  least ``-p_best * p_worst``).
- The tie rate (games won by more than one seat) and the rate of games nobody wins, when rows are kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from sim.core import stats
from sim.core.pages import pct_interval
from sim.core.runner import SimResult
from sim.workflow.common import is_seated, win_metrics

EVEN_WITHIN = 0.01  # a spread whose interval lies under 1 point is called even


@dataclass
class Fairness:
    title: str
    players: int | None
    unit: str  # "seat", "role" or "camp"
    names: list[str]
    rates: list[stats.Estimate]
    total: float  # the rates added up (1 + shared wins per game - games nobody wins)
    best: int
    worst: int
    spread: float
    spread_lo: float
    spread_hi: float
    paired: bool  # the spread's interval from the rows (paired), else the conservative bound
    ties: stats.Estimate | None
    nobody: stats.Estimate | None
    n_games: int

    @property
    def equal_share(self) -> float:
        return self.total / len(self.rates)

    @property
    def even(self) -> bool:
        """Even within noise: the spread's interval reaches zero (the best and worst seat may be alike)."""
        return self.spread_lo <= 0

    def spread_text(self) -> str:
        return (f"{100 * self.spread:.1f} points [{100 * max(self.spread_lo, 0):.1f}, "
                f"{100 * self.spread_hi:.1f}]")

    def sentence(self) -> str:
        """The verdict in one or two sentences with intervals, e.g. "At 4 players the seats are not even: ..."."""
        at = f"At {self.players} players" if self.players else "In this game"
        plural = f"{self.unit}s"
        b, w = self.best, self.worst
        first = (f"{at} the {plural} are {'even within noise' if self.even else 'not even'}: "
                 f"{self.names[b]} wins {pct_interval(self.rates[b].value, self.rates[b].lo, self.rates[b].hi)}, "
                 f"{self.names[w]} {pct_interval(self.rates[w].value, self.rates[w].lo, self.rates[w].hi)}; "
                 f"an equal share is {100 * self.equal_share:.1f} %.")
        gap = f"The gap between the best and the worst {self.unit} is {self.spread_text()}"
        shared = ""
        if self.total > 1.0005:
            shared = (f" A tie counts as a win for every tied {self.unit}, so the rates add up to "
                      f"{100 * self.total:.1f} %")
            if self.ties is not None:
                shared += f" ({pct_interval(self.ties.value, self.ties.lo, self.ties.hi)} of games are tied)"
            shared += "."
        elif self.total < 0.9995:
            shared = f" {100 * (1 - self.total):.1f} % of games have no winner among these {plural}."
        return f"{first} {gap}.{shared}"

    def line(self) -> str:
        """The one-line verdict of ``sim run``."""
        p = f"{self.players} players: " if self.players else ""
        return (f"fairness: {p}{self.names[self.best]} - {self.names[self.worst]} = {self.spread_text()}; "
                f"equal share {100 * self.equal_share:.1f} %"
                + (f" (ties counted for every tied {self.unit}: rates add up to {100 * self.total:.1f} %)"
                   if self.total > 1.0005 else "") + (" · even within noise" if self.even else " · not even"))


def unit_of(result: SimResult) -> str:
    spec = result.game
    if is_seated(spec):
        return "seat"
    return "camp" if "camp" in " ".join(m.label for m in win_metrics(spec, result.rules)) else "role"


def name_of(label: str, unit: str) -> str:
    """A win metric's label as the name of who wins: "seat 0 wins (seat 0 starts)" -> "seat 0"."""
    for end in (" wins", " win"):
        if end in label:
            return label.split(end)[0]
    return label


def fairness(result: SimResult) -> Fairness:
    """The fairness figures of one run (its rows, if kept, give the tie rate and a paired spread)."""
    spec, rules = result.game, result.rules
    metrics = win_metrics(spec, rules)
    unit = unit_of(result)
    rates = [result.estimate(m) for m in metrics]
    values = [r.value for r in rates]
    best, worst = int(np.argmax(values)), int(np.argmin(values))
    n = result.n_games
    ties = nobody = None
    if result.rows is not None:
        per_game = spec.per_game(rules, result.rows)
        wins = np.stack([np.asarray(per_game[m.name], dtype=np.float64) for m in metrics])
        winners = wins.sum(axis=0)
        ties = stats.rate(int((winners > 1).sum()), n)
        nobody = stats.rate(int((winners == 0).sum()), n)
        x, y = wins[worst], wins[best]
        d, _ = stats.paired_difference(n, float(x.sum()), float(y.sum()), float((x * x).sum()),
                                       float((y * y).sum()), float((x * y).sum()))
        spread, lo, hi, paired = d.diff, d.lo, d.hi, True
    else:
        pb, pw = values[best], values[worst]
        var = pb * (1 - pb) + pw * (1 - pw) + 2 * pb * pw
        half = float(ndtri(0.5 + stats.CONFIDENCE / 2)) * math.sqrt(var / max(n, 1))
        spread, lo, hi, paired = pb - pw, pb - pw - half, pb - pw + half, False
    players = getattr(rules, "players", None)
    return Fairness(spec.title, players, unit, [name_of(m.label, unit) for m in metrics], rates, float(sum(values)),
                    best, worst, spread, lo, hi, paired, ties, nobody, n)


def draw_fairness(ax, fair: dict[int | None, Fairness]) -> None:
    """Each player count's win rates (95 % intervals) side by side, with its equal share as a dashed line
    over its group: the reference the scoring implies, not 50 %."""
    from matplotlib.ticker import PercentFormatter

    x0 = 0.0
    ticks, labels = [], []
    colours = [f"C{i}" for i in range(10)]
    labelled = set()
    for players, f in fair.items():
        xs = x0 + np.arange(len(f.rates))
        values = np.array([r.value for r in f.rates])
        err = np.clip([[r.value - r.lo for r in f.rates], [r.hi - r.value for r in f.rates]], 0, None)
        for i, x in enumerate(xs):
            ax.bar(x, values[i], 0.8, yerr=err[:, i:i + 1], capsize=2, color=colours[i % 10],
                   label=None if f.names[i] in labelled else f.names[i])
            labelled.add(f.names[i])
        ax.hlines(f.equal_share, xs[0] - 0.45, xs[-1] + 0.45, colors="black", linestyles="--", linewidth=1,
                  label=None if "share" in labelled else "equal share (ties counted)")
        labelled.add("share")
        ticks.append(xs.mean())
        labels.append(f"{players} players" if players else "")
        x0 = xs[-1] + 1.8
    ax.set_xticks(ticks, labels)
    ax.set_ylim(0, None)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    unit = next(iter(fair.values())).unit
    ax.set_ylabel(f"win rate of each {unit} (95 % interval)", fontsize=8)
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))  # below the tick labels
    ax.grid(axis="y", alpha=0.3)
