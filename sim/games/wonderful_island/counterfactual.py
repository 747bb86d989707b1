"""Paired counterfactual values for The Wonderful Island: what a venue, a card, a character, a jailing or a
hospital stay is worth, measured by re-playing the same games with one thing changed.

Every game i of a run with seed s is first played as is (the base) and then again from the same stream
game_stream(s, i) with one forced change (engine.run_forced); the two are identical up to the change, so the
per-game difference measures the change alone and its paired interval is narrow (stats.paired_difference).

- venues: at one campaign decision sampled uniformly among the base game's campaign turns, the candidate is made
  to take venue X; value = P(the candidate wins | X forced) - P(it wins | the bot's own choice), per X and per
  support cards in the candidate's hand (``support_in_hand``: 0-1 / 2-3 / 4+; ``sim run``'s ``support_cards`` are
  the cards settled on the venue). Every venue is forced at every
  sampled decision, so the buckets hold the same decisions for all six and rows compare: ``vs_rally`` is X against
  a rally forced at the same decisions; ``when_chosen_vs_rally`` the same over the decisions where the bot chose X
  (where X "pays", this is positive).
- cards: every copy of one card kind leaves the deck; value = a camp's win rate with the card less without it.
- characters: one seat (sampled) is given character X instead of its own pick; value = the seat's win rate with X
  less with its own pick.
- jail and hospital: the first jailing (hospital stay) of a game is spared; decisive = the winning camps change.
- debate answers: at one sampled campaign decision the TV debate is held, and one sampled seat's answer to the
  invitation is forced (debate / decline); value = P(the seat wins | it debates) - P(it wins | it declines), split
  by the bot's own answer: where the bot debates the value should not be negative, where it declines not positive.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import polars as pl
import typer

from sim.core import stats
from sim.core.errors import UserError
from sim.core.rng import game_stream, randbelow
from sim.core.scenario import load_scenario
from sim.games.wonderful_island import engine
from sim.games.wonderful_island.catalogue import load_catalogue
from sim.games.wonderful_island.doc_tables import save
from sim.games.wonderful_island.rules import VENUE_NAMES, VENUES, WonderfulIslandRules
from sim.games.wonderful_island.state import FORCE_ACCEPT, FORCE_DECLINE, MAX_PLAYERS, SUPPORT_BUCKETS

SAMPLE_SALT = 0x1616  # the sampled decision and seat come from their own stream (seed + salt, game index)
DEBATER_SALT = 0x0DEB  # the debater whose answer is forced: another stream, apart from the decision's
CAMP_COLS = {"blue": engine.O_WIN_BLUE, "green": engine.O_WIN_GREEN, "politician": engine.O_WIN_POL}


def _won(rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Whether the given seat of each game won (0 where the seat is -1)."""
    idx = np.arange(rows.shape[0])
    col = engine.O_SEAT + np.maximum(seats, 0) * engine.NSF + 2
    return np.where(seats >= 0, rows[idx, col], 0).astype(np.float64)


def _paired(x: np.ndarray, y: np.ndarray) -> dict:
    """y - x over paired games: value, 95 % interval, n, p-value (a paired t interval)."""
    n = int(x.size)
    if n < 2:
        return {"value": float("nan"), "lo": float("nan"), "hi": float("nan"), "n": n, "p_value": float("nan")}
    diff, _ = stats.paired_difference(n, float(x.sum()), float(y.sum()), float((x * x).sum()), float((y * y).sum()),
                                      float((x * y).sum()))
    return {"value": diff.diff, "lo": diff.lo, "hi": diff.hi, "n": n, "p_value": diff.p_value}


def _draws(seed: int, n_games: int, bounds: np.ndarray) -> np.ndarray:
    """One uniform draw in [0, bounds[i]) per game from the stream (seed + SAMPLE_SALT, i)."""
    return np.array([randbelow(game_stream(seed + SAMPLE_SALT, i), max(1, int(b))) for i, b in enumerate(bounds)],
                    dtype=np.int64)


