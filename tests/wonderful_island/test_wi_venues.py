"""The six venues, each with scripted cases (WI-V-*), and the settlement order (WI-SETTLE-*)."""

import numpy as np
import pytest
from wi_helpers import Table, kind, rules

from sim.games.wonderful_island import engine
from sim.games.wonderful_island import state as S

BLUE, GREEN, POL = S.BLUE, S.GREEN, S.POLITICIAN


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def test_rally_gives_three_votes_and_one_per_two_support(r4):
    """WI-V-RALLY-1, WI-V-RALLY-2: 3 votes; +1 per 2 support cards settled (support cards' own votes too)."""
    for supports, expected_bonus in ((0, 0), (1, 0), (2, 1), (3, 1), (4, 2)):
        t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
        for _ in range(supports):
            t.slot(2, "樁腳動員")  # +1 vote each
        t.settle(0, S.RALLY)
        assert t.votes(0) == 3 + supports + 3 + expected_bonus


def test_settlement_sums_gains_and_losses_before_applying(r4):
    """WI-SETTLE-1, WI-SETTLE-5: a candidate with 0 votes who loses 2 and rallies 3 ends on 1, not 3."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[0, 3, 3, 3])
    t.slot(1, "抹黑攻擊")
    t.settle(0, S.RALLY)
    assert t.votes(0) == 1
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[1, 3, 3, 3])
    for _ in range(3):
        t.slot(1, "抹黑攻擊")
    t.settle(0, S.RALLY)
    assert t.votes(0) == 0 and t.g[S.G_POOL] == r4.pool() - 9 - 0


def test_votes_come_from_and_go_back_to_the_pool(r4):
    """WI-SETTLE-3: gains leave the pool, losses return to it; the tokens are conserved."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[5, 3, 3, 3])
    before_pool, before_tokens = t.g[S.G_POOL], t.tokens()
    t.slot(1, "抹黑攻擊")
    t.slot(1, "負面新聞")
    t.settle(0, S.GRASSROOTS)  # -3 votes back to the pool, +2 iron (2 plain votes leave the pool)
    assert t.votes(0) == 2 and t.g[S.G_POOL] == before_pool + 3 - 2
    assert t.tokens() == before_tokens


def test_grassroots_gives_iron_votes(r4):
    """WI-V-GRASS-1, WI-V-GRASS-2, WI-IRON-1: 2 iron (+1 per 2 support); as many plain votes leave the game."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    pool = t.g[S.G_POOL]
    t.slot(2, "宣傳車隊")  # a support card that counts as one more support: 2 in all
    t.settle(0, S.GRASSROOTS)
    assert t.seat[0, S.S_IRON] == 3 and t.votes(0) == 3
    assert t.g[S.G_POOL] == pool - 3 and t.g[S.G_REMOVED] == 3
    assert t.g[S.G_IRON_LEFT] == r4.iron_tokens - 3


def test_iron_votes_are_capped_by_the_box():
    """WI-COMP-1: only 30 iron tokens; none left means no iron."""
    t = Table(rules("players=4", "iron_tokens=1"), [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.settle(0, S.GRASSROOTS)
    assert t.seat[0, S.S_IRON] == 1


def test_street_sweep_pairs():
    """WI-V-SWEEP-1, WI-V-SWEEP-2: the difference of two dice; doubles give the single die's value."""
    assert engine.sweep_pair_value(6, 1) == 5
    assert engine.sweep_pair_value(2, 5) == 3
    assert engine.sweep_pair_value(4, 4) == 4
    assert engine.sweep_pair_value(1, 1) == 1


def test_street_sweep_picks_the_best_pair_of_three_dice():
    """WI-V-SWEEP-3: one more die per 2 support cards; the candidate picks the best two."""
    assert engine.sweep_best(np.array([1, 1, 6, 0, 0, 0]), 3) == 5
    assert engine.sweep_best(np.array([3, 3, 3, 0, 0, 0]), 3) == 3
    assert engine.sweep_best(np.array([1, 1, 6, 0, 0, 0]), 2) == 1


