"""Ocracoke 迷霧島 (2–4 players): deduce the sum of the ship's cards and bet on it with a dial.

Rules: docs/rules/ocracoke.md. Scenarios: scenarios/ocracoke/. Bots: random, naive, counter, and the
search bot (search.py).
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.core.game import Chunk, GameSpec, SearchBot
from sim.games.ocracoke import analysis
from sim.games.ocracoke import engine as E
from sim.games.ocracoke.engine import EVENT_BLOCKS, EVENT_COLUMNS, GAME_COLUMNS, LOG_WIDTH, R_ROWS, play_batch
from sim.games.ocracoke.policies import (
    BOTS,
    SEARCH,
    VALUES_LEN,
    build_tables,
    decision_table,
    with_subset_sums,
)
from sim.games.ocracoke.rules import OcracokeRules, pack

ROLES = ("0", "1", "2", "3")
SEARCH_BOT = SearchBot(options=(("rollouts", 128, "sampled hidden states per candidate move, each played to the "
                                             "game's end with counter bots"),))
NO_LOG = np.zeros((0, LOG_WIDTH), np.int64)
_SPARE = threading.local()  # per thread: the last blocks handed to play_batch, by name


def _key(packed: dict[str, np.ndarray]) -> tuple:
    return tuple(tuple(int(x) for x in packed[k]) for k in ("values", "dial_lo", "dial_hi", "pay"))


@lru_cache(maxsize=16)
def _expected_gold(key: tuple) -> np.ndarray:
    return build_tables(*(np.array(part, np.int64) for part in key))


def _saved_decisions(key: tuple) -> Path | None:
    """Where the decision table of these rules is kept between runs: beside the compiled code, whose
    folder is named by the sources (``sim/__init__.py``), so an edit to the bots rebuilds it."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
    return Path(folder) / f"ocracoke-decisions-{name}.npy" if folder else None


@lru_cache(maxsize=16)
def _decisions(key: tuple) -> np.ndarray:
    path = _saved_decisions(key)
    if path is not None and path.is_file():
        return np.load(path)
    D = decision_table(_expected_gold(key), np.array(key[0], np.int64))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(partial, D)
        os.replace(partial, path)
    return D


def expected_gold_tables(packed: dict[str, np.ndarray]) -> np.ndarray:
    """The exact expected gold of every information state (policies.build_tables), built once."""
    return _expected_gold(_key(packed))


def posterior_tables(packed: dict[str, np.ndarray]) -> np.ndarray:
    """The bots' decisions in every information state (policies.decision_table), built once per rules."""
    return _decisions(_key(packed))


def rules_array(rules: OcracokeRules, policy: np.ndarray) -> np.ndarray:
    """The rules and the bot of each seat as the engine's int64 array R (rows: see engine.py)."""
    packed = pack(rules)
    packed["values"] = with_subset_sums(packed["values"])
    R = np.zeros((R_ROWS, VALUES_LEN), np.int64)
    for row, key in ((E.PARAMS, "params"), (E.VALUES, "values"), (E.DIAL_LO, "dial_lo"), (E.DIAL_HI, "dial_hi"),
                     (E.PAY, "pay")):
        R[row, :packed[key].size] = packed[key]
    R[E.POLICY, :4] = np.asarray(policy, dtype=np.int64)[:4]
    return R


def _block(name: str, rows: int, columns: int, dtype=np.int64) -> np.ndarray:
    """A (rows, columns) block for play_batch to fill: the last one of this name again when no
    chunk still holds a view of it and it is large enough, else a new one. Memory touched for the first
    time costs the kernel a page fault and a page of zeros each: ~10 % of a chunk's time."""
    spare = getattr(_SPARE, name, None)
    # 3 references when nothing else holds it: the thread-local slot, `spare`, getrefcount's argument
    if spare is None or spare.size < rows * columns or sys.getrefcount(spare) > 3:
        spare = np.empty(rows * columns, dtype)
        setattr(_SPARE, name, spare)
    # always C-contiguous: a (rows, :columns) slice of a wider block is another numba type (layout A),
    # and play_batch would be compiled a second time for it the first time a chunk is smaller
    return spare[: rows * columns].reshape(rows, columns)


