"""The Island Nation map: the rulebook's worked examples on the default map, the structure of the
arrays the engine reads, and one test per kind of map-file error (docs/maps.md)."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow, shortest_path

from sim.core.errors import ScenarioError
from sim.games.island_nation.board import (
    DEFAULT_MAP,
    DIRECTION_STEPS,
    UNREACHABLE,
    Board,
    board_for,
    default_board,
    load_board,
    map_path,
    opposite,
)
from sim.games.island_nation.mapview import hex_centres


@pytest.fixture(scope="module")
def board() -> Board:
    return default_board()


# ---------------------------------------------------------------------------------------------
# The rulebook's worked examples (IN-MAP-EX1..3)


def test_in_map_ex1_from_64_directions_6_1_6_end_at_11(board):
    """IN-MAP-EX1: 水鬼告知所有玩家「自己朝6、1、6方向移動」… 最後停在 11 號戰略點."""
    assert board.walk("64", (6, 1, 6))[-1] == "11"


def test_in_map_ex2_from_11_directions_2_2_3_pass_46_39_40(board):
    """IN-MAP-EX2: 本回合水鬼從11號開始，依次經過46、39、40 (the bottle's 2、2、3 path)."""
    assert board.walk("11", (2, 2, 3)) == ["46", "39", "40"]


def test_in_map_ex3_a_shot_in_direction_3_covers_104_105_106(board):
    """IN-MAP-EX3: 三號砲兵宣布朝 3 的方向開槍，則射擊範圍為 104、105、106 (nearest first)."""
    shooters = [board.labels[p] for p in range(len(board.labels))
                if [board.labels[x] for x in board.line[p, 2]] == ["104", "105", "106"]]
    assert shooters == ["103"]
    assert board.shot_labels("103", 3) == ["104", "105", "106"]


def test_in_map_road_walk_refuses_a_step_without_road(board):
    """IN-MAP-ROAD: a move follows a road; a direction with no road from the point is not a move."""
    p = board.index["1"]
    missing = [d for d in range(1, 7) if board.road_step[p, d - 1] < 0]
    assert missing, "point 1 is on the coast: some direction has no road"
    with pytest.raises(ValueError, match="no road from point 1"):
        board.walk("1", (missing[0],))


# ---------------------------------------------------------------------------------------------
# The default map: what the brief asks of Kaoteng Island


def test_in_map_evac_default_map_has_about_110_points_and_evac_a_to_f_on_the_coast(board):
    """IN-MAP-EVAC: 成功撤離到任一紅色的撤退點 (地圖上 A~F): six evac points, each on the coast."""
    numbered = [label for label in board.labels if label.isdigit()]
    assert sorted(map(int, numbered)) == list(range(1, len(numbered) + 1))
    assert 100 <= len(numbered) <= 120
    assert board.evac_labels == ("A", "B", "C", "D", "E", "F")
    for p in np.flatnonzero(board.is_evac):
        assert (board.neighbour[p] < 0).sum() >= 2, f"{board.labels[p]} borders the sea"
        assert (board.road_step[p] >= 0).any()
        assert not board.is_evac[board.neighbour[p][board.neighbour[p] >= 0]].any()


def test_default_map_is_elongated_north_south(board):
    xy = hex_centres(board.coords)
    width, height = xy.max(axis=0) - xy.min(axis=0)
    assert height > 1.5 * width


def test_default_map_roads_are_a_sparse_network_with_a_chokepoint(board):
    """Not every neighbour pair is a road, and few roads cross the neck between the two lobes."""
    roads = int((board.road_step >= 0).sum()) // 2
    pairs = int((board.neighbour >= 0).sum()) // 2
    assert 0.4 * pairs < roads < 0.8 * pairs
    n = len(board.labels)
    rows, cols = np.nonzero(board.road_step >= 0)
    graph = csr_matrix((np.ones(rows.size, dtype=np.int32), (rows, board.road_step[rows, cols])), shape=(n, n))
    north, south = board.index["1"], board.index["114"]
    assert maximum_flow(graph, north, south).flow_value <= 3


def test_numbering_runs_row_by_row_except_the_example_point(board):
    """Points are numbered north to south, west to east; only 11 is moved (IN-MAP-EX1 ends there)."""
    order = sorted((int(board.labels[p]), p) for p in range(len(board.labels)) if not board.is_evac[p])
    keyed = [(int(board.coords[p, 1]), int(hex_centres(board.coords[p:p + 1])[0, 0])) for _, p in order]
    out_of_order = [order[i][0] for i in range(1, len(keyed)) if keyed[i] < keyed[i - 1]]
    assert set(out_of_order) <= {11, 12, 54, 55}


# ---------------------------------------------------------------------------------------------
# Arrays the engine reads (IN-MAP-DIR, IN-MAP-ROAD, IN-MAP-LINE)


def _check_structure(board: Board) -> None:
    n = len(board.labels)
    assert board.coords.shape == (n, 2) and board.coords.dtype == np.int64
    for name, shape in (("road_step", (n, 6)), ("neighbour", (n, 6)), ("line", (n, 6, 3)),
                        ("road_dist", (n, n)), ("evac_dist", (n,))):
        array = getattr(board, name)
        assert array.shape == shape and array.dtype == np.int64 and array.flags.c_contiguous, name
    assert board.is_evac.dtype == np.bool_ and len(board.terrain) == n
    assert all(board.index[label] == p for p, label in enumerate(board.labels))
    at = {tuple(map(int, c)): p for p, c in enumerate(board.coords)}
    for p, d in itertools.product(range(n), range(1, 7)):
        for k in range(3):
            hex_ = tuple(int(v) for v in board.coords[p] + (k + 1) * DIRECTION_STEPS[d - 1])
            assert board.line[p, d - 1, k] == at.get(hex_, -1)
        other = board.neighbour[p, d - 1]
        assert board.road_step[p, d - 1] in (-1, other)
        if other >= 0:
            assert board.neighbour[other, opposite(d) - 1] == p
        step = board.road_step[p, d - 1]
        if step >= 0:
            assert board.road_step[step, opposite(d) - 1] == p
    assert (board.line[:, :, 0] == board.neighbour).all()
    adjacency = np.zeros((n, n))
    rows, cols = np.nonzero(board.road_step >= 0)
    adjacency[rows, board.road_step[rows, cols]] = 1
    expected = shortest_path(adjacency, unweighted=True)
    expected[np.isinf(expected)] = UNREACHABLE
    assert (board.road_dist == expected.astype(np.int64)).all()
    assert (board.evac_dist == board.road_dist[:, board.is_evac].min(axis=1)).all()


def test_in_map_arrays_of_the_default_map_are_consistent(board):
    """IN-MAP-DIR, IN-MAP-ROAD, IN-MAP-LINE: opposite directions are symmetric, roads are a subset of
    neighbours, lines run straight from the point, road distances agree with an independent shortest-path."""
    _check_structure(board)
    assert (board.road_dist < UNREACHABLE).all()
    assert (board.evac_dist[board.is_evac] == 0).all() and (board.evac_dist[~board.is_evac] > 0).all()


def test_in_map_line_ignores_roads_and_carries_over_sea(tmp_path):
    """IN-MAP-LINE: 射擊到最多三格遠的位置，有沒有道路無所謂 — a shot east from 1 covers 2 (no road
    joins them) and 3 beyond a sea hex; the road walk cannot go that way."""
    bay = _write(tmp_path, """
evac = ["3"]
points = [
  { label = "1", q = 0, r = 0 }, { label = "2", q = 1, r = 0 }, { label = "3", q = 3, r = 0 },
  { label = "4", q = 0, r = 1 }, { label = "5", q = 1, r = 1 }, { label = "6", q = 2, r = 1 },
]
roads = ["1-4", "4-5", "2-5", "5-6", "3-6"]
""")
    island = load_board(bay)
    assert [int(p) for p in island.line[island.index["1"], 2]] == [island.index["2"], -1, island.index["3"]]
    assert island.shot_labels("1", 3) == ["2", "3"]
    assert island.road_step[island.index["1"], 2] == -1 and island.road_dist[0, 1] == 3


def test_in_map_dir_numbering_is_clockwise_from_north_west():
    """IN-MAP-DIR: 1 NW, 2 NE, 3 E, 4 SE, 5 SW, 6 W (north up); opposite of d is ((d + 2) % 6) + 1."""
    xy = hex_centres(DIRECTION_STEPS)
    bearings = np.degrees(np.arctan2(xy[:, 0], xy[:, 1])) % 360  # clockwise from north
    assert np.allclose(bearings, [330, 30, 90, 150, 210, 270])
    assert [opposite(d) for d in range(1, 7)] == [4, 5, 6, 1, 2, 3]
    assert all((DIRECTION_STEPS[d - 1] + DIRECTION_STEPS[opposite(d) - 1] == 0).all() for d in range(1, 7))


# ---------------------------------------------------------------------------------------------
# Finding maps: board_for(rules) and map names


def test_board_for_names_a_shipped_map_or_a_file_and_caches_it(tmp_path, board):
    assert board_for(SimpleNamespace(map="kaoteng")) is board
    file = _write(tmp_path, TINY)
    first = board_for(SimpleNamespace(map=str(file)))
    assert first.labels == ("1", "2", "3", "A") and board_for(SimpleNamespace(map=str(file))) is first


def test_map_file_names_resolve_from_the_working_directory_or_the_maps_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert map_path("kaoteng") == map_path("kaoteng.toml") == map_path(DEFAULT_MAP)
    assert map_path("kaoteng").is_file()
    _write(tmp_path, TINY)
    assert map_path("map.toml") == Path("map.toml")


def test_unknown_map_name_lists_the_shipped_maps():
    with pytest.raises(ScenarioError) as err:
        map_path("kaotang")
    assert err.value.key == "map" and "kaoteng" in err.value.expected and err.value.found == "kaotang"


# ---------------------------------------------------------------------------------------------
# Validation: one test per kind of error, each naming the file, the point and what is wrong

TINY = """
name = "tiny"
evac = ["A"]
points = [
  { label = "1", q = 0, r = 0 },
  { label = "2", q = 1, r = 0 },
  { label = "3", q = 0, r = 1 },
  { label = "A", q = 1, r = 1, terrain = "beach" },
]
roads = ["1-2", "1-3", "3-A"]
"""


def _write(folder: Path, text: str) -> Path:
    file = folder / "map.toml"
    file.write_text(text, encoding="utf-8")
    return file


def _error(tmp_path: Path, text: str) -> ScenarioError:
    file = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as err:
        load_board(file)
    assert err.value.file == str(file)
    return err.value


def test_tiny_map_loads(tmp_path):
    tiny = load_board(_write(tmp_path, TINY))
    _check_structure(tiny)
    assert tiny.walk("2", (6, 4, 3)) == ["1", "3", "A"] and list(tiny.evac_dist) == [2, 3, 1, 0]


def test_error_file_is_not_toml(tmp_path):
    err = _error(tmp_path, "points = [")
    assert err.key == "(file)" and err.expected == "valid TOML"


def test_error_missing_file(tmp_path):
    with pytest.raises(ScenarioError) as err:
        load_board(tmp_path / "none.toml")
    assert err.value.expected == "an existing map file"


def test_error_unknown_top_level_key(tmp_path):
    err = _error(tmp_path, TINY + 'colour = "red"\n')
    assert err.key == "colour"


def test_error_duplicate_label(tmp_path):
    err = _error(tmp_path, TINY.replace('label = "3"', 'label = "2"'))
    assert err.key == "points[2] (point 2).label" and "already points[1]" in err.expected


def test_error_duplicate_coordinates(tmp_path):
    err = _error(tmp_path, TINY.replace('label = "3", q = 0, r = 1', 'label = "3", q = 1, r = 0'))
    assert err.key == "points[2] (point 3).q/r" and "point 2 is already there" in err.expected
    assert err.found == (1, 0)


def test_error_bad_coordinate_and_label(tmp_path):
    assert _error(tmp_path, TINY.replace("q = 1, r = 1", 'q = "x", r = 1')).key == "points[3] (point A).q"
    assert _error(tmp_path, TINY.replace('label = "1"', 'label = "1-1"')).key == "points[0].label"
    assert _error(tmp_path, TINY.replace('label = "1"', 'label = "1 1"')).key == "points[0].label"
    assert _error(tmp_path, TINY.replace('label = "1",', 'label = "1", height = 3,')).key == "points[0].height"


def test_error_road_names_an_unknown_label(tmp_path):
    err = _error(tmp_path, TINY.replace('"1-3"', '"1-7"'))
    assert err.key == "roads[1] (1-7)" and "unknown label" in err.expected and err.found == "7"


def test_error_road_between_non_neighbours(tmp_path):
    err = _error(tmp_path, TINY.replace('"1-3"', '"1-A"'))
    assert err.key == "roads[1] (1-A)" and "neighbouring" in err.expected
    assert err.found == "1 at (0, 0) and A at (1, 1), 2 hexes apart"


def test_error_road_listed_twice(tmp_path):
    err = _error(tmp_path, TINY.replace('"1-3"', '"1-3", "3-1"'))
    assert err.key == "roads[2] (3-1)" and "once" in err.expected


def test_error_malformed_road(tmp_path):
    assert _error(tmp_path, TINY.replace('"1-3"', '"1 3"')).key == "roads[1]"


def test_error_missing_evac_points(tmp_path):
    err = _error(tmp_path, TINY.replace('evac = ["A"]', "evac = []"))
    assert err.key == "evac" and "non-empty" in err.expected
    err = _error(tmp_path, TINY.replace('evac = ["A"]', 'evac = ["A", "B"]'))
    assert err.key == "evac" and "missing" in err.expected and err.found == "B"


def test_error_evac_point_unreachable(tmp_path):
    err = _error(tmp_path, TINY.replace('"3-A"', '"2-3"'))
    assert err.key == "evac (A)" and "reachable by road from point 1" in err.expected


def test_error_point_unreachable(tmp_path):
    err = _error(tmp_path, TINY.replace('"1-2", ', ""))
    assert err.key == "points (point 2)" and err.found == "no road path"


def test_error_message_is_one_line_naming_file_key_and_expectation(tmp_path):
    err = _error(tmp_path, TINY.replace('"1-3"', '"1-A"'))
    assert str(err).startswith(f"{tmp_path / 'map.toml'}: roads[1] (1-A): expected a road between")
    assert "\n" not in str(err)


# ---------------------------------------------------------------------------------------------
# Any valid map builds consistent arrays (property test over random islands)


@st.composite
def islands(draw):
    """A random connected blob of hexes with a random spanning road tree, extra roads and evac points."""
    size = draw(st.integers(2, 40))
    hexes = [(0, 0)]
    while len(hexes) < size:
        q, r = hexes[draw(st.integers(0, len(hexes) - 1))]
        dq, dr = DIRECTION_STEPS[draw(st.integers(0, 5))]
        if (q + int(dq), r + int(dr)) not in hexes:
            hexes.append((q + int(dq), r + int(dr)))
    roads = []
    for i in range(1, size):
        linked = [j for j in range(i) if _adjacent(hexes[i], hexes[j])]
        roads.append((linked[draw(st.integers(0, len(linked) - 1))], i))
    extra = [(i, j) for i in range(size) for j in range(i + 1, size)
             if _adjacent(hexes[i], hexes[j]) and (i, j) not in roads and draw(st.booleans())]
    evac = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=6, unique=True))
    labels = [f"P{i}" if i not in evac else f"E{i}" for i in range(size)]
    text = "evac = [" + ", ".join(f'"{labels[i]}"' for i in evac) + "]\npoints = [\n"
    text += "".join(f'  {{ label = "{labels[i]}", q = {q}, r = {r} }},\n' for i, (q, r) in enumerate(hexes))
    text += "]\nroads = [" + ", ".join(f'"{labels[a]}-{labels[b]}"' for a, b in roads + extra) + "]\n"
    return text


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return any(a[0] + int(dq) == b[0] and a[1] + int(dr) == b[1] for dq, dr in DIRECTION_STEPS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=islands())
def test_in_map_any_valid_map_builds_consistent_arrays(tmp_path, text):
    """IN-MAP-DIR, IN-MAP-ROAD, IN-MAP-LINE on random islands: the same structural facts as on the default map."""
    island = load_board(_write(tmp_path, text))
    _check_structure(island)
    assert (island.road_dist < UNREACHABLE).all()


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items()) + " }"


_scalars = st.one_of(st.integers(-3, 3), st.sampled_from(["1", "2", "3", "A", "B", "1-2", "1-A", "3-A", "", " "]),
                     st.booleans(), st.floats(-2, 2, allow_nan=False))
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(st.sampled_from(["label", "q", "r",
                                                                                           "terrain", "x"]),
                                                                          inner, max_size=4)), max_leaves=10)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["name", "evac", "points", "roads", "extra"]), value=_values,
       point=st.integers(0, 3), field=st.sampled_from(["label", "q", "r", "terrain"]))
def test_any_broken_map_file_gives_a_scenario_error_not_a_crash(tmp_path, key, value, point, field):
    """Whatever a map file holds, the loader answers with a Board or a ScenarioError naming the file."""
    import tomllib

    data = tomllib.loads(TINY)
    if key == "points":
        data["points"][point][field] = value
    else:
        data[key] = value
    text = "\n".join(f"{k} = {_toml_value(v)}" for k, v in data.items())
    try:
        load_board(_write(tmp_path, text))
    except ScenarioError as err:
        assert err.file == str(tmp_path / "map.toml") and "\n" not in str(err)
