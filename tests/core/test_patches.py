"""Patches, not copies (issue 22 item 4): Island Nation maps and Wonderful Island catalogues take
``extends`` plus small edits, validated like scenarios; and every file under scenarios/ loads."""

from pathlib import Path

import numpy as np
import pytest
from sim_cli import run_sim

from sim.core.errors import ScenarioError
from sim.core.registry import all_games
from sim.core.scenario import load_scenario, scenario_root
from sim.games.island_nation.board import load_board, map_path
from sim.games.wonderful_island.catalogue import load_catalogue


def test_every_file_under_scenarios_loads():
    """Each TOML file is a scenario of its game, a map or a catalogue, and validates as one."""
    root = scenario_root()
    games = {spec.name: spec for spec in all_games().values()}
    files = sorted(root.rglob("*.toml"))
    assert files
    for file in files:
        parts = file.relative_to(root).parts
        if parts[:2] == ("island-nation", "maps"):
            assert load_board(file).labels, file
        elif parts[:2] == ("wonderful-island", "catalogue"):
            assert len(load_catalogue(str(file)).deck) > 0, file
        else:
            assert len(parts) == 2 and parts[0] in games, f"{file}: not a scenario, map or catalogue"
            spec = games[parts[0]]
            assert load_scenario(spec.name, spec.rules_model, file.stem, []).name == file.stem


def road_set(board):
    return {frozenset((board.labels[p], board.labels[q])) for p in range(len(board.labels))
            for q in board.road_step[p] if q >= 0}


def test_shipped_map_patch_is_kaoteng_without_exit_f():
    base, patched = load_board(map_path("kaoteng")), load_board(map_path("kaoteng-no-f"))
    assert set(base.labels) - set(patched.labels) == {"F"} and "F" not in patched.evac_labels
    assert patched.evac_labels == tuple(e for e in base.evac_labels if e != "F")
    assert road_set(patched) == {r for r in road_set(base) if "F" not in r}
    assert patched.name == "kaoteng-no-f"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_map_patch_adds_and_removes_points_and_roads(tmp_path):
    base = load_board(map_path("kaoteng"))
    a, b = sorted(road_set(base), key=sorted)[0]
    free = next((q, r) for q in range(-5, 20) for r in range(-5, 30)
                if (q, r) not in {tuple(c) for c in base.coords.tolist()}
                and (q - 1, r) in {tuple(c) for c in base.coords.tolist()})
    near = base.labels[[tuple(c) for c in base.coords.tolist()].index((free[0] - 1, free[1]))]
    patch = write(tmp_path, "p.toml", f'extends = "kaoteng"\nremove_roads = ["{b}-{a}"]\n'
                  f'add_points = [{{ label = "Z", q = {free[0]}, r = {free[1]} }}]\nadd_roads = ["{near}-Z"]\n')
    board = load_board(patch)
    assert road_set(board) == (road_set(base) - {frozenset((a, b))}) | {frozenset((near, "Z"))}
    assert board.labels[-1] == "Z" and board.road_dist[board.index["Z"], board.index[near]] == 1


@pytest.mark.parametrize("text, key", [
    ('extends = "kaoteng"\nremove_points = ["nowhere"]\n', "remove_points"),
    ('extends = "kaoteng"\nremove_roads = ["1-106"]\n', "remove_roads"),
    ('extends = "kaoteng"\npoints = []\n', "points"),
    ('extends = "no-such-map"\n', "extends"),
    ('extends = "p.toml"\n', "extends"),
    ('extends = "kaoteng"\nadd_roads = ["1-106"]\n', "roads[205] (1-106)"),
])
def test_bad_map_patch_names_the_patch_file_and_key(tmp_path, text, key):
    patch = write(tmp_path, "p.toml", text)
    with pytest.raises(ScenarioError) as err:
        load_board(patch)
    assert err.value.file == str(patch) and err.value.key == key, err.value


def test_shipped_catalogue_patch_adds_one_card():
    base, patched = load_catalogue("base"), load_catalogue("extra-card")
    assert patched.card_names == (*base.card_names, "街頭看板")
    assert len(patched.deck) == len(base.deck) + 1
    assert np.array_equal(patched.char_table, base.char_table)


def test_catalogue_patch_removes_replaces_and_changes_copies(tmp_path):
    base = load_catalogue("base")
    first, second = base.card_names[0], base.card_names[1]  # support cards, 8 and 5 copies
    patch = write(tmp_path, "c.toml", f'extends = "base"\nremove = ["{second}"]\n'
                  f'copies = {{ "{first}" = 13 }}\n')
    cat = load_catalogue(str(patch))
    assert second not in cat.card_names and int((cat.deck == cat.card_kind(first)).sum()) == 13
    assert len(cat.deck) == len(base.deck)


@pytest.mark.parametrize("text, key", [
    ('extends = "base"\nremove = ["no such card"]\n', "remove"),
    ('extends = "base"\ncopies = { "no such card" = 2 }\n', "copies.no such card"),
    ('extends = "base"\nshuffle = 1\n', "shuffle"),
    ('extends = "nothing-here"\n', "extends"),
    ('extends = "base"\n[counts]\nsupport = 27\n', "card (support)"),
])
def test_bad_catalogue_patch_names_the_patch_file_and_key(tmp_path, text, key):
    patch = write(tmp_path, "c.toml", text)
    with pytest.raises(ScenarioError) as err:
        load_catalogue(str(patch))
    assert err.value.file == str(patch) and err.value.key == key, err.value


def test_a_bad_patch_exits_2_with_one_line(tmp_path):
    patch = write(tmp_path, "p.toml", 'extends = "kaoteng"\nremove_points = ["Q9"]\n')
    proc = run_sim("run", "island-nation", "--set", f'map="{patch}"', "--games", "10")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{patch}: remove_points: expected labels of points of the map kaoteng" in proc.stderr
