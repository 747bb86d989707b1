"""Payout at a declaration: rules A-E recomputed independently for every declaration of a batch, and a
single declaration enumerated exactly and compared with the engine's Monte Carlo estimate."""

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from ocracoke_helpers import NO_LOG, fixed_table, hand, learn, make_rules, seated

from sim.core import stats
from sim.games.ocracoke import engine as E
from sim.games.ocracoke import play
from sim.games.ocracoke.policies import BEST, BEST_DIAL, SHIFT
from sim.games.ocracoke.rules import GHOST, KRAKEN, card_values, dial_bounds


def expected_payouts(rules, ev, q):
    """Rules A-E for seat q of every declaration row, written from the rule text."""
    values = card_values(rules)
    lo, hi = dial_bounds(rules)
    total, dial = ev["ship_sum"], ev[f"dial_{q}"]
    colour = (total != 0) & (dial != 0) & ((lo[dial] > 0) == (total > 0))  # OC-PAY-A
    in_range = colour & (lo[dial] <= total) & (total <= hi[dial])  # OC-PAY-B
    zero = (dial == 0) & (total == 0)  # OC-PAY-C
    matches = np.zeros(total.size, np.int64)  # OC-PAY-D: hand cards of the sum's colour
    for card in range(GHOST):
        held = (ev[f"hand_{q}"] >> card) & 1
        matches += held * ((total != 0) & ((values[card] > 0) == (total > 0)))
    if not rules.hand_match_per_card:
        matches = np.minimum(matches, 1)
    right = in_range | (zero & rules.zero_declaration_bonus)  # OC-ASM-ZERO-E: a right 0 too, when switched on
    own = (ev["declarer"] == q) & (ev["forced"] == 0) & right  # OC-PAY-E
    return {"a": rules.pay_colour * colour, "b": rules.pay_range * in_range, "c": rules.pay_zero * zero,
            "d": rules.pay_hand * matches, "e": rules.pay_declarer * own}


@pytest.mark.parametrize("changes", [dict(players=4), dict(players=3, pay_zero=5, pay_declarer=2),
                                     dict(players=2, hand_match_per_card=False, dial_ranges=[1, 4, 7]),
                                     dict(players=2, pay_colour=2, pay_range=0, pay_hand=3),
                                     dict(players=4, zero_declaration_bonus=True)])
def test_every_payout_follows_rules_a_to_e(warm, changes):
    """OC-PAY-A, OC-PAY-B, OC-PAY-C, OC-PAY-D, OC-PAY-E, OC-DECL-1, OC-ASM-2P-D: random dials cover every
    dial position; each seat's gold by rule equals the rule text's payout."""
    rules = make_rules(**changes)
    ev = play(rules, seated("random", "random", "random", "naive"), 8, 0, 20_000).events["declarations"]
    for q in range(rules.players):
        assert set(np.unique(ev[f"dial_{q}"])) == set(range(rules.n_dials)) or q == 3
        for r, amounts in expected_payouts(rules, ev, q).items():
            assert np.array_equal(ev[f"{r}_{q}"], amounts), (r, q)
    assert (ev["ship_sum"] == 0).any() and (ev["c_0"] > 0).any() and (ev["e_0"] + ev["e_1"] > 0).any()
    zero_declared = [(ev["declarer"] == q) & (ev["forced"] == 0) & (ev[f"dial_{q}"] == 0) & (ev["ship_sum"] == 0)
                     for q in range(rules.players)]
    assert any(z.any() for z in zero_declared)  # the reading is exercised: voluntary right zeros happen
    paid_e = sum(int(ev[f"e_{q}"][z].sum()) for q, z in enumerate(zero_declared))
    assert paid_e == (rules.pay_declarer * sum(int(z.sum()) for z in zero_declared)
                      if rules.zero_declaration_bonus else 0)


def test_the_bots_value_a_right_zero_with_the_bonus_only_as_a_voluntary_declarer(warm):
    """OC-ASM-ZERO-E in the expected-gold tables: switched on, dial 0 is worth C + E to a voluntary declarer, so
    its best expected gold rises where a zero sum is possible; a seat that did not declare values it as before."""
    from sim.games.ocracoke import expected_gold_tables
    from sim.games.ocracoke.rules import pack

    off = expected_gold_tables(pack(make_rules()))
    on = expected_gold_tables(pack(make_rules(zero_declaration_bonus=True)))
    assert np.array_equal(off[..., BEST], on[..., BEST]) and np.array_equal(off[..., BEST_DIAL], on[..., BEST_DIAL])
    assert (on[..., BEST + 1] >= off[..., BEST + 1] - 1e-6).all() and (on[..., BEST + 1] > off[..., BEST + 1]).any()
    assert ((on[..., BEST_DIAL + 1] == 0) & (off[..., BEST_DIAL + 1] != 0)).any()  # some states now pick the 0


