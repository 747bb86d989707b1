"""Counterfactual values of the frogman's items and mine timing (issue 14 §2), paired on one game stream.

Game i of seed s is played by the default bots (ghost, hunter) up to the frogman's turn of a sampled round
R (1..``evac_from`` - 1, drawn from (s, i) alone). There the state is copied, and each alternative plays
that turn and the rest of the game from the copy, on the copied random stream:

* ``default``: as the bots play (the engine's own game);
* ``drop <item>``: the frogman loses every card of that item kind before the turn (IN-CARD-2): what
  holding it is worth; only where the frogman holds one;
* ``mine now``: the mine is placed this turn (IN-MINE-1/2) on the path point nearest an artillery
  (ghost's choice without its 4-step bound); only where the ghost would keep it this turn;
* ``mine later``: the mine is kept this turn; only where the ghost places it this turn.

Each alternative's value is its frogman win rate minus the default's over its own eligible games
(a paired difference). The frogman's item use happens inside ``engine.frogman_opens`` and its mine
inside ``frogman_closes``; both are forced here from outside the engine (cards taken from the hand,
the mine count held at 0 during the turn, or the mine placed once the turn has closed: nothing later
in the closing reads it), so the engine itself and its game stream are untouched. Not forced: *when* an item
is used (the ghost uses every usable item at once, IN-CARD-2, so "later" would need the engine's
item loop split) and draws (IN-CARD-1).

    python -m sim.games.island_nation.counterfactual [GAMES] [SEED] [PLAYERS]
"""

from __future__ import annotations

import sys

import numpy as np

from sim.core.jit import njit
from sim.core.rng import seed_stream
from sim.games.island_nation.search import SCRIPTED, _copy, _state, search_context
from sim.games.island_nation.state import FROGMAN, JIT, MINE_AT, MINES_LEFT, OVER, ROUND, WINNER

DEFAULT, MINE_NOW, MINE_LATER = -1, -2, -3  # an alternative >= 0 drops that card kind from the hand
SALT = 0xC0F7AC7


@njit(**JIT)
def _play_until(T, P, st, cx, quiet, last):
    """The default bots' game from its setup up to the frogman's turn of round ``last`` (IN-TURN-1)."""
    SCRIPTED.setup(T, P, st, cx.bots, st.rng, quiet)
    for r in range(1, last):
        st.g[ROUND] = r
        SCRIPTED.frogman_turn(T, P, st, cx.bots, st.rng, quiet)
        if st.g[OVER] == 1:
            return
        SCRIPTED.artillery_turns(T, P, st, cx.rollout_bots, st.rng, quiet, cx.density, np.int64(0))
        if st.g[OVER] == 1:
            return
    st.g[ROUND] = last


@njit(**JIT)
def _play_on(T, P, st, cx, quiet):
    """The rest of the game from the artillery's turns of this round, the default bots on the game's own
    stream (not the search's rollouts, whose turns draw from keyed streams): the default arm is the
    engine's game."""
    SCRIPTED.artillery_turns(T, P, st, cx.rollout_bots, st.rng, quiet, cx.density, np.int64(0))
    if st.g[OVER] == 0:
        SCRIPTED.play_rounds(T, P, st, cx.rollout_bots, st.rng, quiet, cx.density, st.g[ROUND] + 1)


@njit(**JIT)
def _mine_nearest(st, n_path):
    """IN-MINE-2: the path point nearest a living loyal artillery (``st.threat``, made at the turn's opening)."""
    best = st.path[0]
    for i in range(n_path):
        if st.threat[st.path[i]] < st.threat[best]:
            best = st.path[i]
    return best


@njit(**JIT)
def _forced_turn(T, P, st, cx, quiet, alt):
    """The frogman's turn (``engine.frogman_turn``) with the alternative ``alt`` forced."""
    bots = cx.bots
    mines = st.g[MINES_LEFT]
    if alt >= 0:
        st.hand[0, alt] = 0
    if alt == MINE_LATER:
        st.g[MINES_LEFT] = 0
    start, hidden, ap, spent, shots, draws, m0, m1 = SCRIPTED.frogman_opens(T, P, st, bots, st.rng, quiet)
    if st.g[OVER] == 0:
        st.path[0] = start
        spent, n_path = SCRIPTED.frogman_walks(T, P, st, bots, st.rng, quiet, start, hidden, ap, spent, shots, draws,
                                               np.int64(1), m0, m1)
        if st.g[OVER] == 0:
            SCRIPTED.frogman_closes(T, P, st, bots, st.rng, quiet, start, hidden, ap, spent, shots, draws, n_path,
                                    m0, m1)
            if alt == MINE_NOW and st.g[MINES_LEFT] > 0:
                st.g[MINES_LEFT] -= 1
                st.g[MINE_AT] = _mine_nearest(st, n_path)
    if alt == MINE_LATER:
        st.g[MINES_LEFT] = mines


