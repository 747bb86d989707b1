"""Imports run one way (issue 22 item 6): sim.core below the games, the games below sim.workflow and the
CLI, and within Island Nation play -> search -> engine. Read from the sources (every import statement,
at the top of a file or inside a function), so nothing is compiled."""

import ast
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[2] / "sim"
# the two known reaches upward, each for a reason: the registry lists the packages under sim/games/ (it
# finds the games, it uses none of them); the runner stamps run.json with the package's version
ALLOWED = {("core/registry.py", "sim.games"), ("core/runner.py", "sim"), ("core/runner.py", "sim.__version__")}


def imports(path: Path) -> set[str]:
    """Every module a file imports (absolute ``sim.`` names), wherever the import statement stands."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "sim" or name.startswith("sim.")}


@pytest.mark.parametrize("folder, above", [
    ("core", ("sim", "sim.games", "sim.workflow", "sim.cli")),
    ("games", ("sim.workflow", "sim.cli")),
])
def test_no_module_imports_the_layers_above_it(folder, above):
    for path in sorted((SIM / folder).rglob("*.py")):
        bad = sorted(name for name in imports(path)
                     if (str(path.relative_to(SIM)), name) not in ALLOWED and any(name == top if top == "sim" else name == top or name.startswith(top + ".")
                            for top in above))
        assert not bad, f"{path.relative_to(SIM.parent)} imports {', '.join(bad)} (a layer above it)"


def test_island_nation_engine_does_not_import_its_search():
    engine = imports(SIM / "games" / "island_nation" / "engine.py")
    assert not any(name.startswith("sim.games.island_nation.search") for name in engine)
