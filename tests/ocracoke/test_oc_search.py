"""The search bot (search.py): what it may see, its own random stream, its moves, and games it plays."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ocracoke_helpers import Replay, fixed_table, hand, learn, logged_game, make_rules

from sim.core.runner import simulate
from sim.games.ocracoke import GAME, play, search_budget
from sim.games.ocracoke import engine as E
from sim.games.ocracoke import search as X
from sim.games.ocracoke.policies import COUNTER, DECLARE, PEEK, SEARCH, SPY, SWAP, WAVE
from sim.games.ocracoke.rules import KRAKEN

SEARCH_0 = [SEARCH, COUNTER, COUNTER, COUNTER]


def _events(capacity=8):
    """Declaration blocks like play_chunk's (contiguous: the types the compiled search already has)."""
    return tuple(np.zeros((len(names), capacity), dtype) for names, dtype in E.EVENT_BLOCKS)


def _decide(S, R, T, p=0, rnd=2, t=0, rollouts=6, seed=11, decision=0):
    """search_turn for seat p as play_batch_search calls it: candidates, their value sums, the choice."""
    work = X.workspace(R)
    X.search_stream(work[5], seed, 0, p, decision)
    n, best = X.search_turn(S, R, T, _events(), p, rnd, t, 0, 1, rollouts, work)
    return work[3][:n].copy(), work[4][:n].copy(), best


def _table(rules):
    """Seat 0 holds navy +1 and has looked at ship slot 1; the others know their own hands; both
    action cards show their back (輪番上陣, 巨浪來襲), so the moves have targets."""
    S, R, T, _ = fixed_table(rules, SEARCH_0, ship=[4, 2, 5, 9], island=[3, 6, 8], hands=[[0], [1], [7], [10]])
    learn(S, 0, 1)
    S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B] = 1, 1
    return S, R, T


def _move(S, R, loc_a, loc_b):
    """The cards at two places change places; every seat's memory follows the places it knew."""
    ca, cb = S[E.AT, loc_a], S[E.AT, loc_b]
    S[E.AT, loc_a], S[E.AT, loc_b] = cb, ca
    for q in range(4):
        knew_a, knew_b = (S[E.KNOWN, q] >> ca) & 1, (S[E.KNOWN, q] >> cb) & 1
        S[E.KNOWN, q] &= ~((1 << ca) | (1 << cb))
        S[E.KNOWN, q] |= (knew_a << cb) | (knew_b << ca)
    E._index_cards(S, R)


def test_the_decision_ignores_cards_the_seat_cannot_see(warm, rules4):
    """Two tables that differ only in cards seat 0 does not know (a hidden ship card and an island card
    change places, so do seat 1's and seat 2's hands, each still known to its owner): the same
    candidates, the same value sums, the same move. Changing a card seat 0 does know changes them."""
    S, R, T = _table(rules4)
    other, _, _ = _table(rules4)
    _move(other, R, 0, 6)  # ship slot 0 <-> island slot 1: unseen by anyone
    _move(other, R, hand(1), hand(2))  # seat 1's and seat 2's hands
    assert E.cards_sum(S[E.PUB, E.SHIP_SET], R[E.VALUES]) != E.cards_sum(other[E.PUB, E.SHIP_SET], R[E.VALUES])
    cand, totals, best = _decide(S, R, T)
    cand2, totals2, best2 = _decide(other, R, T)
    assert np.array_equal(cand, cand2) and np.array_equal(totals, totals2) and best == best2
    assert len(cand) > 3 and totals.max() > totals.min(), "the test compares real searches"
    seen, _, _ = _table(rules4)
    _move(seen, R, 1, 6)  # the ship card seat 0 looked at changes: a different situation for it
    _, totals3, _ = _decide(seen, R, T)
    assert not np.array_equal(totals, totals3)


def _after_a_rivals_look_into_a_kraken_pair(rules, kraken_first):
    """Seat 3 swaps the kraken into ship slots 0 and 2 (OC-KRAKEN-2), the kraken landing in slot 0 if
    ``kraken_first`` else in slot 2; then seat 1 peeks at slots 0 and 1. Seat 0 saw neither slot: the two
    tables are the same to it (the same public moves), but seat 1 knows both slots of the pair only when
    it saw the other card (then the kraken is in the other slot), only slot 0 when it saw the kraken."""
    S, R, T = _table(rules)
    rng = np.array([1, 2, 3, 4], np.uint64)
    E._swap(S, R, T, rng, np.zeros((0, E.LOG_WIDTH), np.int64), 3, 0, 2, 0)
    if (S[E.AT, 0] == KRAKEN) != kraken_first:
        S[E.AT, 0], S[E.AT, 2] = S[E.AT, 2], S[E.AT, 0]
    E._peek(S, R, T, rng, np.zeros((0, E.LOG_WIDTH), np.int64), 1, 0, 1)
    return S, R, T


