"""Drawing Island Nation maps: the board itself (``sim map``) and heat maps over its points.

``draw_board`` draws every point as a hex tile with its label, the roads between points, the
evacuation points in red, and a rose of the six numbered directions. Given ``values`` (one number
per point) it shades the tiles instead, for the report's pictures of captures, escapes or where the
frogman may be.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import matplotlib
import numpy as np
import typer
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch

from sim.core.errors import UserError
from sim.games.island_nation.board import (
    DIRECTION_NAMES,
    DIRECTION_STEPS,
    Board,
    default_board,
    load_board,
    map_path,
)

SQRT3 = math.sqrt(3.0)
SEA = "#d6e9f5"
LAND = "#f3ead2"
TERRAIN_COLOURS = {"hill": "#cdbb8c", "camp": "#b9c9a3", "beach": "#f4d6c8"}
EVAC_RED = "#c8102e"
ROAD = "#6b5a45"
NO_DATA = "#dddddd"


def hex_centres(coords: np.ndarray) -> np.ndarray:
    """Drawing positions of axial (q, r) pointy-top hexes of size 1, north up: (n, 2) floats."""
    q = coords[:, 0].astype(float)
    r = coords[:, 1].astype(float)
    return np.column_stack([SQRT3 * (q + r / 2.0), -1.5 * r])


def _hexagon(centre: np.ndarray, size: float = 1.0) -> np.ndarray:
    angles = np.deg2rad(30.0 + 60.0 * np.arange(6))
    return centre + size * np.column_stack([np.cos(angles), np.sin(angles)])


def _road_segments(board: Board, centres: np.ndarray) -> list[np.ndarray]:
    segments = []
    for p in range(len(board.labels)):
        for other in board.road_step[p]:
            if other > p:
                segments.append(np.array([centres[p], centres[other]]))
    return segments


def _draw_rose(ax, centre: tuple[float, float], length: float = 2.2) -> None:
    """The six directions as arrows from one point, numbered as the map file numbers them."""
    x0, y0 = centre
    step_xy = hex_centres(DIRECTION_STEPS)
    ax.add_patch(Circle(centre, length + 1.35, facecolor="white", edgecolor="#999999", lw=0.8, alpha=0.9,
                        zorder=5))
    for d, (dx, dy) in enumerate(step_xy, start=1):
        ux, uy = dx / SQRT3, dy / SQRT3
        ax.annotate("", xy=(x0 + length * ux, y0 + length * uy), xytext=(x0, y0),
                    arrowprops={"arrowstyle": "-|>", "color": "#333333", "lw": 1.2}, zorder=6)
        ax.text(x0 + (length + 0.75) * ux, y0 + (length + 0.75) * uy, f"{d}\n{DIRECTION_NAMES[d - 1]}",
                ha="center", va="center", fontsize=6.5, zorder=6, linespacing=0.9)
    ax.text(x0, y0 - length - 1.9, "directions", ha="center", va="center", fontsize=7, style="italic")


def draw_board(board: Board, ax=None, values: Sequence[float] | np.ndarray | None = None,
               cmap: str = "YlOrRd", title: str | None = None, colorbar_label: str | None = None,
               vmin: float | None = None, vmax: float | None = None,
               marks: Mapping[int, str] | None = None) -> Figure:
    """Draw ``board``: tiles, roads, labels, evac points and the direction rose.

    ``values``: one number per point (index order of ``board.labels``; NaN = no data) shading the
    tiles with ``cmap`` and a colour bar labelled ``colorbar_label``. ``marks``: short texts drawn
    beside points (e.g. ``{index: "A1"}`` for artillery). Returns the figure (new if ``ax`` is None).
    """
    n = len(board.labels)
    centres = hex_centres(board.coords)
    xmin, ymin = centres.min(axis=0) - 1.5
    xmax, ymax = centres.max(axis=0) + 1.5
    rose_x = xmax + 4.2
    if ax is None:
        inches = 10.5 / max(ymax - ymin, 1.0)
        extra = 1.2 if values is not None else 0.0
        fig = Figure(figsize=((rose_x + 4.0 - xmin) * inches + extra + 0.3, 10.5 + 0.6), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    tiles = [_hexagon(c, 0.98) for c in centres]

    shade = None
    if values is not None:
        shade = np.asarray(values, dtype=float)
        if shade.shape != (n,):
            raise ValueError(f"values: expected one number per point, shape ({n},); found shape {shade.shape}")
        finite = shade[np.isfinite(shade)]
        low = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
        high = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
        norm = Normalize(low, high if high > low else low + 1.0)
        colour_map = matplotlib.colormaps[cmap]
        faces = [colour_map(norm(v)) if np.isfinite(v) else NO_DATA for v in shade]
    else:
        faces = [TERRAIN_COLOURS.get(t, LAND) for t in board.terrain]
    edges = [EVAC_RED if e else "#a89f86" for e in board.is_evac]
    widths = [2.2 if e else 0.5 for e in board.is_evac]
    ax.add_collection(PolyCollection(tiles, facecolors=faces, edgecolors=edges, linewidths=widths, zorder=1))
    ax.add_collection(LineCollection(_road_segments(board, centres), colors=ROAD, linewidths=1.6, zorder=2))

    for p, (x, y) in enumerate(centres):
        if board.is_evac[p]:
            ax.scatter([x], [y], s=150, c=EVAC_RED, edgecolors="white", linewidths=0.8, zorder=3)
            ax.text(x, y, board.labels[p], ha="center", va="center", fontsize=7.5, color="white",
                    weight="bold", zorder=4)
        else:
            ax.scatter([x], [y], s=105, c="white", edgecolors="#555555", linewidths=0.5, zorder=3)
            ax.text(x, y, board.labels[p], ha="center", va="center", fontsize=5.5, zorder=4)
    for p, text in (marks or {}).items():
        x, y = centres[p]
        ax.text(x + 0.55, y + 0.55, text, ha="left", va="bottom", fontsize=6.5, weight="bold",
                color="#1f3a93", zorder=7,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "#1f3a93", "lw": 0.6})

    _draw_rose(ax, (rose_x, ymin + 4.6))
    ax.set_xlim(xmin, rose_x + 4.0)
    ax.set_ylim(ymin, ymax)
    ax.set_aspect("equal")
    ax.set_facecolor(SEA)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title if title is not None else f"Island Nation map: {board.name}", fontsize=10)

    handles = [Line2D([], [], color=ROAD, lw=1.6, label="road"),
               Patch(facecolor="white", edgecolor=EVAC_RED, lw=2.0, label="evacuation point")]
    if shade is None:
        handles += [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor="#a89f86", label=t)
                    for t in ("hill", "camp") if t in board.terrain]
    else:
        fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.5, pad=0.02,
                     label=colorbar_label or "value per point")
        if not np.isfinite(shade).all():
            handles.append(Patch(facecolor=NO_DATA, edgecolor="#a89f86", label="no data"))
    ax.legend(handles=handles, loc="upper right", fontsize=7, framealpha=0.9)
    return fig


def register_cli(app) -> None:
    """Add ``sim map island-nation [--map FILE] --out map.png`` to the command line."""
    @app.command("map")
    def map_command(
        game: Annotated[str, typer.Argument(help="island-nation (the only game with a map)")],
        map: Annotated[Path | None, typer.Option("--map", help="Map name or TOML file (default kaoteng)")] = None,
        out: Annotated[Path, typer.Option("--out", "-o", help="Picture to write (.png, .pdf, .svg)")] = Path(
            "map.png"),
    ) -> None:
        """Draw an Island Nation map: points, roads, evacuation points, direction rose."""
        if game != "island-nation":
            raise UserError(f"sim map {game}: expected island-nation (the only game with a map)")
        board = default_board() if map is None else load_board(map_path(map))
        fig = draw_board(board)
        try:
            fig.savefig(out, dpi=170)
        except (OSError, ValueError) as exc:
            raise UserError(f"--out {out}: cannot write the picture ({exc})") from None
        typer.echo(f"{out}: map {board.name}, {len(board.labels)} points, "
                   f"{int(board.is_evac.sum())} evacuation points")
