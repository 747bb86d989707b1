"""Map pictures: the board drawing (points, roads, evac points, direction rose), heat maps, `sim map`."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
import typer
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from typer.testing import CliRunner

from sim.core.errors import ScenarioError, UserError
from sim.games.island_nation.board import DIRECTION_NAMES, default_board
from sim.games.island_nation.mapview import (
    EVAC_RED,
    NO_DATA,
    POSSIBLE,
    draw_board,
    draw_frame,
    draw_panels,
    register_cli,
)

TINY = """
evac = ["A"]
points = [
  { label = "1", q = 0, r = 0 },
  { label = "2", q = 1, r = 0 },
  { label = "A", q = 0, r = 1 },
]
roads = ["1-2", "1-A"]
"""


@pytest.fixture(scope="module")
def board():
    return default_board()


@pytest.fixture(scope="module")
def plain(board):
    fig = draw_board(board)
    return fig, fig.axes[0]


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_board_drawing_shows_every_point_road_and_evac_point(board, plain):
    fig, ax = plain
    assert isinstance(fig, Figure)
    texts = _texts(ax)
    assert all(label in texts for label in board.labels)
    roads = next(c for c in ax.collections if isinstance(c, LineCollection))
    assert len(roads.get_segments()) == int((board.road_step >= 0).sum()) // 2
    tiles = next(c for c in ax.collections if isinstance(c, PolyCollection))
    edges = tiles.get_edgecolors()
    assert len(tiles.get_paths()) == len(board.labels)
    assert all((tuple(edges[p]) == to_rgba(EVAC_RED)) == bool(board.is_evac[p]) for p in range(len(board.labels)))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"road", "evacuation point", "hill", "camp"} <= set(legend)
    assert ax.get_title() == "Island Nation map: kaoteng"


def test_drawing_has_a_direction_rose_numbered_like_the_map_file(plain):
    _, ax = plain
    texts = _texts(ax)
    for d, name in enumerate(DIRECTION_NAMES, start=1):
        assert f"{d}\n{name}" in texts
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation) and a.arrow_patch is not None]
    assert len(arrows) == 6
    tips = np.array([a.xy for a in arrows]) - np.array([a.xyann for a in arrows])
    bearings = np.degrees(np.arctan2(tips[:, 0], tips[:, 1])) % 360  # clockwise from north (up)
    assert np.allclose(bearings, [330, 30, 90, 150, 210, 270])


def test_heat_map_shades_points_by_value_with_a_labelled_colour_bar(board):
    values = board.evac_dist.astype(float)
    fig = draw_board(board, values=values, cmap="viridis", title="steps to safety",
                     colorbar_label="road steps to the nearest evac point")
    ax = fig.axes[0]
    tiles = next(c for c in ax.collections if isinstance(c, PolyCollection))
    faces = tiles.get_facecolors()
    cmap = matplotlib.colormaps["viridis"]
    low, high = int(values.argmin()), int(values.argmax())
    assert np.allclose(faces[low], cmap(0.0)) and np.allclose(faces[high], cmap(1.0))
    colourbar = fig.axes[1]
    assert colourbar.get_ylabel() == "road steps to the nearest evac point"
    assert ax.get_title() == "steps to safety"


def test_heat_map_marks_missing_values_and_draws_marks(board):
    values = np.full(len(board.labels), np.nan)
    values[board.index["11"]] = 3.0
    fig = draw_board(board, values=values, marks={board.index["64"]: "A1"})
    ax = fig.axes[0]
    faces = next(c for c in ax.collections if isinstance(c, PolyCollection)).get_facecolors()
    assert np.allclose(faces[board.index["1"]], to_rgba(NO_DATA))
    assert "A1" in _texts(ax) and "no data" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_heat_map_refuses_values_of_the_wrong_length(board):
    with pytest.raises(ValueError, match="one number per point"):
        draw_board(board, values=np.zeros(3))


def test_draws_into_a_given_axes(board):
    fig = Figure()
    ax = fig.add_subplot()
    assert draw_board(board, ax=ax) is fig and len(ax.texts) > len(board.labels)


def test_panels_share_one_colour_scale_and_one_colour_bar(board):
    n = len(board.labels)
    panels = {"4 players": np.zeros(n), "5 players": np.full(n, 5.0), "6 players": np.full(n, 10.0)}
    fig = draw_panels(board, panels, cmap="viridis", colorbar_label="captures per 10,000 games")
    maps, bar = fig.axes[:3], fig.axes[3:]
    assert [ax.get_title() for ax in maps] == list(panels) and len(bar) == 1
    assert bar[0].get_ylabel() == "captures per 10,000 games"
    cmap = matplotlib.colormaps["viridis"]
    for ax, level in zip(maps, (0.0, 0.5, 1.0), strict=True):
        faces = next(c for c in ax.collections if isinstance(c, PolyCollection)).get_facecolors()
        assert np.allclose(faces, cmap(level))
    with pytest.raises(ValueError, match="at least one panel"):
        draw_panels(board, {})


def test_frame_shades_the_public_set_and_marks_artillery_and_frogman(board):
    possible = [board.index[label] for label in ("46", "39", "40")]
    fig = draw_frame(board, possible, [board.index["37"], -1, board.index["37"]], frogman=board.index["40"])
    ax = fig.axes[0]
    faces = next(c for c in ax.collections if isinstance(c, PolyCollection)).get_facecolors()
    shaded = {p for p in range(len(board.labels)) if np.allclose(faces[p], to_rgba(POSSIBLE))}
    assert shaded == set(possible)
    assert "A1 A3" in _texts(ax) and "A2" not in " ".join(_texts(ax))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "frogman may be here (3 points)" in legend and "frogman (true point)" in legend


# ---------------------------------------------------------------------------------------------
# sim map island-nation [--map FILE] --out map.png


@pytest.fixture(scope="module")
def app():
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test app."""

    register_cli(app)
    return app


def test_sim_map_writes_a_png_of_the_default_map(app, tmp_path):
    out = tmp_path / "map.png"
    result = CliRunner().invoke(app, ["map", "island-nation", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "120 points, 6 evacuation points" in result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width = matplotlib.image.imread(out).shape[:2]
    assert height > width > 600


def test_sim_map_draws_a_map_file(app, tmp_path):
    file = tmp_path / "tiny.toml"
    file.write_text(TINY, encoding="utf-8")
    out = tmp_path / "tiny.png"
    result = CliRunner().invoke(app, ["map", "island-nation", "--map", str(file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 points, 1 evacuation points" in result.output and out.is_file()


def test_sim_map_rejects_other_games_and_bad_maps(app, tmp_path):
    result = CliRunner().invoke(app, ["map", "ocracoke", "--out", str(tmp_path / "x.png")])
    assert isinstance(result.exception, UserError) and "island-nation" in str(result.exception)
    file = tmp_path / "bad.toml"
    file.write_text(TINY.replace('"1-A"', '"1-B"'), encoding="utf-8")
    result = CliRunner().invoke(app, ["map", "island-nation", "--map", str(file), "--out", str(tmp_path / "y.png")])
    assert isinstance(result.exception, ScenarioError) and "roads[1] (1-B)" in str(result.exception)
