"""Per-game rows to metrics, tallies, tables, traces and plots for The Wonderful Island.

Tallies (integer, merged by addition): venue statistics (campaigns, sum and sum of squares of the
candidate's gain per venue and support bucket), player-games and wins per camp, player-games and wins by seat
position and camp, politician seats and wins by seat and win condition, endings. What a venue, card or character is worth, and how often jail
and hospital decide a game, are paired counterfactuals (:mod:`.counterfactual`: ``sim wi-values`` and
the report), not comparisons of the players who happened to play or hold them.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core import stats
from sim.core.game import Chunk, Metric, Trace
from sim.games.wonderful_island import engine
from sim.games.wonderful_island.catalogue import CAMPS, CH_WIN, CONDITIONS, PRIMITIVES, load_catalogue
from sim.games.wonderful_island.rules import VENUE_NAMES, VENUES, WonderfulIslandRules
from sim.games.wonderful_island.state import (
    DEBATE_TURNED_OVER,
    DEBATE_WILLING,
    E_CAMPAIGN,
    E_CANCEL,
    E_DEBATE,
    E_DEBATE_ASK,
    E_DICE,
    E_DISCARD,
    E_DRAW,
    E_EFFECT,
    E_END,
    E_HOSP_OUT,
    E_HOSPITAL,
    E_ISSUE,
    E_JAIL,
    E_LEGISLATURE,
    E_MEETING,
    E_PLAY,
    E_POACH,
    E_REACT,
    E_RESOLVE,
    E_ROUND,
    E_SEAT,
    E_SETTLE,
    E_SKILL,
    E_SKIP,
    E_THRESHOLD,
    E_TRADE,
    E_TURN,
    E_VENUE,
    E_VOTE_SPLIT,
    E_WIN,
    END_NAMES,
    MAX_PLAYERS,
    SKIP_ACTION,
    SKIP_DEBATE,
    SUPPORT_BUCKETS,
)

ROLES = ("blue", "green", "politician")
SEAT_FIELDS = engine.SEAT_FIELDS


def rows_to_chunk(rows: np.ndarray, vstats: np.ndarray, start: int) -> Chunk:
    """Named per-game columns and the chunk's venue statistics as an event table."""
    count = rows.shape[0]
    columns = np.ascontiguousarray(rows.T)  # the engine's own columns (no copy): each a contiguous row
    games = {"game": np.arange(start, start + count, dtype=np.int64)}
    names = ["win_blue", "win_green", "win_politician", "end_reason", "rounds", "jails", "hospitals",
             "threshold_raises", "campaign_turns", "pool_left", "votes_removed", "iron_removed", "iron_left"]
    for i, name in enumerate(names):
        games[name] = columns[i]
    for p in range(MAX_PLAYERS):
        for f, field in enumerate(SEAT_FIELDS):
            games[f"seat{p}_{field}"] = columns[engine.O_SEAT + p * engine.NSF + f]
    venue, bucket = np.meshgrid(np.arange(6), np.arange(3), indexing="ij")
    events = {"venue_stats": {"venue": venue.ravel().astype(np.int64), "bucket": bucket.ravel().astype(np.int64),
                              "n": vstats[:, :, 0].ravel().copy(), "sum": vstats[:, :, 1].ravel().copy(),
                              "sumsq": vstats[:, :, 2].ravel().copy()}}
    return Chunk(games, events)


def play(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, start: int, count: int) -> Chunk:
    rows, vstats, _ = engine.run_batch(rules, policy, seed, start, count)
    return rows_to_chunk(rows, vstats, start)


def metrics(rules: WonderfulIslandRules) -> list[Metric]:
    return [
        Metric("win_blue", "blue camp wins", "rate", True),
        Metric("win_green", "green camp wins", "rate", True),
        Metric("win_politician", "a politician wins (its own win)", "rate", True),
        Metric("end_threshold", "ends by election (threshold)", "rate", True),
        Metric("end_politician", "ends by a politician's condition", "rate"),
        Metric("end_forced", "ends by the forced count", "rate", True),
        Metric("end_last_out", "ends with the last player out of jail", "rate"),
        Metric("any_jail", "someone goes to jail", "rate"),
        Metric("any_hospital", "someone goes to hospital", "rate"),
        Metric("winner_jailed", "a winner is in jail", "rate"),
        Metric("rounds", "rounds played", "mean"),
        Metric("jails", "players jailed per game", "mean"),
        Metric("hospitals", "hospital stays per game", "mean"),
        Metric("threshold_raises", "threshold raised by a double election", "mean"),
    ]


