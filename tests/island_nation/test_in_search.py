"""The search bot (search.py): it plays the engine's own turns, sees only its seat's information, draws
from its own stream, and is bit-identical however a run is split; its trace shows every candidate."""

from __future__ import annotations

import numpy as np
import pytest
from in_helpers import make_state, words

from sim.core.rng import next_u64
from sim.core.runner import simulate
from sim.core.scenario import load_scenario
from sim.games.island_nation import GAME
from sim.games.island_nation.batch import play_rows
from sim.games.island_nation.board import board_for
from sim.games.island_nation.counterfactual import DEFAULT, _play_from, _play_until, seed_game
from sim.games.island_nation.policies import HUNTER
from sim.games.island_nation.search import (
    STOP,
    WORLD_KEY,
    _play_on,
    _spot,
    _state,
    artillery_search,
    frogman_search,
    play_searched_batch,
    search_context,
)
from sim.games.island_nation.state import (
    DECK_N,
    DECK_TOP,
    END_ROUND,
    FHP,
    FPOS,
    MINE_AT,
    REASON,
    WINNER,
    artillery_mask,
)
from sim.games.island_nation.tables import params_for, tables_for


def base_rules(*sets):
    return load_scenario(GAME.name, GAME.rules_model, "base", ["players=5", *sets]).rules


def policy(**chosen):
    return GAME.policy_array(base_rules(), chosen)


@pytest.mark.parametrize("scenario", ["base", "core"])
def test_search_entry_with_scripted_bots_plays_the_engines_games(scenario):
    """The search entry point's game (the engine's order of play with the search's deciders bound)
    plays exactly the engine's games when nobody searches: every column, every point table, for games
    with bottles, cards, abilities, mines and traitors."""
    rules = load_scenario(GAME.name, GAME.rules_model, scenario, ["players=5"]).rules
    board = board_for(rules)
    T, P = tables_for(board, rules.shot_range), params_for(rules)
    scripted = GAME.policy_array(rules, {"frogman": "ghost", "artillery": "hunter"})
    games, points, _ = play_rows(rules, board, scripted, 7, 100, 400)
    out = np.empty((8, 400), dtype=np.int64)
    sizes = np.empty((10, 400), dtype=np.int64)
    density, captures, escapes = (np.zeros(T.n, dtype=np.int64) for _ in range(3))
    decisions = play_searched_batch(T, P, scripted, 7, 100, out, sizes, density, captures, escapes,
                                    np.zeros((0, 6), dtype=np.int64))
    assert out[0].tolist() == games["winner"].tolist()
    assert out[2].tolist() == games["end_round"].tolist()
    assert out[5].tolist() == games["frogman_hp"].tolist()
    assert out[7].tolist() == games["final_set"].tolist()
    assert sizes[9].tolist() == games["set_r10"].tolist()
    assert density.tolist() == points["density"].tolist()
    assert captures.tolist() == points["captures"].tolist()
    assert decisions.tolist() == [0] * 400


def test_the_search_plays_the_engines_order_of_play_not_a_copy():
    """Issue 22.6: the turn order is written once, in engine.py. The search's scripted rollouts and its
    game with search seats are the engine's functions compiled again (the same code objects), only the
    deciders and the search's bookkeeping bound in their place."""
    from sim.games.island_nation import engine, search

    for family in (search.SCRIPTED, search.SEARCHED):
        for name in ("play_rounds", "frogman_turn", "frogman_walks", "artillery_turns", "artillery_turn",
                     "artillery_acts"):
            assert getattr(family, name).py_func.__code__ is getattr(engine, name).py_func.__code__
    assert search.SEARCHED.play_game.py_func.__code__ is engine.play_game.py_func.__code__
    for name in ("play_rounds", "artillery_turns"):
        assert getattr(search.ROLLOUT, name).py_func.__code__ is getattr(engine, name).py_func.__code__
    assert search.ROLLOUT.play_rounds.py_func.__globals__["frogman_turn"] is search._keyed_frogman_turn
    assert search.ROLLOUT.artillery_turns.py_func.__globals__["artillery_turn"] is search._keyed_artillery_turn
    assert search.SEARCHED.play_rounds.py_func.__globals__["frogman_decides"] is search._frogman_decides
    assert search.SCRIPTED.play_rounds.py_func.__globals__["frogman_decides"] is engine.frogman_decides


