"""One generic test module for every registered game (and the toy): adding a game adds its checks.

Shapes and dtypes of a batch, determinism across batch splits, replay of one game by trace,
metric naming conventions, scenario provenance (every assumed value has a note).
"""

import numpy as np
import polars as pl
import pytest
from toy_game import SCENARIO, TOY

from sim.core.registry import all_games
from sim.core.runner import RunSummary, resolve_scenario, summarize_chunk

CASES = [pytest.param((TOY, SCENARIO), id="toy")] + [
    pytest.param((spec, "base"), id=name) for name, spec in all_games().items()]
N = 400


@pytest.fixture(params=CASES)
def case(request):
    spec, scenario = request.param
    scen = resolve_scenario(spec, scenario, (), None)
    return spec, scen, spec.policy_array(scen.rules)


def test_batch_columns_are_integer_arrays_of_equal_length(case):
    spec, scen, policy = case
    chunk = spec.play(scen.rules, policy, 5, 0, N)
    assert len(chunk) == N
    for table in [chunk.games, *chunk.events.values()]:
        lengths = {col.shape[0] for col in table.values()}
        assert len(lengths) == 1
        for name, col in table.items():
            assert col.ndim == 1 and np.issubdtype(col.dtype, np.integer) or col.dtype == np.bool_, name


def test_a_batch_split_in_two_equals_the_whole(case):
    spec, scen, policy = case
    whole = spec.play(scen.rules, policy, 9, 100, N)
    first = spec.play(scen.rules, policy, 9, 100, N // 2)
    second = spec.play(scen.rules, policy, 9, 100 + N // 2, N - N // 2)
    for name, col in whole.games.items():
        assert np.array_equal(col, np.concatenate([first.games[name], second.games[name]])), name


def test_trace_replays_the_batch_row(case):
    spec, scen, policy = case
    batch = spec.play(scen.rules, policy, 21, 0, 50)
    for index in (0, 17, 49):
        trace = spec.trace(scen.rules, policy, 21, index)
        assert trace.lines and all(isinstance(line, str) for line in trace.lines)
        for name, col in trace.chunk.games.items():
            assert col[0] == batch.games[name][index], (index, name)


def test_metrics_follow_the_conventions(case):
    spec, scen, policy = case
    metrics = spec.metrics(scen.rules)
    names = [m.name for m in metrics]
    assert len(set(names)) == len(names)
    for role in spec.roles:
        if role.isdigit() and int(role) >= scen.rules.players:
            continue
        assert f"win_{role}" in names
    chunk = spec.play(scen.rules, policy, 1, 0, N)
    values = spec.per_game(scen.rules, chunk)
    assert set(values) == set(names)
    for m in metrics:
        v = np.asarray(values[m.name])
        assert v.shape == (N,) and np.issubdtype(v.dtype, np.integer)
        if m.kind == "rate":
            assert set(np.unique(v)) <= {0, 1}, m.name


def test_tables_have_intervals_and_n(case):
    spec, scen, policy = case
    summary = RunSummary()
    summary.add(summarize_chunk(spec, scen.rules, spec.play(scen.rules, policy, 2, 0, N)))
    for name, frame in spec.tables(scen.rules, summary).items():
        assert isinstance(frame, pl.DataFrame) and frame.height > 0, name
        if "value" in frame.columns:
            assert {"lo", "hi", "n"} <= set(frame.columns), name


def test_every_rule_field_says_where_it_comes_from(case):
    spec, scen, _ = case
    for name, info in spec.rules_model.model_fields.items():
        extra = info.json_schema_extra or {}
        assert "rule" in extra or extra.get("assumed"), f"{name}: give a rule ID or mark it assumed"
        if extra.get("assumed"):
            assert scen.sources[name].kind == "assumed" and scen.sources[name].note, name
    assert spec.rules_model.model_fields["players"].json_schema_extra
    assert scen.rules.players in spec.player_counts


@pytest.mark.parametrize("name", sorted(all_games()))
def test_entry_points_reach_worker_processes_as_themselves(name):
    """Worker processes receive a game's entry points by name (pickled by reference): once every module
    of the game's package is imported, each name must still lead to the same function (a submodule named
    like an entry point would shadow it: `sim robust island-nation -j 2` failed so with a module play.py)."""
    import importlib
    import pickle
    import pkgutil

    spec = all_games()[name]
    package = importlib.import_module(".".join(spec.play.__module__.split(".")[:3]))  # sim.games.<game>
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")
    for entry in (spec.play, spec.metrics, spec.per_game, spec.tally, spec.tables, spec.trace):
        assert pickle.loads(pickle.dumps(entry)) is entry, entry.__qualname__
