"""The four actions and the special cards, one situation at a time, on tables dealt by hand.

Cards: 0..3 navy +1..+4, 4..7 pirates -1..-4, 8 ghost, 9 mermaid, 10 kraken. Locations: ship 0..4,
island 5..7, hand of seat q at 8 + 2q. Seat 0 plays the counter bot unless said otherwise.
"""

import numpy as np
import pytest
from ocracoke_helpers import NO_LOG, fixed_table, hand, known, learn, make_rules, seated

from sim.games.ocracoke import engine as E
from sim.games.ocracoke.policies import PEEK, SPY, SWAP, WAVE
from sim.games.ocracoke.rules import GHOST, KRAKEN, MERMAID

COUNTER = seated("counter")


@pytest.fixture(scope="module")
def rules(warm):
    return make_rules(players=4)


def deal(rules, ship=(0, 4, 1, 5), island=(2, 6, 3), hands=((7,), (8,), (9,), (10,)), policy=COUNTER):
    return fixed_table(rules, policy, ship, island, hands)


def act(S, R, T, rng, p, action, x=-1, y=-1, z=0):
    S[E.CHOICE, :4] = action, x, y, z
    E._act(S, R, T, rng, NO_LOG, p)


def test_peek_shows_two_ship_cards_in_place(rules):
    """OC-ACT-PEEK: the seat learns two ship cards; nothing moves; others learn nothing."""
    S, R, T, rng = deal(rules)
    before = S[E.AT].copy()
    act(S, R, T, rng, 0, PEEK, 1, 3)
    assert np.array_equal(S[E.AT], before)
    assert known(S, 0) == {1: 4, 3: 5, hand(0): 7}
    assert known(S, 1) == {hand(1): 8}


def test_using_an_action_flips_its_card(rules):
    """OC-ACT-FLIP, OC-SETUP-4: cards start on 正面交鋒 / 刺探軍情; each use flips the card used."""
    S, R, T, rng = deal(rules)
    assert (S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B]) == (0, 0)
    act(S, R, T, rng, 0, PEEK, 0, 1)
    assert (S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B]) == (1, 0)
    act(S, R, T, rng, 1, SPY)
    assert (S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B]) == (1, 1)
    act(S, R, T, rng, 2, SWAP, 0, -1, 0)
    assert (S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B]) == (0, 1)


def test_spy_shows_every_other_hand(rules):
    """OC-ACT-SPY, OC-ASM-OWN: the spy learns all other hands; its own card triggers nothing."""
    S, R, T, rng = deal(rules, hands=((9,), (7,), (6,), (10,)), island=(2, 8, 3))
    act(S, R, T, rng, 0, SPY)
    assert {loc: c for loc, c in known(S, 0).items() if loc >= 8} == {hand(0): 9, hand(1): 7, hand(2): 6,
                                                                       hand(3): 10}
    assert S[E.HAND_UP, 0] == 0, "holding the mermaid oneself does not count as seeing it"


def test_swap_exchanges_hand_and_ship_card_and_looks_once_more(rules):
    """OC-ACT-SWAP: hand and ship card change places unseen; the new hand card is looked at; one more
    ship card is looked at; others who knew either card follow the move."""
    S, R, T, rng = deal(rules)
    act(S, R, T, rng, 1, SPY)  # seat 1 now knows seat 0's hand (pirate -4, card 7)
    act(S, R, T, rng, 0, SWAP, 2, -1, 0)
    assert S[E.AT, 2] == 7 and S[E.AT, hand(0)] == 1
    k0 = known(S, 0)
    assert k0[hand(0)] == 1 and k0[2] == 7
    assert len([loc for loc in k0 if loc < 5 and loc != 2]) == 1, "exactly one more ship card looked at"
    assert known(S, 1).get(2) == 7 and hand(0) not in known(S, 1), "seat 1 follows its known card"


def test_wave_moves_hand_to_ship_to_island_to_hand(rules):
    """OC-ACT-WAVE: hand -> ship slot, that ship card -> island slot face down, island card -> hand."""
    S, R, T, rng = deal(rules)
    S[E.PUB, E.ISLAND_UP] = 0b010  # island slot 1 is face up: everyone knows it
    for q in range(4):
        learn(S, q, 6)
    act(S, R, T, rng, 0, SPY)  # flip card B to 巨浪來襲
    act(S, R, T, rng, 2, WAVE, 3, 1, 0)
    assert (S[E.AT, 3], S[E.AT, 6], S[E.AT, hand(2)]) == (9, 5, 6)
    assert S[E.PUB, E.ISLAND_UP] == 0, "the island slot receives the ship card face down"
    assert known(S, 1)[hand(2)] == 6, "a face-up island card taken into a hand stays known to all"
    assert known(S, 0)[3] == 9, "seat 0 had seen seat 2's hand: it follows it to the ship"
    assert known(S, 2)[hand(2)] == 6


