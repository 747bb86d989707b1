"""Skills as a source of subpoenas (「發動角色技能的陷害」) and hospital stays in the assumed catalogue."""

import pytest
from wi_helpers import Table, rules

from sim.games.wonderful_island import engine
from sim.games.wonderful_island import state as S
from sim.games.wonderful_island.catalogue import load_catalogue

BLUE, GREEN = S.BLUE, S.GREEN


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def _char(name):
    return load_catalogue("base").char_names.index(name)


def test_the_catalogue_has_subpoena_and_hospital_skills():
    """WI-SUBP-1, WI-HOSP-1: some characters' skills subpoena or hospitalise another player or themselves."""
    raw = load_catalogue("base").raw["character"]
    skills = [(s["primitive"], s["target"]) for c in raw for s in (*c["active"], c["forced"])]
    assert ("subpoena", "other") in skills and ("hospital", "other") in skills
    assert ("subpoena", "self") in skills and ("hospital", "self") in skills


def test_an_active_skill_subpoenas_a_rival(r4):
    """WI-SUBP-1, WI-SKILL-2, WI-SKILL-3: 政論名嘴's skill gives the rival (nearest to jail) a subpoena at its own
    campaign; the subpoena cannot be cancelled with 沙盤推演."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.seat[0, S.S_CHAR] = _char("政論名嘴")
    t.seat[1, S.S_SUBP] = 2
    t.give(1, "沙盤推演")
    t.candidate(0, S.RALLY)
    engine.fire_skills(t.sp, 0, S.TR_OWN_CAMPAIGN, S.RALLY)
    assert t.seat[1, S.S_JAILED] == 1 and not t.events(S.E_CANCEL)


def test_an_active_skill_sends_a_rival_to_hospital(r4):
    """WI-HOSP-1, WI-SKILL-2: 學運領袖's skill at its own rally sends the strongest rival to hospital."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 2, 3, 9])
    t.seat[0, S.S_CHAR] = _char("學運領袖")
    t.candidate(0, S.RALLY)
    engine.fire_skills(t.sp, 0, S.TR_OWN_CAMPAIGN, S.RALLY)
    assert t.seat[3, S.S_HOSP] >= 0 and t.seat[1, S.S_HOSP] == -1


def test_forced_skills_subpoena_or_hospitalise_their_owner(r4):
    """WI-SKILL-2, WI-SUBP-1, WI-HOSP-1, WI-HOSP-5: 財團董座 takes a subpoena when it poaches; 樁腳大老 goes to
    hospital at its own debate's settlement, and then lays no issue."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.seat[0, S.S_CHAR] = _char("財團董座")
    t.settle(0, S.POACHING)
    assert t.seat[0, S.S_SUBP] == 1
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.seat[0, S.S_CHAR] = _char("樁腳大老")
    t.give(0, "樁腳動員")
    t.seat[1, S.S_DEBATER] = 1
    t.settle(0, S.TV_DEBATE)
    assert t.seat[0, S.S_HOSP] >= 0 and t.events(S.E_ISSUE)[0][2] == 0
