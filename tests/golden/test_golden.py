"""Golden traces: every recorded `sim trace` log under tests/golden/<game>/ replays byte for byte.

A failure means what happens in a game changed. If the change is intended, run `make golden`
and review the diff of the recorded logs before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.core.registry import all_games
from sim.workflow.golden import parse_case, render

GOLDEN = sorted(Path(__file__).parent.glob("*/*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_recorded_trace_replays_exactly(path):
    game, scenario, seed, index = parse_case(path)
    assert game in all_games(), f"{path}: golden trace of an unregistered game {game!r}"
    assert render(game, seed, index, scenario) == path.read_text(), (
        f"{path} changed: if intended, run `make golden` and review the diff")


def test_every_registered_game_has_golden_traces():
    recorded = {p.parent.name for p in GOLDEN}
    missing = sorted(set(all_games()) - recorded)
    assert not missing, f"no golden traces for {', '.join(missing)}: run `make golden`"


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_recorded_row_is_what_the_batch_engine_plays(path):
    """The traced game is the very game the batch engine plays at that index (same stream, same code)."""
    import json

    import numpy as np

    from sim.workflow.common import scenario_of

    game, scenario, seed, index = parse_case(path)
    spec = all_games()[game]
    rules = scenario_of(spec, scenario).rules
    batch = spec.play(rules, spec.policy_array(rules), seed, index, 1)
    row = json.loads(path.read_text().splitlines()[-1].removeprefix("# row: "))
    assert row == {k: np.asarray(v)[0].tolist() for k, v in spec.named_rows(batch.games).items()}
