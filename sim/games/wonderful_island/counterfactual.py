"""Paired counterfactual values for The Wonderful Island: what a venue, a card, a character, a jailing or a
hospital stay is worth, measured by re-playing the same games with one thing changed.

Every game i of a run with seed s is first played as is (the base) and then again from the same stream
game_stream(s, i) with one forced change (engine.run_forced); the two are identical up to the change, so the
per-game difference measures the change alone and its paired interval is narrow (stats.paired_difference).

- venues: at one campaign decision sampled uniformly among the base game's campaign turns, the candidate is made
  to take venue X; value = P(the candidate wins | X forced) - P(it wins | the bot's own choice), per X and per
  support cards in the candidate's hand (0-1 / 2-3 / 4+, as the venue statistics). Every venue is forced at every
  sampled decision, so the buckets hold the same decisions for all six and rows compare: ``vs_rally`` is X against
  a rally forced at the same decisions; ``when_chosen_vs_rally`` the same over the decisions where the bot chose X
  (where X "pays", this is positive).
- cards: every copy of one card kind leaves the deck; value = a camp's win rate with the card less without it.
- characters: one seat (sampled) is given character X instead of its own pick; value = the seat's win rate with X
  less with its own pick.
- jail and hospital: the first jailing (hospital stay) of a game is spared; decisive = the winning camps change.
"""

from __future__ import annotations

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
from sim.games.wonderful_island.rules import VENUE_NAMES, VENUES, WonderfulIslandRules
from sim.games.wonderful_island.state import MAX_PLAYERS, SUPPORT_BUCKETS

SAMPLE_SALT = 0x1616  # the sampled decision and seat come from their own stream (seed + salt, game index)
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
    force[:, 2] = -1
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
            rows.append({"venue": f"{VENUES[v]} {VENUE_NAMES[v]}", "support_cards": label,
                         **_paired(won_base[m], won[v][m]),
                         "vs_rally": rally["value"], "vs_rally_lo": rally["lo"], "vs_rally_hi": rally["hi"],
                         "bot_chooses": float(chosen.sum() / max(1, m.sum())),
                         "when_chosen_vs_rally": _paired(won[0][chosen], won[v][chosen])["value"]})
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



TABLES = {"venues": venue_values, "cards": card_values, "characters": character_values, "decisive": decisiveness}


def register_cli(app) -> None:
    """Add ``sim wi-values`` (the paired counterfactual tables) to the command line."""
    @app.command("wi-values")
    def values_command(
        what: Annotated[list[str] | None, typer.Argument(help=f"Tables: {', '.join(TABLES)} (default: all)")] = None,
        players: Annotated[int, typer.Option("--players", "-p", help="Player count (3-8)")] = 6,
        games: Annotated[int, typer.Option("--games", "-n", help="Paired games per table")] = 20_000,
        seed: Annotated[int, typer.Option("--seed", help="Run seed")] = 1,
        scenario: Annotated[str, typer.Option("--scenario", help="Scenario name or TOML file")] = "base",
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
        with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, float_precision=4):
            for name in names:
                typer.echo(f"{name} ({players} players, {games:,} paired games, seed {seed}):")
                typer.echo(str(TABLES[name](rules, policy, seed, games)))
