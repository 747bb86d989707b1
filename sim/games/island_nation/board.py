"""Island Nation's hex map as data: the map file format, its loader and validation, and the Board.

A map file (``scenarios/island-nation/maps/<name>.toml``, format in ``docs/maps.md``) lists the points
(label, axial hex coordinates, optional terrain tag), which of them are evacuation points, and the
roads, each joining two neighbouring points. The loader checks it and builds the arrays the engine
needs (rules MAP-DIR, MAP-ROAD, MAP-LINE, MAP-EVAC in ``docs/rules/island-nation.md``).

Hexes are pointy-top; axial coordinates ``(q, r)`` with ``r`` growing southward. The six directions
are numbered clockwise starting north-west::

        1 NW   2 NE
    6 W    (q,r)    3 E
        5 SW   4 SE

Direction ``d``'s opposite is ``((d + 2) % 6) + 1``. Arrays indexed by direction use column ``d - 1``.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.errors import ScenarioError
from sim.core.scenario import scenario_root

DIRECTION_NAMES = ("NW", "NE", "E", "SE", "SW", "W")  # direction d is DIRECTION_NAMES[d - 1]
DIRECTION_STEPS = np.array([(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)], dtype=np.int64)
SHOT_RANGE = 3  # a shot reaches 1, 2 and 3 hexes away (rule text: 射擊到最多三格遠的位置)
UNREACHABLE = 1_000_000  # road_dist between points with no road path (a valid map has none)
DEFAULT_MAP = "kaoteng"
FILE_KEYS = {"name", "title", "description", "evac", "points", "roads"}
PATCH_KEYS = {"extends", "name", "title", "description", "evac", "remove_points", "add_points", "remove_roads",
              "add_roads"}
POINT_KEYS = {"label", "q", "r", "terrain"}


def opposite(d: int) -> int:
    """The direction opposite to ``d`` (MAP-DIR): 1↔4, 2↔5, 3↔6."""
    return ((d + 2) % 6) + 1


@dataclass(frozen=True, eq=False)
class Board:
    """A validated map as arrays. Point indices follow the order of the points in the map file.

    The arrays are shared (``board_for`` caches boards): read them, never write to them.
    """

    name: str
    labels: tuple[str, ...]  # point index -> label ("1".."N", evac points "A".."F")
    index: Mapping[str, int]  # label -> point index
    coords: np.ndarray  # int64 (n, 2): axial (q, r)
    terrain: tuple[str, ...]  # terrain tag per point ("" if none)
    is_evac: np.ndarray  # bool (n,)
    road_step: np.ndarray  # int64 (n, 6): point reached by a road step in direction d (column d-1), -1 if none
    neighbour: np.ndarray  # int64 (n, 6): hex neighbour in direction d ignoring roads, -1 if no point there
    line: np.ndarray  # int64 (n, 6, 3): points 1, 2, 3 hexes away in direction d, -1 where no point
    road_dist: np.ndarray  # int64 (n, n): fewest road steps between points (UNREACHABLE if none)
    evac_dist: np.ndarray  # int64 (n,): fewest road steps to the nearest evac point

    @property
    def evac_labels(self) -> tuple[str, ...]:
        return tuple(label for label, evac in zip(self.labels, self.is_evac, strict=True) if evac)

    def walk(self, start: str, directions: list[int] | tuple[int, ...]) -> list[str]:
        """Labels passed by road steps in ``directions`` from ``start`` (MAP-ROAD); ValueError off-road."""
        here = self.index[start]
        passed = []
        for d in directions:
            there = int(self.road_step[here, d - 1])
            if there < 0:
                raise ValueError(f"no road from point {self.labels[here]} in direction {d}")
            here = there
            passed.append(self.labels[here])
        return passed

    def shot_labels(self, start: str, d: int) -> list[str]:
        """Labels of the points a shot from ``start`` in direction ``d`` covers, nearest first (MAP-LINE)."""
        return [self.labels[p] for p in self.line[self.index[start], d - 1] if p >= 0]


# ----------------------------------------------------------------------------------------------
# Reading and validating a map file


def _fail(file: Path, key: str, expected: str, found: object | None = None) -> ScenarioError:
    return ScenarioError(str(file), key, expected, found)


def _read_toml(file: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The map's data; a patch (a file with ``extends``) is applied to its parent map first."""
    if not file.is_file():
        raise _fail(file, "map", "an existing map file")
    try:
        with file.open("rb") as fh:
            data = tomllib.load(fh)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _fail(file, "(file)", "valid TOML", str(exc)) from None
    if "extends" in data:
        return _apply_patch(file, data, seen)
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        raise _fail(file, unknown[0], "one of " + ", ".join(sorted(FILE_KEYS)), unknown[0])
    return data