def test_rollouts_scripted_rounds_play_the_engines_games():
    """The engine's order of play compiled apart with the rollouts' bots (``search.SCRIPTED``: its setup,
    turns and ``play_rounds``), played from the setup as the counterfactual batch plays its default arm,
    gives exactly the engine's games: winner, reason, end round, HP, every round's public-set size, and
    the rounds ended on each point. Called through ``counterfactual``'s entry points, which the warm-up
    compiled: called from Python with plain arrays, ``SCRIPTED`` would compile again for the test."""
    rules = base_rules()
    board = board_for(rules)
    T, P = tables_for(board, rules.shot_range), params_for(rules)
    scripted = GAME.policy_array(rules, {"frogman": "ghost", "artillery": "hunter"})
    games, points, _ = play_rows(rules, board, scripted, 11, 0, 300)
    cx = search_context(scripted, seed=11)
    st, _ = _state()
    quiet = np.zeros((0, 6), dtype=np.int64)
    rows = []
    for i in range(300):
        seed_game(st, cx, np.int64(i))
        _play_until(T, P, st, cx, quiet, np.int64(1))  # SCRIPTED.setup
        _play_from(T, P, st, cx, quiet, np.int64(DEFAULT))  # round 1's turns, then SCRIPTED.play_rounds
        rows.append([st.g[WINNER], st.g[REASON], st.g[END_ROUND], st.g[FHP], *st.sizes[:10]])
    columns = ["winner", "end_reason", "end_round", "frogman_hp", *(f"set_r{r}" for r in range(1, 11))]
    assert np.array(rows).tolist() == np.stack([games[c] for c in columns], axis=1).tolist()
    assert cx.density[:T.n].tolist() == points["density"].tolist()


def _rollout_games(T, P, cx, keys, skips):
    """Games played on from the setup (round 1's artillery turns on) as the rollouts play them
    (``search._play_on``: ``search.ROLLOUT``'s rounds), world key ``keys[i]``,
    the stream first advanced by ``skips[i]`` draws (as if earlier turns had drawn more or less)."""
    st, _ = _state()
    quiet = np.zeros((0, 6), dtype=np.int64)
    rows = []
    for i, (key, skip) in enumerate(zip(keys, skips, strict=True)):
        seed_game(st, cx, np.int64(i % 40))
        _play_until(T, P, st, cx, quiet, np.int64(1))  # SCRIPTED.setup; round 1
        for _ in range(skip):
            next_u64(st.rng)
        cx.rollout_bots[WORLD_KEY] = key
        _play_on(T, P, st, cx, quiet, np.int64(0))  # as the search calls it: no compiling for the test
        rows.append([st.g[WINNER], st.g[REASON], st.g[END_ROUND], st.g[FHP], *st.sizes[:10]])
    return rows


def test_rollout_turns_draw_from_the_worlds_stream_of_their_round_and_seat():
    """Common random numbers (search.ROLLOUT): each turn after a candidate's draws from a stream fixed by
    (world, round, seat), so how much earlier turns drew changes nothing; another world key does."""
    rules = base_rules()
    T, P = tables_for(board_for(rules), rules.shot_range), params_for(rules)
    cx = search_context(GAME.policy_array(rules, {"frogman": "ghost", "artillery": "hunter"}), seed=11)
    keys = [1000 + i % 40 for i in range(80)]
    same = _rollout_games(T, P, cx, keys, [0] * 40 + [7] * 40)
    assert same[:40] == same[40:]
    other = _rollout_games(T, P, cx, [k + 1 for k in keys[:40]], [0] * 40)
    assert other != same[:40]


@pytest.mark.parametrize("size", [1, 5, 17, 64, 130])
@pytest.mark.parametrize("worlds", [1, 6, 32, 128])
def test_artillery_worlds_spread_the_frogman_evenly_over_the_public_set(size, worlds):
    """IN-BELIEF-1..7: the artillery's worlds put the frogman on points of the public set by systematic
    sampling: every point in range, each point in ``worlds / size`` worlds up to one, and over the
    uniform offset each point equally likely (each world's share 1/size on average)."""
    for v in (0.0, 0.37, 0.999999):
        spots = [_spot(v, j, worlds, size) for j in range(worlds)]
        assert all(0 <= s < size for s in spots)
        counts = np.bincount(spots, minlength=size)
        assert counts.max() - counts.min() <= 1
        assert counts.sum() == worlds
    offsets = np.linspace(0, 1, 500, endpoint=False)
    share = np.bincount([_spot(v, j, worlds, size) for v in offsets for j in range(worlds)], minlength=size)
    assert np.allclose(share / (500 * worlds), 1 / size, atol=1 / 500 + 1e-9)


def test_search_runs_add_a_search_decisions_column():
    rules = base_rules()
    chunk = GAME.play(rules, policy(artillery="search:rollouts=2"), 3, 0, 4)
    assert chunk.games["search_decisions"].dtype == np.int64
    assert (chunk.games["search_decisions"] > 0).all()
    assert "search_decisions" not in GAME.play(rules, policy(), 3, 0, 4).games


