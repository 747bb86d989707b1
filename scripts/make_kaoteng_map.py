"""Write scenarios/island-nation/maps/kaoteng.toml, the default (assumed) map of Kaoteng Island.

The real map is a picture that the rule text lost; the text says its points are fictional. This
script draws an island elongated north–south (a wide northern lobe, a narrow neck, a southern lobe),
numbers its hexes row by row from the north, west to east, and puts evacuation points A–F just off
the coast, clockwise from the north tip. It then checks the rulebook's worked examples:

* from 64, road steps in directions 6, 1, 6 end at 11 (rule text: 自己朝6、1、6方向移動 … 停在 11 號);
* from 11, directions 2, 2, 3 pass 46, 39, 40 in that order;
* a shot in direction 3 from 103 covers 104, 105, 106 in that order.

Row-by-row numbering gives every example but the first for free; the point where the first example
ends is relabelled 11 (and the natural 11 takes its number). Roads are a random spanning tree plus
about half of the remaining neighbour pairs (fewer across the neck, so it is a chokepoint), always
including the example paths; the seed is fixed so the file is reproducible. Run it again only to
change the map on purpose: the data file, not this script, is what the game loads.

    .venv/bin/python scripts/make_kaoteng_map.py
"""

from __future__ import annotations

import random
from pathlib import Path

from sim.games.island_nation.board import DIRECTION_STEPS, load_board

OUT = Path(__file__).resolve().parents[1] / "scenarios" / "island-nation" / "maps" / "kaoteng.toml"
SEED = 1996  # the year of the crisis the game is set in

# (first column, last column) of each row, north to south, in "odd-r" offset columns (odd rows sit
# half a hex to the east); converted to axial q = col - (row - row % 2) // 2.
ROWS = [(2, 5), (2, 6), (1, 7), (0, 8), (0, 7), (0, 7), (1, 8), (0, 8), (2, 7),  # northern lobe
        (3, 5), (3, 5), (3, 6), (2, 6),  # the neck
        (2, 7), (2, 7), (2, 7), (2, 6), (2, 5), (3, 5), (3, 5), (4, 5)]  # southern lobe
NECK_ROWS = range(9, 13)
EVAC = {"A": (4, -1), "B": (8, 3), "C": (1, 14), "D": (-6, 21), "E": (-7, 16), "F": (-3, 6)}  # axial (q, r)
HILLS = {"20", "21", "29", "30", "88", "94"}  # 北高地 and 南高地: tags only, no rule uses them
CAMPS = {"36", "70", "99"}
EXAMPLE_PATHS = [("64", (6, 1, 6), ["63", "55", "11"]), ("11", (2, 2, 3), ["46", "39", "40"])]
EXTRA_ROAD_SHARE = 0.5
NECK_EXTRA_ROAD_SHARE = 0.15


def island_hexes() -> list[tuple[int, int]]:
    return [(col - (row - row % 2) // 2, row) for row, (first, last) in enumerate(ROWS)
            for col in range(first, last + 1)]


def labelled_points() -> dict[str, tuple[int, int]]:
    """Row-by-row labels, with 11 moved to where the rulebook's first example ends (see module doc)."""
    hexes = island_hexes()
    label_of = {h: str(i + 1) for i, h in enumerate(hexes)}
    at_64 = hexes[63]
    end = (at_64[0] - 2, at_64[1] - 1)  # W, NW, W from 64
    label_of[hexes[10]], label_of[end] = label_of[end], "11"
    points = {label: h for h, label in label_of.items()}
    points = dict(sorted(points.items(), key=lambda item: int(item[0])))
    points.update(EVAC)
    return points


def neighbour_pairs(points: dict[str, tuple[int, int]]) -> list[tuple[str, str]]:
    label_on = {h: label for label, h in points.items()}
    pairs = []
    for label, (q, r) in points.items():
        for dq, dr in DIRECTION_STEPS[:3]:  # NW, NE, E: each pair once
            other = label_on.get((q + int(dq), r + int(dr)))
            if other is not None:
                pairs.append((label, other))
    return pairs


def choose_roads(points: dict[str, tuple[int, int]]) -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    evac = set(EVAC)
    pairs = [p for p in neighbour_pairs(points) if not (evac & set(p))]
    pinned = set()
    for start, _directions, passed in EXAMPLE_PATHS:
        stops = [start, *passed]
        pinned |= {normalise(pair) for pair in zip(stops, stops[1:], strict=False)}
    parent = {label: label for label in points}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: str, b: str) -> bool:
        ra, rb = root(a), root(b)
        if ra == rb:
            return False
        parent[ra] = rb
        return True

    roads = []
    for a, b in sorted(pinned, key=lambda p: (label_order(p[0]), label_order(p[1]))):
        join(a, b)
        roads.append((a, b))
    shuffled = [p for p in pairs if normalise(p) not in pinned]
    rng.shuffle(shuffled)
    rest = []
    for a, b in shuffled:
        (roads if join(a, b) else rest).append((a, b))
    for a, b in rest:
        in_neck = any(points[x][1] in NECK_ROWS for x in (a, b))
        if rng.random() < (NECK_EXTRA_ROAD_SHARE if in_neck else EXTRA_ROAD_SHARE):
            roads.append((a, b))
    label_on = {h: label for label, h in points.items()}
    for e, (q, r) in EVAC.items():  # each evac point joined to one coastal point
        coast = [label_on[(q + int(dq), r + int(dr))] for dq, dr in DIRECTION_STEPS
                 if (q + int(dq), r + int(dr)) in label_on]
        roads.append((rng.choice(sorted(coast, key=int)), e))
    return sorted((normalise(p) for p in roads), key=lambda p: (label_order(p[0]), label_order(p[1])))