def per_game(rules: WonderfulIslandRules, chunk: Chunk) -> dict[str, np.ndarray]:
    g = chunk.games
    end = g["end_reason"]
    winner_jailed = np.zeros(len(chunk), dtype=np.int64)
    for p in range(MAX_PLAYERS):
        winner_jailed |= (g[f"seat{p}_won"] == 1) & (g[f"seat{p}_jailed"] == 1)
    return {
        "win_blue": g["win_blue"], "win_green": g["win_green"], "win_politician": g["win_politician"],
        "end_threshold": (end == 1).astype(np.int64), "end_politician": (end == 2).astype(np.int64),
        "end_forced": (end == 3).astype(np.int64), "end_last_out": (end == 4).astype(np.int64),
        "any_jail": (g["jails"] > 0).astype(np.int64), "any_hospital": (g["hospitals"] > 0).astype(np.int64),
        "winner_jailed": winner_jailed.astype(np.int64), "rounds": g["rounds"], "jails": g["jails"],
        "hospitals": g["hospitals"], "threshold_raises": g["threshold_raises"],
    }


def tally(rules: WonderfulIslandRules, chunk: Chunk) -> dict[str, np.ndarray]:
    cat = load_catalogue(rules.catalogue)
    g = chunk.games
    camp_n = np.zeros(3, dtype=np.int64)
    camp_w = np.zeros(3, dtype=np.int64)
    cond_n = np.zeros((MAX_PLAYERS, len(CONDITIONS)), dtype=np.int64)  # politician seats by seat and condition
    cond_w = np.zeros((MAX_PLAYERS, len(CONDITIONS)), dtype=np.int64)
    conditions = cat.char_table[:, CH_WIN]
    for p in range(rules.players):
        won = g[f"seat{p}_won"]
        camp_n += np.bincount(g[f"seat{p}_camp"], minlength=3)
        camp_w += np.bincount(g[f"seat{p}_camp"], weights=won, minlength=3).astype(np.int64)
        politician = g[f"seat{p}_camp"] == 2
        cond = conditions[g[f"seat{p}_char"][politician]]
        cond_n[p] += np.bincount(cond, minlength=len(CONDITIONS))
        cond_w[p] += np.bincount(cond, weights=won[politician], minlength=len(CONDITIONS)).astype(np.int64)
    v = chunk.events["venue_stats"]
    venue = np.zeros((6, 3, 3), dtype=np.int64)
    venue[v["venue"], v["bucket"], 0] = v["n"]
    venue[v["venue"], v["bucket"], 1] = v["sum"]
    venue[v["venue"], v["bucket"], 2] = v["sumsq"]
    end = np.bincount(g["end_reason"], minlength=len(END_NAMES)).astype(np.int64)
    seat_n, seat_w = seat_camp_counts(g, rules.players)
    return {"camp_n": camp_n, "camp_w": camp_w, "venue": venue.ravel(), "end": end, "pol_cond_n": cond_n.ravel(),
            "pol_cond_w": cond_w.ravel(), "seat_camp_n": seat_n.ravel(), "seat_camp_w": seat_w.ravel()}


