"""The Wonderful Island's search bot: its game loop is the engine's, it sees only its seat's
information, its draws come from its own stream, and its output is what the runner expects."""

from __future__ import annotations

import numpy as np
import pytest
from sim_cli import run_sim
from wi_helpers import rules

from sim.core.rng import game_stream
from sim.core.runner import simulate
from sim.games.wonderful_island import GAME, engine, search
from sim.games.wonderful_island import state as S

DEFAULT_BOTS = GAME.bot_numbers()


class Game:
    """One game set up by the engine (setup), played turn by turn from Python, with the two more
    states and the work arrays the search needs."""

    def __init__(self, players: int, seed: int, index: int):
        self.rules = rules(f"players={players}")
        T, self.deck0, self.mdeck0 = engine.pack(self.rules)
        self.st = S.new_state(T, 4000)
        self.world, self.roll = S.new_state(T), S.new_state(T)
        self.sp = self.st.ctypes.data
        self.vstats = np.zeros((6, 3, 3), dtype=np.int64)
        self.seed, self.index = seed, index
        self.st[S.RNG, :4] = game_stream(seed, index).view(np.int64)
        engine.setup(self.sp, self.deck0, self.mdeck0, DEFAULT_BOTS)
        self.st[0, S.G_ROUND] = 1

    def seat(self, p: int, col: int) -> int:
        return int(self.st[S.SEAT + p, col])

    def campaign(self, c: int) -> None:
        search.campaign(self.sp, c, self.vstats, -1)

    def search(self, c: int, rollouts: int = 12) -> tuple[int, list[int]]:
        work = np.zeros(search.WORK, dtype=np.int64)
        best = search.searched_venue(self.sp, c, 1, rollouts, DEFAULT_BOTS, self.world.ctypes.data,
                                     self.roll.ctypes.data, np.zeros(4, dtype=np.uint64), work, np.uint64(self.seed),
                                     self.index, np.zeros((6, 3, 3), dtype=np.int64))
        return int(best), work[search.W_WINS:search.W_WINS + 6].tolist()

    def plan(self, c: int, s: int, rollouts: int = 12) -> tuple[int, list[int]]:
        work = np.zeros(search.WORK, dtype=np.int64)
        best = search.searched_plan(self.sp, c, s, 1, rollouts, DEFAULT_BOTS, self.world.ctypes.data,
                                    self.roll.ctypes.data, np.zeros(4, dtype=np.uint64), work, np.uint64(self.seed),
                                    self.index, np.zeros((6, 3, 3), dtype=np.int64))
        return int(best), work[search.W_WINS:search.W_WINS + search.PLANS].tolist()

    def row(self) -> np.ndarray:
        cols = np.empty((engine.O_SIZE, 1), dtype=np.int64)
        engine.record(self.sp, cols, 0)
        return cols[:, 0]


def _mid_game(players: int = 6, seed: int = 5, index: int = 3, turns: int = 4) -> Game:
    """A game after its first campaign turns (beliefs moved by the cards played and meetings)."""
    g = Game(players, seed, index)
    for c in range(turns):
        if g.seat(c, S.S_JAILED) == 0 and g.seat(c, S.S_HOSP) < 0 and g.st[0, S.G_ENDED] == 0:
            g.campaign(c)
    assert g.st[0, S.G_ENDED] == 0
    return g


# ----------------------------------------------------------------------------------------- the game loop
@pytest.mark.parametrize("players", [3, 6, 8])
def test_search_loop_without_search_is_the_engine(players):
    """play_searched and rollout are engine.play_game's loop (WI-ROUND-1/2, WI-HOSP-2, WI-END-4):
    with no camp searching, the search batch plays the same games with the same trace log."""
    r = rules(f"players={players}")
    plain, vstats, log = engine.run_batch(r, DEFAULT_BOTS, 7, 100, 60, log_events=200_000)
    rows, vstats2, log2, decisions = search.run_search(r, DEFAULT_BOTS, 7, 100, 60, log_events=200_000)
    assert np.array_equal(plain, rows) and np.array_equal(vstats, vstats2) and np.array_equal(log, log2)
    assert decisions.sum() == 0


