"""Drawing Island Nation maps: the board itself (``sim map``), heat maps over its points, and trace frames.

``draw_board`` draws every point as a hex tile with its label, the roads between points, the
evacuation points in red, and a rose of the six numbered directions (IN-MAP-DIR). Given ``values``
(one number per point) it shades the tiles instead, for the report's pictures of captures, escapes
or where the frogman may be. ``draw_panels`` puts several such heat maps side by side on one colour
scale; ``draw_frame`` shows one moment of a game: the public set, the artillery and the frogman.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated

import matplotlib
import numpy as np
import typer
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Colormap, ListedColormap, Normalize
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
TILE_EDGE = "#a89f86"
TERRAIN_COLOURS = {"hill": "#cdbb8c", "camp": "#b9c9a3", "beach": "#f4d6c8"}
EVAC_RED = "#c8102e"
ROAD = "#6b5a45"
NO_DATA = "#dddddd"
MARK_BLUE = "#1f3a93"
POSSIBLE = "#8fc1e3"
FROGMAN = "#1b7f3b"
MAP_HEIGHT_INCHES = 10.5


def hex_centres(coords: np.ndarray) -> np.ndarray:
    """Drawing positions of axial (q, r) pointy-top hexes of size 1, north up: (n, 2) floats."""
    q = coords[:, 0].astype(float)
    r = coords[:, 1].astype(float)
    return np.column_stack([SQRT3 * (q + r / 2.0), -1.5 * r])


def _hexagon(centre: np.ndarray, size: float = 1.0) -> np.ndarray:
    angles = np.deg2rad(30.0 + 60.0 * np.arange(6))
    return centre + size * np.column_stack([np.cos(angles), np.sin(angles)])


def _road_segments(board: Board, centres: np.ndarray) -> list[np.ndarray]:
    return [np.array([centres[p], centres[other]])
            for p in range(len(board.labels)) for other in board.road_step[p] if other > p]


def _extent(board: Board) -> tuple[float, float, float, float, float]:
    """(xmin, xmax, ymin, ymax, x of the rose) in drawing units, the rose to the east of the island."""
    centres = hex_centres(board.coords)
    xmin, ymin = centres.min(axis=0) - 1.5
    xmax, ymax = centres.max(axis=0) + 1.5
    return xmin, xmax, ymin, ymax, xmax + 4.2


def _draw_rose(ax, centre: tuple[float, float], length: float = 2.2) -> None:
    """The six directions as arrows from one point, numbered as the map file numbers them."""
    x0, y0 = centre
    ax.add_patch(Circle(centre, length + 1.35, facecolor="white", edgecolor="#999999", lw=0.8, alpha=0.9,
                        zorder=5))
    for d, (dx, dy) in enumerate(hex_centres(DIRECTION_STEPS), start=1):
        ux, uy = dx / SQRT3, dy / SQRT3
        ax.annotate("", xy=(x0 + length * ux, y0 + length * uy), xytext=(x0, y0),
                    arrowprops={"arrowstyle": "-|>", "color": "#333333", "lw": 1.2}, zorder=6)
        ax.text(x0 + (length + 0.75) * ux, y0 + (length + 0.75) * uy, f"{d}\n{DIRECTION_NAMES[d - 1]}",
                ha="center", va="center", fontsize=6.5, zorder=6, linespacing=0.9)
    ax.text(x0, y0 - length - 1.9, "directions", ha="center", va="center", fontsize=7, style="italic")


def _shading(values, n: int, vmin: float | None, vmax: float | None) -> tuple[np.ndarray, Normalize]:
    shade = np.asarray(values, dtype=float)
    if shade.shape != (n,):
        raise ValueError(f"values: expected one number per point, shape ({n},); found shape {shade.shape}")
    finite = shade[np.isfinite(shade)]
    low = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
    high = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
    return shade, Normalize(low, high if high > low else low + 1.0)


def draw_board(board: Board, ax=None, values: Sequence[float] | np.ndarray | None = None,
               cmap: str | Colormap = "YlOrRd", title: str | None = None, colorbar_label: str | None = None,
               *, vmin: float | None = None, vmax: float | None = None, marks: Mapping[int, str] | None = None,
               show_labels: bool = True, show_rose: bool = True, colorbar: bool = True) -> Figure:
    """Draw ``board``: tiles, roads, labels, evac points and the direction rose.

    ``values``: one number per point (index order of ``board.labels``; NaN = no data) shading the
    tiles with ``cmap`` on the scale ``vmin``..``vmax`` (default: the values' range) and a colour bar
    labelled ``colorbar_label``. ``marks``: short texts drawn beside points (e.g. ``{index: "A1"}``).
    Returns the figure (a new one, sized to the map, if ``ax`` is None).
    """
    n = len(board.labels)
    centres = hex_centres(board.coords)
    xmin, xmax, ymin, ymax, rose_x = _extent(board)
    right = rose_x + 4.0 if show_rose else xmax
    if ax is None:
        inches = MAP_HEIGHT_INCHES / max(ymax - ymin, 1.0)
        extra = 1.2 if values is not None and colorbar else 0.0
        fig = Figure(figsize=((right - xmin) * inches + extra + 0.3, MAP_HEIGHT_INCHES + 0.6), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure

    colour_map = matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap
    if values is not None:
        shade, norm = _shading(values, n, vmin, vmax)
        faces = [colour_map(norm(v)) if np.isfinite(v) else NO_DATA for v in shade]
    else:
        faces = [TERRAIN_COLOURS.get(t, LAND) for t in board.terrain]
    tiles = [_hexagon(c, 0.98) for c in centres]
    edges = [EVAC_RED if e else TILE_EDGE for e in board.is_evac]
    widths = [2.2 if e else 0.5 for e in board.is_evac]
    ax.add_collection(PolyCollection(tiles, facecolors=faces, edgecolors=edges, linewidths=widths, zorder=1))
    ax.add_collection(LineCollection(_road_segments(board, centres), colors=ROAD,
                                     linewidths=1.6 if show_labels else 0.9, zorder=2))
    if show_labels:
        _draw_point_labels(ax, board, centres)
    for p, text in (marks or {}).items():
        x, y = centres[p]
        ax.text(x + 0.55, y + 0.55, text, ha="left", va="bottom", fontsize=6.5, weight="bold", color=MARK_BLUE,
                zorder=7, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": MARK_BLUE, "lw": 0.6})
    if show_rose:
        _draw_rose(ax, (rose_x, ymin + 4.6))
    ax.set_xlim(xmin, right)
    ax.set_ylim(ymin, ymax)
    ax.set_aspect("equal")
    ax.set_facecolor(SEA)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title if title is not None else f"Island Nation map: {board.name}", fontsize=10)

    handles = [Line2D([], [], color=ROAD, lw=1.6, label="road"),
               Patch(facecolor="white", edgecolor=EVAC_RED, lw=2.0, label="evacuation point")]
    if values is None:
        handles += [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor=TILE_EDGE, label=t)
                    for t in ("hill", "camp") if t in board.terrain]
    else:
        if colorbar:
            fig.colorbar(ScalarMappable(norm=norm, cmap=colour_map), ax=ax, shrink=0.5, pad=0.02,
                         label=colorbar_label or "value per point")
        if not np.isfinite(shade).all():
            handles.append(Patch(facecolor=NO_DATA, edgecolor=TILE_EDGE, label="no data"))
    ax.legend(handles=handles, loc="upper right", fontsize=7, framealpha=0.9)
    return fig


def _draw_point_labels(ax, board: Board, centres: np.ndarray) -> None:
    evac = board.is_evac
    ax.scatter(centres[~evac, 0], centres[~evac, 1], s=105, c="white", edgecolors="#555555", linewidths=0.5,
               zorder=3)
    ax.scatter(centres[evac, 0], centres[evac, 1], s=150, c=EVAC_RED, edgecolors="white", linewidths=0.8,
               zorder=3)
    for p, (x, y) in enumerate(centres):
        if evac[p]:
            ax.text(x, y, board.labels[p], ha="center", va="center", fontsize=7.5, color="white", weight="bold",
                    zorder=4)
        else:
            size = 5.5 if len(board.labels[p]) < 3 else 4.6
            ax.text(x, y, board.labels[p], ha="center", va="center", fontsize=size, zorder=4)


def draw_panels(board: Board, panels: Mapping[str, Sequence[float] | np.ndarray], cmap: str = "YlOrRd",
                colorbar_label: str = "value per point", title: str | None = None,
                vmin: float | None = None, vmax: float | None = None) -> Figure:
    """Heat maps side by side (e.g. one per player count) on one colour scale with one colour bar.

    ``panels`` maps a panel title to one value per point. Labels are left off to keep small maps
    readable; the direction rose sits on the last panel.
    """
    if not panels:
        raise ValueError("panels: expected at least one panel of values")
    n = len(board.labels)
    stacked = np.vstack([_shading(v, n, None, None)[0] for v in panels.values()])
    finite = stacked[np.isfinite(stacked)]
    low = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
    high = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
    xmin, xmax, ymin, ymax, rose_x = _extent(board)
    height = 6.0
    inches = height / max(ymax - ymin, 1.0)
    widths = [xmax - xmin] * (len(panels) - 1) + [rose_x + 4.0 - xmin]
    fig = Figure(figsize=(sum(widths) * inches + 1.6, height + 0.9), layout="constrained")
    axes = fig.subplots(1, len(panels), width_ratios=widths, squeeze=False)[0]
    for i, (name, values) in enumerate(panels.items()):
        draw_board(board, axes[i], values, cmap, name, vmin=low, vmax=high, show_labels=False,
                   show_rose=i == len(panels) - 1, colorbar=False)
        if i:
            axes[i].get_legend().remove()
    fig.colorbar(ScalarMappable(norm=Normalize(low, high if high > low else low + 1.0), cmap=cmap),
                 ax=list(axes), shrink=0.6, pad=0.02, label=colorbar_label)
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def draw_frame(board: Board, possible: Iterable[int], artillery: Sequence[int], frogman: int | None = None,
               title: str | None = None, ax=None) -> Figure:
    """One moment of a game: the public set shaded, each artillery marked A1.., the frogman a star.

    ``possible``: indices of the points the frogman may be on; ``artillery``: the point of each
    artillery (−1 = dead); ``frogman``: its true point, or None to draw only public information.
    """
    member = np.zeros(len(board.labels))
    member[list(possible)] = 1.0
    marks: dict[int, list[str]] = {}
    for i, p in enumerate(artillery):
        if p >= 0:
            marks.setdefault(int(p), []).append(f"A{i + 1}")
    fig = draw_board(board, ax, member, ListedColormap([LAND, POSSIBLE]), title, vmin=0.0, vmax=1.0,
                     marks={p: " ".join(texts) for p, texts in marks.items()}, colorbar=False)
    axes = fig.axes[0] if ax is None else ax
    handles = list(axes.get_legend().legend_handles)
    handles.append(Patch(facecolor=POSSIBLE, edgecolor=TILE_EDGE,
                         label=f"frogman may be here ({int(member.sum())} points)"))
    handles.append(Patch(facecolor="white", edgecolor=MARK_BLUE, label="A1, A2, …: artillery"))
    if frogman is not None:
        x, y = hex_centres(board.coords[frogman:frogman + 1])[0]
        axes.scatter([x - 0.55], [y + 0.6], marker="*", s=160, c=FROGMAN, edgecolors="white", linewidths=0.6,
                     zorder=8)
        handles.append(Line2D([], [], marker="*", ls="", ms=11, color=FROGMAN, label="frogman (true point)"))
    axes.legend(handles=handles, loc="upper right", fontsize=7, framealpha=0.9)
    return fig


def register_cli(app) -> None:
    """Add ``sim map island-nation [--map FILE] --out map.png`` to the command line."""

    from sim.core.display import example

    @app.command("map", epilog=example("sim map island-nation --out out/map.png"))
    def map_command(
        game: Annotated[str, typer.Argument(help="island-nation (the only game with a map)")],
        map: Annotated[Path | None, typer.Option("--map", help="Map name or TOML file (default kaoteng)")] = None,
        out: Annotated[Path, typer.Option("--out", "-o", help="Picture to write (.png, .pdf, .svg)")] = Path(
            "out/map.png"),
    ) -> None:
        """Draw an Island Nation map: points, roads, evacuation points, direction rose."""
        if game != "island-nation":
            raise UserError(f"sim map {game}: expected island-nation (the only game with a map)")
        board = default_board() if map is None else load_board(map_path(map))
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            draw_board(board).savefig(out, dpi=170)
        except (OSError, ValueError) as exc:
            raise UserError(f"--out {out}: cannot write the picture ({exc})") from None
        typer.echo(f"{out}: map {board.name}, {len(board.labels)} points, "
                   f"{int(board.is_evac.sum())} evacuation points")
