"""``sim ladder``: every pairing of a game's bots, a win-rate matrix and a rating per bot.

Where the roles are seats (every role offers the same bots), each ordered pair (A, F) is played
with one A among F's, the A seat rotated through every seat in play, so seat advantage cancels.
Where the roles differ (e.g. frogman against artillery), every combination of one bot per role is
played. Ratings come from a Luce (Bradley-Terry for k players) model of who wins:
P(participant p wins) = exp(θ_bot + h_seat) / Σ exp(θ + h) over the table, fitted by maximum
likelihood (seat terms absorb seat advantage), and shown on the Elo scale (400 / ln 10 per unit).

Skill versus luck follows Duersch, Lambrecht & Oechssler (2020): the spread of the bots' Elo
ratings measures how much skill matters; it is compared with the spread that pure chance produces
at the same game counts (a parametric bootstrap in which every bot is the same).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

from sim.core.game import GameSpec
from sim.core.runner import simulate
from sim.core.scenario import Scenario
from sim.workflow.common import active_roles, is_seated, resolve_game, scenario_of

ELO = 400 / math.log(10)
BOOTSTRAP = 200


@dataclass
class Matchup:
    """One run: the bot in each role in play, games played, wins per role (a shared win counts for each)."""

    bots: dict[str, str]
    n: int
    wins: dict[str, int]


@dataclass
class Ladder:
    spec: GameSpec
    scenario: Scenario
    n_games: int  # per matchup
    seed: int
    seated: bool
    matchups: list[Matchup]
    labels: list[str]  # rated entities: bot names (seated) or "role:bot"
    elo: np.ndarray
    elo_lo: np.ndarray
    elo_hi: np.ndarray
    chance_spreads: dict[str, float]  # per group: 95th percentile of (max - min) Elo when all bots are alike

    @property
    def groups(self) -> dict[str, list[int]]:
        """Bots that compete for the same place: all bots when seated, else the bots of each role."""
        return _groups(self.labels, self.seated)

    def spreads(self) -> dict[str, tuple[str, str, float]]:
        """Per group: (strongest, weakest, Elo gap)."""
        out = {}
        for group, idx in self.groups.items():
            top = max(idx, key=lambda i: self.elo[i])
            low = min(idx, key=lambda i: self.elo[i])
            out[group] = (self.labels[top], self.labels[low], float(self.elo[top] - self.elo[low]))
        return out

    def skill_text(self) -> list[str]:
        """One line per group: strongest minus weakest, its head-to-head meaning, and chance alone."""
        lines = []
        for group, (top, low, gap) in self.spreads().items():
            meaning = (f"expected head-to-head score {100 * expected_score(gap):.1f}%" if self.seated
                       else f"win odds x{10 ** (gap / 400):.1f} against the same opponent")
            top, low = (top, low) if self.seated else (top.split(":", 1)[1], low.split(":", 1)[1])
            lines.append(f"{group}: {top} - {low} = {gap:.0f} Elo ({meaning}); chance alone spreads "
                         f"<= {self.chance_spreads[group]:.0f} Elo")
        return lines

    def plain_text(self) -> list[str]:
        """``skill_text`` in plain words: how much the better bot wins, and whether luck could explain it."""
        lines = []
        for group, (top, low, gap) in self.spreads().items():
            if self.seated:
                meaning = f"scores {100 * expected_score(gap):.0f} % head to head against the weakest ({low})"
            else:
                top, low = top.split(":", 1)[1], low.split(":", 1)[1]
                meaning = (f"has {10 ** (gap / 400):,.0f} times the odds of winning of the weakest ({low}) "
                           "against the same opponents")
            luck = ("far more than luck alone could make" if gap > 2 * self.chance_spreads[group]
                    else "more than luck alone could make" if gap > self.chance_spreads[group]
                    else "no more than luck alone could make")
            lines.append(f"Skill ({group}): the best bot ({top}) {meaning}: {luck}.")
        return lines

    def matrix(self) -> pl.DataFrame:
        """Seated: win rate of one row bot among column bots. Otherwise: win rate of each role's bot per combination."""
        rows = []
        if self.seated:
            for a, f in itertools.permutations(self.spec.bots[self.spec.roles[0]], 2):
                games = [m for m in self.matchups if (a, f) in _lone(m)]
                wins = sum(m.wins[r] for m in games for r, b in m.bots.items() if b == a)
                n = sum(m.n for m in games)
                rows.append({"bot": a, "against": f, "wins": wins, "n": n, "rate": wins / n})
        else:
            for m in self.matchups:
                for role, bot in m.bots.items():
                    rows.append({"bot": f"{role}:{bot}", "against": _others(m, role), "wins": m.wins[role],
                                 "n": m.n, "rate": m.wins[role] / m.n})
        return pl.DataFrame(rows)


