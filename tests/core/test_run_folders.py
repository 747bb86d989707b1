"""Issue 24 items 1, 2, 4, 5 and 8 in the runner: --out holds one complete run (or a clear error), an
interrupted run's shards agree with its totals, sizes are bounded before any work, per-run tables do not
depend on the chunking, and run.json records what ran (issue 25 item 7)."""

import dataclasses
import os
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from toy_game import SCENARIO, TOY
from toy_game import play as toy_play

from sim.core.errors import UserError
from sim.core.runfolder import read_run
from sim.core.runner import MAX_GAMES, chunk_plan, simulate


def rows(folder, table="games"):
    return pl.read_parquet(folder / table / "*.parquet")


def test_a_second_run_into_a_run_folder_is_refused_and_the_first_stays_whole(tmp_path):
    out = tmp_path / "D"
    simulate(TOY, SCENARIO, 3_000, seed=21, chunk_size=1024, out=out)
    with pytest.raises(UserError, match="holds a run already; pass --overwrite"):
        simulate(TOY, SCENARIO, 1_000, seed=22, chunk_size=512, out=out)
    assert rows(out)["game"].sort().to_list() == list(range(3_000))
    assert read_run(out)["games"] == 3_000 and read_run(out)["seed"] == 21
    assert sorted(p.name for p in tmp_path.iterdir()) == ["D"]  # no lock, no staging folder left


def test_overwrite_replaces_the_run_as_a_whole(tmp_path):
    out = tmp_path / "D"
    simulate(TOY, SCENARIO, 3_000, seed=21, chunk_size=1024, out=out)
    simulate(TOY, SCENARIO, 1_000, seed=22, chunk_size=512, out=out, overwrite=True)
    games = rows(out)["game"]
    assert games.len() == 1_000 and games.n_unique() == 1_000
    assert pl.read_csv(out / "metrics.csv")["n"].to_list() == [1_000] * 3
    assert read_run(out)["seed"] == 22


def test_a_folder_of_other_files_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    for overwrite in (False, True):
        with pytest.raises(UserError, match="not a run"):
            simulate(TOY, SCENARIO, 100, out=tmp_path, overwrite=overwrite)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_concurrent_writer_is_refused_and_a_stale_lock_taken_over(tmp_path):
    out = tmp_path / "D"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / ".D.lock").write_text(f"{sleeper.pid}\n")
        with pytest.raises(UserError, match=f"another run \\(process {sleeper.pid}\\) is writing"):
            simulate(TOY, SCENARIO, 100, out=out)
        assert not out.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    simulate(TOY, SCENARIO, 100, out=out)  # the writer is gone: its lock is stale
    assert read_run(out)["complete"] and not (tmp_path / ".D.lock").exists()


