"""joblib reuses its loky workers, which keep the environment they started with; the runner hands each
chunk the caller's ``SIM_SCENARIOS`` (sim.core.runner._in_scenarios), so a run reads the scenarios and
maps the caller reads now, not those of an earlier run in the same process. Without it, a worker
started while a workflow test pointed ``SIM_SCENARIOS`` at the toy game's scenarios later looked for
Island Nation's maps there and raised ScenarioError (seen only in some test orders)."""

from sim.core.runner import _iter_parallel
from sim.core.scenario import scenario_root


def _root_in_worker(_):
    from sim.core.scenario import scenario_root

    return str(scenario_root())


def _roots(jobs=2):
    return set(_iter_parallel([(i,) for i in range(4)], jobs, "loky", None, work=_root_in_worker))


def test_reused_workers_follow_a_changed_sim_scenarios(monkeypatch, tmp_path):
    monkeypatch.delenv("SIM_SCENARIOS", raising=False)
    repository = str(scenario_root())
    assert _roots() == {repository}
    monkeypatch.setenv("SIM_SCENARIOS", str(tmp_path))
    assert _roots() == {str(tmp_path)}
    monkeypatch.delenv("SIM_SCENARIOS")
    assert _roots() == {repository}