def _lone(m: Matchup) -> list[tuple[str, str]]:
    """(X, Y) for each bot X seated once against only Y's (both ways round when heads-up)."""
    names = list(m.bots.values())
    distinct = set(names)
    if len(distinct) != 2:
        return []
    return [(x, y) for x, y in itertools.permutations(distinct, 2) if names.count(x) == 1]


def _others(m: Matchup, role: str) -> str:
    return ", ".join(f"{r}:{b}" for r, b in m.bots.items() if r != role)


def plan(spec: GameSpec, roles: list[str]) -> list[dict[str, str]]:
    """The bot of every role in play, for each matchup of the ladder."""
    if is_seated(spec):
        bots = spec.bots[roles[0]]
        if len(roles) == 2:  # heads-up: A against F in both seats
            return [{roles[0]: a, roles[1]: f} for a, f in itertools.permutations(bots, 2)]
        return [{r: (a if r == focal else f) for r in roles}
                for a, f in itertools.permutations(bots, 2) for focal in roles]
    return [dict(zip(roles, combo, strict=True)) for combo in itertools.product(*(spec.bots[r] for r in roles))]


def _design(matchups: list[Matchup], seated: bool) -> tuple[list[str], list[str], list]:
    labels, seats, tables = [], [], []
    for m in matchups:
        table = []
        for role, bot in m.bots.items():
            label = bot if seated else f"{role}:{bot}"
            if label not in labels:
                labels.append(label)
            if seated and role not in seats:
                seats.append(role)
            table.append((labels.index(label), seats.index(role) if seated else -1))
        tables.append(table)
    return labels, seats, tables


def fit_luce(tables: list, counts: list[np.ndarray], n_labels: int, n_seats: int) -> np.ndarray:
    """Maximum-likelihood strengths θ (centred) of the Luce winner model with seat terms.

    Every participant of every table is one entry of flat arrays (the tables one after another), so
    the likelihood and its gradient are a few array operations per step, not a loop over tables (the
    ladder's bootstrap fits it hundreds of times)."""
    idx = np.array([label for table in tables for label, _ in table])
    seat = np.array([s for table in tables for _, s in table])
    starts = np.cumsum([0] + [len(table) for table in tables[:-1]])
    wins = np.concatenate(counts).astype(float)
    totals = np.add.reduceat(wins, starts)
    per_entry = np.repeat(np.arange(len(tables)), [len(table) for table in tables])

    def nll(params: np.ndarray) -> tuple[float, np.ndarray]:
        theta, h = params[:n_labels], params[n_labels:]
        eta = theta[idx] + (h[seat] if n_seats else 0.0)
        top = np.maximum.reduceat(eta, starts)
        lse = top + np.log(np.add.reduceat(np.exp(eta - top[per_entry]), starts))
        g = wins - totals[per_entry] * np.exp(eta - lse[per_entry])
        grad = -np.bincount(idx, weights=g, minlength=n_labels)
        if n_seats:
            grad = np.concatenate([grad, -np.bincount(seat, weights=g, minlength=n_seats)])
        ridge = 1e-6
        value = -float(wins @ eta - totals @ lse)
        return value + ridge * float(params @ params), grad + 2 * ridge * params

    res = minimize(nll, np.zeros(n_labels + n_seats), jac=True, method="L-BFGS-B")
    theta = res.x[:n_labels]
    return theta - theta.mean()