@pytest.mark.parametrize("where", ["file", "below-file"])
def test_out_on_or_below_a_file_is_refused_before_any_game(tmp_path, where):
    (tmp_path / "f").write_text("x")
    out = tmp_path / "f" if where == "file" else tmp_path / "f" / "run"
    played = []

    def play(*args):
        played.append(1)
        return toy_play(*args)

    with pytest.raises(UserError, match="is a file" if where == "file" else "lies below the file"):
        simulate(dataclasses.replace(TOY, play=play), SCENARIO, 100, out=out, jobs=2)
    assert not played and sorted(p.name for p in tmp_path.iterdir()) == ["f"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_out_where_nothing_can_be_written_is_refused(tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir(mode=0o555)
    with pytest.raises(UserError, match="cannot write"):
        simulate(TOY, SCENARIO, 100, out=locked / "run", jobs=2)


def interrupting_play(rules, policy, seed, start, count):
    if start >= 2048:
        raise KeyboardInterrupt
    return toy_play(rules, policy, seed, start, count)


def test_an_interrupted_run_keeps_exactly_the_games_it_counts_and_says_so(tmp_path):
    game = dataclasses.replace(TOY, play=interrupting_play)
    result = simulate(game, SCENARIO, 10_000, seed=2, chunk_size=1024, out=tmp_path / "D")
    assert result.interrupted and result.n_games == 2048
    assert rows(tmp_path / "D")["game"].sort().to_list() == list(range(2048))
    record = read_run(tmp_path / "D", allow_incomplete=True)
    assert record["complete"] is False and record["games"] == 2048 and record["games_requested"] == 10_000
    with pytest.raises(UserError, match="interrupted after 2,048 of 10,000 games"):
        read_run(tmp_path / "D")


def test_a_reader_refuses_a_folder_without_a_finished_record(tmp_path):
    (tmp_path / "games").mkdir()
    with pytest.raises(UserError, match="no run.json"):
        read_run(tmp_path)


def test_run_json_records_what_ran(tmp_path):
    from sim import __version__

    simulate("ocracoke", "base", 2_000, seed=5, policies={"1": "naive"}, sets=["win_gold=6"], players=3,
             out=tmp_path / "D")
    record = read_run(tmp_path / "D")
    assert record["game"] == "ocracoke" and record["scenario"] == "base" and record["sets"] == ["win_gold=6"]
    assert record["players"] == 3 and record["seed"] == 5 and record["games"] == 2_000
    assert record["rules_changed"] == {"players": 3, "win_gold": 6}
    assert record["bots"]["1"] == {"bot": "naive"} and record["bots"]["0"] == {"bot": "counter"}
    assert record["toolkit_version"] == __version__ and len(record["compiled_sources"]) == 16


def test_run_json_records_search_options(tmp_path):
    simulate("ocracoke", "base", 4, seed=5, policies={"0": "search:rollouts=3"}, out=tmp_path / "D")
    bots = read_run(tmp_path / "D")["bots"]
    assert bots["0"]["bot"] == "search" and bots["0"]["options"]["rollouts"] == 3


@pytest.mark.parametrize("kwargs,option", [
    ({"n_games": 10**23}, "--games"), ({"n_games": 0}, "--games"), ({"jobs": 0}, "--jobs"),
    ({"jobs": -5}, "--jobs"), ({"chunk_size": -10}, "--chunk-size"), ({"chunk_size": 0}, "--chunk-size"),
    ({"seed": 2**64}, "--seed"), ({"seed": -3}, "--seed"),
])
def test_sizes_out_of_range_are_refused_with_the_range(kwargs, option):
    args = {"n_games": 100, **kwargs}
    with pytest.raises(UserError, match=f"^{option} .*: expected a whole number from .* to "):
        simulate(TOY, SCENARIO, args.pop("n_games"), **args)


def test_the_chunk_plan_is_lazy():
    plan = chunk_plan(MAX_GAMES, 1)
    assert next(plan) == (0, 1) and next(plan) == (1, 1)  # a list of 10^12 chunks would never return


@pytest.mark.parametrize("option", ["rollouts=4294967296", "rollouts=²", "rollouts=" + "9" * 23, "rollouts=0"])
def test_search_budgets_are_bounded(option):
    with pytest.raises(UserError, match="rollouts: expected a whole number from 1 to 65,536"):
        simulate("ocracoke", "base", 1, policies={"0": f"search:{option}"})


def test_a_bot_for_a_seat_the_game_does_not_have_is_refused():
    with pytest.raises(UserError, match="with 2 players the seats are 0, 1; seat 3 does not play"):
        simulate("ocracoke", "base", 10, policies={"3": "random"}, players=2)


def test_policy_all_with_an_unknown_bot_names_all():
    with pytest.raises(UserError, match="^--policy all=genius: expected a bot name, one of"):
        simulate("island-nation", "base", 10, policies={"all": "genius"})


def test_scheduler_without_dask_is_refused():
    with pytest.raises(UserError, match="--scheduler"):
        simulate(TOY, SCENARIO, 10, scheduler="tcp://127.0.0.1:1")


def test_unreachable_dask_scheduler_is_a_user_error(monkeypatch):
    pytest.importorskip("distributed")
    # nothing listens on port 9, so the client retries until its timeout: 1 s proves the same as the 10 s default
    monkeypatch.setattr("sim.core.cluster.CONNECT_TIMEOUT_S", 1)
    with pytest.raises(UserError, match="cannot reach a Dask scheduler there within 1 s"):
        simulate(TOY, SCENARIO, 10, jobs=2, backend="dask", scheduler="tcp://127.0.0.1:9")


@pytest.mark.parametrize("game,table,keys", [("island-nation", "points", ["point"]),
                                             ("wonderful-island", "venue_stats", ["venue", "bucket"])])
def test_per_run_tables_do_not_depend_on_the_chunking(tmp_path, game, table, keys):
    frames = []
    for i, (jobs, chunk) in enumerate([(1, 600), (2, 150)]):
        simulate(game, "base", 600, seed=9, jobs=jobs, chunk_size=chunk, out=tmp_path / str(i))
        frames.append(rows(tmp_path / str(i), table).sort(keys))
        assert len(list((tmp_path / str(i) / table).glob("*.parquet"))) == 1
    assert frames[0].equals(frames[1])
    kept = simulate(game, "base", 600, seed=9, chunk_size=150, keep_rows=True).events_frame(table).sort(keys)
    assert kept.equals(frames[0])
    assert np.array_equal(frames[0][keys[0]].to_numpy(), np.sort(frames[0][keys[0]].to_numpy()))