@pytest.mark.parametrize("index", range(12))
def test_rollout_entered_mid_round_finishes_the_game_as_the_engine(index):
    """A rollout entered after seat 0's campaign turn ends the game exactly as play_game does."""
    r = rules("players=5")
    expected = engine.run_batch(r, DEFAULT_BOTS, 9, index, 1)[0][0]
    g = Game(5, 9, index)
    g.campaign(0)
    search.rollout(g.sp, 1, 1, g.vstats)
    assert np.array_equal(g.row(), expected)


# ----------------------------------------------------------------------------------------- information
def _hidden_variant(g: Game, s: int) -> Game:
    """The same game with what seat s cannot see changed: two unseen players of different camps
    swap camps (bots, sides and beliefs with them), and an unseen hand card is swapped with a draw
    pile card of another kind."""
    n = int(g.st[0, S.G_N])
    unseen = [q for q in range(n) if q != s and not (g.seat(s, S.S_KNOWN) >> q) & 1]
    a = unseen[0]
    b = next(q for q in unseen if g.seat(q, S.S_CAMP) != g.seat(a, S.S_CAMP))
    v = Game.__new__(Game)
    v.__dict__.update(g.__dict__)
    v.st = g.st.copy()
    v.sp = v.st.ctypes.data
    v.world, v.roll = g.world.copy(), g.roll.copy()
    cols = [S.S_CAMP, S.S_BOT, S.S_SIDE] + [S.S_BELIEF + q for q in range(S.MAX_PLAYERS)]
    v.st[S.SEAT + a, cols], v.st[S.SEAT + b, cols] = g.st[S.SEAT + b, cols], g.st[S.SEAT + a, cols]
    holder = next(q for q in range(n) if q != s and v.seat(q, S.S_HAND_N) > 0)
    card = v.st[S.HAND + holder, 0]
    j = next(i for i in range(v.st[0, S.G_DECK_N]) if v.st[S.PILES + S.PILE_DECK, i] != card)
    v.st[S.HAND + holder, 0], v.st[S.PILES + S.PILE_DECK, j] = v.st[S.PILES + S.PILE_DECK, j], card
    assert not np.array_equal(v.st[:S.TB], g.st[:S.TB])
    return v


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_search_sees_only_its_seats_information(seed):
    """Two states that differ only in what the searching seat cannot see (another player's camp,
    another player's hand) get the same estimates and the same venue; a change the seat can see
    (a card of its own hand) changes the estimates."""
    g = _mid_game(seed=seed)
    s = next(p for p in range(4, 6) if g.seat(p, S.S_JAILED) == 0)
    v = _hidden_variant(g, s)
    assert g.search(s) == v.search(s)
    own = _hidden_variant(g, s)  # also the seat's own hand, which it sees
    k = own.st[S.HAND + s, 0]
    j = next(i for i in range(own.st[0, S.G_DECK_N]) if own.st[S.PILES + S.PILE_DECK, i] != k)
    own.st[S.HAND + s, 0], own.st[S.PILES + S.PILE_DECK, j] = own.st[S.PILES + S.PILE_DECK, j], k
    assert own.search(s)[1] != g.search(s)[1]


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_plan_search_sees_only_its_seats_information(seed):
    """The turn-plan decision of a seat that is not the candidate: the same estimates and plan for two
    states that differ only in what the seat cannot see (another player's camp and hand, the candidate's
    hand included); a card of its own hand changes the estimates."""
    g = _mid_game(seed=seed)
    s = next(p for p in range(4, 6) if g.seat(p, S.S_JAILED) == 0)
    c = next(p for p in range(6) if p != s and g.seat(p, S.S_JAILED) == 0 and g.seat(p, S.S_HOSP) < 0)
    v = _hidden_variant(g, s)
    assert g.plan(c, s, 40) == v.plan(c, s, 40)
    own = _hidden_variant(g, s)
    k = own.st[S.HAND + s, 0]
    j = next(i for i in range(own.st[0, S.G_DECK_N]) if own.st[S.PILES + S.PILE_DECK, i] != k)
    own.st[S.HAND + s, 0], own.st[S.PILES + S.PILE_DECK, j] = own.st[S.PILES + S.PILE_DECK, j], k
    assert own.plan(c, s, 40)[1] != g.plan(c, s, 40)[1]


