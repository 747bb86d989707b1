"""The bots' venue choice weighs all six venues by their worth to the side (policies.pick_venue)."""

import pytest
from wi_helpers import Table, rules

from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island import policies as pol
from sim.games.wonderful_island import state as S

BLUE, GREEN, POL = S.BLUE, S.GREEN, S.POLITICIAN


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def _debaters(t):
    """Every other player holds two cards: a debate would not be a walkover."""
    for q in range(1, 4):
        t.give(q, "政治獻金", "政治獻金")
    return t


def test_a_rally_when_its_votes_suffice(r4):
    """WI-ROUND-3: three sure votes that elect the candidate beat every gamble."""
    t = _debaters(Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[r4.election_threshold() - 3, 3, 3, 3]))
    assert pol.pick_venue(t.sp, 0) == S.RALLY


def test_the_street_sweep_when_only_a_big_throw_elects(r4):
    """WI-ROUND-3, WI-V-SWEEP-1: five votes short, a rally cannot elect this turn; the sweep can (P = 4/36)."""
    t = _debaters(Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[r4.election_threshold() - 5, 3, 3, 3]))
    assert pol.pick_venue(t.sp, 0) == S.STREET_SWEEP


def test_the_legislature_when_its_votes_elect_an_ally(r4):
    """WI-ROUND-3, WI-V-LEG-1: the candidate is far from the threshold, a known ally three short: the bill's three
    votes, given to the ally, elect the camp."""
    th = r4.election_threshold()
    t = _debaters(Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, th - 3, 3]))
    assert pol.pick_venue(t.sp, 0) == S.LEGISLATURE
    t.settle(0, S.LEGISLATURE)
    assert t.votes(2) == th and t.votes(0) == 3
    engine.check_endings(t.sp)
    assert t.g[S.G_END_REASON] == S.END_THRESHOLD and t.seat[2, S.S_WON] == 1


def test_poaching_when_the_hand_takes_a_rivals_votes(r4):
    """WI-ROUND-3, WI-V-POACH-1: a big hand against a rich rival with no cards: the transfer beats a rally."""
    t = _debaters(Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 12, 3, 3]))
    t.hand[1, :] = 0
    t.seat[1, S.S_HAND_N] = 0
    t.give(0, "政治獻金", "政治獻金", "政治獻金", "政治獻金", "政治獻金", "政治獻金")
    assert pol.pick_venue(t.sp, 0) == S.POACHING


def test_the_debate_when_nobody_can_debate(r4):
    """WI-ROUND-3, WI-V-DEBATE-3: everybody else in hospital declines: the walkover's three votes plus a card per
    decliner; two rivals out of hospital would debate (even without cards, WI-V-DEBATE-1), and the rally is better."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    for q in (1, 2, 3):
        t.seat[q, S.S_HOSP] = t.g[S.G_TURN]
    assert pol.pick_venue(t.sp, 0) == S.TV_DEBATE
    t.seat[1, S.S_HOSP] = t.seat[3, S.S_HOSP] = -1
    assert pol.pick_venue(t.sp, 0) == S.RALLY  # two rivals would debate


def test_default_bots_choose_every_venue(game):
    """WI-ROUND-3: over whole games the default bots choose each of the six venues."""
    r = rules("players=6")
    _, vstats, _ = engine.run_batch(r, GAME.bot_numbers(), 5, 0, 3000)
    assert (vstats[:, :, 0].sum(axis=1) > 0).all()