SEAT0_HAND, PEEKED = 0, {0: 5, 1: 8}  # seat 0 holds navy +1, has seen pirate -2 and the ghost on the ship


def exact_expectations(rules):
    """Every way the 2 unseen ship cards can be drawn from the 8 cards seat 0 has not seen (all equally
    likely): the exact expected gold (rules A-D, not the declarer) of each dial."""
    values = card_values(rules)
    lo, hi = dial_bounds(rules)
    unseen = [c for c in range(11) if c not in (SEAT0_HAND, *PEEKED.values())]
    combos = list(combinations(unseen, 2))
    gold = []
    for d in range(rules.n_dials):
        total_gold = Fraction(0)
        for pair in combos:
            s = int(values[5] + values[pair[0]] + values[pair[1]])
            colour = s != 0 and d != 0 and (lo[d] > 0) == (s > 0)
            g = (colour * rules.pay_colour + (colour and lo[d] <= s <= hi[d]) * rules.pay_range
                 + (d == 0 and s == 0) * rules.pay_zero + (s > 0) * rules.pay_hand)  # hand is navy +1
            total_gold += g
        gold.append(total_gold / len(combos))
    return gold, unseen


def test_posterior_table_matches_exact_enumeration(warm, rules4):
    """The counter's posterior tables hold the exact best expected gold and dial (OC-PAY-A..C)."""
    gold, unseen = exact_expectations(rules4)
    from sim.games.ocracoke import expected_gold_tables, posterior_tables
    from sim.games.ocracoke.policies import DIAL_BITS, unknown_index
    from sim.games.ocracoke.rules import pack

    T = expected_gold_tables(pack(rules4))
    u = sum(1 << c for c in unseen)
    d_expect = rules4.pay_hand * Fraction(sum(1 for a, b in combinations(unseen, 2)
                                              if card_values(rules4)[[5, a, b]].sum() > 0), 28)
    best = max(range(len(gold)), key=lambda d: (gold[d], -d))
    assert T[u, 2, SHIFT - 2, BEST_DIAL] == best
    assert T[u, 2, SHIFT - 2, BEST] == pytest.approx(float(gold[best] - d_expect), abs=1e-6)
    D = posterior_tables(pack(rules4))
    assert (int(D[unknown_index(u), 2, D.shape[2] // 2 - 2]) >> DIAL_BITS) & 15 == best, "the bots' decision table"


def test_monte_carlo_declaration_agrees_with_exact_enumeration(warm, rules4):
    """Exact expectation vs the engine: 20,000 declarations played by the engine's own _declare from
    random completions of seat 0's information state; seat 0 (counter) sets its dial from what it knows.
    The engine's mean gold for seat 0 must cover the exact value (99.9 % interval)."""
    gold, unseen = exact_expectations(rules4)
    rng_np = np.random.default_rng(2024)
    won = np.empty(20_000, np.int64)
    dials = set()
    one_row = tuple(np.zeros((len(names), 1), dtype) for names, dtype in E.EVENT_BLOCKS)  # one declaration's columns
    for i in range(won.size):
        rest = list(rng_np.permutation(unseen))
        ship = [5, 8, rest[0], rest[1]]
        S, R, T, rng = fixed_table(rules4, [2, 0, 0, 0], ship, rest[2:5], [(SEAT0_HAND,), (rest[5],), (rest[6],),
                                                                           (rest[7],)])
        for slot, card in PEEKED.items():
            assert S[E.AT, slot] == card
            learn(S, 0, slot)
        S[E.GOLD, :] = 0
        E._declare(S, R, T, rng, NO_LOG, 1, 1, one_row, 0, 0, 1, 4)
        won[i] = S[E.GOLD, 0]
        dials.add(int(S[E.DIALS, 0]))
    assert len(dials) == 1, "the information state, hence the dial, is the same every time"
    exact = float(gold[dials.pop()])
    estimate = stats.mean(won, confidence=0.999)
    assert estimate.lo <= exact <= estimate.hi, (exact, estimate)
    assert exact == pytest.approx(max(float(g) for g in gold)), "the counter's dial is the exact best one"
    assert S[E.AT, hand(0)] == SEAT0_HAND


def test_decision_rows_are_shared_only_by_states_with_equal_expectations(warm, rules4):
    """OC-COMP-1 (purple cards worth 0): the decision table keeps one row per unknown_index; every
    set of unknown cards sharing a row has exactly the expected-gold table of the row's first set."""
    from sim.games.ocracoke import expected_gold_tables
    from sim.games.ocracoke.policies import first_unknown_of, unknown_index
    from sim.games.ocracoke.rules import pack

    T = expected_gold_tables(pack(rules4))
    first = {}
    for u in range(T.shape[0]):
        first.setdefault(unknown_index(u), u)
    assert len(first) == T.shape[0] // 2
    for u in range(T.shape[0]):
        i = unknown_index(u)
        assert first[i] == first_unknown_of(i)
        assert np.array_equal(T[u], T[first[i]]), u


def test_a_right_voluntary_zero_declaration_gets_rule_c_and_no_rule_e(warm, rules4):
    """OC-PAY-C, OC-PAY-E, OC-ASM-ZERO-E: the voluntary declarer who knows the ship sums to 0 sets dial 0 and
    gets rule C's 3 gold; rule E (colour and range right) does not add 1, as 0 is neither colour."""
    S, R, T, rng = fixed_table(rules4, [2, 2, 2, 2], ship=[0, 4, 1, 5], island=[2, 6, 3], hands=[[7], [8], [9], [10]])
    for s in range(4):
        learn(S, 0, s)
    ev = tuple(np.zeros((len(names), 4), dtype) for names, dtype in E.EVENT_BLOCKS)
    E._declare(S, R, T, rng, NO_LOG, 0, 0, ev, 0, 0, 1, 2)
    assert S[E.DIALS, 0] == 0
    assert S[E.PAID + 2, 0] == rules4.pay_zero and S[E.PAID + 4, 0] == 0
    assert S[E.PAID + 0, 0] == 0 and S[E.PAID + 1, 0] == 0


@pytest.mark.parametrize("toll", [False, True])
def test_oc_var_toll_the_krakens_holder_pays_the_declarer(warm, toll):
    """OC-VAR-TOLL (house rule ``kraken_toll``, scenarios/ocracoke/kraken-toll.toml): after the payout
    the seat holding the kraken pays the declarer 1 gold; with the rule off (the default) nothing more
    moves than rules A-E pay."""
    rules = make_rules(kraken_toll=toll)
    S, R, T, rng = fixed_table(rules, seated("counter", "counter", "counter", "counter"), ship=[0, 4, 1, 5],
                               island=[2, 6, 3], hands=[[7], [8], [KRAKEN], [9]])
    S[E.GOLD, :4] = [1, 2, 3, 0]
    before = S[E.GOLD, :4].copy()
    ev = tuple(np.zeros((len(names), 4), dtype) for names, dtype in E.EVENT_BLOCKS)
    E._declare(S, R, T, rng, NO_LOG, 0, 0, ev, 0, 0, 1, 2)
    expected = before + S[E.PAID:E.PAID + 5, :4].sum(axis=0)
    if toll:
        expected[2] -= 1
        expected[0] += 1
    assert S[E.GOLD, :4].tolist() == expected.tolist()


def test_oc_var_toll_never_takes_the_holder_below_zero(warm):
    """OC-VAR-TOLL: a kraken holder without gold pays nothing."""
    rules = make_rules(kraken_toll=True)
    S, R, T, rng = fixed_table(rules, seated("counter", "counter", "counter", "counter"), ship=[0, 4, 1, 5],
                               island=[2, 6, 3], hands=[[7], [8], [KRAKEN], [9]])
    S[E.GOLD, :4] = [1, 2, 0, 0]
    E._kraken_toll(S, NO_LOG, 4, 0)
    assert S[E.GOLD, :4].tolist() == [1, 2, 0, 0]
    S[E.GOLD, 2] = 1
    E._kraken_toll(S, NO_LOG, 4, 0)
    assert S[E.GOLD, :4].tolist() == [2, 2, 0, 0]