def _apply_patch(file: Path, patch: dict[str, Any], seen: tuple[Path, ...]) -> dict[str, Any]:
    """A map patch (docs/maps.md): ``extends`` names the parent map (a map name, or a path relative to
    the patch's folder); then, in this order, ``remove_points`` (labels; their roads and evac entries
    go with them), ``remove_roads``, ``add_points``, ``add_roads`` ("LABEL-LABEL"), and ``evac``,
    ``name``, ``title``, ``description`` replace the parent's. The result is validated as a whole map,
    its errors naming the patch file."""
    unknown = sorted(set(patch) - PATCH_KEYS)
    if unknown:
        raise _fail(file, unknown[0], "in a map patch, one of " + ", ".join(sorted(PATCH_KEYS)), unknown[0])
    parent_name = patch["extends"]
    if not isinstance(parent_name, str) or not parent_name:
        raise _fail(file, "extends", "the name of the map this patch changes, e.g. \"kaoteng\"", parent_name)
    local = file.parent / (parent_name if parent_name.endswith(".toml") else f"{parent_name}.toml")
    parent = local if local.is_file() else maps_root() / f"{Path(parent_name).stem}.toml"
    if not parent.is_file():
        raise _fail(file, "extends", f"a map file or one of {', '.join(list_maps()) or '(none)'}", parent_name)
    if parent.resolve() in seen or parent.resolve() == file.resolve():
        raise _fail(file, "extends", "a chain of maps without a cycle", parent_name)
    data = dict(_read_toml(parent, (*seen, file.resolve())))
    data.pop("name", None)  # a patch is named after its own file unless it says otherwise
    labels = [p.get("label") for p in data["points"] if isinstance(p, dict)]

    def labels_in(key: str) -> list[str]:
        value = patch.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(file, key, "a list of texts", value)
        return value

    gone = labels_in("remove_points")
    for label in gone:
        if label not in labels:
            raise _fail(file, "remove_points", f"labels of points of the map {parent_name}", label)
    data["points"] = [p for p in data["points"] if p.get("label") not in gone]
    data["evac"] = [e for e in data.get("evac", []) if e not in gone]
    roads = [r for r in data.get("roads", []) if not (isinstance(r, str) and set(r.split("-")) & set(gone))]
    for road in labels_in("remove_roads"):
        ends = road.split("-")
        matches = [r for r in roads if isinstance(r, str) and sorted(r.split("-")) == sorted(ends)]
        if not matches:
            raise _fail(file, "remove_roads", f"roads \"LABEL-LABEL\" of the map {parent_name}", road)
        roads.remove(matches[0])
    added = patch.get("add_points", [])
    if not isinstance(added, list):
        raise _fail(file, "add_points", "an array of points {label, q, r, terrain}", added)
    data["points"] = data["points"] + added
    data["roads"] = roads + labels_in("add_roads")
    for key in ("evac", "name", "title", "description"):
        if key in patch:
            data[key] = patch[key]
    return data


