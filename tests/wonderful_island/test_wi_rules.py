"""Setup, turns, cards, meetings, skills, jail, hospital, losses and endings, clause by clause."""

import numpy as np
import pytest
from wi_helpers import Table, kind, rules

from sim.core.errors import ScenarioError
from sim.core.rng import game_stream, shuffle
from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island import state as S
from sim.games.wonderful_island.catalogue import CH_WIN, CH_WIN_AMT, CONDITIONS, load_catalogue

BLUE, GREEN, POL = S.BLUE, S.GREEN, S.POLITICIAN


@pytest.fixture(scope="module")
def r4():
    return rules("players=4")


def _set_up(r, seed=0, log=2000):
    t = Table(r, [BLUE] * r.players, seed=seed, log=log)
    engine.setup(t.sp, t.deck0, t.mdeck0, GAME.bot_numbers())
    return t


@pytest.mark.parametrize("players", [3, 5, 8])
def test_setup(players):
    """WI-SETUP-1, WI-SETUP-2, WI-SETUP-3, WI-SETUP-4, WI-SETUP-5, WI-SETUP-7, WI-COMP-2: distinct characters,
    the camp cards of the table, the pool by blue/green count, 3 cards and 2 meeting cards each, starting votes."""
    r = rules(f"players={players}")
    t = _set_up(r)
    n = players
    chars = t.seat[:n, S.S_CHAR]
    assert len(set(chars.tolist())) == n
    assert np.bincount(t.seat[:n, S.S_CAMP], minlength=3).tolist() == list(r.camps())
    assert (t.seat[:n, S.S_HAND_N] == 3).all() and (t.seat[:n, S.S_MEET_N] == 2).all()
    assert (t.seat[:n, S.S_VOTES] == r.start_votes()).all()
    assert t.g[S.G_POOL] == r.pool() - n * r.start_votes()
    assert t.g[S.G_DECK_N] == 123 - 3 * n and t.g[S.G_MDECK_N] == 24 - 2 * n


def test_the_kept_character_is_one_of_the_two_dealt():
    """WI-SETUP-1: each player keeps one of its own two characters (the pile is dealt in pairs)."""
    r = rules("players=6")
    for seed in range(5):
        t = _set_up(r, seed)
        order = np.arange(35)
        shuffle(game_stream(seed, 0), order)
        for p in range(6):
            assert t.seat[p, S.S_CHAR] in order[2 * p: 2 * p + 2]


def test_fewer_meeting_cards_variant():
    """WI-SETUP-6: the variant deals (blue/green players - 1) meeting cards in all."""
    r = rules("players=6", "meeting_fewer=true")
    t = _set_up(r)
    assert t.seat[:6, S.S_MEET_N].sum() == r.bg_count() - 1