def _no_force(n: int) -> np.ndarray:
    force = np.zeros((n, len(engine.FORCE_FIELDS)), dtype=np.int64)
    force[:, 2] = -1  # no forced character (a debater's answer: FORCE_OWN, 0)
    return force


def venue_values(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, n_games: int) -> pl.DataFrame:
    """Each venue forced at one sampled campaign decision per game, against the bot's own choice (paired)."""
    base, _, _ = engine.run_batch(rules, policy, seed, 0, n_games)
    turns = base[:, engine.O_TURNS]
    force = _no_force(n_games)
    force[:, 0] = 1 + _draws(seed, n_games, turns)
    force[:, 1] = -1
    _, seen, _ = engine.run_forced(rules, policy, seed, 0, force)  # the decision as the bot takes it
    cand, own = seen[:, 0], seen[:, 2]
    bucket = np.digitize(seen[:, 1], [2, 4])
    reached = cand >= 0
    won_base = _won(base, cand)
    won = []
    for v in range(len(VENUES)):
        force[:, 1] = v
        forced, _, _ = engine.run_forced(rules, policy, seed, 0, force)
        won.append(_won(forced, cand))
    rows = []
    for v in range(len(VENUES)):
        for b, label in enumerate(SUPPORT_BUCKETS):
            m = reached & (bucket == b)
            chosen = m & (own == v)
            rally = _paired(won[0][m], won[v][m])
            when = _paired(won[0][chosen], won[v][chosen])
            rows.append({"venue": f"{VENUES[v]} {VENUE_NAMES[v]}", "support_in_hand": label,
                         **_paired(won_base[m], won[v][m]),
                         "vs_rally": rally["value"], "vs_rally_lo": rally["lo"], "vs_rally_hi": rally["hi"],
                         "bot_chooses": float(chosen.sum() / max(1, m.sum())),
                         "when_chosen_vs_rally": when["value"], "when_chosen_vs_rally_lo": when["lo"],
                         "when_chosen_vs_rally_hi": when["hi"], "when_chosen_n": when["n"]})
    return pl.DataFrame(rows)


def card_values(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, n_games: int) -> pl.DataFrame:
    """Each card kind removed from the deck (all its copies), the same games re-played: each camp's win rate with
    the card less without it (positive: the card helps that camp)."""
    cat = load_catalogue(rules.catalogue)
    base, _, _ = engine.run_batch(rules, policy, seed, 0, n_games)
    _, deck0, _ = engine.pack(rules)
    force = _no_force(n_games)
    rows = []
    for k, name in enumerate(cat.card_names):
        without, _, _ = engine.run_forced(rules, policy, seed, 0, force, deck0=deck0[deck0 != k])
        row = {"card": name, "copies": int((deck0 == k).sum())}
        for camp, col in CAMP_COLS.items():
            d = _paired(without[:, col].astype(np.float64), base[:, col].astype(np.float64))
            row.update({f"{camp}_value": d["value"], f"{camp}_lo": d["lo"], f"{camp}_hi": d["hi"]})
        row["n"] = n_games
        rows.append(row)
    return pl.DataFrame(rows).sort("politician_value", descending=True)


def character_values(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, n_games: int) -> pl.DataFrame:
    """Each character given to one sampled seat per game instead of its own pick: the seat's win rate with it less
    with its own pick (paired), overall and by the seat's camp."""
    cat = load_catalogue(rules.catalogue)
    base, _, _ = engine.run_batch(rules, policy, seed, 0, n_games)
    seats = _draws(seed, n_games, np.full(n_games, rules.players))
    won_base = _won(base, seats)
    camp = base[np.arange(n_games), engine.O_SEAT + seats * engine.NSF]
    own_char = base[np.arange(n_games), engine.O_SEAT + seats * engine.NSF + 1]
    force = _no_force(n_games)
    force[:, 2] = seats
    rows = []
    for ch, name in enumerate(cat.char_names):
        force[:, 3] = ch
        forced, _, _ = engine.run_forced(rules, policy, seed, 0, force)
        won = _won(forced, seats)
        row = {"character": name, **_paired(won_base, won)}
        for c, label in enumerate(("blue", "green", "politician")):
            d = _paired(won_base[camp == c], won[camp == c])
            row.update({f"{label}_value": d["value"], f"{label}_lo": d["lo"], f"{label}_hi": d["hi"],
                        f"{label}_n": d["n"]})
        row["picked_by_bots"] = float((own_char == ch).mean())
        rows.append(row)
    return pl.DataFrame(rows).sort("value", descending=True)


