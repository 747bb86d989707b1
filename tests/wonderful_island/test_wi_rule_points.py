"""The rule points of issue 16: hospital and the forced count, cards from hospital at settlement, debate
decliners turned over, characters before camps, reactive cards at step C, 沙盤推演's clause."""

import tomllib
from pathlib import Path

import numpy as np
import pytest
from wi_helpers import Table, kind, rules

from sim.core.rng import game_stream, randbelow, shuffle
from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island import state as S
from sim.games.wonderful_island.catalogue import CH_WIN, CH_WIN_AMT, CONDITIONS, load_catalogue

BLUE, GREEN, POL = S.BLUE, S.GREEN, S.POLITICIAN
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def _politician(t, seat, condition, amount):
    cat = load_catalogue("base")
    ch = next(i for i in range(35) if CONDITIONS[cat.char_table[i, CH_WIN]] == condition)
    t.seat[seat, S.S_CHAR] = ch
    t.chars[ch, CH_WIN_AMT] = amount


def test_forced_count_counts_a_politician_in_hospital(r4):
    """WI-END-4, WI-HOSP-3: hospital bars declaring, not the forced count: a politician in hospital meeting its
    condition cannot declare, yet wins at step A of the forced count."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 12, 3])
    _politician(t, 2, "votes", 10)
    t.seat[2, S.S_HOSP] = t.g[S.G_TURN]
    engine.check_endings(t.sp)
    assert t.g[S.G_ENDED] == 0
    engine.forced_count(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0] and t.g[S.G_END_REASON] == S.END_FORCED


def test_forced_count_still_bars_a_jailed_politician(r4):
    """WI-END-4, WI-JAIL-4: in jail, a politician whose condition is not jail is not counted at step A."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 0, 3])
    _politician(t, 2, "hand", 0)
    t.seat[2, S.S_JAILED] = 1
    engine.forced_count(t.sp)
    assert t.seat[2, S.S_WON] == 0


def test_a_candidate_hospitalised_at_settlement_lays_no_poaching_cards(r4):
    """WI-HOSP-5: 死亡之握 settles first and sends the candidate to hospital; it then lays no card at the poaching
    (the venue still acts: with no cards laid it takes nothing) and keeps its hand."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 5, 3, 3])
    t.slot(1, "死亡之握")
    t.give(0, "樁腳動員", "樁腳動員", "抹黑攻擊")
    t.settle(0, S.POACHING)
    assert t.seat[0, S.S_HOSP] >= 0
    assert t.events(S.E_POACH) == [(1, 0, 0)] and t.seat[0, S.S_HAND_N] == 3 and t.votes(1) == 5


def test_a_poaching_target_in_hospital_cannot_match(r4):
    """WI-HOSP-5: a target in hospital plays no card, so every card laid takes a vote."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 5, 3, 3])
    t.give(0, "樁腳動員", "樁腳動員")
    t.give(1, "樁腳動員", "樁腳動員")
    t.seat[1, S.S_HOSP] = t.g[S.G_TURN]
    t.settle(0, S.POACHING)
    assert t.events(S.E_POACH) == [(1, 2, 0)] and t.votes(1) == 3 and t.seat[1, S.S_HAND_N] == 2


