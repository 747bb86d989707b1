"""The batch engine against the plain-Python reference (its own code and its own random.Random):
win rates, hands per game, payouts by rule and role, and the ship's sum agree within sampling error."""

import numpy as np
import pytest
from joblib import Parallel, delayed
from ocracoke_helpers import make_rules
from scipy.stats import chi2_contingency

from sim.core import stats
from sim.core.layout import switchable_rules, switched
from sim.games.ocracoke import play
from sim.games.ocracoke.policies import BOTS
from sim.games.ocracoke.reference import play_games
from sim.games.ocracoke.rules import OcracokeRules

COUNTER, MIX = [2, 2, 2, 2], [0, 1, 2, 2]  # the strongest bot everywhere; every bot in play


def engine_counts(rules, policy, n):
    chunk = play(rules, np.array(policy), 99, 0, n)
    g, ev = chunk.games, chunk.events["declarations"]
    out = {"wins": [int(g[f"win_{q}"].sum()) for q in range(rules.players)],
           "hands": np.bincount(np.minimum(g["hands"], 9), minlength=10),
           "sums": np.bincount(ev["ship_sum"] + 24, minlength=49), "forced": int(ev["forced"].sum())}
    paid = np.zeros((2, 5), np.int64)
    seats = np.zeros(2, np.int64)
    for q in range(rules.players):
        role = (ev["declarer"] != q).astype(int)
        for i, r in enumerate("abcde"):
            np.add.at(paid[:, i], role, ev[f"{r}_{q}"] > 0)
        seats += np.bincount(role, minlength=2)
    out.update(paid=paid, seats=seats, declarations=ev["game"].size)
    return out


def reference_counts(rules, policy, n):
    bots = [BOTS[b] for b in policy[:rules.players]]
    halves = Parallel(n_jobs=2)(delayed(play_games)(rules, bots, n // 2, seed) for seed in (1, 2))
    games = [g for half in halves for g in half]
    decls = [d for g in games for d in g["declarations"]]
    out = {"wins": [sum(q in g["winners"] for g in games) for q in range(rules.players)],
           "hands": np.bincount(np.minimum([g["hands"] for g in games], 9), minlength=10),
           "sums": np.bincount(np.array([d["ship_sum"] for d in decls]) + 24, minlength=49),
           "forced": sum(d["forced"] for d in decls), "declarations": len(decls)}
    paid = np.zeros((2, 5), np.int64)
    seats = np.zeros(2, np.int64)
    for d in decls:
        for q, amounts in enumerate(d["paid"]):
            role = int(q != d["declarer"])
            paid[role] += [a > 0 for a in amounts]
            seats[role] += 1
    out.update(paid=paid, seats=seats)
    return out


def p_values(eng, ref, n):
    ps = [stats.rate_difference(eng["wins"][q], n, ref["wins"][q], n).p_value for q in range(len(eng["wins"]))]
    ps.append(stats.rate_difference(eng["forced"], eng["declarations"], ref["forced"], ref["declarations"]).p_value)
    for role in range(2):
        for i in range(5):
            if eng["paid"][role, i] + ref["paid"][role, i] > 0:
                ps.append(stats.rate_difference(eng["paid"][role, i], eng["seats"][role],
                                                ref["paid"][role, i], ref["seats"][role]).p_value)
    for key in ("hands", "sums"):
        table = np.array([eng[key], ref[key]])
        table = table[:, table.sum(axis=0) > 0]
        ps.append(chi2_contingency(table)[1])
    return ps


@pytest.mark.slow
@pytest.mark.parametrize("players, policy, n", [(4, COUNTER, 100_000), (4, MIX, 10_000), (3, MIX, 8_000),
                                               (2, MIX, 8_000)])
def test_engine_agrees_with_reference(warm, players, policy, n):
    """OC-PAY-A..E, OC-END-1, OC-END-2, OC-ISLAND-2 and the bots: two independent implementations give
    the same distributions (Holm-corrected tests at 1 % family-wise; fixed seeds)."""
    assert_agree(make_rules(players=players), policy, n)


def assert_agree(rules, policy, n):
    eng, ref = engine_counts(rules, policy, n), reference_counts(rules, policy, n)
    ps = p_values(eng, ref, n)
    assert not any(stats.holm(ps, alpha=0.01)), ps
    assert eng["declarations"] >= n and ref["declarations"] >= n


@pytest.mark.slow
@pytest.mark.parametrize("rule", switchable_rules(OcracokeRules))
@pytest.mark.parametrize("players", [2, 4])
def test_engine_agrees_with_reference_with_each_switchable_rule_switched(warm, rule, players):
    """Every on/off rule of OcracokeRules (sim.core.layout.switchable_rules: a new bool field is picked
    up here without a new test), switched from the test rules' setting: engine and reference agree."""
    assert_agree(switched(make_rules(players=players), rule), MIX, 8_000)
