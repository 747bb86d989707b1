"""What the bots know is always true: hands played turn by turn through the engine's own functions,
checking every seat's memory after every action (the counter's posterior rests on it)."""

import numpy as np
import pytest
from ocracoke_helpers import NO_LOG, known_row, make_rules, seated

from sim.core.rng import game_stream
from sim.games.ocracoke import engine as E
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke import posterior_tables, rules_array
from sim.games.ocracoke.rules import KRAKEN, pack


def check_memories(S, R):
    """Perfect memories hold only true cards; the kraken-swap pair holds what it claims; the cards the
    posterior places on the ship are there, and the rest of the ship is drawn from its unknown cards."""
    n, n_ship = R[E.PARAMS, E.PLAYERS], R[E.PARAMS, E.N_SHIP]
    at = S[E.AT]
    ship = {int(c) for c in at[:n_ship]}
    for q in range(n):
        known = known_row(S, q)
        mask = known >= 0
        assert np.array_equal(known[mask], at[mask]), f"seat {q} remembers a card that is not there"
        pair = [s for s in range(n_ship) if (S[E.PAIR, q] >> s) & 1]
        ship_any = {c for c in range(11) if (S[E.SHIP_ANY, q] >> c) & 1}
        assert ship_any <= {int(at[s]) for s in pair} or not pair
        E._perfect_memory(S, R, q)  # the perfect memory's posterior, whichever bot sits there
        u, m, oi = bots.posterior(S[E.INFO], R[E.VALUES])
        unknown = {c for c in range(11) if (u >> c) & 1}
        placed = {int(c) for c in known[:n_ship] if c >= 0} | ship_any
        assert placed <= ship, "the posterior's known ship cards are on the ship"
        assert ship - placed <= unknown and len(ship - placed) == m, "the rest of the ship is among the unknown"
        assert oi - bots.SHIFT == sum(int(R[E.VALUES, c]) for c in placed)
        for k in range(R[E.PARAMS, E.HAND_CARDS]):
            h = 8 + 2 * q + k
            assert S[E.MEM + q, h] == at[h], "the naive memory knows its own hand"


def play_hand_checked(S, R, T, rng, start):
    """One hand exactly as engine._play_hand plays it, checking memories after every step."""
    n = R[E.PARAMS, E.PLAYERS]
    E._setup_hand(S, R, rng, NO_LOG)
    check_memories(S, R)
    for rnd in range(1, 4):
        for t in range(n):
            p = (start + t) % n
            may = 1 if rnd >= 2 and not E._holds(S, p, KRAKEN) else 0
            E._view(S, R, p, may)
            bots.turn(R[E.POLICY, p], S[E.INFO], R[E.VALUES], T, rng, S[E.CHOICE])
            if S[E.CHOICE, 0] == bots.DECLARE and may:
                return
            E._act(S, R, T, rng, NO_LOG, p)
            check_memories(S, R)
        i = min(set(range(3)) - {j for j in range(3) if (S[E.PUB, E.ISLAND_UP] >> j) & 1})
        S[E.PUB, E.ISLAND_UP] |= 1 << i
        E._reveal_to_all(S, R, 5 + i)
        check_memories(S, R)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_memories_stay_true_through_every_move(warm, players):
    """OC-ACT-SWAP, OC-ACT-WAVE, OC-KRAKEN-2, OC-MERMAID, OC-ISLAND-1: every public move and reveal keeps
    each seat's memory true, including the 'kraken in one of two slots' knowledge."""
    rules = make_rules(players=players)
    T = posterior_tables(pack(rules))
    kraken_swaps = 0
    for policy in (seated("counter"), seated("random"), seated("random", "counter", "naive", "counter")):
        R = rules_array(rules, np.array(policy))
        S = np.zeros((E.S_ROWS, 16), np.int64)
        for index in range(60):
            rng = game_stream(31, index)
            play_hand_checked(S, R, T, rng, index % players)
            kraken_swaps += int(S[E.PAIR, :players].any())
    assert kraken_swaps > 0, "kraken swaps were exercised"