def _rows(result):
    return {name: values.tolist() for name, values in result.rows.games.items()}


def test_search_is_bit_identical_across_chunks_and_jobs():
    """Game i with a search seat depends on (seed, i) alone: one chunk, small chunks in one job, or
    two jobs give the same rows."""
    chosen = {"frogman": "search:rollouts=2", "artillery": "search:rollouts=2"}
    one = simulate(GAME, "base", 6, seed=5, jobs=1, policies=chosen, players=5, keep_rows=True)
    split = simulate(GAME, "base", 6, seed=5, jobs=1, policies=chosen, players=5, chunk_size=2, keep_rows=True)
    jobs = simulate(GAME, "base", 6, seed=5, jobs=2, policies=chosen, players=5, chunk_size=3, keep_rows=True)
    assert _rows(one) == _rows(split) == _rows(jobs)
    assert sum(_rows(one)["search_decisions"]) > 0


def test_dask_backend_gives_the_same_search_games():
    pytest.importorskip("distributed")
    chosen = {"artillery": "search:rollouts=2"}
    loky = simulate(GAME, "base", 4, seed=9, jobs=1, policies=chosen, players=5, keep_rows=True)
    dask = simulate(GAME, "base", 4, seed=9, jobs=2, policies=chosen, players=5, chunk_size=2, keep_rows=True,
                    backend="dask")
    assert _rows(loky) == _rows(dask)


def test_trace_replays_a_search_game_and_shows_each_candidate():
    rules = base_rules()
    chosen = policy(artillery="search:rollouts=3")
    trace = GAME.trace(rules, chosen, 4, 2)
    batch = GAME.play(rules, chosen, 4, 0, 3)
    assert {k: v.tolist() for k, v in trace.chunk.games.items()} == {k: v[2:].tolist() for k, v in batch.games.items()}
    searched = [line for line in trace.lines if " searches: " in line]
    assert len(searched) == trace.chunk.games["search_decisions"][0]
    assert "artillery=search:rollouts=3" in trace.lines[0]
    first = searched[0]
    assert "(" in first and "/3)" in first and " -> " in first  # value, wins/n, the one taken


# ---------------------------------------------------------------- what a seat may know

def _searching(rules, chosen):
    """Tables, params and the search's records for hand-set states."""
    board = board_for(rules)
    T, P = tables_for(board, rules.shot_range), params_for(rules)
    cx = search_context(GAME.policy_array(rules, chosen), seed=21)
    return board, T, P, cx


def _into(made, target):
    """Copy a hand-set state (in_helpers.make_state) into a search state's words."""
    st, st_b = target
    st_b[:] = np.frombuffer(made.tobytes(), dtype=np.uint64)
    return st, st_b


def _artillery_decision(T, P, cx, made, k=0):
    st, st_b = _into(made, _state())
    rs, rs_b = _state()
    log = np.zeros((32, 6), dtype=np.int64)
    before = st_b.copy()
    cx.decisions[:] = 0
    action, d = artillery_search(T, P, st, rs, st_b, rs_b, cx, np.zeros((0, 6), dtype=np.int64), log, k, 3, 0,
                                 False, True)
    assert np.array_equal(before[:-1], st_b[:-1]) or _only_log_moved(before, st_b, st)
    return (int(action), int(d)), log


def _only_log_moved(before, after, st):
    """The search writes its trace rows and nothing else of the game's state (stream included)."""
    from sim.games.island_nation.state import NLOG

    saved = st.g[NLOG]
    st.g[NLOG] = 0
    same = np.array_equal(before, after)
    st.g[NLOG] = saved
    return same


def _dealt(st, P, deck_order, frogman_items=()):
    """Deal a deck in the given order and give the frogman some items (player 0's hand)."""
    st.g[DECK_TOP] = 0
    st.g[DECK_N] = len(deck_order)
    st.deck[:len(deck_order)] = deck_order
    st.hand[:, :] = 0
    for card in frogman_items:
        st.hand[0, card] += 1


def _without(order, card):
    """The deck order without one card of that type (it is in a hand instead)."""
    i = order.index(card)
    return order[:i] + order[i + 1:]