def decisiveness(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, n_games: int) -> pl.DataFrame:
    """How often the first jailing (hospital stay) decides the game: the games in which one happened are re-played
    with it spared; decisive when the set of winning camps changes (the politician's seats included)."""
    base, _, _ = engine.run_batch(rules, policy, seed, 0, n_games)
    rows = []
    winners = base[:, engine.O_SEAT + 2:engine.O_SEAT + MAX_PLAYERS * engine.NSF:engine.NSF]
    for what, col, field in (("jail", engine.O_JAILS, 4), ("hospital", engine.O_HOSPS, 5)):
        force = _no_force(n_games)
        force[:, field] = 1  # a game without the event is played unchanged
        again, _, _ = engine.run_forced(rules, policy, seed, 0, force)
        happened = base[:, col] > 0
        changed = (again[:, engine.O_SEAT + 2:engine.O_SEAT + MAX_PLAYERS * engine.NSF:engine.NSF] != winners).any(1)
        k, n = int((changed & happened).sum()), int(happened.sum())
        est = stats.rate(k, n)
        rows.append({"event": f"first {what} spared", "games_with_it": n / n_games, "decisive": est.value,
                     "lo": est.lo, "hi": est.hi, "n": est.n, "decides_games": k / n_games})
    return pl.DataFrame(rows)



def debate_answers(rules: WonderfulIslandRules, policy: np.ndarray, seed: int, n_games: int) -> pl.DataFrame:
    """WI-V-DEBATE-1: one asked seat's answer forced (paired) at a debate held at one sampled campaign
    decision."""
    base, _, _ = engine.run_batch(rules, policy, seed, 0, n_games)
    force = _no_force(n_games)
    force[:, 0] = 1 + _draws(seed, n_games, base[:, engine.O_TURNS])
    force[:, 1] = VENUES.index("tv_debate")
    seats = _draws(seed + DEBATER_SALT, n_games, np.full(n_games, rules.players))
    force[:, 6] = seats
    _, seen, _ = engine.run_forced(rules, policy, seed, 0, force)  # the bot's own answer (0: the seat was not asked)
    own = seen[:, 5]
    won = {}
    for answer in (FORCE_ACCEPT, FORCE_DECLINE):
        force[:, 7] = answer
        forced, _, _ = engine.run_forced(rules, policy, seed, 0, force)
        won[answer] = _won(forced, seats)
    rows = []
    for answer, label in ((FORCE_ACCEPT, "debates"), (FORCE_DECLINE, "declines")):
        m = own == answer
        d = _paired(won[FORCE_DECLINE][m], won[FORCE_ACCEPT][m])
        rows.append({"bot_answer": label, "share_of_answers": float(m.sum() / max(1, (own > 0).sum())),
                     "unit": "pp (debate - decline, the seat's win rate)", "value": 100 * d["value"],
                     "lo": 100 * d["lo"], "hi": 100 * d["hi"], "n": d["n"], "p_value": d["p_value"]})
    return pl.DataFrame(rows)


TABLES = {"venues": venue_values, "cards": card_values, "characters": character_values, "decisive": decisiveness,
          "debates": debate_answers}