def seat_camp_counts(games, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Player-games and wins by seat position and camp, each [MAX_PLAYERS, 3] (camps in ROLES order), from the
    per-game columns ``seat{p}_camp`` and ``seat{p}_won`` (a dict of arrays or a frame of ``sim run --out``)."""
    n = np.zeros((MAX_PLAYERS, 3), dtype=np.int64)
    w = np.zeros((MAX_PLAYERS, 3), dtype=np.int64)
    for p in range(players):
        camp = np.asarray(games[f"seat{p}_camp"], dtype=np.int64)
        won = np.asarray(games[f"seat{p}_won"], dtype=np.int64)
        n[p] = np.bincount(camp, minlength=3)[:3]
        w[p] = np.bincount(camp, weights=won, minlength=3)[:3].astype(np.int64)
    return n, w


def seat_table(n: np.ndarray, w: np.ndarray, players: int) -> pl.DataFrame:
    """Win rate by seat position (seat 0 is the first candidate of every round, WI-ROUND-2) for every camp: one
    row per seat and camp with the rate, its 95 % Wilson interval and n (player-games of that camp in that seat).
    The win is the seat's own (a blue or green seat wins with its camp, a politician alone)."""
    n, w = np.asarray(n).reshape(MAX_PLAYERS, 3), np.asarray(w).reshape(MAX_PLAYERS, 3)
    return pl.DataFrame([{"seat": p, "camp": role, **_rate_cols(int(w[p, c]), int(n[p, c]))}
                         for p in range(players) for c, role in enumerate(ROLES)])


SEAT_RATES = "win rate by seat position and camp"
VENUE_GAINS = "venue gains (candidate's own gain per campaign; a venue's worth: sim wi-values)"


def tables(rules: WonderfulIslandRules, summary) -> dict[str, pl.DataFrame]:
    t = summary.tallies
    n_games = summary.n_games
    camp_rows = []
    for i, role in enumerate(ROLES):
        est = stats.rate(summary.sums.get(f"win_{role}", 0), n_games)
        per_player = stats.rate(int(t["camp_w"][i]), int(t["camp_n"][i]))
        camp_rows.append({"camp": role, "players": rules.camps()[i], "value": est.value, "lo": est.lo,
                          "hi": est.hi, "n": est.n, "per_player_win": per_player.value})
    venue = t["venue"].reshape(6, 3, 3)
    venue_rows = []
    for v in range(6):
        for b, label in enumerate(SUPPORT_BUCKETS):
            n, s, ss = (int(x) for x in venue[v, b])
            est = stats.mean_from_sums(float(s), float(ss), n)
            venue_rows.append({"venue": f"{VENUES[v]} {VENUE_NAMES[v]}", "support_cards": label,
                               "unit": "iron votes" if v == 1 else "votes", "value": est.value, "lo": est.lo,
                               "hi": est.hi, "n": n})
    cond_n = t["pol_cond_n"].reshape(MAX_PLAYERS, len(CONDITIONS))
    cond_w = t["pol_cond_w"].reshape(MAX_PLAYERS, len(CONDITIONS))
    pol_rows = [{"politician": f"seat {p}", **_rate_cols(int(cond_w[p].sum()), int(cond_n[p].sum()))}
                for p in range(rules.players)]
    pol_rows += [{"politician": f"condition {c}", **_rate_cols(int(cond_w[:, i].sum()), int(cond_n[:, i].sum()))}
                 for i, c in enumerate(CONDITIONS)]
    pol_rows.append({"politician": "any seat", **_rate_cols(int(cond_w.sum()), int(cond_n.sum()))})
    ends = t["end"]
    end_rows = [{"end": END_NAMES[i], **_rate_cols(int(ends[i]), n_games)} for i in range(1, len(END_NAMES))]
    seats = seat_table(t["seat_camp_n"], t["seat_camp_w"], rules.players)
    return {"camp win rates": pl.DataFrame(camp_rows), "how games end": pl.DataFrame(end_rows), SEAT_RATES: seats,
            "politician win rate per seat and per win condition": pl.DataFrame(pol_rows),
            VENUE_GAINS: pl.DataFrame(venue_rows)}


def venue_ranks(rules: WonderfulIslandRules, summary) -> dict[str, pl.DataFrame]:
    """``sim robust``'s venue rankings: the venues ranked by the candidate's gain in ordinary votes, within
    each support-card bucket (the iron-vote venue is left out: its gain is in another unit)."""
    venues = tables(rules, summary)[VENUE_GAINS].filter(pl.col("unit") == "votes")
    return {f"venue gain (votes), {label} support cards":
            venues.filter(pl.col("support_cards") == label).select(pl.col("venue").alias("item"), "value", "lo",
                                                                   "hi", "n")
            for label in SUPPORT_BUCKETS}


def _rate_cols(k: int, n: int) -> dict:
    est = stats.rate(k, n)
    return {"value": est.value, "lo": est.lo, "hi": est.hi, "n": est.n}


# ----------------------------------------------------------------------------------------- traces
def describe(rules: WonderfulIslandRules, log: np.ndarray) -> list[str]:
    """The log of one game as readable lines."""
    cat = load_catalogue(rules.catalogue)
    cards, chars, meets = cat.card_names, cat.char_names, cat.meeting_names
    lines: list[str] = []
    for code, a, b, c in log.reshape(-1, 4).tolist():
        if code < 0:  # the unused rest of the buffer
            break
        if code == E_SEAT:
            lines.append(f"seat {a}: camp {CAMPS[b]}, character {chars[c]}")
        elif code == E_ROUND:
            lines.append(f"== round {a}")
        elif code == E_CAMPAIGN:
            lines.append(f"-- campaign turn {c}: candidate seat {a} at {VENUES[b]} {VENUE_NAMES[b]}")
        elif code == E_TURN:
            lines.append(f"  seat {a}'s action turn")
        elif code == E_DRAW:
            lines.append(f"   seat {a} draws {b}")
        elif code == E_PLAY:
            lines.append(f"   seat {a} plays {cards[b]} on seat {c}")
        elif code == E_RESOLVE:
            lines.append(f"   settles {cards[b]} of seat {a}")
        elif code == E_REACT:
            lines.append(f"   seat {a} reacts with {cards[b]} against candidate seat {c}")
        elif code == E_EFFECT:
            lines.append(f"      effect on seat {a}: {PRIMITIVES[b]} {c:+d}")
        elif code == E_MEETING:
            lines.append(f"   seat {a} passes meeting card {meets[c // 2]} to seat {b}: {'yes' if c % 2 else 'no'}")
        elif code == E_DISCARD:
            lines.append(f"   seat {a} discards {b}")
        elif code == E_TRADE:
            lines.append(f"   seat {a} trades {b} cards for a meeting card")
        elif code == E_CANCEL:
            lines.append(f"   seat {a} cancels {cards[c]} with {cards[b]}")
        elif code == E_DICE:
            lines.append(f"   dice {a} {b}" + (f" {c}" if c else ""))
        elif code == E_VENUE:
            lines.append(f"   venue {VENUES[a]}: candidate gains {b} with {c} support")
        elif code == E_SETTLE:
            lines.append(f"   settlement of seat {a}: card/venue vote change {b:+d}, now {c} votes")
        elif code == E_JAIL:
            lines.append(f"   seat {a} goes to JAIL")
        elif code == E_HOSPITAL:
            lines.append(f"   seat {a} goes to hospital")
        elif code == E_HOSP_OUT:
            lines.append(f"   seat {a} leaves hospital")
        elif code == E_LEGISLATURE:
            lines.append(f"   legislature: {a} hands of {b} players: {'passed' if c else 'failed'}")
        elif code == E_VOTE_SPLIT:
            lines.append(f"      seat {a} gets {b} of the bill's votes")
        elif code == E_POACH:
            lines.append("   poaching: nobody has votes" if a < 0 else
                         f"   poaching seat {a}: candidate lays {b}, target matches {c}")
        elif code == E_DEBATE_ASK:
            lines.append(f"   seat {a} " + ("debates" if b == DEBATE_WILLING else "declines the debate (turned over)"
                                          if b == DEBATE_TURNED_OVER else "declines the debate (in hospital)"))
        elif code == E_ISSUE:
            issue = ", ".join(cards[k] for k in (a, b) if k >= 0) or "none"
            lines.append(f"   debate issue: {issue}")
        elif code == E_DEBATE:
            roll = f"candidate {b // 10}, debater {b % 10}" if b else "no roll"
            lines.append(f"   debater seat {a} ({roll}): {'succeeds' if c else 'fails'}")
        elif code == E_SKILL:
            lines.append(f"   seat {a} uses {'forced' if b == 2 else 'active'} skill {b + 1} ({PRIMITIVES[c]})")
        elif code == E_SKIP:
            lines.append(f"   seat {a} is turned over (declined the debate): action turn skipped" if b == SKIP_DEBATE
                         else f"   seat {a} is in hospital: {'action' if b == SKIP_ACTION else 'campaign'} turn skipped")
        elif code == E_THRESHOLD:
            lines.append(f"   both camps reached the threshold: it rises to {a}")
        elif code == E_WIN:
            lines.append(f"WINNER seat {a} ({CAMPS[b]})")
        elif code == E_END:
            lines.append(f"== game ends in round {b}: {END_NAMES[a]}")
    return lines


def trace(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, index: int) -> Trace:
    rows, vstats, log = engine.run_batch(rules, policy, seed, index, 1, log_events=20_000)
    chunk = rows_to_chunk(rows, vstats, index)
    return Trace(describe(rules, log), chunk)


# ----------------------------------------------------------------------------------------- figures
def report_figures(scenario, n_games: int, seed: int, jobs: int) -> list:
    """Camp win rates by player count, politician win rates per seat and condition, and the paired counterfactuals:
    venue values by support cards, card and character values, the decisiveness of jail and hospital."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    from sim.core.pages import pct_interval, table_pages, use_fonts
    from sim.core.runner import simulate
    from sim.games.wonderful_island import GAME

    use_fonts()
    percent = PercentFormatter(1.0, decimals=0)
    figures = []
    counts = list(GAME.player_counts)
    results = {p: simulate(GAME, scenario, n_games, seed, jobs, players=p, progress=False) for p in counts}
    fig, ax = plt.subplots(figsize=(7, 4))
    for role, colour in zip(ROLES, ("tab:blue", "tab:green", "tab:orange"), strict=True):
        est = [results[p].estimate(next(m for m in GAME.metrics(results[p].rules) if m.name == f"win_{role}"))
               for p in counts]
        ax.errorbar(counts, [e.value for e in est], yerr=[[e.value - e.lo for e in est], [e.hi - e.value for e in est]],
                    marker="o", capsize=3, label=role, color=colour)
    ax.set_xlabel("players")
    ax.set_ylabel("camp win rate (95 % interval)")
    ax.yaxis.set_major_formatter(percent)
    ax.set_title("The Wonderful Island: camp win rates by player count")
    ax.legend()
    figures.append(fig)

    base = results[6 if 6 in results else counts[0]]
    politicians = [results[p].tables()["politician win rate per seat and per win condition"] for p in counts]
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, colour in (("any seat", "tab:orange"), *((f"condition {c}", None) for c in CONDITIONS)):
        rows = [f.filter(pl.col("politician") == label) for f in politicians]
        vals = np.array([r["value"][0] for r in rows])
        err = np.nan_to_num(np.vstack([vals - [r["lo"][0] for r in rows], [r["hi"][0] for r in rows] - vals]))
        ax.errorbar(counts, vals, yerr=err, marker="o", capsize=3, label=label.replace("condition ", ""),
                    color=colour, linewidth=2.5 if label == "any seat" else 1)
    ax.axhspan(0.2, 0.4, color="grey", alpha=0.15, label="20-40 % band")
    ax.set_xlabel("players")
    ax.set_ylabel("politician seat win rate (95 % interval)")
    ax.yaxis.set_major_formatter(percent)
    ax.set_title("Politician win rate per seat, and by win condition")
    ax.legend(fontsize=7, ncol=2)
    figures.append(fig)

    figures += seat_pages(results)

    from sim.games.wonderful_island import counterfactual as cf

    rules, policy = base.rules, GAME.policy_array(base.rules)
    cf_games = max(2_000, min(n_games, 20_000))
    venue = cf.venue_values(rules, policy, seed, cf_games)
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.27
    for b, label in enumerate(SUPPORT_BUCKETS):
        part = venue.filter(pl.col("support_in_hand") == label)
        x = np.arange(6) + (b - 1) * width
        vals = np.nan_to_num(part["vs_rally"].to_numpy())
        err = np.nan_to_num(np.vstack([vals - part["vs_rally_lo"].to_numpy(), part["vs_rally_hi"].to_numpy() - vals]))
        ax.bar(x, vals, width, yerr=err, capsize=2, label=f"{label} support cards")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(np.arange(6), [f"{v + 1} {VENUE_NAMES[v]}\n{name}" for v, name in enumerate(VENUES)], fontsize=8)
    ax.set_ylabel("candidate's win rate:\nvenue forced - rally forced (points)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    ax.set_title(f"Venue values (paired: forced at a sampled decision), {rules.players} players, n = {cf_games:,}")
    ax.legend()
    figures.append(fig)
    figures += table_pages(
        f"Venue counterfactuals, {rules.players} players: each venue forced at one sampled campaign decision",
        ["venue", "support cards in hand", "candidate's win rate, forced - bot's own choice [95 %]", "games",
         "forced - rally forced", "the bot chooses it", "forced - rally, where the bot chose it (n)"],
        [[r["venue"], r["support_in_hand"], _points(r["value"], r["lo"], r["hi"]), f"{r['n']:,}",
          _points(r["vs_rally"], r["vs_rally_lo"], r["vs_rally_hi"]), f"{100 * r['bot_chooses']:.1f} %",
          f"{_points(r['when_chosen_vs_rally'], r['when_chosen_vs_rally_lo'], r['when_chosen_vs_rally_hi'])} "
          f"(n {r['when_chosen_n']:,})"] for r in venue.iter_rows(named=True)],
        [0.15, 0.08, 0.19, 0.07, 0.19, 0.09, 0.23],
        intro=["Differences are in percentage points of the candidate's win rate, paired on the same games "
               "(95 % interval); an empty interval: too few games in the bucket."])

    cat = load_catalogue(rules.catalogue)
    cards = cf.card_values(rules, policy, seed, max(1_000, cf_games // 4))
    chars = cf.character_values(rules, policy, seed, max(1_000, cf_games // 4))
    for frame, label, names, column, xlabel in (
            (cards, "card", cat.card_names, "politician", "politician camp's win rate with the card - without it"),
            (chars, "character", cat.char_names, "", "seat's win rate holding it - with its own pick")):
        key = f"{column}_value" if column else "value"
        lo, hi = (f"{column}_lo", f"{column}_hi") if column else ("lo", "hi")
        frame = frame.sort(key)
        fig, ax = plt.subplots(figsize=(7, max(4, 0.18 * frame.height)))
        y = np.arange(frame.height)
        vals = frame[key].to_numpy()
        ax.errorbar(vals, y, xerr=[vals - frame[lo].to_numpy(), frame[hi].to_numpy() - vals], fmt="o", ms=3)
        ax.axvline(0, color="grey", linestyle="--")
        ax.set_yticks(y, [f"{names.index(name):02d} {name}" for name in frame[label].to_list()], fontsize=6)
        ax.set_xlabel(xlabel + " (points, paired, 95 % interval)")
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_title(f"{label.title()} values (paired counterfactual), {rules.players} players, "
                     f"n = {int(frame['n'][0]):,} (number: catalogue order, as in sim wi-values)")
        figures.append(fig)
    decisive = cf.decisiveness(rules, policy, seed, cf_games)
    figures += table_pages(
        f"How often jail and hospital decide a game (paired re-run), {rules.players} players",
        ["event spared", "games where it happens", "it changes the winners, of those games [95 %]", "games",
         "games it decides, of all"],
        [[r["event"], f"{100 * r['games_with_it']:.1f} %", pct_interval(r["decisive"], r["lo"], r["hi"]),
          f"{r['n']:,}", f"{100 * r['decides_games']:.1f} %"] for r in decisive.iter_rows(named=True)],
        [0.2, 0.17, 0.3, 0.13, 0.2],
        intro=["The games in which the first jailing (hospital stay) happened are played again from the same "
               "random stream with it spared; it decides the game when the set of winning camps changes."])
    return figures


def seat_pages(results: dict) -> list:
    """The report's table of win rates by seat position and camp, one block of rows per player count (results:
    player count -> sim run result)."""
    from sim.core.pages import pct_interval, table_pages

    rows = []
    for players, result in results.items():
        seats = result.tables()[SEAT_RATES]
        for seat in range(players):
            cells = {r["camp"]: r for r in seats.filter(pl.col("seat") == seat).iter_rows(named=True)}
            rows.append([str(players), str(seat)] + [
                f"{pct_interval(cells[c]['value'], cells[c]['lo'], cells[c]['hi'])} (n {cells[c]['n']:,})"
                if cells[c]["n"] else "-" for c in ROLES])
    return table_pages(
        "Win rate by seat position and camp", ["players", "seat", *ROLES], rows, [0.1, 0.08, 0.27, 0.27, 0.28],
        intro=["Seat 0 is the first candidate of every round (WI-ROUND-2); each cell is the seat's own win rate in "
               "that camp with its 95 % interval and n (player-games). The first candidate draws everyone's opening "
               "obstruction cards, camp-mates' included (docs/wonderful-island-balance.md, seat order)."])


def _points(value: float, lo: float | None = None, hi: float | None = None) -> str:
    """A difference of rates in percentage points, with its interval if given; "-" when unknown."""
    if value is None or not np.isfinite(value):
        return "-"
    text = f"{100 * value:+.1f}"
    if lo is not None and hi is not None and np.isfinite(lo) and np.isfinite(hi):
        text += f" [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    return text + " pt"
