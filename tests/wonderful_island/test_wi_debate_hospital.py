"""Issue 23, items 9, 11, 12, 14: the debate answer weighs what declining gives the candidate, the walkover needs
nobody *willing* (a willing debater jailed since still counts), the hospital stall, and the trace's wording."""

import numpy as np
import pytest
from wi_helpers import Table, rules

from sim.games.wonderful_island import analysis, engine
from sim.games.wonderful_island import counterfactual as cf
from sim.games.wonderful_island import state as S

BLUE, GREEN, POL = S.BLUE, S.GREEN, S.POLITICIAN


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def test_a_willing_debater_jailed_before_settlement_is_no_walkover(r4):
    """WI-V-DEBATE-3 (若無任何玩家願意參與辯論): a player who agreed to debate and was jailed before settlement was
    still willing: no walkover votes, and nobody is left to debate (no issue is laid)."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    t.give(0, "樁腳動員", "名嘴站台")
    t.seat[1, S.S_DEBATER] = S.DEBATE_WILLING
    engine.jail(t.sp, 1)
    t.settle(0, S.TV_DEBATE)
    assert t.votes(0) == 3 and t.events(S.E_ISSUE) == [] and t.events(S.E_DEBATE) == []
    assert t.seat[0, S.S_HAND_N] == 2


def test_nobody_willing_gives_the_walkover(r4):
    """WI-V-DEBATE-3: nobody willing (decliners turned over, WI-V-DEBATE-10): the candidate gains the 3 votes."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    for q in (1, 2, 3):
        t.seat[q, S.S_DEBATER] = S.DEBATE_TURNED_OVER
    t.settle(0, S.TV_DEBATE)
    assert t.votes(0) == 3 + r4.debate_walkover_votes


def test_a_rival_debates_even_without_cards(r4):
    """WI-V-DEBATE-1/2/3: declining would give a rival candidate a card and maybe the walkover and cost the player
    its action turn; failing the debate costs at most a card and one vote: a rival with an empty hand debates."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    assert t.seat[1, S.S_HAND_N] == 0
    engine.ask_debaters(t.sp, 0)
    asked = {q: b for q, b, _ in t.events(S.E_DEBATE_ASK)}
    assert asked[1] == S.DEBATE_WILLING and asked[3] == S.DEBATE_WILLING


def test_an_ally_declines_only_when_the_walkover_pays(r4):
    """WI-V-DEBATE-1/3: the candidate's ally, last to be asked with nobody willing yet, declines when the walkover
    would elect the candidate; once somebody is willing there is no walkover to give, and it debates."""
    t = Table(r4, [BLUE, GREEN, POL, BLUE], votes=[14, 3, 3, 3])
    t.seat[1, S.S_HOSP] = t.g[S.G_TURN]  # in hospital: declines (its own stay)
    t.seat[2, S.S_HOSP] = t.g[S.G_TURN]
    engine.ask_debaters(t.sp, 0)
    assert {q: b for q, b, _ in t.events(S.E_DEBATE_ASK)}[3] == S.DEBATE_TURNED_OVER
    t = Table(r4, [BLUE, GREEN, POL, BLUE], votes=[14, 3, 3, 3])
    t.give(1, "樁腳動員", "樁腳動員")
    engine.ask_debaters(t.sp, 0)
    asked = {q: b for q, b, _ in t.events(S.E_DEBATE_ASK)}
    assert asked[1] == S.DEBATE_WILLING and asked[3] == S.DEBATE_WILLING


def test_the_skipped_turn_ends_the_others_stays_when_nobody_is_free(r4):
    """WI-HOSP-2, WI-HOSP-6: a hospital stay skips a campaign turn not yet begun; when every player out of jail is
    in hospital, the skipped turn counts as a campaign turn and the others turn back (else no stay could end)."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    engine.jail(t.sp, 0)
    for q in (1, 2, 3):
        t.seat[q, S.S_HOSP] = t.g[S.G_TURN]
    engine.hospital_skip(t.sp, 1)
    assert t.seat[1, S.S_HOSP] >= 0 and t.seat[2, S.S_HOSP] < 0 and t.seat[3, S.S_HOSP] < 0
    assert (1, S.SKIP_CAMPAIGN, 0) in t.events(S.E_SKIP)
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    for q in (1, 2):
        t.seat[q, S.S_HOSP] = t.g[S.G_TURN]
    engine.hospital_skip(t.sp, 1)  # seat 0 and 3 are free: seat 2 waits for a completed campaign turn
    assert t.seat[2, S.S_HOSP] >= 0


def _rounds_without_campaign(log: np.ndarray) -> int:
    events = log.reshape(-1, 4)
    empty, campaigns = 0, -1
    for code in events[:, 0]:
        if code < 0:
            break
        if code in (S.E_ROUND, S.E_END):
            empty += campaigns == 0
            campaigns = 0
        elif code == S.E_CAMPAIGN:
            campaigns += 1
    return empty


def test_no_round_passes_without_a_campaign_turn(game):
    """WI-HOSP-6, WI-END-5: with two or more players out of jail, some campaign turn is played in every round
    (issue 23: 16 of 3,000 three-player games had rounds pass empty until the forced count)."""
    r = rules("players=3")
    policy = game.policy_array(r)
    empty = 0
    for index in range(150, 250):
        _, _, log = engine.run_batch(r, policy, 29, index, 1, log_events=20_000)
        empty += _rounds_without_campaign(log)
    assert empty == 0


def test_the_trace_tells_a_debate_decliner_from_a_hospital_stay(game):
    """WI-V-DEBATE-10: a decliner is turned over, not in hospital: the trace says so."""
    r = rules("players=5")
    policy = game.policy_array(r, {"all": "random"})
    for index in range(200):
        _, _, log = engine.run_batch(r, policy, 3, index, 1, log_events=20_000)
        if (log.reshape(-1, 4)[:, 0] == S.E_SKIP).any() and (
                log.reshape(-1, 4)[:, 2][log.reshape(-1, 4)[:, 0] == S.E_SKIP] == S.SKIP_DEBATE).any():
            lines = analysis.describe(r, log)
            assert any("is turned over (declined the debate): action turn skipped" in line for line in lines)
            assert any("declines the debate (turned over)" in line for line in lines)
            return
    pytest.fail("no debate decliner in 200 random games")


def test_the_debate_answer_is_not_blind(game):
    """WI-V-DEBATE-1: forcing one asked seat's answer at a debate (paired re-runs) shows that accepting pays where
    the bot accepts: accept - decline is not below zero beyond noise among the bot's accepts."""
    r = rules("players=6")
    table = cf.debate_answers(r, game.policy_array(r), 0, 1500)
    row = table.filter(table["bot_answer"] == "debates").row(0, named=True)
    assert row["n"] > 100 and row["hi"] > 0
