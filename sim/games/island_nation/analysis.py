"""Per-game rows of Island Nation to metrics, tallies, tables, traces and the report's figures."""

from __future__ import annotations

import textwrap

import numpy as np
import polars as pl

from sim.core import stats
from sim.core.game import Chunk, Metric
from sim.games.island_nation.state import REASON_KEYS, REASONS

ESCAPE_ROUNDS = (7, 8, 9, 10)
SET_ON_ONE_LINE = 40  # a larger public set is printed in full on wrapped lines below its turn's line
ROUNDS = range(1, 11)


def metrics(rules) -> list[Metric]:
    out = [Metric("win_frogman", "frogman wins", "rate", True),
           Metric("win_artillery", "artillery win", "rate", True)]
    out += [Metric(f"escape_by_{r}", f"escaped by round {r}", "rate", True, favours=("frogman",))  # IN-WIN-F1
            for r in ESCAPE_ROUNDS]
    out += [Metric(f"escape_in_{r}", f"escaped in round {r}", "rate") for r in ESCAPE_ROUNDS]
    out += [Metric(f"end_{key}", f"ends by {text}", "rate") for key, text in zip(REASON_KEYS, REASONS, strict=True)]
    out += [Metric("end_round", "last round played", "mean"),
            Metric("frogman_hp", "frogman HP left", "mean"),
            Metric("artillery_alive", "artillery alive at the end", "mean"),
            Metric("final_set", "public-set size at the end", "mean")]
    return out


def per_game(rules, chunk: Chunk) -> dict[str, np.ndarray]:
    g = chunk.games
    esc = g["escape_round"]
    values = {"win_frogman": (g["winner"] == 0).astype(np.int64),
              "win_artillery": (g["winner"] == 1).astype(np.int64)}
    for r in ESCAPE_ROUNDS:
        values[f"escape_by_{r}"] = ((esc > 0) & (esc <= r)).astype(np.int64)
    for r in ESCAPE_ROUNDS:
        values[f"escape_in_{r}"] = (esc == r).astype(np.int64)
    for i, key in enumerate(REASON_KEYS):
        values[f"end_{key}"] = (g["end_reason"] == i).astype(np.int64)
    for name in ("end_round", "frogman_hp", "artillery_alive", "final_set"):
        values[name] = g[name].astype(np.int64)
    return values


def tally(rules, chunk: Chunk) -> dict[str, np.ndarray]:
    """Additive counts: per point (rounds ended there, captures, escapes), per exit, and the sums
    of the public-set size per round (with squares and the number of games that reached it)."""
    g = chunk.games
    sizes = np.stack([g[f"set_r{r}"] for r in ROUNDS], axis=1)
    reached = sizes >= 0
    s = np.where(reached, sizes, 0)
    points = chunk.events["points"]
    exits = g["escape_exit"]
    return {"density": points["density"].astype(np.int64), "captures": points["captures"].astype(np.int64),
            "escapes": points["escapes"].astype(np.int64),
            "exits": np.bincount(exits[exits >= 0], minlength=6)[:6].astype(np.int64),
            "set_sum": s.sum(axis=0).astype(np.int64), "set_sumsq": (s * s).sum(axis=0).astype(np.int64),
            "set_games": reached.sum(axis=0).astype(np.int64)}


def _rate_row(label: str, k: int, n: int, **extra) -> dict:
    est = stats.rate(k, n)
    return {**extra, "what": label, "value": est.value, "lo": est.lo, "hi": est.hi, "n": est.n}