@njit(**JIT)
def _play_from(T, P, st, cx, quiet, alt):
    """Round R's frogman turn with ``alt`` forced, then the default bots to the end. Returns (frogman
    won, the mine placed in that turn)."""
    mines = st.g[MINES_LEFT]
    _forced_turn(T, P, st, cx, quiet, alt)
    placed = st.g[MINES_LEFT] < mines
    if st.g[OVER] == 0:
        _play_on(T, P, st, cx, quiet)
    return st.g[WINNER] == FROGMAN, placed


@njit(**JIT)
def _eligible(st, alt, placed):
    """Whether ``alt`` differs from the default in this state (``placed``: the default mined this turn)."""
    if alt >= 0:
        return st.hand[0, alt] > 0
    if alt == MINE_NOW:
        return st.g[MINES_LEFT] > 0 and not placed
    return placed


@njit(**JIT)
def _values(T, P, st, st_b, rs, rs_b, cx, quiet, rounds, alts, out):
    """``out[i]``: the sampled round (0 if the game ended before it), the default's frogman win, then
    each alternative's frogman win (-1 where not eligible)."""
    for i in range(out.shape[0]):
        seed_game(st, cx, i)
        _play_until(T, P, st, cx, quiet, rounds[i])
        out[i, :] = -1
        out[i, 0] = 0 if st.g[OVER] == 1 else rounds[i]
        if st.g[OVER] == 1:
            continue
        _copy(rs_b, st_b)
        won, placed = _play_from(T, P, rs, cx, quiet, np.int64(DEFAULT))
        out[i, 1] = won
        for j in range(alts.shape[0]):
            if _eligible(st, alts[j], placed):
                _copy(rs_b, st_b)
                out[i, 2 + j] = _play_from(T, P, rs, cx, quiet, alts[j])[0]


@njit(**JIT)
def seed_game(st, cx, i):
    """Game ``cx.index + i`` on its own stream: the engine's (seed, game index)."""
    seed_stream(st.rng, cx.seed, cx.index + i)


def sampled_rounds(seed: int, start: int, count: int, last: int) -> np.ndarray:
    """The round of each game's sampled decision, 1..``last``, from (seed, game index) alone."""
    return np.array([np.random.default_rng([seed, start + i, SALT]).integers(1, last + 1)
                     for i in range(count)], dtype=np.int64)


def alternatives(rules) -> list[tuple[str, int]]:
    """The forced alternatives: dropping each item kind the frogman uses (heal, bullets, extra action
    points: the bots never use radar as the frogman, IN-CARD-2), mine now, mine later."""
    items = [(f"drop {c.name} ({c.effect})", i) for i, c in enumerate(rules.deck)
             if c.kind == "item" and c.effect in ("heal", "bullets", "extra_ap")]
    return items + [("mine now", MINE_NOW), ("mine later", MINE_LATER)]


def play_values(rules, seed: int, start: int, count: int) -> np.ndarray:
    """``_values``'s table for games ``start`` .. ``start + count - 1`` with the default bots."""
    from sim.games.island_nation import GAME
    from sim.games.island_nation.board import board_for
    from sim.games.island_nation.engine import LOG_WIDTH
    from sim.games.island_nation.tables import params_for, tables_for

    T = tables_for(board_for(rules), rules.shot_range)
    P = params_for(rules)
    st, st_b = _state()
    rs, rs_b = _state()
    cx = search_context(np.asarray(GAME.policy_array(rules), dtype=np.int64), seed)
    cx.index = start
    alts = np.array([code for _, code in alternatives(rules)], dtype=np.int64)
    out = np.empty((count, 2 + len(alts)), dtype=np.int64)
    quiet = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    _values(T, P, st, st_b, rs, rs_b, cx, quiet, sampled_rounds(seed, start, count, rules.evac_from - 1), alts, out)
    return out


def value_table(rules, out: np.ndarray) -> list[tuple[str, int, float, float, float, float]]:
    """Per alternative: (name, n eligible, default's frogman win rate on them, the alternative's, paired
    difference, half-width of its 95 % interval (normal, per-game differences))."""
    rows = []
    for j, (name, _) in enumerate(alternatives(rules)):
        ok = out[:, 2 + j] >= 0
        d = (out[ok, 2 + j] - out[ok, 1]).astype(float)
        n = int(ok.sum())
        half = 1.96 * d.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
        rows.append((name, n, float(out[ok, 1].mean()) if n else float("nan"),
                     float(out[ok, 2 + j].mean()) if n else float("nan"), float(d.mean()) if n else float("nan"), half))
    return rows


def main(games: int = 20_000, seed: int = 2026, players: int = 5) -> None:
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME

    rules = load_scenario(GAME.name, GAME.rules_model, "base", [f"players={players}"]).rules
    out = play_values(rules, seed, 0, games)
    print(f"base, {players} players, seed {seed}, games 0-{games - 1}; {int((out[:, 0] > 0).sum()):,} reached their round\n")
    print("| alternative | n | frogman wins, default | forced | difference [95 % CI] |")
    print("| --- | --- | --- | --- | --- |")
    for name, n, base, alt, diff, half in value_table(rules, out):
        print(f"| {name} | {n:,} | {100 * base:.1f} % | {100 * alt:.1f} % | "
              f"{100 * diff:+.1f} pp [{100 * (diff - half):+.1f}, {100 * (diff + half):+.1f}] |")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