def test_the_decision_ignores_a_hidden_card_inside_a_kraken_pair(warm, rules4):
    """Issue 21 leak: the search gave other seats in its sampled tables the places they know on the true
    table; after a rival's look into a kraken pair those depend on which slot holds the kraken, a card
    seat 0 cannot see (old code: different value sums). Both tables must give the same candidates, value
    sums and move."""
    S, R, T = _after_a_rivals_look_into_a_kraken_pair(rules4, kraken_first=True)
    other, _, _ = _after_a_rivals_look_into_a_kraken_pair(rules4, kraken_first=False)
    places = [sum(1 for c in X[E.AT] if c >= 0 and (X[E.KNOWN, 1] >> c) & 1) for X in (S, other)]
    assert places[0] != places[1], "seat 1 knows more places in one table: the case the leak test needs"
    assert S[E.KNOWN, 0] == other[E.KNOWN, 0] and S[E.PAIR, 0] == other[E.PAIR, 0]
    for rnd in (2, 3):
        cand, totals, best = _decide(S, R, T, rnd=rnd, rollouts=24)
        cand2, totals2, best2 = _decide(other, R, T, rnd=rnd, rollouts=24)
        assert np.array_equal(cand, cand2) and np.array_equal(totals, totals2) and best == best2
        assert len(cand) > 3 and totals.max() > totals.min(), "the test compares real searches"


def test_sampled_tables_keep_all_the_seat_knows(warm, rules4):
    """_sample_world: the 11 cards each once; seat 0's known places unchanged; every unknown card
    reaches every unknown place over many samples (the posterior's support); the other seats still know
    the places they knew; after a kraken swap the cards known to be in its two slots stay there."""
    S, R, T = _table(rules4)
    S[E.PAIR, 0], S[E.SHIP_ANY, 0] = 0b1001, (1 << 4) | (1 << 9)  # as if seat 0 shuffled slots 0 and 3
    work = X.workspace(R)
    W, pool = work[0], work[8]
    X.search_stream(work[5], 1, 0, 0, 0)
    known_places = [loc for loc in range(16) if S[E.AT, loc] >= 0 and (S[E.KNOWN, 0] >> S[E.AT, loc]) & 1]
    hidden = [loc for loc in range(16) if S[E.AT, loc] >= 0 and loc not in known_places and loc not in (0, 3)]
    reached = {loc: set() for loc in hidden}
    for _ in range(400):
        X._sample_world(S, W, R, 0, work[5], pool)
        assert sorted(W[E.AT][W[E.AT] >= 0]) == list(range(11))
        assert all(W[E.AT, loc] == S[E.AT, loc] for loc in known_places)
        assert {W[E.AT, 0], W[E.AT, 3]} == {4, 9}, "OC-ASM-KRAKEN: the two cards stay in their two slots"
        for loc in hidden:
            reached[loc].add(int(W[E.AT, loc]))
        for q in (1, 2, 3):
            assert (W[E.KNOWN, q] >> W[E.AT, hand(q)]) & 1, "seat q still knows its own hand"
    unknown_cards = {int(S[E.AT, loc]) for loc in hidden}
    assert all(cards == unknown_cards for cards in reached.values())


