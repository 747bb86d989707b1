"""The forced-decision entry point (engine.run_forced) behind the paired counterfactuals, and the tables."""

import numpy as np
import pytest
from wi_helpers import kind, rules

from sim.games.wonderful_island import GAME, engine
from sim.games.wonderful_island import counterfactual as cf
from sim.games.wonderful_island import state as S

POLICY = GAME.bot_numbers()


@pytest.fixture(scope="module")
def r6():
    return rules("players=6")


def _force(n, **values):
    force = np.zeros((n, len(engine.FORCE_FIELDS)), dtype=np.int64)
    force[:, 2] = -1
    for key, value in values.items():
        force[:, engine.FORCE_FIELDS.index(key)] = value
    return force


def test_nothing_forced_is_the_ordinary_game(r6):
    """Determinism: with nothing forced the forced entry point plays exactly the games of run_batch."""
    rows, _, _ = engine.run_batch(r6, POLICY, 9, 100, 300)
    forced, out, _ = engine.run_forced(r6, POLICY, 9, 100, _force(300))
    assert np.array_equal(rows, forced) and (out[:, 0] == -1).all()


def test_a_forced_venue_is_taken_and_the_game_is_the_same_before_it(r6):
    """WI-ROUND-3: the venue of campaign turn 3 is the forced one; turns 1-2 are the base game's."""
    for index in range(5):
        _, _, base_log = engine.run_forced(r6, POLICY, 4, index, _force(1, turn=3, venue=-1), log_events=20_000)
        _, out, log = engine.run_forced(r6, POLICY, 4, index, _force(1, turn=3, venue=S.STREET_SWEEP), log_events=20_000)
        campaigns = [tuple(e[1:]) for e in log.reshape(-1, 4) if e[0] == S.E_CAMPAIGN]
        assert campaigns[2] == (out[0, 0], S.STREET_SWEEP, 3)
        cut = [i for i, e in enumerate(base_log.reshape(-1, 4)) if e[0] == S.E_CAMPAIGN][2]
        assert np.array_equal(base_log.reshape(-1, 4)[:cut], log.reshape(-1, 4)[:cut])


def test_a_forced_character_is_held_and_stays_unique(r6):
    """WI-SETUP-1: the forced seat holds the character; no two seats hold the same one."""
    rows, _, _ = engine.run_forced(r6, POLICY, 2, 0, _force(200, seat=3, char=7))
    chars = rows[:, [engine.O_SEAT + p * engine.NSF + 1 for p in range(6)]]
    assert (chars[:, 3] == 7).all()
    assert all(len(set(c)) == 6 for c in chars.tolist())


def test_a_removed_card_never_appears(r6):
    """WI-SETUP-4: a deck without a kind: nobody plays it."""
    _, deck0, _ = engine.pack(r6)
    k = kind("爆料")
    rows, _, _ = engine.run_forced(r6, POLICY, 2, 0, _force(500), deck0=deck0[deck0 != k])
    played = rows[:, [engine.O_SEAT + p * engine.NSF + 3 for p in range(6)]]
    assert ((played >> k) & 1).sum() == 0
    base, _, _ = engine.run_batch(r6, POLICY, 2, 0, 500)
    assert ((base[:, [engine.O_SEAT + p * engine.NSF + 3 for p in range(6)]] >> k) & 1).sum() > 0


def test_the_first_jailing_and_hospital_stay_can_be_spared(r6):
    """WI-SUBP-2, WI-HOSP-1: the re-run spares exactly the first jailing (stay); the games are the base games
    until then."""
    base, _, _ = engine.run_batch(r6, POLICY, 3, 0, 400)
    for field, col in (("spare_jail", engine.O_JAILS), ("spare_hosp", engine.O_HOSPS)):
        again, out, _ = engine.run_forced(r6, POLICY, 3, 0, _force(400, **{field: 1}))
        spared = out[:, 3 if field == "spare_jail" else 4]
        assert np.array_equal(spared, (base[:, col] > 0).astype(np.int64))
        assert np.array_equal(again[base[:, col] == 0], base[base[:, col] == 0])


def test_counterfactual_tables(r6):
    """The paired tables: every venue x bucket with its interval and n; decisiveness as a rate."""
    venues = cf.venue_values(r6, POLICY, 5, 400)
    assert venues.height == 18 and (venues["n"].sum() == 6 * (venues.filter(venues["venue"].str.starts_with("rally"))
                                                                ["n"].sum()))
    assert ((venues["lo"] <= venues["value"]) & (venues["value"] <= venues["hi"])).all()
    rally = venues.filter(venues["venue"].str.starts_with("rally"))
    assert (rally["vs_rally"] == 0).all()
    dec = cf.decisiveness(r6, POLICY, 5, 400)
    assert dec.height == 2 and ((dec["decisive"] >= 0) & (dec["decisive"] <= 1)).all() and (dec["n"] > 0).all()
