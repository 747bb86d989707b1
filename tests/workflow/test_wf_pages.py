"""Print-ready pages (issue 25 items 5-6): A4 everywhere, tables that fit their columns, no missing glyph."""

from __future__ import annotations

import io
import warnings

import matplotlib.pyplot as plt
import pytest
from pypdf import PdfReader

from sim.core import pages

A4_PT = (595, 841)


def _cells_fit(fig) -> list[str]:
    """The lines of table text the page draws, after checking that each one ends inside its column."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)  # a page is a plain Figure: measured on a raster canvas
    canvas.draw()
    renderer = canvas.get_renderer()
    width = fig.bbox.width
    checked = []
    for text in fig.texts:
        gid = text.get_gid() or ""
        if gid.startswith("cell "):
            x0, x1 = (float(v) * width for v in gid.split()[1:])
            box = text.get_window_extent(renderer)
            assert x0 - 0.5 <= box.x0 and box.x1 <= x1 + 0.5, (text.get_text(), box.x1, x1)
            checked.append(text.get_text())
    return checked


def test_p_values_print_below_what_a_double_holds_and_small_ones_in_e_notation():
    assert pages.p_text(0.0) == "< 1e-300"
    assert pages.p_text(1e-320) == "< 1e-300"
    assert pages.p_text(3.2e-12) == "3e-12"
    assert pages.p_text(0.0412) == "0.041"
    assert pages.p_text(0.5) == "0.5"


def test_table_cells_are_wrapped_to_their_column_and_split_between_rows():
    pages.use_fonts()
    long = "search as frogman: escaped by round 10 beyond noise " * 3
    rows = [[f"row {i}", long, "造勢晚會 走訪基層 地方掃街 立院決戰 挖角拔樁 電視辯論", "x" * 60, "12.34 % [11.00, 13.00]"]
            for i in range(60)]
    figs = pages.table_pages("A long table", ["arm", "metric", "名稱", "word", "estimate [95 %]"], rows,
                             [0.1, 0.3, 0.2, 0.15, 0.25])
    assert len(figs) > 1
    drawn = []
    for fig in figs:
        assert tuple(fig.get_size_inches()) == pages.PAGE
        drawn += _cells_fit(fig)
    assert sorted(t for t in drawn if t.startswith("row ")) == sorted(f"row {i}" for i in range(60))  # each once
    assert drawn.count("arm") == len(figs)  # the header on every page


def test_blocks_follow_one_another_and_a_short_table_is_not_split():
    """The skill curve's tables: a long table runs on over pages split between rows; the short table after it
    starts a new page when it would not fit whole below (its intro with it)."""
    long = [[f"row {i}", "a value [1, 2]"] for i in range(70)]
    short = [[f"gap {i}", "+1.0 pt [0.1, 2.0]"] for i in range(5)]
    figs = pages.blocks_pages("Tables", [(["The levels."], ["level", "value"], long, [0.5, 0.5]),
                                         (["The gaps."], ["level", "gap"], short, [0.5, 0.5])])
    drawn = [[t.get_text() for t in fig.texts] for fig in figs]
    rows = [t for page in drawn for t in page if t.startswith("row ")]
    assert rows == [f"row {i}" for i in range(70)] and len(figs) >= 2
    holding = [k for k, page in enumerate(drawn) if any(t.startswith("gap ") for t in page)]
    assert len(holding) == 1 and "The gaps." in drawn[holding[0]]  # all five gap rows and the intro together
    for fig in figs:
        _cells_fit(fig)


def test_a_report_of_more_than_twenty_pages_opens_no_pyplot_figure(tmp_path):
    """The Wonderful Island's report has 21 pages, all built before the PDF is written: as pyplot figures
    they passed pyplot's limit of 20 open figures (a warning in ``make report``) and stayed open in the
    process when a caller dropped them."""
    open_before = plt.get_fignums()
    rows = [[f"row {i}", "a value"] for i in range(1500)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figs = pages.table_pages("Many pages", ["name", "value"], rows, [0.5, 0.5])
        assert len(figs) > 20
        assert plt.get_fignums() == open_before
        out = pages.write_pdf(tmp_path / "many.pdf", "Many", "test", [("rows", fig) for fig in figs])
    assert len(PdfReader(out).pages) == len(figs)


def test_every_name_of_the_games_renders_without_a_missing_glyph(monkeypatch):
    """Every card, character, venue and meeting card of The Wonderful Island and every game's title in the
    report's fonts; a missing glyph is a warning at drawing time, made an error here."""
    from sim.core import registry
    from sim.games.wonderful_island.catalogue import load_catalogue
    from sim.games.wonderful_island.rules import VENUE_NAMES

    monkeypatch.delenv("SIM_SCENARIOS")  # the project's own scenarios, not the toy game's
    pages.use_fonts()
    cat = load_catalogue("base")
    names = [*cat.card_names, *cat.char_names, *cat.meeting_names, *VENUE_NAMES,
             *(spec.title for spec in registry.all_games().values())]
    fig = pages.text_pages("Names", [" ".join(names[i:i + 8]) for i in range(0, len(names), 8)])[0]
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")
        fig.savefig(io.BytesIO(), format="pdf")


def test_any_figure_goes_on_an_a4_page_with_its_title_wrapped(tmp_path):
    fig, ax = plt.subplots(figsize=(13, 4))
    ax.plot([0, 1], [0, 1])
    ax.set_title("a title far too long for the width of a portrait page " * 3)
    page = pages.on_a4(fig, caption=["The dashed line is the equal share."])
    assert tuple(page.get_size_inches()) == pages.PAGE
    assert "\n" in ax.get_title()
    path = pages.write_pdf(tmp_path / "x.pdf", "Test 測試", "subject",
                           [("One", page), *[("Two", f) for f in pages.text_pages("Two", ["text"] * 90)]])
    reader = PdfReader(str(path))
    assert pages.page_sizes_pt(path) == [A4_PT] * len(reader.pages)
    assert reader.metadata.title == "Test 測試"
    assert [o.title for o in reader.outline] == ["One", "Two"]
    assert "page 1 of" in reader.pages[0].extract_text()


@pytest.mark.parametrize("value", [0.5, 0.12345])
def test_percent_texts(value):
    assert pages.pct(value).endswith(" %")
    assert pages.pct_interval(value, value - 0.01, value + 0.01).count("%") == 1
