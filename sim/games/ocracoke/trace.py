"""One Ocracoke game told as a readable log, replayed by the very code that plays batches."""

from __future__ import annotations

import numpy as np

from sim.core.game import Trace
from sim.games.ocracoke import engine as E
from sim.games.ocracoke.policies import ACTION_NAMES, DECLARE, HAND0, ISLAND0, PEEK, SPY, SWAP
from sim.games.ocracoke.rules import OcracokeRules, card_name, card_values, dial_name

LOG_ROWS = 50_000


def location_name(loc: int) -> str:
    if loc < ISLAND0:
        return f"ship slot {loc}"
    if loc < HAND0:
        return f"island slot {loc - ISLAND0}"
    q, k = divmod(loc - HAND0, 2)
    return f"seat {q}'s hand" + (f" card {k}" if k else "")


def move_name(act: int, x: int, y: int, z: int) -> str:
    """A turn's move (policies.turn's choice format) in words."""
    text = ACTION_NAMES[act]
    if act == PEEK:
        text += f" ship slots {x} and {y}"
    elif act == SWAP:
        text += f" hand card {z} with ship slot {x}" + (f" (kraken: takes slots {x} and {y})" if y >= 0 else "")
    elif act not in (SPY, DECLARE):
        text += f" hand card {z} → ship slot {x} → island slot {y} → hand"
    return text


def _candidate(a: int, b: int, c: int, d: int, e: int, f: int) -> str:
    """One L_SEARCH row (search._log_candidates): the move, its mean win share over its rollouts."""
    x, y, z = c % 8 - 1, (c // 8) % 8 - 1, c // 64
    value = f"value {d / (12 * e):.3f} (n {e})" if e else "the only move (not searched)"
    return f"    search, seat {a}: {'→' if f else ' '} {move_name(b, x, y, z)}: {value}"


def _describe(row: np.ndarray, rules: OcracokeRules, values: np.ndarray) -> str | None:
    kind, a, b, c, d, e, f = (int(x) for x in row)
    card = lambda x: card_name(x, values)  # noqa: E731
    if kind == E.L_HAND:
        return f"\n== hand {a}: seat {b} starts =="
    if kind == E.L_DEAL:
        return f"  deal: {location_name(a)} ← {card(b)}"
    if kind == E.L_TURN:
        return f"round {b}, seat {a}: {move_name(c, d, e, f)}"
    if kind == E.L_SEARCH:
        return _candidate(a, b, c, d, e, f)
    if kind == E.L_SEE:
        return f"    seat {a} sees {location_name(b)}: {card(c)}"
    if kind == E.L_LOOK:
        return f"    seat {a} looks at one more ship card (slot {b})"
    if kind == E.L_GHOST:
        return f"    the ghost shows seat {a} one more ship card"
    if kind == E.L_MERMAID:
        return f"    the mermaid's song: seat {a} turns its hand face up"
    if kind == E.L_CANCEL:
        return f"    seat {a} saw the ghost and the mermaid together: no effect"
    if kind == E.L_KRAKEN:
        return (f"    kraken: seat {a} keeps {card(d)}; shuffled back: slot {b} = {card(e)}, "
                f"slot {c} = {card(f)}")
    if kind == E.L_REVEAL:
        return f"  end of round: island slot {a} turned up: {card(b)}"
    if kind == E.L_PASS:
        return f"  seat {a} holds the kraken and may not declare: the next seat must"
    if kind == E.L_DECLARE:
        return f"round {c}, seat {a}: declares ({'forced' if b else 'of its own accord'})"
    if kind == E.L_SUM:
        return f"  the ship is turned up: sum {a:+d}"
    if kind == E.L_DIAL:
        return f"  seat {a} dial: {dial_name(b, rules)}"
    if kind == E.L_PAY:
        parts = [f"{r}+{x}" for r, x in zip("ABCDE", (b, c, d, e, f), strict=True) if x]
        return f"    paid: {' '.join(parts) or 'nothing'}"
    if kind == E.L_TOLL:
        return f"  kraken toll: seat {a} pays seat {b} 1 gold"
    if kind == E.L_END:
        winners = [str(q) for q in range(4) if (a >> q) & 1]
        return f"\ngame over after {b} hands: winner seat(s) {', '.join(winners)}"
    return None


def trace(rules: OcracokeRules, policy: np.ndarray, seed: int, index: int) -> Trace:
    """Replay game ``index`` of the run ``seed`` with the batch kernel, logging every event."""
    from sim.games.ocracoke import play_chunk

    log = np.zeros((LOG_ROWS, E.LOG_WIDTH), np.int64)
    chunk, n_log = play_chunk(rules, policy, seed, index, 1, log)
    values = card_values(rules)
    lines = [f"Ocracoke · seed {seed} · game {index} · {rules.players} players"]
    gold = np.zeros(4, np.int64)
    for row in log[:n_log]:
        text = _describe(row, rules, values)
        if int(row[0]) == E.L_PAY:
            gold[row[1]] += row[2:7].sum()
        if int(row[0]) == E.L_TOLL:
            gold[row[1]] -= 1
            gold[row[2]] += 1
        if text is not None:
            lines.append(text)
        if int(row[0]) == E.L_PAY and row[1] == rules.players - 1:
            lines.append("  gold: " + ", ".join(f"seat {q} {gold[q]}" for q in range(rules.players)))
    if n_log >= LOG_ROWS:
        lines.append(f"(log cut at {LOG_ROWS} events)")
    return Trace(lines, chunk)