def register_cli(app) -> None:
    """Add ``sim wi-values`` (the paired counterfactual tables) to the command line."""
    from sim.core.display import example

    @app.command("wi-values", epilog=example("sim wi-values venues --players 6 --games 5000"))
    def values_command(
        what: Annotated[list[str] | None, typer.Argument(help=f"Tables: {', '.join(TABLES)} (default: all)")] = None,
        players: Annotated[int, typer.Option("--players", "-p", help="Player count (3-8)")] = 6,
        games: Annotated[int, typer.Option("--games", "-n", help="Paired games per table")] = 20_000,
        seed: Annotated[int, typer.Option("--seed", help="Run seed")] = 0,
        scenario: Annotated[str, typer.Option("--scenario", help="Scenario name or TOML file")] = "base",
        out: Annotated[Path | None, typer.Option("--out", help="Also write each table to OUT/NAME.json with the run's "
                                                  "settings (docs quote them: scripts/wi_doc_tables.py)")] = None,
    ) -> None:
        """The Wonderful Island's paired counterfactual values: venues (forced at a sampled decision, by support
        cards), cards (removed from the deck), characters (forced on a seat), jail and hospital (spared)."""
        from sim.games.wonderful_island import GAME

        names = what or list(TABLES)
        for name in names:
            if name not in TABLES:
                raise UserError(f"sim wi-values {name}: expected one of {', '.join(TABLES)}")
        if games < 2:
            raise UserError(f"--games {games}: expected at least 2 paired games")
        rules = load_scenario(GAME.name, GAME.rules_model, scenario, [f"players={players}"]).rules
        policy = GAME.policy_array(rules)
        for name in names:
            frame = TABLES[name](rules, policy, seed, games)
            print_table(f"{name} ({players} players, {games:,} paired games, seed {seed})", name, frame)
            if out is not None:
                print(f"wrote {save(out, name, frame, players, games, seed, scenario)}")


UNITS = {"venues": "pp", "cards": "pp", "characters": "pp", "debates": "pp", "decisive": "%"}
SHARES = ("bot_chooses", "picked_by_bots", "share_of_answers", "games_with_it", "decides_games")


def formatted(name: str, frame: pl.DataFrame) -> pl.DataFrame:
    """A counterfactual table for people: each estimate with its 95 % interval in one cell, in percentage points
    (differences of win rates) or per cent (rates; the debate table is in pp already), shares in per cent."""
    unit = UNITS[name]
    scale = 1.0 if name == "debates" else 100.0
    cells: dict[str, list[str]] = {}
    columns = frame.columns
    for col in columns:
        if col.endswith(("_lo", "_hi")) or col in ("lo", "hi", "p_value", "unit"):
            continue
        plain = col in ("value", "decisive")  # the estimates whose interval is in the columns lo and hi
        stem = col if col == "decisive" else "" if col == "value" else col.removesuffix("_value")
        lo, hi = ("lo", "hi") if plain else (f"{stem}_lo", f"{stem}_hi")
        values = frame[col].to_list()
        if lo in columns and hi in columns:
            sign = "+" if unit == "pp" else ""
            cells[f"{stem or 'value'} [95 %] ({unit})"] = [
                "n/a" if v is None or v != v else f"{scale * v:{sign}.1f} [{scale * a:{sign}.1f}, {scale * b:{sign}.1f}]"
                for v, a, b in zip(values, frame[lo].to_list(), frame[hi].to_list(), strict=True)]
        elif col in SHARES:
            cells[f"{col} (%)"] = [f"{100 * v:.1f}" for v in values]
        else:
            cells[col] = [f"{v:,}" if isinstance(v, int) else str(v) for v in values]
    return pl.DataFrame(cells)


def print_table(title: str, name: str, frame: pl.DataFrame) -> None:
    """Print one table with rich: the formatted cells, right-aligned numbers."""
    from rich.console import Console
    from rich.table import Table

    shown = formatted(name, frame)
    table = Table(title=title, title_justify="left")
    for col in shown.columns:
        table.add_column(col, justify="left" if col in ("venue", "card", "character", "event", "bot_answer",
                                                        "support_in_hand") else "right")
    for row in shown.iter_rows():
        table.add_row(*row)
    Console(width=240).print(table)
