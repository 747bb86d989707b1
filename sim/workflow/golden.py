"""Golden traces: a few recorded ``sim trace`` logs per game, replayed and compared exactly.

Each file ``tests/golden/<game>/seed<S>-game<I>.txt`` is the command that made it, the readable
log of that game and its per-game row as JSON. Any change to what happens in a game shows up as a
diff in review; ``make golden`` (scripts/golden.py) refreshes them on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sim.core import registry
from sim.core.game import GameSpec
from sim.workflow.common import resolve_game, scenario_of

CASES = ((0, 0), (0, 1), (1, 17))  # (seed, game index) recorded for every game
SCENARIO = "base"


def golden_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "tests" / "golden"


def render(game: str | GameSpec, seed: int, index: int, scenario: str = SCENARIO) -> str:
    """The golden text of one game: command, trace lines and the per-game row."""
    spec = resolve_game(game)
    scen = scenario_of(spec, scenario)
    policy = spec.policy_array(scen.rules)
    trace = spec.trace(scen.rules, policy, seed, index)
    row = {k: np.asarray(v)[0].tolist() for k, v in spec.named_rows(trace.chunk.games).items()}
    header = [f"# sim trace {spec.name} --scenario {scenario} --seed {seed} --index {index}",
              "# bots: " + ", ".join(f"{r}={b}" for r, b in spec.policy_names(policy).items())]
    return "\n".join(header + trace.lines + ["# row: " + json.dumps(row, sort_keys=True)]) + "\n"


def case_path(spec_name: str, seed: int, index: int, folder: Path | None = None) -> Path:
    return (folder or golden_dir()) / spec_name / f"seed{seed}-game{index}.txt"


def parse_case(path: Path) -> tuple[str, str, int, int]:
    """(game, scenario, seed, index) from a golden file's first line."""
    words = path.read_text().splitlines()[0].split()
    opts = dict(zip(words[4::2], words[5::2], strict=False))
    return words[3], opts["--scenario"], int(opts["--seed"]), int(opts["--index"])


def refresh(games: list[str | GameSpec] | None = None, folder: Path | None = None) -> list[Path]:
    """Record the golden traces of the given games (default: every registered game)."""
    specs = [resolve_game(g) for g in games] if games else list(registry.all_games().values())
    written = []
    for spec in specs:
        for seed, index in CASES:
            path = case_path(spec.name, seed, index, folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(spec, seed, index))
            written.append(path)
    return written


def stale(games: list[str | GameSpec] | None = None, folder: Path | None = None) -> list[Path]:
    """Golden files whose replay no longer matches, byte for byte."""
    specs = {s.name: s for s in ([resolve_game(g) for g in games] if games else registry.all_games().values())}
    changed = []
    for path in sorted((folder or golden_dir()).glob("*/*.txt")):
        name, scenario, seed, index = parse_case(path)
        if name in specs and render(specs[name], seed, index, scenario) != path.read_text():
            changed.append(path)
    return changed