def test_empty_draw_pile_reshuffles_the_discards(r4):
    """WI-SETUP-8: an empty draw pile is rebuilt from the discard pile."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN])
    t.g[S.G_DECK_N] = 0
    for name in ("政治獻金", "假民調"):
        engine.to_discard(t.sp, kind(name))
    engine.draw_cards(t.sp, 0, 3)
    assert t.seat[0, S.S_HAND_N] == 2 and t.g[S.G_DISC_N] == 0 and t.g[S.G_DECK_N] == 0
    assert sorted(t.hand[0, :2].tolist()) == sorted([kind("政治獻金"), kind("假民調")])


def test_setup_tables_are_validated():
    """WI-SETUP-2, WI-COMP-1, WI-COMP-2: camp tables must fit the box and the player count."""
    with pytest.raises(ScenarioError, match="camp_cards"):
        rules("camp_cards=[[1,1,1],[1,1,2],[2,2,1],[2,2,2],[3,3,1],[4,2,2]]")
    with pytest.raises(ScenarioError, match="players"):
        rules("players=9")
    with pytest.raises(ScenarioError, match="starting votes"):
        rules("starting_votes=[30, 30, 30, 30, 30, 30]")


def _events(log):
    events = log.reshape(-1, 4)
    return events[events[:, 0] >= 0]


def _campaigns(events):
    """(candidate, venue, block of events) per campaign turn."""
    starts = np.flatnonzero(events[:, 0] == S.E_CAMPAIGN).tolist() + [len(events)]
    return [(int(events[a, 1]), int(events[a, 2]), events[a:b]) for a, b in zip(starts, starts[1:], strict=False)]


def test_rounds_and_turn_order(game):
    """WI-ROUND-1, WI-ROUND-2, WI-ROUND-3, WI-ROUND-4, WI-TURN-2, WI-V-DEBATE-1, WI-V-DEBATE-2: seat 0 campaigns
    first and candidates follow seat order; venues are one of six; action turns run from the candidate's right,
    the candidate last, and start by drawing 2 (the debating candidate 2 + those who declined, who do not act)."""
    r = rules("players=5")
    policy = game.policy_array(r, {"all": "random"})
    draws = exact = debates = 0
    for index in range(40):
        rows, _, log = engine.run_batch(r, policy, 3, index, 1, log_events=20_000)
        campaigns = _campaigns(_events(log))
        assert campaigns[0][0] == 0 and rows[0, engine.O_ROUNDS] <= r.rounds()
        events = _events(log)
        rounds = np.cumsum(events[:, 0] == S.E_ROUND)
        for k in range(1, rounds.max() + 1):
            order = events[(rounds == k) & (events[:, 0] == S.E_CAMPAIGN), 1].tolist()
            assert order == sorted(set(order))  # each player at most once a round, in seat order
        for c, venue, block in campaigns:
            assert 0 <= venue < 6
            turns = [int(e[1]) for e in block if e[0] == S.E_TURN]
            assert turns == sorted(turns, key=lambda p: (p - c - 1) % 5)
            declined = {int(e[1]) for e in block if e[0] == S.E_DEBATE_ASK and e[2] != S.DEBATE_WILLING}
            assert not declined & set(turns)
            debates += venue == S.TV_DEBATE and bool(declined)
            for i, e in enumerate(block):
                if e[0] == S.E_TURN:
                    nxt = block[i + 1]
                    if nxt[0] == S.E_DRAW:
                        want = 2 + (len(declined) if e[1] == c and venue == S.TV_DEBATE else 0)
                        draws += 1
                        exact += nxt[2] == want and nxt[1] == e[1]
    assert debates > 0 and exact >= 0.97 * draws  # short only when the piles run dry


def test_turn_start_skill_and_draw(r4):
    """WI-TURN-1, WI-TURN-2, WI-SKILL-2: a turn-start skill fires at step A, then the player draws 2."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.chars[0, 0:5] = [S.TR_TURN_START, -1, S.P_DRAW, 1, S.TG_SELF]
    t.candidate(1, S.RALLY)
    engine.action_turn(t.sp, 0, 0)
    draws = t.events(S.E_DRAW)
    assert draws[:2] == [(0, 1, 0), (0, 2, 0)] and t.events(S.E_SKILL)[0] == (0, 0, S.P_DRAW)


def test_support_and_obstruction_go_into_slots(r4):
    """WI-TURN-3, WI-CARD-1, WI-CARD-2: an ally's support and a rival's obstruction go into the venue's slots,
    never more than the slots."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(0, S.RALLY)
    t.give(2, *(["樁腳動員"] * 8))
    engine.play_step(t.sp, 2)
    assert t.g[S.G_SLOT_N] == r4.venue_slots and t.seat[2, S.S_HAND_N] == 8 - r4.venue_slots
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(0, S.RALLY)
    t.give(1, "負面新聞", "樁腳動員")
    engine.play_step(t.sp, 1)
    assert t.g[S.G_SLOT_N] == 1 and t.piles[S.PILE_SLOT_CARD, 0] == kind("負面新聞")


def test_strategy_cards_act_at_once(r4):
    """WI-CARD-3: a strategy card acts when played and goes to the discard pile (政治獻金 draws 2)."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(1, S.RALLY)
    t.give(0, "政治獻金")
    engine.play_strategy_card(t.sp, 0, 0, 0, S.E_PLAY)
    assert t.seat[0, S.S_HAND_N] == 2 and t.g[S.G_DISC_N] == 1


def test_discard_step_and_meeting_trade(r4):
    """WI-TURN-5, WI-MEET-2: down to 5 cards; three of the surplus buy a meeting card."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN])
    t.g[S.G_MDECK_N] = 1
    t.piles[S.PILE_MDECK, 0] = 0
    t.give(0, *(["政治獻金"] * 9))
    engine.discard_step(t.sp, 0)
    assert t.seat[0, S.S_HAND_N] == 5 and t.seat[0, S.S_MEET_N] == 1 and t.g[S.G_DISC_N] == 4
    t.give(0, "政治獻金", "政治獻金")
    engine.discard_step(t.sp, 0)
    assert t.seat[0, S.S_HAND_N] == 5 and t.seat[0, S.S_MEET_N] == 1


def test_reactive_cards_after_the_action_phase(r4):
    """WI-TURN-6: 狗仔錄音 subpoenas the candidate; 離間 removes a support card; an ally's 轉移焦點 removes an
    obstruction card."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(0, S.RALLY)
    t.slot(2, "樁腳動員")
    t.slot(3, "負面新聞")
    t.give(1, "狗仔錄音", "離間")
    t.give(2, "轉移焦點")
    engine.reactive_phase(t.sp, 0)
    assert t.seat[0, S.S_SUBP] == 1
    assert (t.piles[S.PILE_SLOT_CARD, :2] == -1).all()