def _read_points(file: Path, data: dict[str, Any]) -> tuple[list[str], list[tuple[int, int]], list[str]]:
    """Labels, coordinates and terrain of every point, in file order; no duplicate label or hex."""
    points = data.get("points")
    if not isinstance(points, list) or not points:
        raise _fail(file, "points", "a non-empty array of points {label, q, r, terrain}", points)
    labels: list[str] = []
    coords: list[tuple[int, int]] = []
    terrain: list[str] = []
    label_at: dict[str, int] = {}
    label_on: dict[tuple[int, int], str] = {}
    for i, point in enumerate(points):
        key = f"points[{i}]"
        if not isinstance(point, dict):
            raise _fail(file, key, "a table {label, q, r, terrain}", point)
        extra = sorted(set(point) - POINT_KEYS)
        if extra:
            raise _fail(file, f"{key}.{extra[0]}", "only label, q, r and terrain", extra[0])
        label = point.get("label")
        if not isinstance(label, str) or not label or "-" in label or any(c.isspace() for c in label):
            raise _fail(file, f"{key}.label", "a label text without '-' or spaces, e.g. \"12\" or \"A\"", label)
        key = f"points[{i}] (point {label})"
        if label in label_at:
            raise _fail(file, f"{key}.label", f"a label used once (already points[{label_at[label]}])", label)
        for axis in ("q", "r"):
            if not isinstance(point.get(axis), int) or isinstance(point.get(axis), bool):
                raise _fail(file, f"{key}.{axis}", "an integer axial coordinate", point.get(axis))
        hex_ = (point["q"], point["r"])
        if hex_ in label_on:
            raise _fail(file, f"{key}.q/r", f"a hex of its own (point {label_on[hex_]} is already there)", hex_)
        tag = point.get("terrain", "")
        if not isinstance(tag, str):
            raise _fail(file, f"{key}.terrain", "a terrain tag (text)", tag)
        label_at[label] = i
        label_on[hex_] = label
        labels.append(label)
        coords.append(hex_)
        terrain.append(tag)
    return labels, coords, terrain


def _read_evac(file: Path, data: dict[str, Any], index: Mapping[str, int]) -> list[int]:
    evac = data.get("evac")
    if not isinstance(evac, list) or not evac:
        raise _fail(file, "evac", "a non-empty list of evacuation point labels, e.g. [\"A\", \"B\"]", evac)
    chosen: list[int] = []
    for label in evac:
        if not isinstance(label, str) or label not in index:
            raise _fail(file, "evac", "labels of points listed in points (an evac point is missing)", label)
        if index[label] in chosen:
            raise _fail(file, "evac", "each evacuation point listed once", label)
        chosen.append(index[label])
    return chosen


def _hex_text(hex_: np.ndarray) -> str:
    return f"({int(hex_[0])}, {int(hex_[1])})"


def _read_roads(file: Path, data: dict[str, Any], index: Mapping[str, int],
                coords: np.ndarray) -> set[tuple[int, int]]:
    """Roads as index pairs (low, high); each joins two neighbouring points (MAP-ROAD)."""
    roads = data.get("roads")
    if not isinstance(roads, list) or not roads:
        raise _fail(file, "roads", "a non-empty list of roads \"LABEL-LABEL\"", roads)
    found: set[tuple[int, int]] = set()
    for i, road in enumerate(roads):
        key = f"roads[{i}]"
        ends = road.split("-") if isinstance(road, str) else []
        if len(ends) != 2:
            raise _fail(file, key, "a road \"LABEL-LABEL\" joining two points", road)
        for label in ends:
            if label not in index:
                raise _fail(file, f"{key} ({road})", "labels of points listed in points (unknown label)", label)
        a, b = index[ends[0]], index[ends[1]]
        dq, dr = coords[b] - coords[a]
        if not any(dq == sq and dr == sr for sq, sr in DIRECTION_STEPS):
            distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            raise _fail(file, f"{key} ({road})", "a road between neighbouring points (1 hex apart)",
                        f"{ends[0]} at {_hex_text(coords[a])} and {ends[1]} at {_hex_text(coords[b])}, "
                        f"{distance} hexes apart")
        pair = (min(a, b), max(a, b))
        if pair in found:
            raise _fail(file, f"{key} ({road})", "each road listed once", road)
        found.add(pair)
    return found


def _road_distances(n: int, road_step: np.ndarray) -> np.ndarray:
    """Breadth-first road distance from every point to every point."""
    dist = np.full((n, n), UNREACHABLE, dtype=np.int64)
    for source in range(n):
        dist[source, source] = 0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in road_step[here]:
                if there >= 0 and dist[source, there] == UNREACHABLE:
                    dist[source, there] = dist[source, here] + 1
                    queue.append(int(there))
    return dist