def test_artillery_search_ignores_the_frogmans_true_point_mine_and_hand():
    """Two states differing only in what the artillery cannot see (the frogman's point within the
    public set, where the mine lies, which items the frogman holds, the deck order) give the same
    decision and the same estimated values."""
    rules = base_rules()
    board, T, P, cx = _searching(rules, {"artillery": "search:rollouts=6"})
    public = ["26", "27", "36", "37", "45"]
    artillery = ["16", "35", "A", "B", "C"]
    deck = [c for c, card in enumerate(rules.deck) for _ in range(card.count)]
    results = []
    for frog, mine, held, order in (("27", "27", 0, deck), ("45", "36", 1, deck[::-1])):
        made = make_state(board, P, frog, artillery, belief=public, rnd=4)
        made.g[MINE_AT] = board.index[mine]
        _dealt(made, P, _without(order, held), (held,))  # the same unseen cards: deck and hand
        cx.mine_zone[0], cx.mine_zone[1] = words([board.index[p] for p in public])
        results.append(_artillery_decision(T, P, cx, made))
    (first, log1), (second, log2) = results
    assert first == second
    assert log1.tolist() == log2.tolist()  # every candidate's wins, not only the choice
    assert (log1[:, 0] > 0).any()


def test_artillery_search_sees_the_public_set():
    """What the artillery may see does change the search: the same board with the frogman's public
    set on the other side of the island changes the values."""
    rules = base_rules()
    board, T, P, cx = _searching(rules, {"artillery": "search:rollouts=6"})
    logs = []
    for public in (["26", "27", "36"], ["5", "6", "12"]):
        made = make_state(board, P, public[0], ["16", "35", "A", "B", "C"], belief=public, rnd=4)
        logs.append(_artillery_decision(T, P, cx, made)[1])
    assert logs[0].tolist() != logs[1].tolist()


def _frogman_decision(T, P, st, rs, st_b, rs_b, cx, log, spent):
    """The searching frogman's step on its start point this turn (not a bottle turn), ``spent`` points spent
    (the arguments typed as the game passes them)."""
    m0, m1 = artillery_mask(st, P.n_art)
    i64 = np.int64
    return frogman_search(T, P, st, rs, st_b, rs_b, cx, np.zeros((0, 6), dtype=np.int64), log, i64(st.g[FPOS]),
                          False, i64(3), i64(spent), i64(0), i64(0), i64(1), np.uint64(m0), np.uint64(m1))


def test_frogman_search_ignores_artillery_hands_abilities_and_deck_order():
    """Two states differing only in what the frogman cannot see (the items the artillery hold, the
    abilities not yet used, the deck order) give the same step and values."""
    rules = base_rules()
    board, T, P, cx = _searching(rules, {"frogman": "search:rollouts=6"})
    deck = [c for c, card in enumerate(rules.deck) for _ in range(card.count)]
    logs, steps = [], []
    for item, ability, order in ((0, 0, deck), (2, 5, deck[::-1])):
        made = make_state(board, P, "27", ["16", "35", "A", "B", "C"], belief=["27", "36"], rnd=3)
        _dealt(made, P, _without(order, item))
        made.hand[1, item] = 1  # the same unseen cards: deck and artillery 1's hand
        for k in range(P.n_art):
            a = (ability + k) % P.n_abilities
            made.ability[k] = (P.ab_effect[a], P.ab_amount[a], P.ab_uses[a])
        from sim.games.island_nation.search import _note_abilities

        _note_abilities(P, made, cx)
        st, st_b = _into(made, _state())
        rs, rs_b = _state()
        log = np.zeros((32, 6), dtype=np.int64)
        cx.decisions[:] = 0
        steps.append(_frogman_decision(T, P, st, rs, st_b, rs_b, cx, log, spent=1))
        logs.append(log.tolist())
    assert steps[0] == steps[1]
    assert logs[0] == logs[1]
    assert any(row[0] > 0 for row in logs[0])


def test_frogman_search_may_stop_only_after_a_step():
    """IN-TURN-3: STOP is a candidate only once a point is spent."""
    rules = base_rules()
    board, T, P, cx = _searching(rules, {"frogman": "search:rollouts=2"})
    made = make_state(board, P, "27", ["16", "35", "A", "B", "C"], belief=["27", "36"], rnd=3)
    from sim.games.island_nation.engine import EV_SEARCH
    from sim.games.island_nation.search import CHOSEN

    for spent, expect_stop in ((0, False), (1, True)):
        st, st_b = _into(made, _state())
        rs, rs_b = _state()
        log = np.zeros((32, 6), dtype=np.int64)
        _frogman_decision(T, P, st, rs, st_b, rs_b, cx, log, spent)
        codes = {row[3] % CHOSEN for row in log.tolist() if row[0] == EV_SEARCH}
        assert (STOP in codes) == expect_stop
        assert len(codes) >= 2


def test_search_context_takes_budget_per_role_and_defaults():
    cx = search_context(policy(frogman="search:rollouts=5"), seed=1)
    assert cx.searching.tolist() == [1, 0]
    assert cx.rollouts.tolist() == [5, 16]
    assert cx.bots.tolist() == [2, HUNTER]
    short = search_context(np.array([3, 3], dtype=np.int64), seed=1)  # older callers: bots only
    assert short.rollouts.tolist() == [16, 16]