def test_a_candidate_in_hospital_lays_no_issue(r4):
    """WI-HOSP-5, WI-V-DEBATE-8: a candidate in hospital lays no issue card, so every debater succeeds."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    t.give(0, "樁腳動員", "名嘴站台")
    t.seat[1, S.S_DEBATER] = 1
    t.seat[0, S.S_HOSP] = t.g[S.G_TURN]
    t.settle(0, S.TV_DEBATE)
    assert t.events(S.E_ISSUE)[0][2] == 0 and t.events(S.E_DEBATE) == [(1, 0, 1)]
    assert t.seat[0, S.S_HAND_N] == 2 and t.votes(1) == 5


def test_a_debater_in_hospital_cannot_meet_the_issue(r4):
    """WI-HOSP-5, WI-V-DEBATE-5: a debater sent to hospital before settlement plays no card: it fails."""
    for seed in range(10):
        t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3], seed=seed)
        t.give(0, "樁腳動員")
        t.give(1, "樁腳動員", "樁腳動員", "樁腳動員", "樁腳動員")
        t.seat[1, S.S_DEBATER] = 1
        t.seat[1, S.S_HOSP] = t.g[S.G_TURN]
        t.settle(0, S.TV_DEBATE)
        (q, _, ok), = t.events(S.E_DEBATE)
        assert q == 1 and ok == 0 and t.votes(1) == 3


def test_debate_decliners_are_turned_over_and_players_in_hospital_are_asked(r4):
    """WI-V-DEBATE-1, WI-V-DEBATE-10: every other player out of jail is asked, in hospital too; one who declines
    is turned over (no declaring, no cancelling, no drawing) until this campaign turn is over."""
    t = Table(r4, [BLUE, BLUE, POL, GREEN], votes=[14, 3, 3, 3])
    t.candidate(0, S.TV_DEBATE)
    t.give(1, "樁腳動員")  # an ally: the walkover's 3 votes would elect the candidate (threshold 16): it declines
    t.give(2, "樁腳動員", "樁腳動員", "樁腳動員")
    t.seat[2, S.S_HOSP] = t.g[S.G_TURN] - 1  # in hospital since the last campaign turn
    t.give(3, "樁腳動員", "樁腳動員", "沙盤推演")
    t.seat[0, S.S_JAILED] = 0
    unwilling = engine.ask_debaters(t.sp, 0)
    asked = {q: b for q, b, _ in t.events(S.E_DEBATE_ASK)}
    assert asked == {1: S.DEBATE_TURNED_OVER, 2: 0, 3: S.DEBATE_WILLING} and unwilling == 2
    assert 0 <= t.seat[1, S.S_HOSP] < t.g[S.G_TURN] and t.seat[1, S.S_HOSP_EVER] == 0
    assert not engine.can_declare(t.sp, 1)
    t.give(1, "沙盤推演")
    assert not engine.try_cancel(t.sp, 1, 0, kind("爆料"))
    engine.draw_cards(t.sp, 1, 2)
    assert t.seat[1, S.S_HAND_N] == 2
    assert engine.can_declare(t.sp, 3)


def test_decliners_act_in_no_way_until_the_settlement(game):
    """WI-V-DEBATE-10, WI-HOSP-3: in whole games, a player who declined draws, plays, cancels and reacts with nothing
    before the settlement of that campaign turn."""
    r = rules("players=5")
    policy = game.policy_array(r, {"all": "random"})
    declined_seen = 0
    acting = (S.E_DRAW, S.E_PLAY, S.E_REACT, S.E_CANCEL, S.E_TURN, S.E_TRADE)
    for index in range(40):
        _, _, log = engine.run_batch(r, policy, 5, index, 1, log_events=20_000)
        events = log.reshape(-1, 4)
        events = events[events[:, 0] >= 0]
        declined: set[int] = set()
        for e in events:
            code = e[0]
            if code == S.E_CAMPAIGN or code == S.E_SETTLE:
                declined = set()
            elif code == S.E_DEBATE_ASK and e[2] != S.DEBATE_WILLING:
                declined.add(int(e[1]))
                declined_seen += 1
            elif code in acting:
                assert int(e[1]) not in declined
    assert declined_seen > 0


def test_characters_are_kept_before_the_camps_are_dealt():
    """WI-SETUP-1, WI-SETUP-2: the characters are dealt and kept (a random bot's coins drawn) before the camp cards
    are shuffled: the stream replayed in that order gives the engine's camps and random picks."""
    r = rules("players=6")
    for seed in range(5):
        t = Table(r, [BLUE] * 6, seed=seed)
        engine.setup(t.sp, t.deck0, t.mdeck0, GAME.bot_numbers({"all": "random"}))
        stream = game_stream(seed, 0)
        order = np.arange(35)
        shuffle(stream, order)
        coins = [randbelow(stream, 2) for _ in range(6)]
        camps = np.array([c for c, k in enumerate(r.camps()) for _ in range(k)])
        shuffle(stream, camps)
        assert t.seat[:6, S.S_CAMP].tolist() == camps.tolist()
        assert t.seat[:6, S.S_CHAR].tolist() == [order[2 * p + coins[p]] for p in range(6)]


def test_the_candidate_removes_an_obstruction_at_its_own_step_c(r4):
    """WI-TURN-7: reactive cards are not only for step E: the candidate, who has no step E, plays 轉移焦點 at its
    own step C and the obstruction leaves the venue."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(0, S.RALLY)
    t.slot(1, "負面新聞")
    t.give(0, "轉移焦點")
    engine.play_step(t.sp, 0)
    assert t.piles[S.PILE_SLOT_CARD, 0] == -1 and t.seat[0, S.S_HAND_N] == 0
    assert (0, kind("轉移焦點"), 0) in t.events(S.E_PLAY)


def test_sand_table_is_tagged_with_its_clause():
    """WI-CARD-5: the catalogue tags 沙盤推演 (the response card) with WI-CARD-5, not a skill clause."""
    data = tomllib.loads((ROOT / "scenarios/wonderful-island/catalogue/base.toml").read_text(encoding="utf-8"))
    card = next(c for c in data["card"] if c["name"] == "沙盤推演")
    assert card["rule"] == "WI-CARD-5" and card["timing"] == "response"