def tables(rules, summary) -> dict[str, pl.DataFrame]:
    n = summary.n_games
    s = summary.sums
    ends = pl.DataFrame([
        _rate_row(text, s.get(f"end_{key}", 0), n, side="frogman" if i < 2 else "artillery")
        for i, (key, text) in enumerate(zip(REASON_KEYS, REASONS, strict=True))])
    escape_in = pl.DataFrame([_rate_row(f"round {r}", s.get(f"escape_in_{r}", 0), n) for r in ESCAPE_ROUNDS])
    escape_by = pl.DataFrame([_rate_row(f"by round {r}", s.get(f"escape_by_{r}", 0), n) for r in ESCAPE_ROUNDS])
    t = summary.tallies
    set_rows = []
    for r in ROUNDS:
        m = int(t["set_games"][r - 1]) if "set_games" in t else 0
        if m == 0:
            continue
        est = stats.mean_from_sums(float(t["set_sum"][r - 1]), float(t["set_sumsq"][r - 1]), m)
        set_rows.append({"round": r, "value": est.value, "lo": est.lo, "hi": est.hi, "n": est.n})
    labels = "ABCDEF"
    exits = pl.DataFrame([_rate_row(f"exit {labels[i]}", int(t["exits"][i]) if "exits" in t else 0, n)
                          for i in range(6)])
    out = {"how the game ends": ends, "frogman escapes in the round": escape_in,
           "frogman escaped by the round (cumulative)": escape_by, "exit usage": exits}
    if set_rows:
        out["public-set size at the end of each round (games still running)"] = pl.DataFrame(set_rows)
    return out


# ---------------------------------------------------------------- traces

DIRS = "123456"


def _set_labels(board, w0: int, w1: int) -> list[str]:
    words = (w0 & (2**64 - 1), w1 & (2**64 - 1))
    return [board.labels[p] for p in range(len(board.labels)) if (words[p >> 6] >> (p & 63)) & 1]


def describe_log(board, log: np.ndarray, rules) -> list[str]:
    """One readable line per logged event (engine.EV_* codes)."""
    from sim.games.island_nation import engine as E
    from sim.games.island_nation.rules import EFFECTS

    L = board.labels
    lines = []
    rows = log.tolist()
    for i, (event, rnd, actor, a, b, c) in enumerate(rows):
        who = "frogman" if actor == 0 else f"artillery {actor}"
        if event == E.EV_SEARCH:
            if i + 1 < len(rows) and rows[i + 1][0] == E.EV_SEARCH:
                continue  # one line for the decision, at its last candidate
            lines.append(_search_line(rows, i, who))
        elif event == E.EV_START:
            lines.append(f"setup: the frogman secretly writes start point {L[a]}")
        elif event == E.EV_PLACE:
            lines.append(f"setup: {who} places on {L[a]}")
        elif event == E.EV_BOTTLE:
            lines.append(f"round {rnd}: frogman places a water bottle on {L[a]} and moves without announcing")
        elif event == E.EV_STEP:
            lines.append(f"round {rnd}: frogman announces direction {a}  [true point {L[b]}; public set {c}]")
        elif event == E.EV_HIDDEN_STEP:
            lines.append(f"round {rnd}: frogman moves unannounced  [direction {a}, true point {L[b]}]")
        elif event == E.EV_FSHOT:
            victim = f"artillery {b} is hit" if b > 0 else "nobody is hit"
            lines.append(f"round {rnd}: frogman shoots: {victim}  [direction {a}; public set {c}]")
        elif event == E.EV_MINE:
            lines.append(f"round {rnd}: frogman announces a mine  [on {L[a]}]")
        elif event == E.EV_PASS:
            lines.append(f"round {rnd}: frogman cannot act and passes  [public set {c}]")
        elif event == E.EV_AMOVE:
            lines.append(f"round {rnd}: {who} moves {L[a]} -> {L[b]}")
        elif event == E.EV_BOOM:
            lines.append(f"round {rnd}: the mine on {L[a]} explodes under {who} (-1 HP)")
        elif event == E.EV_ASHOT:
            lines.append(f"round {rnd}: {who} shoots in direction {a}: frogman says "
                         + ("hit" if b else "missed") + f"  [public set {c}]")
        elif event == E.EV_CATCH:
            lines.append(f"round {rnd}: {who} claims the frogman is on {L[a]}: " + ("right" if b else "wrong (-1 HP)")
                         + f"  [public set {c}]")
        elif event == E.EV_DEATH:
            lines.append(f"round {rnd}: {who} dies")
        elif event == E.EV_TURN_END:
            public = _set_labels(board, b, c)
            head = f"    end of {who}'s turn: frogman on {L[a]}; public set ({len(public)}):"
            if len(public) <= SET_ON_ONE_LINE:
                lines.append(f"{head} {' '.join(public)}")
            else:  # every point, wrapped below the line (sim trace --json: the same set as a list)
                lines.append(head)
                lines += textwrap.wrap(" ".join(public), width=100, initial_indent=" " * 8, subsequent_indent=" " * 8)
        elif event == E.EV_DRAW:
            card = rules.deck[a]
            shown = f"draws the event {card.name!r} (shown)" if b else "draws an item card"
            lines.append(f"round {rnd}: {who} {shown}" + ("" if b else f"  [{card.name}]"))
        elif event == E.EV_EFFECT and EFFECTS[a] == "traitor":
            lines.append(f"round {rnd}: {who}'s traitor event takes effect: "
                         + ("it does nothing (IN-CARD-5: it turns only an artillery)" if actor == 0
                            else "turns traitor"))
        elif event == E.EV_EFFECT:
            effect = EFFECTS[a]
            told = {"radar": f": the frogman is {'within' if c else 'not within'} {min(b, 3)} road steps",
                    "can": ": puts the can token down"}.get(effect, "")
            lines.append(f"round {rnd}: {who} uses {effect} {b}{told}")
        elif event == E.EV_CAN:
            lines.append(f"round {rnd}: the can rattles: the frogman stepped onto {L[a]}")
        elif event == E.EV_END:
            side = "frogman" if a == 0 else "artillery"
            lines.append(f"round {rnd}: game over: the {side} win{'s' if a == 0 else ''} by {REASONS[b]}")
    return lines


