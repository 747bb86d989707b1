"""Per-game rows to metrics, tallies, tables, traces and plots for The Wonderful Island.

Tallies (integer, merged by addition): venue statistics (campaigns, sum and sum of squares of the
candidate's gain per venue and support bucket), card statistics (player-games in which a card kind
was played, and how many of those players won), character statistics (player-games holding a
character, wins), and the player-games and wins overall (the average a card or character is
compared with).
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
             "threshold_raises", "campaign_turns", "pool_left", "votes_removed", "iron_removed"]
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
    kinds = len(cat.card_names)
    g = chunk.games
    card_n = np.zeros(kinds, dtype=np.int64)
    card_w = np.zeros(kinds, dtype=np.int64)
    char_n = np.zeros(len(cat.char_names), dtype=np.int64)
    char_w = np.zeros(len(cat.char_names), dtype=np.int64)
    camp_n = np.zeros(3, dtype=np.int64)
    camp_w = np.zeros(3, dtype=np.int64)
    cond_n = np.zeros((MAX_PLAYERS, len(CONDITIONS)), dtype=np.int64)  # politician seats by seat and condition
    cond_w = np.zeros((MAX_PLAYERS, len(CONDITIONS)), dtype=np.int64)
    conditions = cat.char_table[:, CH_WIN]
    for p in range(rules.players):
        won = g[f"seat{p}_won"]
        played = g[f"seat{p}_played"]
        for k in range(kinds):
            mask = (played >> k) & 1
            card_n[k] += int(mask.sum())
            card_w[k] += int((mask & won).sum())
        char_n += np.bincount(g[f"seat{p}_char"], minlength=len(cat.char_names))
        char_w += np.bincount(g[f"seat{p}_char"], weights=won, minlength=len(cat.char_names)).astype(np.int64)
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
    return {"card_n": card_n, "card_w": card_w, "char_n": char_n, "char_w": char_w, "camp_n": camp_n,
            "camp_w": camp_w, "venue": venue.ravel(), "end": end, "pol_cond_n": cond_n.ravel(),
            "pol_cond_w": cond_w.ravel()}


def _strength(names, n, w, base_n, base_w, label) -> pl.DataFrame:
    average = base_w / max(base_n, 1)
    rows = []
    for name, k, m in zip(names, w, n, strict=True):
        est = stats.rate(int(k), int(m))
        diff = stats.rate_difference(int(base_w), int(base_n), int(k), int(m)) if m > 0 and base_n > 0 else None
        rows.append({label: name, "value": est.value, "lo": est.lo, "hi": est.hi, "n": est.n,
                     "vs_average": (est.value - average) if m else float("nan"),
                     "p_value": diff.p_value if diff else float("nan")})
    frame = pl.DataFrame(rows)
    return frame.sort("vs_average", descending=True, nulls_last=True)


def tables(rules: WonderfulIslandRules, summary) -> dict[str, pl.DataFrame]:
    t = summary.tallies
    cat = load_catalogue(rules.catalogue)
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
    base_n, base_w = int(t["camp_n"].sum()), int(t["camp_w"].sum())
    cards = _strength(cat.card_names, t["card_n"], t["card_w"], base_n, base_w, "card")
    chars = _strength(cat.char_names, t["char_n"], t["char_w"], base_n, base_w, "character")
    return {"camp win rates": pl.DataFrame(camp_rows), "how games end": pl.DataFrame(end_rows),
            "politician win rate per seat and per win condition": pl.DataFrame(pol_rows),
            "venue values (candidate's gain per campaign)": pl.DataFrame(venue_rows),
            "card strength (win rate of players who played it)": cards.filter(pl.col("n") > 0),
            "character strength (win rate of players holding it)": chars.filter(pl.col("n") > 0)}


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
            lines.append(f"   seat {a} {'debates' if b else 'declines the debate (turned over)'}")
        elif code == E_ISSUE:
            issue = ", ".join(cards[k] for k in (a, b) if k >= 0) or "none"
            lines.append(f"   debate issue: {issue}")
        elif code == E_DEBATE:
            roll = f"candidate {b // 10}, debater {b % 10}" if b else "no roll"
            lines.append(f"   debater seat {a} ({roll}): {'succeeds' if c else 'fails'}")
        elif code == E_SKILL:
            lines.append(f"   seat {a} uses {'forced' if b == 2 else 'active'} skill {b + 1} ({PRIMITIVES[c]})")
        elif code == E_SKIP:
            lines.append(f"   seat {a} is in hospital: {'action' if b == 1 else 'campaign'} turn skipped")
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
    """Camp win rates by player count, venue values by support cards, card/character outliers."""
    import matplotlib.pyplot as plt

    from sim.core.runner import simulate
    from sim.games.wonderful_island import GAME

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
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title("The Wonderful Island: camp win rates by player count")
    ax.legend()
    figures.append(fig)

    base = results[6 if 6 in results else counts[0]]
    # the default bots almost always rally or poach: random bots choose every venue equally often
    explore = simulate(GAME, scenario, n_games, seed, jobs, {"all": "random"}, players=base.rules.players,
                       progress=False)
    venue = explore.tables()["venue values (candidate's gain per campaign)"]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.27
    for b, label in enumerate(SUPPORT_BUCKETS):
        part = venue.filter(pl.col("support_cards") == label)
        x = np.arange(6) + (b - 1) * width
        vals = np.nan_to_num(part["value"].to_numpy())
        err = np.nan_to_num(np.vstack([vals - part["lo"].to_numpy(), part["hi"].to_numpy() - vals]))
        ax.bar(x, vals, width, yerr=err, capsize=2, label=f"{label} support cards")
    ax.set_xticks(np.arange(6), VENUES, rotation=20)
    ax.set_ylabel("candidate's gain per campaign (votes; iron votes for grassroots)")
    ax.set_title(f"Venue values, {base.rules.players} players, random bots (venues chosen uniformly)")
    ax.legend()
    figures.append(fig)

    cjk = _cjk_font()
    cat = load_catalogue(base.rules.catalogue)
    for key, label, names in (("card strength (win rate of players who played it)", "card", cat.card_names),
                              ("character strength (win rate of players holding it)", "character", cat.char_names)):
        frame = base.tables()[key].sort("vs_average")
        fig, ax = plt.subplots(figsize=(7, max(4, 0.18 * frame.height)))
        y = np.arange(frame.height)
        vals = frame["value"].to_numpy()
        ax.errorbar(vals, y, xerr=[vals - frame["lo"].to_numpy(), frame["hi"].to_numpy() - vals], fmt="o", ms=3)
        average = int(base.summary.tallies["camp_w"].sum()) / max(1, int(base.summary.tallies["camp_n"].sum()))
        ax.axvline(average, color="grey", linestyle="--", label="average player win rate")
        ticks = [f"{names.index(name):02d} {name}" if cjk else f"{label} #{names.index(name):02d}"
                 for name in frame[label].to_list()]
        ax.set_yticks(y, ticks, fontsize=6, fontfamily=cjk or None)
        ax.set_xlabel("win rate of the player (95% interval)")
        ax.set_title(f"{label.title()} strength, {base.rules.players} players"
                     + ("" if cjk else " (# = catalogue order; names in the tables)"))
        ax.legend()
        figures.append(fig)
    return figures


def _cjk_font() -> str:
    """A font family that draws Chinese, or "" (then plots label cards by catalogue index)."""
    from matplotlib import font_manager

    for family in ("Noto Sans CJK TC", "Noto Sans CJK JP", "Noto Sans TC", "WenQuanYi Zen Hei", "AR PL UMing TW"):
        try:
            font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
            return family
        except ValueError:
            continue
    return ""