def test_candidates_follow_the_rules(warm, rules4):
    """OC-ROUND-2/3: no declaring in round 1; OC-KRAKEN-1: not with the kraken; OC-ACT-FLIP: only the
    face-up actions; OC-KRAKEN-2: the kraken's swap offered to its holder; the counter's move first."""
    S, R, T = _table(rules4)
    work = X.workspace(R)
    X.search_stream(work[5], 1, 0, 0, 0)
    n = X._candidates(S, R, T, 0, 1, work[5], work[3])
    acts = set(work[3][:n, 0])
    assert DECLARE in acts and acts == {DECLARE, SWAP, WAVE}
    assert n == len({tuple(c) for c in work[3][:n]}), "no move listed twice"
    n = X._candidates(S, R, T, 0, 0, work[5], work[3])
    assert DECLARE not in set(work[3][:n, 0])
    S[E.PUB, E.FACE_A], S[E.PUB, E.FACE_B] = 0, 0
    n = X._candidates(S, R, T, 0, 0, work[5], work[3])
    assert set(work[3][:n, 0]) == {PEEK, SPY}
    kraken, _, _, _ = fixed_table(rules4, [COUNTER, COUNTER, COUNTER, SEARCH], ship=[4, 2, 5, 9], island=[3, 6, 8],
                               hands=[[0], [1], [7], [10]])
    kraken[E.PUB, E.FACE_A] = 1
    n = X._candidates(kraken, R, T, 3, E._may_declare(kraken, 3, 2), work[5], work[3])
    moves = work[3][:n]
    assert DECLARE not in set(moves[:, 0]) and KRAKEN == kraken[E.AT, hand(3)]
    assert any(m[0] == SWAP and m[2] >= 0 for m in moves), "the kraken's swap takes two slots"


def test_the_search_stream_is_its_own(warm):
    """Distinct streams for each (seed, game, seat, decision), none equal to the game's."""
    from sim.core.rng import game_stream

    states = set()
    for key in [(1, 0, 0, 0), (2, 0, 0, 0), (1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 0, 1)]:
        state = np.empty(4, np.uint64)
        X.search_stream(state, *key)
        states.add(tuple(state))
    assert len(states) == 5 and tuple(game_stream(1, 0)) not in states


def test_where_search_plays_the_counters_moves_the_game_is_the_counters(warm, rules4):
    """The search draws nothing from the game's stream, and a search seat sets its dial, keeps a
    kraken card and takes extra looks as counter: a game in which every searched move was the
    counter's own (candidate 0) is exactly the all-counter game."""
    policy = GAME.policy_array(rules4, {"0": "search:rollouts=1"})
    counter = play(rules4, np.array([COUNTER] * 4), 4, 0, 40)
    same = 0
    for index in range(40):
        chunk, rows = logged_game(rules4, policy, 4, index)
        if all(k == 0 for k in _chosen_indexes(rows)):
            same += 1
            for name in ("hands", "gold_0", "gold_1", "gold_2", "gold_3", "declared"):
                assert chunk.games[name][0] == counter.games[name][index], (index, name)
    assert same >= 3, "enough games to compare"


def _chosen_indexes(rows):
    """Per searched decision in a log, the index of the chosen candidate."""
    picks, index = [], 0
    for row in rows:
        if row[0] != E.L_SEARCH:
            index = 0
            continue
        if row[6] == 1:
            picks.append(index)
        index += 1
    return picks


def test_search_games_follow_the_rules(warm, rules4):
    """A game with search at every seat, replayed card by card by the tests' rule checker."""
    policy = GAME.policy_array(rules4, {"all": "search:rollouts=2"})
    for index in range(3):
        chunk, rows = logged_game(rules4, policy, 9, index)
        replay = Replay(rules4).run(rows)
        assert [int(chunk.games[f"gold_{q}"][0]) for q in range(4)] == replay.gold[:4]


def test_search_decisions_column_and_determinism(warm, rules4):
    """search_decisions counts the searched turns (absent without search); a run is bit-identical for
    any chunking, job count and backend."""
    assert "search_decisions" not in play(rules4, np.array([COUNTER] * 4), 1, 0, 5).games
    policy = GAME.policy_array(rules4, {"1": "search:rollouts=3"})
    whole = play(rules4, policy, 3, 0, 12)
    split = [play(rules4, policy, 3, start, 4) for start in (0, 4, 8)]
    for name, column in whole.games.items():
        assert np.array_equal(column, np.concatenate([c.games[name] for c in split])), name
    for index in (0, 5):
        _, rows = logged_game(rules4, policy, 3, index)
        assert whole.games["search_decisions"][index] == len(_chosen_indexes(rows)) > 0
    one = simulate("ocracoke", n_games=24, seed=3, jobs=1, chunk_size=24, progress=False,
                   policies={"1": "search:rollouts=3"})
    two = simulate("ocracoke", n_games=24, seed=3, jobs=2, chunk_size=7, progress=False, backend="threading",
                   policies={"1": "search:rollouts=3"})
    assert one.summary.sums == two.summary.sums
    for key, value in one.summary.tallies.items():
        assert np.array_equal(value, two.summary.tallies[key]), key
    assert one.summary.sums["win_1"] == whole.games["win_1"][:12].sum() + play(rules4, policy, 3, 12, 12).games[
        "win_1"].sum()


