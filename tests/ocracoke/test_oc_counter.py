"""The counter bot's turn, one situation at a time, on tables dealt by hand (the rules it follows are
the ones the counterfactual action values supported, docs/search.md "What each move is worth").

Cards: 0..3 navy +1..+4, 4..7 pirates -1..-4, 8 ghost, 9 mermaid, 10 kraken. Seat 3 holds the kraken.
"""

import numpy as np
import pytest
from ocracoke_helpers import fixed_table, learn, make_rules, seated

from sim.games.ocracoke import engine as E
from sim.games.ocracoke import play, posterior_tables, rules_array
from sim.games.ocracoke import policies as bots
from sim.games.ocracoke.policies import COUNTER, DECLARE, PEEK, SPY, SWAP
from sim.games.ocracoke.rules import pack

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
    """OC-ROUND-3 (declaring is a choice): with 4 players, a ship slot unknown and its best dial worth less
    than COUNTER_WAITS_BELOW as declarer, counter waits and looks with action card A: 正面交鋒 on the first
    two unknown slots, or 輪番上陣 of its hand card into the first unknown slot."""
    assert declarer_value(rules, 0, seen_slots=CLUES) < bots.COUNTER_WAITS_BELOW, "the situation the test needs"
    assert counter_move(rules, 0, 1, faces=(0, 0), seen_slots=CLUES) == (PEEK, 0, 1)
    assert counter_move(rules, 0, 1, faces=(0, 1), seen_slots=CLUES) == (PEEK, 0, 1)
    assert counter_move(rules, 0, 1, faces=(1, 0), seen_slots=CLUES)[:2] == (SWAP, 0)
    assert counter_move(rules, 0, 1, faces=(1, 1), seen_slots=CLUES)[:2] == (SWAP, 0)
    assert counter_move(rules, 0, 1, faces=(0, 0))[0] == DECLARE, "knowing only its hand it declares"


def test_declares_when_its_dial_is_worth_enough_or_nothing_is_left_to_learn(rules):
    """OC-ROUND-3: it declares when its best dial is worth COUNTER_WAITS_BELOW or more as declarer, and
    with the same clues once it knows the four ship cards, whatever the action cards show."""
    assert declarer_value(rules, 0) >= bots.COUNTER_WAITS_BELOW
    for faces in ((0, 0), (1, 0), (0, 1), (1, 1)):
        assert counter_move(rules, 0, 1, faces=faces)[0] == DECLARE
        assert counter_move(rules, 0, 1, faces=faces, seen_slots=(0, 1, 2, 3) + CLUES)[0] == DECLARE


def view(own, known_cards, ship_known=(), island_up=0b001, players=4):
    """A seat's view built by hand (policies.py's info layout): its hand card ``own``, the other cards whose
    place it knows (``known_cards``), the ship cards among them by slot (``ship_known``, from slot 0), the
    island cards face up (bits); it may declare, of its own accord."""
    info = np.zeros(bots.INFO_LEN, np.int64)
    info[bots.N_SHIP], info[bots.HAND_CARDS] = (5, 1) if players == 3 else (4, 1 if players == 4 else 2)
    info[bots.MAY_DECLARE], info[bots.VOLUNTARY], info[bots.N_DIALS] = 1, 1, 7
    info[bots.ISLAND_UP], info[bots.OWN], info[bots.OWN + 1] = island_up, own, -1
    info[bots.ON_SHIP] = sum(1 << c for c in ship_known)
    info[bots.SLOTS_KNOWN] = (1 << len(ship_known)) - 1
    info[bots.UNKNOWN] = bots.ALL_CARDS & ~sum(1 << c for c in {own, *known_cards, *ship_known})
    info[bots.HIDDEN_ISLAND] = -1
    return info


def worth(rules, info):
    """The view's best expected gold as declarer (rules A, B, C, E) under counter's posterior."""
    from sim.games.ocracoke import expected_gold_tables
    from sim.games.ocracoke.rules import pack

    values = rules_array(rules, seated("counter"))[E.VALUES]
    u, m, oi = bots.posterior(info, values)
    return float(expected_gold_tables(pack(rules))[u, m, oi, bots.BEST + 1])