def play_chunk(rules: OcracokeRules, policy: np.ndarray, seed: int, start: int, count: int,
               log: np.ndarray = NO_LOG) -> tuple[Chunk, int]:
    """Play games start..start+count-1 of the run ``seed``; also return the number of log rows."""
    R = rules_array(rules, policy)
    T = posterior_tables(pack(rules))
    searching = bool((R[R_ROWS - 1, :4] == SEARCH).any())
    games = _block("games", len(GAME_COLUMNS), count)  # one row per column: the columns are views
    searched = np.zeros(count if searching else 0, np.int64)  # search decisions per game (only with search)
    capacity = 3 * count + 64  # declarations (about 2.4 per game with the base rules)
    while True:
        events = tuple(_block(f"events_{dtype.__name__}", len(names), capacity, dtype)  # the columns are views
                       for names, dtype in EVENT_BLOCKS)
        log[:] = 0
        if searching:  # a separate compiled path: scripted runs never compile or enter the search
            from sim.games.ocracoke.search import play_batch_search

            n_ev, n_log = play_batch_search(seed, start, count, R, T, search_budget(policy), games, events, log,
                                            searched)
        else:
            n_ev, n_log = play_batch(seed, start, count, R, T, games, events, log)
        if n_ev <= capacity:
            break
        capacity = n_ev
    columns = {"game": np.arange(start, start + count, dtype=np.int64)}
    columns.update({name: games[j] for j, name in enumerate(GAME_COLUMNS)})
    bots = _block("bots", 4, count)
    bots[:] = R[R_ROWS - 1, :4, None]
    columns.update({f"bot_{q}": bots[q] for q in range(4)})
    if searching:
        columns["search_decisions"] = searched
    rows = {name: block[j, :n_ev]
            for block, (names, _) in zip(events, EVENT_BLOCKS, strict=True) for j, name in enumerate(names)}
    declarations = {name: rows[name] for name in EVENT_COLUMNS}
    game = _block("declaration_game", 1, capacity)[0, :n_ev]
    declarations["game"] = np.add(rows["game"], np.int64(start), out=game)  # play_batch numbers within the batch
    return Chunk(columns, {"declarations": declarations}), int(n_log)


def search_budget(policy: np.ndarray) -> np.ndarray:
    """The search options per seat, (4, options) int64 (GameSpec.search_options); the defaults when the
    policy array has only the bot of each seat."""
    policy = np.asarray(policy, dtype=np.int64)
    if policy.size == len(ROLES):
        policy = np.concatenate([policy, np.tile([d for _, d, _ in SEARCH_BOT.options], len(ROLES))])
    return np.ascontiguousarray(GAME.search_options(policy))


def play(rules: OcracokeRules, policy: np.ndarray, seed: int, start: int, count: int) -> Chunk:
    return play_chunk(rules, policy, seed, start, count)[0]


def _trace(rules, policy, seed, index):
    from sim.games.ocracoke.trace import trace

    return trace(rules, policy, seed, index)


def _warm_analyses(rules):
    """Compile the analyses' own entry point (issue 14 §2: the counterfactual rows), one game."""
    from sim.games.ocracoke.search import counterfactual_rows

    counterfactual_rows(rules, 0, 0, 1)


GAME = GameSpec(
    name="ocracoke",
    title="Ocracoke 迷霧島",
    rules_model=OcracokeRules,
    player_counts=(2, 3, 4),
    roles=ROLES,
    bots={role: BOTS for role in ROLES},
    default_bots=dict.fromkeys(ROLES, "counter"),
    play=play,
    metrics=analysis.metrics,
    per_game=analysis.per_game,
    tally=analysis.tally,
    tables=analysis.tables,
    trace=_trace,
    description="Deduce the sum of the ship's cards; bet on its colour and range with a dial.",
    extras={"report_figures": analysis.report_figures, "warm_analyses": _warm_analyses},
    search=SEARCH_BOT,
)
