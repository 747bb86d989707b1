"""The runner: bit-identical results for any chunking, jobs and backend; rows, shards, Ctrl-C."""

import dataclasses

import numpy as np
import polars as pl
import pytest
from toy_game import SCENARIO, TOY
from toy_game import play as toy_play

from sim.core.errors import UserError
from sim.core.runner import simulate


def same(a, b):
    return (a.summary.n_games == b.summary.n_games and a.summary.sums == b.summary.sums
            and a.summary.sumsq == b.summary.sumsq
            and all(np.array_equal(a.summary.tallies[k], b.summary.tallies[k]) for k in a.summary.tallies))


@pytest.fixture(scope="module")
def reference_run():
    return simulate(TOY, SCENARIO, 30_000, seed=11, jobs=1)


def test_results_do_not_depend_on_chunk_size(reference_run):
    assert same(reference_run, simulate(TOY, SCENARIO, 30_000, seed=11, jobs=1, chunk_size=997))


def test_results_do_not_depend_on_jobs(reference_run):
    assert same(reference_run, simulate(TOY, SCENARIO, 30_000, seed=11, jobs=2, chunk_size=4096))


def test_dask_backend_gives_the_same_result(reference_run):
    pytest.importorskip("distributed")
    assert same(reference_run, simulate(TOY, SCENARIO, 30_000, seed=11, jobs=2, backend="dask"))


def test_other_seed_gives_other_games(reference_run):
    assert not same(reference_run, simulate(TOY, SCENARIO, 30_000, seed=12, jobs=1))


def test_kept_rows_are_in_game_order_and_each_game_replays_alone():
    result = simulate(TOY, SCENARIO, 5_000, seed=4, jobs=2, chunk_size=1024, keep_rows=True)
    games = result.games_frame()
    assert games["game"].to_list() == list(range(5_000))
    for index in (0, 1234, 4999):
        replay = TOY.trace(result.rules, result.policy, 4, index)
        assert replay.chunk.games["winner"][0] == games["winner"][index]
        assert replay.chunk.games["rounds"][0] == games["rounds"][index]


def test_out_writes_parquet_shards(tmp_path):
    simulate(TOY, SCENARIO, 3_000, seed=1, jobs=1, chunk_size=1024, out=tmp_path)
    shards = sorted((tmp_path / "games").glob("part-*.parquet"))
    assert len(shards) == 3
    assert pl.read_parquet(tmp_path / "games" / "*.parquet")["game"].sort().to_list() == list(range(3_000))


def interrupting_play(rules, policy, seed, start, count):
    if start >= 2048:
        raise KeyboardInterrupt
    return toy_play(rules, policy, seed, start, count)


def test_ctrl_c_keeps_the_chunks_that_finished():
    game = dataclasses.replace(TOY, play=interrupting_play)
    result = simulate(game, SCENARIO, 10_000, seed=2, jobs=1, chunk_size=1024)
    assert result.interrupted and result.n_games == 2048
    assert result.metrics()["n"].to_list() == [2048, 2048, 2048]


def test_metrics_carry_interval_and_n(reference_run):
    frame = reference_run.metrics()
    assert frame.columns == ["metric", "label", "kind", "value", "lo", "hi", "n"]
    assert (frame["lo"] <= frame["value"]).all() and (frame["value"] <= frame["hi"]).all()
    wins = frame.filter(pl.col("metric") == "win_0")
    assert wins["value"][0] == pytest.approx(0.5, abs=0.02)


def test_policies_by_role_and_bad_policy():
    result = simulate(TOY, SCENARIO, 20_000, seed=3, policies={"0": "cautious", "1": "random"})
    assert result.policies == {"0": "cautious", "1": "random"}
    frame = result.metrics()
    # rerolling low rolls beats rerolling at random
    assert frame.filter(pl.col("metric") == "win_0")["lo"][0] > 0.5
    with pytest.raises(UserError, match="expected one of random, cautious"):
        simulate(TOY, SCENARIO, 10, policies={"0": "genius"})
    with pytest.raises(UserError, match="has no role"):
        simulate(TOY, SCENARIO, 10, policies={"7": "random"})


def test_bad_run_arguments_are_user_errors():
    with pytest.raises(UserError, match="--games 0: expected a whole number from 1"):
        simulate(TOY, SCENARIO, 0)


def test_local_dask_cluster_workers_do_not_set_malloc_trim():
    pytest.importorskip("distributed")
    import os

    from sim.core.cluster import dask_client

    with dask_client(None, 1) as client:
        seen = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
        workers = client.scheduler_info()["workers"]
    assert set(seen.values()) == {os.environ.get("MALLOC_TRIM_THRESHOLD_")}
    assert all(address.startswith("tcp://127.0.0.1") for address in workers)