def _plays_by(log: np.ndarray, s: int) -> int:
    events = log.reshape(-1, 4)
    return int((np.isin(events[:, 0], [S.E_PLAY, S.E_REACT]) & (events[:, 1] == s)).sum())


def test_hold_plan_plays_no_card_and_scripted_plan_is_the_bot():
    """PLAN_HOLD: the seat plays no support, obstruction or strategy card in the campaign turn (WI-TURN-3,
    WI-TURN-6 left unused); PLAN_SCRIPTED (S_PLAN 0) plays the turn exactly as the engine does."""
    held = scripted = 0
    for index in range(20):
        g = Game(6, 11, index)
        h = Game(6, 11, index)
        h.st[S.SEAT + 3, S.S_PLAN] = S.PLAN_HOLD
        for c in (0, 1, 2):
            if g.st[0, S.G_ENDED] == 0 and g.seat(c, S.S_JAILED) == 0 and g.seat(c, S.S_HOSP) < 0:
                g.campaign(c)
            if h.st[0, S.G_ENDED] == 0 and h.seat(c, S.S_JAILED) == 0 and h.seat(c, S.S_HOSP) < 0:
                h.campaign(c)
        scripted += _plays_by(g.st[g.st[S.TB, S.R_LOG0]:], 3)
        held += _plays_by(h.st[h.st[S.TB, S.R_LOG0]:], 3)
    assert held == 0 and scripted > 0


def test_search_leaves_the_game_untouched():
    """The search plays on copies: the game's state and its random stream are as before (only the
    trace log grows by one event per venue)."""
    g = _mid_game()
    before = g.st[:S.TB].copy()
    logged = int(g.st[0, S.G_LOG_N])
    g.search(4)
    after = g.st[:S.TB].copy()
    after[0, S.G_LOG_N] = before[0, S.G_LOG_N]
    assert np.array_equal(before, after)
    assert g.st[0, S.G_LOG_N] == logged + 6
    g.plan(0, 4)
    after = g.st[:S.TB].copy()
    after[0, S.G_LOG_N] = before[0, S.G_LOG_N]
    assert np.array_equal(before, after)
    assert g.st[0, S.G_LOG_N] == logged + 6 + search.PLANS


def test_a_sample_is_consistent_with_what_the_seat_knows():
    """determinise keeps the camp cards of the player count, the seat's own camp, hand and
    beliefs, the camps it has seen, hand and pile sizes and the cards out of sight as a whole."""
    g = _mid_game()
    s = 4
    g.st[S.SEAT + s, S.S_KNOWN] |= 1 << 1  # as if seat 4 had seen seat 1's camp card
    n = int(g.st[0, S.G_N])
    key = np.zeros(4, dtype=np.uint64)
    work = np.zeros(search.WORK, dtype=np.int64)
    search.seed_search(key, np.uint64(1), 2, s, 3)

    def unseen_cards(st):
        cards = [int(st[S.HAND + q, i]) for q in range(n) if q != s for i in range(st[S.SEAT + q, S.S_HAND_N])]
        return sorted(cards + st[S.PILES + S.PILE_DECK, :st[0, S.G_DECK_N]].tolist())

    camps = set()
    for _ in range(30):
        search.copy_game(g.sp, g.world.ctypes.data)
        search.determinise(g.world.ctypes.data, s, DEFAULT_BOTS, key, work)
        w = g.world
        assert np.bincount(w[S.SEAT:S.SEAT + n, S.S_CAMP], minlength=3).tolist() == list(g.rules.camps())
        for col in (S.S_CAMP, S.S_HAND_N, S.S_MEET_N, S.S_SIDE, S.S_KNOWN):
            assert w[S.SEAT + s, col] == g.st[S.SEAT + s, col]
        assert w[S.SEAT + 1, S.S_CAMP] == g.st[S.SEAT + 1, S.S_CAMP]
        assert np.array_equal(w[S.SEAT + s, S.S_BELIEF:S.S_BELIEF + n], g.st[S.SEAT + s, S.S_BELIEF:S.S_BELIEF + n])
        assert np.array_equal(w[S.HAND + s], g.st[S.HAND + s])
        assert np.array_equal(w[S.SEAT:S.SEAT + n, S.S_HAND_N], g.st[S.SEAT:S.SEAT + n, S.S_HAND_N])
        assert unseen_cards(w) == unseen_cards(g.st)
        for q in range(n):
            side = w[S.SEAT + q, S.S_SIDE]
            camp = w[S.SEAT + q, S.S_CAMP]
            assert w[S.SEAT + q, S.S_BOT] == DEFAULT_BOTS[camp]
            assert side == camp or camp == S.POLITICIAN
        camps.add(tuple(w[S.SEAT:S.SEAT + n, S.S_CAMP].tolist()))
    assert len(camps) > 1  # the unseen camps are drawn, not copied


