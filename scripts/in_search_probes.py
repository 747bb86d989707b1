"""Per-decision probes of Island Nation's artillery search, round by round (issue 21 §2).

Why: the skill curve's steps (−2.39, −2.40, −1.90, −1.70 points from 512 to 4,096 rollouts) shrink more
slowly than probes of rounds 1–5 forecast (docs/search.md, "How fast an artillery decision converges").
This measures every round, the evacuation window (IN-WIN-F1, rounds 7–10) included.

Game i (``--scenario``, default base, 5 players, both sides searching at ``--level`` rollouts, seed ``--seed``) is played as
the skill curve's level plays it until artillery k's a-th searched decision (two candidates or more)
in round R, with (R, k, a) fixed by i alone: R = 1 + i mod 10, k and a from i's higher digits. There
each candidate is played in ``--worlds`` worlds (spread over the public set as the search spreads them,
``search._spot``; the same worlds and rollout streams for every candidate) and every world's outcome is
kept; the game then goes on with the candidate that won most of them. Offline, a budget B's choice is
the search's rule (most wins, the hunter's choice unless another wins strictly more) on a block of B
worlds spread over the set, judged on the other worlds: its artillery win share minus the hunter's
own choice's, in points per decision. Each game also counts its artillery decisions per round, so
that a per-decision step times decisions per game gives what a step of the budget should move in a
game, round by round.

    python scripts/in_search_probes.py [--games 2000] [--worlds 8192] [--level 256] [--seed 0] [--scenario base]
        [--jobs 2] [--out reports/search/island-nation-probes.json] [--raw probes.pkl [--from-raw]]
    python scripts/in_search_probes.py --raw probes.pkl --worlds 16384 --allocations OUT.json

``--allocations`` compares, on kept outcomes, other ways of spending a decision's rollouts (successive
halving, adaptive stopping) with the search's flat spending (``allocations``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import pickle
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy import stats

from sim.core.jit import njit, recompiled
from sim.core.rng import next_u64, seed_stream, uniform
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME, engine, search
from sim.games.island_nation.board import board_for
from sim.games.island_nation.engine import LOG_WIDTH
from sim.games.island_nation.policies import ARTILLERY_BOTS, FROGMAN_BOTS, artillery_action
from sim.games.island_nation.search import (
    _ORDER,
    _PARTS,
    MAX_CANDIDATES,
    SCRIPTED,
    WORLD_KEY,
    _artillery_candidates,
    _artillery_rollout,
    _copy,
    _search_stream,
    _spot,
    _state,
    sample_world,
    search_context,
)
from sim.games.island_nation.state import ARTILLERY, END, JIT, ONCE, ROUND, WINNER, set_size
from sim.games.island_nation.tables import params_for, tables_for

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 10
# want[]: what game i probes and what the probe found (from W_CODES on: the candidates' codes)
W_ROUND, W_ART, W_ACTION, W_SEEN, W_DONE, W_N, W_OWN, W_SIZE, W_TAKEN, W_CODES = range(10)


@njit(**JIT)
def _probe(T, P, st, rs, st_b, rs_b, cx, quiet, k, ap, spent, shot, can_draw, n, want, outcome):
    """Every candidate of artillery k in every world (``outcome[c, j]``: the artillery win); the most
    winning one is played (the hunter's on ties), as the search would at this many worlds."""
    _search_stream(cx, k + 1)
    _copy(rs_b, st_b)
    seed_stream(rs.rng, next_u64(cx.srng), 0)
    action, d = artillery_action(cx.rollout_bots[1], T, P, k, rs, rs.rng, spent, ap, shot, can_draw)
    own_code = action * 8 + (0 if action == END else d)
    worlds = outcome.shape[1]
    v = uniform(cx.srng)
    size = set_size(st.bel[0], st.bel[1])
    for j in range(worlds):
        world = next_u64(cx.srng)
        cx.rollout_bots[WORLD_KEY] = np.int64(world >> np.uint64(1))
        spot = _spot(v, j, worlds, size)
        for c in range(n):
            _copy(rs_b, st_b)
            seed_stream(rs.rng, world, 0)
            sample_world(P, rs, cx, np.int64(ARTILLERY), rs.rng, spot)
            _artillery_rollout(T, P, rs, cx, quiet, k, cx.codes[c], ap, spent, shot)
            outcome[c, j] = rs.g[WINNER] == ARTILLERY
    own = 0
    for c in range(n):
        if cx.codes[c] == own_code:
            own = c
    best = own
    for c in range(n):
        if outcome[c].sum() > outcome[best].sum():
            best = c
    want[W_DONE], want[W_N], want[W_OWN], want[W_SIZE], want[W_TAKEN] = 1, n, own, size, best
    for c in range(n):
        want[W_CODES + c] = cx.codes[c]
    return cx.codes[best] // 8, cx.codes[best] % 8


@njit(**ONCE)
def _probing_decides(T, P, st, seats, k, rng, log, ap, spent, shot, can_draw):
    """The search's artillery decision, but the one game i probes is probed; every searched decision
    with two candidates or more is counted by round."""
    cx, rs, st_b, rs_b, quiet, want, outcome, per_round = seats
    if cx.searching[1] == 1 and st.traitor[k] == 0:
        n = _artillery_candidates(T, st, cx, k, spent, shot, can_draw)
        if n > 1:
            per_round[st.g[ROUND] - 1] += 1
            if want[W_DONE] == 0 and st.g[ROUND] == want[W_ROUND] and k == want[W_ART]:
                if want[W_SEEN] == want[W_ACTION]:
                    return _probe(T, P, st, rs, st_b, rs_b, cx, quiet, k, ap, spent, shot, can_draw, n, want,
                                  outcome)
                want[W_SEEN] += 1
    return search._artillery_decides(T, P, st, seats[:5], k, rng, log, ap, spent, shot, can_draw)


@njit(**ONCE)
def _frogman_decides(T, P, st, seats, rng, log, start, hidden, ap, spent, shots, draws, n_path, m0, m1):
    """The search's frogman step (the probe's seats carry the search's five and its own three)."""
    return search._frogman_decides(T, P, st, seats[:5], rng, log, start, hidden, ap, spent, shots, draws, n_path,
                                   m0, m1)


PROBED = recompiled(engine, ("play_game", *_ORDER), ONCE, "probed", bots_of=search._bots_of, setup=search._setup,
                    frogman_opens=search._frogman_opens, frogman_decides=_frogman_decides,
                    frogman_closes=search._frogman_closes, artillery_decides=_probing_decides,
                    **{name: getattr(SCRIPTED, name) for name in _PARTS if name not in ("setup", "frogman_opens",
                                                                                        "frogman_closes")})


@njit(**JIT)
def _probe_game(T, P, st, rs, st_b, rs_b, cx, quiet, seed, index, log, density, want, outcome, per_round):
    """Game ``index`` of ``seed`` as ``search._searched_batch`` plays it, with the probe's artillery decider."""
    seats = (cx, rs, st_b, rs_b, quiet, want, outcome, per_round)
    seed_stream(st.rng, seed, index)
    cx.index = index
    cx.decisions[:] = 0
    cx.n_search = 0
    cx.mine_zone[:] = 0
    PROBED.play_game(T, P, st, seats, st.rng, log, density)


def target(i: int, n_art: int, rounds: tuple[int, ...]) -> tuple[int, int, int]:
    """(round, artillery, action) probed in game i."""
    r = len(rounds)
    return rounds[i % r], (i // r) % n_art, (i // (r * n_art)) % 3


def play_chunk(games: range, worlds: int, level: int, seed: int, rounds: tuple[int, ...], scenario: str) -> list[dict]:
    """Each game's probe (its outcomes bit-packed) and searched artillery decisions by round."""
    rules = load_scenario("island-nation", GAME.rules_model, scenario, ["players=5"]).rules
    T = tables_for(board_for(rules), rules.shot_range)
    P = params_for(rules)
    policy = np.array([len(FROGMAN_BOTS), len(ARTILLERY_BOTS), level, level], dtype=np.int64)
    st, st_b = _state()
    rs, rs_b = _state()
    quiet = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    density = np.zeros(T.n, dtype=np.int64)
    rows = []
    for i in games:
        cx = search_context(policy, seed)
        want = np.zeros(W_CODES + MAX_CANDIDATES, dtype=np.int64)
        want[W_ROUND], want[W_ART], want[W_ACTION] = target(i, P.n_art, rounds)
        outcome = np.zeros((MAX_CANDIDATES, worlds), dtype=np.int8)
        per_round = np.zeros(ROUNDS, dtype=np.int64)
        _probe_game(T, P, st, rs, st_b, rs_b, cx, quiet, np.int64(seed), np.int64(i), log, density, want, outcome,
                    per_round)
        row = {"game": i, "round": int(want[W_ROUND]), "per_round": per_round.tolist(),
               "artillery_won": int(st.g[WINNER] == ARTILLERY)}
        if want[W_DONE]:
            n = int(want[W_N])
            row.update(n=n, own=int(want[W_OWN]), size=int(want[W_SIZE]), taken=int(want[W_TAKEN]),
                       codes=want[W_CODES:W_CODES + n].tolist(),
                       bits=np.packbits(outcome[:n].astype(np.uint8), axis=1))
        rows.append(row)
    return rows


def budgets_of(worlds: int) -> tuple[int, ...]:
    """16, 32, ... up to half the worlds (a choice on a block is judged on the others)."""
    return tuple(16 << i for i in range((worlds // 16).bit_length()) if 16 << i <= worlds // 2)


def budget_values(outcome: np.ndarray, own: int, budgets: tuple[int, ...]) -> np.ndarray:
    """Per budget B: the mean, over the blocks of B worlds spread over the set (worlds j ≡ b mod W/B),
    of (the chosen candidate's minus the hunter's choice's artillery win share on the other worlds)."""
    n, worlds = outcome.shape
    out = np.empty(len(budgets))
    for t, b in enumerate(budgets):
        m = worlds // b
        blocks = outcome.reshape(n, b, m)  # world j = row * m + col: block col holds worlds col, col + m, ...
        inside = blocks.sum(axis=1)  # (n, m): wins of each candidate in each block
        total = outcome.sum(axis=1)[:, None]
        outside = (total - inside) / (worlds - b)
        best = np.full(m, own)
        for c in range(n):
            best = np.where(inside[c] > inside[best, np.arange(m)], c, best)
        out[t] = np.mean(outside[best, np.arange(m)] - outside[own]) * 100
    return out


def summarise(rows: list[dict], worlds: int) -> dict:
    probed = [r for r in rows if "bits" in r]
    per_round = np.array([r["per_round"] for r in rows]).mean(axis=0)
    values, sizes = {}, {}
    for r in probed:
        outcome = np.unpackbits(r["bits"], axis=1)[:, :worlds].astype(np.int64)
        values.setdefault(r["round"], []).append(budget_values(outcome, r["own"], budgets_of(worlds)))
        sizes.setdefault(r["round"], []).append(r["size"])
    table = []
    for rnd in sorted(values):
        v = np.array(values[rnd])  # decisions x budgets
        steps = np.diff(v, axis=1)
        half = stats.t.ppf(0.975, len(v) - 1) * steps.std(axis=0, ddof=1) / np.sqrt(len(v))
        table.append({"round": rnd, "decisions": len(v), "per_game": round(float(per_round[rnd - 1]), 3),
                      "set_median": float(np.median(sizes[rnd])),
                      "value_pp": [round(float(x), 3) for x in v.mean(axis=0)],
                      "step_pp": [round(float(x), 4) for x in steps.mean(axis=0)],
                      "step_half_width": [round(float(x), 4) for x in half]})
    game_steps = [sum(t["per_game"] * t["step_pp"][s] for t in table) for s in range(len(budgets_of(worlds)) - 1)]
    return {"budgets": list(budgets_of(worlds)), "worlds": worlds, "games": len(rows), "probed": len(probed),
            "rounds": table, "game_step_pp": [round(x, 3) for x in game_steps]}


def _spread_halves(outcome: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The worlds split into every other one (each half still spread over the public set), each half in
    turn the one choosing (its worlds in van der Corput order, so that any first B of them are spread over
    the set too) and the other the one judging (each candidate's artillery win share on it)."""
    half = outcome.shape[1] // 2
    bits = half.bit_length() - 1
    order = np.array([int(f"{i:0{bits}b}"[::-1], 2) for i in range(half)])
    return [(outcome[:, a::2][:, order], outcome[:, 1 - a::2].mean(axis=1)) for a in (0, 1)]


def _most_wins(wins: np.ndarray, own: int, among) -> int:
    """The search's rule (``search._choose``): the hunter's choice ``own`` unless another wins strictly more."""
    best = own if own in among else among[0]
    for c in among:
        if wins[c] > wins[best]:
            best = c
    return best


def flat(x: np.ndarray, own: int, b: int) -> tuple[int, int]:
    """The search as it is: every candidate on the same first ``b`` worlds; (choice, rollouts)."""
    return _most_wins(x[:, :b].sum(axis=1), own, range(len(x))), len(x) * b


def halving(x: np.ndarray, own: int, b: int) -> tuple[int, int]:
    """Successive halving with flat's rollouts (n × b): ceil(log2 n) rounds, each on new worlds shared by
    the candidates left, the trailing half (ties: the hunter's choice kept) dropped after each."""
    n = len(x)
    rounds = max(1, int(np.ceil(np.log2(n))))
    alive, wins, used, spent = list(range(n)), np.zeros(n), 0, 0
    for r in range(rounds):
        per = n * b // rounds // len(alive)
        wins[alive] += x[alive, used:used + per].sum(axis=1)
        used, spent = used + per, spent + per * len(alive)
        if r < rounds - 1:
            alive = sorted(alive, key=lambda c: (-wins[c], c != own))[:(len(alive) + 1) // 2]
    return _most_wins(wins, own, alive), spent


def adaptive(x: np.ndarray, own: int, start: int, cap: int, z: float) -> tuple[int, int]:
    """Adaptive stopping: every candidate on the first ``start`` worlds, doubled until the leader is ``z``
    paired standard errors ahead of every other candidate, or ``cap`` worlds."""
    b = start
    while True:
        best = _most_wins(x[:, :b].sum(axis=1), own, range(len(x)))
        d = x[best, :b][None, :] - x[:, :b]
        se = d.std(axis=1, ddof=1) / np.sqrt(b)
        ahead = np.delete(d.mean(axis=1) > z * se, best)
        if b >= cap or ahead.all():
            return best, len(x) * b
        b *= 2


ALLOCATIONS = {f"flat {b:,}": (flat, (b,)) for b in (1024, 2048, 4096, 8192)}
ALLOCATIONS |= {f"halving {b:,}": (halving, (b,)) for b in (1024, 2048)}
ALLOCATIONS |= {f"adaptive z={z} from {a:,}": (adaptive, (a, 8192, z)) for a in (512, 1024) for z in (1.0, 1.5, 2.0)}


def allocations(rows: list[dict], worlds: int) -> dict:
    """Per way of spending a decision's rollouts (``ALLOCATIONS``), on every probed decision (both halves
    choosing in turn, ``_spread_halves``): its value (points of artillery win share against the hunter's
    choice), its rollouts as a share of flat 8,192's, and its paired difference from each flat budget."""
    values = {name: [] for name in ALLOCATIONS}
    cost = {name: [] for name in ALLOCATIONS}
    for r in (r for r in rows if "bits" in r):
        outcome = np.unpackbits(r["bits"], axis=1)[:r["n"], :worlds].astype(np.int64)
        halves = _spread_halves(outcome)
        for name, (rule, options) in ALLOCATIONS.items():
            picks = [(rule(x, r["own"], *options), judge) for x, judge in halves]
            values[name].append(np.mean([(judge[c] - judge[r["own"]]) * 100 for (c, _), judge in picks]))
            cost[name].append(np.mean([used for (_, used), _ in picks]))
    flat_cost = np.mean(cost["flat 8,192"])
    out = {}
    for name in ALLOCATIONS:
        v = np.array(values[name])
        against = {}
        for other in (f for f in ALLOCATIONS if f.startswith("flat")):
            d = v - np.array(values[other])
            half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)) if d.any() else 0.0
            against[other] = [round(float(d.mean()), 4), round(float(half), 4)]
        out[name] = {"value_pp": round(float(v.mean()), 4), "rollouts_of_flat_8192": round(np.mean(cost[name]) /
                                                                                             flat_cost, 4),
                     "against_flat": against}
    return {"decisions": len(values["flat 8,192"]), "worlds": worlds, "allocations": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=8192)
    parser.add_argument("--level", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenario", default="base", help="the scenario played, at 5 players")
    parser.add_argument("--rounds", default="1,2,3,4,5,6,7,8,9,10", help="the rounds probed, in turn")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "search" / "island-nation-probes.json")
    parser.add_argument("--raw", type=Path, help="keep every probe's outcomes here (a pickle); with --from-raw, "
                                                 "summarise these instead of playing (the other options as played)")
    parser.add_argument("--from-raw", action="store_true")
    parser.add_argument("--allocations", type=Path, help="with --from-raw (16,384 worlds): compare ways of "
                                                         "spending the rollouts (``allocations``), written here")
    args = parser.parse_args()
    if args.allocations:
        rows = pickle.loads(args.raw.read_bytes())
        result = allocations(rows, args.worlds) | {"raw": args.raw.name, "date": dt.date.today().isoformat()}
        args.allocations.write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(result, indent=1))
        return
    began = time.perf_counter()
    rounds = tuple(int(r) for r in args.rounds.split(","))
    if args.from_raw:
        rows = pickle.loads(args.raw.read_bytes())
    else:
        chunks = [range(a, min(a + 50, args.games)) for a in range(0, args.games, 50)]
        parts = Parallel(n_jobs=args.jobs, verbose=5)(
            delayed(play_chunk)(c, args.worlds, args.level, args.seed, rounds, args.scenario) for c in chunks)
        rows = [r for p in parts for r in p]
        if args.raw:
            args.raw.write_bytes(pickle.dumps(rows))
    summary = summarise(rows, args.worlds)
    summary.update(command=f"python scripts/in_search_probes.py --games {len(rows)} --worlds {args.worlds} "
                           f"--level {args.level} --seed {args.seed} --rounds {args.rounds}"
                           + (f" --scenario {args.scenario}" if args.scenario != "base" else ""),
                   scenario=args.scenario, level=args.level, seed=args.seed, date=dt.date.today().isoformat())
    if not args.from_raw:
        summary["wall_s"] = round(time.perf_counter() - began)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
