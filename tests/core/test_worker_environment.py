"""joblib's reused loky workers read the scenarios the caller reads now, not those of an earlier test
(tests/conftest.py): the cause of a ScenarioError that appeared only in some test orders."""

from joblib import Parallel, delayed

from sim.core.scenario import scenario_root


def _root_in_worker(_):
    from sim.core.scenario import scenario_root

    return str(scenario_root())


def test_reused_workers_follow_a_changed_sim_scenarios(monkeypatch, tmp_path):
    monkeypatch.delenv("SIM_SCENARIOS", raising=False)
    repository = str(scenario_root())
    assert set(Parallel(n_jobs=2)(delayed(_root_in_worker)(i) for i in range(4))) == {repository}
    monkeypatch.setenv("SIM_SCENARIOS", str(tmp_path))
    assert set(Parallel(n_jobs=2)(delayed(_root_in_worker)(i) for i in range(4))) == {str(tmp_path)}
    monkeypatch.delenv("SIM_SCENARIOS")
    assert set(Parallel(n_jobs=2)(delayed(_root_in_worker)(i) for i in range(4))) == {repository}