@pytest.mark.parametrize("supports,dice", [(0, 2), (2, 3), (6, 3)])
def test_street_sweep_in_play_matches_its_dice(r4, supports, dice):
    """WI-V-SWEEP-1..3: the votes equal the best pair of the rolled dice (never more than the box's 3 dice)."""
    for seed in range(20):
        t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3], seed=seed)
        for _ in range(supports):
            t.slot(2, "宣傳車隊")  # counts double: support = 2 x cards
        t.settle(0, S.STREET_SWEEP)
        (a, b, c), = t.events(S.E_DICE)
        rolled = [a, b] + ([c] if dice == 3 else [])
        assert (c != 0) == (dice == 3)
        best = max(engine.sweep_pair_value(x, y) for i, x in enumerate(rolled) for y in rolled[i + 1:])
        assert t.votes(0) == 3 + best


def test_legislature_passes_with_half_the_hands(r4):
    """WI-V-LEG-1: an ally's hand plus the candidate's is half of 4 players: 3 votes to the candidate."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.settle(0, S.LEGISLATURE)
    (yes, voters, passed), = t.events(S.E_LEGISLATURE)
    assert (yes, voters, passed) == (2, 4, 1) and t.votes(0) == 6


def test_legislature_buys_hands_with_votes(r4):
    """WI-V-LEG-2: with no ally the candidate buys a hand for one vote and keeps the other two."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    t.settle(0, S.LEGISLATURE)
    (yes, voters, passed), = t.events(S.E_LEGISLATURE)
    assert passed == 1 and yes == 2
    assert t.votes(0) == 5 and t.votes(1) == 4  # seat 1 was asked first and sold its hand


def test_legislature_support_adds_hands_and_rivals_refuse_a_winning_bill(r4):
    """WI-V-LEG-2, WI-V-LEG-4: rivals refuse to sell when the bill would elect the candidate;
    2 support cards count as one more hand."""
    threshold = r4.election_threshold()
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[threshold - 2, 3, 3, 3])
    t.settle(0, S.LEGISLATURE)
    assert t.events(S.E_LEGISLATURE)[0][2] == 0 and t.votes(0) == threshold - 2
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[threshold - 2, 3, 3, 3])
    t.slot(0, "宣傳車隊")  # 2 support
    t.settle(0, S.LEGISLATURE)
    (yes, _, passed), = t.events(S.E_LEGISLATURE)
    assert passed == 1 and yes == 2 and t.votes(0) == threshold + 1


def test_double_election_raises_the_threshold(r4):
    """WI-V-LEG-3: blue and green reaching the threshold at once raise it by one; nobody wins yet."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    threshold = int(t.g[S.G_THRESH])
    t.set_votes(0, threshold)
    t.set_votes(1, threshold)
    engine.check_endings(t.sp)
    assert t.g[S.G_THRESH] == threshold + 1 and t.g[S.G_ENDED] == 0


def test_poaching_the_texts_example(r4):
    """WI-V-POACH-1, WI-V-POACH-3: 3 support + 2 obstruction against 1 + 1 take 3 votes; all cards laid are discarded."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 5, 3, 0])
    t.give(0, "樁腳動員", "樁腳動員", "名嘴站台", "抹黑攻擊", "負面新聞")
    t.give(1, "鐵桿支持", "負面新聞")
    pool = t.g[S.G_POOL]
    t.settle(0, S.POACHING)
    assert t.events(S.E_POACH) == [(1, 5, 2)]
    assert t.votes(0) == 6 and t.votes(1) == 2 and t.g[S.G_POOL] == pool
    assert t.g[S.G_DISC_N] == 7 and t.seat[0, S.S_HAND_N] == 0 and t.seat[1, S.S_HAND_N] == 0