def test_meeting_cards(r4):
    """WI-CARD-4, WI-MEET-1: the recipient of the camp asked carries the card out; the sender learns the answer;
    the card goes back into the meeting pile."""
    cat = load_catalogue("base")
    ask_blue_vote = cat.meeting_names.index("若你是藍軍，給我一票")
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.seat[0, S.S_BELIEF + 2] = 500
    t.seat[0, S.S_BELIEF + 1] = 500
    t.mhand[0, :2] = ask_blue_vote
    t.seat[0, S.S_MEET_N] = 2
    engine.pass_meeting(t.sp, 0, 1, 2)
    assert t.votes(0) == 4 and t.votes(2) == 2 and t.seat[0, S.S_BELIEF + 2] == 1000
    engine.pass_meeting(t.sp, 0, 0, 1)
    assert t.votes(0) == 4 and t.votes(1) == 3 and t.seat[0, S.S_BELIEF + 1] == 0
    assert t.g[S.G_MDECK_N] == 2 and t.seat[0, S.S_MEET_N] == 0


def test_meeting_cards_leave_the_game_in_the_variant():
    """WI-MEET-3: used meeting cards leave the game."""
    t = Table(rules("players=4", "meeting_removed_after_use=true"), [BLUE, GREEN, BLUE, GREEN])
    t.seat[0, S.S_MEET_N] = 1
    engine.pass_meeting(t.sp, 0, 0, 1)
    assert t.g[S.G_MDECK_N] == 0


def test_cancel_a_hostile_card(r4):
    """WI-CARD-5: the victim of 爆料 cancels it with 沙盤推演."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.candidate(0, S.RALLY)
    t.give(1, "沙盤推演")
    t.give(0, "爆料")
    engine.play_strategy_card(t.sp, 0, 0, 1, S.E_PLAY)
    assert t.seat[1, S.S_SUBP] == 0 and t.seat[1, S.S_HAND_N] == 0
    assert t.events(S.E_CANCEL) == [(1, kind("沙盤推演"), kind("爆料"))]


def test_skills_cannot_be_cancelled_and_forced_skills_fire(r4):
    """WI-SKILL-1, WI-SKILL-2, WI-SKILL-3: a subpoena from a skill is not cancelled; the victim's forced skill fires."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.chars[0, 0:5] = [S.TR_OWN_CAMPAIGN, -1, S.P_SUBPOENA, 1, S.TG_OTHER]
    t.chars[0, 10:15] = [S.TR_SUBPOENAED, -1, S.P_VOTES, -1, S.TG_SELF]
    t.give(1, "沙盤推演")
    t.give(3, "沙盤推演")
    t.candidate(0, S.RALLY)
    engine.fire_skills(t.sp, 0, S.TR_OWN_CAMPAIGN, S.RALLY)
    hit = 1 if t.seat[1, S.S_SUBP] else 3
    assert t.seat[hit, S.S_SUBP] == 1 and t.seat[hit, S.S_HAND_N] == 1 and t.votes(hit) == 2


def test_catalogue_characters_have_two_active_and_one_forced_skill():
    """WI-SKILL-1, WI-COMP-1: 35 characters, each with 2 active skills, 1 forced skill and a win condition."""
    cat = load_catalogue("base")
    assert cat.char_table.shape == (35, 18) and len(cat.char_names) == 35
    assert all(len(c["active"]) == 2 and isinstance(c["forced"], dict) for c in cat.raw["character"])