def test_budget_defaults_and_short_policy_arrays(rules4):
    """Older callers pass only the bot per seat: the search then uses its default budget."""
    default = GAME.search.defaults["rollouts"]
    assert search_budget(np.array(SEARCH_0)).tolist() == [[default]] * 4
    chosen = GAME.policy_array(rules4, {"2": "search:rollouts=5"})
    assert search_budget(chosen)[:, 0].tolist() == [default, default, 5, default]
    assert "rollouts=" in GAME.search.syntax()


@pytest.mark.parametrize("players", [2, 3])
def test_search_plays_two_and_three_players(warm, players):
    rules = make_rules(players=players)
    policy = GAME.policy_array(rules, {"0": "search:rollouts=2"})
    chunk, rows = logged_game(rules, policy, 5, 0)
    Replay(rules).run(rows)
    assert chunk.games["search_decisions"][0] > 0


def test_trace_shows_each_candidates_value_and_n(warm, rules4):
    policy = GAME.policy_array(rules4, {"0": "search:rollouts=4"})
    lines = GAME.trace(rules4, policy, 7, 2).lines
    searched = [line for line in lines if line.strip().startswith("search, seat 0")]
    assert searched and all("(n 4)" in line or "only move" in line for line in searched)
    assert any("→" in line for line in searched), "the chosen move is marked"


def test_counterfactual_own_choice_is_the_counter_game(warm, rules4):
    """Issue 14 §2: at the sampled turn the counter's own move, played on the same stream, is exactly
    the all-counter game (its win share and gold margin); only the face-up actions (OC-ACT-FLIP) and,
    from round 2 without the kraken, declaring (OC-ROUND-3, OC-KRAKEN-1) are played."""
    from sim.games.ocracoke.analysis import win_shares
    from sim.games.ocracoke.search import CF_COLUMNS, counterfactual_rows

    rows = counterfactual_rows(rules4, 8, 0, 60)
    col = {name: rows[:, j] for j, name in enumerate(CF_COLUMNS)}
    games = play(rules4, np.array([COUNTER] * 4), 8, 0, 60)
    shares = win_shares(rules4, games)
    sampled = np.flatnonzero(col["seat"] >= 0)
    assert len(sampled) > 30
    for g in sampled:
        p = col["seat"][g]
        gold = [games.games[f"gold_{q}"][g] for q in range(4)]
        assert col["own_share"][g] == shares[f"share_{p}"][g]
        assert col["own_margin"][g] == gold[p] - max(gold[q] for q in range(4) if q != p)
        legal = [m for m in range(5) if col[f"share_{m}"][g] >= 0]
        assert len(legal) == (3 if DECLARE in legal else 2) and (DECLARE in legal) <= (col["round"][g] >= 2)
        assert col["own"][g] in legal


def test_action_values_table_has_intervals(warm, rules4):
    from sim.games.ocracoke.analysis import action_values

    table = action_values(rules4, 400, 1, jobs=1, chunk_size=200)
    assert {"move", "n", "win rate forced", "lo", "hi", "p"} <= set(table.columns) and table.height >= 4
    assert (table["lo"] <= table["win difference"]).all() and (table["win difference"] <= table["hi"]).all()


def test_scripted_runs_never_load_the_search(warm):
    """The search is a separate compiled entry point: a run without a search seat does not even import
    it (so it neither compiles nor slows the scripted path)."""
    code = ("import sys, numpy as np\nfrom ocracoke_helpers import make_rules, seated\nfrom sim.games.ocracoke import play\n"
            "play(make_rules(players=4), seated('counter'), 1, 0, 50)\n"
            "print('sim.games.ocracoke.search' in sys.modules)")
    here = Path(__file__).parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": f"{here}:{here.parent.parent}"})
    assert out.stdout.strip() == "False"


def test_chunks_of_any_size_share_one_compiled_engine(rules4):
    """play_chunk hands play_batch and play_batch_search C-contiguous blocks whatever the chunk size
    after a larger one, so each is compiled (or loaded) once, not again for a smaller last chunk."""
    policy = GAME.policy_array(rules4, {"1": "search:rollouts=2"})
    for count in (40, 3, 17):
        play(rules4, np.array([COUNTER] * 4), 1, 0, 10 * count)
        play(rules4, policy, 1, 0, count)
    assert len(E.play_batch.signatures) == 1
    assert len(X.play_batch_search.signatures) == 1