def test_poaching_takes_plain_votes_only_and_an_ally_may_let_them_go(r4):
    """WI-V-POACH-2: iron votes cannot be poached; a target may decline to match."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 2, 3, 0])
    t.seat[1, S.S_IRON] = 4
    t.give(0, "樁腳動員", "樁腳動員", "樁腳動員", "樁腳動員")
    t.settle(0, S.POACHING)
    assert t.votes(0) == 5 and t.votes(1) == 0 and t.seat[1, S.S_IRON] == 4
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 0, 4, 0])
    t.give(0, "樁腳動員", "樁腳動員")
    t.give(2, "樁腳動員", "樁腳動員")  # an ally: lets the votes go to its camp-mate
    t.settle(0, S.POACHING)
    assert t.events(S.E_POACH) == [(2, 2, 0)] and t.votes(0) == 5 and t.seat[2, S.S_HAND_N] == 2


def test_poaching_support_draws_cards_first(r4):
    """WI-V-POACH-4: one extra card per 2 support cards, drawn before poaching."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    for _ in range(4):
        t.slot(2, "樁腳動員")
    t.settle(0, S.POACHING)
    assert (0, 2, 0) in t.events(S.E_DRAW)


def test_debate_requirements():
    """WI-V-DEBATE-4, WI-V-DEBATE-6: lower die: the identical card; higher: the same kind; equal: half the
    candidate's die rounded up (an equal die and a 5 rolled need 3 cards); combined issues need both, or the die."""
    assert engine.debate_requirement(4, 2, False) == (0, 1)
    assert engine.debate_requirement(2, 4, False) == (1, 1)
    assert engine.debate_requirement(5, 5, False) == (2, 3)
    assert engine.debate_requirement(4, 4, False) == (2, 2)
    assert engine.debate_requirement(4, 2, True) == (0, 2)
    assert engine.debate_requirement(2, 4, True) == (1, 2)
    assert engine.debate_requirement(5, 5, True) == (2, 5)