def label_order(label: str) -> tuple[int, int]:
    """Numbers first, in numeric order, then the evac letters."""
    return (0, int(label)) if label.isdigit() else (1, ord(label))


def normalise(pair: tuple[str, str]) -> tuple[str, str]:
    return tuple(sorted(pair, key=label_order))


HEADER = """\
# 高登島 Kaoteng Island: the default Island Nation map. ASSUMED: the rulebook's map is a lost picture
# and its points are fictional (戰略點僅為遊戲需求的虛構位置); this map is drawn to reproduce the
# rulebook's worked examples (64 -6,1,6-> 11; 11 -2,2,3-> 46, 39, 40; a shot in direction 3 from 103
# covers 104, 105, 106). Made by scripts/make_kaoteng_map.py; format in docs/maps.md.
#
# Coordinates: pointy-top hexes, axial (q, r), r grows southward (north is up). Directions, clockwise:
#
#         1 NW   2 NE
#     6 W    (q,r)    3 E          step: 1 (0,-1)  2 (+1,-1)  3 (+1,0)
#         5 SW   4 SE                    4 (0,+1)  5 (-1,+1)  6 (-1,0)
#
# Opposite of direction d: ((d + 2) % 6) + 1. Roads join neighbouring points only ("A-B" = both ways).
# Shots follow straight hex lines up to 3 hexes, ignoring roads.
"""


def render(points: dict[str, tuple[int, int]], roads: list[tuple[str, str]]) -> str:
    lines = [HEADER, 'name = "kaoteng"', 'title = "高登島 Kaoteng Island (assumed default map)"',
             'description = "Elongated north-south: a northern lobe, a narrow neck (a road chokepoint) '
             'and a southern lobe; evac points A-F off the coast, clockwise from the north tip."',
             f"evac = [{', '.join(repr(e).replace(chr(39), chr(34)) for e in EVAC)}]", "", "points = ["]
    for label, (q, r) in points.items():
        tag = "beach" if label in EVAC else "hill" if label in HILLS else "camp" if label in CAMPS else ""
        terrain = f', terrain = "{tag}"' if tag else ""
        lines.append(f'  {{ label = "{label}", q = {q}, r = {r}{terrain} }},')
    lines += ["]", "", "roads = ["]
    texts = [f'"{a}-{b}"' for a, b in roads]
    for i in range(0, len(texts), 10):
        lines.append("  " + ", ".join(texts[i:i + 10]) + ",")
    lines.append("]")
    return "\n".join(lines) + "\n"


def main() -> None:
    points = labelled_points()
    roads = choose_roads(points)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(render(points, roads), encoding="utf-8")
    board = load_board(OUT)
    for start, dirs, passed in EXAMPLE_PATHS:
        assert board.walk(start, dirs) == passed, (start, dirs, board.walk(start, dirs))
    assert board.shot_labels("103", 3) == ["104", "105", "106"]
    n_roads = int((board.road_step >= 0).sum()) // 2
    print(f"{OUT}: {len(board.labels)} points ({int(board.is_evac.sum())} evac), {n_roads} roads")


if __name__ == "__main__":
    main()