def waits(rules, info):
    values = rules_array(rules, seated("counter"))[E.VALUES]
    return bool(bots._counter_waits(info, values, posterior_tables(pack(rules))))


def test_the_waiting_rule_on_views_built_by_hand(rules):
    """OC-ROUND-3, OC-ISLAND-1 (docs/search.md, "Waiting"): at 4 players counter waits while its best dial
    is worth less than COUNTER_WAITS_BELOW as declarer and a ship slot is unknown to it; once two island
    cards or more are face up (round 3 on) while it is worth less than COUNTER_WAITS_LATE_BELOW, even knowing
    every ship card; never at a worth of COUNTER_WAITS_LATE_BELOW or more. Own hand: the pirate -4 (card 7)."""
    poor = view(7, (1, 2))  # navy +2 and +3 known, nothing on the ship: 0.93 gold
    assert worth(rules, poor) < bots.COUNTER_WAITS_BELOW, "the situation the test needs"
    assert waits(rules, poor)
    one_slot = view(7, (1, 5), ship_known=(4, 8, 9))  # three ship cards known, one slot left: 0.80 gold
    assert worth(rules, one_slot) < bots.COUNTER_WAITS_BELOW and waits(rules, one_slot)
    edge = view(7, (0, 8))  # exactly COUNTER_WAITS_BELOW: declare
    assert worth(rules, edge) == pytest.approx(bots.COUNTER_WAITS_BELOW) and not waits(rules, edge)
    middling = (7, (0, 4))  # navy +1 and pirate -1 known: 1.14 gold
    assert bots.COUNTER_WAITS_BELOW <= worth(rules, view(*middling)) < bots.COUNTER_WAITS_LATE_BELOW
    assert not waits(rules, view(*middling, island_up=0b001)), "round 2: worth enough, it declares"
    assert waits(rules, view(*middling, island_up=0b011)), "round 3: below the late threshold, it waits"
    assert waits(rules, view(*middling, island_up=0b101)), "any two island cards face up"
    good = (7, (4, 5))  # pirates -1 and -2 known: 1.59 gold
    assert worth(rules, view(*good)) >= bots.COUNTER_WAITS_LATE_BELOW
    assert not waits(rules, view(*good, island_up=0b011)) and not waits(rules, view(*good, island_up=0b111))
    known_ship = view(7, (0, 6), ship_known=(1, 2, 3, 4), island_up=0b011)  # every ship card known
    assert worth(rules, known_ship) >= bots.COUNTER_WAITS_LATE_BELOW and not waits(rules, known_ship)
    for players in (2, 3):
        rules_p = make_rules(players=players)
        for island_up in (0b001, 0b011):
            info = view(7, (1, 2), island_up=island_up, players=players)
            assert worth(rules_p, info) < bots.COUNTER_WAITS_LATE_BELOW, "the situation the test needs"
            assert not waits(rules_p, info), f"{players} players: it never waits"


def test_default_play_reaches_rounds_three_and_four_at_four_players(warm):
    """OC-ROUND-3, OC-ISLAND-2, OC-ASM-FORCED: counter does not always declare at its first chance. Counter
    at every seat, 4 players, 100,000 games: the declarations of the run's rows include round-3 ones and
    forced round-4 ones (about 0.9 % and 0.06 % of them: docs/search.md, "Waiting"), voluntary ones in rounds
    2 and 3 only."""
    chunk = play(make_rules(players=4), seated("counter"), 2026, 0, 100_000)
    ev = chunk.events["declarations"]
    rounds, forced = np.asarray(ev["round"]), np.asarray(ev["forced"])
    assert set(rounds[forced == 0]) == {2, 3}
    assert (rounds[forced == 1] == 4).all()
    assert (rounds == 3).sum() > 1_000 and forced.sum() > 20


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