def test_new_hand_card_never_triggers(rules):
    """OC-ACT-NEWHAND: taking the ghost or the mermaid into one's hand triggers nothing."""
    S, R, T, rng = deal(rules, ship=(1, 8, 4, 5), island=(2, 6, 3), hands=((7,), (0,), (9,), (10,)))
    S[E.PUB, E.FACE_A] = 1
    act(S, R, T, rng, 0, SWAP, 1, -1, 0)  # takes the ghost
    assert S[E.AT, hand(0)] == GHOST
    assert sorted(loc for loc in known(S, 0) if loc < 5) == [0, 1], "only the swap's own extra look"
    S, R, T, rng = deal(rules, ship=(1, 9, 4, 5), island=(2, 6, 3), hands=((7,), (0,), (8,), (10,)))
    S[E.PUB, E.FACE_A] = 1
    act(S, R, T, rng, 0, SWAP, 1, -1, 0)  # takes the mermaid
    assert S[E.AT, hand(0)] == MERMAID and S[E.HAND_UP, 0] == 0


def test_ghost_shows_one_more_ship_card(rules):
    """OC-GHOST, OC-ASM-EXTRA: seeing the ghost while peeking shows a third ship card."""
    S, R, T, rng = deal(rules, ship=(8, 4, 1, 5), island=(2, 6, 3), hands=((7,), (0,), (9,), (10,)))
    act(S, R, T, rng, 0, PEEK, 0, 1)
    assert sorted(loc for loc in known(S, 0) if loc < 5) == [0, 1, 2]


def test_ghost_in_a_hand_seen_by_spying(rules):
    """OC-GHOST: the ghost seen in another hand while spying shows one ship card."""
    S, R, T, rng = deal(rules, ship=(1, 4, 3, 5), hands=((7,), (8,), (0,), (10,)), island=(2, 6, 9))
    act(S, R, T, rng, 0, SPY)
    assert len([loc for loc in known(S, 0) if loc < 5]) == 1


def test_ghost_in_the_swap_look(rules):
    """OC-GHOST: the ghost seen in the look after a swap shows one more ship card."""
    S, R, T, rng = deal(rules, ship=(0, 8, 1, 5), island=(2, 6, 3), hands=((7,), (4,), (9,), (10,)))
    S[E.PUB, E.FACE_A] = 1
    act(S, R, T, rng, 0, SWAP, 0, -1, 0)  # the counter looks at slot 1 next: the ghost
    assert sorted(loc for loc in known(S, 0) if loc < 5) == [0, 1, 2]


def test_mermaid_turns_the_viewers_hand_up_until_a_swap(rules):
    """OC-MERMAID: seeing the mermaid while peeking shows the viewer's hand to all, until it swaps."""
    S, R, T, rng = deal(rules, ship=(9, 4, 1, 5), island=(2, 6, 3), hands=((7,), (0,), (8,), (10,)))
    act(S, R, T, rng, 0, PEEK, 0, 1)
    assert S[E.HAND_UP, 0] == 1
    assert all(known(S, q)[hand(0)] == 7 for q in range(4))
    act(S, R, T, rng, 0, SWAP, 2, -1, 0)
    assert S[E.HAND_UP, 0] == 0
    assert all(known(S, q).get(2) == 7 for q in range(4)), "the face-up card went to slot 2 in view of all"
    assert all(hand(0) not in known(S, q) for q in (1, 2, 3)), "the new hand card is face down"


def test_ghost_and_mermaid_together_do_nothing(rules):
    """OC-COMBO: the ghost and the mermaid seen in one peek cancel: no extra look, hand stays down."""
    S, R, T, rng = deal(rules, ship=(8, 9, 1, 5), island=(2, 6, 3), hands=((7,), (0,), (4,), (10,)))
    act(S, R, T, rng, 0, PEEK, 0, 1)
    assert S[E.HAND_UP, 0] == 0
    assert sorted(loc for loc in known(S, 0) if loc < 5) == [0, 1]


def test_kraken_swap_keeps_one_and_shuffles_the_other_back(rules):
    """OC-KRAKEN-2, OC-ASM-KRAKEN: the holder takes 2 ship cards, keeps one; the other and the kraken go
    back into those slots at random; all know the kraken is in one of them."""
    slots = set()
    for seed in range(30):
        S, R, T, rng = deal(rules, hands=((10,), (7,), (8,), (9,)))
        rng[:] = np.random.default_rng(seed).integers(1, 2**63, 4).astype(np.uint64)
        S[E.PUB, E.FACE_A] = 1
        act(S, R, T, rng, 0, SWAP, 0, 1, 0)
        kept = S[E.AT, hand(0)]
        assert kept in (0, 4)
        assert sorted(S[E.AT, :2]) == sorted([4 if kept == 0 else 0, KRAKEN])
        slots.add(int(np.flatnonzero(S[E.AT, :2] == KRAKEN)[0]))
        assert all(S[E.SHIP_ANY, q] == 1 << KRAKEN and S[E.PAIR, q] == 0b11 for q in (1, 2, 3))
        assert S[E.SHIP_ANY, 0] == (1 << KRAKEN) | (1 << int(S[E.AT, 0] + S[E.AT, 1] - KRAKEN))
    assert slots == {0, 1}, "the kraken lands in either slot"