def log_events(board, log: np.ndarray, rules) -> list[dict]:
    """The logged events (engine.EV_*) as records for ``sim trace --json``: each with its round, actor
    ("frogman" or "artillery K") and named fields, points as map labels and every public set in full."""
    from sim.games.island_nation import engine as E
    from sim.games.island_nation.rules import EFFECTS

    L = board.labels
    names = {E.EV_START: "start", E.EV_PLACE: "place", E.EV_BOTTLE: "bottle", E.EV_STEP: "step",
             E.EV_HIDDEN_STEP: "hidden_step", E.EV_FSHOT: "frogman_shot", E.EV_MINE: "mine", E.EV_PASS: "pass",
             E.EV_AMOVE: "artillery_move", E.EV_BOOM: "mine_explodes", E.EV_ASHOT: "artillery_shot",
             E.EV_CATCH: "catch", E.EV_DEATH: "death", E.EV_TURN_END: "turn_end", E.EV_END: "game_over",
             E.EV_DRAW: "draw", E.EV_EFFECT: "effect", E.EV_CAN: "can_rattles", E.EV_SEARCH: "search_candidate"}
    out = []
    for event, rnd, actor, a, b, c in log.tolist():
        rec = {"event": names[event], "round": rnd, "actor": "frogman" if actor == 0 else f"artillery {actor}"}
        if event in (E.EV_START, E.EV_PLACE, E.EV_BOTTLE, E.EV_MINE, E.EV_BOOM, E.EV_DEATH, E.EV_CAN):
            rec["point"] = L[a]
        elif event in (E.EV_STEP, E.EV_HIDDEN_STEP):
            rec |= {"direction": a, "point": L[b], "public_set_size": c}
        elif event == E.EV_FSHOT:
            rec |= {"direction": a, "hit": f"artillery {b}" if b > 0 else None, "public_set_size": c}
        elif event == E.EV_PASS:
            rec |= {"point": L[a], "public_set_size": c}
        elif event == E.EV_AMOVE:
            rec |= {"from": L[a], "to": L[b]}
        elif event == E.EV_ASHOT:
            rec |= {"direction": a, "hit": bool(b), "public_set_size": c}
        elif event == E.EV_CATCH:
            rec |= {"point": L[a], "right": bool(b), "public_set_size": c}
        elif event == E.EV_TURN_END:
            rec |= {"frogman_point": L[a], "public_set": _set_labels(board, b, c)}
        elif event == E.EV_END:
            rec |= {"winner": "frogman" if a == 0 else "artillery", "reason": REASONS[b]}
        elif event == E.EV_DRAW:
            rec |= {"card": rules.deck[a].name, "kind": "event" if b else "item", "shown": bool(b)}
        elif event == E.EV_EFFECT:
            rec |= {"effect": EFFECTS[a], "amount": b, "result": c,
                    "takes_effect": not (EFFECTS[a] == "traitor" and actor == 0)}
        elif event == E.EV_SEARCH:
            rec |= {"code": a, "wins": b, "rollouts": c}
        out.append(rec)
    return out


