"""Ocracoke per-game rows to metrics, additive tallies, tables with intervals, and plots.

Every table gives each rate or mean with its 95 % interval and n (sim.core.stats).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core import stats
from sim.core.game import Chunk, Metric
from sim.core.jit import njit
from sim.games.ocracoke.policies import BOTS
from sim.games.ocracoke.rules import MAX_ROUNDS, OcracokeRules, dial_bounds

RULES = ("A", "B", "C", "D", "E")
RULE_LABELS = {"A": "A colour", "B": "B range", "C": "C zero", "D": "D hand colour", "E": "E declarer"}
GOLD_BINS = 12  # gold won by one seat at one declaration: 0..11
FINAL_BINS = 32
HAND_BINS = 64  # hands per game, the last bin holds 63 or more
ROLE_NAMES = ("declarer", "others")
BOT_NAMES = BOTS + ("search",)  # bot index per seat: the scripted bots, then the search bot (policies.SEARCH)


def metrics(rules: OcracokeRules) -> list[Metric]:
    seats = [Metric(f"win_{q}", f"seat {q} wins (seat 0 starts)", "rate", True) for q in range(rules.players)]
    return seats + [
        Metric("hands", "hands per game", "mean"),
        Metric("declared", "voluntary declarations per game", "mean"),
        Metric("forced", "forced declarations per game", "mean"),
        Metric("gold_declarer", "gold won by declarers per game", "mean"),
        Metric("gold_others", "gold won by the other seats per game", "mean"),
        Metric("capped", "games stopped by the safety cap", "rate"),
        Metric("first_declarer_right", "first declaration made of the declarer's own accord and right (rule E)",
               "rate", True),
    ]


def _paid(chunk: Chunk) -> np.ndarray:
    """Gold paid at each declaration by each rule to each seat, as one (rule, seat, declaration) block."""
    ev = chunk.events["declarations"]
    return np.stack([np.stack([ev[f"{r.lower()}_{q}"] for q in range(4)]) for r in RULES])


@njit(cache=True)
def _gold_by_game(index, declarer, paid, n_games):
    """Per game: the gold won by the declarers, and by the other seats, over its declarations
    (``index``: the declaration's game within the chunk)."""
    declarers = np.zeros(n_games, np.int64)
    others = np.zeros(n_games, np.int64)
    for i in range(declarer.shape[0]):
        for q in range(paid.shape[1]):
            won = 0
            for r in range(paid.shape[0]):
                won += paid[r, q, i]
            if q == declarer[i]:
                declarers[index[i]] += won
            else:
                others[index[i]] += won
    return declarers, others


def per_game(rules: OcracokeRules, chunk: Chunk) -> dict[str, np.ndarray]:
    g = chunk.games
    out = {f"win_{q}": g[f"win_{q}"] for q in range(rules.players)}
    for name in ("hands", "declared", "forced", "capped"):
        out[name] = g[name]
    ev = chunk.events["declarations"]
    out["gold_declarer"], out["gold_others"] = _gold_by_game(ev["game"] - g["game"][0], ev["declarer"],
                                                             _paid(chunk), len(chunk))
    out["first_declarer_right"] = _first_declarer_right(rules, chunk)
    return out


def _first_declarer_right(rules: OcracokeRules, chunk: Chunk) -> np.ndarray:
    """Per game, 0 or 1: its first declaration was made of the declarer's own accord with a dial of the
    sum's colour (OC-PAY-A) and range (OC-PAY-B), the test rule E rewards (OC-PAY-E), whatever rule E
    pays."""
    ev = chunk.events["declarations"]
    lo, hi = dial_bounds(rules)
    dials = np.stack([ev[f"dial_{q}"] for q in range(4)]).astype(np.int64)
    dial = dials[ev["declarer"].astype(np.int64), np.arange(len(ev["declarer"]))]
    total = ev["ship_sum"].astype(np.int64)
    right = ((ev["forced"] == 0) & (total != 0) & (dial > 0) & ((lo[dial] > 0) == (total > 0))
             & (lo[dial] <= total) & (total <= hi[dial]))
    games, first = np.unique(ev["game"] - chunk.games["game"][0], return_index=True)  # rows in order of play
    out = np.zeros(len(chunk), np.int64)
    out[games] = right[first]
    return out


@njit(cache=True)
def _tally_declarations(players, declarer, forced, paid, rule_paid, rule_gold, seat_rule_paid, gold_hist,
                        seat_gold, role_n, role_forced):
    """One pass over the declarations for every seat q (role 0 where q declared, else 1); paid[r, q]
    is the gold rule r paid q at each declaration. Adds to the tallies of ``tally``."""
    for i in range(declarer.shape[0]):
        for q in range(players):
            role = 0 if declarer[i] == q else 1
            won = 0
            for r in range(5):
                amount = np.int64(paid[r, q, i])
                rule_paid[role, r] += amount > 0
                rule_gold[role, r] += amount
                seat_rule_paid[q, r] += amount > 0
                won += amount
            capped = min(won, GOLD_BINS - 1)
            gold_hist[role, capped] += 1
            role_n[role] += 1
            seat_gold[q, 0] += 1
            seat_gold[q, 1] += won
            seat_gold[q, 2] += won * won
            if role == 0:
                role_forced[forced[i], capped] += 1


def tally(rules: OcracokeRules, chunk: Chunk) -> dict[str, np.ndarray]:
    """Additive counts: payouts per rule/seat/role, gold histograms, hands, wins by bot."""
    g, ev = chunk.games, chunk.events["declarations"]
    n = rules.players
    rule_paid = np.zeros((2, 5), np.int64)  # role, rule: seat-declarations where the rule paid
    rule_gold = np.zeros((2, 5), np.int64)
    seat_rule_paid = np.zeros((4, 5), np.int64)
    gold_hist = np.zeros((2, GOLD_BINS), np.int64)  # role, gold won at one declaration
    seat_gold = np.zeros((4, 3), np.int64)  # declarations, sum, sum of squares
    role_n = np.zeros(2, np.int64)
    role_forced = np.zeros((2, GOLD_BINS), np.int64)  # gold of the declarer: voluntary / forced
    _tally_declarations(n, ev["declarer"], ev["forced"], _paid(chunk), rule_paid, rule_gold, seat_rule_paid,
                        gold_hist, seat_gold, role_n, role_forced)
    final = np.zeros((4, FINAL_BINS), np.int64)
    for q in range(n):
        final[q] = np.bincount(np.minimum(g[f"gold_{q}"], FINAL_BINS - 1), minlength=FINAL_BINS)
    bot_wins = np.zeros(len(BOT_NAMES), np.int64)
    bot_seats = np.zeros(len(BOT_NAMES), np.int64)
    seat_bot = np.zeros((4, len(BOT_NAMES)), np.int64)
    for q in range(n):
        bot = g[f"bot_{q}"]
        bot_wins += np.bincount(bot, weights=g[f"win_{q}"], minlength=len(BOT_NAMES)).astype(np.int64)
        bot_seats += np.bincount(bot, minlength=len(BOT_NAMES))
        seat_bot[q] += np.bincount(bot, minlength=len(BOT_NAMES))
    return {
        "rule_paid": rule_paid, "rule_gold": rule_gold, "seat_rule_paid": seat_rule_paid,
        "gold_hist": gold_hist, "seat_gold": seat_gold, "role_n": role_n, "declarer_gold_by_forced": role_forced,
        "final_gold": final, "hands_hist": np.bincount(np.minimum(g["hands"], HAND_BINS - 1), minlength=HAND_BINS),
        "bot_wins": bot_wins, "bot_seats": bot_seats, "seat_bot": seat_bot,
        "seat_wins": np.array([int(g[f"win_{q}"].sum()) for q in range(4)], np.int64),
        "declared_in_round": _declared_in_round(ev["round"], ev["forced"]),
    }


def _declared_in_round(rounds: np.ndarray, forced: np.ndarray) -> np.ndarray:
    """Declarations by round (OC-ROUND-3: from round 2) and kind: [voluntary, forced (OC-ISLAND-2)] x round 0..4."""
    out = np.zeros((2, MAX_ROUNDS + 1), np.int64)
    for kind in range(2):
        out[kind] = np.bincount(rounds[forced == kind], minlength=MAX_ROUNDS + 1)[:MAX_ROUNDS + 1]
    return out


def _with_rates(frame: dict, k, n) -> pl.DataFrame:
    ests = stats.rates(np.asarray(k), np.asarray(n))
    frame.update(value=[e.value for e in ests], lo=[e.lo for e in ests], hi=[e.hi for e in ests],
                 n=[e.n for e in ests])
    return pl.DataFrame(frame)


def tables(rules: OcracokeRules, summary) -> dict[str, pl.DataFrame]:
    t = summary.tallies
    n_games = summary.n_games
    n = rules.players
    out: dict[str, pl.DataFrame] = {}
    seats = list(range(n))
    bots_at = [", ".join(BOT_NAMES[b] for b in np.flatnonzero(t["seat_bot"][q])) for q in seats]
    out["win rate by seat"] = _with_rates({"seat": seats, "bot": bots_at}, t["seat_wins"][:n], n_games)
    used = np.flatnonzero(t["bot_seats"])
    out["win rate by bot (per seat-game)"] = _with_rates({"bot": [BOT_NAMES[b] for b in used]},
                                                         t["bot_wins"][used], t["bot_seats"][used])
    role_n = t["role_n"]
    out["payout rules per declaration: declarer vs others"] = _with_rates(
        {"rule": [RULE_LABELS[r] for r in RULES for _ in range(2)], "seat": list(ROLE_NAMES) * 5,
         "mean gold": [t["rule_gold"][role, i] / max(role_n[role], 1) for i in range(5) for role in range(2)]},
        [t["rule_paid"][role, i] for i in range(5) for role in range(2)],
        [role_n[role] for _ in range(5) for role in range(2)])
    decls = t["seat_gold"][:n, 0]
    out["payout rules per declaration by seat"] = _with_rates(
        {"seat": [q for q in seats for _ in RULES], "rule": [RULE_LABELS[r] for _ in seats for r in RULES]},
        [t["seat_rule_paid"][q, i] for q in seats for i in range(5)], [decls[q] for q in seats for _ in RULES])
    means = [stats.mean_from_sums(float(t["seat_gold"][q, 1]), float(t["seat_gold"][q, 2]), int(decls[q]))
             for q in seats]
    out["gold per declaration by seat"] = pl.DataFrame(
        {"seat": seats, "value": [m.value for m in means], "lo": [m.lo for m in means],
         "hi": [m.hi for m in means], "n": [m.n for m in means]})
    hist = t["gold_hist"]
    gold = [v for v in range(GOLD_BINS) if hist[:, v].any()]
    out["gold won at one declaration: distribution"] = _with_rates(
        {"seat": [ROLE_NAMES[r] for r in range(2) for _ in gold], "gold": [v for _ in range(2) for v in gold]},
        [hist[r, v] for r in range(2) for v in gold], [role_n[r] for r in range(2) for _ in gold])
    final = t["final_gold"][:n].sum(axis=0)
    vals = np.flatnonzero(final)
    out["gold at game end (all seats)"] = _with_rates({"gold": vals}, final[vals], n_games * n)
    by_round = t["declared_in_round"]
    cells = [(r, kind) for r in range(2, MAX_ROUNDS + 1) for kind in range(2) if kind == 0 or r == MAX_ROUNDS]
    out["declarations by round"] = _with_rates(
        {"round": [r for r, _ in cells], "kind": ["forced" if kind else "voluntary" for _, kind in cells]},
        [by_round[kind, r] for r, kind in cells], [int(by_round.sum())] * len(cells))
    hands = t["hands_hist"]
    hv = np.flatnonzero(hands)
    out["hands per game"] = _with_rates({"hands": hv}, hands[hv], n_games)
    return out


def report_figures(scenario, n_games: int, seed: int, jobs: int) -> list:
    """Payout distribution per declaration (declarer vs others) and gold per declaration by seat,
    for each player count."""
    import matplotlib.pyplot as plt

    from sim.core.runner import simulate

    figures = []
    fig_pay, ax_pay = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
    fig_seat, ax_seat = plt.subplots(figsize=(7, 4))
    for col, players in enumerate((2, 3, 4)):
        result = simulate("ocracoke", scenario, n_games, seed, jobs, players=players, progress=False)
        frames = result.tables()
        dist = frames["gold won at one declaration: distribution"]
        ax = ax_pay[col]
        for offset, role in ((-0.2, "declarer"), (0.2, "others")):
            part = dist.filter(pl.col("seat") == role)
            x = part["gold"].to_numpy() + offset
            v = part["value"].to_numpy()
            ax.bar(x, v, width=0.4, label=role, capsize=2,
                   yerr=np.clip([v - part["lo"].to_numpy(), part["hi"].to_numpy() - v], 0, None))
        ax.set_title(f"{players} players ({result.n_games:,} games)")
        ax.set_xlabel("gold won at one declaration (coins)")
        ax.legend()
        seat = frames["gold per declaration by seat"]
        v = seat["value"].to_numpy()
        ax_seat.errorbar(seat["seat"].to_numpy() + 0.05 * (players - 3), v,
                         yerr=np.clip([v - seat["lo"].to_numpy(), seat["hi"].to_numpy() - v], 0, None),
                         fmt="o-", capsize=3, label=f"{players} players")
    from matplotlib.ticker import PercentFormatter

    ax_pay[0].set_ylabel("share of seat-declarations (95 % interval)")
    ax_pay[0].yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    fig_pay.suptitle("Ocracoke: payout per declaration, declarer vs others")
    fig_pay.tight_layout()
    ax_seat.set_xlabel("seat (0 starts the game)")
    ax_seat.set_ylabel("mean gold per declaration (coins, 95% CI)")
    ax_seat.set_title("Ocracoke: gold per hand by seat")
    ax_seat.set_xticks(range(4))
    ax_seat.legend()
    fig_seat.tight_layout()
    figures += [fig_pay, fig_seat]
    return figures


# ---------------------------------------------------------------- the search bot against counter (issue 14)

TWELFTHS = 12  # a win share in twelfths: a k-way tie (k <= 4) pays 12 // k, an integer


def win_shares(rules: OcracokeRules, chunk: Chunk) -> dict[str, np.ndarray]:
    """Per game, each seat's share of the win in twelfths (OC-END-2: ties share the win)."""
    g = chunk.games
    winners = sum(g[f"win_{q}"] for q in range(rules.players))
    return {f"share_{q}": g[f"win_{q}"] * (TWELFTHS // winners) for q in range(rules.players)}


def _scaled(d: stats.Difference) -> stats.Difference:
    """A paired difference of shares in twelfths as one of win rates."""
    def rate(e: stats.Estimate) -> stats.Estimate:
        return stats.Estimate(e.value / TWELFTHS, e.lo / TWELFTHS, e.hi / TWELFTHS, e.n)

    return stats.Difference(rate(d.base), rate(d.variant), d.diff / TWELFTHS, d.lo / TWELFTHS, d.hi / TWELFTHS, d.p_value)


def search_strength(rules: OcracokeRules, n_games: int, seed: int, jobs: int = 1, search: str = "search",
                    chunk_size: int = 2_000) -> pl.DataFrame:
    """Search against counter in the same seat: per seat k, the arm "search at seat k, counter elsewhere"
    against the all-counter baseline, paired on the same games (sim.core.paired); and the arm with
    search at every seat, each seat against the baseline. Win rate with ties shared, its 95 % interval,
    the paired difference with its interval and p, and Holm-adjusted p over the seats of the one-seat arms."""
    import dataclasses

    from statsmodels.stats.multitest import multipletests

    from sim.core.paired import paired_runs
    from sim.games.ocracoke import GAME

    spec = dataclasses.replace(GAME, per_game=win_shares)
    seats = range(rules.players)
    base = (rules, GAME.policy_array(rules, {"all": "counter"}))
    variants = [(rules, GAME.policy_array(rules, {str(k): search})) for k in seats]
    variants.append((rules, GAME.policy_array(rules, {"all": search})))
    metrics = [Metric(f"share_{q}", f"seat {q} win share", "mean") for q in seats]
    sums = paired_runs(spec, base, variants, metrics, n_games, seed, jobs, chunk_size)
    rows = [("seat " + str(k), k, _scaled(sums[k].difference(metrics[k])[0])) for k in seats]
    rows += [("all seats", k, _scaled(sums[-1].difference(metrics[k])[0])) for k in seats]
    holm = multipletests([d.p_value for _, _, d in rows[:rules.players]], method="holm")[1]
    return pl.DataFrame({
        "search at": [arm for arm, _, _ in rows], "seat": [k for _, k, _ in rows], "n": [d.base.n for _, _, d in rows],
        "win rate with search": [d.variant.value for _, _, d in rows],
        "lo (search)": [d.variant.lo for _, _, d in rows], "hi (search)": [d.variant.hi for _, _, d in rows],
        "win rate with counter": [d.base.value for _, _, d in rows],
        "lo (counter)": [d.base.lo for _, _, d in rows], "hi (counter)": [d.base.hi for _, _, d in rows],
        "difference": [d.diff for _, _, d in rows], "lo": [d.lo for _, _, d in rows], "hi": [d.hi for _, _, d in rows],
        "p": [d.p_value for _, _, d in rows], "p (Holm)": list(holm) + [None] * rules.players,
    })


def _counterfactual_chunk(rules: OcracokeRules, seed: int, start: int, count: int) -> tuple[int, np.ndarray]:
    from sim.games.ocracoke.search import counterfactual_rows

    return start, counterfactual_rows(rules, seed, start, count)


def action_values(rules: OcracokeRules, n_games: int, seed: int, jobs: int = 1,
                  chunk_size: int = 5_000) -> pl.DataFrame:
    """Counterfactual value of each move (issue 14 §2; search.play_batch_counterfactual): at one sampled
    turn per game (a uniform seat, one of its first 5 turns), the move forced (with the counter's
    targets) against the counter's own choice, both played on from the same table and the same random
    stream with counter at every seat. Per move: n (sampled turns where it is legal), how often the
    counter chose it, the seat's win rate (ties shared) when forced and with its own choice, the paired
    difference with its 95 % interval and p, and the same for the seat's final gold minus the best
    rival's."""
    from sim.core.runner import _iter_parallel, chunk_plan
    from sim.games.ocracoke.policies import ACTION_NAMES
    from sim.games.ocracoke.search import CF_COLUMNS, MOVES

    tasks = [(rules, seed, start, count) for start, count in chunk_plan(n_games, chunk_size)]
    parts = dict(_iter_parallel(tasks, max(1, jobs), "loky", None, work=_counterfactual_chunk))
    rows = np.concatenate([parts[start] for start, _ in chunk_plan(n_games, chunk_size)])
    col = {name: rows[:, j] for j, name in enumerate(CF_COLUMNS)}
    sampled = col["seat"] >= 0
    out = []
    for m, move in enumerate(MOVES):
        legal = sampled & (col[f"share_{m}"] >= 0)
        n = int(legal.sum())
        if n < 2:
            continue
        forced, own = col[f"share_{m}"][legal], col["own_share"][legal]
        share = _scaled(stats.paired_difference(n, float(own.sum()), float(forced.sum()), float((own * own).sum()),
                                                float((forced * forced).sum()), float((own * forced).sum()),
                                                "mean")[0])
        fm, om = col[f"margin_{m}"][legal], col["own_margin"][legal]
        margin = stats.paired_difference(n, float(om.sum()), float(fm.sum()), float((om * om).sum()),
                                         float((fm * fm).sum()), float((om * fm).sum()), "mean")[0]
        chose = stats.rate(int((col["own"][legal] == move).sum()), n)
        out.append({"move": ACTION_NAMES[move], "n": n, "counter chooses it": chose.value,
                    "win rate forced": share.variant.value, "lo (forced)": share.variant.lo,
                    "hi (forced)": share.variant.hi, "win rate own choice": share.base.value,
                    "win difference": share.diff, "lo": share.lo, "hi": share.hi, "p": share.p_value,
                    "gold margin difference": margin.diff, "margin lo": margin.lo, "margin hi": margin.hi})
    return pl.DataFrame(out)