def ladder(game: str | GameSpec, scenario: str | Path | Scenario = "base", n_games: int = 10_000,
           seed: int = 0, jobs: int = 1, bootstrap: int = BOOTSTRAP) -> Ladder:
    spec = resolve_game(game)
    scen = scenario_of(spec, scenario)
    roles = active_roles(spec, scen.rules)
    seated = is_seated(spec)
    matchups = []
    for bots in plan(spec, roles):
        result = simulate(spec, scen, n_games, seed, jobs, bots, progress=False)
        wins = {r: int(result.summary.sums.get(f"win_{r}", 0)) for r in roles}
        matchups.append(Matchup(bots, result.n_games, wins))
    labels, seats, tables = _design(matchups, seated)
    counts = [np.array([m.wins[r] for r in m.bots], dtype=float) for m in matchups]
    # Hundreds of fits of a few parameters each: BLAS threads only spin and wait. With the cores
    # busy they made the Wonderful Island report's 401 fits take 20 s instead of half a second.
    with threadpool_limits(limits=1, user_api="blas"):
        theta = fit_luce(tables, counts, len(labels), len(seats))

        rng = np.random.default_rng(seed)
        observed = [c / m.n for c, m in zip(counts, matchups, strict=True)]
        boots = np.array([fit_luce(tables, [rng.binomial(m.n, p).astype(float) for m, p in
                                            zip(matchups, observed, strict=True)], len(labels), len(seats))
                          for _ in range(bootstrap)])
        null_p = _null_rates(matchups, observed, seated)
        groups = _groups(labels, seated)
        spreads: dict[str, list[float]] = {g: [] for g in groups}
        for _ in range(bootstrap):
            drawn = [rng.binomial(m.n, p).astype(float) for m, p in zip(matchups, null_p, strict=True)]
            null = fit_luce(tables, drawn, len(labels), len(seats))
            for group, idx in groups.items():
                spreads[group].append(ELO * float(null[idx].max() - null[idx].min()))
        lo, hi = np.percentile(boots, [2.5, 97.5], axis=0) if bootstrap else (theta, theta)
        chance = {g: float(np.percentile(v, 95)) if v else math.nan for g, v in spreads.items()}
        return Ladder(spec, scen, n_games, seed, seated, matchups, labels, ELO * theta, ELO * lo, ELO * hi, chance)


def _groups(labels: list[str], seated: bool) -> dict[str, list[int]]:
    if seated:
        return {"bots": list(range(len(labels)))}
    groups: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(label.split(":", 1)[0], []).append(i)
    return groups


def _null_rates(matchups: list[Matchup], observed: list[np.ndarray], seated: bool) -> list[np.ndarray]:
    """Win rates if every bot were alike: each seat (or role) keeps its average rate over the ladder."""
    pooled: dict[str, list[float]] = {}
    for m, p in zip(matchups, observed, strict=True):
        for role, rate in zip(m.bots, p, strict=True):
            pooled.setdefault(role, []).append(rate)
    mean = {role: float(np.mean(v)) for role, v in pooled.items()}
    return [np.array([mean[r] for r in m.bots]) for m in matchups]


def expected_score(elo_gap: float) -> float:
    """Elo's expected head-to-head score of a player rated ``elo_gap`` above another."""
    return 1 / (1 + 10 ** (-elo_gap / 400))