# ----------------------------------------------------------------------------------------- determinism
def test_search_stream_is_fixed_by_seed_game_seat_and_turn():
    def key(*args):
        out = np.zeros(4, dtype=np.uint64)
        search.seed_search(out, np.uint64(args[0]), *args[1:])
        return tuple(out.tolist())

    base = key(1, 2, 3, 4)
    assert key(1, 2, 3, 4) == base
    others = {key(2, 2, 3, 4), key(1, 3, 3, 4), key(1, 2, 4, 4), key(1, 2, 3, 5)}
    assert len(others) == 4 and base not in others
    assert base != tuple(game_stream(1, 2).tolist())


def test_search_runs_are_bit_identical_across_chunks_jobs_and_backends():
    policy = {"blue": "search:rollouts=2", "politician": "search:rollouts=1"}
    runs = [simulate(GAME, "base", 36, 4, jobs, policy, backend, players=5, chunk_size=chunk, keep_rows=True,
                     progress=False).rows.games
            for jobs, backend, chunk in ((1, "loky", 36), (2, "loky", 7), (2, "threading", 10))]
    assert runs[0]["search_decisions"].sum() > 0
    for other in runs[1:]:
        assert other.keys() == runs[0].keys()
        for name in runs[0]:
            assert np.array_equal(other[name], runs[0][name]), name


def test_search_decisions_column_only_when_a_role_searches():
    r = rules("players=4")
    plain = GAME.play(r, GAME.policy_array(r), 1, 0, 20)
    searched = GAME.play(r, GAME.policy_array(r, {"green": "search:rollouts=1"}), 1, 0, 20)
    assert "search_decisions" not in plain.games
    assert searched.games["search_decisions"].dtype == np.int64
    # per campaign turn one decision per green seat (its venue as the candidate, else its plan)
    greens = r.camps()[1]
    assert searched.games["search_decisions"].sum() > 0
    assert (searched.games["search_decisions"] <= greens * searched.games["campaign_turns"]).all()
    venues = GAME.play(r, GAME.policy_array(r, {"green": "search:rollouts=1,plans=1"}), 1, 0, 20)
    assert (venues.games["search_decisions"] <= venues.games["campaign_turns"]).all()
    assert venues.games["search_decisions"].sum() < searched.games["search_decisions"].sum()
    short = GAME.play(r, GAME.bot_numbers({"blue": "search"}), 1, 0, 20)  # bot numbers alone: the default budget
    assert short.games["search_decisions"].sum() > 0


def test_trace_shows_each_candidate_value_and_n():
    r = rules("players=6")
    policy = GAME.policy_array(r, {"politician": "search:rollouts=2"})
    trace = GAME.trace(r, policy, 3, 2)
    lines = [line for line in trace.lines if line.strip().startswith("search seat")]
    plans = [line for line in lines if "plan:" in line]
    venues = len(lines) - len(plans)
    decisions = int(trace.chunk.games["search_decisions"][0])
    assert venues > 0 and plans and venues % 6 == 0 and len(plans) % search.PLANS == 0
    assert venues // 6 + len(plans) // search.PLANS == decisions
    assert all("value" in line and "of n=2)" in line for line in lines)
    row = GAME.play(r, policy, 3, 2, 1).games
    for name, column in trace.chunk.games.items():
        assert np.array_equal(column, row[name]), name


def test_sim_trace_with_search_on_the_command_line():
    proc = run_sim("trace", "wonderful-island", "--seed", "3", "--index", "2", "--policy", "politician=search:rollouts=2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "search seat" in out and "(won" in out and "== game ends" in out