def test_subpoenas_and_jail(r4):
    """WI-SUBP-1, WI-SUBP-2, WI-JAIL-1, WI-LOSS-2: 特偵查弊 gives a subpoena; the third sends to jail, whose
    votes leave the game (not to the pool); 無罪定讞 no longer helps."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.slot(1, "特偵查弊")
    t.settle(0, S.RALLY)
    assert t.seat[0, S.S_SUBP] == 1
    pool, tokens = t.g[S.G_POOL], t.tokens()
    t.seat[2, S.S_IRON] = 2
    engine.apply_primitive(t.sp, S.P_SUBPOENA, 3, 1, 2)
    assert t.seat[2, S.S_JAILED] == 1 and t.seat[2, S.S_SUBP] == 3 and t.votes(2) == 0
    assert t.g[S.G_POOL] == pool and t.g[S.G_REMOVED] == 3 and t.tokens() == tokens
    engine.apply_primitive(t.sp, S.P_CLEAR, 1, 2, 2)
    assert t.seat[2, S.S_SUBP] == 3


def test_a_candidate_jailed_in_the_action_phase_ends_the_turn(game):
    """WI-JAIL-3: after the candidate goes to jail outside settlement nobody acts and nothing settles."""
    r = rules("players=6")
    policy = game.policy_array(r, {"all": "random"})
    seen = 0
    for index in range(200):
        _, _, log = engine.run_batch(r, policy, 5, index, 1, log_events=20_000)
        for c, _, block in _campaigns(_events(log)):
            jailed = np.flatnonzero((block[:, 0] == S.E_JAIL) & (block[:, 1] == c))
            if len(jailed) == 0 or (block[: jailed[0], 0] == S.E_RESOLVE).any():
                continue
            rest = block[jailed[0] + 1:]
            assert not np.isin(rest[:, 0], [S.E_TURN, S.E_SETTLE, S.E_REACT, S.E_RESOLVE]).any()
            seen += 1
    assert seen > 0


def test_hospital(r4):
    """WI-HOSP-1, WI-HOSP-2, WI-HOSP-3, WI-HOSP-4: 死亡之握 sends the candidate to hospital; no drawing there;
    forced skills still fire; another player's completed campaign turn brings it back."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.chars[0, 10:15] = [S.TR_HOSPITALIZED, -1, S.P_VOTES, -2, S.TG_SELF]
    t.slot(1, "死亡之握")
    t.settle(0, S.RALLY)
    assert t.seat[0, S.S_HOSP] == t.g[S.G_TURN] and t.votes(0) == 3 - 2 + 3
    engine.draw_cards(t.sp, 0, 2)
    assert t.seat[0, S.S_HAND_N] == 0
    assert not engine.can_declare(t.sp, 0)
    t.set_votes(0, r4.election_threshold())
    engine.check_endings(t.sp)
    assert t.g[S.G_ENDED] == 0
    t.g[S.G_SLOT_N] = 0
    engine.campaign_turn(t.sp, 1, t.vstats)  # seat 1 completes the next campaign turn
    assert t.seat[0, S.S_HOSP] == -1 and (0, 1, 0) in t.events(S.E_SKIP)


def test_hospital_skips_the_own_campaign_turn(game):
    """WI-HOSP-2: a player in hospital when its campaign turn comes is skipped."""
    r = rules("players=6")
    policy = game.policy_array(r, {"all": "random"})
    skipped = 0
    for index in range(100):
        _, _, log = engine.run_batch(r, policy, 8, index, 1, log_events=20_000)
        events = log.reshape(-1, 4)
        events = events[events[:, 0] >= 0]
        for i, e in enumerate(events):
            if e[0] == S.E_SKIP and e[2] == 2:
                skipped += 1
                nxt = events[i + 1:]
                assert not (len(nxt) and nxt[0, 0] == S.E_CAMPAIGN and nxt[0, 1] == e[1])
    assert skipped > 0