def ladder_figures(lad: Ladder, share: float | None = None):
    """Skill versus luck (Elo with 95 % bootstrap intervals against the pure-chance spread) and the matrix,
    its colours centred on ``share``: the equal share of a win the scoring implies (shared wins counted;
    default one over the number of seats or 50 % for two roles)."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    from sim.core.pages import use_fonts

    use_fonts()

    order = np.argsort(lad.elo)
    fig, ax = plt.subplots(figsize=(8.5, max(3.0, 0.5 * len(order) + 2)))
    y = np.arange(len(order))
    ax.barh(y, lad.elo[order], color="tab:green", alpha=0.8, label="Elo rating (mean 0)")
    ax.errorbar(lad.elo[order], y, xerr=[lad.elo[order] - lad.elo_lo[order], lad.elo_hi[order] - lad.elo[order]],
                fmt="none", ecolor="black", capsize=3, label="95 % bootstrap interval")
    half = max(lad.chance_spreads.values()) / 2
    ax.axvspan(-half, half, color="grey", alpha=0.25,
               label=f"spread from chance alone (95 %: {2 * half:.0f} Elo)")
    ax.set_yticks(y, [lad.labels[i] for i in order])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("rating (Elo points; 400 = 10:1 odds head to head)")
    ax.set_title(f"{lad.spec.title}: skill versus luck\n" + "\n".join(lad.skill_text()), fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    figs = [fig]

    matrix = lad.matrix()
    if lad.seated:
        bots = list(lad.spec.bots[lad.spec.roles[0]])
        grid = np.full((len(bots), len(bots)), np.nan)
        for r in matrix.iter_rows(named=True):
            grid[bots.index(r["bot"]), bots.index(r["against"])] = 100 * r["rate"]
        k = len(active_roles(lad.spec, lad.scenario.rules))
        centre = 100 * (share if share is not None else 1 / k)
        fig2, ax2 = plt.subplots(figsize=(7, 5.5))
        image = ax2.imshow(grid, cmap="RdYlGn", norm=TwoSlopeNorm(centre, 0, 100))
        for i in range(len(bots)):
            for j in range(len(bots)):
                if not math.isnan(grid[i, j]):
                    ax2.text(j, i, f"{grid[i, j]:.1f}%", ha="center", va="center", fontsize=8)
        ax2.set_xticks(range(len(bots)), bots, rotation=30)
        ax2.set_yticks(range(len(bots)), bots)
        ax2.set_xlabel("bot in every other seat")
        ax2.set_ylabel("bot in one seat (rotated through all seats)")
        ax2.set_title(f"Win rate of one row bot against {k - 1} column bot(s) "
                      f"(colours centred on the equal share {centre:.1f} %; {lad.n_games:,} games per seat rotation)", fontsize=9)
        fig2.colorbar(image, ax=ax2, label="win rate of the row bot (%)")
        fig2.tight_layout()
        figs.append(fig2)
    elif len(lad.groups) == 2:
        figs.append(_two_role_matrix(lad, 100 * (share if share is not None else 0.5)))
    return figs


def _two_role_matrix(lad: Ladder, centre: float):
    """Win rate of the first role for every combination of the two roles' bots, colours centred on ``centre`` %."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    first, second = lad.groups
    rows_bots = [lad.labels[i].split(":", 1)[1] for i in lad.groups[first]]
    cols_bots = [lad.labels[i].split(":", 1)[1] for i in lad.groups[second]]
    grid = np.full((len(rows_bots), len(cols_bots)), np.nan)
    for m in lad.matchups:
        grid[rows_bots.index(m.bots[first]), cols_bots.index(m.bots[second])] = 100 * m.wins[first] / m.n
    fig, ax = plt.subplots(figsize=(7, 5.5))
    image = ax.imshow(grid, cmap="RdYlGn", norm=TwoSlopeNorm(centre, 0, 100))
    for i in range(len(rows_bots)):
        for j in range(len(cols_bots)):
            ax.text(j, i, f"{grid[i, j]:.1f}%", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(cols_bots)), cols_bots)
    ax.set_yticks(range(len(rows_bots)), rows_bots)
    ax.set_xlabel(f"{second} bot")
    ax.set_ylabel(f"{first} bot")
    ax.set_title(f"{lad.spec.title}: {first} win rate by bots ({lad.n_games:,} games per cell)", fontsize=9)
    fig.colorbar(image, ax=ax, label=f"{first} win rate (%)")
    fig.tight_layout()
    return fig


def print_ladder(lad: Ladder) -> None:
    from sim.core import stats
    from sim.core.display import console, print_frame

    console.print(f"[bold]{lad.spec.title}[/bold] · skill ladder · {len(lad.matchups)} matchups × "
                  f"{lad.n_games:,} games · seed {lad.seed}")
    frame = lad.matrix()
    est = [stats.rate(w, n) for w, n in zip(frame["wins"], frame["n"], strict=True)]
    print_frame(frame.select("bot", "against", "n").with_columns(
        value=pl.Series([e.value for e in est]), lo=pl.Series([e.lo for e in est]),
        hi=pl.Series([e.hi for e in est])), "win-rate matrix")
    for i in np.argsort(-lad.elo):
        console.print(f"  {lad.labels[i]:>24}  Elo {lad.elo[i]:+7.1f}  [{lad.elo_lo[i]:+7.1f}, {lad.elo_hi[i]:+7.1f}]")
    for line in lad.skill_text():
        console.print(line)