def test_debate_card_matching(r4):
    """WI-V-DEBATE-4, WI-V-DEBATE-6: identical means kind and name; same kind means the card type."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN])
    t.give(1, "名嘴站台", "抹黑攻擊")
    picks = np.zeros(12, dtype=np.int64)
    issue = np.array([kind("樁腳動員"), kind("負面新聞")])
    assert not engine.find_debate_cards(t.sp, 1, 0, 1, issue, picks)
    assert engine.find_debate_cards(t.sp, 1, 1, 1, issue, picks)
    assert engine.find_debate_cards(t.sp, 1, 1, 2, issue, picks)  # a support and an obstruction
    assert engine.find_debate_cards(t.sp, 1, 2, 2, issue, picks)
    assert not engine.find_debate_cards(t.sp, 1, 2, 3, issue, picks)
    issue = np.array([kind("名嘴站台"), kind("名嘴站台")])
    assert not engine.find_debate_cards(t.sp, 1, 0, 2, issue, picks)  # two identical cards needed


def _debate_table(r, seed, candidate_hand, debater_hand, debate_flags=(0, 1, 0, 0)):
    t = Table(r, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3], seed=seed)
    t.give(0, *candidate_hand)
    t.give(1, *debater_hand)
    for q, flag in enumerate(debate_flags):
        t.seat[q, S.S_DEBATER] = flag
    return t


def test_debate_success_and_failure(r4):
    """WI-V-DEBATE-4, WI-V-DEBATE-5, WI-V-DEBATE-9: a debater who meets the issue gains 2; one who cannot loses a
    card and gives the candidate a vote; cards laid go to the discard pile."""
    outcomes = set()
    for seed in range(30):
        t = _debate_table(r4, seed, ["樁腳動員"], ["樁腳動員", "樁腳動員", "樁腳動員"])
        t.settle(0, S.TV_DEBATE)
        (q, dice, ok), = t.events(S.E_DEBATE)
        assert q == 1 and ok == 1 and t.votes(1) == 5 and t.votes(0) == 3
        d0, d = divmod(dice, 10)
        _, count = engine.debate_requirement(d0, d, False)
        assert t.seat[1, S.S_HAND_N] == 3 - count and t.g[S.G_DISC_N] == 1 + count
        outcomes.add(ok)
        t = _debate_table(r4, seed, ["樁腳動員"], ["政治獻金"])
        t.settle(0, S.TV_DEBATE)
        (q, dice, ok), = t.events(S.E_DEBATE)
        d0, d = divmod(dice, 10)
        case, count = engine.debate_requirement(d0, d, False)
        if case == 2 and count == 1:  # any one card meets it
            assert ok == 1 and t.votes(1) == 5
        else:
            assert ok == 0 and t.votes(1) == 3 and t.votes(0) == 4 and t.seat[1, S.S_HAND_N] == 0
            outcomes.add(ok)
    assert outcomes == {0, 1}


def test_debate_walkover(r4):
    """WI-V-DEBATE-3: nobody debates: 3 votes for the candidate after settlement."""
    t = _debate_table(r4, 0, ["樁腳動員"], [], debate_flags=(0, 0, 0, 0))
    t.settle(0, S.TV_DEBATE)
    assert t.votes(0) == 6 and not t.events(S.E_DEBATE)


def test_debate_without_cards_or_without_issue(r4):
    """WI-V-DEBATE-7, WI-V-DEBATE-8: a candidate without cards, or laying no issue, lets every debater succeed."""
    t = _debate_table(r4, 0, [], [])
    t.settle(0, S.TV_DEBATE)
    assert t.events(S.E_DEBATE) == [(1, 0, 1)] and t.votes(1) == 5
    seen_no_issue = False
    for seed in range(40):
        t = _debate_table(r4, seed, ["樁腳動員"], [])
        t.seat[0, S.S_BOT] = S.BOT_RANDOM  # the random bot sometimes lays no issue
        t.settle(0, S.TV_DEBATE)
        if t.events(S.E_ISSUE)[0][2] == 0:
            seen_no_issue = True
            assert t.events(S.E_DEBATE) == [(1, 0, 1)] and t.votes(1) == 5
    assert seen_no_issue


def test_debater_may_lose_on_purpose(r4):
    """WI-V-DEBATE-7: an ally debater loses on purpose when the candidate's vote would elect it."""
    threshold = r4.election_threshold()
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[threshold - 1, 3, 3, 3])
    t.give(0, "樁腳動員")
    t.give(2, "樁腳動員", "樁腳動員", "樁腳動員")
    t.seat[2, S.S_DEBATER] = 1
    t.settle(0, S.TV_DEBATE)
    assert t.events(S.E_DEBATE)[0][2] == 0 and t.votes(0) == threshold


def test_combined_issue_needs_two_support(r4):
    """WI-V-DEBATE-6: two issue cards only with 2+ support cards settled."""
    t = _debate_table(r4, 1, ["樁腳動員", "負面新聞", "政治獻金"], [])
    t.settle(0, S.TV_DEBATE)
    assert t.events(S.E_ISSUE)[0][2] == 1
    t = _debate_table(r4, 1, ["樁腳動員", "負面新聞", "政治獻金"], [])
    t.slot(2, "宣傳車隊")
    t.settle(0, S.TV_DEBATE)
    assert t.events(S.E_ISSUE)[0][2] == 2


def test_jail_stops_settlement(r4):
    """WI-SETTLE-2, WI-SUBP-2: the third subpoena during card effects: jail, no venue effect or support bonus."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[5, 3, 3, 3])
    t.seat[0, S.S_SUBP] = 2
    t.slot(2, "樁腳動員")
    t.slot(1, "特偵查弊")
    t.settle(0, S.RALLY)
    assert t.seat[0, S.S_JAILED] == 1 and t.votes(0) == 0 and t.vstats.sum() == 0
    assert t.g[S.G_REMOVED] == 5


def test_cards_lost_go_to_the_discard_pile(r4):
    """WI-SETTLE-4: a card lost at settlement goes to the discard pile; no discard down to 5 afterwards."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.give(0, *(["政治獻金"] * 7))
    t.slot(1, "場地干擾")
    t.settle(0, S.RALLY)
    assert t.seat[0, S.S_HAND_N] == 6 and t.g[S.G_DISC_N] == 1  # WI-SETTLE-5: still above the limit