def test_losses_and_transfers(r4):
    """WI-LOSS-1, WI-LOSS-2: a loss larger than the votes held takes them all; 假民調 moves votes between players."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[2, 5, 3, 3])
    pool = t.g[S.G_POOL]
    engine.apply_primitive(t.sp, S.P_VOTES, -5, 1, 0)
    assert t.votes(0) == 0 and t.g[S.G_POOL] == pool + 2
    t.give(0, "假民調")
    engine.play_strategy_card(t.sp, 0, 0, 1, S.E_PLAY)
    assert t.votes(0) == 2 and t.votes(1) == 3 and t.g[S.G_POOL] == pool + 2


def test_election_wins_for_the_camp_outside_settlement(r4):
    """WI-END-1, WI-END-2, WI-SETTLE-3, WI-JAIL-4: nobody declares during settlement; afterwards the blue player at
    the threshold wins for the whole camp, a jailed camp-mate included."""
    t = Table(r4, [BLUE, GREEN, BLUE, GREEN], votes=[3, 3, 3, 3])
    t.set_votes(0, r4.election_threshold() - 3)
    t.seat[2, S.S_JAILED] = 1
    t.settle(0, S.RALLY)
    assert t.g[S.G_ENDED] == 0
    engine.check_endings(t.sp)
    assert t.g[S.G_END_REASON] == S.END_THRESHOLD
    assert t.seat[:4, S.S_WON].tolist() == [1, 0, 1, 0]


def _politician(t, seat, condition, amount):
    cat = load_catalogue("base")
    ch = next(i for i in range(35) if CONDITIONS[cat.char_table[i, CH_WIN]] == condition)
    t.seat[seat, S.S_CHAR] = ch
    t.chars[ch, CH_WIN_AMT] = amount


def test_politicians_win_alone_or_together(r4):
    """WI-END-3: a politician meeting its condition wins alone; two at once win together."""
    t = Table(r4, [BLUE, GREEN, POL, POL], votes=[3, 3, 3, 3])
    _politician(t, 3, "iron", 8)
    _politician(t, 2, "votes", 3)
    engine.check_endings(t.sp)
    assert t.g[S.G_END_REASON] == S.END_POLITICIAN and t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0]
    t = Table(r4, [BLUE, GREEN, POL, POL], votes=[3, 3, 3, 3])
    _politician(t, 2, "votes", 3)
    _politician(t, 3, "votes", 3)
    engine.check_endings(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 1]


def test_a_jailed_politician_wins_only_by_the_jail_condition(r4):
    """WI-JAIL-4: a jailed politician cannot meet a votes condition but can meet a jailed-players condition."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    _politician(t, 2, "jailed", 2)
    t.seat[2, S.S_JAILED] = 1
    t.seat[1, S.S_JAILED] = 1
    engine.check_endings(t.sp)
    assert t.seat[2, S.S_WON] == 1 and t.g[S.G_END_REASON] == S.END_POLITICIAN


def test_a_politician_takes_the_win_of_the_camp_it_depends_on(r4):
    """WI-END-6: blue is elected, the politician whose goal is blue's election wins alone."""
    t = Table(r4, [BLUE, GREEN, POL, BLUE], votes=[3, 3, 3, 3])
    cat = load_catalogue("base")
    t.seat[2, S.S_CHAR] = next(i for i in range(35) if cat.raw["character"][i]["win"].get("camp") == "blue")
    t.set_votes(0, r4.election_threshold())
    engine.check_endings(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0] and t.g[S.G_END_REASON] == S.END_POLITICIAN


def test_forced_count_order(r4):
    """WI-END-4: (A) a politician meeting its condition; (B) a politician out of jail with the most votes;
    (C) the camp with more votes, both on a tie."""
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 3, 3])
    _politician(t, 2, "votes", 3)
    engine.forced_count(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0] and t.g[S.G_END_REASON] == S.END_FORCED
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[3, 3, 4, 0])
    _politician(t, 2, "votes", 50)
    engine.forced_count(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0]
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[5, 3, 4, 1])
    _politician(t, 2, "votes", 50)
    engine.forced_count(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [1, 0, 0, 0]
    t = Table(r4, [BLUE, GREEN, POL, GREEN], votes=[4, 3, 4, 1])
    _politician(t, 2, "votes", 50)
    engine.forced_count(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [1, 1, 0, 1]


def test_last_player_out_of_jail_wins(r4):
    """WI-END-5: everybody else in jail: the last player wins (alone as a politician)."""
    t = Table(r4, [BLUE, GREEN, POL, BLUE], votes=[3, 3, 3, 3])
    t.seat[[0, 1, 3], S.S_JAILED] = 1
    engine.check_endings(t.sp)
    assert t.g[S.G_END_REASON] == S.END_LAST_OUT and t.seat[:4, S.S_WON].tolist() == [0, 0, 1, 0]
    t = Table(r4, [BLUE, GREEN, POL, BLUE], votes=[3, 3, 3, 3])
    t.seat[[1, 2, 3], S.S_JAILED] = 1
    engine.check_endings(t.sp)
    assert t.seat[:4, S.S_WON].tolist() == [1, 0, 0, 1]


@pytest.mark.parametrize("name,key,value", [("meeting-fewer", "meeting_fewer", True),
                                            ("meeting-removed", "meeting_removed_after_use", True),
                                            ("short-game", "threshold_shift", -4)])
def test_variant_scenarios(game, name, key, value):
    """WI-SETUP-6, WI-MEET-3, WI-END-1: the text's variants load from their files and play."""
    from sim.core.scenario import load_scenario

    scen = load_scenario(game.name, game.rules_model, name)
    assert getattr(scen.rules, key) == value and scen.sources[key].kind == "scenario"
    chunk = game.play(scen.rules, game.policy_array(scen.rules), 1, 0, 200)
    assert (chunk.games["end_reason"] > 0).all()
