"""The counter bot's turn, one situation at a time, on tables dealt by hand (the rules it follows are
the ones the counterfactual action values supported, docs/search.md "What each move is worth").

Cards: 0..3 navy +1..+4, 4..7 pirates -1..-4, 8 ghost, 9 mermaid, 10 kraken. Seat 3 holds the kraken.
"""

import pytest
from ocracoke_helpers import fixed_table, learn, make_rules

from sim.games.ocracoke import engine as E
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke.policies import COUNTER, DECLARE, PEEK, SPY, SWAP

SHIP, ISLAND, HANDS = (0, 4, 1, 5), (2, 6, 3), ((7,), (8,), (9,), (10,))


@pytest.fixture(scope="module")
def rules(warm):
    return make_rules(players=4)


def counter_move(rules, p, may_declare, faces=(0, 0), seen_slots=()):
    """Seat p's counter move on the dealt table with action cards ``faces`` (0: 正面交鋒 / 刺探軍情 up)
    after it has looked at ``seen_slots``."""
    S, R, T, rng = fixed_table(rules, [COUNTER] * 4, SHIP, ISLAND, HANDS)
    S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B] = faces
    for s in seen_slots:
        learn(S, p, s)
    E._view(S, R, p, may_declare)
    bots.turn(COUNTER, S[E.INFO], R[E.VALUES], T, rng, S[E.CHOICE])
    return tuple(int(x) for x in S[E.CHOICE, :3])


def test_spies_when_it_may_not_declare_and_both_first_faces_are_up(rules):
    """OC-ROUND-2 (round 1: nobody declares), OC-ACT-SPY: with 正面交鋒 and 刺探軍情 up it spies."""
    assert counter_move(rules, 0, 0)[0] == SPY


def test_kraken_holder_spies_too(rules):
    """OC-KRAKEN-1: the kraken's holder may not declare in any round; with both first faces up it spies."""
    assert counter_move(rules, 3, 0)[0] == SPY


def test_with_wave_up_in_round_one_it_peeks(rules):
    """OC-ACT-FLIP: once 刺探軍情 is used, 正面交鋒 (two unknown ship cards) beats 巨浪來襲 (one)."""
    assert counter_move(rules, 0, 0, faces=(0, 1)) == (PEEK, 0, 1)


def declarer_value(rules, p, seen_slots=(), players=4, ship=SHIP, island=ISLAND, hands=HANDS):
    """Seat p's best expected gold as declarer (rules A, B, C, E) under its posterior."""
    from sim.games.ocracoke import expected_gold_tables
    from sim.games.ocracoke.rules import pack

    S, R, T, _ = fixed_table(rules, [COUNTER] * 4, ship, island, hands)
    for s in seen_slots:
        learn(S, p, s)
    E._view(S, R, p, 1)
    u, m, oi = bots.posterior(S[E.INFO], R[E.VALUES])
    return float(expected_gold_tables(pack(rules))[u, m, oi, bots.BEST + 1])


CLUES = (7, 12)  # seat 0 has seen the navy +4 on the island and seat 2's mermaid: a poor posterior


def test_waits_at_four_players_while_declaring_is_worth_little(rules):
    """OC-ROUND-3 (declaring is a choice): with 4 players, two ship slots or more unknown and its best
    dial worth less than COUNTER_WAITS_BELOW as declarer, counter waits and looks with action card A:
    正面交鋒 on the first two unknown slots, or 輪番上陣 of its hand card into the first unknown slot."""
    assert declarer_value(rules, 0, seen_slots=CLUES) < bots.COUNTER_WAITS_BELOW, "the situation the test needs"
    assert counter_move(rules, 0, 1, faces=(0, 0), seen_slots=CLUES) == (PEEK, 0, 1)
    assert counter_move(rules, 0, 1, faces=(0, 1), seen_slots=CLUES) == (PEEK, 0, 1)
    assert counter_move(rules, 0, 1, faces=(1, 0), seen_slots=CLUES)[:2] == (SWAP, 0)
    assert counter_move(rules, 0, 1, faces=(1, 1), seen_slots=CLUES)[:2] == (SWAP, 0)
    assert counter_move(rules, 0, 1, faces=(0, 0))[0] == DECLARE, "knowing only its hand it declares"


def test_declares_when_its_dial_is_worth_enough_or_little_is_left_to_learn(rules):
    """OC-ROUND-3: it declares when its best dial is worth COUNTER_WAITS_BELOW or more as declarer, and
    with the same clues once it knows three of the four ship cards, whatever the action cards show."""
    assert declarer_value(rules, 0) >= bots.COUNTER_WAITS_BELOW
    for faces in ((0, 0), (1, 0), (0, 1), (1, 1)):
        assert counter_move(rules, 0, 1, faces=faces)[0] == DECLARE
        assert counter_move(rules, 0, 1, faces=faces, seen_slots=(0, 1, 2) + CLUES)[0] == DECLARE


@pytest.mark.parametrize("players", [2, 3])
def test_declares_whenever_allowed_with_two_or_three_players(warm, players):
    """OC-ROUND-3: with 2 or 3 players waiting never paid (docs/search.md, "Waiting"): it declares whenever
    allowed, however little it knows."""
    rules = make_rules(players=players)
    if players == 3:
        ship, island, hands, clue = (0, 4, 1, 5, 2), (6, 3, 8), ((7,), (9,), (10,)), 6  # navy +4 on the island
    else:
        ship, island, hands, clue = (0, 4, 1, 5), (2, 6, 3), ((7, 8), (9, 10)), 5  # navy +3 on the island
    assert declarer_value(rules, 0, seen_slots=(clue,), players=players, ship=ship, island=island,
                          hands=hands) < bots.COUNTER_WAITS_BELOW, "the situation the test needs"
    S, R, T, rng = fixed_table(rules, [COUNTER] * 4, ship, island, hands)
    learn(S, 0, clue)
    for faces in ((0, 0), (1, 0)):
        S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B] = faces
        E._view(S, R, 0, 1)
        bots.turn(COUNTER, S[E.INFO], R[E.VALUES], T, rng, S[E.CHOICE])
        assert S[E.CHOICE, 0] == DECLARE


def test_kraken_holder_swaps_it_away_later(rules):
    """OC-KRAKEN-1, OC-KRAKEN-2: unable to declare with 輪番上陣 up, the kraken's holder swaps."""
    assert counter_move(rules, 3, 0, faces=(1, 1))[0] == SWAP