def _check_reachable(file: Path, labels: list[str], is_evac: np.ndarray, dist: np.ndarray) -> None:
    """Every evac point, then every point, is reachable by road from the first inland point."""
    first = int(np.flatnonzero(~is_evac)[0]) if (~is_evac).any() else 0
    for p in np.flatnonzero(is_evac):
        if dist[first, p] >= UNREACHABLE:
            raise _fail(file, f"evac ({labels[p]})",
                        f"an evacuation point reachable by road from point {labels[first]}", "no road path")
    for p in range(len(labels)):
        if dist[first, p] >= UNREACHABLE:
            raise _fail(file, f"points (point {labels[p]})",
                        f"every point reachable by road from point {labels[first]}", "no road path")


def load_board(path: str | Path) -> Board:
    """Read and validate a map file; raise ScenarioError(file, key, expected, found) on any fault."""
    file = Path(path)
    data = _read_toml(file)
    labels, coord_list, terrain = _read_points(file, data)
    n = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    coords = np.array(coord_list, dtype=np.int64).reshape(n, 2)
    is_evac = np.zeros(n, dtype=np.bool_)
    is_evac[_read_evac(file, data, index)] = True
    roads = _read_roads(file, data, index, coords)

    at = {(int(q), int(r)): i for i, (q, r) in enumerate(coords)}
    line = np.full((n, 6, SHOT_RANGE), -1, dtype=np.int64)
    for p in range(n):
        for d, step in enumerate(DIRECTION_STEPS):
            for k in range(SHOT_RANGE):
                q, r = coords[p] + (k + 1) * step
                line[p, d, k] = at.get((int(q), int(r)), -1)
    neighbour = np.ascontiguousarray(line[:, :, 0])
    road_step = np.full((n, 6), -1, dtype=np.int64)
    for p in range(n):
        for d in range(6):
            other = neighbour[p, d]
            if other >= 0 and (min(p, other), max(p, other)) in roads:
                road_step[p, d] = other

    road_dist = _road_distances(n, road_step)
    _check_reachable(file, labels, is_evac, road_dist)
    evac_dist = road_dist[:, is_evac].min(axis=1)
    return Board(name=str(data.get("name", file.stem)), labels=tuple(labels), index=index, coords=coords,
                 terrain=tuple(terrain), is_evac=is_evac, road_step=road_step, neighbour=neighbour,
                 line=line, road_dist=road_dist, evac_dist=np.ascontiguousarray(evac_dist))


# ----------------------------------------------------------------------------------------------
# Finding maps


def maps_root() -> Path:
    """Folder of the shipped maps: ``scenarios/island-nation/maps/`` (follows ``$SIM_SCENARIOS``)."""
    return scenario_root() / "island-nation" / "maps"


def list_maps() -> list[str]:
    folder = maps_root()
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def map_path(name_or_path: str | Path) -> Path:
    """A map name under ``maps_root()`` (e.g. ``kaoteng``) or a path to a map file.

    A relative path that does not exist from the working directory is also looked for under
    ``maps_root()``, so a scenario may say ``map = "my_island.toml"``.
    """
    text = str(name_or_path)
    path = Path(text)
    if path.exists():
        return path
    if path.suffix == ".toml":
        shipped = maps_root() / path
        return shipped if not path.is_absolute() and shipped.is_file() else path
    candidate = maps_root() / f"{text}.toml"
    if not candidate.is_file():
        raise _fail(maps_root(), "map", f"a map file or one of {', '.join(list_maps()) or '(none)'}", text)
    return candidate


@cache
def _cached_board(resolved: str) -> Board:
    return load_board(resolved)


def board_for(rules: Any) -> Board:
    """The board a rules object names in its field ``map`` (a map name or path), loaded once per process."""
    return _cached_board(str(map_path(getattr(rules, "map", DEFAULT_MAP)).resolve()))


def default_board() -> Board:
    """The shipped map of Kaoteng Island (高登島), built to reproduce the rulebook's worked examples."""
    return _cached_board(str(map_path(DEFAULT_MAP).resolve()))