def _search_line(rows: list, last: int, who: str) -> str:
    """A search decision (the EV_SEARCH rows ending at ``last``): each candidate's estimated win rate
    for the seat's side, its wins and rollouts n, and the one taken."""
    from sim.games.island_nation import engine as E
    from sim.games.island_nation.search import CHOSEN

    first = last
    while first > 0 and rows[first - 1][0] == E.EV_SEARCH and rows[first - 1][2] == rows[last][2]:
        first -= 1
    parts, taken = [], ""
    for _, _, actor, code, wins, n in rows[first:last + 1]:
        name = _candidate_name(actor, code % CHOSEN)
        parts.append(f"{name} {wins / n:.2f} ({wins}/{n})")
        taken = name if code >= CHOSEN else taken
    return f"round {rows[last][1]}: {who} searches: " + ", ".join(parts) + f" -> {taken}"


def _candidate_name(actor: int, code: int) -> str:
    """A search candidate's code in words: the frogman's step direction or stop; an artillery's action."""
    from sim.games.island_nation.search import STOP
    from sim.games.island_nation.state import CATCH_ACTION, DRAW, END, MOVE, SHOOT

    if actor == 0:
        return "stop" if code == STOP else f"step {code + 1}"
    action, d = divmod(code, 8)
    return {END: "end", MOVE: f"move {d + 1}", SHOOT: f"shoot {d + 1}", CATCH_ACTION: "catch", DRAW: "draw"}[action]


# ----------------------------------------------------------------------------------------- exit standing
def on_exit_as_window_opens(board, log: np.ndarray, evac_from: int) -> int:
    """One game's log: 1 if the frogman stands on an evac point when the window opens (its point at the end of the
    last turn before round ``evac_from``, the point its first window turn starts from: IN-WIN-F1), 0 if it stands
    elsewhere, -1 if the game ended before the window."""
    from sim.games.island_nation import engine as E

    point, reached = -1, False
    for event, rnd, _actor, a, _b, _c in log.tolist():
        if event == E.EV_TURN_END and rnd < evac_from:
            point = a
        elif rnd >= evac_from and event != E.EV_END:
            reached = True
            break
    if not reached or point < 0:
        return -1
    return int(board.is_evac[point])


def exit_standing(rules, policy: np.ndarray, seed: int, n_games: int) -> dict:
    """How often the frogman stands on an exit as the window opens (IN-WIN-F1's reading decides what that is worth),
    and how often it then wins: games 0..n_games-1 of run ``seed``, one traced game at a time. Rates with 95 %
    Wilson intervals: ``standing`` of all games, ``wins_when_standing`` of those games."""
    from sim.games.island_nation.batch import play_rows
    from sim.games.island_nation.board import board_for

    board = board_for(rules)
    stood = won = reached = 0
    for i in range(n_games):
        games, _, log = play_rows(rules, board, policy, seed, i, 1, 4096)
        state = on_exit_as_window_opens(board, log, rules.evac_from)
        reached += state >= 0
        if state == 1:
            stood += 1
            won += int(games["winner"][0] == 0)
    return {"games": n_games, "reached_window": reached, "standing": stats.rate(stood, n_games),
            "wins_when_standing": stats.rate(won, stood)}
